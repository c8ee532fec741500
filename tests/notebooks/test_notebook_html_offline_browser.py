"""The notebooks as HTML, and an explorer's own page, opened in headless Chromium with no network (issue 46).

``jupyter nbconvert --to html`` of a notebook whose explorers and group views are stored with their widget state
shows the widget views, which load the widget manager from a CDN: offline every such output was blank. The stored
notebooks keep no widget state (``tests/views/test_docs_notebooks.py``), so nbconvert writes each output's static
snapshot. Here every notebook that stores a widget view is exported with nbconvert's HTML exporter — what
``jupyter nbconvert --to html`` runs — and opened with every request that is not the file itself refused; each
output area must show something (text, a table or an image that decoded), no widget view may be left for a widget
manager, and every image must have decoded. :func:`regkit.widgets.save_html` pages are opened the same way.

Screenshots go to the artefacts directory (``<notebook>_html_offline.png``). Skipped without Chromium/playwright,
failed instead under ``REGKIT_BROWSER_TESTS=1`` (see :mod:`browser_support`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_support import artifacts_dir, browser, new_page, remove_stale

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _with_widget_views() -> list[Path]:
    """The notebooks that store at least one widget view (an explorer, the interactive group)."""
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(WIDGET_VIEW in o.get("data", {}) for c in cells for o in c.get("outputs", [])):
            found.append(path)
    return found


#: Each output area of the page: whether it shows anything, and every image's decoded size.
OUTPUTS_JS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output')).map((el, index) => {
  const r = el.getBoundingClientRect();
  const images = Array.from(el.querySelectorAll('img')).map(img => [img.naturalWidth, img.naturalHeight, img.alt]);
  const drawn = el.querySelector('svg, canvas, table') !== null || images.some(([w, h]) => w > 0 && h > 0);
  return {index, text: el.innerText.trim().slice(0, 60), height: Math.round(r.height), drawn, images,
          views: el.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length};
})"""


def _open_offline(launched: Any, page_file: Path) -> tuple[Any, list[str]]:
    """A page showing ``page_file`` with every other request refused, and the list the refused URLs go to."""
    page = new_page(launched)
    refused: list[str] = []

    def refuse(route: Any) -> None:
        if route.request.url.split("#")[0] == page_file.as_uri():
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", refuse)
    page.goto(page_file.as_uri(), wait_until="load")
    page.wait_for_timeout(500)
    return page, refused


def _offline_problems(launched: Any, page_file: Path, shot: Path) -> list[str]:
    """Open ``page_file`` offline (:func:`_open_offline`); the problems of its outputs, in words."""
    page, _ = _open_offline(launched, page_file)
    outputs = page.evaluate(OUTPUTS_JS)
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    problems = []
    for output in outputs:
        where = f"output {output['index']} ({output['text']!r})"
        if output["views"]:
            problems.append(f"{where} is a widget view left for a widget manager from a CDN")
        if output["height"] < 4 or not (output["text"] or output["drawn"]):
            problems.append(f"{where} is empty")
        for width, height, alt in output["images"]:
            if not (width and height):
                problems.append(f"{where}: the image {alt!r} did not decode")
    if not outputs:
        problems.append("no output area at all")
    return problems


@pytest.mark.parametrize("notebook", _with_widget_views(), ids=lambda p: p.stem)
def test_a_notebooks_html_shows_every_output_offline(notebook: Path, tmp_path: Path, request: Any) -> None:
    from nbconvert import HTMLExporter
    from nbformat import read

    assert notebook.stem in {p.stem for p in _with_widget_views()}
    body, _ = HTMLExporter().from_notebook_node(read(str(notebook), as_version=4))
    assert WIDGET_VIEW not in body  # nbconvert chose each output's snapshot, not its widget view
    folder = tmp_path / "nbconvert"
    folder.mkdir()
    page_file = folder / f"{notebook.stem}.html"
    page_file.write_text(body, encoding="utf-8")
    shots = artifacts_dir(request.config, tmp_path)
    remove_stale(shots, f"{notebook.stem}_html_offline.png")
    with browser() as launched:
        problems = _offline_problems(launched, page_file, shots / f"{notebook.stem}_html_offline.png")
    assert not problems, "\n".join(problems)


def test_the_notebooks_with_explorers_are_among_them() -> None:
    assert {"05_group_structures", "07_explorers", "08_people"} <= {p.stem for p in _with_widget_views()}


def test_an_explorers_own_page_works_offline(tmp_path: Path, request: Any) -> None:
    """``regkit.widgets.save_html``: a crawled group's explorer and the interactive group view as pages of their
    own, opened with no network: the snapshot, its drawing decoded."""
    import networkx as nx

    import regkit
    from regkit.errors import ArgumentError
    from regkit.widgets import GroupExplorer, save_html

    client = regkit.Client(cache=tmp_path / "cache.sqlite")
    explorer = GroupExplorer(client, "DE-HRB-R2103-158659", direction="up")
    explorer.estimate_button.click()
    explorer.crawl_button.click()
    pages = [save_html(explorer, tmp_path / "group_explorer.html")]
    view = regkit.plot.group_interactive(explorer.graph, company_id="DE-HRB-R2103-158659")
    pages.append(save_html(view, tmp_path / "group_view.html", title="Luxlog's group"))
    with pytest.raises(ArgumentError, match="no static snapshot"):
        save_html(nx.MultiDiGraph(), tmp_path / "nothing.html")
    assert not (tmp_path / "nothing.html").exists()
    shots = artifacts_dir(request.config, tmp_path)
    with browser() as launched:
        for page_file in pages:
            text = page_file.read_text(encoding="utf-8")
            assert "<script" not in text and "regkit-" in text
            page, refused = _open_offline(launched, page_file)
            images = page.evaluate("() => Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight])")
            page.screenshot(path=str(shots / f"{page_file.stem}_offline.png"), full_page=True)
            page.close()
            assert images and all(w > 0 and h > 0 for w, h in images), (page_file.name, images)
            assert refused == [], refused  # the page asks for nothing beyond itself
