"""The source line of every figure (``regkit.plot.source_line``): where it comes from, ``source=`` setting or
removing it, once per figure with ``ax=``, and the attribution of an imported OffeneRegister world."""

from __future__ import annotations

import gc
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib.image
import matplotlib.pyplot as plt
import pytest
from figure_checks_support import source_problems

import regkit
import regkit.frames as frames
import regkit.plot
from regkit.errors import ValidationError
from regkit.plot.source_line import DEFAULT_SOURCE, SOURCE_GID, default_source, set_default_source, source_line

TOP = "DE-HRB-R2103-65834"


@pytest.fixture(autouse=True)
def _reset_default() -> Iterator[None]:
    gc.collect()  # a client an earlier test of this process dropped without close() (a reference cycle) is gone
    yield
    set_default_source(None)


def _lines(fig: Any) -> list[str]:
    return [t.get_text() for t in fig.texts if t.get_gid() == SOURCE_GID]


def test_a_client_whose_construction_failed_is_no_figures_source() -> None:
    with pytest.raises(ValidationError) as failed:  # the traceback keeps the half-built client alive
        regkit.Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache=42)
    assert failed.traceback and default_source() == DEFAULT_SOURCE
    client = regkit.Client(api_key="demo-paid", base_url="http://127.0.0.1:9", cache="memory")
    assert default_source() == "the register at http://127.0.0.1:9"
    client.close()
    assert default_source() == DEFAULT_SOURCE


def test_a_figure_of_the_bundled_world_says_so_at_its_bottom_left(world: Any) -> None:
    ax = regkit.plot.indicators(world.companies[TOP], "equity")
    assert _lines(ax.figure) == ["regkit local register — synthetic data"] == [DEFAULT_SOURCE]
    assert source_problems(ax.figure, DEFAULT_SOURCE) == []


@pytest.mark.parametrize("off", [None, False])
def test_source_sets_or_removes_the_line(world: Any, off: Any) -> None:
    ax = regkit.plot.indicators(world.companies[TOP], "equity", source="Annual reports, own collection")
    assert _lines(ax.figure) == ["Annual reports, own collection"]
    ax = regkit.plot.indicators(world.companies[TOP], "equity", source=off)
    assert _lines(ax.figure) == []
    with pytest.raises(ValidationError, match="source must be a string"):
        regkit.plot.indicators(world.companies[TOP], "equity", source=3)


def test_with_ax_the_figure_carries_the_line_once(world: Any) -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5), layout="constrained")
    regkit.plot.indicators(world.companies[TOP], "equity", ax=left)
    results = frames.insolvency_results(list(world.insolvencies.values()))
    regkit.plot.insolvency_trend(results, "Y", ax=right)
    assert _lines(fig) == [DEFAULT_SOURCE]
    regkit.plot.insolvency_breakdown(results, ax=right, source="court statistics")  # a second source is added
    assert _lines(fig) == [f"{DEFAULT_SOURCE}; court statistics"]
    assert source_problems(fig) == []


def test_a_figure_without_a_layout_keeps_its_size_and_the_line_hangs_below(world: Any) -> None:
    fig, ax = plt.subplots(figsize=(8, 3))  # the caller's figure, no layout engine
    before = ax.get_position().bounds
    regkit.plot.insolvency_timeline(world.insolvencies["7da364e3-c5b0-4073-9e81-299f0003a075"], ax)
    assert tuple(fig.get_size_inches()) == (8, 3) and ax.get_position().bounds == before
    assert _lines(fig) == [DEFAULT_SOURCE]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (line,) = [t for t in fig.texts if t.get_gid() == SOURCE_GID]
    box, tight = line.get_window_extent(renderer), fig.get_tightbbox(renderer)
    assert box.y1 <= fig.bbox.y0 + 1 and tight.y0 * fig.dpi <= box.y0 + 1  # below the canvas, in the saved picture
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")  # as Jupyter stores it
    buffer.seek(0)
    pixels = matplotlib.image.imread(buffer)
    corner = pixels[-int(0.2 * 100) :, : int(2.5 * 100), :3]  # the picture's bottom 0.2 in, left 2.5 in
    assert (corner.min(axis=2) < 0.6).sum() > 50  # the line's ink is there


def test_the_data_says_where_it_comes_from(world: Any) -> None:
    frame = frames.indicators(world.companies[TOP])
    frame.attrs["regkit_source"] = "openregister.de, retrieved 2026-11-27"
    assert _lines(regkit.plot.indicators(frame, "equity").figure) == ["openregister.de, retrieved 2026-11-27"]
    G = regkit.graph.from_companies([world.companies[TOP]])
    G.graph["source"] = "a graph of my own"
    assert _lines(regkit.plot.group(G, company_id=TOP).figure) == ["a graph of my own"]


