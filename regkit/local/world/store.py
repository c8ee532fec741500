"""Reading and writing a world directory (the format the local register serves).

A world directory holds::

    world.json                  metadata: seed, size, users and plans, Transparenzregister accounts and
                                entity matches, groups, scenarios (see ``data/README.md``)
    companies.jsonl.gz          one CompanyV1 per line, sorted by id, exactly as ``export=true`` returns it
                                (no ``sources``: the server signs one URL per document at request time)
    realtime.jsonl.gz           CompanyV1 records as a ``realtime=true`` lookup returns them (pending
                                register changes applied); only companies with pending changes
    insolvencies.jsonl.gz       one proceeding per line, sorted by id: every member of
                                ``GET /v1/insolvency/{id}`` plus the search-only members ``city``,
                                ``person_id`` and ``has_open_insolvency``
    shareholdings.jsonl.gz      who holds what share of which company (for beneficial owners)

Files are written deterministically (gzip without timestamp or file name, JSON with fixed separators),
so rebuilding a world with the same seed and size reproduces it byte for byte.

These files are the source of truth; the local register serves a world from its store, an indexed SQLite file
built once from them (:mod:`regkit.local.world.world_store`). :func:`read_world` reads every record into memory
(the tests' reference for the store's answers, and the benchmarks' baseline).
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from regkit.schema.courts import reference_dir

__all__ = [
    "World",
    "WORLD_FILES",
    "bundled_data_dirs",
    "default_reference_dir",
    "default_data_dir",
    "read_world",
    "require_world_files",
    "write_world",
    "iter_jsonl",
    "dump_line",
    "gzip_writer",
    "write_meta",
]

FORMAT_VERSION = 1

WORLD_FILES = (
    "world.json",
    "companies.jsonl.gz",
    "realtime.jsonl.gz",
    "insolvencies.jsonl.gz",
    "shareholdings.jsonl.gz",
)


@dataclass
class World:
    """An in-memory world.

    Attributes
    ----------
    meta : dict
        The content of ``world.json``.
    companies : dict[str, dict]
        CompanyV1 records by id (without ``sources``), in id order.
    realtime : dict[str, dict]
        CompanyV1 records as a realtime lookup shows them, for companies with pending changes.
    insolvencies : dict[str, dict]
        Proceedings by id, detail members plus ``city``, ``person_id``, ``has_open_insolvency``.
    shareholdings : list[dict]
        ``{"company_id", "holder_id", "holder_type", "holder_name", "share"}`` with ``share`` in (0, 1].
    """

    meta: dict[str, Any]
    companies: dict[str, dict[str, Any]] = field(default_factory=dict)
    realtime: dict[str, dict[str, Any]] = field(default_factory=dict)
    insolvencies: dict[str, dict[str, Any]] = field(default_factory=dict)
    shareholdings: list[dict[str, Any]] = field(default_factory=list)


def bundled_data_dirs() -> tuple[Path, Path]:
    """Where the bundled world may be: in the installed package, then ``data/`` of a checkout.

    A wheel carries the repository's ``data/`` as ``regkit/_data`` (see ``pyproject.toml``); a source
    checkout or an editable install has it as ``data/`` beside the ``regkit`` package.
    """
    package = Path(__file__).resolve().parents[2]
    return package / "_data", package.parent / "data"


def default_data_dir() -> Path:
    """Return the directory of the bundled world (which also holds the reference lists, ``reference/``).

    ``REGKIT_DATA_DIR`` overrides it (read at call time); otherwise the first of
    :func:`bundled_data_dirs` that exists: ``regkit/_data`` in an installed wheel, ``data/`` in a checkout.
    """
    env = os.environ.get("REGKIT_DATA_DIR")
    if env:
        return Path(env)
    installed, checkout = bundled_data_dirs()
    return installed if installed.is_dir() else checkout


def default_reference_dir() -> Path:
    """The reference lists worlds are built from: ``reference/`` of :func:`default_data_dir` when it
    holds them, else those bundled with regkit (so ``REGKIT_DATA_DIR`` pointing at a built world
    needs no ``--reference``)."""
    return reference_dir()  # the one rule, shared with the client's court lists


def dump_line(record: dict[str, Any]) -> str:
    """One record as a line of a world's ``.jsonl.gz`` files (without the newline)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def gzip_writer(raw: BinaryIO, compresslevel: int = 6) -> gzip.GzipFile:
    """A gzip stream onto ``raw`` as a world's files are written: no file name and no timestamp in the header,
    level 6 unless told (the OffeneRegister import writes level 1, for speed), so the bytes depend on the content
    only."""
    return gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=compresslevel)


