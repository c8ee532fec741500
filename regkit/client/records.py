"""What the client returns: thin records around the interface's JSON.

Each record keeps the answer as it came (``.raw``, a dict), offers its top-level members as
attributes and items (``company.name``, ``company["name"]``) and knows how it was obtained
(``.meta``: from the cache or not, when the interface produced it, what it cost).

The analysis methods
--------------------
``to_dataframe()``, ``history(field)`` and friends are plain methods of the records (their mixins are in
:mod:`regkit.client.frame_methods`); each imports its builder from ``regkit.frames`` when called, so
``import regkit.client`` stays free of pandas.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from regkit.errors import RegkitError, ValidationError
from regkit.schema.formatting import count_text, credits_text

from . import record_html
from .batch_html import batch_html
from .frame_methods import CompaniesFrames, CompanyFrames, ExtractFrames, InsolvencyFrames, InsolvencyPageFrames
from .summary_html import plural

__all__ = [
    "RecordMeta",
    "Record",
    "CompanyRecord",
    "CompanyBatch",
    "SearchPage",
    "SearchResults",
    "InsolvencySearchPage",
    "InsolvencyResults",
    "InsolvencyRecord",
    "ExtractRecord",
    "MonitorRecord",
    "CredentialRecord",
    "CreditsRecord",
]


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """How a record was obtained.

    Attributes
    ----------
    from_cache : bool
        The answer came from the cache (or from a concurrent identical call), costing nothing.
    fetched_at : datetime or None
        When the interface produced the answer (UTC); for a cache hit, when it was cached.
    credits : int
        Credits this call cost.
    urls_expired : bool
        Presigned URLs in the answer had expired and were removed (see ``CompanyRecord``).
    """

    from_cache: bool = False
    fetched_at: datetime | None = None
    credits: int = 0
    urls_expired: bool = False


class Record:
    """A read-only view of one JSON object of the interface.

    Top-level members are items and attributes (``record["name"]``, ``record.name``); ``.raw`` is
    the dict itself; ``keys()``, ``get()`` and ``in`` work as on a dict.
    """

    kind = "record"

    def __init__(self, raw: Mapping[str, Any], meta: RecordMeta | None = None) -> None:
        self.raw: dict[str, Any] = dict(raw)
        self.meta = meta or RecordMeta()

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def __contains__(self, key: object) -> bool:
        return key in self.raw

    def keys(self) -> Any:
        """The top-level member names."""
        return self.raw.keys()

    def get(self, key: str, default: Any = None) -> Any:
        """A top-level member, or ``default``."""
        return self.raw.get(key, default)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("raw", "meta"):
            raise AttributeError(name)
        try:
            return self.raw[name]
        except KeyError:
            raise AttributeError(self._missing(name)) from None

    def _missing(self, name: str) -> str:
        return f"{type(self).__name__} has no member {name!r}; members: {', '.join(self.raw)}"

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {k for k in self.raw if k.isidentifier()})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return type(self) is type(other) and self.raw == other.raw
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _label(self) -> str:
        return str(self.raw.get("id", ""))

    def __repr__(self) -> str:
        cached = ", from cache" if self.meta.from_cache else ""
        return f"<{type(self).__name__} {self._label()}{cached}>"


class CompanyRecord(CompanyFrames, Record):
    """A company (CompanyV1).

    When a cached answer is older than a presigned source URL lives, ``sources`` is removed
    (``meta.urls_expired`` is ``True``): a dead URL is never handed out.  Ask
    ``client.get_company(id, refresh_sources=True)`` for fresh ones.

    ``derived`` names the members of the record that are derived, not the register's: a world imported from
    OffeneRegister derives dates its source lacks (the incorporation date, the dates of names and addresses, an
    officer's missing start date, ...), and the local register serving it names them in the answer's
    ``X-Regkit-Derived`` header, which the cache keeps with the answer. The history frames mark those dates
    (``record.history("names")["valid_from_derived"]``). Empty for the live service and the bundled world.
    """

    kind = "company"
    _derived: frozenset[str] = frozenset()

    def __init__(
        self, raw: Mapping[str, Any], meta: RecordMeta | None = None, derived: Iterable[str] | None = None
    ) -> None:
        super().__init__(raw, meta)
        if derived:
            self._derived = frozenset(derived)

    @property
    def derived(self) -> frozenset[str]:
        """The record's derived members, as paths (``"incorporated_at"``, ``"names.start_date"`` — every entry of
        ``names`` —, ``"representation[2].start_date"``: see :mod:`regkit.schema.derived`); empty when the answer
        named none (the live service, the bundled world), or for a record made from a dict."""
        return self._derived

    def _missing(self, name: str) -> str:
        if name == "sources" and self.meta.urls_expired:
            return (
                "the cached source URLs of this company expired (they live 30 minutes) and were "
                "removed; call client.get_company(id, refresh_sources=True) for fresh ones (paid)"
            )
        return super()._missing(name)

    def _label(self) -> str:
        name = (self.raw.get("name") or {}).get("name", "")
        return f"{self.raw.get('id', '')} {name}".strip()


class CompanyBatch(CompaniesFrames, Sequence[CompanyRecord | None]):
    """The result of a bulk lookup, in input order.

    Attributes
    ----------
    ids : list of str
        The ids asked for, in input order (duplicates kept).
    records : list of CompanyRecord or None
        One entry per id; ``None`` where that id failed (``errors="collect"``).
    errors : dict of str to RegkitError
        The failure of each failed id (malformed ones included); ``batch.summary()`` lists them and
        ``client.get_companies(batch.failed_ids)`` resumes, paying only for what is still missing.
    """

    def __init__(
        self, ids: Sequence[str], records: Sequence[CompanyRecord | None], errors: Mapping[str, RegkitError]
    ) -> None:
        self.ids = list(ids)
        self.records = list(records)
        self.errors = dict(errors)

    def __getitem__(self, index: Any) -> Any:
        return self.records[index]

    def __len__(self) -> int:
        return len(self.records)

    @property
    def ok(self) -> list[CompanyRecord]:
        """The records that were fetched, in input order."""
        return [r for r in self.records if r is not None]

    @property
    def failed_ids(self) -> list[str]:
        """The ids whose lookup failed, in input order, once each — malformed ids apart (they were
        never sent and would fail again).  ``client.get_companies(batch.failed_ids)`` asks for them
        again; nothing already fetched is paid twice."""
        return [cid for cid, error in self.errors.items() if not isinstance(error, ValidationError)]

    def summary(self, limit: int = 10) -> str:
        """What was fetched, each failed id with its error (the first ``limit``), and how to resume."""
        lines = [f"{len(self.ok)} of {len(self.records)} companies fetched, {len(self.errors)} failed"]
        lines += [f"  {cid}: {type(error).__name__}: {error}" for cid, error in list(self.errors.items())[:limit]]
        lines += [f"  … and {len(self.errors) - limit} more (batch.errors)"] if len(self.errors) > limit else []
        lines += (
            [
                "To resume: client.get_companies(batch.failed_ids, errors='collect') — the fetched companies are "
                "cached and cost nothing again; only the missing ones are paid."
            ]
            if self.failed_ids
            else []
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        text = f"<CompanyBatch {len(self.ok)} of {len(self.records)} fetched, {len(self.errors)} failed"
        if self.failed_ids:
            text += "; batch.summary() names them, client.get_companies(batch.failed_ids) resumes"
        return text + ">"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: counts fetched, missing and failed, credits spent and saved, the first
        companies (name, legal form, register) and failures."""
        return batch_html(self.ids, self.records, self.errors, self.failed_ids)


