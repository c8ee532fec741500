"""Each explorer in each of its main states, clicked through in JupyterLab in Chromium and screenshotted.

A notebook written for this module shows the four explorers (each with its own client on one private local
register); one JupyterLab server and one page serve every test. Each test drives one explorer as a person
would — typing, clicking, picking rows — state by state: empty, loaded (or searched, paged, estimated,
crawled), and an error (a well-formed id the register does not know: 404). Every state is screenshotted to
``explorer_<explorer>_<state>.png`` in the artefacts directory, then checked for what a reader sees:

* the status says what happened, and after an error nothing of the previous record is left on screen;
* tables are the explorers' one table style (``regkit-table``, or an itables table), have rows, show no
  UUIDs and no date wrapped over two lines; all tables of one kind look the same in every explorer;
* figures (inline SVG or images) pass the layout checks of ``browser_support.SVG_LAYOUT_JS``: legend inside,
  no overlapping or cut-off labels, unique labels in a drawing, at most 12 inches wide;
* buttons say what they cost, and ``0 credits`` once the answer is cached;
* no stored code (``balance_sheet_total``) where a label belongs, no busy message ("Crawling …") left behind,
  no figure or table wider than the explorer.

The small helpers below (``view_of``, ``fill``, ``button``, ``pick_row``, ``check_view``…) hold every selector,
so a reworked explorer needs changes there, not in the states. Problems that do not stop the clicking (a table
style, a UUID, a figure's layout) are collected and reported together at the end of each test.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    IMAGE_JS,
    WRAPPED_IDS_JS,
    Lab,
    artifacts_dir,
    browser,
    image_problems,
    new_page,
    remove_stale,
    running_lab,
    screenshot,
    svg_problems,
    tables,
    wait_until_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "explorers.ipynb"
SETUP = """\
import tempfile
from pathlib import Path

import regkit
from regkit.local import open_local_register
from regkit.widgets import CompanyExplorer, GroupExplorer, InsolvencyExplorer, PersonExplorer

_scratch = tempfile.TemporaryDirectory(prefix="regkit-browser-", ignore_cleanup_errors=True)
workdir = Path(_scratch.name)
register = open_local_register(state_path=workdir / "register.sqlite", key_path=workdir / "register.key")
clients = {name: regkit.Client(cache=workdir / f"{name}.sqlite", adapter=register.adapter)
           for name in ("company", "person", "insolvency", "group")}
"""
#: One cell per explorer; the test finds each view by the cell's first line.
EXPLORERS = {
    "company": "# company explorer\nCompanyExplorer(clients['company'])",
    "person": "# person explorer\nPersonExplorer(clients['person'])",
    "insolvency": "# insolvency explorer\nInsolvencyExplorer(clients['insolvency'])",
    "group": "# group explorer\nGroupExplorer(clients['group'])",
}
CHANGE_TIMEOUT_MS = 10_000  # what one click should change; a change that never comes fails after this
RAW_ERROR = re.compile(r"\b(?:GET|POST|PUT|DELETE) /v\d+/\S*: [45]\d\d\b|\b[45]\d\d [a-z]+(?:_[a-z]+)+\b")
"""An error as the HTTP exchange says it ("GET /v1/company/…: 404 company_not_found"): never what a reader sees."""

# From the bundled world (data/): the companies, person and group that notebooks 01, 05 and 08 research.
COMPANY_ID, COMPANY_NAME = "DE-HRB-R3101-94644", "Gerber Dienstleistungen GmbH"
UNKNOWN_COMPANY_ID = "DE-HRB-R3101-99999"  # well formed, not in the register (checked below)
PERSON_QUERY, PERSON_NAME = "Westebbe", "Horst Westebbe"
UNKNOWN_PERSON_ID = "00000000-0000-4000-8000-000000000000"
GROUP_PARENT, GROUP_OTHER = "DE-HRB-X1517-62135KI", "DE-HRB-R2103-158659"


# --- the page and its explorers -------------------------------------------------------------------------------


@dataclass
class Session:
    """The module's page, where screenshots go, and what the tests have seen of table styles."""

    page: Any
    artifacts: Path
    lab: Lab
    table_styles: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)  # kind → (where, style)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Session]:
    """One JupyterLab, one page: the explorers' notebook opened and run once, every explorer showing."""
    base = tmp_path_factory.mktemp("explorers")
    artifacts = artifacts_dir(request.config, base)
    remove_stale(artifacts, "explorer_*.png")
    print(f"\nbrowser screenshots: {artifacts}")
    (base / "root").mkdir()
    write_notebook(base / "root" / NOTEBOOK, [SETUP, *EXPLORERS.values()])
    with browser() as launched, running_lab(base / "root", base) as lab:
        lab.start_kernel(NOTEBOOK)
        page = new_page(launched)
        try:
            started = time.monotonic()
            page.goto(lab.notebook_url(NOTEBOOK))
            wait_until_idle(page)
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            for name in EXPLORERS:
                view_of(page, name).locator(".widget-vbox").first.wait_for()
            print(f"explorers showing after {time.monotonic() - started:.1f} s")
            yield Session(page, artifacts, lab)
        except Exception:
            page.screenshot(path=str(artifacts / "explorer_failure.png"), full_page=True)
            raise
        finally:
            page.close()


