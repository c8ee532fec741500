"""The explorers' static snapshot in a real browser: a notebook whose stored outputs are explorers, opened
fresh (untrusted) in JupyterLab 4 in headless system Chromium, shows each explorer's snapshot — title,
status, tables and the figures as images — where the widget views cannot render.

The notebook is written into ``tmp_path`` with outputs made here (the explorers driven against the bundled
local register); the screenshot is ``static_explorers.png`` in the artefacts directory. Skipped without
Chromium/playwright/JupyterLab, failed instead under ``REGKIT_BROWSER_TESTS=1`` (see :mod:`browser_support`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    IMAGE_JS,
    WRAPPED_IDS_JS,
    artifacts_dir,
    browser,
    browser_tools,
    image_problems,
    new_page,
    remove_stale,
    running_lab,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: Every image of the output area: its alt text and the size it was decoded to (0 × 0: not shown).
IMAGES_JS = """(root) => Array.from(root.querySelectorAll('img')).map(
  img => ({alt: img.alt, width: img.naturalWidth, height: img.naturalHeight, shown: img.getBoundingClientRect().width}))"""


def _explorers(tmp_path: Path) -> list[Any]:
    """An insolvency search with a proceeding clicked, and a crawled group (the bundled local register)."""
    import regkit
    from regkit.widgets import GroupExplorer, InsolvencyExplorer

    client = regkit.Client(cache=tmp_path / "cache.sqlite")
    insolvency = InsolvencyExplorer(client)
    insolvency.query.value = "Ahrens"
    insolvency.search_button.click()
    insolvency.table.selected_rows = [0]
    group = GroupExplorer(client, "DE-HRB-R2103-158659", direction="up")
    group.estimate_button.click()
    group.crawl_button.click()
    return [insolvency, group]


def _stored_notebook(target: Path, explorers: list[Any]) -> None:
    """A notebook of one code cell per explorer, each with the explorer's display as its stored output."""
    cells = []
    for i, explorer in enumerate(explorers):
        bundle = explorer._repr_mimebundle_()
        assert WIDGET_VIEW in bundle and "text/html" in bundle
        output = {"output_type": "execute_result", "execution_count": i + 1, "metadata": {}, "data": bundle}
        cells.append(
            {
                "cell_type": "code",
                "execution_count": i + 1,
                "id": f"cell-{i}",
                "metadata": {},
                "outputs": [output],
                "source": f"explorer_{i}",
            }
        )
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook = {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    target.write_text(json.dumps(notebook), encoding="utf-8")


def test_explorers_show_their_snapshot_in_an_untrusted_notebook(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    browser_tools()  # skip (or fail under REGKIT_BROWSER_TESTS=1) before starting anything
    artifacts = artifacts_dir(request.config, tmp_path)
    remove_stale(artifacts, "static_explorers*.png")
    insolvency, group = explorers = _explorers(tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    _stored_notebook(root / "stored.ipynb", explorers)
    cases = list(insolvency.table.df["Case"])
    with running_lab(root, tmp_path / "jupyter") as lab, browser() as launched:
        page = new_page(launched)
        try:
            page.goto(lab.notebook_url("stored.ipynb"))
            outputs = page.locator(".jp-OutputArea-output")
            outputs.nth(1).get_by_text("Corporate group").wait_for()
            first, second = outputs.nth(0), outputs.nth(1)
            assert first.locator(".jupyter-widgets, .widget-vbox").count() == 0  # untrusted: no widget view
            text = first.inner_text()
            assert "Insolvency proceedings" in text and "Search (0 credits, cached)" in text
            assert all(case in text for case in cases) and "Credits spent by this explorer: 20" in text
            drawn = re.search(r"Drawn: (?:the (\d+) companies|the only company)", second.inner_text())
            assert drawn is not None and int(drawn.group(1) or 1) >= 1, second.inner_text()[:800]  # a real group
            for output in (first, second):
                wrapped = page.evaluate(WRAPPED_IDS_JS, output.element_handle())
                assert not wrapped, f"ids or case numbers wrapped over two lines: {wrapped}"
            for output in (first, second):
                images = output.evaluate(IMAGES_JS)
                assert [i["alt"] for i in images] == ["figure"], images
                assert images[0]["width"] > 300 and images[0]["height"] > 100 and images[0]["shown"] > 300, images
                drawn_image = output.locator("img").first.element_handle()
                assert not image_problems(page.evaluate(IMAGE_JS, drawn_image))  # loaded, not blank
                cell = output.locator("table").first
                if cell.count():  # the table style survives as inline styles: dates do not wrap
                    assert "nowrap" in (cell.locator("td").nth(1).get_attribute("style") or "")
            first.screenshot(path=str(artifacts / "static_explorers_insolvency.png"))
            second.screenshot(path=str(artifacts / "static_explorers_group.png"))
        except Exception as exc:
            page.screenshot(path=str(artifacts / "static_explorers_failure.png"), full_page=True)
            raise AssertionError(
                f"browser check failed ({exc}); screenshots in {artifacts}; server log:\n{lab.log_text()}"
            ) from exc
    assert (artifacts / "static_explorers_insolvency.png").stat().st_size > 10_000
