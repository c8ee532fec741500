"""The README's first-session example runs as written, against the bundled local register."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[2] / "README.md"


def test_first_session_example_runs(tmp_path, monkeypatch, capsys):
    # The suite's isolation (tests/conftest.py) keeps the cache and register state in a temporary directory; the
    # example's downloads go to ./documents, here in another one.
    monkeypatch.chdir(tmp_path)
    section = README.read_text(encoding="utf-8").split("## A first session", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    namespace: dict = {}
    said = io.StringIO()
    monkeypatch.setattr(sys, "stderr", said)  # as a terminal or a notebook cell shows it
    exec(compile(code, str(README), "exec"), namespace)  # the README's own example
    client = namespace["client"]
    # Each paid multi-request call said its cost first, with no logging set up (issue 40).
    lines = [line for line in said.getvalue().splitlines() if line.startswith("regkit: ")]
    assert "regkit: get_companies: 2 companies to fetch (0 cached) → 20 credits at most" in lines
    assert "climb from DE-HRB-M1906-110356:" in capsys.readouterr().out  # callback=print: the estimate, printed
    assert any(line.startswith("regkit: crawl: level 1: ") for line in lines)
    assert any(line.startswith("regkit: download: 1 document: 0 kept, 0 free, 1 × 20 = 20 credits") for line in lines)
    assert client.credits_spent == int(client.get_credits()["used_credits"])
    assert namespace["G"].number_of_nodes() > 0
    printout, lists = namespace["printout"], namespace["lists"]
    assert [f.path.name for f in printout] == ["DE-HRB-X1112-75364FL_current_printout_2026-06-30.pdf"]
    assert printout[0].credits == 20 and (tmp_path / "documents" / printout[0].path.name).stat().st_size > 0
    assert len(lists) >= 2 and all(f.credits == 0 for f in namespace["filed"])
    table = namespace["regkit"].frames.shareholder_list(lists[-1].path)
    current = namespace["client"].get_owners("DE-HRB-X1112-75364FL").to_dataframe()
    assert sorted(table["holder_name"]) == sorted(current["holder_name"])
    assert not namespace["fin"].indicators().empty and len(namespace["fin"].indicators().columns) > 48
    opened = namespace["opened"]
    assert len(opened) == opened.total_results > 0 and opened.pages >= 1
    spent = client.credits_spent
    assert client.estimate_search_cost("müller", {"debtor_kind": "natural_person"}, per_page=20) == 0  # cached
    assert client.estimate_search_cost("müller") == 10 and client.credits_spent == spent  # another page; nothing sent
    # Watching companies (issue 43): the webhooks of a quarter, and a refresh that pays for exactly what they named.
    events, changed, group = namespace["read_events"]("events.sqlite"), namespace["changed"], namespace["group"]
    assert len(events) and set(events["entity_id"]) <= set(group)
    # each refreshed member costs its record and, as it files reports, its financials
    assert sorted(changed.refreshed) == sorted(set(events["entity_id"])) and changed.credits == 20 * len(
        changed.refreshed
    )
    announced = set(zip(events["entity_id"], events["kind"]))
    assert announced <= set(zip(changed.changes["entity_id"], changed.changes["kind"]))
    assert namespace["rehearsal"].today.isoformat() == "2026-09-29"
    namespace["hooks"].stop()
    namespace["rehearsal"].close()
