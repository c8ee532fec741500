"""``regkit.plot.timeline`` (module ``regkit.plot.history``): every bar spans exactly what the histories, roles,
status rule and proceedings say."""

from __future__ import annotations

import re
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib import dates as mdates
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

import regkit.frames as frames
from regkit.frames.status import status_on
from regkit.plot.history import LANES, record_horizon, timeline, timeline_bars
from regkit.plot.style import figure_svg

MOVED = "DE-HRB-R2307-168089"  # two registers, two addresses
DEM = "DE-HRB-R1102-109244"  # capital converted from DEM
UG = "DE-HRB-R3101-94644"  # UG → GmbH
LIQUIDATION = "DE-HRA-T2408-42049"  # liquidator appointed
ABSORBED = "DE-HRB-B8534-111252"  # merged, inactive
DISTRESSED = "DE-HRB-P2408-81776"  # open insolvency
TOP = "DE-HRB-R2103-65834"  # an Organträger: many representatives over the years


def _num(day: Any) -> float:
    return float(mdates.date2num(np.datetime64(pd.Timestamp(day).date())))


def _flat(pairs: Any) -> list[float]:
    return [float(v) for pair in pairs for v in pair]


def _bars(ax: Any, lane: str) -> list[tuple[float, float, float]]:
    (container,) = [c for c in ax.containers if c.get_label() == lane]
    return [(p.get_x(), p.get_x() + p.get_width(), p.get_y() + p.get_height() / 2) for p in container]


@pytest.mark.parametrize("company_id", [MOVED, DEM, UG, TOP])
@pytest.mark.parametrize("field", ["names", "addresses", "capitals", "registers"])
def test_history_bars_span_valid_from_to_valid_to(company: Any, company_id: str, field: str) -> None:
    record = company(company_id)
    ax = timeline(record)
    until = record_horizon(record)
    entries = sorted(record[field], key=lambda e: e.get("start_date") or "")
    starts = [e.get("start_date") or record["incorporated_at"] for e in entries]
    ends = [e.get("start_date") for e in entries[1:]] + [str(until.date())]
    expected = [(_num(s), _num(e)) for s, e in zip(starts, ends)]
    assert _flat((x0, x1) for x0, x1, _ in _bars(ax, field)) == pytest.approx(_flat(expected))


def test_history_bars_equal_the_history_frames(company: Any) -> None:
    record = company(MOVED)
    bars = timeline_bars(record, until="2030-01-01")
    for field in ("addresses", "registers"):
        history = frames.history(record, field)
        mine = bars[bars["lane"] == field]
        assert mine["start"].tolist() == history["valid_from"].tolist()
        assert mine["end"].tolist() == history["valid_to"].fillna(pd.Timestamp("2030-01-01")).tolist()
        assert mine["open"].tolist() == history["valid_to"].isna().tolist()
        assert len(mine) == 2


def test_role_bars_span_start_to_end_date(company: Any) -> None:
    record = company(UG)
    ax = timeline(record, until="2027-01-01")
    roles = sorted((r["start_date"], r["end_date"] or "2027-01-01") for r in record["representation"])
    drawn = sorted((x0, x1) for x0, x1, _ in _bars(ax, "representatives"))
    assert _flat(drawn) == pytest.approx(_flat(sorted((_num(s), _num(e)) for s, e in roles)))
    labels = {t.get_text() for t in ax.get_yticklabels()}
    words = {
        "DIRECTOR": "director",
        "SHAREHOLDER": "shareholder",
        "PROKURA": "authorised signatory",
    }  # the legend glosses
    assert {f"{r['name']} · {words[r['role']]}" for r in record["representation"]} <= labels


