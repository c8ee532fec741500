"""``regkit.plot.style``: EUR tick labels, deterministic SVG, the module surface of the views."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
import pytest

import regkit.plot
import regkit.widgets
from regkit.plot.style import HASH_SALT, EuroFormatter, deterministic, eur_text, figure_svg, new_axes

VIEW_MODULES = sorted(
    ["regkit.plot", "regkit.widgets"]
    + [
        f"{package.__name__}.{info.name}"
        for package in (regkit.plot, regkit.widgets)
        for info in pkgutil.iter_modules(package.__path__)
    ]
)
"""Every module of the views (found, not listed: a new one is checked without anyone remembering to)."""


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1_500_000, "€1.5M"),
        (250_000, "€250k"),
        (999, "€999"),
        (12.5, "€12.5"),
        (2_000_000_000, "€2bn"),
        (-1_234_567, "\u2212€1.23M"),  # a true minus, as on the axes' ticks
        (0, "€0"),
        (None, "–"),
        (float("nan"), "–"),
    ],
)
def test_eur_text_picks_a_unit_that_fits(value: Any, text: str) -> None:
    assert eur_text(value) == text


def test_every_tick_of_an_axis_shares_the_unit_of_the_largest() -> None:
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1_600_000])
    ax.set_yticks([0, 500_000, 1_000_000, 1_500_000])
    ax.yaxis.set_major_formatter(EuroFormatter())
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["€0", "€0.5M", "€1M", "€1.5M"]  # zero has no unit (issue 46: "€0M")
    assert ax.yaxis.get_major_formatter()(1_500_000) == "€1.5M"


def test_a_fixed_scale_and_negative_ticks() -> None:
    formatter = EuroFormatter(scale="€k")
    assert formatter(1_500_000) == "€1,500k"
    assert formatter(-2500) == "\N{MINUS SIGN}€2.5k"  # matplotlib's minus sign (axes.unicode_minus)
    with pytest.raises(ValueError, match="scale must be one of"):
        EuroFormatter(scale="Mio")


def test_deterministic_sets_the_hash_salt_outside_ipython() -> None:
    with matplotlib.rc_context():
        settings = deterministic()
        assert matplotlib.rcParams["svg.hashsalt"] == HASH_SALT == settings["svg.hashsalt"]


def _figure() -> Any:
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [3, 1, 2], marker="o")
    ax.fill_between([0, 1, 2], [0, 0, 0], [1, 2, 1])  # clip paths: ids that vary without a hash salt
    return fig


def test_figure_svg_is_byte_identical_and_undated() -> None:
    first, second = figure_svg(_figure()), figure_svg(_figure())
    assert first == second
    assert "<dc:date>" not in first and first.lstrip().startswith("<?xml")
    assert matplotlib.rcParams["svg.hashsalt"] in (None, HASH_SALT)  # only set for the render


def test_new_axes_keeps_the_given_axes() -> None:
    fig, ax = plt.subplots()
    assert new_axes(ax) is ax
    assert new_axes() is not ax


@pytest.mark.parametrize("name", VIEW_MODULES)
def test_all_lists_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    public = {n for n, v in vars(module).items() if not n.startswith("_") and getattr(v, "__module__", None) == name}
    assert public <= set(module.__all__), public - set(module.__all__)
    assert all(hasattr(module, n) for n in module.__all__)


def test_importing_the_view_packages_loads_no_drawing_library() -> None:
    code = (
        "import sys, regkit, regkit.plot, regkit.widgets; "
        "print(','.join(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_library_code_never_calls_show() -> None:
    for name in VIEW_MODULES:
        with open(importlib.import_module(name).__file__, encoding="utf-8") as handle:
            assert not re.search(r"\bplt\.show\(|\.show\(\)", handle.read()), name


#: The figures of these modules, under the names ``regkit.plot`` exports them.
PLOT_FUNCTIONS = {
    "indicators": "regkit.plot.financials",
    "ratios": "regkit.plot.financials",
    "insolvency_trend": "regkit.plot.insolvency",
    "insolvency_timeline": "regkit.plot.insolvency",
    "timeline": "regkit.plot.history",
    "deterministic": "regkit.plot.style",
}


def test_no_plot_module_shares_its_name_with_a_plot_function() -> None:
    # ``import regkit.plot.x`` binds the submodule as ``regkit.plot.x``: a function of that name would be shadowed.
    modules = {name.rsplit(".", 1)[1] for name in PLOT_FUNCTIONS.values()}
    assert not modules & set(PLOT_FUNCTIONS)


@pytest.mark.parametrize("name", sorted(PLOT_FUNCTIONS))
def test_the_package_resolves_each_exported_figure(name: str) -> None:
    import regkit.plot

    for module in set(PLOT_FUNCTIONS.values()):
        importlib.import_module(module)  # submodules imported first: the names must still be the functions
    if name not in getattr(regkit.plot, "_EXPORTS", {}):
        pytest.skip(f"regkit.plot does not export {name!r} yet")
    assert getattr(regkit.plot, name) is getattr(importlib.import_module(PLOT_FUNCTIONS[name]), name)


@pytest.mark.parametrize("name", [m for m in VIEW_MODULES if m.startswith("regkit.plot.")])
def test_doctests(name: str) -> None:
    import doctest

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
