"""``regkit.plot.insolvency_trend`` and ``insolvency_timeline`` against counts and dates taken straight from
the bundled world's proceedings."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib import dates as mdates

import regkit.frames as frames
from regkit.frames.published import parse_date
from regkit.plot.insolvency import insolvency_timeline, insolvency_trend, trend_counts

CONSUMER = "7da364e3-c5b0-4073-9e81-299f0003a075"  # consumer insolvency with discharge


@pytest.fixture(scope="module")
def results(proceedings: list[dict[str, Any]]) -> pd.DataFrame:
    """The world's proceedings as a search-results frame."""
    return frames.insolvency_results(proceedings)


def _month(day: str) -> str:
    return day[:7]


def _stacks(ax: Any) -> dict[str, list[float]]:
    """Heights per group code (each bar's gid)."""
    return {c.patches[0].get_gid(): [float(p.get_height()) for p in c] for c in ax.containers}


def _period_labels(ax: Any) -> list[str]:
    first = ax.containers[0]
    return [mdates.num2date(p.get_x()).strftime("%Y-%m") for p in first]


def _group(proceeding: dict[str, Any], member: str) -> str:
    """The group a proceeding is counted in: its value, or "unknown" — a natural person's missing legal form is
    "natural person" (issue 46)."""
    value = proceeding.get(member)
    if value:
        return str(value)
    person = (
        proceeding.get("debtor_kind") == "natural_person"
        or (proceeding.get("debtor") or {}).get("kind") == "natural_person"
    )
    return "natural person" if member == "debtor_legal_form" and person else "unknown"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("by", "member"), [("status", "current_status"), ("kind", "proceeding_kind"), ("legal_form", "debtor_legal_form")]
)
def test_stacked_heights_are_the_group_counts(
    proceedings: list[dict[str, Any]], results: pd.DataFrame, by: str, member: str
) -> None:
    ax = insolvency_trend(results, "M", by=by, top=None)
    expected = Counter((_month(p["opened_at"]), _group(p, member)) for p in proceedings if p["opened_at"])
    stacks, months = _stacks(ax), _period_labels(ax)
    assert set(stacks) == {group for _, group in expected}
    for group, heights in stacks.items():
        assert heights == [expected.get((m, group), 0) for m in months], group
    totals = Counter(_month(p["opened_at"]) for p in proceedings if p["opened_at"])
    assert [sum(h[i] for h in stacks.values()) for i in range(len(months))] == [totals.get(m, 0) for m in months]
    assert months[0] == min(totals) and months[-1] == max(totals) and len(months) == len(set(months))


def test_bars_stack_on_each_other(results: pd.DataFrame) -> None:
    ax = insolvency_trend(results, "Y", by="status")
    bottoms = np.zeros(len(ax.containers[0]))
    for container in ax.containers:
        assert [p.get_y() for p in container] == pytest.approx(bottoms.tolist())
        bottoms += [p.get_height() for p in container]


def test_top_groups_and_the_rest_as_other(proceedings: list[dict[str, Any]], results: pd.DataFrame) -> None:
    ax = insolvency_trend(results, "Y", by="court", top=5)
    counts = Counter(p["court"] for p in proceedings if p["opened_at"])
    largest = sorted(counts, key=lambda c: (-counts[c], c))[:4]
    stacks = _stacks(ax)
    assert list(stacks) == [*largest, "other"]
    assert sum(map(sum, stacks.values())) == sum(counts.values())
    assert sum(stacks["other"]) == sum(counts.values()) - sum(counts[c] for c in largest)
    assert ax.get_legend().get_title().get_text() == "Court"


def test_without_by_one_bar_per_period_and_missing_dates_are_told(
    proceedings: list[dict[str, Any]], results: pd.DataFrame
) -> None:
    ax = insolvency_trend(results, "Q")
    (container,) = ax.containers
    quarters = Counter(str(pd.Period(p["opened_at"], "Q")) for p in proceedings if p["opened_at"])
    middles = [pd.Timestamp(mdates.num2date(p.get_x() + p.get_width() / 2).replace(tzinfo=None)) for p in container]
    assert [float(p.get_height()) for p in container] == [quarters.get(str(s.to_period("Q")), 0) for s in middles]
    for middle in middles:  # each bar centred in its quarter
        quarter = middle.to_period("Q")
        assert abs(middle - (quarter.start_time + (quarter.end_time - quarter.start_time) / 2)) < pd.Timedelta("1min")
    missing = sum(1 for p in proceedings if not p["opened_at"])
    assert ax.get_xlabel() == f"Opened ({missing} without a date not shown)"
    assert ax.get_ylabel() == "proceedings per quarter"