def view_of(page: Any, explorer: str) -> Any:
    """The output area of the explorer's cell (the whole widget as shown)."""
    first_line = EXPLORERS[explorer].splitlines()[0]
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=first_line))
    return cell.locator(".jp-OutputArea-output").first


def fill(view: Any, label: str, text: str) -> None:
    """Type into the text input described as ``label`` and submit it (Enter: also for inputs that wait for it)."""
    field_ = view.locator(".widget-text, .widget-textarea", has=view.page.get_by_text(label, exact=True)).first
    box = field_.locator("input, textarea").first
    box.fill(text)
    box.press("Enter")


def button(view: Any, name: str) -> Any:
    """The button whose label starts with ``name`` (its cost may follow: "Load (10 credits)")."""
    return view.get_by_role("button", name=re.compile("^" + re.escape(name))).first


def click_when_enabled(view: Any, name: str) -> str:
    """Wait until the button is enabled, read its label (what it says it costs), click it; returns the label."""
    target = button(view, name)
    view.page.wait_for_function("b => !b.disabled", arg=target.element_handle(), timeout=CHANGE_TIMEOUT_MS)
    label = target.inner_text()
    target.click()
    return str(label)


def is_disabled(view: Any, name: str) -> bool:
    return bool(button(view, name).is_disabled())


