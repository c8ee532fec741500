"""The documentation's gallery (``docs/gallery.py``): every figure is drawn by the public plot API on the bundled
world, the page shows each with the code that drew it, and a second build writes the same bytes."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def gallery() -> Any:
    spec = importlib.util.spec_from_file_location("regkit_docs_gallery", DOCS / "gallery.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_every_figure_is_drawn_and_shown_with_its_code(gallery: Any, tmp_path: Path) -> None:
    written = gallery.build(tmp_path, log=lambda line: None)
    names = [f.name for f in gallery.FIGURES]
    assert [p.name for p in written] == [f"{n}.svg" for n in names]
    assert sorted(p.name for p in tmp_path.glob("*.svg")) == sorted(f"{n}.svg" for n in names)
    for path in written:
        root = ET.parse(path).getroot()
        assert root.tag.endswith("svg")
        assert len(list(root.iter())) > 50, f"{path.name} draws next to nothing"
    page = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert re.findall(r"```\{image\} (\S+)\.svg", page) == names  # every figure, in order
    for figure in gallery.FIGURES:
        assert figure.code.strip().splitlines()[-1] in page  # the line that draws it is on the page
        assert (DOCS.parent / "notebooks" / figure.notebook).exists()  # its story's link leads somewhere
        assert "regkit.plot." in figure.code  # drawn by the public API


@pytest.mark.slow
def test_a_second_build_writes_the_same_bytes(gallery: Any, tmp_path: Path) -> None:
    first = {p.name: p.read_bytes() for p in gallery.build(tmp_path / "a", log=lambda line: None)}
    second = {p.name: p.read_bytes() for p in gallery.build(tmp_path / "b", log=lambda line: None)}
    assert first == second
