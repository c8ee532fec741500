"""What the documentation site shows of the notebooks' explorers: their stored static snapshots.

The site drops the widget state and skips the widget mime types (``docs/_ext/regkit_notebooks.py``), so every
stored explorer output must carry a snapshot the page can show instead — and a group's snapshot must draw a group.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXPLORERS = ("CompanyExplorer(", "InsolvencyExplorer(", "GroupExplorer(", "PersonExplorer(")


@pytest.fixture(scope="module")
def site() -> Any:
    path = ROOT / "docs" / "_ext" / "regkit_notebooks.py"
    spec = importlib.util.spec_from_file_location("regkit_docs_notebooks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _shown(output: dict[str, Any], skipped: tuple[str, ...]) -> str | None:
    """The mime type the site renders: myst-nb's order for HTML, the widget types skipped."""
    order = ("text/html", "image/svg+xml", "image/png", "image/jpeg", "text/markdown", "text/latex", "text/plain")
    data = output.get("data", {})
    return next((m for m in order if m in data and m not in skipped), None)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_stored_explorer_is_shown_by_its_snapshot(site: Any, notebook: Path) -> None:
    data = json.loads(site.without_widget_state(notebook.read_bytes()))
    assert "widgets" not in data["metadata"]  # nothing left for the CDN JavaScript to draw
    for cell in data["cells"]:
        for output in cell.get("outputs", []):
            plain = "".join(output.get("data", {}).get("text/plain", ""))
            if not plain.startswith(EXPLORERS):
                continue
            assert _shown(output, site.WIDGET_MIME_TYPES) == "text/html", f"{notebook.name} {cell['id']}"
            html = "".join(output["data"]["text/html"])
            assert 'class="regkit-snapshot"' in html and "<script" not in html
            if plain.startswith("GroupExplorer(") and "Drawn:" in html:
                drawn = re.search(r"Drawn: (?:the (\d+) companies|the only company)", html)
                assert drawn is not None and int(drawn.group(1) or 1) >= 1, f"{notebook.name} {cell['id']}: {drawn}"


def test_the_explorers_notebook_stores_snapshots(site: Any) -> None:
    """07_explorers shows its explorers on the site (at least the company and insolvency explorers' cells)."""
    data = json.loads((ROOT / "notebooks" / "07_explorers.ipynb").read_text(encoding="utf-8"))
    shown = [
        "".join(o["data"]["text/plain"])
        for c in data["cells"]
        for o in c.get("outputs", [])
        if "".join(o.get("data", {}).get("text/plain", "")).startswith(EXPLORERS)
    ]
    assert any(s.startswith("CompanyExplorer(") for s in shown) and any(
        s.startswith("InsolvencyExplorer(") for s in shown
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_stored_notebooks_keep_no_widget_state(notebook: Path) -> None:
    """Issue 46: with the widgets' state in the notebook's metadata, ``jupyter nbconvert --to html`` picks the
    widget view (nbconvert's WidgetsDataTypeFilter), which needs the widget manager from a CDN — a blank output
    offline — over the static snapshot beside it. Store outputs with
    ``--ExecutePreprocessor.store_widget_state=False`` (README)."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    assert "widgets" not in data["metadata"], (
        f"{notebook.name} stores widget state: run jupyter nbconvert --to notebook --execute --inplace "
        f"--ExecutePreprocessor.store_widget_state=False notebooks/{notebook.name}"
    )
