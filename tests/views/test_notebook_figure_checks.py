"""Every figure the bundled notebooks draw passes the figure checks (``figure_checks_support.figure_problems``): a
source line below the axes, one language of labels, text at least 9 pt on screen in a 968 px JupyterLab cell, a
zero line under negative values, amount axes from zero with their unit.

Each notebook is run in a kernel with a hook that checks each pyplot figure a cell leaves, before Jupyter shows and
closes it (figures inside explorers are widgets' images, checked by the browser tests).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from figure_checks_support import notebook_figure_problems

pytestmark = pytest.mark.slow

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))

#: Each notebook is run once per test session (the file's tests share a worker): the figures a run left.
_checked = functools.cache(notebook_figure_problems)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_every_figure_of_the_notebook_passes_the_figure_checks(notebook: Path) -> None:
    checked = _checked(notebook)
    failing = [
        f"cell [{f['cell']}] {f['code']!r}, figure {f['figure']}: {f['problems']}" for f in checked if f["problems"]
    ]
    assert failing == []


def test_the_notebooks_draw_figures_the_checks_see() -> None:
    """The hook sees the notebooks' figures at all (a check over no figure would pass whatever they drew)."""
    assert len(_checked(NOTEBOOKS[2])) >= 2  # 03_financial_indicators: indicators and ratios
