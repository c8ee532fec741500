"""The changes timeline: what changed when, by category, for one company or a watchlist of hundreds."""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest
from figure_checks_support import assert_figure_ok
from matplotlib import dates as mdates

import regkit.plot
from regkit.frames import changes_table
from regkit.plot.changes import CATEGORY_COLOURS
from regkit.plot.source_line import DEFAULT_SOURCE


def _change(category: str, kind: str, date: str | None, **detail: Any) -> dict[str, Any]:
    return {
        "category": category,
        "kind": kind,
        "date": date,
        "field": "f",
        "before": None,
        "after": None,
        "detail": detail,
    }


def _dots(ax: Any, gid: str) -> list[tuple[float, float]]:
    return [tuple(p) for c in ax.collections if c.get_gid() == gid for p in c.get_offsets()]


@pytest.fixture(autouse=True)
def _close() -> Any:
    yield
    plt.close("all")


def test_one_company_has_a_row_per_change_newest_first_on_its_day_said_in_words() -> None:
    frame = changes_table(
        [
            _change("basic", "name_changed", "2026-08-03"),
            _change("representation", "representative_appointed", "2026-07-14", name="Max Hürtgen"),
            _change("financials", "report_filed", "2025-12-31", report_id="r1"),
        ]
    )
    frame.loc[0, "after"] = "Nord Holding GmbH"
    frame.loc[1, "after"] = "DIRECTOR"
    ax = regkit.plot.changes_timeline(frame)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "report filed",  # a report: no register date (its date is the fiscal year's end): new since the last answer
        "2026-08-03  new name: Nord Holding GmbH",
        "2026-07-14  Max Hürtgen appointed (DIRECTOR)",
    ]
    dated = sorted((float(x), float(y)) for x, y in _dots(ax, "change"))
    assert dated == [
        (mdates.date2num(pd.Timestamp("2026-07-14")), -2.0),
        (mdates.date2num(pd.Timestamp("2026-08-03")), -1.0),
    ]
    [(x, y)] = _dots(ax, "change-undated")
    assert y == 0.0 and x > max(d[0] for d in dated)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:3] == ["basic (1)", "representation (1)", "financials (1)"]
    assert_figure_ok(ax.figure, source=DEFAULT_SOURCE, names=["Nord Holding GmbH", "Max Hürtgen"])


def test_a_watchlist_of_three_hundred_shows_the_members_that_changed_last_first() -> None:
    rows = []
    for n in range(300):
        member = f"DE-HRB-B1234-{n}"
        if n % 5 == 0:  # 60 of 300 changed, member n on day n // 5
            change = _change("basic", "address_changed", f"2026-07-{1 + (n // 5) % 28:02d}")
            rows.append({**change, "entity_id": member})
    frame = changes_table(rows).assign(entity_id=[r["entity_id"] for r in rows])
    names = {f"DE-HRB-B1234-{n}": f"Firma {n} GmbH" for n in range(300)}
    ax = regkit.plot.changes_timeline(frame, names=names, max_rows=40)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 40 and all(label.endswith("(1)") for label in labels)
    days = {names[r["entity_id"]]: r["date"] for r in rows}
    shown = [label.rsplit(" (", 1)[0] for label in labels]
    assert [days[s] for s in shown] == sorted((days[s] for s in shown), reverse=True)  # latest on top
    assert min(days[s] for s in shown) >= sorted(days.values(), reverse=True)[39]  # the 40 latest
    assert "+ 20 more with changes (the 40 changed last are shown)" in ax.get_title()
    colours = [tuple(float(v) for v in c.get_facecolor()[0][:3]) for c in ax.collections]
    assert colours == [matplotlib.colors.to_rgb(CATEGORY_COLOURS["basic"])]


def test_no_changes_is_said_in_the_figure_without_a_warning(recwarn: Any) -> None:
    ax = regkit.plot.changes_timeline(changes_table([]))
    assert not recwarn.list
    assert [t.get_text() for t in ax.texts if t.get_gid() == "no-data"] == ["no changes"]


def test_a_refresh_is_drawn_from_its_changes() -> None:
    class Refresh:
        changes = changes_table([_change("basic", "seat_moved", "2026-09-01", city_after="Kiel")])

    ax = regkit.plot.changes_timeline(Refresh(), source=None)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["2026-09-01  seat moved to Kiel"]
