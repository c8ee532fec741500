"""Every notebook's stored figures and tables as a reader sees them: opened fresh in JupyterLab, in Chromium.

nbval checks what the notebooks compute; this checks what a reader of the *stored* notebook sees, without
running it. Each notebook is served untrusted (as after a download or a clone), where JupyterLab does not
render stored SVG: every stored figure must still show as an image (the PNG stored beside the SVG), with a
size and ink, never as ``<Figure size 900x250 with 1 Axes>``; every stored table shows, styled; dates do not
wrap; an explorer stored in a notebook does not show as its Python repr. Each figure is screenshotted to
``<notebook>_figN.png`` in the artefacts directory (see ``browser_support``).

Then each stored SVG is laid out by the browser on a page of its own and measured (``SVG_LAYOUT_JS``): no
text cut off at the figure's edge or by its axes, no two texts overlapping, legends inside the figure and off
the texts, unique labels in a drawing, at most 12 inches wide. ``test_layout_checks_catch_bad_figures``
shows that these checks find each kind of problem in a figure made to have it.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    IMAGE_JS,
    Lab,
    artifacts_dir,
    browser,
    image_problems,
    new_page,
    remove_stale,
    running_lab,
    screenshot,
    svg_page,
    svg_problems,
    tables,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
BARE_REPR = re.compile(r"^<Figure size \d+x\d+|^\w+\(children=\(", re.MULTILINE)
"""What an output shows when its rich representation is missing: a figure's or a widget's Python repr."""
MAX_FIGURE_INCHES = 12.0


@dataclass
class StoredCell:
    """What one code cell of a notebook has stored: its figures (with the SVG text), tables, widget views."""

    index: int
    figures: list[str] = field(default_factory=list)  # the SVG of each (or "" for a PNG alone)
    html_images: int = 0  # <img> in HTML outputs (an explorer's static snapshot, say)
    tables: int = 0
    table_rows: list[int] = field(default_factory=list)
    widgets: int = 0


def stored_cells(path: Path) -> list[StoredCell]:
    """The code cells of a notebook with a figure, a table or a widget view among their stored outputs."""
    found = []
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        stored = StoredCell(index)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data or "image/svg+xml" in data:
                stored.figures.append("".join(data.get("image/svg+xml", "")))
            html = "".join(data.get("text/html", ""))
            stored.html_images += len(re.findall(r"<img\b", html))
            for table in re.findall(r"<table.*?</table>", html, re.S):
                stored.tables += 1
                body = table.split("<tbody", 1)[1] if "<tbody" in table else table  # no tbody: every row is body
                stored.table_rows.append(len(re.findall(r"<tr[\s>]", body)))
            stored.widgets += "application/vnd.jupyter.widget-view+json" in data
        if stored.figures or stored.tables or stored.widgets or stored.html_images:
            found.append(stored)
    return found


def stored_svgs() -> list[Any]:
    """One pytest param per stored SVG figure: ``(svg text)``, id ``<notebook>_figN``."""
    params = []
    for path in NOTEBOOKS:
        figures = [svg for cell in stored_cells(path) for svg in cell.figures]
        params += [pytest.param(svg, id=f"{path.stem}_fig{n}") for n, svg in enumerate(figures, 1) if svg]
    return params


@pytest.fixture(scope="module")
def artifacts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = artifacts_dir(request.config, tmp_path_factory.mktemp("screenshots"))
    remove_stale(
        path,
        *(f"{p.stem}_fig*.png" for p in NOTEBOOKS),
        *(f"{p.stem}_widget*.png" for p in NOTEBOOKS),
        *(f"{p.stem}_cell*_tables.png" for p in NOTEBOOKS),
    )
    print(f"\nbrowser screenshots: {path}")
    return path


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Any]:
    with browser() as launched:
        yield launched


@pytest.fixture(scope="module")
def notebook_lab(tmp_path_factory: pytest.TempPathFactory, chromium_browser: Any) -> Iterator[Lab]:
    """One JupyterLab serving copies of all notebooks as stored (outputs kept), untrusted."""
    base = tmp_path_factory.mktemp("lab")
    (base / "root").mkdir()
    for path in NOTEBOOKS:
        shutil.copy(path, base / "root" / path.name)
    with running_lab(base / "root", base) as lab:
        yield lab


def _open(page: Any, lab: Lab, path: Path) -> Any:
    """Open a notebook (not run) and wait until every cell and every stored image is in the page."""
    n_cells = len(json.loads(path.read_text(encoding="utf-8"))["cells"])
    page.goto(lab.notebook_url(path.name))
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    page.wait_for_function(
        "([nb, n]) => nb.querySelectorAll('.jp-Cell').length === n", arg=[notebook.element_handle(), n_cells]
    )
    page.wait_for_function(
        "nb => [...nb.querySelectorAll('.jp-OutputArea-output img')].every(i => i.complete)",
        arg=notebook.element_handle(),
    )
    return notebook


def _pandas_table_problems(where: str, measured: list[dict[str, Any]], stored: StoredCell) -> list[str]:
    problems = []
    if len(measured) != stored.tables:
        problems.append(f"{where}: {len(measured)} tables shown, {stored.tables} stored")
    for n, (table, rows) in enumerate(zip(measured, stored.table_rows), 1):
        style = table["style"]
        if table["rows"] != rows:
            problems.append(f"{where}, table {n}: {table['rows']} rows shown, {rows} stored")
        if table["wrappedDates"]:
            problems.append(f"{where}, table {n}: dates wrap over two lines: {table['wrappedDates']}")
        if "dataframe" not in table["classes"].split():
            continue  # regkit's own HTML (a record's card, a summary) has its own style
        if style["borderCollapse"] != "collapse" or int(style["headerWeight"] or 400) < 600:
            problems.append(f"{where}, table {n}: not styled as a table ({style})")
        if rows > 1 and not style["striped"]:
            problems.append(f"{where}, table {n}: rows are not striped ({style})")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_stored_outputs_show_in_a_fresh_notebook(
    path: Path, notebook_lab: Lab, chromium_browser: Any, artifacts: Path
) -> None:
    """Open the notebook untrusted and unrun: each stored figure is a drawn image, each table a styled table."""
    cells = stored_cells(path)
    page = new_page(chromium_browser)
    problems: list[str] = []
    started = time.monotonic()
    try:
        notebook = _open(page, notebook_lab, path)
        figure_number = widget_number = 0
        for stored in cells:
            cell = notebook.locator(".jp-Cell").nth(stored.index)
            where = f"cell {stored.index}"
            outputs = cell.locator(".jp-OutputArea-output")
            shown = "\n".join(outputs.all_inner_texts())
            for bare in BARE_REPR.findall(shown):
                problems.append(f"{where}: shows a bare repr instead of the output: {bare!r}…")
            images = cell.locator(".jp-RenderedImage img, .jp-RenderedSVG img")  # figure outputs
            if images.count() != len(stored.figures):
                problems.append(f"{where}: {images.count()} figures shown, {len(stored.figures)} stored")
            in_html = cell.locator(".jp-RenderedHTMLCommon img")
            if in_html.count() != stored.html_images:
                problems.append(f"{where}: {in_html.count()} images shown in HTML, {stored.html_images} stored")
            for n in range(in_html.count()):
                measured = page.evaluate(IMAGE_JS, in_html.nth(n).element_handle())
                problems += [f"{where}, image {n + 1} in HTML: {p}" for p in image_problems(measured)]
            for n in range(images.count()):
                figure_number += 1
                image = images.nth(n)
                image.scroll_into_view_if_needed()
                image.screenshot(path=str(artifacts / f"{path.stem}_fig{figure_number}.png"))
                measured = page.evaluate(IMAGE_JS, image.element_handle())
                problems += [f"{where}, figure {figure_number}: {p}" for p in image_problems(measured)]
            if stored.tables:
                found = _pandas_table_problems(where, tables(page, cell.locator(".jp-OutputArea")), stored)
                if found:  # a picture of what is wrong
                    screenshot(cell.locator(".jp-OutputArea"), artifacts / f"{path.stem}_cell{stored.index}_tables.png")
                problems += found
            if stored.widgets:  # what a reader of the stored notebook sees of an explorer
                widget_number += 1
                screenshot(cell.locator(".jp-OutputArea"), artifacts / f"{path.stem}_widget{widget_number}.png")
        print(f"{path.stem}: {len(cells)} cells checked in {time.monotonic() - started:.1f} s")
    finally:
        page.close()
        notebook_lab.stop_kernels()  # opening a notebook starts its kernel; nothing here runs in it
    assert not problems, f"{path.name} opened fresh in JupyterLab:\n" + "\n".join(problems)


@pytest.mark.parametrize("svg", stored_svgs())
def test_stored_svg_layout(svg: str, chromium_browser: Any) -> None:
    """A stored SVG figure laid out by the browser: nothing cut off or overlapping, legends inside, unique labels."""
    page = new_page(chromium_browser)
    try:
        page.set_content(svg_page(svg))
        problems = svg_problems(page, page.locator("svg").first, max_inches=MAX_FIGURE_INCHES)
    finally:
        page.close()
    assert not problems, "\n".join(problems)


def _bad_figure_svgs() -> dict[str, str]:
    """Figures made with each problem the layout checks look for, and one without, as regkit renders SVG."""
    from matplotlib.figure import Figure

    from regkit.plot.style import figure_svg

    made: dict[str, Any] = {}
    fig = Figure(figsize=(4, 2))
    ax = fig.subplots()
    ax.plot([0, 1, 2], [1, 3, 2], label="revenue")
    ax.set_xticks([0, 1, 2], ["a long tick label", "another long tick label", "and a third long one"])
    made["overlap"] = fig
    fig = Figure(figsize=(4, 2))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="revenue")
    ax.text(0.02, 0.9, "a note in the corner", transform=ax.transAxes, va="top")
    ax.legend(loc="upper left")
    made["legend"] = fig
    fig = Figure(figsize=(4, 2))
    ax = fig.subplots()
    ax.plot([0, 1, 2, 3], [3, 3, 2, 0], marker="o", label="equity ratio")
    ax.legend(loc="upper left")
    made["covers_data"] = fig
    fig = Figure(figsize=(4, 2))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1])
    ax.text(0.9, 0.5, "a label running out of its axes", clip_on=True)
    made["clipped"] = fig
    fig = Figure(figsize=(4, 2))
    ax = fig.subplots()
    ax.axis("off")
    for x, name in enumerate(["Blauwerk Projekte GmbH", "Blauwerk Holding GmbH", "Blauwerk Projekte GmbH"]):
        ax.text(x, x, name)
    ax.set_xlim(-1, 4)
    ax.set_ylim(-1, 4)
    made["duplicate"] = fig
    fig = Figure(figsize=(18, 2))
    fig.subplots().plot([0, 1], [0, 1])
    made["wide"] = fig
    fig = Figure(figsize=(6, 3))
    ax = fig.subplots()
    ax.plot(["2020", "2021", "2022"], [1, 3, 2], label="revenue")
    ax.set_title("A clean chart")
    ax.legend(loc="lower right")
    made["clean"] = fig
    return {name: figure_svg(fig) for name, fig in made.items()}


def test_layout_checks_catch_bad_figures(chromium_browser: Any) -> None:
    """Each check of ``SVG_LAYOUT_JS`` reports the problem a figure was made to have, and a clean one passes."""
    expected = {
        "overlap": "overlap",
        "legend": "legend 1 covers text 'a note in the corner'",
        "covers_data": "legend 1 covers plotted data",
        "clipped": "'a label running out of its axes' is clipped",
        "duplicate": "'Blauwerk Projekte GmbH' is drawn 2 times",
        "wide": "in wide (at most 12)",
    }
    page = new_page(chromium_browser)
    found = {}
    try:
        for name, svg in _bad_figure_svgs().items():
            page.set_content(svg_page(svg))
            found[name] = svg_problems(page, page.locator("svg").first, max_inches=MAX_FIGURE_INCHES)
    finally:
        page.close()
    assert found.pop("clean") == []
    for name, problems in found.items():
        assert any(expected[name] in p for p in problems), (name, problems)
