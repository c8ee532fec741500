"""What the browser tests share: a JupyterLab server on loopback, a system Chromium, the artefacts directory,
and the checks of what a reader sees (figures, tables) measured in the page.

Import as ``from browser_support import ...`` (pytest puts the test's directory on ``sys.path``).

The browser tests need JupyterLab and the Python ``playwright`` package (both in the ``test`` extra) and a
Chromium installed by the system (Debian: ``apt-get install chromium``) — no browser is ever downloaded.
``REGKIT_CHROMIUM`` names the executable if it is not on ``PATH``. Without one of them the tests are skipped,
unless ``REGKIT_BROWSER_TESTS=1`` (set by CI): then they fail, so CI can never pass by skipping.

Screenshots go to ``REGKIT_BROWSER_ARTIFACTS`` if set (CI keeps that directory as its artefacts), else to
pytest's cache directory (``.pytest_cache/d/regkit-browser/``), else to a temporary directory.

The checks (:data:`SVG_LAYOUT_JS`, :data:`TABLES_JS`, :data:`IMAGE_JS`) run in the page and return lists of
problems in words, so one failing assertion names every problem of a figure or table at once.
"""

from __future__ import annotations

import contextlib
import json
import os
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
from isolation_support import REGKIT_SETTINGS as WORKER_SETTINGS

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SERVER_START_TIMEOUT = 60.0  # seconds until JupyterLab answers
KERNEL_START_TIMEOUT = 60.0  # seconds until the kernel is idle
ACTION_TIMEOUT_MS = 30_000  # one click and what it shows
VIEWPORT = {"width": 1400, "height": 1000}

#: The regkit settings a kernel started by the test server must not inherit from the developer's shell
#: (the same list as ``tests/conftest.py``; the module-scoped server starts before that fixture runs).
#: The shell's regkit settings JupyterLab must not inherit: all of the worker's (isolation_support) but its world
#: stores, which the kernels share with the test process (REGKIT_WORLD_CACHE).
REGKIT_SETTINGS = tuple(name for name in WORKER_SETTINGS if name != "REGKIT_WORLD_CACHE")

UUID_PATTERN = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
"""What a UUID looks like (no widget table shows one: a reader cannot use it)."""


# --- availability -------------------------------------------------------------------------------------------


def required() -> bool:
    """True when ``REGKIT_BROWSER_TESTS`` says the browser tests must run (CI)."""
    return os.environ.get("REGKIT_BROWSER_TESTS", "").strip().lower() in {"1", "true", "yes"}


def unavailable(reason: str) -> None:
    """Skip the test for ``reason`` — or fail it, when :func:`required`."""
    if required():
        pytest.fail(f"REGKIT_BROWSER_TESTS is set but {reason}")
    pytest.skip(f"{reason} (set REGKIT_BROWSER_TESTS=1 to make this a failure)")


def chromium() -> str:
    """The system Chromium's executable (``REGKIT_CHROMIUM``, else the first of :data:`CHROMIUM_NAMES` on PATH)."""
    named = os.environ.get("REGKIT_CHROMIUM")
    found = named if named and Path(named).exists() else next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    if found is None:
        unavailable("no Chromium found (apt-get install chromium, or point REGKIT_CHROMIUM at one)")
    return str(found)