def test_status_bars_follow_the_status_rule(company: Any) -> None:
    record = company(LIQUIDATION)
    bars = timeline_bars(record, lanes=["status"])
    assert bars["text"].tolist() == ["active", "liquidation"]
    liquidator = next(r["start_date"] for r in record["representation"] if r["role"] == "LIQUIDATOR")
    assert bars["start"].tolist() == [pd.Timestamp(record["incorporated_at"]), pd.Timestamp(liquidator)]
    for row in bars.itertuples():
        middle = row.start + (row.end - row.start) / 2
        assert status_on(record, middle.strftime("%Y-%m-%d"))[1] == row.text


def test_a_merged_company_ends_on_its_termination(company: Any) -> None:
    record = company(ABSORBED)
    bars = timeline_bars(record)
    assert bars.attrs["until"] == pd.Timestamp(record["terminated_at"])
    assert bars[bars["lane"] == "status"]["text"].tolist() == ["active", "inactive"]
    assert (bars["end"] <= bars.attrs["until"]).all()
    ax = timeline(record)
    gids = {line.get_gid() for line in ax.get_lines()}
    assert {"incorporated", "terminated"} <= gids


def test_insolvency_bars_run_from_opening(company: Any) -> None:
    record = company(DISTRESSED)
    ax = timeline(record, until="2026-06-30")
    expected = [(_num(s["opened_at"]), _num(s["closed_at"] or "2026-06-30")) for s in record["insolvencies"]]
    assert _flat((x0, x1) for x0, x1, _ in _bars(ax, "insolvencies")) == pytest.approx(_flat(expected))
    assert [s["case_number"] for s in record["insolvencies"]] == [t.get_text() for t in ax.get_yticklabels()][
        -len(expected) :
    ]


def test_lanes_are_in_order_and_rows_are_labelled(company: Any) -> None:
    ax = timeline(company(DISTRESSED))
    assert [c.get_label() for c in ax.containers] == list(LANES)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[:4] == ["name", "address", "capital", "register"]
    with pytest.raises(ValueError, match="lanes must be among"):
        timeline_bars(company(DISTRESSED), lanes=["colour"])


def test_max_people_hides_the_earliest_and_says_so(company: Any) -> None:
    record = company(TOP)
    people = len({r["id"] for r in record["representation"]})
    ax = timeline(record, max_people=3)
    assert ax.get_xlabel() == f"{people - 3} earlier representatives not shown"
    rows = timeline_bars(record, max_people=3)
    assert rows[rows["lane"] == "representatives"]["row"].str.split(" · ").str[0].nunique() == 3


def test_the_default_end_is_the_record_horizon_and_deterministic(company: Any) -> None:
    record = company(UG)
    newest = max(d for d in (r["start_date"] for r in record["representation"]) if d)
    assert record_horizon(record) >= pd.Timestamp(newest)
    first = figure_svg(timeline(record).figure)
    second = figure_svg(timeline(company(UG)).figure)
    assert first == second
    today = timeline_bars(record, until="today").attrs["until"]
    assert today == pd.Timestamp.today().normalize()


def test_the_given_axes_is_used_and_a_company_is_required(company: Any) -> None:
    fig, ax = plt.subplots()
    assert timeline(company(DEM), ax, title="DEM") is ax
    assert ax.get_title() == "DEM" and len(plt.get_fignums()) == 1
    with pytest.raises(TypeError, match="one company"):
        timeline([company(DEM)])


def test_a_proceeding_without_dates_is_counted_not_dropped_silently(company: Any) -> None:
    record = company(DISTRESSED)
    preliminary = {
        **record["insolvencies"][0],
        "id": "p-2",
        "case_number": "50 IN 9/26",
        "current_status": "preliminary",
        "opened_at": None,
        "closed_at": None,
    }
    record["insolvencies"].append(preliminary)
    bars = timeline_bars(record)
    assert bars.attrs["undated_insolvencies"] == 1 and "50 IN 9/26" not in set(bars["row"])
    assert timeline(record).get_xlabel() == "1 proceeding without a date not shown"


