"""Figures of register data: matplotlib drawings that take ``ax=None`` and return the Axes.

Names are imported on first use (a name → module map), so ``import regkit.plot`` loads neither
matplotlib nor the modules behind it. Add a plot by adding its name to :data:`_EXPORTS`.
"""

from __future__ import annotations

from regkit._lazy import lazy_exports
from regkit.errors import explain_arguments as _explain_arguments

#: Public name → module that defines it.
_EXPORTS = {
    "group": "regkit.plot.group",
    "group_interactive": "regkit.plot.interactive",
    "short_labels": "regkit.plot.group_labels",
    "indicators": "regkit.plot.financials",
    "ratios": "regkit.plot.financials",
    "insolvency_trend": "regkit.plot.insolvency",
    "insolvency_timeline": "regkit.plot.insolvency",
    "trend_counts": "regkit.plot.insolvency",
    "timeline": "regkit.plot.history",
    "timeline_bars": "regkit.plot.history_bars",
    "deterministic": "regkit.plot.style",
    "figure_svg": "regkit.plot.style",
    "EuroFormatter": "regkit.plot.style",
    "fiscal_years": "regkit.plot.fiscal",
    "fiscal_year_label": "regkit.plot.fiscal",
    "fiscal_year_axis": "regkit.plot.fiscal",
    "ratios_before": "regkit.plot.before_event",
    "ratios_before_summary": "regkit.plot.before_event",
    "insolvency_breakdown": "regkit.plot.breakdown",
    "breakdown_counts": "regkit.plot.breakdown",
    "year_axis": "regkit.plot.years",
    "YearStepLocator": "regkit.plot.years",
    # issue 23: the cap table over time
    "cap_table": "regkit.plot.cap_tables",
    "cap_table_steps": "regkit.plot.cap_tables",
    "balance_sheet": "regkit.plot.statements",
    "pnl_waterfall": "regkit.plot.statements",
    # issue 43: what changed when
    "changes_timeline": "regkit.plot.changes",
    # issue 25: the source line every figure carries
    "add_source_line": "regkit.plot.source_line",
    "set_default_source": "regkit.plot.source_line",
    "source_of": "regkit.plot.source_line",
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, wrap=_explain_arguments)
