"""Deterministic figures, SVG rendering and the axis formatters shared by regkit's plots.

A figure is *deterministic* when rendering it twice gives the same bytes. matplotlib's SVG writer
puts two varying things in a file: the creation date (``<dc:date>``) and random ids for clip paths
and glyphs (``svg.hashsalt`` unset means a fresh UUID per render). :func:`deterministic` fixes both
for a notebook, :func:`figure_svg` for one render (the widgets use it).

In a notebook
-------------
Run once, near the top (nbval then compares the SVG outputs byte for byte)::

    import regkit.plot
    regkit.plot.deterministic()   # svg.hashsalt, SVG and PNG output, no date in the files

which is the same as::

    import matplotlib
    matplotlib.rcParams["svg.hashsalt"] = "regkit"
    %config InlineBackend.figure_formats = ["svg", "png"]
    %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}

Each figure is stored twice: as SVG (sharp, and what nbval compares) and as PNG beside it. JupyterLab does not
render SVG from a notebook it does not trust — any notebook opened fresh from a download or a clone — and shows
the PNG instead of ``<Figure size 900x250 with 1 Axes>``. Both render to the same bytes every time.

Outside IPython only the rcParams are set. Figures whose content depends on the clock (none of
regkit's do unless asked, e.g. ``timeline(..., until="today")``) stay non-deterministic, of course.
"""

from __future__ import annotations

import functools
import inspect
import io
import math
import numbers
import re
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib import dates as mdates
from matplotlib import ticker

from regkit.errors import ArgumentError, ValidationError, explain_arguments, user_stacklevel

if TYPE_CHECKING:  # matplotlib's stubs key rcParams by this Literal of the known names (typing only)
    from matplotlib.typing import RcKeyType

__all__ = [
    "HASH_SALT",
    "RC",
    "SVG_METADATA",
    "EuroFormatter",
    "YearFirstFormatter",
    "date_axis",
    "deterministic",
    "eur_text",
    "eur_unit",
    "figure_svg",
    "new_axes",
    "no_data",
]

HASH_SALT = "regkit"
"""The ``svg.hashsalt`` regkit uses: any fixed string makes the SVG ids reproducible."""

SVG_METADATA: dict[str, Any] = {"Date": None}
"""``savefig(metadata=...)`` for SVG without a creation date."""

RC: dict[RcKeyType, Any] = {"svg.hashsalt": HASH_SALT, "svg.fonttype": "path"}
"""The rcParams :func:`deterministic` sets (glyphs as paths: no dependency on the viewer's fonts)."""

_SCALES = ((1e9, "€bn"), (1e6, "€M"), (1e3, "€k"), (1.0, "€"))
#: The units' names before amounts were written as English writes them (``1.5 M€``), still taken by ``scale=``.
_FORMER_UNITS = {"bn€": "€bn", "M€": "€M", "k€": "€k"}


def deterministic(ipython: bool = True, svg: bool = True) -> dict[RcKeyType, Any]:
    """Make every later figure render to the same SVG bytes (see the module docstring).

    Parameters
    ----------
    ipython : bool
        In a running IPython/Jupyter kernel, also configure the inline backend: no date in the SVG
        metadata, ``bbox_inches="tight"``. Ignored outside IPython.
    svg : bool
        With ``ipython``: store figures as SVG and PNG (nbval compares the SVG text and ignores PNG images; the PNG
        is what an untrusted notebook shows).

    Returns
    -------
    dict
        The rcParams that were set (:data:`RC`).

    Examples
    --------
    >>> settings = deterministic()
    >>> matplotlib.rcParams["svg.hashsalt"]
    'regkit'
    """
    matplotlib.rcParams.update(RC)
    shell = _ipython() if ipython else None
    if shell is not None:
        if svg:
            shell.run_line_magic("config", "InlineBackend.figure_formats = ['svg', 'png']")
        kwargs = {"bbox_inches": "tight", "metadata": dict(SVG_METADATA)}
        shell.run_line_magic("config", f"InlineBackend.print_figure_kwargs = {kwargs!r}")
    return dict(RC)


def _ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return shell if shell is not None and hasattr(shell, "kernel") else None


