"""The credits ledger: one row per call the client answered, from the network or the cache."""

from __future__ import annotations

import threading
from dataclasses import astuple, dataclass, fields
from datetime import datetime, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported when a frame is asked for, not with the client
    import pandas as pd

__all__ = ["Ledger", "LedgerRow", "SOURCES"]

#: Where an answer came from: sent over the network, read from the cache, or shared with a
#: concurrent identical call that was already in flight.
SOURCES = ("network", "cache", "merged")


@dataclass(frozen=True)
class LedgerRow:
    """One answered call (see :meth:`Ledger.to_dataframe` for the meaning of each field)."""

    time: datetime
    call: str
    method: str
    path: str
    status: int | None
    credits: int
    saved: int
    source: str
    attempts: int
    uncertain: int
    error: str | None


_DTYPES = {
    "time": "datetime64[us, UTC]",
    "call": "str",
    "method": "str",
    "path": "str",
    "status": "Int64",
    "credits": "int64",
    "saved": "int64",
    "source": "str",
    "from_cache": "bool",
    "attempts": "int64",
    "uncertain": "int64",
    "error": "str",
}


class Ledger:
    """A thread-safe record of what every call cost and what the cache saved."""

    def __init__(self) -> None:
        self._rows: list[LedgerRow] = []
        self._lock = threading.Lock()

    def record(
        self,
        *,
        call: str,
        method: str,
        path: str,
        status: int | None,
        credits: int = 0,
        saved: int = 0,
        source: str = "network",
        attempts: int = 1,
        uncertain: int = 0,
        error: str | None = None,
    ) -> LedgerRow:
        """Append one row and return it."""
        if source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
        row = LedgerRow(
            datetime.now(timezone.utc), call, method, path, status, credits, saved, source,
            attempts, uncertain, error,
        )  # fmt: skip
        with self._lock:
            self._rows.append(row)
        return row

    def rows(self) -> list[LedgerRow]:
        """A copy of the rows, oldest first."""
        with self._lock:
            return list(self._rows)

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)

    @property
    def spent(self) -> int:
        """Credits the interface charged (``X-Credits-Charged``, else the price table)."""
        with self._lock:
            return sum(row.credits for row in self._rows)

    @property
    def saved(self) -> int:
        """Credits not spent because the answer came from the cache or a merged call."""
        with self._lock:
            return sum(row.saved for row in self._rows)

    @property
    def uncertain(self) -> int:
        """Credits possibly charged by attempts that got no answer (timeouts)."""
        with self._lock:
            return sum(row.uncertain for row in self._rows)

    def clear(self) -> None:
        """Forget every row."""
        with self._lock:
            self._rows.clear()

    def to_dataframe(self) -> pd.DataFrame:
        """Return the ledger as a DataFrame, one row per call, oldest first.

        Returns
        -------
        pandas.DataFrame
            Columns and dtypes:

            ==========  ===================  ==================================================
            time        datetime64[us, UTC]  when the call was answered
            call        str                  client method (``get_company``, ...)
            method      str                  HTTP method
            path        str                  request path with query, e.g. ``/v1/company/ID?realtime=true``
            status      Int64                HTTP status of the last attempt (NA: none came)
            credits     int64                credits charged, over all attempts
            saved       int64                credits not spent thanks to the cache or a merged call
            source      str                  ``network``, ``cache`` or ``merged``
            from_cache  bool                 ``source != "network"``
            attempts    int64                requests sent for this call (0 for cache / merged)
            uncertain   int64                credits attempts without an answer may have cost
            error       str                  exception class name when the call failed, else NaN
            ==========  ===================  ==================================================

            A call failed when ``error`` is set, whatever its status: a body that broke off after
            the status line ``200`` keeps that status.  Successful calls are
            ``frame[frame["error"].isna()]``.  ``frame.attrs`` holds ``credits_spent`` and
            ``credits_saved``.
        """
        import pandas as pd

        names = [f.name for f in fields(LedgerRow)]
        records = [dict(zip(names, astuple(row))) for row in self.rows()]
        frame = pd.DataFrame.from_records(records, columns=names)
        frame.insert(names.index("source") + 1, "from_cache", frame["source"] != "network")
        frame = frame.astype(_DTYPES)
        frame.attrs["credits_spent"] = int(frame["credits"].sum())
        frame.attrs["credits_saved"] = int(frame["saved"].sum())
        return frame