def browser_tools() -> tuple[Any, str]:
    """Playwright's ``sync_playwright`` and the Chromium executable; skips (or fails under CI) when one is missing."""
    try:
        import jupyterlab  # noqa: F401
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        unavailable(f"{exc.name} is not installed (pip install -e '.[test]')")
    return sync_playwright, chromium()


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A headless system Chromium (playwright ``Browser``), closed afterwards."""
    sync_playwright, executable = browser_tools()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            yield launched
        finally:
            launched.close()


def new_page(launched: Any) -> Any:
    """A page of :data:`VIEWPORT` size with :data:`ACTION_TIMEOUT_MS` as its default timeout."""
    page = launched.new_page(viewport=VIEWPORT)
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    return page


def screenshot(locator: Any, path: Path, margin: int = 300, most: int = 8000) -> None:
    """Screenshot an element whole: JupyterLab scrolls inside the window, so a view taller than the window is
    shot in a window made tall enough for it (up to ``most`` px), then the window is put back."""
    page = locator.page
    size = dict(page.viewport_size or VIEWPORT)
    box = locator.bounding_box() or {"height": 0}
    needed = min(int(box["height"]) + margin, most)
    if needed > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": needed})
        page.wait_for_timeout(200)  # JupyterLab lays the panels out again
    try:
        locator.scroll_into_view_if_needed()
        locator.screenshot(path=str(path))
    finally:
        if needed > size["height"]:
            page.set_viewport_size(size)


def artifacts_dir(config: Any, fallback: Path) -> Path:
    """Where screenshots go: ``REGKIT_BROWSER_ARTIFACTS``, else pytest's cache directory, else ``fallback``."""
    named = os.environ.get("REGKIT_BROWSER_ARTIFACTS")
    if named:
        path = Path(named)
        path.mkdir(parents=True, exist_ok=True)
        return path
    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider
    return Path(cache.mkdir("regkit-browser")) if cache is not None else fallback


def remove_stale(directory: Path, *patterns: str) -> None:
    """Delete earlier screenshots matching ``patterns`` so none of a previous run passes for this one's."""
    for pattern in patterns:
        for path in directory.glob(pattern):
            path.unlink(missing_ok=True)


# --- the JupyterLab server ----------------------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_copy(source: Path, target: Path) -> None:
    """The notebook without outputs or saved widget state, so only a fresh run can show them."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    notebook["metadata"].pop("widgets", None)
    target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")


def write_notebook(target: Path, sources: list[str]) -> None:
    """A new notebook (Python 3 kernel, no outputs) of one code cell per source."""
    cells: list[dict[str, Any]] = [
        {"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {}, "outputs": [], "source": text}
        for i, text in enumerate(sources)
    ]
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook = {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    target.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def lab_settings(settings: Path) -> None:
    """User settings: no news or update notices over the notebook, and every cell rendered (no windowing:
    cells out of view keep their outputs laid out, so they can be measured and screenshotted)."""
    files = {
        ("apputils-extension", "notification"): {
            "fetchNews": "false",
            "checkForUpdates": False,
            "doNotDisturbMode": True,
        },
        ("notebook-extension", "tracker"): {"windowingMode": "none"},
    }
    for (plugin, name), values in files.items():
        folder = settings / "@jupyterlab" / plugin
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.jupyterlab-settings").write_text(json.dumps(values), encoding="utf-8")


def lab_env(home: Path) -> dict[str, str]:
    """The server's (and its kernels') environment: Jupyter's directories under ``home``, none of the shell's
    regkit settings, and regkit's cache, ledger, local register state and key in ``home`` (as ``tests/conftest.py``;
    the world stores are the test process's, ``REGKIT_WORLD_CACHE``, see the root ``conftest.py``)."""
    from cryptography.fernet import Fernet

    env = {k: v for k, v in os.environ.items() if k not in REGKIT_SETTINGS and not k.startswith("OPENREGISTER_")}
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        PYTHONUNBUFFERED="1",
        REGKIT_CACHE_DIR=str(home / "regkit-cache"),
        REGKIT_LEDGER=str(home / "regkit-ledger.jsonl"),
        REGKIT_LOCAL_STATE=str(home / "regkit-state.sqlite"),
        REGKIT_LOCAL_SECRET_KEY=Fernet.generate_key().decode(),
    )
    return env


