"""The tools an agent calls: each a thin call into :class:`regkit.Client` (or :mod:`regkit.graph`) in the session.

A tool checks its input with the client's own checks (a malformed company id is the client's
:class:`~regkit.errors.ValidationError`, whose message is the answer, before anything is sent), estimates what it
could cost (the client's :meth:`~regkit.Client.estimate_cost` and :meth:`~regkit.Client.estimate_search_cost`;
a crawl and a climb level by level), and lets :class:`~regkit.agents.session.AgentSession` refuse it or run it.
The answer is one JSON object: ``cost`` first (what it was estimated at and cost, what the cache gave, what the
session has left), then the compact answer of :mod:`regkit.agents.answers`.

==========================  ============================================  =======================
tool                        what it calls                                 credits (0 when cached)
==========================  ============================================  =======================
``parse_company_id``        :func:`regkit.parse_company_id` (offline)     0
``search_companies``        ``search_companies``                          10 a page
``autocomplete_companies``  ``autocomplete_companies``                    0
``search_persons``          ``search_persons``                            10 a page
``company_profile``         ``get_company``                               10
``company_history``         ``get_company`` (one history, paged)          10
``company_documents``       ``get_company`` (its ``documents``)           10
``realtime_document``       ``get_realtime_document`` (only when asked)   20
``financial_indicators``    ``get_financials``                            10
``financial_statement``     ``get_financials`` (one report's statements)  10
``owners``                  ``get_owners``                                10
``holdings``                ``get_holdings``                              10
``beneficial_owners``       ``get_ubos``                                  10
``ownership_history``       ``get_ownership_history``                     10
``group_parent``            :func:`regkit.graph.climb`                    10 a level
``group_below``             :func:`regkit.crawl` downward                 20 a company
``search_insolvencies``     ``search_insolvencies``                       10 a page
``insolvency``              ``get_insolvency``                            10
``person``                  ``get_person``                                10
``person_holdings``         ``get_person_holdings``                       10
``changes``                 ``changes`` (cached versions)                 0
``watchlist_estimate``      ``watchlist(...).estimate()``                 0
``watchlist_refresh``       ``watchlist(name).refresh()``                 its estimate
``session_credits``         the session, ``ledger``, ``get_credits``      0
==========================  ============================================  =======================
"""

from __future__ import annotations

import json
import logging
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from regkit.errors import (
    BudgetExceededError,
    BudgetStopWarning,
    Interrupted,
    NotFoundError,
    RegkitError,
    ValidationError,
)

from . import answers
from .session import AgentSession, Estimate, Outcome

__all__ = ["RegisterTools", "ToolText"]

logger = logging.getLogger(__name__)

CompanyId = Annotated[
    str,
    Field(
        description="A company id, DE-<register type>-<court code>-<number> (e.g. DE-HRB-F1103-270764B); "
        "parse_company_id turns 'HRB 270764 B Berlin' into one"
    ),
]
PersonId = Annotated[
    str, Field(description="A person's id (a UUID, as search_persons or a company's representatives give it)")
]
Page = Annotated[int, Field(ge=1, description="Page of the list, from 1")]
PerPage = Annotated[int, Field(ge=1, le=100, description="Entries per page (1-100)")]


@dataclass(frozen=True)
class ToolText:
    """A tool's answer as the MCP result's one text block, and whether it is an error.

    Attributes
    ----------
    text : str
        One JSON object (``cost`` first).
    is_error : bool
        Whether the call failed or was refused.
    """

    text: str
    is_error: bool