def wait_text(view: Any, pattern: str, timeout_ms: int = CHANGE_TIMEOUT_MS) -> str:
    """Wait until the view's text matches ``pattern`` (a regex); returns the match. Reads the whole view's text
    each time: widgets replace their elements on every update."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        text = view.inner_text()
        found = re.search(pattern, text)
        if found:
            return found.group(0)
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no {pattern!r} in the explorer after {timeout_ms / 1000:g} s; it shows:\n{text[:1500]}"
            )
        time.sleep(0.2)


def settle(view: Any) -> None:
    """Let the view finish redrawing (two animation frames after the last widget message)."""
    view.page.wait_for_timeout(300)


def pick_row(view: Any, text: str) -> None:
    """Pick the result showing ``text``: a row of a results table (clickable rows) or an option of a list."""
    row = view.locator("table tbody tr", has_text=text).filter(visible=True).first
    if row.count():
        row.click()
        return
    select = view.locator("select", has=view.page.locator("option", has_text=text)).first
    value = select.locator("option", has_text=text).first.get_attribute("value")
    select.select_option(value)


def tab_titles(view: Any) -> list[str]:
    return [t.strip() for t in view.get_by_role("tab").all_inner_texts()]


def open_tab(view: Any, title: str) -> None:
    view.get_by_role("tab", name=title, exact=True).click()
    settle(view)


def tabs_text(view: Any) -> str:
    """What every tab pane holds (visible or not)."""
    panes = view.locator(".widget-tab .widget-tab-contents, .widget-tab [role=tabpanel], .lm-TabPanel-stackedPanel")
    return "\n".join(panes.all_text_contents())


def shot(session: Session, view: Any, name: str) -> None:
    screenshot(view, session.artifacts / f"explorer_{name}.png")


# --- what is checked in every state ----------------------------------------------------------------------------


def check_view(session: Session, view: Any, where: str, min_tables: int = 0) -> list[str]:
    """Problems with the visible tables and figures of a view (see the module docstring)."""
    problems = []
    found = tables(session.page, view)
    if len(found) < min_tables:
        problems.append(f"{where}: {len(found)} tables shown, expected at least {min_tables}")
    for n, table in enumerate(found, 1):
        name = f"{where}, table {n}"
        kind = (
            "itables"
            if table["itables"]
            else "card"
            if table["card"]
            else "regkit-table"
            if "regkit-table" in table["classes"]
            else ""
        )
        if not kind:
            problems.append(f"{name}: not the explorers' table style (class {table['classes']!r})")
        if table["rows"] == 0:
            problems.append(f"{name}: no rows")
        if table["uuids"]:
            problems.append(f"{name}: shows UUIDs {table['uuids']}")
        if table["wrappedDates"]:
            problems.append(f"{name}: dates wrap over two lines: {table['wrappedDates']}")
        style = {k: v for k, v in table["style"].items() if k != "striped"}
        seen = session.table_styles.setdefault(kind, (name, style))
        if seen[1] != style:
            problems.append(f"{name}: styled unlike {seen[0]} ({style} / {seen[1]})")
    svgs = view.locator("svg").filter(visible=True)
    for n in range(svgs.count()):
        svg = svgs.nth(n)
        if svg.locator("g[id^='figure_']").count():  # matplotlib's, not an icon
            problems += [f"{where}, figure {n + 1}: {p}" for p in svg_problems(session.page, svg)]
    for what, over in session.page.evaluate(WIDER_JS, view.element_handle()):
        problems.append(f"{where}: {what} is wider than the explorer: {over} px cut off or scrolled out of view")
    codes = session.page.evaluate(CODES_JS, view.element_handle())
    if codes:
        problems.append(f"{where}: shows codes where a reader expects labels: {codes}")
    wrapped = session.page.evaluate(WRAPPED_IDS_JS, view.element_handle())
    if wrapped:
        problems.append(f"{where}: ids or case numbers wrapped over two lines: {wrapped}")
    raw = RAW_ERROR.findall(view.inner_text())
    if raw:
        problems.append(f"{where}: an error shown as a raw HTTP line, not a sentence: {raw}")
    busy = re.findall(r"\b\w+ing …", view.inner_text())
    if busy:
        problems.append(f"{where}: still says {busy} after the work is done")
    images = view.locator("img").filter(visible=True)
    for n in range(images.count()):
        measured = session.page.evaluate(IMAGE_JS, images.nth(n).element_handle())
        problems += [f"{where}, image {n + 1}: {p}" for p in image_problems(measured)]
    return problems


def figures_shown(view: Any) -> int:
    """Matplotlib figures (inline SVG) and images visible in the view."""
    return int(view.locator("svg:has(g[id^='figure_']), img").filter(visible=True).count())


def check_tabs(session: Session, view: Any, explorer: str, state: str) -> list[str]:
    """Open each tab, screenshot it and check it; back to the first tab afterwards."""
    problems = []
    titles = tab_titles(view)
    for title in titles:
        open_tab(view, title)
        slug = re.sub(r"\W+", "_", title).strip("_").lower()
        shot(session, view, f"{explorer}_{state}_{slug}")
        problems += check_view(session, view, f"{explorer} {state}, tab {title!r}")
    if titles:
        open_tab(view, titles[0])
    return problems


def assert_no_problems(problems: list[str], explorer: str) -> None:
    assert not problems, f"the {explorer} explorer as shown:\n" + "\n".join(problems)


def test_unknown_ids_are_unknown() -> None:
    """The ids the error states use are well formed and unknown to the bundled register (so a 404)."""
    import regkit

    client = regkit.Client()
    with pytest.raises(regkit.NotFoundError):
        client.get_company(UNKNOWN_COMPANY_ID)
    with pytest.raises(regkit.NotFoundError):
        client.get_person(UNKNOWN_PERSON_ID)


# --- the explorers, state by state -------------------------------------------------------------------------------


def test_company_explorer_states(session: Session) -> None:
    """Empty → loaded (every tab) → the same id again costs 0 credits → an unknown id: 404, tabs cleared."""
    view, problems = view_of(session.page, "company"), []
    # empty
    shot(session, view, "company_empty")
    problems += check_view(session, view, "company empty")
    assert is_disabled(view, "Load"), "Load is enabled with no id"
    assert figures_shown(view) == 0 and not tables(session.page, view), "the empty explorer shows a table or figure"
    # loaded
    fill(view, "Company id", COMPANY_ID)
    label = click_when_enabled(view, "Load")
    assert re.search(r"\b10 credits\b", label), f"the Load button does not say its cost: {label!r}"
    wait_text(view, rf"Loaded {re.escape(COMPANY_NAME)}")
    settle(view)
    shot(session, view, "company_loaded")
    summary = tabs_text(view)
    if re.search(r"\bgmbh\b", summary):
        problems.append("loaded: the card shows the code 'gmbh', not the label 'GmbH'")
    problems += check_tabs(session, view, "company", "loaded")
    # the financials tab: the cost on its button, then the statement tree
    open_tab(view, "financials")
    label = click_when_enabled(view, "Fetch financials")
    if not re.search(r"\b10 credits\b", label):
        problems.append(f"financials: the Fetch button does not say its cost: {label!r}")
    wait_text(view, r"Fetched \d+ annual report")
    settle(view)
    shot(session, view, "company_loaded_financials_fetched")
    problems += check_view(session, view, "company loaded, financials fetched")
    tree = view.locator(".regkit-fin").filter(visible=True)
    if not tree.count() or "Fixed assets" not in tree.first.inner_text():
        problems.append("financials: no statement tree with English labels after Fetch")
    if not re.search(r"\b0 credits\b", button(view, "Fetch financials").inner_text()):
        problems.append("financials: the Fetch button does not say the cached statements cost 0 credits")
    open_tab(view, tab_titles(view)[0])
    # cached: the button says so
    settle(view)
    label = button(view, "Load").inner_text()
    if not re.search(r"\b0 credits\b", label):
        problems.append(f"loaded: the Load button does not say the cached company costs 0 credits: {label!r}")
    # error: a well-formed id the register does not know
    fill(view, "Company id", UNKNOWN_COMPANY_ID)
    click_when_enabled(view, "Load")
    wait_text(view, r"No company has the id .*What to do:")
    settle(view)
    shot(session, view, "company_error")
    problems += check_view(session, view, "company error")
    left = tabs_text(view)
    if COMPANY_NAME in left or tables(session.page, view) or figures_shown(view):
        problems.append(f"error: the previous company is still shown under the error: {left[:300]!r}")
    assert_no_problems(problems, "company")


def test_person_explorer_states(session: Session) -> None:
    """Empty → search results → a picked person loaded (every tab) → an unknown UUID: 404, tabs cleared."""
    view, problems = view_of(session.page, "person"), []
    shot(session, view, "person_empty")
    problems += check_view(session, view, "person empty")
    assert is_disabled(view, "Load"), "Load is enabled with no person id"
    assert figures_shown(view) == 0 and not tables(session.page, view), "the empty explorer shows a table or figure"
    # search results
    fill(view, "Name", PERSON_QUERY)
    label = click_when_enabled(view, "Search")
    assert re.search(r"\b10 credits\b", label), f"the Search button does not say its cost: {label!r}"
    wait_text(view, PERSON_NAME)
    settle(view)
    shot(session, view, "person_results")
    problems += check_view(session, view, "person results", min_tables=1)
    # loaded
    pick_row(view, PERSON_NAME)
    label = click_when_enabled(view, "Load")
    if not re.search(r"\b\d+ credits\b", label):
        problems.append(f"the Load button does not say its cost: {label!r}")
    wait_text(view, r"Loaded")
    settle(view)
    shot(session, view, "person_loaded")
    problems += check_tabs(session, view, "person", "loaded")
    label = button(view, "Load").inner_text()
    if not re.search(r"\b0 credits\b", label):
        problems.append(f"loaded: the Load button does not say the cached person costs 0 credits: {label!r}")
    # error
    fill(view, "Person id", UNKNOWN_PERSON_ID)
    click_when_enabled(view, "Load")
    wait_text(view, r"404|not found|No person")
    settle(view)
    shot(session, view, "person_error")
    problems += check_view(session, view, "person error")
    left = tabs_text(view)
    if PERSON_NAME in left or figures_shown(view):
        problems.append(f"error: the previous person is still shown under the error: {left[:300]!r}")
    assert_no_problems(problems, "person")


def _result_rows(session: Session, view: Any) -> list[str]:
    """The rows of the results table (the first visible table with rows)."""
    found = [t for t in tables(session.page, view) if t["rows"]]
    return list(found[0]["texts"]) if found else []


def test_insolvency_explorer_states(session: Session) -> None:
    """Empty → page 1 → ▶ fetches page 2 (other rows) → a picked proceeding's events."""
    view, problems = view_of(session.page, "insolvency"), []
    shot(session, view, "insolvency_empty")
    problems += check_view(session, view, "insolvency empty")
    assert not tables(session.page, view), "the empty explorer shows a table"
    # page 1
    label = click_when_enabled(view, "Search")
    assert re.search(r"\b10 credits\b", label), f"the Search button does not say its cost: {label!r}"
    wait_text(view, r"page 1 of \d+")
    settle(view)
    shot(session, view, "insolvency_page1")
    problems += check_view(session, view, "insolvency page 1", min_tables=1)
    first = _result_rows(session, view)
    assert first, "page 1 shows no results table"
    # page 2: the arrow fetches it
    click_when_enabled(view, "Next") if button(view, "Next").count() else button(view, "▶").click()
    try:
        wait_text(view, r"page 2 of \d+")
    except AssertionError as exc:
        problems.append(f"page 2: ▶ did not fetch page 2 ({str(exc).splitlines()[0]})")
    settle(view)
    shot(session, view, "insolvency_page2")
    second = _result_rows(session, view)
    if not second or second == first:
        problems.append(f"page 2: the table shows {'no rows' if not second else 'the rows of page 1'}")
    problems += check_view(session, view, "insolvency page 2", min_tables=1)
    # a proceeding's events
    debtor = (second or first)[0].split("  ")[0].split(" ")[0]
    pick_row(view, debtor)
    wait_text(view, r"\d+ events?\b")
    settle(view)
    shot(session, view, "insolvency_events")
    if not figures_shown(view):
        problems.append("events: no timeline figure")
    problems += check_view(session, view, "insolvency events", min_tables=2)
    assert_no_problems(problems, "insolvency")


