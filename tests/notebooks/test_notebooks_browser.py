"""``07_explorers`` in a real browser: JupyterLab, headless Chromium, one explorer driven by hand.

nbval checks what the notebooks *compute*; this test checks what a user *sees*: the widget views
render in JupyterLab, typing an id and clicking **Load** fetches the company, and the tabs show it.

It needs JupyterLab and the Python ``playwright`` package (both in the ``test`` extra) and a Chromium
installed by the system (Debian: ``apt-get install chromium``) — no browser is ever downloaded.
``REGKIT_CHROMIUM`` names the executable if it is not on ``PATH``. Without one of them the test is
skipped, unless ``REGKIT_BROWSER_TESTS=1`` (set by CI): then it fails, so CI can never pass by skipping.

The screenshot is saved as ``07_explorers.png`` in ``REGKIT_BROWSER_ARTIFACTS`` if set, else in pytest's
cache directory (``.pytest_cache/d/regkit-browser/``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_explorers.ipynb"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SERVER_START_TIMEOUT = 60.0  # seconds until JupyterLab answers
KERNEL_START_TIMEOUT = 60.0  # seconds until the kernel is idle
RUN_ALL_TIMEOUT_MS = 180_000  # the whole notebook, run in the browser
ACTION_TIMEOUT_MS = 30_000  # one click and what it shows


def _required() -> bool:
    return os.environ.get("REGKIT_BROWSER_TESTS", "").strip().lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> None:
    if _required():
        pytest.fail(f"REGKIT_BROWSER_TESTS is set but {reason}")
    pytest.skip(f"{reason} (set REGKIT_BROWSER_TESTS=1 to make this a failure)")


def _chromium() -> str:
    named = os.environ.get("REGKIT_CHROMIUM")
    found = named if named and Path(named).exists() else next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    if found is None:
        _unavailable("no Chromium found (apt-get install chromium, or point REGKIT_CHROMIUM at one)")
    return str(found)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _clean_copy(source: Path, target: Path) -> None:
    """The notebook without outputs or saved widget state, so only a fresh run can show them."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    notebook["metadata"].pop("widgets", None)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")


def _quiet_settings(settings: Path) -> None:
    """User settings that keep JupyterLab from showing news and update notices over the notebook."""
    plugin = settings / "@jupyterlab" / "apputils-extension"
    plugin.mkdir(parents=True)
    (plugin / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True}), encoding="utf-8"
    )


def _wait_for(check: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = check()
        except requests.RequestException:
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} after {timeout:g} s")
        time.sleep(0.25)


class Lab:
    """A JupyterLab server on loopback serving one directory (see the ``lab`` fixture)."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.port, self.token = root, _free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        _quiet_settings(home / "settings")
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
               "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "PYTHONUNBUFFERED": "1"}  # fmt: skip
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={self.port}", "--ip=127.0.0.1",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={root}", "--ServerApp.allow_root=True",
            f"--LabApp.user_settings_dir={home / 'settings'}", f"--LabApp.workspaces_dir={home / 'workspaces'}",
        ]  # fmt: skip
        self.log = (home / "server.log").open("w")
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)  # fmt: skip
        try:
            _wait_for(lambda: self.process.poll() is not None or self.get("/api/status").ok, SERVER_START_TIMEOUT,
                      "JupyterLab did not answer")  # fmt: skip
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}: {self.log_text()}")
        except BaseException:
            self.stop()
            raise

    def get(self, path: str) -> requests.Response:
        return requests.get(self.url + path, headers={"Authorization": f"token {self.token}"}, timeout=10)

    def start_kernel(self, notebook: str) -> str:
        """Start the notebook's kernel through the REST API and wait until it is up; returns the session id.

        Opening the page with the kernel already up avoids a race in which the page's first kernel
        connection is refused and the retry comes many seconds later. The server reports
        ``execution_state`` "starting" until a client connects, so "up" means: the kernel has sent its
        first message (``last_activity`` moved).
        """
        headers = {"Authorization": f"token {self.token}"}
        body = {"path": notebook, "type": "notebook", "name": notebook, "kernel": {"name": "python3"}}
        session = requests.post(self.url + "/api/sessions", json=body, headers=headers, timeout=30).json()
        kernel, started = session["kernel"]["id"], session["kernel"]["last_activity"]
        _wait_for(lambda: self.get(f"/api/kernels/{kernel}").json().get("last_activity") != started,
                  KERNEL_START_TIMEOUT, "the kernel did not start")  # fmt: skip
        return str(session["id"])

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")[-4000:]

    def stop(self) -> None:
        """Shut the kernels down, then the server (and anything left in its process group)."""
        try:
            for session in self.get("/api/sessions").json():
                requests.delete(f"{self.url}/api/sessions/{session['id']}",
                                headers={"Authorization": f"token {self.token}"}, timeout=10)  # fmt: skip
        except (requests.RequestException, ValueError):
            pass
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@pytest.fixture
def browser_tools() -> tuple[Any, str]:
    """Playwright's sync API and the Chromium executable; skips (or fails under CI) when one is missing."""
    try:
        import jupyterlab  # noqa: F401
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        _unavailable(f"{exc.name} is not installed (pip install -e '.[test]')")
    return sync_playwright, _chromium()


