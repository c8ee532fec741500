"""The credits ledger: one row per call the client answered, from the network or the cache.

The rows live in the client (``client.ledger``).  Every row that cost credits, or may have (an attempt without an
answer), or that says something failed (``note``), is also appended at once to the **ledger file**: one JSON
object per line, in the user data directory (``platformdirs.user_data_dir("regkit")/ledger.jsonl``, or the file
``REGKIT_LEDGER`` names; ``REGKIT_LEDGER=off`` or ``Client(ledger_file=None)`` turns it off), created readable by
its owner only (0600).  The bundled register in-process, whose credits are synthetic, writes no file unless
``Client(ledger_file=PATH)`` asks for one.  It is only ever appended to, by every client of the user, so that a crash, a killed
kernel or a Redis that lost its data does not erase what was paid: :func:`read_ledger` reads it back.  A line
holds the service's base URL, the user token (a hash naming the API key, never the key), the member (user, host,
process), the call and what it cost — nothing secret.  A write that fails (a full disk) is a warning; the row is
still in ``client.ledger``.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from dataclasses import astuple, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regkit.errors import RegkitWarning, ValidationError

if TYPE_CHECKING:  # pandas is imported when a frame is asked for, not with the client
    import pandas as pd

__all__ = ["Ledger", "LedgerRow", "LedgerFile", "SOURCES", "LEDGER_SETTING", "default_ledger_path", "read_ledger"]

#: The setting that names the ledger file (a path; ``off`` for none).
LEDGER_SETTING = "REGKIT_LEDGER"
_OFF = ("off", "none", "false", "0")

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
    note: str | None = None


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
    "note": "str",
}


def default_ledger_path() -> Path | None:
    """The ledger file: ``REGKIT_LEDGER`` if set (``off``: none), else ``ledger.jsonl`` in the user data
    directory (read now, not at import)."""
    value = os.environ.get(LEDGER_SETTING, "").strip()
    if value.lower() in _OFF:
        return None
    if value:
        return Path(value).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("regkit")) / "ledger.jsonl"


class LedgerFile:
    """The append-only ledger file (see the module docstring).

    Parameters
    ----------
    path : path
        The file; it and a new directory are created readable by their owner only.
    context : dict
        What every line carries besides the row: ``service`` (the base URL), ``user`` (the user token) and
        ``member``.
    """

    def __init__(self, path: str | os.PathLike[str], context: dict[str, str]) -> None:
        self.path = Path(path)
        self.context = context
        self._fd: int | None = None
        self._lock = threading.Lock()
        self._warned = False
        self.failed = 0

    def _open(self) -> int:
        if self._fd is None:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        return self._fd

    def append(self, row: LedgerRow) -> bool:
        """Append one row (one ``write``: lines of concurrent clients never interleave); ``False`` (and a warning,
        once) when it could not be written."""
        record = {**self.context, **dict(zip((f.name for f in fields(LedgerRow)), astuple(row)))}
        record["time"] = row.time.isoformat()
        line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        with self._lock:
            try:
                os.write(self._open(), line)
                return True
            except OSError as exc:
                self.failed += 1
                first, self._warned = not self._warned, True
                reason = exc.strerror or str(exc)
        if first:
            warnings.warn(
                f"regkit ledger file {self.path} cannot be written ({reason}); paid calls are still in "
                "client.ledger, but not in the file. Free space, or set REGKIT_LEDGER to a writable file",
                RegkitWarning,
                stacklevel=4,
            )
        return False

    def close(self) -> None:
        """Close the file (it is opened again by the next row)."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def read_ledger(path: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """The ledger file (default: :func:`default_ledger_path`) as a DataFrame, oldest first.

    Returns
    -------
    pandas.DataFrame
        The columns of :meth:`Ledger.to_dataframe` (without ``from_cache``) and ``service`` (str: the base URL),
        ``user`` (str: the user token, a hash naming the API key) and ``member`` (str: user, host and process).
        A line that cannot be read (cut off by a crash) is left out and counted in ``frame.attrs["unreadable"]``.

    Raises
    ------
    ValidationError
        There is no ledger file (at ``path``, or none is configured).
    """
    import pandas as pd

    where = Path(path).expanduser() if path is not None else default_ledger_path()
    if where is None or not where.is_file():
        raise ValidationError(
            f"no ledger file at {where}",
            suggestion=f"the ledger file is {LEDGER_SETTING} or "
            "ledger.jsonl in the user data directory; it exists once a call has cost credits",
        )
    records: list[dict[str, Any]] = []
    unreadable = 0
    with open(where, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                records.append(json.loads(line))
            except ValueError:
                unreadable += 1
    names = ["service", "user", "member", *(f.name for f in fields(LedgerRow))]
    frame = pd.DataFrame.from_records(records, columns=names)
    frame["time"] = pd.to_datetime(frame["time"], utc=True, format="ISO8601")
    frame = frame.astype(
        {
            **{k: v for k, v in _DTYPES.items() if k in frame and k != "time"},
            "service": "str",
            "user": "str",
            "member": "str",
        }
    )
    frame.attrs["unreadable"] = unreadable
    frame.attrs["credits_spent"] = int(frame["credits"].sum())
    return frame


class Ledger:
    """A thread-safe record of what every call cost and what the cache saved."""

    def __init__(self, file: LedgerFile | None = None) -> None:
        self._rows: list[LedgerRow] = []
        self._lock = threading.Lock()
        self.file = file

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
        note: str | None = None,
    ) -> LedgerRow:
        """Append one row and return it (a row that cost or may have cost credits, or has a note, goes to the
        ledger file too)."""
        if source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
        row = LedgerRow(
            datetime.now(timezone.utc),
            call,
            method,
            path,
            status,
            credits,
            saved,
            source,
            attempts,
            uncertain,
            error,
            note,
        )
        with self._lock:
            self._rows.append(row)
        if self.file is not None and (credits or uncertain or note):
            self.file.append(row)
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

    def close(self) -> None:
        """Close the ledger file, if there is one (it is opened again by the next row)."""
        if self.file is not None:
            self.file.close()

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
            note        str                  what failed around a call that was answered or paid:
                                             ``uncached: ...`` (sent without the cache), ``not stored
                                             in the cache (...)``, the team budget could not record it
                                             (``...; N credits pending``); else NaN
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