def test_group_explorer_states(session: Session) -> None:
    """Empty → estimate → crawled and drawn → a new seed clears the drawing → an unknown seed: an error."""
    view, problems = view_of(session.page, "group"), []
    shot(session, view, "group_empty")
    problems += check_view(session, view, "group empty")
    assert is_disabled(view, "Estimate"), "Estimate is enabled with no seed"
    assert is_disabled(view, "Crawl"), "Crawl is enabled before an estimate"
    # estimate
    fill(view, "Seed", GROUP_PARENT)
    click_when_enabled(view, "Estimate")
    wait_text(view, r"\d+ credits")
    settle(view)
    shot(session, view, "group_estimate")
    problems += check_view(session, view, "group estimate", min_tables=1)
    # crawled and drawn
    label = click_when_enabled(view, "Crawl")
    if not re.search(r"\d+ credits", label):
        problems.append(f"the Crawl button does not say its cost: {label!r}")
    wait_text(view, r"Crawled \d+", timeout_ms=60_000)
    settle(view)
    view.locator("svg:has(g[id^='figure_']), img").first.wait_for(timeout=CHANGE_TIMEOUT_MS)
    shot(session, view, "group_drawn")
    problems += check_view(session, view, "group drawn")
    # a new seed: the old group must not stay on screen as if it were the new one's
    fill(view, "Seed", GROUP_OTHER)
    settle(view)
    shot(session, view, "group_new_seed")
    faded = session.page.evaluate(FADED_JS, view.element_handle())
    if faded["shown"]:
        problems.append(f"new seed: the previous drawing is still shown at full strength ({faded})")
    # error: a well-formed id the register does not know
    fill(view, "Seed", UNKNOWN_COMPANY_ID)
    click_when_enabled(view, "Estimate")
    error = r"404|not found|No company"
    try:  # the estimate may find the seed unknown, else the crawl must
        crawl = button(view, "Crawl")
        session.page.wait_for_function(
            "([view, crawl, error]) => !crawl.disabled || new RegExp(error).test(view.innerText)",
            arg=[view.element_handle(), crawl.element_handle(), error],
            timeout=CHANGE_TIMEOUT_MS,
        )
        if not crawl.is_disabled():
            crawl.click()
        wait_text(view, error)
    except Exception as exc:  # a timeout: collected, so the screenshot below still shows what there is
        problems.append(f"error: no error shown for an unknown seed ({str(exc).splitlines()[0]})")
    settle(view)
    shot(session, view, "group_error")
    problems += check_view(session, view, "group error")
    if figures_shown(view):
        problems.append("error: a drawing is shown under the error")
    assert_no_problems(problems, "group")


