"""Every public plot of ``regkit.plot`` refuses a wrong input before drawing, with a regkit error that names the input
it needs and where to get it (``regkit.plot.inputs``); ``group`` on a company not in the graph says so as
``regkit.graph.subsidiaries`` does.

The inputs are the bundled world's, through ``regkit.Client`` on the local register (the ``client`` fixture): a
financials answer and its frames, a company record, an insolvency search and a proceeding, an ownership history,
and a group crawled from its top.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import pytest

import regkit
import regkit.plot
from regkit.errors import ArgumentError, RegkitError, ValidationError
from regkit.graph import NotInGraphError

TOP = "DE-HRB-R2103-65834"  # Luxlog Holding AG: 17 full reports
WALDSTEIN = "DE-HRB-X1517-62135KI"  # the largest group of the world (data/README.md)
OWNED = "DE-HRB-U1308-101888"  # four shareholder lists

#: Public names of regkit.plot that take no data to check: a switch, a formatter (its scale is checked where it
#: is read), dates (read by regkit's date rule), and the source line's own helpers (which take anything).
NOT_DATA = {
    "deterministic",
    "EuroFormatter",
    "fiscal_years",
    "fiscal_year_label",
    "set_default_source",
    "source_of",
    "YearStepLocator",
}


@pytest.fixture
def data(client: Any) -> SimpleNamespace:
    """The world's inputs of every kind, each as its plot takes it."""
    fin = client.get_financials(TOP)
    company = client.get_company(TOP)
    page = client.search_insolvencies()
    proceeding = client.get_insolvency(page[0]["id"])
    history = client.get_ownership_history(OWNED)
    return SimpleNamespace(
        fin=fin,
        company=company,
        statements=fin.statements(),
        indicators=fin.indicators(),
        ratios=fin.ratios(),
        company_indicators=company.indicators(),
        page=page,
        proceedings=page.to_dataframe(),
        proceeding=proceeding,
        events=proceeding.events(),
        history=history,
        history_frame=history.to_dataframe(),
    )


def _graph() -> Any:
    from group_support import world_graph

    return world_graph()


