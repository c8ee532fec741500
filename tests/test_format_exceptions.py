"""``ruff format`` decides the layout of every Python file; the exceptions are listed here, with a reason.

A ``# fmt: skip`` / ``# fmt: off`` comment is allowed only where a hand layout carries meaning the formatter would
destroy (an aligned table read column by column), and only at the places :data:`ALLOWED` names.  Squeezing a
statement onto fewer lines is not such a reason: regkit has no line-count goal.  CI runs ``ruff format --check``,
so everything not listed here is formatted by ruff.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
TREES = ("regkit", "tests", "benchmarks", "docs/conf.py", ".ci")

#: ``(path relative to the repository, the statement's first words)`` → why ruff must not lay it out.
#: Empty today: no aligned table in regkit needs it.
ALLOWED: dict[tuple[str, str], str] = {}

DIRECTIVES = ("fmt: skip", "fmt: off", "fmt: on", "yapf: disable")


def format_exceptions(path: Path) -> list[tuple[int, str]]:
    """``(line, source line)`` of every formatter directive in a comment of ``path`` (strings are not comments)."""
    found = []
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and any(d in token.string for d in DIRECTIVES):
            found.append((token.start[0], lines[token.start[0] - 1].strip()))
    return found


def python_files() -> list[Path]:
    files: list[Path] = []
    for tree in TREES:
        path = ROOT / tree
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(p for p in path.rglob("*.py") if "_build" not in p.parts)
    return sorted(files)


def test_the_formatter_lays_out_everything_but_the_listed_tables() -> None:
    files = python_files()
    assert len(files) > 300, "the scan found too few files to mean anything"
    unlisted = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, text in format_exceptions(path):
            if not any(rel == where and text.startswith(start) for where, start in ALLOWED):
                unlisted.append(f"{rel}:{line}  {text}")
    assert not unlisted, (
        "formatter directives outside the allowlist (remove them and run `ruff format`; an aligned table that must "
        "keep its columns goes into tests/test_format_exceptions.py ALLOWED with its reason):\n" + "\n".join(unlisted)
    )


def test_every_listed_exception_is_still_there() -> None:
    for (where, start), reason in ALLOWED.items():
        assert reason, f"{where}: an exception needs its reason"
        texts = [text for _, text in format_exceptions(ROOT / where)]
        assert any(text.startswith(start) for text in texts), f"{where}: {start!r} is allowed but gone: drop the entry"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = [1,  2]  # fmt: skip\n", 1),
        ("# fmt: off\nx = 1\n# fmt: on\n", 2),
        ("text = '# fmt: skip is only a string here'\n", 0),
        ("x = 1  # formatted by ruff\n", 0),
    ],
)
def test_the_scan_finds_directives_in_comments_only(tmp_path: Path, source: str, expected: int) -> None:
    path = tmp_path / "sample.py"
    path.write_text(source, encoding="utf-8")
    assert len(format_exceptions(path)) == expected
