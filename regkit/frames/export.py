"""``export_parquet``: the cache as a dataset — every cached answer as Parquet tables with the frames' dtypes.

Months of lookups sit in the cache; this writes them out for DuckDB, pandas, pyarrow or Dask, reading the cache
only (``client.cache.scan()`` and ``client.cache.read(keys)``): nothing is sent and no credit is spent. Two passes keep memory bounded: the
first reads every stored answer's request line and date and picks the newest answer per company, person, owners,
holdings and proceeding (:mod:`regkit.frames.export_sources`); the second reads the picked answers a batch at a
time, in id order (:mod:`regkit.frames.export_pass`), builds each batch's frames with the :mod:`regkit.frames`
builders (:mod:`regkit.frames.export_tables`) and appends them to the tables' part files
(:mod:`regkit.frames.export_files`). Records in, frames out: this package imports nothing of the client. It
reads any object with the members of :class:`StoredAnswers` — ``regkit.client.cache.client_cache.ClientCache`` is one, and
``client.export_parquet(directory)`` passes its own cache with the request header that marks user-scoped answers.
An answer that cannot be read is counted in the manifest's ``left_out["unreadable"]``.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from regkit.errors import ValidationError
from regkit.schema.interface import SCOPE_HEADER

from .export_files import MANIFEST, TargetRefused, check_target, publish, remove_staging, require_pyarrow, staging_dir
from .export_manifest import build_manifest
from .export_pass import write_tables
from .export_sources import StoredAnswer, survey

__all__ = ["export_parquet", "StoredAnswers", "SCOPE_HEADER", "stored_answers_of"]

logger = logging.getLogger("regkit.frames")


@runtime_checkable
class StoredAnswers(Protocol):
    """What an export reads of a cache: its stored answers, where it lives, and whether it is on.

    ``regkit.client.cache.client_cache.ClientCache`` (a client's ``client.cache``) has these members; the export needs
    nothing else of the client.
    """

    @property
    def backend(self) -> object | None:
        """The storage (its type name goes into the manifest); ``None`` when the cache is off."""

    def location(self) -> str:
        """Where the cache lives, never with a password."""

    def scan(self, unreadable: list[str] | None = None) -> Iterable[StoredAnswer]:
        """Every stored answer, expired ones included; keys that cannot be read are appended to ``unreadable``."""

    def read(self, keys: Sequence[str]) -> Mapping[str, StoredAnswer]:
        """The stored answers of ``keys`` that can be read."""


def export_parquet(
    cache: object,
    directory: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    rows_per_file: int = 1_000_000,
    scope_header: str = SCOPE_HEADER,
) -> dict[str, Any]:
    """Write everything a cache holds as Parquet tables with the frames' dtypes, and a manifest: 0 credits.

    Parameters
    ----------
    cache : StoredAnswers, or a Client
        Whose cache: a client's ``client.cache`` (``client.export_parquet(directory)`` passes it), any other
        object with the members of :class:`StoredAnswers`, or an object whose ``cache`` is one (a client). A bare
        requests-cache backend is refused: open it in a client, ``regkit.Client(cache=backend)``. Only the cache
        is read: nothing is sent.
    directory : str or path
        A new or empty directory (created with its parents). The export is written beside it first and moved in
        when complete, so the directory never holds half an export.
    overwrite : bool, default False
        Replace a previous export in ``directory``: its ``manifest.json`` and the table directories it lists.
        Anything else there makes the export refuse, and nothing is deleted.
    rows_per_file : int, default 1,000,000
        Most rows in one part file of a table.
    scope_header : str, default :data:`SCOPE_HEADER`
        The request header stored with user-scoped answers; answers stored with it are left out.

    Returns
    -------
    dict
        The manifest, as written to ``directory/manifest.json``: ``format``, ``format_version``,
        ``regkit_version``, ``exported_at`` (UTC), ``cache`` (backend and location, never a password),
        ``credits_spent`` and ``requests_sent`` (0: the export sends nothing), ``tables`` (per table: ``rows``,
        ``files`` relative to ``directory``, ``columns`` with their pandas dtypes, ``made_by`` the builder call,
        ``from`` the answer kinds), ``sources`` (per answer kind: ``answers``, ``exported``, ``expired``,
        ``origins``, ``first_fetched_at``, ``last_fetched_at``) and ``left_out`` (answers not exported, by
        reason).

    Raises
    ------
    ValidationError
        Before anything is read or written: a malformed argument (also a cache that is neither a client nor
        :class:`StoredAnswers`), a cache that is off, a ``directory`` that is
        a file or not empty (without ``overwrite``), or holds more than a previous export (with it).
    ImportError
        pyarrow is not installed (``pip install pyarrow``).

    Notes
    -----
    **Tables.** One directory of ``part-NNNNN.parquet`` files per table. Each table is the frame of a
    :mod:`regkit.frames` builder over the cached records — ``pd.read_parquet(directory / "names")`` equals
    ``regkit.frames.history(records, "names")`` with its dtypes (categories, ``Float64``, ``Int64``, ``str``,
    ``datetime64[us]``); the builders' docstrings list the columns:

    ==========================================================  =====================================================
    table                                                       builder, over
    ==========================================================  =====================================================
    companies                                                   ``companies``, company answers
    names, addresses, purposes, capitals, registers             ``history(records, "names")``, …
    representatives, indicators, links, documents,              ``representatives`` (``active_on`` unset),
    industry_codes, contact, insolvency_summaries               ``indicators`` (EUR, wide), ``links``, …
    owners                                                      ``owners``, owners answers
    holdings                                                    ``holdings``, company and person holdings answers
    persons, management_positions                               ``persons``, ``management_positions``, person answers
    proceedings, events                                         ``proceedings``, ``events``, insolvency answers
    insolvency_results, company_search_results,                 the search frames, over the results of cached
    person_search_results                                       search pages
    ==========================================================  =====================================================

    Every row keeps the id that joins it (``company_id``, ``person_id``, ``holder_id``, ``insolvency_id``, ``id``).
    Rows follow the things' ids (holdings: companies' holdings, then persons'); search results come newest page
    first, each result once. When several answers stand for one thing (with and without ``export=true``, by a
    former and the current id, with and without ``best_available``), the newest is exported. Expired answers are
    exported too (``sources.expired`` says which). Left out: user-scoped answers (Transparenzregister extracts),
    autocomplete suggestions and answers that cannot be read (counted in ``left_out``).

    The tables are not hive-partitioned by a column: a partition column comes back from pandas and pyarrow as the
    directory names' dictionary, at the end, and the re-read would no longer equal the frame. DuckDB
    (``read_parquet('DIR/companies/*.parquet')``), ``pd.read_parquet``, ``pyarrow.dataset`` and Dask read the
    directories as they are; rows sorted by id and row-group statistics let a filter skip what it excludes.

    **versions** and **changes**: every older answer a refresh kept (``versions``: its kind, thing, path, when it
    was fetched and when the answer replacing it was, its JSON ``body``), and what changed from each answer to the
    next (``changes``: the columns of :meth:`regkit.client.Client.changes`, ``before``, ``after`` and ``detail`` as
    JSON text) — for company, owners, holdings, person, person holdings and insolvency answers
    (:mod:`regkit.frames.export_versions`).

    **sources** lists every answer read, one row each:

    ==========  ===================  ==============================================================
    kind        category             company, owners, holdings, person, person_holdings, insolvency,
                                     insolvency_search, company_search, person_search
    entity_id   str                  the company, person or proceeding it is about (NaN for searches)
    origin      str                  scheme, host and port of the service (never a user or password)
    method      category             GET / POST
    path        str                  from ``/v1/`` (a search's body, the query, is not stored)
    query       str                  ``realtime``, ``export``, ``best_available`` as asked; NaN if none
    fetched_at  datetime64[us, UTC]  when the interface produced it
    expires     datetime64[us, UTC]  when the cache stops serving it (NaT: never)
    expired     bool                 it had expired when exported
    exported    bool                 its rows are in the tables (False: a newer answer superseded it,
                                     or it could not be read)
    ==========  ===================  ==============================================================

    Examples
    --------
    >>> import regkit                                                     # doctest: +SKIP
    >>> client = regkit.Client()                                          # doctest: +SKIP
    >>> manifest = client.export_parquet("register-dataset")              # doctest: +SKIP
    >>> manifest["tables"]["companies"]["rows"], manifest["credits_spent"]  # doctest: +SKIP
    (42, 0)
    >>> import duckdb                                                     # doctest: +SKIP
    >>> duckdb.sql("SELECT legal_form, count(*) FROM 'register-dataset/companies/*.parquet' GROUP BY 1")
    ... # doctest: +SKIP
    """
    handle = stored_answers_of(cache)
    target = _directory(directory)
    overwrite = _flag(overwrite, "overwrite")
    rows_per_file = _positive(rows_per_file, "rows_per_file")
    if not isinstance(scope_header, str) or not scope_header.strip():
        raise ValidationError(f"scope_header must be the name of a request header, not {scope_header!r}")
    require_pyarrow()
    if handle.backend is None:
        raise ValidationError(
            "this cache is off (cache=False): there is nothing to export",
            suggestion="export the cache your lookups went to, e.g. Client(cache='sqlite')",
        )
    _check_target(target, overwrite)
    started = datetime.now(timezone.utc)
    unreadable: list[str] = []
    found = survey(handle.scan(unreadable), started, scope_header)
    if unreadable:  # damaged, or written in another format: counted, never silently dropped
        found.skipped["unreadable"] += len(unreadable)
    staging = staging_dir(target)
    try:
        versions = getattr(handle, "versions_of", None)
        writers, exported = write_tables(handle.read, found, staging, rows_per_file, versions)
        manifest = build_manifest(handle.backend, handle.location(), started, writers, found, exported)
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        publish(staging, target, _check_target(target, overwrite))
    except BaseException:
        remove_staging(staging)
        raise
    logger.info("exported %d answer(s) of %s to %s", len(exported), handle.location(), target)
    return manifest


def _check_target(target: Path, overwrite: bool) -> list[Path]:
    try:
        return check_target(target, overwrite)
    except TargetRefused as refused:
        raise ValidationError(str(refused), suggestion=refused.suggestion) from None


def stored_answers_of(cache: object) -> StoredAnswers:
    """``cache`` as :class:`StoredAnswers`: itself, or a client's ``cache``; a clear error for anything else."""
    if isinstance(cache, StoredAnswers):
        return cache
    handle = getattr(cache, "cache", None)
    if isinstance(handle, StoredAnswers):
        return handle
    if type(cache).__module__.startswith("requests_cache"):
        raise ValidationError(
            f"a requests-cache backend ({type(cache).__name__}) is not read directly: open it in a client",
            suggestion="regkit.Client(cache=backend).export_parquet(directory)",
        )
    raise ValidationError(
        f"cache must be a regkit Client or its .cache, not {type(cache).__name__}",
        suggestion="client.export_parquet(directory)",
    )


def _directory(directory: Any) -> Path:
    if not isinstance(directory, (str, os.PathLike)) or not str(directory).strip():
        raise ValidationError(
            f"directory must be a path, not {directory!r}", suggestion="e.g. export_parquet(client, 'register-dataset')"
        )
    return Path(directory).expanduser().absolute()


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(f"{name} must be True or False, not {value!r}")
    return value


def _positive(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValidationError(f"{name} must be a whole number of at least 1, not {value!r}")
    return value