def fast_gzip_writer(raw: BinaryIO) -> gzip.GzipFile:
    """A gzip stream onto ``raw`` compressed by ISA-L (python-isal, its level 1): six times faster than zlib's
    level 1 and a little smaller, for the files an import writes by the gigabyte. Header as
    :func:`gzip_writer`'s (the bytes depend on the content and the ISA-L version only); any gzip reader reads it.
    The bundled world stays zlib's level 6 (:func:`gzip_writer`), byte for byte."""
    from isal import igzip

    return igzip.IGzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=1)


def gzip_reader(path: Path) -> BinaryIO:
    """``path`` (a gzip file) opened for reading its decompressed bytes, decompressed by ISA-L (python-isal):
    half the time zlib takes, for the store build and the import that read a world's files by the gigabyte."""
    from isal import igzip

    return igzip.open(path, "rb")


def _write_gz_lines(path: Path, lines: Iterable[str]) -> None:
    with path.open("wb") as raw, gzip_writer(raw) as gz:
        for line in lines:
            gz.write(line.encode("utf-8"))
            gz.write(b"\n")


def iter_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the records of one ``.jsonl.gz`` file of a world."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def write_world(world: World, out: str | os.PathLike[str]) -> Path:
    """Write ``world`` to the directory ``out`` (created if missing) and return its path."""
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    write_meta(directory / "world.json", world.meta)
    _write_gz_lines(directory / "companies.jsonl.gz", (dump_line(c) for _, c in sorted(world.companies.items())))
    _write_gz_lines(directory / "realtime.jsonl.gz", (dump_line(c) for _, c in sorted(world.realtime.items())))
    _write_gz_lines(directory / "insolvencies.jsonl.gz", (dump_line(p) for _, p in sorted(world.insolvencies.items())))
    _write_gz_lines(directory / "shareholdings.jsonl.gz", (dump_line(s) for s in world.shareholdings))
    return directory


def write_meta(path: Path, meta: dict[str, Any]) -> None:
    """Write ``world.json`` (``meta`` and the format version) to ``path``."""
    content = {**meta, "format": FORMAT_VERSION}
    path.write_text(json.dumps(content, ensure_ascii=False, indent=1, sort_keys=False) + "\n", encoding="utf-8")


def read_world(path: str | os.PathLike[str] | None = None) -> World:
    """Read a world directory (default: the bundled one, see :func:`default_data_dir`).

    Raises
    ------
    FileNotFoundError
        When a file of the world is missing, with the command that builds one.
    """
    directory = Path(path) if path is not None else default_data_dir()
    require_world_files(directory)
    meta = json.loads((directory / "world.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT_VERSION:
        raise ValueError(
            f"{directory}/world.json has format {meta.get('format')!r}; this regkit reads {FORMAT_VERSION}."
        )
    return World(
        meta=meta,
        companies={c["id"]: c for c in iter_jsonl(directory / "companies.jsonl.gz")},
        realtime={c["id"]: c for c in iter_jsonl(directory / "realtime.jsonl.gz")},
        insolvencies={p["id"]: p for p in iter_jsonl(directory / "insolvencies.jsonl.gz")},
        shareholdings=list(iter_jsonl(directory / "shareholdings.jsonl.gz")),
    )


def require_world_files(directory: Path) -> None:
    """Raise :class:`FileNotFoundError` when a file of the world in ``directory`` is missing: the message says
    where regkit looked and what builds a world (:func:`read_world` and the world store say it alike).

    Raises
    ------
    FileNotFoundError
        ``directory`` lacks a file of :data:`WORLD_FILES`.
    """
    missing = [name for name in WORLD_FILES if not (directory / name).is_file()]
    if missing:
        raise FileNotFoundError(_not_a_world(directory, missing))


def _not_a_world(directory: Path, missing: list[str]) -> str:
    """The message for a directory that is not a world: where regkit looked, and what works."""
    build = "`regkit world build --companies 5000 --seed 20261121 --out DIR`"
    missing_text = f"missing {', '.join(missing)}"
    resolved = directory.resolve()
    env = os.environ.get("REGKIT_DATA_DIR")
    if env and resolved == Path(env).resolve():
        return (
            f"REGKIT_DATA_DIR points at {directory}, which is not a regkit world ({missing_text}). "
            f"Unset it to use the world bundled with regkit, or point it at a world directory "
            f"({build} builds one)."
        )
    installed, checkout = bundled_data_dirs()
    if resolved in (installed.resolve(), checkout.resolve()):
        return (
            f"The world bundled with regkit is missing ({directory}: {missing_text}). Reinstall regkit "
            f"(`pip install --force-reinstall regkit-<version>-py3-none-any.whl`, or `pip install -e .` in a clone of its repository), "
            f"or set REGKIT_DATA_DIR to a world directory."
        )
    return f"{directory} is not a regkit world ({missing_text}). Pass the directory of a world ({build} builds one)."
