"""The cap table over time (``regkit.plot.cap_table``) of world companies, through ``regkit.Client`` on the local
register: the bands are the lists' shares (read from the world's shareholdings rows), stacked to 100 %, step-wise
between list dates, every owner in the legend; the records' frames are the frames' builders'.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib import dates as mdates
from PIL import Image

import regkit.plot
from regkit.frames import ownership_history, ubos

# a GmbH whose third shareholder changed twice (1995, 2003, 2011, 2014 lists) and one with a planted UBO difference
CHANGING = "DE-HRB-U1308-101888"
PLANTED = "DE-HRB-B1204-91106"
SEP = "DE-HRB-X1112-75364FL"  # SEP Leasing GmbH: three owners, one of whom handed on their 35.71 % in 2021


def _expected(world: Any, company_id: str) -> dict[str, dict[str, float]]:
    """List date → {holder name: percent}, from the world's shareholdings rows in force on each list's date."""
    company = world.companies[company_id]
    rows = [r for r in world.shareholdings if r["company_id"] == company_id and r["share"] > 0]
    out = {}
    for document in company["documents"]:
        if document["type"] == "shareholder_list":
            day = document["date"]
            out[day] = {
                r["holder_name"]: round(r["share"] * 100, 4)
                for r in rows
                if r["start"] <= day and (r["end"] is None or day < r["end"])
            }
    return out


def test_the_bands_are_the_lists_shares_stacked_to_100(client: Any, world: Any) -> None:
    record = client.get_ownership_history(CHANGING)
    history = record.to_dataframe()
    assert history.equals(ownership_history(record.raw, CHANGING))
    assert history.equals(ownership_history(record))  # the record knows its company
    ax = regkit.plot.cap_table(history, until="2026-06-30")
    expected = _expected(world, CHANGING)
    dates = sorted(expected)
    assert len(dates) >= 4 and len({frozenset(v) for v in expected.values()}) >= 3  # owners changed
    # owners in the order they first appear, the larger share first; an heir (one leaves a list, one arrives
    # with the same share) right after whom they replaced (issue 46)
    owners = list(
        dict.fromkeys(name for day in dates for name in sorted(expected[day], key=lambda n: (-expected[day][n], n)))
    )
    for before, after in zip(dates, dates[1:]):
        for owner, share in expected[before].items():
            heirs = [h for h, held in expected[after].items() if h not in expected[before] and held == share]
            if owner not in expected[after] and heirs:
                owners.remove(heirs[0])
                owners.insert(owners.index(owner) + 1, heirs[0])
    bands = ax.collections[: len(owners)]
    assert len(bands) == len(owners) and ax.get_ylim() == (0.0, 100.0)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [text.split(" (")[0] for text in legend] == owners
    for day in dates:  # each band's height just after a list's date is the owner's share on that list
        top = 0.0
        for band, owner in zip(bands, owners):
            lower, upper = _band_at(band, day)
            assert upper - lower == pytest.approx(expected[day].get(owner, 0.0), abs=1e-6), (owner, day)
            assert lower == pytest.approx(top, abs=1e-6)  # stacked on the one below
            top = upper
        assert top == pytest.approx(100, abs=0.01)
    png = io.BytesIO()
    ax.figure.savefig(png, format="png", dpi=80)
    assert Image.open(io.BytesIO(png.getvalue())).size[0] > 500
    plt.close(ax.figure)


def _band_at(band: Any, day: str) -> tuple[float, float]:
    """The band's lower and upper edge just after ``day`` (step-wise: constant until the next list)."""
    x = mdates.date2num(np.datetime64(day)) + 0.5
    ys = []
    for path in band.get_paths():
        vertices = path.vertices
        for (x0, y0), (x1, _) in zip(vertices[:-1], vertices[1:]):
            if min(x0, x1) <= x <= max(x0, x1) and x0 != x1:
                ys.append(y0)
    return min(ys), max(ys)


def test_steps_table_has_one_row_per_list_and_sums_to_100(client: Any, world: Any) -> None:
    steps = regkit.plot.cap_table_steps(client.get_ownership_history(CHANGING))
    expected = _expected(world, CHANGING)
    assert [d.date().isoformat() for d in steps.index] == sorted(expected)
    assert np.allclose(steps.sum(axis=1), 100.0)
    # a frame with the fraction alone (``share``, no ``percentage``) gives the same table, in percent
    shares = regkit.plot.cap_table_steps(
        client.get_ownership_history(CHANGING).to_dataframe().drop(columns="percentage")
    )
    assert np.allclose(shares.to_numpy(), steps.to_numpy(), rtol=0, atol=1e-9) and list(shares) == list(steps)


