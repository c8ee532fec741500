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
* ``ebitda_margin`` — **0 %**: below it the business lost money before interest, taxes and depreciation.
* ``interest_coverage`` — **1×**: EBIT just pays the interest; below it the operating profit does not cover it.

``net_debt_to_ebitda`` and the days (``days_sales_outstanding``, ``payables_days``) get none: no yardstick holds
across industries (a bank's limit on net debt / EBITDA, the payment terms of a trade, differ), and a line that
suggests one would mislead. Net debt / EBITDA still has its zero line (below it cash exceeds the debt, or EBITDA
is negative); the days' axis starts at zero.

Metrics with different yardsticks on one axis get the zero line only. ``"median"`` — the median of the drawn
companies per fiscal year (with two or more companies); a number — a line there (a fraction: ``0.3`` is 30 %),
labelled by ``reference_label``; ``None`` — no line. On an axis of multiples (``"×"``: interest coverage, net
debt / EBITDA) or of days a number is a line at that many times or days (``3`` is 3×).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import ticker

from regkit.errors import ArgumentError, ValidationError
from regkit.schema import number_text, percent_text

__all__ = ["REFERENCES", "UNITS", "PercentTicks", "TimesTicks", "reference_line"]

REFERENCES: dict[str, tuple[float, str]] = {
    "equity_ratio": (0.30, "30 %: typical of German SMEs"),
    "net_margin": (0.0, "0 %: break-even"),
    "return_on_assets": (0.0, "0 %: break-even"),
    "revenue_growth": (0.0, "0 %: no growth"),
    "liabilities_to_equity": (1.0, "100 %: liabilities equal equity"),
    "ebitda_margin": (0.0, "0 %: EBITDA break-even"),
    "interest_coverage": (1.0, "1×: EBIT just covers the interest"),
}
"""Ratio → (reference in the frame's unit: a fraction, or a multiple for ``interest_coverage``; legend label) for
``reference="auto"`` (see the module docstring)."""

UNITS: dict[str, tuple[float, str]] = {"%": (100.0, " %"), "×": (1.0, "×"), "days": (1.0, " days")}
"""Axis unit → (factor from the frame's value to the drawn one, suffix of a reference's label)."""

_STYLE = {"color": "#333333", "linestyle": (0, (5, 3)), "linewidth": 1.1, "zorder": 1.5}


class TimesTicks(ticker.Formatter):
    """Tick labels of multiples: 2.5 → "2.5×", decimals only where the ticks need them.

    Examples
    --------
    >>> [TimesTicks()(x) for x in (-1, 0, 2.5)]
    ['−1×', '0×', '2.5×']
    """

    def __call__(self, x: float, pos: int | None = None) -> str:
        return number_text(x, 2).replace("-", "\N{MINUS SIGN}") + "×"


class PercentTicks(ticker.PercentFormatter):
    """Percent tick labels for values in percent (25 → "25 %", a space before the sign as every regkit label has
    it), decimals only where the ticks need them.

    Examples
    --------
    >>> [PercentTicks().format_pct(x, 30.0) for x in (-10, 0, 12.5)]
    ['−10 %', '0 %', '12.5 %']
    """

    def __init__(self) -> None:
        super().__init__(xmax=100.0, decimals=None, symbol=" %")

    def format_pct(self, x: float, display_range: float) -> str:
        """The label of ``x``: at most two decimals, thousands separated (:func:`regkit.schema.number_text`)."""
        return self.fix_minus(number_text(x, 2) + self.symbol)


def _auto(metrics: Sequence[str], unit: str = "%") -> tuple[float, str] | None:
    found = {REFERENCES[m] for m in metrics if m in REFERENCES}
    if len(found) == 1 and all(m in REFERENCES for m in metrics):
        return next(iter(found))
    return (0.0, f"0{UNITS[unit][1]}") if found else None


def reference_line(
    ax: Any,
    metrics: Sequence[str],
    reference: Any,
    label: str | None,
    lines: Sequence[tuple[np.ndarray, np.ndarray]],
    unit: str = "%",
) -> Any:
    """Draw the reference of a ratio chart (see the module docstring); return the line, or None.

    ``lines`` are the drawn (fiscal years, value as drawn) pairs, for ``reference="median"``; ``unit`` is the
    axis' (:data:`UNITS`: ``"%"``, the frame's fraction times 100, ``"×"`` or ``"days"``, as in the frame). The
    line's gid is ``"reference"``; its label is the legend's entry.
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
    factor, suffix = UNITS[unit]
    if isinstance(reference, str):
        if reference != "auto":
            raise ValidationError(
                f"reference must be 'auto', 'median', a number or None; not {reference!r}",
                suggestion="pass reference='auto' for the ratio's yardstick, a number, or None for no line",
            )
        chosen = _auto(metrics, unit)
        if chosen is None:
            return None
        value, text = chosen
    elif isinstance(reference, (int, float, np.number)) and not isinstance(reference, bool):
        value = float(reference)
        text = percent_text(reference) if unit == "%" else f"{number_text(value, 2)}{suffix}"
    else:
        raise ArgumentError(
            f"reference must be 'auto', 'median', a number or None; not {type(reference).__name__}",
            suggestion="pass a number (0.3 for 30 %, 3 for 3× or 3 days), 'auto', 'median' or None",
        )
    return ax.axhline(value * factor, label=label or text, gid="reference", **_STYLE)