#: Public name → (call with the wrong input, the wrong inputs, what the message must name as needed, where to get it).
#: A wrong input is a value, or the name of one of :func:`data`'s inputs.
CASES: dict[str, tuple[Callable[[Any], Any], list[Any], str, str]] = {
    "indicators": (
        lambda x: regkit.plot.indicators(x, "revenue"),
        [None, TOP, pd.DataFrame(), "statements", "events", "history", "proceeding", 42],
        "needs the wide indicators frame, companies or a financials answer",
        "client.get_company(",
    ),
    "ratios": (
        lambda x: regkit.plot.ratios(x, "equity_ratio"),
        [None, TOP, pd.DataFrame(), "statements", "events", "history_frame", "proceeding"],
        r"needs the ratios frame \(or an indicators frame\), a financials answer or companies",
        "client.get_financials(",
    ),
    "balance_sheet": (
        lambda x: regkit.plot.balance_sheet(x),
        [None, TOP, pd.DataFrame(), "indicators", "ratios", "company", "events"],
        "needs the statements frame or a financials answer",
        "client.get_financials(",
    ),
    "pnl_waterfall": (
        lambda x: regkit.plot.pnl_waterfall(x),
        [None, TOP, pd.DataFrame(), "statements", "company", "company_indicators", "events"],
        r"needs the indicators frame of a financials answer \(48 measures\) or a financials answer",
        "client.get_financials(",
    ),
    "insolvency_trend": (
        lambda x: regkit.plot.insolvency_trend(x),
        [None, "some text", pd.DataFrame(), "fin", "company", "proceeding"],
        r"needs a proceedings frame \(one row per proceeding\) or insolvency search results",
        "client.search_all_insolvencies",
    ),
    "trend_counts": (
        lambda x: regkit.plot.trend_counts(x),
        [None, pd.DataFrame(), "fin", "company"],
        r"needs a proceedings frame \(one row per proceeding\) or insolvency search results",
        "client.search_all_insolvencies",
    ),
    "insolvency_breakdown": (
        lambda x: regkit.plot.insolvency_breakdown(x),
        [None, pd.DataFrame(), "fin", "company"],
        r"needs a proceedings frame \(one row per proceeding\) or insolvency search results",
        "client.search_all_insolvencies",
    ),
    "breakdown_counts": (
        lambda x: regkit.plot.breakdown_counts(x),
        [None, pd.DataFrame(), "fin", "company"],
        r"needs a proceedings frame \(one row per proceeding\) or insolvency search results",
        "client.search_all_insolvencies",
    ),
    "insolvency_timeline": (
        lambda x: regkit.plot.insolvency_timeline(x),
        [None, "some text", pd.DataFrame(), "proceedings", "page", "company", "statements"],
        "needs a proceeding or the events frame of a proceeding",
        "client.get_insolvency(",
    ),
    "changes_timeline": (
        lambda x: regkit.plot.changes_timeline(x),
        [None, "statements", "company", "events"],
        "changes_timeline needs a frame of changes or a watchlist refresh",
        "client.changes(id)",
    ),
    "timeline": (
        lambda x: regkit.plot.timeline(x),
        [None, TOP, pd.DataFrame(), "fin", "company_indicators", "proceeding"],
        "needs one company",
        "client.get_company(",
    ),
    "timeline_bars": (
        lambda x: regkit.plot.timeline_bars(x),
        [None, TOP, "fin", "statements"],
        "needs one company",
        "client.get_company(",
    ),
    "cap_table": (
        lambda x: regkit.plot.cap_table(x),
        [None, TOP, pd.DataFrame(), "company", "fin", "statements"],
        "needs the ownership-history frame or an ownership-history answer",
        "client.get_ownership_history",
    ),
    "cap_table_steps": (
        lambda x: regkit.plot.cap_table_steps(x),
        [None, "company", "indicators"],
        "needs the ownership-history frame or an ownership-history answer",
        "client.get_ownership_history",
    ),
    "ratios_before": (
        lambda x: regkit.plot.ratios_before(x),
        [None, "fin", "company", "statements", pd.DataFrame()],
        r"needs the ratios frame \(or an indicators frame\)",
        "fin.ratios()",
    ),
    "ratios_before_summary": (
        lambda x: regkit.plot.ratios_before_summary(x),
        [None, "fin", "company", "events"],
        r"needs the ratios frame \(or an indicators frame\)",
        "fin.ratios()",
    ),
    "group": (
        lambda x: regkit.plot.group(x),
        [None, TOP, "company", "statements", "fin"],
        "needs a group graph",
        "regkit.crawl",
    ),
    "group_interactive": (
        lambda x: regkit.plot.group_interactive(x),
        [None, TOP, "company", "proceedings"],
        "needs a group graph",
        "regkit.crawl",
    ),
    "short_labels": (
        lambda x: regkit.plot.short_labels(x),
        [None, "company", "proceedings"],
        "needs a group graph",
        "regkit.crawl",
    ),
    "figure_svg": (
        lambda x: regkit.plot.figure_svg(x),
        [None, "statements", "company"],
        "figure_svg needs a matplotlib Figure",
        "ax.figure",
    ),
    "add_source_line": (
        lambda x: regkit.plot.add_source_line(x, "a line"),
        [None, "statements", "fin"],
        "add_source_line needs a matplotlib Axes or Figure",
        "the Axes a plot returned",
    ),
    "fiscal_year_axis": (
        lambda x: regkit.plot.fiscal_year_axis(x, ["2023-12-31"]),
        [None, "statements", "some text"],
        "fiscal_year_axis: ax must be a matplotlib Axes",
        "plt.subplots",
    ),
    "year_axis": (
        lambda x: regkit.plot.year_axis(x, "2020-01-01", "2024-01-01"),
        [None, "statements", "fin"],
        "year_axis: ax must be a matplotlib Axes",
        "plt.subplots",
    ),
}


def _value(data: SimpleNamespace, wrong: Any) -> Any:
    return getattr(data, wrong) if isinstance(wrong, str) and hasattr(data, wrong) else wrong


def test_every_public_plot_has_its_wrong_inputs_here() -> None:
    assert set(regkit.plot.__all__) == set(CASES) | NOT_DATA


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrong_input_is_a_regkit_error_naming_the_right_one(name: str, data: SimpleNamespace) -> None:
    call, wrongs, needs, where = CASES[name]
    before = set(plt.get_fignums())
    for wrong in wrongs:
        value = _value(data, wrong)
        with pytest.raises(ValidationError, match=needs) as raised:
            call(value)
        assert isinstance(raised.value, RegkitError) and isinstance(raised.value, ArgumentError), (name, wrong)
        assert where in str(raised.value), (name, wrong, str(raised.value))
        assert "got " in raised.value.message, raised.value.message  # says what it was given
        assert set(plt.get_fignums()) == before, f"{name} drew before refusing {wrong!r}"