def _drawn(ax: Any) -> Any:
    ax.figure.canvas.draw()
    return ax.figure.canvas.get_renderer()


def _inside(inner: Any, outer: Any, slack: float = 1.0) -> bool:
    return (
        inner.x0 >= outer.x0 - slack
        and inner.y0 >= outer.y0 - slack
        and inner.x1 <= outer.x1 + slack
        and inner.y1 <= outer.y1 + slack
    )


@pytest.mark.parametrize(
    ("company_id", "expected"),
    [
        (
            UG,
            {
                "name",
                "address",
                "capital",
                "register",
                "director (Geschäftsführer / Vorstand)",
                "shareholder",
                "active",
            },
        ),
        (LIQUIDATION, {"name", "address", "register", "owner", "liquidator", "active", "in liquidation"}),
        (
            DISTRESSED,
            {
                "name",
                "address",
                "capital",
                "register",
                "director (Geschäftsführer / Vorstand)",
                "shareholder",
                "authorised signatory (Prokura)",
                "active",
                "in liquidation",
                "insolvency proceeding",
            },
        ),
    ],  # opening the proceeding dissolves the GmbH
)
def test_the_legend_names_every_colour_and_sits_inside_the_figure(
    company: Any, company_id: str, expected: set[str]
) -> None:
    ax = timeline(company(company_id))
    renderer = _drawn(ax)
    legend = ax.get_legend()
    assert {t.get_text() for t in legend.get_texts()} == expected
    assert _inside(legend.get_window_extent(renderer), ax.figure.bbox)
    colours = [tuple(h.get_facecolor()) for h in legend.legend_handles]
    assert len(set(colours)) == len(colours)


def test_no_two_lanes_share_a_colour(company: Any) -> None:
    ax = timeline(company(DISTRESSED))
    per_lane = {c.get_label(): {tuple(p.get_facecolor()) for p in c} for c in ax.containers}
    for lane, colours in per_lane.items():
        others = set().union(*(v for k, v in per_lane.items() if k != lane))
        assert not colours & others, lane
    roles = [c for c in ax.containers if c.get_label() == "representatives"][0]
    assert len({tuple(p.get_facecolor()) for p in roles}) == 3  # director, shareholder, Prokura


@pytest.mark.parametrize("company_id", [MOVED, UG, TOP, ABSORBED, LIQUIDATION])
@pytest.mark.parametrize("figsize", [None, (10.0, 3.0)])
def test_every_text_lies_inside_the_figure_and_every_bar_label_inside_its_bar(
    company: Any, company_id: str, figsize: Any
) -> None:
    record = company(company_id)
    record["names"][-1]["name"] = record["name"]["name"] = "Überlange Bezeichnung " * 6 + "GmbH"
    if figsize is None:
        ax = timeline(record)
    else:  # as the company explorer draws it: a figure of its own, not pyplot's
        figure = Figure(figsize=figsize, layout="constrained")
        FigureCanvasAgg(figure)
        ax = timeline(record, figure.add_subplot())
    renderer = _drawn(ax)
    texts = [t for t in ax.figure.findobj(Text) if t.get_visible() and t.get_text()]
    outside = [t.get_text() for t in texts if not _inside(t.get_window_extent(renderer), ax.figure.bbox)]
    assert not outside
    written = [t for t in texts if t.get_gid() == "bar_text"]
    assert written
    frame = ax.get_window_extent(renderer)
    for text in written:  # on its bar (shortened if need be), or whole beside it within the axes
        x0, x1 = (ax.transData.transform((x, 0))[0] for x in (text.x0, text.x1))
        box = text.get_window_extent(renderer)
        if text.placed == "inside":
            assert x0 - 0.5 <= box.x0 and box.x1 <= x1 + 0.5, text.get_text()
        elif text.placed == "across":  # black on a pale bar, running on past its end over an empty line
            assert text.get_color() == "black" and x0 - 0.5 <= box.x0 <= box.x1 <= frame.x1 + 1, text.get_text()
            following = [o for o in written if o is not text and o.get_position()[1] == text.get_position()[1]]
            assert all(box.x1 <= ax.transData.transform((o.x0, 0))[0] + 0.5 for o in following if o.x0 >= text.x1)
        else:
            assert text.get_text() == text.full_text and _inside(box, frame), text.get_text()
            assert box.x0 >= x1 - 0.5 if text.placed == "right" else box.x1 <= x0 + 0.5