def wait_for(check: Any, timeout: float, what: str) -> Any:
    """Call ``check`` until it returns something true (a failed request counts as false); its result."""
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
    """A JupyterLab server on loopback serving one directory; :meth:`stop` ends it (see :func:`running_lab`).

    A fresh ``JUPYTER_DATA_DIR`` means a fresh notebook signature database: every notebook it serves is
    *untrusted*, as a notebook opened from a download or a clone.
    """

    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.token = root, secrets.token_hex(16)
        lab_settings(home / "settings")
        # The free port may be taken between finding it and binding it (tests run in parallel): JupyterLab must not
        # move to another port (port_retries=0: it exits), and it is started again on a new one.
        for attempt in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            try:
                self._start(home)
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def _start(self, home: Path) -> None:
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            "--ip=127.0.0.1",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.allow_root=True",
            f"--LabApp.user_settings_dir={home / 'settings'}",
            f"--LabApp.workspaces_dir={home / 'workspaces'}",
        ]
        self.log = (home / "server.log").open("w")
        self.process = subprocess.Popen(
            command, env=lab_env(home), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_for(
                lambda: self.process.poll() is not None or self.get("/api/status").ok,
                SERVER_START_TIMEOUT,
                "JupyterLab did not answer",
            )
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}: {self.log_text()}")
        except BaseException:
            self.stop()
            raise

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    def get(self, path: str) -> requests.Response:
        return requests.get(self.url + path, headers=self.headers, timeout=10)

    def notebook_url(self, name: str) -> str:
        """The notebook's page in a fresh workspace (``reset``: no tabs restored from an earlier page)."""
        return f"{self.url}/lab/tree/{name}?reset&token={self.token}"

    def start_kernel(self, notebook: str) -> str:
        """Start the notebook's kernel through the REST API and wait until it is up; returns the session id.

        Opening the page with the kernel already up avoids a race in which the page's first kernel
        connection is refused and the retry comes many seconds later. The server reports
        ``execution_state`` "starting" until a client connects, so "up" means: the kernel has sent its
        first message (``last_activity`` moved).
        """
        body: dict[str, Any] = {"path": notebook, "type": "notebook", "name": notebook, "kernel": {"name": "python3"}}
        session = requests.post(self.url + "/api/sessions", json=body, headers=self.headers, timeout=30).json()
        kernel, started = session["kernel"]["id"], session["kernel"]["last_activity"]
        wait_for(
            lambda: self.get(f"/api/kernels/{kernel}").json().get("last_activity") != started,
            KERNEL_START_TIMEOUT,
            "the kernel did not start",
        )
        return str(session["id"])

    def stop_kernels(self) -> None:
        """Shut down every session's kernel (the server keeps running)."""
        try:
            for session in self.get("/api/sessions").json():
                requests.delete(f"{self.url}/api/sessions/{session['id']}", headers=self.headers, timeout=10)
        except (requests.RequestException, ValueError):
            pass

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")[-4000:]

    def stop(self) -> None:
        """Shut the kernels down, then the server (and anything left in its process group)."""
        self.stop_kernels()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@contextlib.contextmanager
def running_lab(root: Path, home: Path) -> Iterator[Lab]:
    """A :class:`Lab` serving ``root`` (its settings and log in ``home``), stopped afterwards."""
    server = Lab(root, home)
    try:
        yield server
    finally:
        server.stop()


def wait_until_idle(page: Any) -> None:
    """Wait until the notebook's kernel shows as idle in the status bar."""
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=KERNEL_START_TIMEOUT * 1000)


# --- what a reader sees: checks measured in the page ---------------------------------------------------------

