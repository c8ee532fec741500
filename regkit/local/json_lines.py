"""JSON lines read and written fast (orjson), as the standard library reads and writes them.

The world store and the OffeneRegister import handle millions of records a run, and the standard library's
``json`` spent much of their time. :func:`load_line` reads with orjson, and with ``json`` what orjson refuses but
``json`` reads (``NaN``, lone surrogates), so a line reads to the same value either way, but for one case: orjson
reads an integer beyond 64 bits as a float. No record regkit reads this way holds one (the OffeneRegister file
has two numbers per record at most, both small — a line number and a reference number; a world's files hold
amounts and counts), and looking for one would cost more than the parse.
:func:`dump_line_bytes` writes what ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` writes
(UTF-8, no spaces; a test compares both on generated values) for values without floats, and the same values for
floats (orjson writes ``1e16`` where ``json`` writes ``1e+16``); it falls back to ``json`` for what orjson
refuses (integers beyond 64 bits, lone surrogates, keys that are not strings). NaN and the infinities, which JSON
has no words for, come out as ``null`` (``json`` writes ``NaN``): its callers write mapped register records and
search results, which hold none.

The bundled world's files are written with ``json`` (:func:`regkit.local.world.store.dump_line`), byte for byte
as ever; these are for the import and the store, whose bytes depend on their input only.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["dump_line_bytes", "dump_text", "load_line"]


def dump_line_bytes(value: Any) -> bytes:
    """``value`` as compact JSON (UTF-8 bytes, no newline), as ``json.dumps(value, ensure_ascii=False,
    separators=(",", ":"))`` writes it."""
    try:
        return orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):
        return _standard(value).encode("utf-8", "surrogatepass")


def dump_text(value: Any) -> str:
    """``value`` as compact JSON text (see :func:`dump_line_bytes`)."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return _standard(value)


def _standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_line(line: bytes | str) -> Any:
    """The value of one JSON line.

    Raises
    ------
    ValueError
        The line is not JSON (``json.JSONDecodeError``, as ``json.loads`` raises it).
    """
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)