@pytest.mark.parametrize("company_id", [TOP, UG, ABSORBED])
def test_the_axis_reads_in_years(company: Any, company_id: str) -> None:
    ax = timeline(company(company_id))
    _drawn(ax)
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert len(labels) >= 3 and all(re.fullmatch(r"(19|20)\d\d", label) for label in labels), labels
    years = [int(label) for label in labels]
    assert years == sorted(years) and len(set(np.diff(years))) == 1


def test_a_company_a_few_weeks_old_still_gets_an_axis_of_years() -> None:
    young = {
        "id": "DE-HRB-B1204-1",
        "incorporated_at": "2025-03-03",
        "terminated_at": None,
        "name": {"name": "Neu GmbH", "legal_form": "gmbh", "start_date": "2025-03-03"},
        "names": [{"name": "Neu GmbH", "legal_form": "gmbh", "start_date": "2025-03-03"}],
        "representation": [],
        "insolvencies": [],
        "indicators": [{"date": "2025-03-20"}],
    }
    ax = timeline(young, lanes=["names", "status"])
    _drawn(ax)
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"20\d\d", label) for label in labels), labels
    assert "2025" in labels


def test_the_person_chart_and_the_timeline_colour_each_role_alike() -> None:
    from regkit.plot.history import COLOURS
    from regkit.schema import REPRESENTATION_ROLES
    from regkit.widgets.person_chart import HOLDING, KEY_COLOURS

    assert {role: KEY_COLOURS[role] for role in REPRESENTATION_ROLES} == {
        role: COLOURS[role] for role in REPRESENTATION_ROLES
    }
    assert set(KEY_COLOURS) == {*REPRESENTATION_ROLES, HOLDING}
    assert KEY_COLOURS[HOLDING] not in {KEY_COLOURS[role] for role in REPRESENTATION_ROLES}


def test_role_and_proceeding_texts_use_the_schema_labels(company: Any) -> None:
    from regkit.schema.labels import display_label, plain_label

    record = company(DISTRESSED)
    bars = timeline_bars(record)
    people = bars[bars["lane"] == "representatives"]
    assert people["row"].tolist() == [  # the role without its German gloss: the legend has it
        f"{row.split(' · ')[0]} · {plain_label('role', key)}" for row, key in zip(people["row"], people["key"])
    ]
    proceedings = bars[bars["lane"] == "insolvencies"]
    by_case = {str(p["case_number"]): p["current_status"] for p in record["insolvencies"]}
    assert proceedings["text"].tolist() == [display_label("current_status", by_case[c]) for c in proceedings["row"]]
    record["insolvencies"][0]["current_status"] = "rejected_no_assets"
    texts = timeline_bars(record, lanes=["insolvencies"])["text"].tolist()
    assert "rejected (no assets)" in texts


def test_long_row_labels_are_cut_at_a_word(company: Any) -> None:
    record = company(UG)
    record["representation"][0]["name"] = "Gesundheitszentrum am Stadtpark Verwaltungs- und Beteiligungsgesellschaft"
    labels = [t.get_text() for t in timeline(record).get_yticklabels()]
    assert "Gesundheitszentrum am Stadtpark…" in labels


