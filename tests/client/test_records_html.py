"""Records display in Jupyter as small HTML summaries (``_repr_html_``): the numbers a reader expects, escaped, short.

Expected values come from the records' raw answers (what the local register sent) and from the world, never from
the summary code; the HTML is read back as text with the standard library's parser.
"""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from regkit.client import (
    CompanyBatch,
    CompanyRecord,
    CompanySearchPage,
    CreditsRecord,
    ExtractRecord,
    HoldingsRecord,
    InsolvencyRecord,
    InsolvencySearchPage,
    MonitorRecord,
    OwnersRecord,
    PersonSearchPage,
)
from regkit.client.budget.limit import Budget
from regkit.errors import NotFoundError

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PRICE = 10  # credits per company lookup and per search page (the interface's price list)


class _Reader(HTMLParser):
    """The text of a summary: its title (first ``<div>``), its lines, and each table row's cells."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.rows: list[list[str]] = []
        self.title = ""
        self._cell: list[str] | None = None
        self._depth = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "div":
            self._depth += 1
            self._in_title = self._depth == 2 and not self.title
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "div":
            self._depth -= 1
            self._in_title = False
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._in_title:
            self.title += data


def read(html_text: str) -> _Reader:
    assert html_text.startswith("<div class='regkit-summary")
    reader = _Reader()
    reader.feed(html_text)
    reader.title = reader.title.strip()
    return reader


def text_of(html_text: str) -> str:
    return " ".join(" ".join(read(html_text).text).split())


def fact(html_text: str, label: str) -> str:
    return next(row[1] for row in read(html_text).rows if row and row[0] == label)


def data_rows(html_text: str, first_heading: str) -> list[list[str]]:
    """The rows under the table whose first heading is ``first_heading``."""
    rows = read(html_text).rows
    start = next(i for i, row in enumerate(rows) if row and row[0] == first_heading)
    out = []
    for row in rows[start + 1 :]:
        if len(row) != len(rows[start]):
            break
        out.append(row)
    return out


def group(n: float) -> str:
    return f"{n:,.0f}"


@pytest.fixture
def client(inprocess: Any) -> Any:
    return inprocess.client(budget=1000)


@pytest.fixture(scope="module")
def gmbhs(world: Any) -> list[str]:
    """Active GmbHs of the world, in id order."""
    return [cid for cid, c in world.companies.items() if c["name"]["legal_form"] == "gmbh" and c["status"] == "active"]


def test_cost_estimate_says_companies_price_cached_and_total(client: Any, gmbhs: list[str]) -> None:
    ids = gmbhs[:12]
    client.get_companies(ids[:8], progress=False)  # 80 credits; these 8 are cached now
    estimate = client.estimate_cost([*ids, *ids[:2], "nonsense"])
    html_text = estimate._repr_html_()
    line = fact(html_text, "Lookups")
    assert line == "12 companies · 10 credits each · 8 cached (0 credits) · 4 to fetch: 40 credits"
    assert read(html_text).title.startswith("Cost estimate: 40 credits")
    assert fact(html_text, "Ids asked").startswith("15 (3 ")
    assert fact(html_text, "Budget") == f"{group(1000 - 8 * PRICE)} credits left: covers it"
    assert "within budget" in text_of(html_text) and "nothing was sent" in text_of(html_text)
    assert repr(estimate).startswith("<CostEstimate 15 ids, 12 distinct") and len(repr(estimate)) < 120


def test_cost_estimate_over_budget_says_so(inprocess: Any, gmbhs: list[str]) -> None:
    estimate = inprocess.client(budget=30).estimate_cost(gmbhs[:4])
    assert "over budget" in text_of(estimate._repr_html_())
    assert fact(estimate._repr_html_(), "Budget").startswith("30 credits left: not enough")


def test_batch_counts_fetched_missing_failed_and_credits(client: Any, world: Any, gmbhs: list[str]) -> None:
    ids = gmbhs[:14]
    client.get_companies(ids[:4], progress=False)
    missing = "DE-HRB-B1204-999999999"
    assert missing not in world.companies
    batch = client.get_companies([*ids, missing, "nonsense"], progress=False, errors="collect")
    html_text = batch._repr_html_()
    assert read(html_text).title.startswith("16 companies")
    assert fact(html_text, "Fetched") == "14 (4 from the cache)"
    assert fact(html_text, "Not found") == "1" and fact(html_text, "Malformed ids") == "1"
    assert fact(html_text, "Credits") == f"{10 * PRICE} credits spent · {4 * PRICE} credits saved by the cache"
    rows = data_rows(html_text, "Company")
    assert len(rows) == 6 and f"… and {14 - 6} more" in text_of(html_text)
    for row, cid in zip(rows, ids, strict=False):
        company = world.companies[cid]
        register = company["register"]
        assert row[0] == company["name"]["name"] and row[1] == "GmbH" and row[3] == "active"
        assert row[2].startswith(f"{register['register_type']} {register['register_number']} ")
        assert row[2].endswith(register["register_court"].split()[-1])
    failed = dict(data_rows(html_text, "Id"))
    assert failed == {missing: "not found", "nonsense": "malformed id (not sent)"}
    assert "client.get_companies(batch.failed_ids" in text_of(html_text)


def test_batch_of_cached_companies_says_all_fetched(client: Any, gmbhs: list[str]) -> None:
    client.get_companies(gmbhs[:3], progress=False)
    batch = client.get_companies([gmbhs[0], gmbhs[1], gmbhs[2], gmbhs[0]], progress=False)
    html_text = batch._repr_html_()
    assert "all fetched" in text_of(html_text) and fact(html_text, "Fetched") == "3 (3 from the cache)"
    assert fact(html_text, "Credits") == f"0 credits spent · {3 * PRICE} credits saved by the cache"
    assert fact(html_text, "Duplicates").startswith("1 ")
    assert len(data_rows(html_text, "Company")) == 3


def test_company_search_page(client: Any) -> None:
    page = client.search_companies("Blau", per_page=12)
    pagination = page.raw["pagination"]
    html_text = page._repr_html_()
    assert read(html_text).title == f"Company search: {group(pagination['total_results'])} results"
    assert f"page 1 of {group(pagination['total_pages'])} · 10 credits" in text_of(html_text)
    rows = data_rows(html_text, "Name")
    assert len(rows) == 10 and "… and 2 more" in text_of(html_text)
    for row, result in zip(rows, page.raw["results"], strict=False):
        assert row[0] == result["name"] and row[2].startswith(f"{result['register_type']} {result['register_number']}")
        assert row[3] == result["address"]["city"] and row[4] == ("active" if result["active"] else "inactive")
    assert "0 credits, cached" in text_of(client.search_companies("Blau", per_page=12)._repr_html_())


def test_insolvency_and_person_search_pages(client: Any) -> None:
    page = client.search_insolvencies(per_page=5)
    rows = data_rows(page._repr_html_(), "Debtor")
    assert [row[0] for row in rows] == [r["debtor_name"] for r in page.raw["results"]]
    assert [row[4] for row in rows] == [r["last_event_at"] for r in page.raw["results"]]
    assert [row[2] for row in rows] == [r["court"].removeprefix("Amtsgericht ") for r in page.raw["results"]]
    persons = client.search_persons("Müller", per_page=5)
    rows = data_rows(persons._repr_html_(), "Name")
    assert [(row[0], row[1], row[2]) for row in rows] == [
        (r["name"], r["city"], r["date_of_birth"]) for r in persons.raw["results"]
    ]
    assert not UUID.search(text_of(persons._repr_html_()))


def test_search_all_results(client: Any) -> None:
    results = client.search_all_insolvencies(limit=150, progress=False)
    text = text_of(results._repr_html_())
    assert f"Insolvency search: {group(results.total_results)} results" in text
    assert f"150 fetched · 2 pages · {2 * PRICE} credits spent" in text and "… and 140 more" in text


def test_insolvency_record(client: Any, world: Any) -> None:
    pid = next(i for i, p in world.insolvencies.items() if p["current_status"] == "mass_insufficient" and p["events"])
    record = client.get_insolvency(pid)
    html_text = record._repr_html_()
    reader = read(html_text)
    assert reader.title.startswith(record.raw["debtor_name"]) and "insufficient assets" in reader.title
    assert f"{record.raw['case_number']}, {record.raw['court']}" in text_of(html_text)
    assert fact(html_text, "Administrator") == record.raw["administrator_name"]
    assert fact(html_text, "Opened") == record.raw["opened_at"]
    events = record.raw["events"]
    assert f"Latest events ({len(events)} in all)" in text_of(html_text)
    rows = data_rows(html_text, "Published")
    assert rows[0][0] == max(e["published_at"] for e in events) and len(rows) == min(4, len(events))
    assert not UUID.search(reader.title)


def test_insolvency_events_are_labelled(client: Any, world: Any) -> None:
    pid = next(
        i
        for i, p in world.insolvencies.items()
        if any(e["event_type"] == "rejected_insufficient_assets" for e in p["events"][-4:])
    )
    rows = data_rows(client.get_insolvency(pid)._repr_html_(), "Published")
    assert "rejected (insufficient assets)" in [row[1] for row in rows]  # the label, not "rejected insufficient assets"


def test_owners_and_holdings(client: Any, world: Any) -> None:
    from research_support import pick_group_holder

    holder, held = pick_group_holder(world)
    owners = client.get_owners(held)
    html_text = owners._repr_html_()
    assert read(html_text).title == f"Owners of {held}"
    rows = data_rows(html_text, "Owner")
    for row, owner in zip(rows, owners.raw["owners"], strict=True):
        assert row[0] == owner["name"] and row[3] == f"{round(owner['percentage_share'], 2):g} %"  # a percentage
        assert row[4] == f"€{owner['nominal_share']:,.0f}" and row[5] == owner["start"]
    holdings = client.get_holdings(holder)
    html_text = holdings._repr_html_()
    current = [h for h in holdings.raw["holdings"] if h["end"] is None]
    assert fact(html_text, "Holdings").startswith(f"{len(current)} current")
    rows = data_rows(html_text, "Company")
    assert len(rows) == min(10, len(holdings.raw["holdings"]))
    for row, holding in zip(rows, current, strict=False):
        assert row[0] == holding["name"] and row[2] == f"{round(holding['percentage_share'] * 100, 2):g} %"  # fraction


def test_person_holdings_have_no_uuid_headline(client: Any, world: Any) -> None:
    from research_support import owners_by_company

    person = next(
        r["holder_id"]
        for rows in owners_by_company(world).values()
        for r in rows
        if r["holder_type"] == "natural_person" and r["holder_id"]
    )
    html_text = client.get_person_holdings(person)._repr_html_()
    assert read(html_text).title == "Holdings of a person" and f"person id {person}" in text_of(html_text)


def test_credits_monitor_and_extract(client: Any, gmbhs: list[str]) -> None:
    credits = client.get_credits()
    html_text = credits._repr_html_()
    raw = credits.raw
    assert read(html_text).title == f"Credits: {group(raw['remaining_credits'])} remaining"
    assert fact(html_text, "Used") == f"{group(raw['used_credits'])} of {group(raw['included_credits'])} included"
    assert fact(html_text, "Period").endswith(raw["period"]["reset_at"][:10])
    monitor = client.create_monitor("company", gmbhs[0], ["documents", "ownership"])
    html_text = monitor._repr_html_()
    assert read(html_text).title == f"Monitor of company {gmbhs[0]} active"
    assert fact(html_text, "Watches") == "documents, ownership"
    assert fact(html_text, "Frequency") == monitor.raw["update_frequency"]
    order = client.order_extract(credential_name="sandbox")
    assert "processing" in read(order._repr_html_()).title
    done = client.wait_for_extract(order.id, timeout=10, poll=0.05)
    html_text = done._repr_html_()
    ubo = done.raw["report"]["ubos"][0]
    assert "completed" in read(html_text).title and fact(html_text, "Of") == f"eKRN {done.raw['ekrn']}"
    expected = [ubo["natural_person"]["full_name"], ubo["interest"]["type"], f"{ubo['interest']['percentage']:g} %"]
    assert data_rows(html_text, "Beneficial owner")[0] == expected
    assert fact(html_text, "Documents") == ", ".join(d["filename"] for d in done.raw["documents"])
    assert "signature" not in html_text  # presigned URLs are not shown


def test_budget() -> None:
    budget = Budget(500)
    budget.settle(budget.reserve(120), 120)
    held = budget.reserve(30)
    html_text = budget._repr_html_()
    assert read(html_text).title == "Budget: 350 credits left"
    assert fact(html_text, "Spent") == "120 of 500 credits" and fact(html_text, "Reserved").startswith("30 credits")
    assert fact(html_text, "Left") == "350 credits" and budget.snapshot() == (120, 30, 500)
    budget.settle(held, 0)
    assert (
        fact(Budget()._repr_html_(), "Limit").startswith("none") and repr(Budget(5)) == "<Budget 5 of 5 left, 0 spent>"
    )


def test_crawl_level_estimate(client: Any, world: Any) -> None:
    from research_support import pick_group_holder

    from regkit.graph import crawl

    holder, _ = pick_group_holder(world)
    plans: list[Any] = []
    crawl(client, holder, depth=1, direction="down", progress=False, callback=lambda p: plans.append(p) is None)
    first = plans[0]
    html_text = first._repr_html_()
    assert read(html_text).title == f"Crawl level 0: {first.estimated_credits} credits"
    rows = {row[0]: row[1:] for row in data_rows(html_text, "Calls")}
    assert rows["company lookups"] == [
        str(first.calls["company"]),
        str(first.cached_calls["company"]),
        str(first.credits["company"]),
    ]
    assert sum(int(r[2]) for r in rows.values()) == first.estimated_credits


def _nasty(text: str) -> str:
    return f"<script>alert('{text}')</script> & Co"


def test_every_text_is_escaped() -> None:
    name = _nasty("x")
    register = {"register_type": "HRB", "register_number": "<1>"}
    company = CompanyRecord(
        {
            "id": "DE-HRB-B1234-1",
            "name": {"name": name, "legal_form": "<gmbh>"},
            "register": register,
            "status": "<active>",
        }
    )
    pagination = {"page": 1, "per_page": 1, "total_pages": 1, "total_results": 1}
    records = [
        CompanyBatch([company.id, "<bad>"], [company, None], {"<bad>": NotFoundError(_nasty("e"))}),
        CompanySearchPage(
            {
                "results": [{"name": name, "legal_form": "<x>", "register_court": name, "address": {"city": name}}],
                "pagination": pagination,
            }
        ),
        InsolvencySearchPage(
            {"results": [{"debtor_name": name, "court": name, "current_status": "<s>"}], "pagination": pagination}
        ),
        PersonSearchPage({"results": [{"name": name, "city": name}], "pagination": pagination}),
        InsolvencyRecord(
            {
                "debtor_name": name,
                "case_number": name,
                "court": name,
                "administrator_name": name,
                "current_status": "<x>",
                "events": [{"summary": name, "event_type": "<e>"}],
            }
        ),
        OwnersRecord({"company_id": name, "owners": [{"name": name, "relation_type": "<r>", "percentage_share": 1}]}),
        HoldingsRecord({"person_id": name, "holdings": [{"name": name, "relation_type": "<r>", "end": None}]}),
        CreditsRecord({"used_credits": 1, "period": {"type": name, "reset_at": name}}),
        MonitorRecord({"entity_type": "company", "entity_id": name, "preferences": [name], "update_frequency": name}),
        ExtractRecord(
            {
                "id": name,
                "status": name,
                "ekrn": name,
                "documents": [{"filename": name}],
                "report": {"ubos": [{"natural_person": {"full_name": name}, "interest": {"type": name}}]},
            }
        ),
    ]
    for record in records:
        html_text = record._repr_html_()
        assert "<script" not in html_text and "<x>" not in html_text, type(record).__name__
        assert "&lt;script&gt;" in html_text, type(record).__name__
        assert "&amp; Co" in html_text or isinstance(record, CreditsRecord), type(record).__name__  # (a date: cut)


@pytest.mark.slow
def test_no_api_key_in_any_summary(tmp_path: Any, world: Any, gmbhs: list[str]) -> None:
    from regkit.client import Client
    from regkit.local import open_local_register

    secret = "secret-e15-0123456789abcdef"
    user = {
        "api_key": secret,
        "plan": "pro",
        "included_credits": 100000,
        "period": "billing_cycle",
        "description": "a key that must never show",
    }
    own_world = dataclasses.replace(world, meta={**world.meta, "users": [*world.meta["users"], user]})
    register = open_local_register(
        state_path=tmp_path / "state.sqlite", world=own_world, rate_limit=None, extract_delay=0.0
    )
    try:
        with Client(
            api_key=secret, base_url=register.base_url, adapter=register.adapter, cache="memory", budget=500
        ) as client:
            shown = [
                client.estimate_cost(gmbhs[:3]),
                client.get_companies(gmbhs[:3], progress=False),
                client.search_companies("Blau"),
                client.search_insolvencies(per_page=3),
                client.get_credits(),
                client.budget,
                client.search_persons("Müller", per_page=3),
            ]
            assert client.get_credits().raw["used_credits"] > 0  # the secret key was the one used
            for item in shown:
                assert secret not in item._repr_html_() and secret not in repr(item), type(item).__name__
    finally:
        register.close()


def test_tables_never_show_more_than_ten_rows(client: Any) -> None:
    pages = (
        client.search_companies("Handel", per_page=40),
        client.search_all_companies("Handel", limit=120, progress=False),
    )
    for item in pages:
        html_text = item._repr_html_()
        assert len(data_rows(html_text, "Name")) == 10 and "… and " in text_of(html_text)