@pytest.mark.slow
def test_groups_and_periods_are_labelled_as_a_reader_says_them(results: pd.DataFrame) -> None:
    """Legal forms as the register writes them, the legend titled in words, quarters as "Q1 2024"."""
    ax = insolvency_trend(results, "Q", by="legal_form", top=None)
    legend = ax.get_legend()
    assert legend.get_title().get_text() == "Legal form"
    shown = {c.patches[0].get_gid(): c.get_label() for c in ax.containers}
    readable = {"gmbh": "GmbH", "ug": "UG (haftungsbeschränkt)", "ag": "AG", "kg": "KG", "ek": "e.K."}
    assert {code: shown[code] for code in readable if code in shown} == {c: readable[c] for c in readable if c in shown}
    assert "gmbh" in shown and [t.get_text() for t in legend.get_texts()] == list(shown.values())[::-1]
    ax.figure.canvas.draw()
    ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert ticks and all(re.fullmatch(r"Q[1-4] (19|20)\d\d", t) for t in ticks), ticks
    assert len(ticks) >= 2
    renderer = ax.figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    assert all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:]))  # side by side, none over another
    last = ax.containers[0].patches[-1]
    assert ax.get_xticks()[-1] == pytest.approx(last.get_x() + last.get_width() / 2)  # the last bar is labelled
    newest = pd.Period(results["opened_at"].max(), "Q")
    assert ax.get_xticklabels()[-1].get_text() == f"Q{newest.quarter} {newest.year}"
    plt.close(ax.figure)


def test_another_date_column_and_the_counts_table(results: pd.DataFrame) -> None:
    counts = trend_counts(results, "Y", by="debtor_kind", date="last_event_at")
    assert counts.attrs["without_date"] == int(results["last_event_at"].isna().sum())
    assert counts.to_numpy().sum() == int(results["last_event_at"].notna().sum())
    assert list(counts.dtypes.unique()) == [np.dtype("int64")]
    with pytest.raises(ValueError, match="by must be one of"):
        trend_counts(results, by="colour")
    with pytest.raises(ValueError, match="needs the column 'filed_at' \\(the date column"):
        trend_counts(results, date="filed_at")


def test_trend_takes_search_pages_and_the_given_axes(proceedings: list[dict[str, Any]]) -> None:
    page = {
        "results": proceedings[:40],
        "pagination": {"page": 1, "per_page": 40, "total_pages": 1, "total_results": 40},
    }
    fig, ax = plt.subplots()
    assert insolvency_trend(page, "Y", ax=ax) is ax
    assert sum(float(p.get_height()) for p in ax.containers[0]) == sum(1 for p in proceedings[:40] if p["opened_at"])


def test_an_empty_frame_draws_no_bars(results: pd.DataFrame) -> None:
    ax = insolvency_trend(results.iloc[:0], "M", by="court")
    assert [len(c) for c in ax.containers] == []


def test_the_timeline_marks_each_event_at_its_dates(world: Any) -> None:
    proceeding = world.insolvencies[CONSUMER]
    ax = insolvency_timeline(proceeding)
    ordered = sorted(proceeding["events"], key=lambda e: e["published_at"])
    (published,) = [line for line in ax.get_lines() if line.get_gid() == "published"]
    assert list(published.get_xdata()) == [mdates.date2num(np.datetime64(e["published_at"])) for e in ordered]
    assert list(published.get_ydata()) == [-float(i) for i in range(len(ordered))]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    said = {
        "in_proceeding_decision": "decision in the proceedings",
        "post_termination_decision": "decision after termination",
        "rejected_insufficient_assets": "rejected (insufficient assets)",
        "mass_insufficiency_notified": "insufficient assets notified",
        "plan_confirmed": "insolvency plan confirmed",
        "plan_supervision_terminated": "plan supervision ended",
    }  # where the label is not the code's words
    assert labels == [
        f"{e['published_at']}  {said.get(e['event_type'], e['event_type'].replace('_', ' '))}" for e in ordered
    ]
    decided = [e for e in ordered if e["decision_date"]]
    (line,) = [line for line in ax.get_lines() if line.get_gid() == "decision"]
    assert list(line.get_xdata()) == [mdates.date2num(np.datetime64(e["decision_date"])) for e in decided]
    assert ax.get_title() == (
        f"{proceeding['debtor_name']} — {proceeding['case_number']}, {proceeding['court']} "
        f"({proceeding['current_status'].replace('_', ' ')})"
    )


