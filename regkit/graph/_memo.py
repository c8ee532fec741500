"""Build-time helpers of :func:`regkit.graph.from_companies`: memoised date parsing and a paused collector."""

from __future__ import annotations

import datetime as _dt

from regkit.common.memory import gc_paused

__all__ = ["Dates", "gc_paused"]

_iso = _dt.date.fromisoformat


class Dates(dict):
    """``YYYY-MM-DD`` → :class:`datetime.date`, parsed once per distinct string (``None``/"" → ``None``).

    Examples
    --------
    >>> dates = Dates()
    >>> dates["2020-01-31"], dates[None]
    (datetime.date(2020, 1, 31), None)
    """

    def __init__(self) -> None:
        super().__init__({None: None, "": None})

    def __missing__(self, text: str) -> _dt.date:
        value = self[text] = _iso(text)
        return value
