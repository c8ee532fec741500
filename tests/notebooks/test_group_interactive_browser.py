"""``regkit.plot.group_interactive`` in a real browser: JupyterLab 4, headless system Chromium, offline.

A small notebook written into ``tmp_path`` draws the Waldstein group (24 companies) as an ipysigma widget. Sigma
draws its labels on a canvas, so the page records every ``fillText`` of the label canvas (an init script wraps
``CanvasRenderingContext2D``): the test reads which labels were drawn last, where, how wide — every company
labelled, inside the widget, no two on top of each other — checks the legend (colours, sizes) in the DOM and that
the console shows no error, zooms with the mouse wheel and saves ``group_interactive.png``. A second notebook,
stored with the view's output and opened untrusted without running it, shows the static drawing, not the
widget's text (``group_interactive_static.png``). Skipped without Chromium/playwright/JupyterLab, failed instead
under ``REGKIT_BROWSER_TESTS=1`` (see :mod:`browser_support`).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

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

DATA = Path(__file__).resolve().parents[2] / "data"
SEED = "DE-HRB-X1517-134789KI"  # Waldstein Management GmbH, a member of G017

CELLS = [
    "import regkit, regkit.plot\nfrom regkit.graph import from_companies\nfrom regkit.local.world import read_world\n"
    "G = from_companies(read_world().companies)",
    f"view = regkit.plot.group_interactive(G, company_id='{SEED}')\nview",
    "print('view ready', len(view.data['nodes']))",
]

#: Wraps the 2D canvas context: every fillText is recorded per canvas, a clearRect of the whole canvas starts a
#: new frame. ``window.__canvasTexts(root)`` returns the last frame's texts of the canvases under ``root``.
RECORD_JS = """
(() => {
  const frames = new WeakMap();
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText, clearRect = proto.clearRect;
  proto.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width - 1 && h >= this.canvas.height - 1) frames.set(this.canvas, []);
    return clearRect.apply(this, arguments);
  };
  proto.fillText = function (text, x, y) {
    const list = frames.get(this.canvas) || [];
    const m = this.getTransform();
    const width = this.measureText(text).width;
    const size = parseFloat((this.font.match(/([0-9.]+)px/) || [0, 0])[1]);
    // in the canvas' own pixels (the transform carries the device pixel ratio)
    list.push({text: String(text), x: m.a * x + m.e, y: m.d * y + m.f, width: width * m.a, size: size * m.d,
               align: this.textAlign, baseline: this.textBaseline});
    frames.set(this.canvas, list);
    return fillText.apply(this, arguments);
  };
  window.__canvasTexts = (root) => Array.from(root.querySelectorAll('canvas')).map((canvas) => {
    const box = canvas.getBoundingClientRect();
    return {width: canvas.width, height: canvas.height, cssWidth: box.width, texts: frames.get(canvas) || []};
  });
})();
"""

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


def _members() -> dict[str, str]:
    """G017's companies (``data/world.json``) → their names (``data/companies.jsonl.gz``)."""
    world = json.loads((DATA / "world.json").read_text(encoding="utf-8"))
    members = set(next(g["members"] for g in world["groups"] if g["id"] == "G017"))
    names = {}
    with gzip.open(DATA / "companies.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["id"] in members:
                names[record["id"]] = record["name"]["name"]
    return names


def _named(label: str) -> str:
    """A label without the share its parent holds written before the name ("100 % · ", "? · ")."""
    return re.sub(r"^(\?|> 99 %|[\d.]+ %) · ", "", label)


def _label_problems(canvases: list[dict[str, Any]], names: dict[str, str]) -> tuple[list[str], list[str]]:
    """(problems in words, the label texts drawn) of the canvas that drew the labels."""
    labelled = max(
        canvases, key=lambda c: sum(any(_named(t["text"]).startswith(n) for n in names.values()) for t in c["texts"])
    )
    texts = [t for t in labelled["texts"] if t["text"].strip()]
    problems = []
    for name in sorted(set(names.values())):
        wanted = sum(1 for n in names.values() if n == name)
        drawn = sum(1 for t in texts if _named(t["text"]).startswith(name))
        if drawn < wanted:
            problems.append(f"{name!r}: {drawn} of {wanted} labels drawn")
    boxes = []
    for t in texts:
        left = t["x"] - (t["width"] if t["align"] == "right" else t["width"] / 2 if t["align"] == "center" else 0)
        top = t["y"] - (t["size"] if t["baseline"] in ("alphabetic", "bottom", "ideographic") else 0)
        boxes.append((left, top, left + t["width"], top + t["size"], t["text"]))
        if left < 0 or left + t["width"] > labelled["width"] or top < 0 or top + t["size"] > labelled["height"]:
            problems.append(f"{t['text']!r} is cut at the edge of the view")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                problems.append(f"{a[4]!r} and {b[4]!r} overlap")
    return problems, [t["text"] for t in texts]


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
    errors: list[str] = []
    with running_lab(root, tmp_path / "jupyter") as lab, browser() as launched:
        lab.start_kernel("group_interactive.ipynb")
        page = new_page(launched)
        page.add_init_script(RECORD_JS)
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(lab.notebook_url("group_interactive.ipynb"))
            page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=KERNEL_START_TIMEOUT * 1000)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            page.locator(".jp-OutputArea-output", has_text="view ready").wait_for(timeout=120_000)
            page.locator(".jp-OutputArea-output canvas").first.wait_for()
            page.wait_for_timeout(2000)  # sigma paints on the next animation frames
            area = page.locator(".jp-OutputArea-output", has=page.locator("canvas")).first
            before = area.evaluate(PAINTED_JS)
            canvases = area.evaluate("(root) => window.__canvasTexts(root)")
            legend = area.inner_text()
            area.screenshot(path=str(artifacts / "group_interactive.png"))
            cell = area.bounding_box()
            page_width = page.locator(".jp-OutputArea-output").first.bounding_box()
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
    assert errors == [], errors  # e.g. "Cannot read properties of undefined (reading 'then')"
    assert before["canvases"] >= 2, before  # sigma's WebGL layers and its label layer
    assert before["painted"] > 2000 and before["colours"] >= 3, before  # nodes, edges and labels, not blank
    assert after["painted"] > 2000 and after != before, (before, after)  # the wheel zoomed the view
    names = _members()
    assert len(names) == 24
    problems, drawn = _label_problems(canvases, names)
    assert problems == [], (problems, drawn)
    for words in ("company, active", "the company asked about", "profit-transfer agreement", "same size"):
        assert words in legend, legend  # the legend says what colours, lines and sizes mean
    assert cell is not None and page_width is not None and cell["width"] <= page_width["width"] + 1
    assert (artifacts / "group_interactive.png").stat().st_size > 10_000


