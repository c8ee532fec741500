"""The world store: a world directory built once into an indexed SQLite file and opened read-only, at once.

A world directory (``world.json`` and the ``*.jsonl.gz`` files, see :mod:`regkit.local.world.store`) stays the
source of truth; the store is derived from it and answers the same records one at a time, so opening a world
costs the same whether it holds 5,000 companies or 5,000,000. A store is a directory::

    store/
        records.sqlite   the records and the lookups derived from them (tables below)
        search/          the search indexes: companies.sqlite, insolvencies.sqlite, persons.sqlite
        store.json       the manifest, written last: the store format, the size of records.sqlite, and the
                         source files' names, sizes, mtime_ns and their sha256 (a store without a valid
                         manifest is incomplete and never used)

``records.sqlite`` holds ``meta(key, value)`` (``world.json`` without ``former_ids``, the counts, the records'
compression dictionary), ``companies``, ``realtime`` and ``insolvencies`` (``id`` → the record as compact JSON,
exactly the line of the source file, compressed with a dictionary trained on the first records: :class:`RecordCodec`),
``shareholdings`` (in file order, indexed by company and holder), ``former_ids``,
``documents`` (id → company id and document), ``persons`` (UUID → details), ``positions`` (a person's
management positions), ``websites`` (host → company id), and ``derived`` with ``derived_marks``: the members of
a company's record that are derived, not the register's, as the ``X-Regkit-Derived`` header of a company lookup
sends them (:func:`regkit.schema.derived.format_marks`). ``derived_marks`` holds each distinct value once (``n`` →
text: an imported world has a few dozen, its companies share them), ``derived`` maps a company id to its value's
``n`` (``WITHOUT ROWID``: about 30 bytes a company); only companies with derived members are in
it, only in a world that has ``derived.jsonl.gz`` (one imported from OffeneRegister).

The source files are the world's files (:data:`~regkit.local.world.store.WORLD_FILES`) and, where the world has
it, ``derived.jsonl.gz`` (:data:`OPTIONAL_FILES`): a store is rebuilt when any of them changes.

Where a world's store lives (:func:`ensure_store`): ``DIR/store/`` when it is complete and made from the
current files; else, for a world directory the user can write (not the bundled world), it is built there; the
bundled world (in the wheel or a checkout) and read-only directories get theirs in the user cache directory
(``REGKIT_WORLD_CACHE``, else ``<user cache dir>/regkit/worlds``), keyed by the sha256 of the source files.
Builds go to a temporary directory renamed into place, so an interrupted build leaves no half store that could
be used, and two processes building at once both end with a good store.

The modules, bottom to top (each imports only modules listed before it):

- :mod:`~regkit.local.world.world_store.layout`: the store's files and format, the source files' stamps and
  digest, :func:`check_store` (complete, undamaged, this format);
- :mod:`~regkit.local.world.world_store.read`: :class:`StoredWorld` and its read-only mappings over
  ``records.sqlite``, the persons (:func:`read_person`, :func:`read_people`);
- :mod:`~regkit.local.world.world_store.records`: writing ``records.sqlite`` (:func:`company_store_rows`,
  :class:`CompanyRecordFeed`);
- :mod:`~regkit.local.world.world_store.indexes`: building the search indexes (in a second process, or here);
- :mod:`~regkit.local.world.world_store.placement`: the building directory and its atomic rename into place;
- :mod:`~regkit.local.world.world_store.build`: :func:`build_store` and :class:`StoreBuild`, the whole build;
- :mod:`~regkit.local.world.world_store.cache`: where a store lives and finding it (:func:`ensure_store`,
  :func:`world_cache_dir`, :func:`open_world`, :func:`store_for_world`).

Every name is importable from this package as well (``from regkit.local.world.world_store import open_world``).
"""

from __future__ import annotations

from .build import PARALLEL_FROM, StoreBuild, build_store
from .cache import ensure_store, open_world, store_for_world, world_cache_dir
from .indexes import build_record_indexes_from_files
from .layout import (
    MANIFEST,
    OPTIONAL_FILES,
    RECORDS,
    SEARCH,
    STORE_FORMAT,
    StoreError,
    check_store,
    source_digest,
    source_stamps,
)
from .read import Lookup, RecordTable, ShareholdingRows, StoreDatabase, StoredWorld, read_people, read_person
from .records import CompanyRecordFeed, company_store_rows

__all__ = [
    "STORE_FORMAT",
    "OPTIONAL_FILES",
    "PARALLEL_FROM",
    "SEARCH",
    "RECORDS",
    "MANIFEST",
    "StoreError",
    "StoreBuild",
    "CompanyRecordFeed",
    "company_store_rows",
    "StoredWorld",
    "RecordTable",
    "ShareholdingRows",
    "Lookup",
    "StoreDatabase",
    "build_store",
    "build_record_indexes_from_files",
    "ensure_store",
    "open_world",
    "read_person",
    "read_people",
    "store_for_world",
    "world_cache_dir",
    "source_stamps",
    "source_digest",
    "check_store",
]
