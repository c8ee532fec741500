"""``regkit.plot.group_interactive`` in a real browser: JupyterLab 4, headless system Chromium, offline.

A small notebook written into ``tmp_path`` draws the Waldstein group (24 companies) as an ipysigma widget;
the test waits for sigma's WebGL canvases, checks that they are painted (not blank), zooms with the mouse wheel
and saves ``group_interactive.png``. Skipped without Chromium/playwright/JupyterLab, failed instead under
``REGKIT_BROWSER_TESTS=1`` (see :mod:`browser_support`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    KERNEL_START_TIMEOUT,
    artifacts_dir,
    browser,
    browser_tools,
    new_page,
    remove_stale,
    running_lab,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELLS = [
    "import regkit, regkit.plot\nfrom regkit.graph import from_companies\nfrom regkit.local.world import read_world\n"
    "G = from_companies(read_world().companies)",
    "view = regkit.plot.group_interactive(G, company_id='DE-HRB-X1517-134789KI', height=500)\nview",
    "print('view ready', len(view.data['nodes']))",
]

#: Painted pixels of the widget's canvases: sigma draws nodes and edges with WebGL, labels on a 2D canvas.
PAINTED_JS = """(root) => {
  const canvas = document.createElement('canvas');
  const boxes = root.getBoundingClientRect();
  canvas.width = Math.round(boxes.width); canvas.height = Math.round(boxes.height);
  const context = canvas.getContext('2d');
  for (const layer of root.querySelectorAll('canvas')) {
    const box = layer.getBoundingClientRect();
    context.drawImage(layer, box.left - boxes.left, box.top - boxes.top, box.width, box.height);
  }
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const colours = new Set();
  let painted = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i + 3] > 0 && !(pixels[i] > 245 && pixels[i + 1] > 245 && pixels[i + 2] > 245)) {
      painted += 1; colours.add((pixels[i] >> 4) * 256 + (pixels[i + 1] >> 4) * 16 + (pixels[i + 2] >> 4));
    }
  }
  return {canvases: root.querySelectorAll('canvas').length, painted, colours: colours.size};
}"""


def test_group_interactive_renders_in_jupyterlab(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    browser_tools()  # skip (or fail under REGKIT_BROWSER_TESTS=1) before starting anything
    pytest.importorskip(
        "ipysigma", reason="ipysigma (a dependency of regkit) is not installed: pip install 'ipysigma>=0.24'"
    )
    artifacts = artifacts_dir(request.config, tmp_path)
    remove_stale(artifacts, "group_interactive*.png")
    root = tmp_path / "root"
    root.mkdir()
    write_notebook(root / "group_interactive.ipynb", CELLS)
    with running_lab(root, tmp_path / "jupyter") as lab, browser() as launched:
        lab.start_kernel("group_interactive.ipynb")
        page = new_page(launched)
        try:
            page.goto(lab.notebook_url("group_interactive.ipynb"))
            page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=KERNEL_START_TIMEOUT * 1000)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            page.locator(".jp-OutputArea-output", has_text="view ready").wait_for(timeout=120_000)
            widget = page.locator(".jp-OutputArea-output canvas").first.locator(
                "xpath=ancestor::div[.//canvas][last()]"
            )
            page.locator(".jp-OutputArea-output canvas").first.wait_for()
            page.wait_for_timeout(1500)  # sigma paints on the next animation frames
            area = page.locator(".jp-OutputArea-output", has=page.locator("canvas")).first
            before = area.evaluate(PAINTED_JS)
            area.screenshot(path=str(artifacts / "group_interactive.png"))
            box = area.bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, -600)  # zoom in
            page.wait_for_timeout(1000)
            after = area.evaluate(PAINTED_JS)
            area.screenshot(path=str(artifacts / "group_interactive_zoomed.png"))
        except Exception as exc:
            page.screenshot(path=str(artifacts / "group_interactive_failure.png"), full_page=True)
            raise AssertionError(
                f"browser check failed ({exc}); screenshot in {artifacts}; server log:\n{lab.log_text()}"
            ) from exc
        assert widget is not None
    assert before["canvases"] >= 2, before  # sigma's WebGL layers and its label layer
    assert before["painted"] > 2000 and before["colours"] >= 3, before  # nodes, edges and labels, not blank
    assert after["painted"] > 2000 and after != before, (before, after)  # the wheel zoomed the view
    assert (artifacts / "group_interactive.png").stat().st_size > 10_000