def test_the_timeline_takes_an_events_frame_and_the_given_axes(world: Any) -> None:
    proceeding = world.insolvencies[CONSUMER]
    fig, ax = plt.subplots()
    assert insolvency_timeline(frames.events(proceeding), ax, title="events") is ax
    assert ax.get_title() == "events" and len(ax.get_yticklabels()) == len(proceeding["events"])


def test_meetings_and_claims_deadlines_are_marked(proceedings: list[dict[str, Any]]) -> None:
    proceeding = next(
        p
        for p in proceedings
        if any(e["details"]["meetings"] for e in p["events"])
        and any(e["details"]["claims_filing_deadline"] for e in p["events"])
    )
    ax = insolvency_timeline(proceeding)
    gids = {line.get_gid() for line in ax.get_lines()}
    assert {"meetings", "claims_deadline"} <= gids
    (deadlines,) = [line for line in ax.get_lines() if line.get_gid() == "claims_deadline"]
    # The details are published text (ISO or German dates): what the frames parse is what is drawn.
    published = [parse_date(e["details"]["claims_filing_deadline"]) for e in proceeding["events"]]
    expected = sorted(mdates.date2num(np.datetime64(day)) for day in published if day is not None)
    assert sorted(deadlines.get_xdata()) == expected


_ROWS = st.lists(
    st.tuples(
        st.one_of(st.none(), st.dates(dt.date(2015, 1, 1), dt.date(2026, 12, 31))),
        st.one_of(st.none(), st.sampled_from(["AG Hof", "AG Kiel", "AG Kassel", "AG Ulm"])),
    ),
    max_size=40,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(rows=_ROWS, top=st.one_of(st.none(), st.integers(min_value=1, max_value=5)))
def test_counts_add_up_per_period_and_group(rows: list[tuple[Any, Any]], top: int | None) -> None:
    frame = pd.DataFrame(
        {
            "opened_at": pd.to_datetime([d for d, _ in rows]).astype("datetime64[us]"),
            "court": pd.array([c for _, c in rows], dtype="str"),
        }
    )
    counts = trend_counts(frame, "Q", by="court", top=top)
    dated = [(str(pd.Period(d, "Q")), c or "unknown") for d, c in rows if d is not None]
    assert counts.attrs["without_date"] == len(rows) - len(dated)
    assert int(counts.to_numpy().sum()) == len(dated)
    per_period = Counter(p for p, _ in dated)
    assert {str(p): int(n) for p, n in counts.sum(axis=1).items() if n} == dict(per_period)
    groups = Counter(c for _, c in dated)
    if top is None or len(groups) <= top:
        assert {g: int(n) for g, n in counts.sum().items()} == dict(groups)
    else:
        assert counts.shape[1] == top and counts.columns[-1] == "other"


def test_a_one_event_proceeding_gets_an_axis_of_days_not_hours(world: Any) -> None:
    single = next(p for p in world.insolvencies.values() if len(p["events"]) == 1)
    ax = insolvency_timeline(single)
    low, high = ax.get_xlim()
    assert high - low >= 59.9  # days, whatever the one event's date
    assert ax.get_xlabel() == "date"
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and not any(":" in label for label in labels), labels  # no "12:00" hour ticks
    plt.close(ax.figure)


def test_the_breakdown_counts_every_proceeding_once_by_legal_form_and_status(
    results: pd.DataFrame, proceedings: list[dict[str, Any]]
) -> None:
    from regkit.plot.breakdown import breakdown_counts, insolvency_breakdown

    pairs = Counter((_group(p, "debtor_legal_form"), p["current_status"]) for p in proceedings)
    table = breakdown_counts(results, "legal_form", "status", top=None)
    assert {(form, status): int(n) for form, row in table.iterrows() for status, n in row.items() if n} == dict(pairs)
    forms = Counter(_group(p, "debtor_legal_form") for p in proceedings)
    assert list(table.index) == sorted(forms, key=lambda f: (-forms[f], f))
    ax = insolvency_breakdown(results, "legal_form", "status", top=None)
    widths = {c.patches[0].get_gid(): [p.get_width() for p in c] for c in ax.containers}
    assert {(form, status): w[i] for status, w in widths.items() for i, form in enumerate(table.index) if w[i]} == {
        k: float(v) for k, v in pairs.items()
    }
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "GmbH" in labels and "gmbh" not in labels
    assert ax.get_legend().get_title().get_text() == "Status"
    assert "in Liquidation" not in labels


def test_a_share_breakdown_compares_groups_of_any_size_and_stays_in_the_figure(
    results: pd.DataFrame, proceedings: list[dict[str, Any]]
) -> None:
    from matplotlib.text import Text

    from regkit.plot.breakdown import insolvency_breakdown

    frame = results.assign(court_is_kiel=(results["court"] == "Amtsgericht Kiel").map({True: "Kiel", False: "rest"}))
    ax = insolvency_breakdown(frame, "court_is_kiel", "legal_form", share=True, top=5)
    bars = {c.patches[0].get_gid(): [p.get_width() for p in c] for c in ax.containers}
    for i in range(len(ax.get_yticklabels())):
        assert sum(w[i] for w in bars.values()) == pytest.approx(1.0)
    kiel = [p for p in proceedings if p["court"] == "Amtsgericht Kiel"]
    gmbh = sum(1 for p in kiel if p.get("debtor_legal_form") == "gmbh") / len(kiel)
    row = [t.get_text() for t in ax.get_yticklabels()].index("Kiel")
    assert bars["gmbh"][row] == pytest.approx(gmbh)
    ax.figure.canvas.draw()
    assert f"n = {len(kiel)}" in [t.get_text() for t in ax.texts]
    ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert ticks and all(t.endswith("%") for t in ticks)
    for text in ax.figure.findobj(Text):
        if text.get_visible() and text.get_text():
            box, fig = text.get_window_extent(), ax.figure.bbox
            assert box.x0 >= fig.x0 - 1 and box.x1 <= fig.x1 + 1 and box.y0 >= fig.y0 - 1 and box.y1 <= fig.y1 + 1
    with pytest.raises(ValueError, match="neither one of"):
        insolvency_breakdown(frame, "industry")


def test_natural_persons_are_not_an_unknown_legal_form_and_the_title_says_the_population(world: Any) -> None:
    """Issue 46: every proceeding against a natural person was counted under legal form "unknown"; the breakdown
    had no title saying what is counted."""
    from regkit.plot.breakdown import breakdown_counts, insolvency_breakdown

    results = frames.insolvency_results(list(world.insolvencies.values()))
    people = int((results["debtor_kind"] == "natural_person").sum())
    form = results["debtor_legal_form"].astype(object)
    unknown = int(((form.isna() & (results["debtor_kind"] != "natural_person")) | (form == "unknown")).sum())
    assert people > 0
    table = breakdown_counts(results, "legal_form", top=None)
    assert int(table.loc["natural person"].sum()) == people
    assert (int(table.loc["unknown"].sum()) if "unknown" in table.index else 0) == unknown
    ax = insolvency_breakdown(results, "legal_form", "status")
    assert ax.get_title() == f"Insolvency proceedings by legal form and status, {len(results):,} in all"
    legend = ax.get_legend()
    paler = [h for h, t in zip(legend.legend_handles, legend.get_texts()) if t.get_text().startswith("paler")]
    assert all(not isinstance(h, tuple) for h in paler)  # drawn by the tuple handler: a solid and a pale grey


def test_the_timelines_first_tick_names_its_year(world: Any) -> None:
    """Issue 46: concise date labels name a year only at a January, so an axis starting in July never said which
    year it began in."""
    proceeding = world.insolvencies["7da364e3-c5b0-4073-9e81-299f0003a075"]
    ax = insolvency_timeline(proceeding)
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    first_day = min(pd.Timestamp(e["published_at"]) for e in proceeding["events"])
    assert re.search(r"\b(19|20)\d\d\b", labels[0]), labels
    assert int(re.search(r"\d{4}", labels[0]).group(0)) in (first_day.year - 1, first_day.year), labels
    import pickle

    pickle.loads(pickle.dumps(ax.figure))  # the formatter is a module's class: the figure pickles