def test_the_message_says_what_was_given(data: SimpleNamespace) -> None:
    with pytest.raises(ArgumentError) as raised:
        regkit.plot.balance_sheet(data.indicators)  # issue 40: KeyError 'consolidated' from inside pandas
    assert raised.value.message == (
        "regkit.plot.balance_sheet needs the statements frame or a financials answer; "
        "got the indicators frame of a financials answer (48 measures)"
    )
    assert (
        raised.value.suggestion
        == "pass one of: fin.statements() (regkit.frames.statements(fin)); client.get_financials(id)"
    )
    with pytest.raises(ArgumentError, match="got the statements frame"):
        regkit.plot.pnl_waterfall(data.statements)
    with pytest.raises(ArgumentError, match=r"got one company \(CompanyRecord\)"):
        regkit.plot.pnl_waterfall(data.company)
    with pytest.raises(ArgumentError, match=r"got an empty DataFrame \(no columns\)"):
        regkit.plot.ratios(pd.DataFrame())
    with pytest.raises(ArgumentError, match="needs one company; got 2 companies in a list"):
        regkit.plot.timeline([data.company, data.company])


def test_a_company_id_where_data_goes_is_answered_with_the_call_that_fetches_it(data: SimpleNamespace) -> None:
    with pytest.raises(ArgumentError) as raised:
        regkit.plot.ratios(TOP)
    assert (
        raised.value.suggestion == f"a company id is not its data: fetch it first, e.g. client.get_financials({TOP!r})"
    )
    with pytest.raises(ArgumentError, match=rf"client\.get_financials\('{TOP}'\)"):
        regkit.plot.balance_sheet(TOP)
    with pytest.raises(ArgumentError, match=rf"regkit\.crawl\(client, '{TOP}'\)"):
        regkit.plot.group(TOP)


def test_a_column_the_call_names_is_checked_with_what_was_given(data: SimpleNamespace) -> None:
    with pytest.raises(ValidationError, match=r"needs the column 'opened_at' \(the event's date.*the ratios frame"):
        regkit.plot.ratios_before(data.ratios)  # no event merged in
    with pytest.raises(ValidationError, match=r"needs the column 'filed_at'"):
        regkit.plot.insolvency_trend(data.proceedings, date="filed_at")
    with pytest.raises(ValidationError, match=r"'legal_form' is neither one of these nor a column of the ratios frame"):
        regkit.plot.insolvency_breakdown(data.ratios)


def test_an_empty_frame_of_the_right_kind_is_drawn_as_no_data(data: SimpleNamespace) -> None:
    from regkit.errors import NoFinancialReportsWarning

    with pytest.warns(NoFinancialReportsWarning):
        ax = regkit.plot.ratios(data.ratios.iloc[:0], "interest_coverage")
    assert [t.get_gid() for t in ax.texts] == ["no-data"]
    with pytest.warns(NoFinancialReportsWarning):
        regkit.plot.balance_sheet(data.statements.iloc[:0])
    ax = regkit.plot.insolvency_trend(data.proceedings.iloc[:0])
    assert not ax.containers or all(len(c) == 0 for c in ax.containers)


def test_a_wrong_axes_is_refused_before_drawing(data: SimpleNamespace) -> None:
    with pytest.raises(ArgumentError, match="ax must be a matplotlib Axes or None; got the statements frame"):
        regkit.plot.indicators(data.fin, "revenue", ax=data.statements)
    with pytest.raises(ArgumentError, match="ax must be a matplotlib Axes or None"):
        regkit.plot.group(_graph(), 42)


@pytest.fixture
def crawled(client: Any) -> Any:
    return regkit.crawl(client, WALDSTEIN, depth=6, direction="down", progress=False)


def test_group_on_a_company_not_in_the_graph_says_so_as_subsidiaries_does(crawled: Any) -> None:
    before = set(plt.get_fignums())
    with pytest.raises(NotInGraphError) as expected:
        regkit.graph.subsidiaries(crawled, TOP)
    for call in (
        lambda: regkit.plot.group(crawled, company_id=TOP),
        lambda: regkit.plot.group(crawled, TOP),
        lambda: regkit.plot.group_interactive(crawled, company_id=TOP),
        lambda: regkit.plot.group_interactive(crawled, TOP),
    ):
        with pytest.raises(NotInGraphError) as raised:
            call()
        assert str(raised.value) == str(expected.value) and raised.value.node == TOP
        assert f"regkit.crawl(client, {TOP!r})" in raised.value.suggestion
    assert set(plt.get_fignums()) == before
    with pytest.raises(NotInGraphError, match="node 'DE-HRB-R2103-1' is not in the graph"):
        regkit.plot.short_labels(crawled, ["DE-HRB-R2103-1"])


