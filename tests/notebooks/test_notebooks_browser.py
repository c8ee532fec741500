"""``07_explorers`` in a real browser: JupyterLab, headless Chromium, one explorer driven by hand.

nbval checks what the notebooks *compute*; this test checks what a user *sees*: the widget views
render in JupyterLab, typing an id and clicking **Load** fetches the company, and the tabs show it.

What it needs (JupyterLab, playwright, a system Chromium) and when it is skipped: see ``browser_support``.
Each explorer in each of its states is clicked through in ``test_explorers_browser.py``.

The screenshot is saved as ``07_explorers.png`` in ``REGKIT_BROWSER_ARTIFACTS`` if set, else in pytest's
cache directory (``.pytest_cache/d/regkit-browser/``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    ACTION_TIMEOUT_MS,
    WRAPPED_IDS_JS,
    Lab,
    artifacts_dir,
    browser,
    browser_tools,
    clean_copy,
    new_page,
    remove_stale,
    running_lab,
    screenshot,
    wait_until_idle,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_explorers.ipynb"
RUN_ALL_TIMEOUT_MS = 180_000  # the whole notebook, run in the browser


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    """A JupyterLab server serving a clean copy of ``07_explorers.ipynb`` (the repository is never touched)."""
    browser_tools()  # skip (or fail under REGKIT_BROWSER_TESTS=1) before starting anything
    root = tmp_path / "root"
    root.mkdir()
    clean_copy(NOTEBOOK, root / NOTEBOOK.name)
    with running_lab(root, tmp_path / "jupyter") as server:
        yield server


@pytest.fixture
def artifacts(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Where screenshots go (see ``browser_support.artifacts_dir``)."""
    return artifacts_dir(request.config, tmp_path)


def _run_all_cells(page: Any) -> None:
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # The last cell prints the register's count; only a finished run shows it in an output. A cell that fails
    # stops the run: its traceback is reported at once instead of waiting out the timeout.
    done = page.locator(".jp-OutputArea-output", has_text="the register counts")
    failed = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']", has_text="Error")
    done.or_(failed).first.wait_for(timeout=RUN_ALL_TIMEOUT_MS)
    if not done.count():
        raise AssertionError(f"a cell of {NOTEBOOK.name} failed:\n{failed.first.inner_text()[-2000:]}")


def _credits_spent(view: Any) -> int:
    """The explorer's "Credits spent by this explorer: N" line, read from the whole view until it shows (the line
    is an HTML widget whose element is replaced on every update: reading a matched element can race that)."""
    deadline = time.monotonic() + ACTION_TIMEOUT_MS / 1000
    while True:
        text = view.inner_text()
        found = re.search(r"Credits spent by this explorer:\s*(\d+)", text)
        if found:
            return int(found.group(1))
        if time.monotonic() > deadline:
            raise AssertionError(f"no 'Credits spent by this explorer: N' in the explorer; it shows: {text[:500]!r}")
        time.sleep(0.25)


def _drive_company_explorer(page: Any) -> Any:
    """Use the notebook's CompanyExplorer as a person would; returns its view (a locator)."""
    # the cell that ends by showing the explorer (after the notebook's own clicks)
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="company_explorer.company_id.value"))
    view = cell.locator(".jp-OutputArea-output .widget-vbox").first
    view.scroll_into_view_if_needed()
    view.get_by_text("Gerber Dienstleistungen GmbH").first.wait_for()  # the company the notebook's cells loaded
    spent = _credits_spent(view)

    find_input = view.locator(".widget-text input").first  # the Find box comes first, in front of the id
    id_input = view.get_by_placeholder("DE-HRB-R2103-65834")
    load = view.get_by_role("button", name=re.compile(r"^Load"))
    id_input.fill("HRB 81776")  # a register number, not an id: Load stays disabled, nothing is sent
    page.wait_for_function("button => button.disabled", arg=load.element_handle())
    view.get_by_text("is not a company identifier").wait_for()

    find_input.fill("HRB 81776 Hildesheim")  # what people write: read offline into the id, free
    find_input.press("Enter")
    page.wait_for_function("input => input.value === 'DE-HRB-P2408-81776'", arg=id_input.element_handle())
    page.wait_for_function("button => !button.disabled", arg=load.element_handle())
    assert _credits_spent(view) == spent
    load.click()
    view.get_by_text("Loaded Elbwind Consulting GmbH (10 credits).").wait_for()
    assert "Elbwind Consulting GmbH" in view.locator(".widget-tab").first.inner_text()  # the summary card
    assert _credits_spent(view) == spent + 10

    view.get_by_role("tab", name="insolvencies").click()
    view.get_by_text("89 IN 762/20").filter(visible=True).first.wait_for()
    return view


