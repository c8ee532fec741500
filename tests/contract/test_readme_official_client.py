"""The README's example of the official client against ``regkit serve`` runs as written."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
_SECTION = "### The official client against the local register"


@pytest.mark.serve
def test_readme_example_runs_against_regkit_serve(
    start_register: Callable[..., Any], capsys: pytest.CaptureFixture
) -> None:
    section = README.read_text(encoding="utf-8").split(_SECTION, 1)[1].split("\n## ", 1)[0]
    serve_line = re.search(r"^regkit serve (.*?)\s*$", section, flags=re.M).group(1).split()
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    # The README's own options, but on a free port instead of 8080.
    options = [o for o in serve_line if o not in ("--port", "8080")]
    served = start_register(*options)
    code = code.replace("http://127.0.0.1:8080", served.url)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(README), "exec"), namespace)  # the README's own example
    assert capsys.readouterr().out.strip() == "company_not_found"
    assert namespace["company"].id == "DE-HRB-R3101-94644"
    assert namespace["extract"].status in ("completed", "failed")
    assert namespace["proceeding"].events
    credits = namespace["client"].usage.get_credits_v1()
    assert credits.used_credits > 0