def test_group_takes_the_company_id_in_second_place(crawled: Any) -> None:
    by_place = regkit.plot.group(crawled, WALDSTEIN)
    by_name = regkit.plot.group(crawled, company_id=WALDSTEIN)
    assert by_place.get_title() == by_name.get_title() == by_name.get_title()
    assert WALDSTEIN in by_place.get_title()
    assert {t.get_gid() for t in by_place.texts} == {t.get_gid() for t in by_name.texts}
    assert (
        regkit.plot.group_interactive(crawled, WALDSTEIN).data
        == regkit.plot.group_interactive(crawled, company_id=WALDSTEIN).data
    )


def test_the_axis_helpers_say_what_they_take() -> None:
    """``fiscal_years``, ``fiscal_year_label`` and ``EuroFormatter`` (no data of a plot, so not in :data:`CASES`)
    refuse what is no date, no dates or no unit with a regkit error saying what to pass."""
    for wrong in (None, 1, "2014-12-31", pd.DataFrame({"date": ["2014-12-31"]}), [2014, 2015]):
        with pytest.raises(ArgumentError, match="fiscal_years needs the dates the reports end on") as raised:
            regkit.plot.fiscal_years(wrong)
        assert "fin.indicators()" in raised.value.suggestion
    assert regkit.plot.fiscal_years(iter(["2015-06-30"])).tolist() == [2015]
    assert regkit.plot.fiscal_years([]).tolist() == []
    with pytest.raises(ValidationError, match="date is required, not None"):
        regkit.plot.fiscal_year_label(None)
    with pytest.raises(ArgumentError, match="date must be a date, not int 1"):
        regkit.plot.fiscal_year_label(1)
    assert regkit.plot.fiscal_year_label(pd.Timestamp("2015-06-30 12:00")) == "2014/15"
    with pytest.raises(ArgumentError, match="scale must be one of '€bn'.*not an int"):
        regkit.plot.EuroFormatter(1)
    with pytest.raises(ValueError, match="scale must be one of .* not 'x'") as raised:
        regkit.plot.EuroFormatter("x")
    assert isinstance(raised.value, ValidationError) and "scale='€M'" in raised.value.suggestion
    with pytest.raises(ArgumentError, match="did you mean digits="):
        regkit.plot.EuroFormatter(digist=1)
    assert regkit.plot.EuroFormatter("M€", digits=1)(1_250_000) == "€1.2M"


@pytest.mark.parametrize("wrong", [0, -3, 2.5, "12", True, None])
def test_a_year_axis_refuses_a_tick_count_that_is_no_whole_number_before_drawing(wrong: Any) -> None:
    """The year step is chosen when the figure is drawn: a wrong ``max_ticks`` is refused when it is given."""
    with pytest.raises(ArgumentError, match="max_ticks must be a whole number of at least 1") as raised:
        regkit.plot.YearStepLocator(wrong)
    assert raised.value.suggestion == "e.g. max_ticks=12"
    fig, ax = plt.subplots()
    with pytest.raises(ArgumentError, match="max_ticks must be a whole number"):
        regkit.plot.year_axis(ax, "2001-01-01", "2020-01-01", max_ticks=wrong)


def test_a_keyword_handed_on_is_checked_before_anything_is_drawn(crawled: Any) -> None:
    fig, _ = plt.subplots()
    try:
        assert regkit.plot.figure_svg(fig, dpi=50, pad_inches=0.1).startswith("<?xml")
        with pytest.raises(ArgumentError, match="figure_svg\\(\\) got an unexpected keyword argument 'dip'") as raised:
            regkit.plot.figure_svg(fig, dip=50)
        assert raised.value.suggestion.startswith("did you mean dpi=?")
    finally:
        plt.close(fig)
    assert regkit.plot.group_interactive(crawled, WALDSTEIN, background_color="#eee").sigma.background_color == "#eee"
    with pytest.raises(ArgumentError, match="got an unexpected keyword argument 'hide_serach'") as raised:
        regkit.plot.group_interactive(crawled, WALDSTEIN, hide_serach=True)
    assert "did you mean hide_search=?" in raised.value.suggestion