def figure_svg(fig: Any, close: bool = False, **savefig: Any) -> str:
    """Render a figure to SVG text, the same bytes every time.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    close : bool
        Close the figure afterwards (frees it from pyplot's figure list).
    **savefig
        Passed to ``fig.savefig`` (default ``bbox_inches="tight"``): its keywords (``dpi``, ``bbox_inches``,
        ``pad_inches``, ``facecolor``, ``transparent``, …); ``format`` and ``metadata`` are regkit's.

    Returns
    -------
    str
        The SVG document (with the XML declaration), no creation date, ids salted with :data:`HASH_SALT`.

    Raises
    ------
    regkit.errors.ArgumentError
        ``fig`` is not a matplotlib Figure (an Axes' is ``ax.figure``), or a keyword is none of ``savefig``'s
        (the message names it, the suggestion the close one).
    """
    from .inputs import check_keywords, describe, is_figure

    check_keywords("figure_svg", savefig, _savefig_keywords(), "figure_svg(fig, close=False, **savefig)")
    if not is_figure(fig):
        raise ArgumentError(
            f"figure_svg needs a matplotlib Figure; got {describe(fig)}",
            suggestion="pass ax.figure of a plot's Axes, or a figure of plt.subplots()",
        )
    buffer = io.StringIO()
    options = {"bbox_inches": "tight", **savefig, "format": "svg", "metadata": dict(SVG_METADATA)}
    with matplotlib.rc_context(RC):
        fig.savefig(buffer, **options)
    if close:
        import matplotlib.pyplot as plt

        plt.close(fig)
    return buffer.getvalue()


@functools.cache
def _savefig_keywords() -> tuple[str, ...]:
    """The keywords :func:`figure_svg` takes: its own, ``Figure.savefig``'s and those ``savefig`` hands on to
    ``FigureCanvasBase.print_figure``, read from matplotlib's signatures, and the SVG writer's ``metadata``."""
    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.figure import Figure

    names = ["fig", "close"]
    for function in (Figure.savefig, FigureCanvasBase.print_figure):
        for p in inspect.signature(function).parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "fname", "filename"):
                names.append(p.name)
    return tuple(dict.fromkeys([*names, "metadata"]))


def new_axes(ax: Any = None, figsize: tuple[float, float] = (8.0, 4.0)) -> Any:
    """``ax`` itself, or the Axes of a new figure of ``figsize`` (a pyplot figure: Jupyter shows it); an ``ax``
    that is no Axes is an :class:`~regkit.errors.ArgumentError`."""
    from .inputs import check_axes

    if check_axes(ax) is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def no_data(ax: Any, text: str, why: str = "") -> Any:
    """Say in the figure that there is nothing to draw (``text``, e.g. "no published balance sheet for X GmbH"),
    switch the axes off, and warn (:class:`~regkit.errors.NoFinancialReportsWarning`, ``why`` added): never an
    empty axis.

    Returns
    -------
    matplotlib.text.Text
        The message, gid ``"no-data"``, in the middle of the axes.
    """
    import textwrap
    import warnings

    from regkit.errors import NoFinancialReportsWarning

    warnings.warn(
        NoFinancialReportsWarning(f"{text}: nothing to draw{f' ({why})' if why else ''}"), stacklevel=user_stacklevel()
    )
    ax.set_axis_off()
    return ax.text(
        0.5, 0.5, textwrap.fill(text, 60), ha="center", va="center", fontsize=11, transform=ax.transAxes, gid="no-data"
    )


def date_axis(ax: Any) -> Any:
    """Make the x axis of ``ax`` a date axis (matplotlib date numbers) with concise tick labels, the first of
    which always names its year ("Jul 2023"; matplotlib's concise labels name a year only at a January)."""
    from matplotlib import dates

    ax.xaxis_date()
    locator = dates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(YearFirstFormatter(locator, show_offset=False))
    return ax


class YearFirstFormatter(mdates.ConciseDateFormatter):
    """matplotlib's concise date labels, the first tick's naming its year too ("Jul 2023"): concise labels name
    a year only at a January. A class of the module (not of a function), so a figure that uses it pickles."""

    def format_ticks(self, values: Any) -> list[str]:
        labels = list(super().format_ticks(values))
        if labels and not re.search(r"\b\d{4}\b", labels[0]):
            labels[0] = f"{labels[0]} {mdates.num2date(values[0]):%Y}"  # one line, as the other labels
        return labels


def _scale(value: float) -> tuple[float, str]:
    size = abs(value)
    return next(((f, u) for f, u in _SCALES if size >= f), _SCALES[-1])


