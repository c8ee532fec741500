"""Ratio charts' y axis: percent ticks ("25%", not "25.0%") and a reference line named in the legend.

A ratio alone says little; "12 %" means something only against a yardstick. :func:`regkit.plot.ratios` draws one
dashed line per chart, chosen by ``reference``:

``"auto"`` (the default) — the yardstick of the ratio drawn (:data:`REFERENCES`):

* ``equity_ratio`` — **30 %**, the average equity ratio of German small and medium-sized firms as the
  KfW-Mittelstandspanel has reported it for years (around 30 %; the Bundesbank's financial statements statistics
  give a similar figure for non-financial companies as a whole). Below it a firm is thinner on equity than is
  typical; at 0 % its equity is used up (balance-sheet over-indebtedness), which the zero line marks.
* ``net_margin`` and ``return_on_assets`` — **0 %**, break-even: below it the company made a loss.
* ``revenue_growth`` — **0 %**: below it revenue shrank.
* ``liabilities_to_equity`` — **100 %**: liabilities equal to equity; above it the company owes more than it owns
  outright.

Metrics with different yardsticks on one axis get the zero line only. ``"median"`` — the median of the drawn
companies per fiscal year (with two or more companies); a number — a line there (a fraction: ``0.3`` is 30 %),
labelled by ``reference_label``; ``None`` — no line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker

from regkit.schema import number_text, percent_text

__all__ = ["REFERENCES", "PercentTicks", "reference_line"]

REFERENCES: dict[str, tuple[float, str]] = {
    "equity_ratio": (0.30, "30 %: typical of German SMEs"),
    "net_margin": (0.0, "0 %: break-even"),
    "return_on_assets": (0.0, "0 %: break-even"),
    "revenue_growth": (0.0, "0 %: no growth"),
    "liabilities_to_equity": (1.0, "100 %: liabilities equal equity"),
}
"""Ratio → (reference as a fraction, legend label) for ``reference="auto"`` (see the module docstring)."""

_STYLE = {"color": "#333333", "linestyle": (0, (5, 3)), "linewidth": 1.1, "zorder": 1.5}


class PercentTicks(ticker.PercentFormatter):
    """Percent tick labels for values in percent (25 → "25%"), decimals only where the ticks need them.

    Examples
    --------
    >>> [PercentTicks().format_pct(x, 30.0) for x in (-10, 0, 12.5)]
    ['−10%', '0%', '12.5%']
    """

    def __init__(self) -> None:
        super().__init__(xmax=100.0, decimals=None)

    def format_pct(self, x: float, display_range: float) -> str:
        """The label of ``x``: at most two decimals, thousands separated (:func:`regkit.schema.number_text`)."""
        return self.fix_minus(number_text(x, 2) + self.symbol)


def _auto(metrics: Sequence[str]) -> tuple[float, str] | None:
    found = {REFERENCES[m] for m in metrics if m in REFERENCES}
    if len(found) == 1 and all(m in REFERENCES for m in metrics):
        return next(iter(found))
    return (0.0, "0 %") if found else None


def reference_line(
    ax: Any, metrics: Sequence[str], reference: Any, label: str | None, lines: Sequence[tuple[np.ndarray, np.ndarray]]
) -> Any:
    """Draw the reference of a ratio chart in percent (see the module docstring); return the line, or None.

    ``lines`` are the drawn (fiscal years, percent) pairs, for ``reference="median"``. The line's gid is
    ``"reference"``; its label is the legend's entry.
    """
    if reference is None:
        return None
    if isinstance(reference, str) and reference == "median":
        if len(lines) < 2:
            return None
        table = pd.DataFrame([pd.Series(y, index=x) for x, y in lines]).T.sort_index()
        median = table.median(axis=1, skipna=True)
        (line,) = ax.plot(
            median.index.to_numpy(),
            median.to_numpy(dtype=float),
            label=label or f"median of the {len(lines)} companies",
            gid="reference",
            **_STYLE,
        )
        return line
    if isinstance(reference, str):
        if reference != "auto":
            raise ValueError(f"reference must be 'auto', 'median', a number or None; not {reference!r}")
        chosen = _auto(metrics)
        if chosen is None:
            return None
        value, text = chosen
    else:
        value, text = float(reference), percent_text(reference)
    return ax.axhline(value * 100, label=label or text, gid="reference", **_STYLE)