def test_an_untrusted_notebook_shows_the_static_drawing(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    browser_tools()
    pytest.importorskip("ipysigma")
    import nbformat

    import regkit.plot
    from regkit.graph import from_companies
    from regkit.local.world import read_world

    artifacts = artifacts_dir(request.config, tmp_path)
    remove_stale(artifacts, "group_interactive_static*.png")
    view = regkit.plot.group_interactive(from_companies(read_world().companies), company_id=SEED)
    bundle = view._repr_mimebundle_()
    assert "text/html" in bundle and "application/vnd.jupyter.widget-view+json" in bundle
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("view = regkit.plot.group_interactive(G, company_id=...)\nview")
    cell.outputs = [nbformat.v4.new_output("display_data", data=bundle)]
    notebook.cells = [cell]
    root = tmp_path / "root"
    root.mkdir()
    nbformat.write(notebook, root / "stored.ipynb")  # not signed: JupyterLab opens it untrusted
    with running_lab(root, tmp_path / "jupyter") as lab, browser() as launched:
        page = new_page(launched)
        try:
            page.goto(lab.notebook_url("stored.ipynb"))
            output = page.locator(".jp-OutputArea-output").first
            output.wait_for()
            dialog = page.locator(".jp-Dialog")
            dialog.wait_for(timeout=10_000)  # "Select Kernel": this notebook is only looked at, never run
            page.keyboard.press("Escape")
            dialog.wait_for(state="detached")
            page.wait_for_timeout(1000)
            text = output.inner_text()
            images = output.locator("svg, img").count()
            width = output.evaluate(
                "(e) => { const s = e.querySelector('svg, img'); return s ? s.getBoundingClientRect().width : 0; }"
            )
            area = output.bounding_box()
            output.screenshot(path=str(artifacts / "group_interactive_static.png"))
        except Exception as exc:
            page.screenshot(path=str(artifacts / "group_interactive_static_failure.png"), full_page=True)
            raise AssertionError(f"browser check failed ({exc}); server log:\n{lab.log_text()}") from exc
    assert "Sigma(" not in text, text
    assert images >= 1 and 300 < width <= area["width"] + 1, (images, width, area)
    assert "run the notebook" in text.lower(), text  # it says why the view is static