FIGURES_JS = """
(cell) => {
  // Each matplotlib figure (inline SVG) or image shown in the cell's output: its size and how far it reaches past
  // the output area's right edge (a figure cut off or scrolled out of the cell).
  const area = cell.getBoundingClientRect();
  return [...cell.querySelectorAll('svg, img')]
    .filter(e => (e.tagName !== 'svg' || e.querySelector('g[id^="figure_"]')) && e.getBoundingClientRect().width > 0)
    .map(e => { const r = e.getBoundingClientRect();
                return {width: Math.round(r.width), height: Math.round(r.height), over: Math.round(r.right - area.right),
                        left: Math.round(r.left - area.left)}; });
}
"""
"""JavaScript for ``page.evaluate(FIGURES_JS, output_area)``: one dict per figure shown."""


def _check_group_cell(page: Any) -> Any:
    """The GroupExplorer's cell after Run All: a real group drawn (not "the 0 companies"), its figure inside the
    cell; returns the view."""
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="group_explorer.date.options[0]"))
    view = cell.locator(".jp-OutputArea-output .widget-vbox").first
    view.scroll_into_view_if_needed()
    view.locator("svg:has(g[id^='figure_'])").first.wait_for()
    text = view.inner_text()
    drawn = re.search(r"Drawn: (?:the (\d+) companies|the only company)", text)
    assert drawn is not None and int(drawn.group(1) or 1) >= 1, f"the group cell draws no company: {text[:800]!r}"
    assert "the 0 companies" not in text
    figures = page.evaluate(FIGURES_JS, cell.locator(".jp-OutputArea").first.element_handle())
    assert figures, "no figure in the group explorer's cell"
    for figure in figures:
        assert figure["width"] > 300 and figure["height"] > 100, f"the drawing is shown at {figure}"
        assert figure["over"] <= 1 and figure["left"] >= 0, f"the drawing reaches out of the cell: {figure}"
    return view


def test_07_explorers_in_jupyterlab(lab: Lab, artifacts: Path) -> None:
    """Run ``07_explorers`` in JupyterLab, then load another company in its CompanyExplorer by hand."""
    remove_stale(
        artifacts, "07_explorers.png", "07_explorers_page.png", "07_explorers_group.png", "07_explorers_failure.png"
    )
    lab.start_kernel(NOTEBOOK.name)
    with browser() as launched:
        page = new_page(launched)
        try:
            started = time.monotonic()
            page.goto(lab.notebook_url(NOTEBOOK.name))
            wait_until_idle(page)
            print(f"JupyterLab ready: {time.monotonic() - started:.1f} s")
            _run_all_cells(page)
            print(f"all cells run: {time.monotonic() - started:.1f} s")
            group = _check_group_cell(page)
            screenshot(group, artifacts / "07_explorers_group.png")
            view = _drive_company_explorer(page)
            print(f"explorer driven: {time.monotonic() - started:.1f} s")
            screenshot(view, artifacts / "07_explorers.png")
            page.screenshot(path=str(artifacts / "07_explorers_page.png"))
            wrapped = page.evaluate(WRAPPED_IDS_JS, page.locator(".jp-Notebook").first.element_handle())
            assert not wrapped, f"ids or case numbers wrapped over two lines: {wrapped}"
        except Exception as exc:
            page.screenshot(path=str(artifacts / "07_explorers_failure.png"), full_page=True)
            raise AssertionError(
                f"browser check failed ({exc}); screenshot in {artifacts}; server log:\n{lab.log_text()}"
            ) from exc
    assert (artifacts / "07_explorers.png").stat().st_size > 10_000
    assert (artifacts / "07_explorers_group.png").stat().st_size > 10_000
    print(f"screenshot: {artifacts / '07_explorers.png'}")
