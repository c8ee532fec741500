"""The repository stands alone: no link or path points outside it, and every relative link resolves.

Users have the repository (or the wheel) and nothing beside it, so nothing may name a sibling checkout
(``../shared``), the machine it was written on (``/work/``, ``/home/…``, ``C:\\…``) or a ``file://`` URL.
Paths under ``/tmp/`` are allowed: they are examples and the sanitised temporary directories of stored
notebook outputs, not pointers to content.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Text that points outside the repository.
OUTSIDE = re.compile(
    r"\.\./shared"
    r"|(?<![\w.~-])/(?:work|home|Users|root|mnt|media|srv|opt|private)/"
    r"|\bfile://"
    r"|(?<![\w])[A-Za-z]:\\[\w.-]",
)
#: Text files of the package (everything but bytecode).
_TEXT_SUFFIXES = {".py", ".json", ".md", ".txt", ".typed", ".cfg", ".toml", ".css", ".js", ".html", ".csv", ".svg"}


def _scanned_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml", *sorted((ROOT / "data").glob("*.md"))]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "notebooks").rglob("*.ipynb"))
    files += sorted(p for p in (ROOT / "regkit").rglob("*") if p.is_file() and p.suffix in _TEXT_SUFFIXES)
    files += sorted(p for p in (ROOT / ".ci").rglob("*") if p.is_file())
    files += sorted((ROOT / "benchmarks").rglob("*.py"))
    return [p for p in files if ".ipynb_checkpoints" not in p.parts and "__pycache__" not in p.parts]


def outside_references(text: str) -> list[str]:
    """The lines of ``text`` that point outside the repository."""
    return [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]


_INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _without_code_blocks(markdown: str) -> str:
    return re.sub(r"^(```|~~~).*?^\1", "", markdown, flags=re.S | re.M)


def links(markdown: str) -> list[str]:
    """The link targets of a Markdown text (inline, reference-style and HTML), outside fenced code."""
    text = _without_code_blocks(markdown)
    return [m.group(1) for pattern in (_INLINE_LINK, _REFERENCE_LINK, _HTML_LINK) for m in pattern.finditer(text)]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", _without_code_blocks(markdown), flags=re.M):
        slug, n = _slug(heading), 1
        while slug in found:
            slug, n = f"{_slug(heading)}-{n}", n + 1
        found.add(slug)
    return found


def broken_links(source: Path, markdown: str) -> list[str]:
    """Relative links of ``markdown`` (read from ``source``) that leave the repository or resolve to nothing."""
    broken = []
    for target in links(markdown):
        if _SCHEME.match(target):
            continue  # a URL (https:, mailto:); file: is caught as an outside reference
        path, _, anchor = target.partition("#")
        path = path.split("?", 1)[0]
        if path.startswith("/"):
            broken.append(f"{target}: absolute path")
            continue
        if not path:
            if anchor not in anchors(markdown):
                broken.append(f"{target}: no heading with that anchor here")
            continue
        resolved = (source.parent / path).resolve()
        if not resolved.is_relative_to(ROOT):
            broken.append(f"{target}: outside the repository")
        elif not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading with anchor #{anchor} in {resolved.relative_to(ROOT)}")
    return broken


def _markdown_sources() -> list[tuple[Path, str]]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "data").glob("*.md"))]
    sources = [(path, path.read_text(encoding="utf-8")) for path in files]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        sources.append((notebook, text))
    return sources


@pytest.mark.parametrize("path", _scanned_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(path):
    found = outside_references(path.read_text(encoding="utf-8", errors="replace"))
    assert not found, f"{path.relative_to(ROOT)} points outside the repository:\n" + "\n".join(found[:10])


@pytest.mark.parametrize(
    "source, text", _markdown_sources(), ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else ""
)
def test_every_relative_link_resolves_inside_the_repository(source, text):
    broken = broken_links(source, text)
    assert not broken, f"{source.relative_to(ROOT)} has broken links:\n" + "\n".join(broken)


def test_the_readme_links_the_interface_page_and_the_page_covers_every_operation():
    assert "docs/interface.md" in links((ROOT / "README.md").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "interface.md").read_text(encoding="utf-8")
    document = json.loads((ROOT / "regkit" / "schema" / "openapi.json").read_text(encoding="utf-8"))
    operations = [
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    ]
    assert operations
    missing = [op for op in operations if f"`{op}" not in page]
    assert not missing, f"docs/interface.md does not describe {missing} (from regkit/schema/openapi.json)"


def test_the_checks_catch_what_they_are_meant_to(tmp_path):
    # The scanner: a sibling checkout, a machine path, a file URL, a Windows path; but not /tmp or API paths.
    for bad in (
        "see ../shared/spec/service-interface.md",
        "open /work/shared/spec/x.md",
        "/home/ann/regkit/data",
        "file:///etc/hosts",
        r"C:\Users\ann\data",
    ):
        assert outside_references(bad), bad
    for fine in (
        "GET /v1/company/{company_id}",
        "state_path='/tmp/state.sqlite'",
        "cache=~/regkit-cache",
        "https://api.openregister.de",
        "data/README.md",
    ):
        assert not outside_references(fine), fine
    # The link checker, on a file inside the repository.
    page = ROOT / "docs" / "page.md"
    text = (
        "# Top\n[ok](../README.md) [ok anchor](../README.md#set-up) [url](https://example.org) [self](#top)\n"
        "[gone](missing.md) [up](../../shared/spec/service-interface.md) [abs](/etc/hosts) "
        "[bad anchor](../README.md#no-such-heading) [bad self](#bottom)\n```\n[in code](ignored.md)\n```\n"
    )
    broken = broken_links(page, text)
    assert [b.split(":")[0] for b in broken] == [
        "missing.md",
        "../../shared/spec/service-interface.md",
        "/etc/hosts",
        "../README.md#no-such-heading",
        "#bottom",
    ]
    assert anchors("# Company (CompanyV1)\n## Get company\n## Get company\n") == {
        "company-companyv1",
        "get-company",
        "get-company-1",
    }