SVG_LAYOUT_JS = """
([root, tolerance, maxInches]) => {
  // A matplotlib SVG (regkit's figures: glyphs as paths, one <g id="text_N"> per text, its words in comments)
  // as laid out by the browser. Returns problems in words: text cut off at the figure's edge or by a clip path,
  // texts overlapping each other, a legend outside the figure or over a text, repeated labels in a drawing
  // (axes without axis), a figure wider than maxInches.
  const problems = [];
  const fig = root.getBoundingClientRect();
  const words = g => {
    const found = [];
    const walk = node => node.childNodes.forEach(c => {
      if (c.nodeType === Node.COMMENT_NODE) found.push(c.data.trim());
      else if (c.nodeType === Node.ELEMENT_NODE && !(c.id || '').startsWith('patch')) walk(c);
    });
    walk(g);
    return found.join(' ') || g.textContent.trim() || g.id;
  };
  const union = (a, b) => a === null ? b : {left: Math.min(a.left, b.left), top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom)};
  const glyphs = g => {  // the drawn glyphs only, not a text's background box
    let box = null;
    for (const el of g.querySelectorAll('use, path, text')) {  // glyphs as paths, or text (svg.fonttype none)
      if (el.closest('defs') || el.closest('g[id^="patch"]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 || r.height > 0) box = union(box, r);
    }
    return box;
  };
  const inside = (a, b) => a.left >= b.left - tolerance && a.top >= b.top - tolerance &&
    a.right <= b.right + tolerance && a.bottom <= b.bottom + tolerance;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > tolerance &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tolerance;
  const screenRect = rect => {  // a clip path's rect (never rendered itself) in screen coordinates
    const m = (rect.parentElement.closest('g') || root).getScreenCTM(), b = rect.getBBox();
    const p = new DOMPoint(b.x, b.y).matrixTransform(m), q = new DOMPoint(b.x + b.width, b.y + b.height)
      .matrixTransform(m);
    return {left: Math.min(p.x, q.x), top: Math.min(p.y, q.y), right: Math.max(p.x, q.x), bottom: Math.max(p.y, q.y)};
  };
  const px = r => `${Math.round(r.left - fig.left)},${Math.round(r.top - fig.top)} ` +
    `${Math.round(r.right - r.left)}x${Math.round(r.bottom - r.top)}`;
  const width = root.width.baseVal;
  width.convertToSpecifiedUnits(SVGLength.SVG_LENGTHTYPE_PT);
  if (maxInches && width.valueInSpecifiedUnits / 72 > maxInches * 1.02)
    problems.push(`the figure is ${(width.valueInSpecifiedUnits / 72).toFixed(1)} in wide (at most ${maxInches})`);
  const texts = [];
  for (const g of root.querySelectorAll('g[id^="text_"]')) {
    if (g.closest('g[id^="legend_"]') || g.parentElement.closest('g[id^="text_"]')) continue;
    const box = glyphs(g);
    if (box !== null) texts.push({g, box, label: words(g), axes: g.closest('g[id^="axes_"]')});
  }
  for (const t of texts) {
    if (!inside(t.box, fig)) problems.push(`text '${t.label}' is cut off at the figure's edge (${px(t.box)})`);
    const clipped = t.g.closest('[clip-path]') || t.g.querySelector('[clip-path]');
    const id = clipped && (clipped.getAttribute('clip-path').match(/url\\(#([^)]+)\\)/) || [])[1];
    const clip = id && root.querySelector(`clipPath[id="${id}"] > rect`);
    if (clip && !inside(t.box, screenRect(clip)))
      problems.push(`text '${t.label}' is clipped by its axes (${px(t.box)})`);
  }
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      if (overlap(texts[i].box, texts[j].box))
        problems.push(`texts '${texts[i].label}' and '${texts[j].label}' overlap (${px(texts[i].box)} / ` +
                      `${px(texts[j].box)})`);
  const clipOf = el => {  // the screen rect an element is clipped to, or null
    const holder = el.closest('[clip-path]');
    const id = holder && (holder.getAttribute('clip-path').match(/url\\(#([^)]+)\\)/) || [])[1];
    const rect = id && root.querySelector(`clipPath[id="${id}"] > rect`);
    return rect ? screenRect(rect) : null;
  };
  const data = [];  // points of the plotted lines and markers (not ticks, grid or legend), as drawn
  const drawn = 'g[id^="line2d_"] path, g[id^="line2d_"] use, g[id^="PathCollection"] path, ' +
    'g[id^="PathCollection"] use, g[id^="LineCollection"] path';
  for (const el of root.querySelectorAll(drawn)) {
    if (el.closest('defs, g[id^="legend_"], g[id^="matplotlib.axis"]') || !el.closest('g[id^="axes_"]')) continue;
    const clip = clipOf(el), points = [];
    if (el.tagName === 'use') {
      const r = el.getBoundingClientRect();
      points.push({x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2});
    } else {
      const length = el.getTotalLength(), m = el.getScreenCTM(), step = Math.max(1, length / 2000);
      for (let s = 0; s <= length; s += step) points.push(el.getPointAtLength(s).matrixTransform(m));
    }
    for (const p of points)
      if (!clip || (p.x >= clip.left && p.x <= clip.right && p.y >= clip.top && p.y <= clip.bottom)) data.push(p);
  }
  const legends = [...root.querySelectorAll('g[id^="legend_"]')];
  legends.forEach((legend, n) => {
    const frame = legend.querySelector(':scope > g[id^="patch"]') || legend;
    const box = frame.getBoundingClientRect();
    if (!inside(box, fig)) problems.push(`legend ${n + 1} is not inside the figure (${px(box)})`);
    for (const t of texts)
      if (overlap(box, t.box)) problems.push(`legend ${n + 1} covers text '${t.label}'`);
    const covered = data.filter(p => p.x > box.left + tolerance && p.x < box.right - tolerance &&
                                     p.y > box.top + tolerance && p.y < box.bottom - tolerance);
    if (covered.length) problems.push(`legend ${n + 1} covers plotted data (${covered.length} points of lines ` +
      `or markers under it, legend at ${px(box)})`);
    legends.slice(n + 1).forEach((other, m) => {
      const o = (other.querySelector(':scope > g[id^="patch"]') || other).getBoundingClientRect();
      if (overlap(box, o)) problems.push(`legends ${n + 1} and ${n + m + 2} overlap`);
    });
  });
  for (const axes of root.querySelectorAll('g[id^="axes_"]')) {
    if (axes.querySelector('g[id^="matplotlib.axis"]')) continue;  // a chart: tick labels may repeat
    const seen = new Map();
    for (const t of texts.filter(t => t.axes === axes && t.g.parentElement === axes))
      seen.set(t.label, (seen.get(t.label) || 0) + 1);
    for (const [label, count] of seen)
      if (count > 1) problems.push(`the label '${label}' is drawn ${count} times (labels must be unique)`);
  }
  return problems;
}
"""
"""JavaScript for ``page.evaluate(SVG_LAYOUT_JS, [svg_element, tolerance_px, max_inches])``: a list of problems."""