class SearchPage(Record):
    """One page of a search: ``results`` (list of dicts) and ``pagination``; iterating yields the results,
    ``page[0]`` is the first result (``page["pagination"]`` a member, as for every record)."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (int, slice)):
            return self.raw.get("results", [])[key]
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Iterate over the results of this page."""
        return iter(self.raw.get("results", []))

    def __len__(self) -> int:
        return len(self.raw.get("results", []))

    @property
    def total_results(self) -> int:
        """Matches over all pages."""
        return int(self.raw.get("pagination", {}).get("total_results", 0))

    @property
    def has_next(self) -> bool:
        """Whether a later page exists."""
        pagination = self.raw.get("pagination", {})
        return int(pagination.get("page", 1)) < int(pagination.get("total_pages", 0))

    #: What the results are (``"company"``, ``"insolvency"``, ``"person"``): the columns of the summary.
    results_of = "company"

    def _label(self) -> str:
        p = self.raw.get("pagination", {})
        return f"page {p.get('page')}/{p.get('total_pages')} ({p.get('total_results')} results)"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: page x of y, the total, the credits, the first results."""
        p = self.raw.get("pagination", {})
        cost = credits_text(self.meta.credits, cached=self.meta.from_cache)
        subtitle = f"page {count_text(p.get('page'))} of {count_text(p.get('total_pages'))} · {cost}"
        return record_html.search_html(
            self.results_of,
            list(self),
            subtitle=subtitle,
            total=self.total_results,
            where="on this page: page.to_dataframe()",
        )


class SearchResults(Sequence[dict[str, Any]]):
    """Every result of a search, or its first ``limit`` (what ``client.search_all_*`` returns).

    Attributes
    ----------
    results : list of dict
        The results in the interface's order.
    total_results : int
        Matches over all pages.
    pages : int
        Requests made (pages fetched).
    credits : int
        Credits actually charged (cached pages cost nothing).
    estimated_credits : int
        The estimate of the pages after the first, checked against the budget before they were fetched.
    """

    def __init__(
        self, results: Sequence[dict[str, Any]], *, total_results: int, pages: int, credits: int, estimated_credits: int
    ) -> None:
        self.results = list(results)
        self.total_results = total_results
        self.pages = pages
        self.credits = credits
        self.estimated_credits = estimated_credits

    def __getitem__(self, index: Any) -> Any:
        return self.results[index]

    def __len__(self) -> int:
        return len(self.results)

    def _with_totals(self, frame: Any) -> Any:
        """``frame`` with ``total_results``, ``pages``, ``credits`` and ``estimated_credits`` in its ``attrs``."""
        frame.attrs.update(
            total_results=self.total_results,
            pages=self.pages,
            credits=self.credits,
            estimated_credits=self.estimated_credits,
        )
        return frame

    #: What the results are (``"company"``, ``"insolvency"``, ``"person"``): the columns of the summary.
    results_of = "company"

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {len(self.results)} of {self.total_results} results, {self.pages} page(s), "
            f"{self.credits} credits>"
        )

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: results fetched of all, pages, credits, the first results."""
        subtitle = (
            f"{count_text(len(self.results))} fetched · {plural(self.pages, 'page')} · "
            f"{credits_text(self.credits)} spent"
        )
        return record_html.search_html(
            self.results_of, self.results, subtitle=subtitle, total=self.total_results, where="results.to_dataframe()"
        )