def test_the_legend_says_each_owners_last_share_in_percent(client: Any) -> None:
    record = client.get_ownership_history(SEP)
    latest = max(e["document_date"] for o in record.raw["owners"] for e in o["ownership_history"])
    held = {  # the owners of the latest list and their percentage as the answer gives it
        o["name"]: e["percentage_shares"]
        for o in record.raw["owners"]
        for e in o["ownership_history"]
        if e["document_date"] == latest
    }
    ax = regkit.plot.cap_table(record.to_dataframe(), until="2026-06-30")
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert {f"{name} ({percent:g} %)" for name, percent in held.items()} <= legend
    assert "Marcus Kögel (35.71 %)" in legend  # 35.71 %, not 0.3571 %
    plt.close(ax.figure)


def test_ubos_record_frame_and_an_empty_history_is_refused(client: Any) -> None:
    record = client.get_ubos(PLANTED)
    frame = record.to_dataframe()
    assert frame.equals(ubos(record.raw)) and (frame["percentage"] > 25).all() and not frame["is_fictitious"].any()
    assert (frame["share"] > 0.25).all() and (frame["share"] <= 1).all()  # the same shares as fractions
    with pytest.raises(ValueError, match="no shareholder list"):
        regkit.plot.cap_table({"owners": []})


def test_a_stake_handed_over_keeps_its_place_in_the_stack(client: Any) -> None:
    """Issue 46: the stack order was fixed per owner, so a stake sold one-to-one read as a reshuffle. Westkraft's
    lists (read here from the history frame) hand two stakes over; each heir stacks right after whom they
    replaced, so the band goes on at the same height and only its colour changes."""
    history = client.get_ownership_history(CHANGING).to_dataframe()
    key = history["owner_id"].fillna(history["owner_name"])
    lists = {
        day: dict(zip(key[rows.index], rows["percentage"].round(6)))
        for day, rows in history.groupby("document_date", sort=True)
    }
    days = list(lists)
    handovers = [
        (owner, heir)
        for before, after in zip(days, days[1:])
        for owner, share in lists[before].items()
        if owner not in lists[after]
        for heir, held in lists[after].items()
        if heir not in lists[before] and held == share
    ]
    assert len(handovers) == 2  # Andersson → Berg (2003), Peters → Arenz (2014)
    order = list(regkit.plot.cap_table_steps(client.get_ownership_history(CHANGING)).columns)
    for owner, heir in handovers:
        assert order.index(heir) == order.index(owner) + 1, (owner, heir, order)
    ax = regkit.plot.cap_table(history)
    bottoms = {}
    for collection in ax.collections:
        if collection.get_label() and not collection.get_label().startswith("_"):
            bottoms[collection.get_label()] = collection
    assert len(bottoms) == len(order)


@pytest.mark.parametrize(("company_id", "until"), [(SEP, "2026-06-30"), (SEP, None), (CHANGING, "2026-06-30")])
def test_a_name_in_a_band_is_whole_or_absent_and_inside_its_band(client: Any, company_id: str, until: Any) -> None:
    """Issue 46: the newest list's band cut the current owners' names ("Marcus Kög"). A name is now written whole
    (wrapped at its spaces in a narrow band) or not at all, the share always below it, inside the band."""
    frame = client.get_ownership_history(company_id).to_dataframe()
    names = set(frame["owner_name"])
    ax = regkit.plot.cap_table(frame, until=until)
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text() and t.get_gid() not in ("list_date", "list_dates")]
    assert texts
    edges = sorted({float(x) for line in ax.get_lines() for x in line.get_xdata()} | set(ax.get_xlim()))
    to_px = ax.transData.transform
    for text in texts:
        *name, share = text.get_text().split("\n")
        assert share.endswith(" %") and (not name or " ".join(name) in names), text.get_text()
        x = text.get_position()[0]
        left = max(e for e in edges if e < x)
        right = min(e for e in edges if e > x)
        box = text.get_window_extent(renderer)
        assert to_px((left, 0))[0] <= box.x0 and box.x1 <= to_px((right, 0))[0], text.get_text()
    if company_id == SEP:  # the owner whose name was cut: in the newest band, whole
        written = {" ".join(t.get_text().split("\n")[:-1]) for t in texts}
        assert "Marcus Kögel" in written