TABLES_JS = """
([container, uuidPattern]) => {
  // Every table in container as a reader sees it: rows, a UUID-looking text, dates wrapped over two lines,
  // and the style (a signature of computed CSS, so tables can be compared with each other).
  const uuid = new RegExp(uuidPattern);
  const date = /^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$|^\\d{2}\\.\\d{2}\\.\\d{4}$/;
  const lines = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  return [...container.querySelectorAll('table')].filter(t => t.getBoundingClientRect().width > 0).map(table => {
    const style = getComputedStyle(table);
    const th = table.querySelector('thead th, th');
    const td = table.querySelector('tbody td');
    const rows = [...table.querySelectorAll('tbody tr')];
    const background = r => r ? getComputedStyle(r).backgroundColor : '';
    const cells = [...table.querySelectorAll('td, th')];
    return {
      classes: table.className,
      itables: !!table.closest('.dt-container, .dataTables_wrapper') || table.classList.contains('dataTable'),
      card: !!table.closest('.regkit-card, .regkit-summary'),  // a record's card: label and value, not data
      rows: rows.length,
      texts: rows.slice(0, 50).map(r => r.innerText.replace(/\\s+/g, ' ').trim()),
      uuids: cells.map(c => c.innerText.trim()).filter(t => uuid.test(t)).slice(0, 5),
      wrappedDates: cells.filter(c => date.test(c.innerText.trim()) && lines(c) > 1).map(c => c.innerText.trim())
        .slice(0, 5),
      style: {
        borderCollapse: style.borderCollapse, fontSize: style.fontSize, fontFamily: style.fontFamily,
        headerWeight: th ? getComputedStyle(th).fontWeight : '', headerBorder: th ?
          getComputedStyle(th).borderBottomWidth + ' ' + getComputedStyle(th).borderBottomStyle : '',
        cellPadding: td ? getComputedStyle(td).padding : '',
        striped: rows.length > 1 && background(rows[0]) !== background(rows[1]),
      },
    };
  });
}
"""
"""JavaScript for ``page.evaluate(TABLES_JS, [container_element, UUID_PATTERN])``: one dict per visible table."""