class InsolvencySearchPage(InsolvencyPageFrames, SearchPage):
    """One page of an insolvency search: ``results`` (list of dicts) and ``pagination``."""

    kind = "insolvency_page"
    results_of = "insolvency"


class InsolvencyResults(InsolvencyPageFrames, SearchResults):
    """Every result of an insolvency search, or its first ``limit`` (``client.search_all_insolvencies``), in the
    interface's order (``last_event_at`` descending, then ``id``); the attributes are :class:`SearchResults`'."""

    results_of = "insolvency"

    def to_dataframe(self) -> Any:
        """One row per result (see ``regkit.frames.insolvency_results``); ``attrs`` holds ``total_results``,
        ``pages``, ``credits`` and ``estimated_credits``."""
        return self._with_totals(super().to_dataframe())


class InsolvencyRecord(InsolvencyFrames, Record):
    """One insolvency proceeding with its events (``GET /v1/insolvency/{id}``)."""

    kind = "insolvency"

    def _label(self) -> str:
        return f"{self.raw.get('case_number', '')} {self.raw.get('debtor_name', '')}".strip() or super()._label()

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: debtor, case, status, administrator, dates, the latest events."""
        return record_html.insolvency_html(self.raw)


class ExtractRecord(ExtractFrames, Record):
    """A Transparenzregister extract: ``status`` is ``processing``, ``completed`` or ``failed``."""

    kind = "extract"
    TERMINAL = frozenset({"completed", "failed"})

    def __init__(self, raw: Mapping[str, Any], meta: RecordMeta | None = None) -> None:
        super().__init__(raw, meta)
        self.files: list[Any] = []  # paths of documents saved by wait_for_extract(download_to=...)

    @property
    def is_terminal(self) -> bool:
        """Whether the extract finished (``completed`` or ``failed``)."""
        return self.raw.get("status") in self.TERMINAL

    def _label(self) -> str:
        return f"{self.raw.get('id', '')} {self.raw.get('status', '')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: status, dates, beneficial owners, documents."""
        return record_html.extract_html(self.raw)


class MonitorRecord(Record):
    """A monitor: ``entity_type``, ``entity_id``, ``preferences``, ``update_frequency``, ``disabled``."""

    kind = "monitor"

    def _label(self) -> str:
        return f"{self.raw.get('entity_type', '')} {self.raw.get('entity_id', '')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: what the monitor watches, how often, whether it is active."""
        return record_html.monitor_html(self.raw)


class CredentialRecord(Record):
    """A stored credential set as the interface confirms it (never with the password)."""

    kind = "credentials"

    def _label(self) -> str:
        return str(self.raw.get("name", ""))

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: the set's name and dates (never the login or the password)."""
        return record_html.credentials_html(self.raw)


class CreditsRecord(Record):
    """The account's credits (``GET /v1/credits``)."""

    kind = "credits"

    def _label(self) -> str:
        return f"used={self.raw.get('used_credits')} remaining={self.raw.get('remaining_credits')}"

    def _repr_html_(self) -> str:
        """The summary Jupyter shows: remaining, used of included, overage, the plan and its period."""
        return record_html.credits_html(self.raw)