@pytest.fixture
def lab(tmp_path: Path, browser_tools: Any) -> Iterator[Lab]:
    """A JupyterLab server serving a clean copy of ``07_explorers.ipynb`` (the repository is never touched)."""
    root = tmp_path / "root"
    root.mkdir()
    _clean_copy(NOTEBOOK, root / NOTEBOOK.name)
    server = Lab(root, tmp_path / "jupyter")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Where screenshots go: ``REGKIT_BROWSER_ARTIFACTS``, else pytest's cache directory (else ``tmp_path``)."""
    named = os.environ.get("REGKIT_BROWSER_ARTIFACTS")
    if named:
        path = Path(named)
        path.mkdir(parents=True, exist_ok=True)
        return path
    cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    return Path(cache.mkdir("regkit-browser")) if cache is not None else tmp_path


def _run_all_cells(page: Any) -> None:
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # The last cell prints the register's count; only a finished run shows it in an output.
    page.locator(".jp-OutputArea-output", has_text="the register counts").wait_for(timeout=RUN_ALL_TIMEOUT_MS)


def _credits_spent(view: Any) -> int:
    """The explorer's "Credits spent: N" line, read from the whole view until it shows (the line is an
    HTML widget whose element is replaced on every update: reading a matched element can race that)."""
    deadline = time.monotonic() + ACTION_TIMEOUT_MS / 1000
    while True:
        text = view.inner_text()
        found = re.search(r"Credits spent:\s*(\d+)", text)
        if found:
            return int(found.group(1))
        if time.monotonic() > deadline:
            raise AssertionError(f"no 'Credits spent: N' in the explorer; it shows: {text[:500]!r}")
        time.sleep(0.25)


def _drive_company_explorer(page: Any) -> Any:
    """Use the notebook's CompanyExplorer as a person would; returns its view (a locator)."""
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="CompanyExplorer(client"))
    view = cell.locator(".jp-OutputArea-output .widget-vbox").first
    view.scroll_into_view_if_needed()
    view.get_by_text("Loaded Gerber Dienstleistungen GmbH").wait_for()  # the notebook's own last click
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


def test_07_explorers_in_jupyterlab(lab: Lab, browser_tools: Any, artifacts: Path) -> None:
    """Run ``07_explorers`` in JupyterLab, then load another company in its CompanyExplorer by hand."""
    sync_playwright, chromium = browser_tools
    for stale in ("07_explorers.png", "07_explorers_page.png", "07_explorers_failure.png"):
        (artifacts / stale).unlink(missing_ok=True)
    lab.start_kernel(NOTEBOOK.name)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                             args=["--no-sandbox", "--disable-dev-shm-usage"])  # fmt: skip
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        try:
            started = time.monotonic()
            page.goto(f"{lab.url}/lab/tree/{NOTEBOOK.name}?token={lab.token}")
            page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=KERNEL_START_TIMEOUT * 1000)
            print(f"JupyterLab ready: {time.monotonic() - started:.1f} s")
            _run_all_cells(page)
            print(f"all cells run: {time.monotonic() - started:.1f} s")
            view = _drive_company_explorer(page)
            print(f"explorer driven: {time.monotonic() - started:.1f} s")
            view.screenshot(path=str(artifacts / "07_explorers.png"))
            page.screenshot(path=str(artifacts / "07_explorers_page.png"))
        except Exception as exc:
            page.screenshot(path=str(artifacts / "07_explorers_failure.png"), full_page=True)
            raise AssertionError(f"browser check failed ({exc}); screenshot in {artifacts}; "
                                 f"server log:\n{lab.log_text()}") from exc  # fmt: skip
        finally:
            browser.close()
    assert (artifacts / "07_explorers.png").stat().st_size > 10_000
    print(f"screenshot: {artifacts / '07_explorers.png'}")
