"""Rendering records for a terminal: nested members in full and readable, frames as tables, and why a search row
matched. A presigned (signed) URL is shown without its signature: a table is read, copied and logged, and the link
is a credential until it expires; ``--format json`` keeps the raw answer, links included.

Used by :mod:`regkit.client.cli`; plain functions over plain data, so they are tested without a
terminal.
"""

from __future__ import annotations

import re
import shutil
import textwrap
import unicodedata
from collections.abc import Mapping
from typing import Any

__all__ = ["record_lines", "inline", "matched_fields", "fold", "frame_lines", "unsigned"]

_SKIP: tuple[object, ...] = (None, "", [], {})

#: Query parameters that make a URL a presigned one (the register's ``expires``/``signature``, S3's
#: ``X-Amz-Signature``/``X-Amz-Credential``, GCS's ``X-Goog-Signature``, Azure's ``sig``, a ``token``).
_SIGNING = re.compile(r"(?:^|[-_])(?:signature|sig|expires|token|credential|key)$", re.IGNORECASE)


def unsigned(text: str) -> str:
    """``text``, or — when it is a presigned URL — the URL without its query and a note where the link is.

    Examples
    --------
    >>> unsigned("http://local.regkit/v1/documents/6003acfd?expires=1796542906&signature=eb44128b")
    'http://local.regkit/v1/documents/6003acfd (presigned link left out: --format json has it)'
    >>> unsigned("https://example.org/about?page=2")
    'https://example.org/about?page=2'
    """
    from urllib.parse import parse_qsl, urlsplit

    if not text.startswith(("http://", "https://")) or "?" not in text:
        return text
    parts = urlsplit(text)
    if not any(_SIGNING.search(name) for name, _ in parse_qsl(parts.query, keep_blank_values=True)):
        return text
    return f"{parts.scheme}://{parts.netloc}{parts.path} (presigned link left out: --format json has it)"


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return unsigned(value)
    return str(value)


def inline(value: Any) -> str:
    """One member as one line of text: a mapping as ``key: value, …`` (empty members left out),
    nested mappings in parentheses, lists joined with ``; ``.

    Examples
    --------
    >>> inline({"name": "Gerber Dienstleistungen GmbH", "legal_form": "gmbh", "start_date": "2026-01-12", "end_date": None})
    'name: Gerber Dienstleistungen GmbH, legal_form: gmbh, start_date: 2026-01-12'
    >>> inline({"natural_person": {"first_name": "Ida", "last_name": "Roth"}, "role": "director"})
    'natural_person: (first_name: Ida, last_name: Roth), role: director'
    """
    if isinstance(value, Mapping):
        parts = []
        for key, member in value.items():
            if member in _SKIP:
                continue
            text = inline(member)
            parts.append(f"{key}: ({text})" if isinstance(member, Mapping) else f"{key}: {text}")
        return ", ".join(parts)
    if isinstance(value, (list, tuple)):
        return "; ".join(inline(v) for v in value)
    return "" if value is None else _scalar(value)


def _count(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def record_lines(record: Mapping[str, Any], width: int | None = None) -> list[str]:
    """A record as aligned ``member  value`` lines, every nested member in full, wrapped to ``width``
    (default: the terminal's) with a hanging indent.  A list of mappings gets a count and one
    ``- `` line per entry; nothing is cut off.
    """
    width = width or shutil.get_terminal_size((120, 24)).columns
    keys = list(record.keys())
    label = max((len(k) for k in keys), default=0) + 2
    room = max(40, width - label)
    lines: list[str] = []
    for key in keys:
        value = record[key]
        if isinstance(value, (list, tuple)) and any(isinstance(v, Mapping) for v in value):
            body = [_count(len(value))] + [f"- {inline(v)}" for v in value]
        elif isinstance(value, (list, tuple)) and not value:
            body = ["(none)"]
        else:
            body = [inline(value)]
        first = True
        for text in body:
            hanging = "  " if text.startswith("- ") else ""
            wrapped = textwrap.wrap(
                text, room, subsequent_indent=hanging, break_long_words=False, break_on_hyphens=False
            ) or [""]
            for piece in wrapped:
                lines.append(f"{key if first else '':<{label}}{piece}".rstrip())
                first = False
    return lines


_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
_DIGRAPHS = re.compile(r"(?<=[a-z])(ae|oe|ue)")


def fold(text: str) -> str:
    """Case, diacritics and the German spellings ``ä``/``ae``, ``ö``/``oe``, ``ü``/``ue``, ``ß``/``ss``
    folded to one form, as the register's search folds them.

    Examples
    --------
    >>> fold("Müller") == fold("MUELLER") == fold("muller")
    True
    """
    lowered = text.casefold().translate(_UMLAUTS)
    lowered = _DIGRAPHS.sub(lambda m: m.group(1)[0], lowered)
    decomposed = unicodedata.normalize("NFKD", lowered)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_TOKEN = re.compile(r"\w+")
_MATCH_FIELDS = (
    ("debtor_name", "debtor"),
    ("case_number", "case number"),
    ("administrator_name", "administrator"),
    ("court", "court"),
)


def matched_fields(row: Mapping[str, Any], query: str) -> str:
    """Which searchable members of an insolvency search result contain a word of ``query``, e.g.
    ``"administrator: Dr. Petra Müller"`` — so a row that matched through its administrator or its
    court does not look like a wrong answer.  The debtor is named without repeating it.

    Examples
    --------
    >>> matched_fields({"debtor_name": "Faber GmbH", "administrator_name": "Dr. Petra Müller",
    ...                 "court": "Amtsgericht Fulda"}, "mueller")
    'administrator: Dr. Petra Müller'
    """
    words = [fold(w) for w in _TOKEN.findall(query or "")]
    if not words:
        return ""
    found = []
    for field, label in _MATCH_FIELDS:
        value = row.get(field)
        if not isinstance(value, str):
            continue
        tokens = [fold(t) for t in _TOKEN.findall(value)]
        if any(t.startswith(w) for w in words for t in tokens):
            found.append(label if field == "debtor_name" else f"{label}: {value}")
    return "; ".join(found)


def _cell(value: Any, column: str) -> str:
    import pandas as pd

    if pd.isna(value):
        return ""
    if hasattr(value, "strftime"):
        return str(value.strftime("%Y-%m-%d"))
    if column == "share":
        return f"{value * 100:.2f} %"
    if column == "nominal_share":
        return f"{value:,.2f} EUR"
    return _scalar(value)


def frame_lines(frame: Any, columns: list[str]) -> list[str]:
    """A frame of :mod:`regkit.frames` as aligned text lines: ``columns`` (those present), dates as
    ``YYYY-MM-DD``, ``share`` (a fraction) as a percentage, ``nominal_share`` in EUR, nulls empty, booleans
    ``yes``/``no``; ``(none)`` for no rows.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"holder_name": ["Ida Roth"], "share": pd.array([0.5], dtype="Float64"),
    ...                       "start": pd.to_datetime(["2019-04-01"]), "end": [pd.NaT]})
    >>> print("\\n".join(frame_lines(frame, ["holder_name", "share", "start", "end"])))
    holder_name  share    start       end
    Ida Roth     50.00 %  2019-04-01
    """
    shown = [c for c in columns if c in frame.columns]
    if not len(frame):
        return ["(none)"]
    cells = [
        [_cell(value, column) for column, value in zip(shown, row)] for row in frame[shown].itertuples(index=False)
    ]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(shown)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(shown, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return lines