IMAGE_JS = """
(img) => {
  // An <img> as drawn: its sizes, its format and the share of pixels that are not the background colour.
  const r = img.getBoundingClientRect();
  const out = {src: img.currentSrc.slice(0, 22), natural: [img.naturalWidth, img.naturalHeight],
               shown: [Math.round(r.width), Math.round(r.height)], inked: 0, colours: 0};
  if (!img.complete || !img.naturalWidth) return out;
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const bg = [data[0], data[1], data[2], data[3]];
  const colours = new Set();
  let inked = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) +
        Math.abs(data[i + 3] - bg[3]) > 24) inked++;
    if (colours.size < 64) colours.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
  }
  out.inked = inked / (data.length / 4);
  out.colours = colours.size;
  return out;
}
"""
"""JavaScript for ``page.evaluate(IMAGE_JS, img_element)``: ``src`` (its start), ``natural`` and ``shown`` sizes,
``inked`` (share of pixels unlike the top-left one) and ``colours`` (distinct colours, up to 64)."""


def image_problems(measured: dict[str, Any]) -> list[str]:
    """What is wrong with an image measured by :data:`IMAGE_JS`: not loaded, no size, blank."""
    problems = []
    if min(measured["natural"]) <= 0:
        problems.append(f"the image did not load ({measured['src']}…)")
    if min(measured["shown"]) <= 0:
        problems.append(f"the image is shown at {measured['shown'][0]}x{measured['shown'][1]} px")
    if measured["inked"] < 0.005 or measured["colours"] < 2:
        problems.append(f"the image is blank ({measured['inked']:.2%} inked, {measured['colours']} colours)")
    return problems


def svg_problems(page: Any, svg: Any, tolerance: float = 1.0, max_inches: float | None = 12.0) -> list[str]:
    """:data:`SVG_LAYOUT_JS` on one ``<svg>`` (a playwright locator or element handle)."""
    handle = svg.element_handle() if hasattr(svg, "element_handle") else svg
    return list(page.evaluate(SVG_LAYOUT_JS, [handle, tolerance, max_inches]))


def tables(page: Any, container: Any) -> list[dict[str, Any]]:
    """:data:`TABLES_JS` on a container (a playwright locator or element handle)."""
    handle = container.element_handle() if hasattr(container, "element_handle") else container
    return list(page.evaluate(TABLES_JS, [handle, UUID_PATTERN]))


def svg_page(svg_text: str) -> str:
    """An HTML page showing one stored SVG at its own size (the XML declaration and doctype dropped)."""
    start = svg_text.index("<svg")
    return f"<!DOCTYPE html><html><body style='margin:0;background:#fff'>{svg_text[start:]}</body></html>"


# --- ids and case numbers on one line (issue 25) ----------------------------------------------------------------

WRAPPED_IDS_JS = """
(root) => {
  // Table cells holding a register id (DE-HRB-R3101-94644) or an insolvency case number (89 IN 482/24) that the
  // browser broke over two or more lines.
  const id = /^(?:[A-Z]{2}-[A-Za-z]+-[A-Z0-9]+-\\d+[A-Z]*|\\d+[a-z]? [A-Za-z]{1,4} \\d+\\/\\d+)$/;
  const lines = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  return [...root.querySelectorAll('td')]
    .filter(c => c.getBoundingClientRect().width > 0 && id.test(c.innerText.trim()) && lines(c) > 1)
    .map(c => c.innerText.trim()).slice(0, 8);
}
"""
"""JavaScript for ``page.evaluate(WRAPPED_IDS_JS, element)``: up to 8 ids or case numbers shown over two lines."""
