"""What every record shares: the base classes of the records the client returns, how an answer becomes a
record's :class:`RecordMeta`, and the text of the facts their HTML summaries show.

Each record keeps the answer as it came (``.raw``, a dict), offers its top-level members as
attributes and items (``company.name``, ``company["name"]``) and knows how it was obtained
(``.meta``: from the cache or not, when the interface produced it, what it cost).  The records themselves live
with their resource (:mod:`regkit.client.company`, :mod:`regkit.client.ownership`, ...), each beside its
operations, its HTML summary and its analysis methods.

The analysis methods
--------------------
``company.history("names")``, ``proceeding.events()``, ``results.to_dataframe()`` and friends are plain methods of
the records: each imports its builder from :mod:`regkit.frames` when it is called and passes the record on. These
lazy imports are the client's only ones into the analysis layer, on purpose: ``import regkit.client`` stays free of
pandas, and the analysis layer stays free to import the client (see the layer rules in CONTRIBUTING.md). A method
has the same name and arguments as its builder; the builders, their columns and dtypes are documented in
:mod:`regkit.frames`.

The summaries
-------------
A record's ``_repr_html_`` is :func:`regkit.common.html.summary_html` of plain text: codes as labels
(:func:`regkit.schema.display_label`: ``gmbh`` → "GmbH"), counts, money, shares and dates by
:mod:`regkit.schema.formatting`.  The helpers here are the ones several resources share (a register entry, a
legal form, a court, a search page's table); nothing here reads the network, the cache or the API key.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from regkit.common.html import SummaryTable, plural, summary_html
from regkit.schema.formatting import MISSING, count_text, credits_text, date_text, percent_text
from regkit.schema.labels import display_label

from .transport.operation import Answer

__all__ = [
    "RecordMeta",
    "Record",
    "SearchPage",
    "SearchResults",
    "record_meta",
    "urls_stale",
    "text_or_missing",
    "active_text",
    "company_register_text",
    "legal_form_text",
    "court_text",
    "search_row",
    "search_html",
    "percentage_text",
    "timestamp_of",
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
        return search_html(
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
        return search_html(
            self.results_of, self.results, subtitle=subtitle, total=self.total_results, where="results.to_dataframe()"
        )


def record_meta(answer: Answer, urls_expired: bool = False) -> RecordMeta:
    """How ``answer`` was obtained: from the cache or not, when, for how many credits."""
    return RecordMeta(answer.from_cache, answer.fetched_at, answer.credits, urls_expired)


def urls_stale(answer: Answer, lifetime: timedelta, key: str = "sources") -> bool:
    """Whether ``answer`` carries presigned URLs (a non-empty ``key``: ``"sources"`` of a company or owners answer,
    ``"documents"`` of an extract), came from the cache and is older than ``lifetime`` (so its URLs may be dead).
    An answer without URLs (an export's ``"sources": []``) never is."""
    if not answer.data.get(key):
        return False
    return answer.from_cache and datetime.now(timezone.utc) - answer.fetched_at > lifetime


#: What a search page or result list is of, by kind: title, columns, and the columns that never wrap (dates,
#: register numbers).
_SEARCHES: dict[str, tuple[str, tuple[str, ...], tuple[int, ...]]] = {
    "company": ("Company search", ("Name", "Legal form", "Register", "City", "Status"), (2,)),
    "insolvency": ("Insolvency search", ("Debtor", "Legal form", "Court", "Status", "Last event"), (3, 4)),
    "person": ("Person search", ("Name", "City", "Born", "Status"), (2,)),
}


def text_or_missing(value: Any) -> str:
    """``value`` as text, or the missing-value mark (:data:`regkit.schema.formatting.MISSING`) for ``None`` or ``""``."""
    return MISSING if value is None or value == "" else str(value)


def active_text(value: Any) -> str:
    """An ``active`` member as a reader says it: ``"active"``, ``"inactive"``, or the missing-value mark."""
    return MISSING if value is None else ("active" if value else "inactive")


def company_register_text(entry: Mapping[str, Any]) -> str:
    """How a German writes a register entry: ``"HRB 89763 Darmstadt"`` (``Amtsgericht`` left out).

    ``entry`` is a company (its ``register`` member) or a search result (``register_type``, ...).

    Examples
    --------
    >>> company_register_text({"register": {"register_type": "HRB", "register_number": "89763",
    ...                                     "register_court": "Amtsgericht Darmstadt"}})
    'HRB 89763 Darmstadt'
    """
    nested = entry.get("register")
    register: Mapping[str, Any] = nested if isinstance(nested, Mapping) else entry
    court = str(register.get("register_court") or "").removeprefix("Amtsgericht ").strip()
    parts = [str(register.get(k) or "") for k in ("register_type", "register_number")] + [court]
    return " ".join(p for p in parts if p) or MISSING


def legal_form_text(entry: Mapping[str, Any], key: str = "legal_form") -> str:
    """The legal form of ``entry`` (its ``key`` member, else its name's ``legal_form``) as a label: ``gmbh`` →
    ``"GmbH"``."""
    code, name = entry.get(key), entry.get("name")
    if not code and isinstance(name, Mapping):
        code = name.get("legal_form")
    return MISSING if not code else display_label("legal_form", code)


def court_text(court: Any) -> str:
    """A court in a column headed "Court": ``Amtsgericht Köln`` → ``Köln``."""
    return MISSING if not court else str(court).removeprefix("Amtsgericht ")


def search_row(kind: str, r: Mapping[str, Any]) -> list[str]:
    """The cells of one search result in the summary table of a ``kind`` search (``"company"``, ``"insolvency"``,
    ``"person"``)."""
    if kind == "company":
        city = (r.get("address") or {}).get("city")
        return [
            text_or_missing(r.get("name")),
            legal_form_text(r),
            company_register_text(r),
            text_or_missing(city),
            active_text(r.get("active")),
        ]
    if kind == "insolvency":
        status = r.get("current_status")
        return [
            text_or_missing(r.get("debtor_name")),
            legal_form_text(r, "debtor_legal_form"),
            court_text(r.get("court")),
            MISSING if not status else display_label("current_status", status),
            date_text(r.get("last_event_at")),
        ]
    return [
        text_or_missing(r.get("name")),
        text_or_missing(r.get("city")),
        date_text(r.get("date_of_birth")),
        active_text(r.get("active")),
    ]


def search_html(kind: str, results: Sequence[Mapping[str, Any]], *, subtitle: str, total: int, where: str) -> str:
    """A search page or all results of a search (``kind``: ``"company"``, ``"insolvency"``, ``"person"``)."""
    title, headers, nowrap = _SEARCHES[kind]
    rows = [search_row(kind, r) for r in results]
    table = SummaryTable(headers, rows, nowrap=nowrap, where=where)
    head = f"{title}: {plural(total, 'result')}" if total else f"{title}: no results"
    return summary_html(head, subtitle=subtitle, tables=[table] if rows else [], kind=f"{kind}-search")


def percentage_text(percentage: Any) -> str:
    """A share the interface gives in percent (``5.36`` meaning 5.36 %) as text, or the missing-value mark."""
    return MISSING if percentage is None else percent_text(float(percentage) / 100)


def timestamp_of(value: Any) -> Any:
    """An ISO timestamp as a datetime (so :func:`date_text` writes it to the minute), other values unchanged."""
    if isinstance(value, str) and "T" in value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    return value