def test_capital_reads_as_on_the_cards(company: Any) -> None:
    """One way of writing money in every view: "€25,000" as the cards and tables, another currency by its code
    before the number ("DEM 50,000"), as English writes both."""
    record = company(DEM)
    texts = timeline_bars(record, lanes=["capitals"])["text"].tolist()
    expected = [
        f"€{c['amount']:,.0f}" if c["currency"] == "EUR" else f"{c['currency']} {c['amount']:,.0f}"
        for c in sorted(record["capitals"], key=lambda c: c["start_date"] or "")
    ]
    assert texts == expected and any(t.startswith("€") for t in texts) and any(t.startswith("DEM ") for t in texts)


def test_a_record_of_one_date_draws_its_bars_to_the_end_of_that_year() -> None:
    """Issue 46: the timeline ended at the record's newest date, so a real imported company whose record has one
    date drew bars of no width, and a director appointed on the newest date was a sliver."""
    record = {
        "id": "DE-HRB-B1204-1",
        "incorporated_at": "2019-05-02",
        "terminated_at": None,
        "name": {"name": "Eins GmbH", "legal_form": "gmbh", "start_date": None},
        "names": [{"name": "Eins GmbH", "legal_form": "gmbh", "start_date": None}],
        "representation": [
            {
                "id": "p-1",
                "name": "Anna Beck",
                "type": "natural_person",
                "role": "DIRECTOR",
                "start_date": "2019-05-02",
                "end_date": None,
                "authority": None,
                "legal_person": None,
            }
        ],
        "insolvencies": [],
    }
    bars = timeline_bars(record, lanes=["names", "representatives"])
    assert bars.attrs["until"] == pd.Timestamp("2019-12-31")
    assert ((bars["end"] - bars["start"]).dt.days >= 240).all(), bars[["lane", "start", "end"]]


@pytest.mark.parametrize(("company_id", "lane"), [(MOVED, "registers"), (MOVED, "addresses"), (UG, "names")])
def test_every_version_is_written_whole_on_a_line_of_its_own(company: Any, company_id: str, lane: str) -> None:
    """Issue 46: a version in force for a short time was cut to its bar ("Gerber Dienstleistu…" hid the UG,
    "HRB 168089, A…" the court it moved to). Each version now has a line of its own, so its text fits beside."""
    record = company(company_id)
    ax = timeline(record)
    _drawn(ax)
    expected = timeline_bars(record, lanes=[lane])["text"].tolist()
    assert len(expected) >= 2
    written = [t for t in ax.texts if t.get_gid() == "bar_text" and t.full_text in expected]
    assert sorted(t.get_text() for t in written) == sorted(expected)
    assert len({t.get_position()[1] for t in written}) == len(expected)  # a line each


def test_names_begun_on_the_same_day_are_both_readable(company: Any) -> None:
    record = company(UG)
    day = record["names"][-1]["start_date"]
    record["names"].append({**record["names"][-1], "name": "Gerber Dienstleistungen Holding GmbH", "start_date": day})
    ax = timeline(record, lanes=["names", "status"])
    renderer = _drawn(ax)
    names = [t for t in ax.texts if t.get_gid() == "bar_text" and "Gerber" in t.full_text]
    assert len(names) == 3 and all(t.get_text() == t.full_text for t in names)
    boxes = [t.get_window_extent(renderer) for t in names]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


@pytest.mark.parametrize("width", [5.0, 6.0, 9.5])
def test_year_labels_never_run_into_each_other(company: Any, width: float) -> None:
    """A narrow cell printed "20162017201820…": the year step now follows the axis' drawn length."""
    figure = Figure(figsize=(width, 4.0), layout="constrained")
    FigureCanvasAgg(figure)
    ax = timeline(company(MOVED), figure.add_subplot())
    renderer = _drawn(ax)
    boxes = sorted(
        (t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_visible() and t.get_text()),
        key=lambda box: box.x0,
    )
    assert len(boxes) >= 2
    gaps = [b.x0 - a.x1 for a, b in zip(boxes, boxes[1:])]
    assert min(gaps) >= 0.5 * boxes[0].width, gaps