CODES_JS = """
(root) => {
  // Texts that are a whole snake_case code ("balance_sheet_total", "rejected_no_assets"): table cells and headers,
  // options of lists and dropdowns, labels and buttons — where a reader expects a display label.
  const code = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
  const found = new Set();
  for (const el of root.querySelectorAll('td, th, option, label, button, .widget-label'))
    if ((el.closest('select') || el).getBoundingClientRect().width > 0 && code.test(el.textContent.trim()))
      found.add(el.textContent.trim());
  return [...found].slice(0, 8);
}
"""
"""JavaScript for ``page.evaluate(CODES_JS, view)``: up to 8 codes shown as they are stored, not as labels."""

WIDER_JS = """
(root) => {
  // [what, px] for each visible figure (matplotlib SVG or image) or table reaching past the view's right edge.
  const edge = root.getBoundingClientRect().right;
  return [...root.querySelectorAll('svg, img, table')]
    .filter(e => (e.tagName !== 'svg' || e.querySelector('g[id^="figure_"]')) && e.getBoundingClientRect().width > 0)
    .map(e => [e.tagName === 'TABLE' ? `a table (${e.querySelector('th') ? e.querySelector('th').innerText : ''}…)`
               : 'a figure', Math.round(e.getBoundingClientRect().right - edge)])
    .filter(([, over]) => over > 1);
}
"""
"""JavaScript for ``page.evaluate(WIDER_JS, view)``: each figure or table wider than the view, and by how much."""

FADED_JS = """
(root) => {
  // Figures in the view drawn at full strength: visible, opacity 1 all the way up, no grey filter.
  const figures = [...root.querySelectorAll('svg, img')].filter(e => e.closest('.regkit-figure, .widget-html') &&
    (e.tagName !== 'svg' || e.querySelector('g[id^="figure_"]')) && e.getBoundingClientRect().width > 0);
  const strong = figures.filter(e => {
    for (let n = e; n && n !== root.parentElement; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (parseFloat(s.opacity) < 1 || (s.filter && s.filter !== 'none')) return false;
    }
    return true;
  });
  return {figures: figures.length, shown: strong.length};
}
"""
"""JavaScript for ``page.evaluate(FADED_JS, view)``: the figures shown, and how many at full strength."""
