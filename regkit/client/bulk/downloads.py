"""Saving documents into a directory: readable file names, never paying twice for a file the directory has, every
file written whole or not at all.

What ``Client.download(documents, directory)`` accepts, one or many (a list, a tuple, any iterable of items — but a
``tuple`` of two strings is one pair):

==================================  =========================================================================
item                                means
==================================  =========================================================================
``"3f2c…"`` (a document id)         a listed document (``get_document``: free)
``DocumentRecord``                  the same, its ``url`` used while it lives
a company's ``documents`` entry     the same (a dict with ``id`` and ``type``)
``(company_id, document_id)``       a listed document, its company known (for the file name)¹
``(company_id, category)``          a document fetched now (``get_realtime_document``: 20 credits)²
``RealtimeDocumentRecord``          the same, its ``url`` used while it lives
``CompanyRecord``                   every document the company lists
==================================  =========================================================================

¹ Checked against the company's ``documents`` when its record is in the cache (looked at for free); otherwise the
pair is trusted: the company only names the file. ² ``shareholder_list`` and ``articles_of_association`` are answered
by the register with the company's latest *listed* document of that type: when the company's record is in the
cache and lists one, that listed document is downloaded instead, for free (or reported ``kept``), unless
``refetch=True``; otherwise it is paid, and the estimate counts it in ``may_duplicate``.

**File names.** ``<company>_<category>_<date>.pdf`` (``.xml`` for structured information): ``<company>`` is the
company id (``DE-HRB-R3101-94644``: letters, digits and ``-`` only, so safe on every filesystem) where it is known,
else the document's id (a listed document given by id alone: its metadata does not name the company);
``<category>`` the document's ``type`` or the category asked for; ``<date>`` the file's own date (``YYYY-MM-DD``).
Each part holds only ``[A-Za-z0-9._-]`` (anything else from the service becomes ``-``, a leading dot too), and a
document id with a path separator is refused before anything is sent. A name already taken by another file gets
``_2``, ``_3``, …; nothing is ever overwritten (the file is created exclusively under its name).

**Never paying twice.** The directory keeps an index, ``.regkit-documents.json`` (JSON; what each file is, its
size). A listed document is kept by its id as the service spells it, found in any letter case (as the service looks ids
up); a document fetched now by company, category and the file's own date.
A ``(company_id, category)`` pair the directory already holds a file of is not fetched again (the newest file is
reported as ``kept``) unless ``refetch=True``; after paying, a file whose date the index already has is not written
twice. A file deleted or changed by hand (its size differs) is fetched again.

**Expired URLs.** A URL is valid 15 minutes; a record's URL is trusted for downloading up to :data:`URL_LIFETIME`
(14 minutes; the cache keeps answers only ``policy.document_lifetime``, 10). A listed document's URL is asked
again for free when it is older or the download answers 403. A document fetched now has no free metadata: a
record whose URL is older than that is fetched again, and its 20 credits are in the estimate shown (and checked against
the budget) before anything is paid; a URL that turns out dead at download is an error, not a silent second payment.

**Order of work.** Input checked and the directory tested for writing first (:class:`~regkit.errors.ValidationError`,
nothing sent); then the cost estimated and checked against the budget; then the free metadata of listed documents
(an unknown id fails here, before any credit is spent); then the paid ones, one by one, with a progress bar when
there are several. Each file goes to a temporary file in the directory and is linked into place under a name that
must not exist, and the index is re-read, merged and rewritten atomically after each file: an interrupted download
leaves whole files only. Planning and saving hold the directory's lock file (:data:`LOCK_NAME`; ``fcntl.flock``,
``msvcrt.locking`` on Windows, a logged warning where neither exists), so two downloads into one directory at once
(a script and the widget) take turns: the second sees the first's files as ``kept`` and never pays for them again.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import requests

from regkit.errors import ArgumentError, PermissionDeniedError, TransportError, ValidationError
from regkit.schema.endpoints import by_operation
from regkit.schema.interface import COMPANY_ID_PATTERN, DOCUMENT_CATEGORIES

from ..budget.limit import Budget
from ..document import DocumentRecord, RealtimeDocumentRecord, document_category, document_id
from ..records import Record

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "INDEX_NAME",
    "LOCK_NAME",
    "URL_LIFETIME",
    "Wanted",
    "wanted",
    "DownloadedFile",
    "Downloads",
    "DownloadEstimate",
    "DownloadIndex",
    "Downloader",
    "check_directory",
]

#: Credits of one document fetched from the register now (its row of the endpoint table).
_REALTIME_PRICE = by_operation("get_realtime_document").credits()

logger = logging.getLogger(__name__)

#: The index file a download directory keeps (see the module docstring).
INDEX_NAME = ".regkit-documents.json"
#: The lock file held while a download plans and saves (two downloads into one directory take turns).
LOCK_NAME = ".regkit-documents.lock"
#: How long a document answer's URL (valid 15 minutes) is trusted for downloading: a minute to spare.
URL_LIFETIME = timedelta(minutes=14)
#: Categories the register answers with the company's latest LISTED document of that type.
LISTED_CATEGORIES = ("shareholder_list", "articles_of_association")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_ACCEPTED = (
    "a document id, a DocumentRecord, a company's documents entry, (company_id, document_id), "
    "(company_id, category), a RealtimeDocumentRecord or a CompanyRecord — or a list of them"
)


@dataclass(frozen=True)
class Wanted:
    """One document asked for: a listed one (``document_id``) or one fetched now (``category``)."""

    company_id: str | None = None
    document_id: str | None = None
    category: str | None = None
    record: DocumentRecord | RealtimeDocumentRecord | None = None
    from_company: bool = False  # taken from a CompanyRecord's own documents: its pair needs no check

    @property
    def realtime(self) -> bool:
        """Whether the document is fetched from the register now (paid)."""
        return self.category is not None

    def label(self) -> str:
        """``DE-… current_printout`` or the document id, for messages."""
        if self.realtime:
            return f"{self.company_id} {self.category}"
        return f"document {self.document_id}"


def _one(item: Any) -> list[Wanted]:
    if isinstance(item, RealtimeDocumentRecord):
        return [Wanted(item.company_id, None, document_category(item.get("category")), item)]
    if isinstance(item, DocumentRecord):
        return [Wanted(None, document_id(item.get("id")), None, item)]
    if isinstance(item, Record) and item.kind == "company":
        company = str(item.get("id"))
        return [Wanted(company, document_id(d.get("id")), from_company=True) for d in item.get("documents") or ()]
    if isinstance(item, str):
        if COMPANY_ID_PATTERN.match(item.strip()):
            raise ValidationError(
                f"{item!r} is a company id, which names no single document",
                suggestion="pass (company_id, category) for a document fetched now, e.g. "
                f"({item.strip()!r}, 'current_printout'), or a document id from its documents; nothing was sent",
            )
        return [Wanted(None, document_id(item))]
    if isinstance(item, tuple) and len(item) == 2 and all(isinstance(part, str) for part in item):
        company, second = item
        if not COMPANY_ID_PATTERN.match(company.strip()):
            raise ValidationError(
                f"the first member of the pair {item!r} must be a company id",
                suggestion="(company_id, category) or (company_id, document_id); nothing was sent",
            )
        if second in DOCUMENT_CATEGORIES:
            return [Wanted(company.strip(), None, second)]
        close = difflib.get_close_matches(second.strip().lower(), DOCUMENT_CATEGORIES, n=1, cutoff=0.75)
        if close:  # a misspelt category: say so before sending, not "unknown document" after
            raise ValidationError(
                f"{second!r} is not a document category (did you mean {close[0]!r}?)",
                suggestion=f"allowed: {', '.join(DOCUMENT_CATEGORIES)}; nothing was sent",
            )
        return [Wanted(company.strip(), document_id(second))]
    if isinstance(item, Mapping) and "id" in item and "type" in item:
        return [Wanted(None, document_id(item["id"]))]
    raise ValidationError(f"cannot download {item!r}", suggestion=f"pass {_ACCEPTED}; nothing was sent")


def wanted(documents: Any) -> list[Wanted]:
    """What ``documents`` asks for, in order (see the module docstring for the forms).

    Raises
    ------
    ValidationError
        An item of no accepted form, a malformed company id, or an unknown category (nothing sent).

    Examples
    --------
    >>> [w.label() for w in wanted([("DE-HRB-F1103-267645", "current_printout"), "3f2c0000-0000-4000-8000-00000000000a"])]
    ['DE-HRB-F1103-267645 current_printout', 'document 3f2c0000-0000-4000-8000-00000000000a']
    """
    if hasattr(documents, "columns") and hasattr(documents, "iloc"):  # iterating a frame gives its column names
        raise ArgumentError(
            "documents must be ids, records or pairs, not a DataFrame",
            suggestion="pass a column of document ids, e.g. frame['document_id'].tolist(), or the company record "
            "(client.get_company(id)) for all its listed files; nothing was sent",
        )
    pair = isinstance(documents, tuple) and len(documents) == 2 and all(isinstance(p, str) for p in documents)
    if pair or isinstance(documents, (str, Mapping, Record)):
        return _one(documents)
    if not isinstance(documents, Iterable):
        raise ValidationError(f"cannot download {documents!r}", suggestion=f"pass {_ACCEPTED}; nothing was sent")
    return [w for item in documents for w in _one(item)]


def check_directory(directory: str | os.PathLike[str]) -> Path:
    """``directory``, created with its parents if missing, after a test file was written to it and removed.

    Raises
    ------
    ValidationError
        When it cannot be created or written (read-only, no permission, a file in the way), before anything is
        sent or paid.
    """
    path = Path(directory).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".regkit-probe-"):
            pass
    except OSError as exc:
        raise ValidationError(
            f"cannot write documents to {str(path)!r}: {exc.strerror or type(exc).__name__}",
            suggestion="choose a directory you can write to; nothing was sent or paid",
        ) from None
    return path


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place (whole or not at all)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _part(value: Any) -> str:
    """One part of a file name: only ``[A-Za-z0-9._-]`` (anything else becomes ``-``), never a leading dot."""
    text = _UNSAFE.sub("-", str(value)) or "-"
    return "-" + text[1:] if text.startswith(".") else text


def _place(directory: Path, stem: str, suffix: str, data: bytes) -> Path:
    """Write ``data`` under ``stem + suffix`` in ``directory`` — or ``_2``, ``_3``, … when the name is taken —
    without ever replacing a file: the temporary file is linked to a name that must not exist (``os.link``; where
    the filesystem has no hard links, the name is reserved with ``O_EXCL`` first and the file renamed onto it)."""
    root = directory.resolve()
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        number = 1
        while True:
            target = directory / (f"{stem}{suffix}" if number == 1 else f"{stem}_{number}{suffix}")
            if target.resolve().parent != root:  # _part makes this impossible; refuse rather than trust it
                raise ValidationError(
                    f"the file name {target.name!r} would leave {str(directory)!r}",
                    suggestion="report this answer; nothing was written",
                )
            try:
                os.link(temporary, target)
            except FileExistsError:
                number += 1
                continue
            except OSError:  # no hard links here: reserve the name exclusively, then rename onto it
                try:
                    os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                except FileExistsError:
                    number += 1
                    continue
                os.replace(temporary, target)
            return target
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@contextlib.contextmanager
def _locked(directory: Path, timeout: float = 600.0) -> Iterator[None]:
    """Hold the directory's lock file (:data:`LOCK_NAME`): ``fcntl.flock`` on POSIX, ``msvcrt.locking`` on
    Windows; where neither exists, a warning is logged and the download runs unlocked (two downloads into one
    directory at once may then both pay for a file, but never overwrite one: names are created exclusively)."""
    with open(directory / LOCK_NAME, "a+b") as handle:
        try:
            import fcntl
        except ImportError:
            fcntl = None  # type: ignore[assignment]
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            return
        try:
            import msvcrt
        except ImportError:
            logger.warning("no file locking on this system: downloads into %s are not serialised", directory)
            yield
            return
        deadline = time.monotonic() + timeout
        while True:
            try:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise ValidationError(
                        f"another download into {str(directory)!r} has held its lock for {timeout:.0f} s",
                        suggestion=f"wait for it to finish, or remove {LOCK_NAME} if no download is running",
                    ) from None
                time.sleep(0.2)
        try:
            yield
        finally:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)


def _latest_listed(company: Mapping[str, Any], category: str) -> Mapping[str, Any] | None:
    """The listed document the register answers ``(company_id, category)`` with: the latest of that type."""
    same = [d for d in company.get("documents") or () if isinstance(d, Mapping) and d.get("type") == category]
    if not same:
        return None
    return max(same, key=lambda d: (bool(d.get("latest")), str(d.get("date")), str(d.get("id"))))


class DownloadIndex:
    """The index of a download directory: key → what the file is.

    Keys are ``document:<id>`` for a listed document and ``realtime:<company_id>:<category>:<file_date>`` for one
    fetched now (a listed document's id as its answer spells it; looked up in any letter case, as the service
    does). An unreadable index is started afresh (logged as a warning): the files stay, and what is not in the
    index is fetched again under a new name.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / INDEX_NAME
        self.entries: dict[str, dict[str, Any]] = self._read()

    def _read(self) -> dict[str, dict[str, Any]]:
        if not self.path.exists():
            return {}
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            return dict(loaded["files"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            logger.warning("download index %s unreadable (%s); starting a new one", self.path, exc)
            return {}

    def find(self, key: str) -> dict[str, Any] | None:
        """The entry of ``key`` (a document id in any letter case) if its file is still there with its size, else
        ``None``."""
        entry = self.entries.get(key)
        if entry is None and key.startswith("document:"):
            folded = key.casefold()
            entry = next((e for k, e in self.entries.items() if k.casefold() == folded), None)
        if entry is None:
            return None
        try:
            size = (self.directory / entry["file"]).stat().st_size
        except OSError:
            return None
        return entry if size == entry.get("size") else None

    def find_realtime(self, company_id: str, category: str) -> dict[str, Any] | None:
        """The newest file of ``company_id`` and ``category`` the directory holds, else ``None``."""
        prefix = f"realtime:{company_id}:{category}:"
        found = [self.find(key) for key in sorted(self.entries) if key.startswith(prefix)]
        present = [entry for entry in found if entry is not None]
        return max(present, key=lambda e: str(e.get("file_date"))) if present else None

    def free_name(self, stem: str, suffix: str) -> str:
        """``stem + suffix``, or with ``_2``, ``_3``, … when a file (indexed or not) already has that name."""
        taken = {entry["file"] for entry in self.entries.values()}
        name, number = f"{stem}{suffix}", 1
        while name in taken or (self.directory / name).exists():
            number += 1
            name = f"{stem}_{number}{suffix}"
        return name

    def add(self, key: str, entry: dict[str, Any]) -> None:
        """Record ``entry`` under ``key`` and rewrite the index atomically, merged with what is on disk now (so an
        entry another download wrote meanwhile is kept)."""
        self.entries = {**self.entries, **self._read(), key: entry}
        text = json.dumps({"version": 1, "files": self.entries}, indent=1, sort_keys=True, ensure_ascii=False)
        _write_atomically(self.path, text.encode("utf-8"))


@dataclass(frozen=True)
class DownloadedFile:
    """One file of a download: where it is and what it is.

    Attributes
    ----------
    path : Path
        The file.
    size : int
        Its size in bytes.
    company_id : str or None
        The company, where known.
    category : str
        The document's type (listed) or the category fetched.
    file_date : str or None
        The file's own date (``YYYY-MM-DD``).
    document_id : str or None
        A listed document's id (``None`` for one fetched now).
    credits : int
        Credits this file cost now (20 for a document fetched now and paid, else 0).
    status : str
        ``"downloaded"`` (written now) or ``"kept"`` (the directory had it; nothing was fetched).
    """

    path: Path
    size: int
    company_id: str | None
    category: str
    file_date: str | None
    document_id: str | None
    credits: int
    status: str


class Downloads(list[DownloadedFile]):
    """The files of a download in the order asked for (a list of :class:`DownloadedFile`)."""

    @property
    def credits(self) -> int:
        """Credits the download spent."""
        return sum(f.credits for f in self)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per file.

        Returns
        -------
        pandas.DataFrame
            Columns and dtypes:

            ===========  ===============  ===========================================================
            path         str              the file's path
            size         Int64            its size in bytes
            company_id   str              the company, where known (else NA)
            category     str              the document's type, or the category fetched now
            file_date    datetime64[us]   the file's own date (NaT when the register gave none)
            document_id  str              a listed document's id (NA for one fetched now)
            credits      Int64            credits the file cost in this call
            status       str              ``downloaded`` or ``kept``
            ===========  ===============  ===========================================================
        """
        import pandas as pd

        return pd.DataFrame(
            {
                "path": pd.Series([str(f.path) for f in self], dtype=object),
                "size": pd.Series([f.size for f in self], dtype="Int64"),
                "company_id": pd.Series([f.company_id for f in self], dtype=object),
                "category": pd.Series([f.category for f in self], dtype=object),
                "file_date": pd.to_datetime(pd.Series([f.file_date for f in self], dtype=object)).astype(
                    "datetime64[us]"
                ),
                "document_id": pd.Series([f.document_id for f in self], dtype=object),
                "credits": pd.Series([f.credits for f in self], dtype="Int64"),
                "status": pd.Series([f.status for f in self], dtype=object),
            }
        )

    def __repr__(self) -> str:
        fetched = sum(1 for f in self if f.status == "downloaded")
        return f"<Downloads {len(self)} files, {fetched} downloaded, {self.credits} credits>"


@dataclass(frozen=True)
class DownloadEstimate:
    """What a download would cost now (nothing sent).

    Attributes
    ----------
    files : int
        Documents asked for.
    kept : int
        Of them, held by the directory already (nothing fetched).
    free : int
        To fetch for free: listed documents, and documents fetched now whose answer (URL) is still fresh.
    paid : int
        To fetch now at 20 credits each.
    credits : int
        ``paid * 20``: the most the download can spend.
    budget_remaining : int or None
        Credits left in the client's budget (``None``: no budget).
    may_duplicate : int
        Of the paid ones, shareholder lists or articles asked as ``(company_id, category)`` whose company record is
        not in the cache: the register answers these with the company's latest listed document, which a download
        of the company's listed files (free) would also fetch. Look the company up first to get it for free.
    """

    files: int
    kept: int
    free: int
    paid: int
    credits: int
    budget_remaining: int | None
    may_duplicate: int = 0

    @property
    def within_budget(self) -> bool:
        """Whether the budget (if any) covers the estimate."""
        return self.budget_remaining is None or self.credits <= self.budget_remaining

    def __str__(self) -> str:
        budget = "" if self.budget_remaining is None else f"; budget left {self.budget_remaining}"
        duplicate = (
            f"; {self.may_duplicate} of them may be a listed file (free once the company is looked up)"
            if self.may_duplicate
            else ""
        )
        return (
            f"{self.files} document{'' if self.files == 1 else 's'}: {self.kept} kept, {self.free} free, {self.paid} × "
            f"{_REALTIME_PRICE} = {self.credits} credits{duplicate}{budget}"
        )


@dataclass
class _Step:
    item: Wanted
    kept: dict[str, Any] | None = None
    price: int = 0
    may_duplicate: bool = False
    result: DownloadedFile | None = field(default=None)


class Downloader:
    """Saves documents for a client (see the module docstring); the client passes what it needs as callables.

    Parameters
    ----------
    get_document : callable
        ``get_document(document_id, refresh)``: the listed document's metadata (free; ``refresh`` skips the
        cache).
    get_realtime : callable
        ``get_realtime(company_id, category)``: a document fetched now (paid, or from the cache).
    realtime_cached : callable
        ``realtime_cached(company_id, category)``: whether the cache answers that for free now.
    session : callable
        A requests session for presigned URLs (no API key).
    budget : Budget
        Checked against the estimate before anything is paid.
    lifetime : timedelta
        How long the cache keeps a document answer (``policy.document_lifetime``; kept for callers).
    timeout : float or (float, float)
        For the file requests.
    company_cached : callable, optional
        ``company_cached(company_id)``: the company's record if the cache holds it now, else ``None`` — looked at
        for free (no request, no ledger row) to find a listed document instead of paying, and to check a
        ``(company_id, document_id)`` pair.
    url_lifetime : timedelta
        How long a document answer's URL (valid 15 minutes) is trusted for downloading: :data:`URL_LIFETIME`.
    """

    def __init__(
        self,
        *,
        get_document: Callable[[str, bool], DocumentRecord],
        get_realtime: Callable[[str, str], RealtimeDocumentRecord],
        realtime_cached: Callable[[str, str], bool],
        session: Callable[[], requests.Session],
        budget: Budget,
        lifetime: timedelta,
        timeout: float | tuple[float, float],
        company_cached: Callable[[str], Mapping[str, Any] | None] | None = None,
        url_lifetime: timedelta = URL_LIFETIME,
    ) -> None:
        self._company_cached = company_cached
        self._url_lifetime = url_lifetime
        self._get_document = get_document
        self._get_realtime = get_realtime
        self._realtime_cached = realtime_cached
        self._session = session
        self._budget = budget
        self._lifetime = lifetime
        self._timeout = timeout

    # -- planning ------------------------------------------------------------------------------
    def _company(self, company_id: str, seen: dict[str, Mapping[str, Any] | None]) -> Mapping[str, Any] | None:
        if company_id not in seen:
            seen[company_id] = self._company_cached(company_id) if self._company_cached is not None else None
        return seen[company_id]

    def _plan(self, items: Sequence[Wanted], index: DownloadIndex, refetch: bool) -> list[_Step]:
        steps: list[_Step] = []
        paying: set[tuple[str | None, str | None]] = set()
        companies: dict[str, Mapping[str, Any] | None] = {}
        for item in items:
            if not item.realtime:
                if item.company_id is not None and not item.from_company:
                    self._check_pair(item, self._company(item.company_id, companies))
                steps.append(_Step(item, kept=index.find(f"document:{item.document_id}")))
                continue
            assert item.company_id is not None and item.category is not None
            record = item.record if isinstance(item.record, RealtimeDocumentRecord) else None
            if record is not None and record.get("file_date"):
                kept = index.find(f"realtime:{item.company_id}:{item.category}:{record.get('file_date')}")
            else:
                kept = None if refetch or record is not None else index.find_realtime(item.company_id, item.category)
            company = None
            if kept is None and record is None and not refetch and item.category in LISTED_CATEGORIES:
                company = self._company(item.company_id, companies)
                latest = _latest_listed(company, item.category) if company is not None else None
                if latest is not None:  # the register would answer with this listed document: free
                    listed = Wanted(item.company_id, document_id(latest.get("id")))
                    steps.append(_Step(listed, kept=index.find(f"document:{listed.document_id}")))
                    continue
            pair = (item.company_id, item.category)
            fresh = record is not None and record.url_fresh(self._url_lifetime)
            free = kept is not None or fresh or pair in paying or self._realtime_cached(*pair)
            if not free:
                paying.add(pair)
            duplicate = not free and record is None and item.category in LISTED_CATEGORIES and company is None
            steps.append(_Step(item, kept=kept, price=0 if free else _REALTIME_PRICE, may_duplicate=duplicate))
        return steps

    @staticmethod
    def _check_pair(item: Wanted, company: Mapping[str, Any] | None) -> None:
        """A ``(company_id, document_id)`` pair checked against the company's cached ``documents`` (free); with
        no cached record the pair is trusted (the company only names the file)."""
        if company is None:
            return
        listed = {str(d.get("id")).casefold() for d in company.get("documents") or ()}
        if str(item.document_id).casefold() not in listed:
            raise ValidationError(
                f"{item.company_id} does not list the document {item.document_id!r}",
                suggestion="take the id from the company's documents (client.get_company(id).documents), or pass "
                "the document id alone; nothing was sent",
            )

    def estimate(self, documents: Any, directory: str | os.PathLike[str], *, refetch: bool = False) -> DownloadEstimate:
        """What :meth:`download` would cost now; nothing is sent and the directory is not created."""
        items = wanted(documents)
        index = DownloadIndex(Path(directory).expanduser())  # a directory not yet made has an empty index
        return self._estimate(self._plan(items, index, refetch))

    def _estimate(self, steps: Sequence[_Step]) -> DownloadEstimate:
        kept = sum(1 for s in steps if s.kept is not None)
        paid = sum(1 for s in steps if s.price)
        return DownloadEstimate(
            files=len(steps),
            kept=kept,
            free=len(steps) - kept - paid,
            paid=paid,
            credits=sum(s.price for s in steps),
            budget_remaining=self._budget.remaining,
            may_duplicate=sum(1 for s in steps if s.may_duplicate),
        )

    # -- downloading ---------------------------------------------------------------------------
    def download(
        self,
        documents: Any,
        directory: str | os.PathLike[str],
        *,
        refetch: bool,
        progress: bool,
        announce: Callable[[str], None] | None = None,
    ) -> Downloads:
        """Save ``documents`` into ``directory`` (see the module docstring); return the files in input order.
        ``announce`` is handed the estimate's line before anything is paid (when something is)."""
        items = wanted(documents)
        path = check_directory(directory)
        with _locked(path):  # another download into this directory (a script and the widget) waits its turn
            return self._download(items, path, refetch, progress, announce)

    def _download(
        self,
        items: Sequence[Wanted],
        path: Path,
        refetch: bool,
        progress: bool,
        announce: Callable[[str], None] | None,
    ) -> Downloads:
        index = DownloadIndex(path)
        steps = self._plan(items, index, refetch)
        estimate = self._estimate(steps)
        if estimate.credits:
            logger.info("download: %s", estimate)
            self._budget.check(estimate.credits, what=f"download ({estimate})", method="GET", path="/v1/document")
            if announce is not None:
                announce(str(estimate))
        listed = {
            s.item.document_id: s.item.record
            for s in steps
            if s.kept is None and not s.item.realtime and isinstance(s.item.record, DocumentRecord)
        }
        for step in steps:  # the free metadata first: an unknown id fails before any credit is spent
            if step.kept is None and not step.item.realtime and step.item.document_id is not None:
                record = listed.get(step.item.document_id)
                if record is None or not record.url_fresh(self._url_lifetime):
                    listed[step.item.document_id] = self._get_document(step.item.document_id, False)
        to_fetch = [s for s in steps if s.kept is None]
        session = self._session()
        from tqdm.auto import tqdm

        description = "documents" + (f" (≤{estimate.credits} credits)" if estimate.credits else "")
        with tqdm(
            total=len(to_fetch),
            disable=True if not progress or len(to_fetch) < 2 else None,
            desc=description,
            unit="file",
            leave=False,
        ) as bar:
            for step in steps:
                if step.kept is not None:
                    step.result = self._kept(path, step.item, step.kept)
                    continue
                if step.item.realtime:
                    step.result = self._realtime(session, index, step.item, refetch)
                else:
                    record = listed[step.item.document_id]
                    assert record is not None
                    step.result = self._listed(session, index, step.item, record)
                bar.update(1)
        return Downloads(s.result for s in steps if s.result is not None)

    def _kept(self, directory: Path, item: Wanted, entry: Mapping[str, Any]) -> DownloadedFile:
        return DownloadedFile(
            path=directory / entry["file"],
            size=int(entry["size"]),
            company_id=entry.get("company_id") or item.company_id,
            category=str(entry.get("category")),
            file_date=entry.get("file_date"),
            document_id=entry.get("document_id"),
            credits=0,
            status="kept",
        )

    def _listed(
        self, session: requests.Session, index: DownloadIndex, item: Wanted, record: DocumentRecord
    ) -> DownloadedFile:
        key = f"document:{record.get('id') or item.document_id}"  # the id as the answer spells it
        again = index.find(key)  # the same document asked twice in one call (in any letter case)
        if again is not None:
            return self._kept(index.directory, item, again)
        response = self._get(session, record["url"])
        if response.status_code == 403:  # expired meanwhile: a fresh URL is free
            record = self._get_document(str(item.document_id), True)
            response = self._get(session, record["url"])
        self._check(response, item)
        company = item.company_id or str(record.get("id") or item.document_id)
        return self._save(
            index,
            key,
            response.content,
            stem="_".join(_part(p) for p in (company, record.get("type"), record.get("date"))),
            suffix=".pdf",
            company_id=item.company_id,
            category=str(record.get("type")),
            file_date=record.get("date"),
            document_id=str(record.get("id") or item.document_id),
            credits=0,
        )

    def _realtime(self, session: requests.Session, index: DownloadIndex, item: Wanted, refetch: bool) -> DownloadedFile:
        assert item.company_id is not None and item.category is not None
        record = item.record if isinstance(item.record, RealtimeDocumentRecord) else None
        if record is None or not record.url_fresh(self._url_lifetime):
            if not refetch and record is None:
                again = index.find_realtime(item.company_id, item.category)  # asked twice in one call
                if again is not None:
                    return self._kept(index.directory, item, again)
            record = self._get_realtime(item.company_id, item.category)
            credits = record.meta.credits
        else:
            credits = 0  # the caller's record, paid (if at all) when it was fetched, not by this download
        key = f"realtime:{item.company_id}:{item.category}:{record.get('file_date')}"
        kept = index.find(key)
        if kept is not None:  # paid, and the file of that date is here already: not written twice
            return replace(self._kept(index.directory, item, kept), credits=credits)
        response = self._get(session, record["url"])
        if response.status_code == 403:
            raise PermissionDeniedError(
                f"the URL of {item.label()} has expired (URLs of /v1/document live 15 minutes) and a document "
                "fetched now has no free metadata to renew it",
                status=403,
                code="url_expired",
                method="GET",
                path="/v1/documents/…",
                suggestion=f"fetching it again costs {_REALTIME_PRICE} credits: "
                f"client.download([({item.company_id!r}, {item.category!r})], directory)",
            )
        self._check(response, item)
        name = str(record.get("file_name") or "")
        suffix = ".xml" if name.endswith(".xml") or item.category == "structured_information" else ".pdf"
        return self._save(
            index,
            key,
            response.content,
            stem="_".join(_part(p) for p in (item.company_id, item.category, record.get("file_date") or "undated")),
            suffix=suffix,
            company_id=item.company_id,
            category=item.category,
            file_date=record.get("file_date"),
            document_id=None,
            credits=credits,
        )

    def _get(self, session: requests.Session, url: str) -> requests.Response:
        try:
            return session.get(url, timeout=self._timeout)
        except requests.RequestException as exc:
            raise TransportError(f"a document could not be downloaded: {type(exc).__name__}") from exc

    def _check(self, response: requests.Response, item: Wanted) -> None:
        if response.status_code != 200:
            raise TransportError(
                f"{item.label()} could not be downloaded (status {response.status_code})",
                status=response.status_code,
            )

    def _save(
        self,
        index: DownloadIndex,
        key: str,
        data: bytes,
        *,
        stem: str,
        suffix: str,
        company_id: str | None,
        category: str,
        file_date: str | None,
        document_id: str | None,
        credits: int,
    ) -> DownloadedFile:
        target = _place(index.directory, stem, suffix, data)
        entry = {
            "file": target.name,
            "size": len(data),
            "company_id": company_id,
            "category": category,
            "file_date": file_date,
            "document_id": document_id,
        }
        index.add(key, entry)
        return DownloadedFile(target, len(data), company_id, category, file_date, document_id, credits, "downloaded")
