"""The README's first-session example runs as written, against the bundled local register."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[2] / "README.md"


def test_first_session_example_runs():
    # The suite's isolation (tests/conftest.py) keeps the cache and register state in a temporary directory.
    section = README.read_text(encoding="utf-8").split("## A first session", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    namespace: dict = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - the README's own example
    client = namespace["client"]
    assert client.credits_spent == int(client.get_credits()["used_credits"])
    assert namespace["G"].number_of_nodes() > 0
    opened = namespace["opened"]
    assert len(opened) == opened.total_results > 0 and opened.pages >= 1
    spent = client.credits_spent
    assert client.estimate_search_cost("müller", {"debtor_kind": "natural_person"}, per_page=20) == 0  # cached
    assert client.estimate_search_cost("müller") == 10 and client.credits_spent == spent  # another page; nothing sent
