"""Every figure of regkit.plot renders to the same SVG bytes twice (``figure_svg``: fixed hash salt, no date),
so notebook outputs stay stable under nbval."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import regkit.frames as frames
from regkit.plot.before_event import ratios_before
from regkit.plot.breakdown import insolvency_breakdown
from regkit.plot.financials import indicators, ratios
from regkit.plot.history import timeline
from regkit.plot.insolvency import insolvency_timeline, insolvency_trend
from regkit.plot.style import figure_svg

pytestmark = pytest.mark.slow

TOP = "DE-HRB-R2103-65834"
DISTRESSED = "DE-HRB-P2408-81776"
CONSUMER = "7da364e3-c5b0-4073-9e81-299f0003a075"


def _drawings(world: Any, proceedings: list[dict[str, Any]]) -> dict[str, Callable[[], Any]]:
    companies = [world.companies[TOP], world.companies[DISTRESSED]]
    return {
        "indicators": lambda: indicators(companies, ["equity", "balance_sheet_total"]),
        "ratios": lambda: ratios(companies, "equity_ratio"),
        "insolvency_trend": lambda: insolvency_trend(frames.insolvency_results(proceedings), "Q", by="status"),
        "insolvency_timeline": lambda: insolvency_timeline(world.insolvencies[CONSUMER]),
        "timeline": lambda: timeline(world.companies[DISTRESSED]),
        "ratios_before": lambda: ratios_before(_with_opening(world, proceedings)),
        "insolvency_breakdown": lambda: insolvency_breakdown(
            frames.insolvency_results(proceedings), "legal_form", "status", share=True
        ),
    }


def _with_opening(world: Any, proceedings: list[dict[str, Any]]) -> Any:
    opened = {
        p["company_id"]: p["opened_at"]
        for p in proceedings
        if p.get("company_id") in world.companies and p.get("opened_at")
    }
    table = frames.ratios(frames.indicators([world.companies[cid] for cid in sorted(opened)][:60]))
    return table.assign(opened_at=table["company_id"].map(opened).astype("datetime64[us]"))


@pytest.mark.parametrize(
    "name",
    [
        "indicators",
        "ratios",
        "insolvency_trend",
        "insolvency_timeline",
        "timeline",
        "ratios_before",
        "insolvency_breakdown",
    ],
)
def test_two_renders_are_byte_identical(world: Any, proceedings: list[dict[str, Any]], name: str) -> None:
    draw = _drawings(world, proceedings)[name]
    first, second = figure_svg(draw().figure), figure_svg(draw().figure)
    assert first == second
    assert "<dc:date>" not in first