def eur_unit(value: float) -> str:
    """The unit an amount of ``value`` EUR reads in: ``€``, ``€k``, ``€M`` or ``€bn`` (what an axis label names).

    Examples
    --------
    >>> eur_unit(33_000_000), eur_unit(-250_000), eur_unit(0)
    ('€M', '€k', '€')
    """
    return _scale(value)[1]


def _number(value: float, digits: int) -> str:
    text = f"{value:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _with_unit(number: str, unit: str) -> str:
    """``"1.5"`` in ``"€M"`` → ``"€1.5M"``; ``"-3"`` → ``"−€3M"`` (the sign before the currency, as English
    writes, a true minus as the axes' ticks have it); zero is ``"€0"`` in any unit."""
    if number == "0":
        return "€0"
    sign, digits = ("\u2212", number[1:]) if number.startswith("-") else ("", number)
    return f"{sign}€{digits}{unit[1:]}"


def eur_text(value: float | None, digits: int = 2) -> str:
    """An amount in EUR with a unit that fits it: ``€1.5M``, ``€250k``, ``€12``; ``–`` for null.

    Examples
    --------
    >>> eur_text(1_500_000), eur_text(250_000), eur_text(-3_250_000_000), eur_text(12.5), eur_text(None)
    ('€1.5M', '€250k', '−€3.25bn', '€12.5', '–')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    factor, unit = _scale(value)
    return _with_unit(_number(value / factor, digits), unit)


@explain_arguments
class EuroFormatter(ticker.Formatter):
    """A tick formatter for EUR axes: every tick in one unit (€, €k, €M or €bn).

    Parameters
    ----------
    scale : {None, "€", "€k", "€M", "€bn"}
        ``None``: chosen from the largest tick of the axis; else fixed (the former names ``"k€"``, ``"M€"``,
        ``"bn€"`` are taken too).
    digits : int
        Decimals at most (trailing zeros are dropped).

    Raises
    ------
    regkit.errors.ArgumentError
        ``scale`` is not text (a number, a frame) or ``digits`` not a whole number (also a ``TypeError``).
    regkit.errors.ValidationError
        ``scale`` is text but none of the units (also a ``ValueError``, as before).

    Examples
    --------
    >>> formatter = EuroFormatter()
    >>> formatter.set_locs([0, 500_000, 1_000_000, 1_500_000])
    >>> [formatter(x) for x in (0, 500_000, 1_500_000)]
    ['€0', '€0.5M', '€1.5M']
    >>> EuroFormatter(scale="€k")(1_500_000)
    '€1,500k'
    """

    def __init__(self, scale: str | None = None, digits: int = 2) -> None:
        from .inputs import describe

        units = {u: f for f, u in _SCALES}
        wanted = f"one of {', '.join(repr(u) for u in units)} or None"
        if scale is not None and not isinstance(scale, str):
            raise ArgumentError(
                f"EuroFormatter's scale must be {wanted}, not {describe(scale)}",
                suggestion="pass scale='€M' (or another unit), or leave it out to choose the unit from the ticks",
            )
        if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or digits < 0:
            raise ArgumentError(
                f"EuroFormatter's digits must be a whole number of decimals, not {describe(digits)}",
                suggestion="pass digits=2 (at most two decimals), or leave it out",
            )
        scale = _FORMER_UNITS.get(scale, scale) if scale is not None else None
        if scale is not None and scale not in units:
            raise ValidationError(
                f"scale must be {wanted}, not {scale!r}",
                suggestion="pass scale='€M' (or another unit), or leave it out to choose the unit from the ticks",
            )
        self.scale: str | None = scale
        self.digits: int = int(digits)
        self.factor: float = units.get(scale, 1.0) if scale else 1.0
        self._ticks: list[float] = []

    def set_locs(self, locs: Any) -> None:
        """Remember the ticks (the unit follows the largest of them)."""
        self._ticks = [float(x) for x in locs]

    def _unit(self, value: float) -> tuple[float, str]:
        if self.scale is not None:
            return self.factor, self.scale
        finite = [abs(x) for x in self._ticks if math.isfinite(x)]
        return _scale(max(finite) if finite else value)

    def __call__(self, x: float, pos: int | None = None) -> str:
        factor, unit = self._unit(x)
        return self.fix_minus(_with_unit(_number(x / factor, self.digits), unit))

    def format_data_short(self, value: float) -> str:
        return eur_text(value)