class RegisterTools:
    """Every tool of the server, bound to one :class:`~regkit.agents.session.AgentSession`.

    Parameters
    ----------
    session : AgentSession
        The client and the budget the tools spend.
    scrub : callable
        Removes the API key from any text before it leaves (the client's own scrubber).
    """

    #: The tools' names, in the order the server lists them.
    NAMES = (
        "parse_company_id",
        "search_companies",
        "autocomplete_companies",
        "search_persons",
        "company_profile",
        "company_history",
        "company_documents",
        "realtime_document",
        "financial_indicators",
        "financial_statement",
        "owners",
        "holdings",
        "beneficial_owners",
        "ownership_history",
        "group_parent",
        "group_below",
        "search_insolvencies",
        "insolvency",
        "person",
        "person_holdings",
        "changes",
        "watchlist_estimate",
        "watchlist_refresh",
        "session_credits",
    )

    def __init__(self, session: AgentSession, scrub: Callable[[str], str] = str) -> None:
        self.session = session
        self.client = session.client
        self._scrub = scrub

    # -- answering -----------------------------------------------------------------------------------------

    def _run(
        self, what: str, estimate: Estimate | Callable[[], Estimate], call: Callable[[], Mapping[str, Any]]
    ) -> ToolText:
        estimated = estimate if callable(estimate) else (lambda: estimate)
        return self._text(self.session.run(what, estimated, call))

    def _text(self, outcome: Outcome) -> ToolText:
        cost = outcome.line
        if outcome.error is None:
            return ToolText(self._dump({"cost": cost, **(outcome.body or {})}), False)
        error = outcome.error
        if isinstance(error, BudgetExceededError):  # refused before anything was sent, or stopped after paying
            kind = "refused" if outcome.cost.sent == 0 else "stopped at the budget"
        elif isinstance(error, ValidationError):
            kind = "invalid input"
        elif isinstance(error, NotFoundError):
            kind = "not found"
        elif isinstance(error, Interrupted):  # the server is ending: the call's run was stopped
            kind = "stopped"
        elif isinstance(error, RegkitError):
            kind = "failed"
        else:  # a fault of regkit's: logged (without the key), answered without details that could leak it
            logger.error("tool call failed:\n%s", self._scrub("".join(traceback.format_exception(error))))
            kind = "internal error"
        known = isinstance(error, (RegkitError, Interrupted))
        message = str(error) if known else f"{type(error).__name__}: the call failed"
        return ToolText(self._dump({"cost": cost, "error": kind, "message": message}), True)

    def _dump(self, body: Mapping[str, Any]) -> str:
        return self._scrub(json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str))

    def _lookup(self, endpoint: str, ids: Sequence[str]) -> Estimate:
        for one in ids:  # the client's own check of each id, its message the answer (nothing is sent)
            self.client.is_cached(one, endpoint=endpoint)
        estimate = self.client.estimate_cost(list(ids), endpoint=endpoint)
        cached = f", {estimate.cached} cached" if estimate.cached else ""
        return Estimate(estimate.credits, f"{len(ids)} {endpoint} lookup{'s' if len(ids) != 1 else ''}{cached}")

    def _search(self, kind: str, query: str | None, filters: Any, page: int, per_page: int) -> Estimate:
        credits = self.client.estimate_search_cost(query, filters, page, per_page, kind=kind)
        return Estimate(credits, f"1 {kind} search page{', cached' if credits == 0 else ''}")

    # -- finding ---------------------------------------------------------------------------------------------

    def parse_company_id(
        self,
        text: Annotated[str, Field(description="A register entry as people write it: 'HRB 152955 Darmstadt'")],
        court: Annotated[str | None, Field(description="The register court, if the text lacks it")] = None,
    ) -> ToolText:
        """Turn a register entry as people write it into the interface's company id. Offline, 0 credits."""
        from regkit.client.arguments.company_ids import parse_company_id

        return self._run(
            "parse_company_id", Estimate(0, "offline"), lambda: {"company_id": parse_company_id(text, court)}
        )

    def search_companies(
        self,
        query: Annotated[str, Field(description="Words of the name, the register number or the city")],
        filters: Annotated[
            dict[str, Any] | None,
            Field(description="e.g. {'legal_form': 'gmbh', 'city': 'Kassel', 'active': true}"),
        ] = None,
        page: Page = 1,
        per_page: PerPage = 10,
    ) -> ToolText:
        """Find companies by name, register number or city, best match first. 10 credits a page (0 cached)."""
        return self._run(
            "search_companies",
            lambda: self._search("company", query, filters, page, per_page),
            lambda: answers.company_results(self.client.search_companies(query, filters, page, per_page).raw),
        )

    def autocomplete_companies(
        self, query: Annotated[str, Field(description="The start of a company's name (2-200 characters)")]
    ) -> ToolText:
        """Up to 10 companies whose name starts like the query. Free (0 credits)."""
        return self._run(
            "autocomplete_companies",
            Estimate(0, "free"),
            lambda: answers.company_results(self.client.autocomplete_companies(query).raw),
        )

    def search_persons(
        self,
        query: Annotated[str, Field(description="Words of the person's name")],
        page: Page = 1,
        per_page: PerPage = 10,
    ) -> ToolText:
        """Find persons by name (those with a published date of birth). 10 credits a page (0 cached)."""
        return self._run(
            "search_persons",
            lambda: self._search("person", query, None, page, per_page),
            lambda: answers.person_results(self.client.search_persons(query, None, page, per_page).raw),
        )

    # -- a company -------------------------------------------------------------------------------------------

    def company_profile(self, company_id: CompanyId) -> ToolText:
        """A company at a glance: name, form, status, register, seat, capital, current representatives, links to
        other companies, latest indicators, proceedings. 10 credits (0 cached)."""
        return self._run(
            "company_profile",
            lambda: self._lookup("company", [company_id]),
            lambda: answers.company_profile(self.client.get_company(company_id).raw),
        )

    def company_history(
        self,
        company_id: CompanyId,
        history: Annotated[
            str, Field(description="One of: names, addresses, registers, capitals, purposes, representation")
        ],
        page: Page = 1,
        per_page: PerPage = answers.PER_PAGE,
    ) -> ToolText:
        """One history of a company (former names, addresses, registers, capitals, purposes, all
        representatives), newest first, paged. 10 credits (0 once the company is cached)."""

        def call() -> Mapping[str, Any]:
            if history not in answers.HISTORIES:
                raise ValidationError(
                    f"history must be one of {', '.join(answers.HISTORIES)}, not {history!r}",
                    suggestion="nothing was sent",
                )
            return answers.history(self.client.get_company(company_id).raw, history, page, per_page)

        return self._run("company_history", lambda: self._lookup("company", [company_id]), call)

    def company_documents(self, company_id: CompanyId) -> ToolText:
        """The documents a company has filed (articles, shareholder lists, ...), newest first. 10 credits
        (0 once the company is cached)."""
        return self._run(
            "company_documents",
            lambda: self._lookup("company", [company_id]),
            lambda: answers.document_list(self.client.get_company(company_id).raw),
        )

    def realtime_document(
        self,
        company_id: CompanyId,
        category: Annotated[
            str,
            Field(
                description="current_printout, chronological_printout, historical_printout, structured_information, "
                "shareholder_list or articles_of_association"
            ),
        ],
    ) -> ToolText:
        """Fetch a document from the register now (a printout, the structured information, the latest list or
        articles): its file name and a download URL valid 15 minutes. 20 credits; only when the user asks."""
        return self._run(
            "realtime_document",
            Estimate(20, "a realtime document"),
            lambda: dict(self.client.get_realtime_document(company_id, category).raw),
        )

    def financial_indicators(
        self,
        company_id: CompanyId,
        years: Annotated[int, Field(ge=1, le=50, description="Latest fiscal years to show")] = 5,
    ) -> ToolText:
        """Revenue, net income, EBIT, equity, liabilities, balance sheet total, cash and employees per fiscal year
        (EUR), newest first. 10 credits (0 cached)."""
        return self._run(
            "financial_indicators",
            lambda: self._lookup("financials", [company_id]),
            lambda: answers.financial_indicators(self._financials(company_id), years),
        )

    def financial_statement(
        self,
        company_id: CompanyId,
        year: Annotated[
            int | None, Field(description="The year the fiscal year ends in; the latest by default")
        ] = None,
        depth: Annotated[int, Field(ge=1, le=6, description="Levels of line items to show")] = 2,
    ) -> ToolText:
        """One filed annual report's balance sheet (aktiva, passiva) and P&L (guv) in EUR, this year and the year
        before, to the depth asked. 10 credits (0 cached)."""
        return self._run(
            "financial_statement",
            lambda: self._lookup("financials", [company_id]),
            lambda: answers.financial_statement(self._financials(company_id), year, depth),
        )

    def _financials(self, company_id: str) -> Mapping[str, Any]:
        from regkit.errors import NoFinancialReportsWarning

        with warnings.catch_warnings():  # a company without reports: an empty answer says so
            warnings.simplefilter("ignore", NoFinancialReportsWarning)
            return self.client.get_financials(company_id).raw

    # -- ownership -------------------------------------------------------------------------------------------

    def owners(self, company_id: CompanyId) -> ToolText:
        """Who holds the company now, largest share first (percent and nominal amount). 10 credits (0 cached)."""
        return self._run(
            "owners",
            lambda: self._lookup("owners", [company_id]),
            lambda: answers.owners(self.client.get_owners(company_id).raw),
        )

    def holdings(self, company_id: CompanyId, page: Page = 1, per_page: PerPage = answers.PER_PAGE) -> ToolText:
        """What a company holds and held (current first; past ones with 'until'), paged. 10 credits (0 cached)."""
        return self._run(
            "holdings",
            lambda: self._lookup("holdings", [company_id]),
            lambda: answers.holdings(self.client.get_holdings(company_id).raw, page, per_page),
        )

    def beneficial_owners(self, company_id: CompanyId) -> ToolText:
        """The beneficial owners (more than 25 % through every chain, § 3 GwG). 10 credits (0 cached)."""
        return self._run(
            "beneficial_owners",
            lambda: self._lookup("ubos", [company_id]),
            lambda: answers.ubos(self.client.get_ubos(company_id).raw),
        )

    def ownership_history(
        self, company_id: CompanyId, page: Page = 1, per_page: PerPage = answers.PER_PAGE
    ) -> ToolText:
        """Every owner the filed shareholder lists name, with the share on each list, paged. 10 credits
        (0 cached)."""
        return self._run(
            "ownership_history",
            lambda: self._lookup("owners_historical", [company_id]),
            lambda: answers.ownership_history(self.client.get_ownership_history(company_id).raw, page, per_page),
        )

    def group_parent(self, company_id: CompanyId) -> ToolText:
        """The way up from a company to its group's ultimate parent: one company lookup per level (a record lists
        its shareholders; their shares are in owners, or in group_below from the parent), each level estimated
        before it is paid; it stops before a level the session cannot pay. 10 credits a level (0 cached)."""
        from regkit.graph import climb

        def call() -> Mapping[str, Any]:
            root = self._current_id(company_id, "group_parent")
            try:
                climbed = climb(self.client, root, budget=self.session.left, callback=lambda estimate: True)
            except BudgetExceededError as error:  # the climb's own words are for Python; these for the agent
                raise BudgetExceededError(
                    f"refused: group_parent from {company_id} could cost at least {error.needed} credits and this "
                    f"session has {self.session.left} of its {self.session.budget} left; nothing was sent",
                    needed=error.needed,
                    remaining=self.session.left,
                    suggestion="climb from a company whose parents are cached, or start the server with a larger "
                    "--budget",
                ) from None
            names = {node: data.get("name") for node, data in climbed.graph.nodes(data=True)}
            return answers.compact(
                {
                    "former_id": company_id if root != company_id else None,
                    "chain": [{"company_id": node, "name": names.get(node)} for node in climbed.chain],
                    "ultimate_parent": climbed.ultimate_parent,
                    "stopped": climbed.stopped,
                }
            )

        return self._run("group_parent", Estimate(None, "10 credits a level, 0 cached"), call)

    def group_below(
        self,
        company_id: CompanyId,
        depth: Annotated[int, Field(ge=0, le=10, description="Levels of holdings to follow down")] = 3,
        max_companies: Annotated[
            int | None,
            Field(ge=1, description="At most this many companies; refused at once if it could cost more than is left"),
        ] = None,
        page: Page = 1,
        per_page: PerPage = answers.PER_PAGE,
    ) -> ToolText:
        """The group below a company: every company it holds, directly or through others, with its effective
        share and depth, paged. Crawled level by level (a company and its holdings: 20 credits, 0 cached); it stops
        before the first level that would cross what the session has left and keeps what it paid for."""
        from regkit.graph import crawl, subsidiaries

        stops: list[str] = []

        def affordable(level: Any) -> bool:
            # the client's budget (the session's) cuts a level it cannot pay whole; without max_companies a cut is
            # that, and the walk stops before the level instead of paying for a part of it
            needed = level.estimated_credits
            if level.skipped and max_companies is None:
                skipped = list(level.skipped)
                needed += sum(self.client.estimate_cost(skipped, endpoint=e).credits for e in ("company", "holdings"))
            if needed > self.session.left:
                stops.append(
                    f"stopped before level {level.level}: it needed {needed} credits and {self.session.left} are "
                    "left; what the levels before it paid for is kept (cached: asking again costs nothing)"
                )
                return False
            return True

        def call() -> Mapping[str, Any]:
            if max_companies is not None:  # a bound the session cannot pay is refused before anything is sent
                self.session.check(max_companies * 20, f"group_below with max_companies={max_companies}")
            root = self._current_id(company_id, "group_below")
            with warnings.catch_warnings():  # a stop is said in the answer
                warnings.simplefilter("ignore", BudgetStopWarning)
                graph = crawl(
                    self.client,
                    [root],
                    depth=depth,
                    direction="down",
                    max_companies=max_companies,
                    progress=False,
                    callback=affordable,
                )
            if root not in graph:  # stopped before level 0: nothing more was fetched, as a refusal says
                raise BudgetExceededError(
                    f"group_below {stops[0] if stops else graph.graph['crawl'].stopped}",
                    needed=0,
                    remaining=self.session.left,
                    suggestion="start the server with a larger --budget",
                )
            rows = [
                {
                    "company_id": row.company_id,
                    "name": row.name if isinstance(row.name, str) else None,
                    "effective_share": None
                    if answers.missing(row.effective_share)
                    else answers.percent(float(row.effective_share), fraction=True),
                    "depth": int(row.depth),
                    "held_by": list(row.parents),
                }
                for row in subsidiaries(graph, root).itertuples(index=False)
            ]
            report = graph.graph["crawl"]
            return answers.compact(
                {
                    "company_id": root,
                    "former_id": company_id if root != company_id else None,
                    "levels_crawled": len(report.levels),
                    "stopped": stops[0] if stops else report.stopped,
                    "subsidiaries": answers.page_of(rows, page, per_page),
                }
            )

        return self._run("group_below", Estimate(None, "20 credits a company, 0 cached"), call)

    def _current_id(self, company_id: str, what: str) -> str:
        """The id of the company ``company_id`` names now (a former id, before a move to another court, leads to
        it): its record, looked up within the session's budget — the first lookup of a walk from it, which the walk
        then finds cached. A 404 is the walk's answer."""
        self.session.check(self._lookup("company", [company_id]).credits or 0, what)
        return str(self.client.get_company(company_id).raw["id"])

    # -- insolvencies ----------------------------------------------------------------------------------------

    def search_insolvencies(
        self,
        query: Annotated[str | None, Field(description="Words of the debtor's name, a case number, a court")] = None,
        filters: Annotated[
            dict[str, Any] | None,
            Field(description="e.g. {'debtor_kind': 'legal_person', 'current_status': ['opened']}"),
        ] = None,
        page: Page = 1,
        per_page: PerPage = 10,
    ) -> ToolText:
        """Find insolvency proceedings (companies and persons). 10 credits a page (0 cached)."""
        return self._run(
            "search_insolvencies",
            lambda: self._search("insolvency", query, filters, page, per_page),
            lambda: answers.insolvency_results(self.client.search_insolvencies(query, filters, page, per_page).raw),
        )

    def insolvency(
        self,
        insolvency_id: Annotated[str, Field(description="A proceeding's id (a UUID from search_insolvencies)")],
        page: Page = 1,
        per_page: PerPage = answers.PER_PAGE,
    ) -> ToolText:
        """One insolvency proceeding: debtor, court, status, administrator and its published events, newest first.
        10 credits (0 cached)."""
        return self._run(
            "insolvency",
            Estimate(10, "1 proceeding, 0 if cached"),
            lambda: answers.insolvency(self.client.get_insolvency(insolvency_id).raw, page, per_page),
        )

    # -- persons ---------------------------------------------------------------------------------------------

    def person(self, person_id: PersonId, page: Page = 1, per_page: PerPage = answers.PER_PAGE) -> ToolText:
        """A person and their positions in companies (current first), paged. 10 credits (0 cached)."""
        return self._run(
            "person",
            lambda: self._lookup("person", [person_id]),
            lambda: answers.person(self.client.get_person(person_id).raw, page, per_page),
        )

    def person_holdings(self, person_id: PersonId, page: Page = 1, per_page: PerPage = answers.PER_PAGE) -> ToolText:
        """The companies a person holds and held shares in, paged. 10 credits (0 cached)."""
        return self._run(
            "person_holdings",
            lambda: self._lookup("person_holdings", [person_id]),
            lambda: answers.holdings(self.client.get_person_holdings(person_id).raw, page, per_page),
        )

    # -- what changed ----------------------------------------------------------------------------------------

    def changes(
        self,
        entity_id: Annotated[str, Field(description="A company id or a person's id")],
        page: Page = 1,
        per_page: PerPage = answers.PER_PAGE,
    ) -> ToolText:
        """What changed about a company or person between the answers the cache kept (each refresh keeps the one
        before): category, kind, date, field, before and after, newest first. 0 credits."""

        def call() -> Mapping[str, Any]:
            frame = self.client.changes(entity_id)
            rows = [
                {
                    "category": row["category"],
                    "kind": row["kind"],
                    "date": None if answers.missing(row["date"]) else str(row["date"])[:10],
                    "field": row["field"],
                    "before": answers.cut(row["before"], 120),
                    "after": answers.cut(row["after"], 120),
                }
                for row in frame.sort_values("date", ascending=False, na_position="last").to_dict("records")
            ]
            return answers.compact({"entity_id": entity_id, "changes": answers.page_of(rows, page, per_page)})

        return self._run("changes", Estimate(0, "from the cache"), call)

    def watchlist_estimate(
        self,
        name: Annotated[str, Field(description="The watchlist's name")],
        companies: Annotated[
            list[str] | None, Field(description="Company ids: creates the watchlist or replaces its companies")
        ] = None,
        categories: Annotated[
            list[str] | None,
            Field(
                description="What to watch: basic, representation, financials, documents, ownership, holdings, insolvencies"
            ),
        ] = None,
    ) -> ToolText:
        """Create or open a watchlist and say what refreshing its stale members would cost. 0 credits."""

        def call() -> Mapping[str, Any]:
            if companies is None and categories is None:
                watchlist = self.client.watchlist(name)
            else:
                watchlist = self.client.watchlist(name, companies=companies, categories=categories)
            estimate = watchlist.estimate()
            return {
                "watchlist": name,
                "members": estimate.members,
                "stale": list(estimate.stale),
                "lookups": estimate.lookups,
                "credits": estimate.credits,
            }

        return self._run("watchlist_estimate", Estimate(0, "nothing sent"), call)

    def watchlist_refresh(self, name: Annotated[str, Field(description="The watchlist's name")]) -> ToolText:
        """Refresh a watchlist's stale members and return the changes found. Costs what watchlist_estimate says
        (10 credits a lookup, 0 cached); refused if that crosses what the session has left."""

        def estimate() -> Estimate:
            return Estimate(self.client.watchlist(name).estimate().credits, "the watchlist's estimate")

        def call() -> Mapping[str, Any]:  # capped at what is left: what the estimate could not know stays stale
            refreshed = self.client.watchlist(name).refresh(max_credits=self.session.left, progress=False)
            rows = [
                {"entity_id": row["entity_id"], "category": row["category"], "kind": row["kind"]}
                for row in refreshed.changes.to_dict("records")
            ]
            return answers.compact(
                {
                    "watchlist": name,
                    "refreshed": len(refreshed.refreshed),
                    "left_stale": list(refreshed.skipped),
                    "errors": {key: str(value) for key, value in refreshed.errors.items()},
                    "changes": answers.page_of(rows, 1, 100),
                }
            )

        return self._run("watchlist_refresh", estimate, call)

    # -- the session -----------------------------------------------------------------------------------------

    def session_credits(
        self, last: Annotated[int, Field(ge=0, le=100, description="Ledger rows to show, newest last")] = 10
    ) -> ToolText:
        """What this session has spent and has left, the last paid or cached calls, and the register's account.
        0 credits."""

        def call() -> Mapping[str, Any]:
            ledger = self.client.ledger
            recent = ledger.tail(last).to_dict("records") if last else []
            rows = [
                {
                    "call": row["call"],
                    "path": row["path"],
                    "credits": int(row["credits"]),
                    "source": row["source"],
                    "status": None if answers.missing(row["status"]) else int(row["status"]),
                }
                for row in recent
            ]
            account = self.client.get_credits().raw
            return answers.compact(
                {
                    "serving": self.session.where,
                    "session": {"budget": self.session.budget, "spent": self.session.spent, "left": self.session.left},
                    "calls": len(ledger),
                    "saved_by_cache": int(ledger["saved"].sum()),
                    "ledger": rows,
                    "account": {
                        "used": account.get("used_credits"),
                        "remaining": account.get("remaining_credits"),
                    },
                }
            )

        return self._run("session_credits", Estimate(0, "free"), call)