def test_the_session_default_from_a_string_or_a_client(world: Any, client: Any) -> None:
    set_default_source("openregister.de, retrieved 2026-11-27")
    assert _lines(regkit.plot.indicators(world.companies[TOP], "equity").figure) == [
        "openregister.de, retrieved 2026-11-27"
    ]
    assert set_default_source(client) == client.target.source() == DEFAULT_SOURCE
    with pytest.raises(ValidationError, match="set_default_source takes a string"):
        set_default_source(42)


@pytest.mark.slow
def test_an_imported_offeneregister_world_carries_its_cc_by_attribution(tmp_path: Path) -> None:
    from regkit.local import open_local_register
    from regkit.local.world import read_world
    from regkit.local.world.offeneregister import import_offeneregister
    from regkit.local.world.offeneregister.importer import ATTRIBUTION

    sample = Path(__file__).resolve().parents[2] / "data" / "offeneregister" / "sample.jsonl.bz2"
    import_offeneregister(sample, tmp_path / "world")
    register = open_local_register(data_dir=tmp_path / "world", rate_limit=None, state_path=tmp_path / "state.sqlite")
    client = regkit.Client(adapter=register.adapter, cache=tmp_path / "cache.sqlite")
    try:
        company_id = min(read_world(tmp_path / "world").companies)
        record = client.get_company(company_id)
        ax = regkit.plot.timeline(record, source=client.target.source())
        (line,) = [t for t in ax.figure.texts if t.get_gid() == SOURCE_GID]
        assert line.full_text == ATTRIBUTION and "CC BY 4.0" in line.get_text()
        assert line.get_text().replace("\n", " ") == ATTRIBUTION  # wrapped to the figure's width, never cut
        assert source_problems(ax.figure) == []
        ax.figure.canvas.draw()
        assert line.get_window_extent().x1 <= ax.figure.bbox.x1
    finally:
        client.close()
        register.close()


def test_source_line_finds_the_line() -> None:
    fig, ax = plt.subplots(layout="constrained")
    assert source_line(fig) is None
    regkit.plot.add_source_line(ax, "x")
    assert source_line(fig).get_text() == "x"


def test_without_a_line_from_data_or_session_the_open_client_says_where_the_data_comes_from(
    world: Any, tmp_path: Path
) -> None:
    """A figure drawn while a client of the live service is open says the live service and the day, not
    "synthetic"; once that client is closed, the bundled register's line is back."""
    import datetime as dt

    live = regkit.Client(api_key="sk-live-0123456789", cache="memory", ledger_file=tmp_path / "ledger.jsonl")
    try:
        (line,) = _lines(regkit.plot.indicators(world.companies[TOP], "equity").figure)
        assert line.startswith("Handelsregister via the live service https://")
        assert line.endswith(f", retrieved {dt.date.today().isoformat()}")
    finally:
        live.close()
    assert _lines(regkit.plot.indicators(world.companies[TOP], "equity").figure) == [DEFAULT_SOURCE]


def test_after_tight_layout_a_long_line_hangs_below_the_axes_not_over_them() -> None:
    """``fig.tight_layout()`` leaves its engine on the figure, and that engine makes no room for a supxlabel: the
    wrapped CC BY attribution went over the Axes. It hangs below them, whole, in a tight save."""
    from regkit.local.world.offeneregister.importer import ATTRIBUTION

    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.barh(["a", "b"], [30, 60])
    ax.set_xlabel("removed (%)")
    fig.tight_layout()
    line = regkit.plot.add_source_line(ax, ATTRIBUTION)
    assert source_problems(fig) == []
    renderer = fig.canvas.get_renderer()
    assert line.get_window_extent(renderer).y1 < ax.get_tightbbox(renderer).y0
    assert line.get_text().replace("\n", " ") == ATTRIBUTION
    plt.close(fig)


@pytest.mark.slow
def test_a_client_dropped_without_close_no_longer_names_the_source(world: Any, tmp_path: Path) -> None:
    """A client that is garbage (never closed) stops naming the figures' source, as a closed one does."""
    import gc

    live = regkit.Client(api_key="sk-live-0123456789", cache="memory", ledger_file=tmp_path / "ledger.jsonl")
    assert "live service" in _lines(regkit.plot.indicators(world.companies[TOP], "equity").figure)[0]
    del live
    gc.collect()
    assert _lines(regkit.plot.indicators(world.companies[TOP], "equity").figure) == [DEFAULT_SOURCE]
