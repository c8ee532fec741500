"""Costs are shown before paying: every call that sends more than one request writes one line on stderr with what it
is about to pay, before it pays it, with no logging set up (issue 40); ``quiet=True`` and ``REGKIT_QUIET=1`` keep
it off stderr.

A recording stderr notes, for each line written, what the client had spent at that moment: the cost line must come
while nothing of the call was paid yet, and say what the call then paid.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import regkit
from regkit.graph import climb


class _Recorder:
    """A stderr that remembers each line with the client's spending when it was written."""

    def __init__(self) -> None:
        self.client: Any = None
        self.lines: list[tuple[str, int]] = []

    def write(self, text: str) -> int:
        spent = self.client.credits_spent if self.client is not None else -1
        self.lines.extend((line, spent) for line in text.splitlines() if line.strip())
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def costs(self) -> list[tuple[str, int]]:
        return [(line, spent) for line, spent in self.lines if line.startswith("regkit: ")]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> _Recorder:
    """The recorder; :meth:`_Recorder.client` set by the test. pytest puts its own capture back on ``sys.stderr``
    when the test starts, so each test puts the recorder in place as its first step (``listen``)."""
    monkeypatch.delenv("REGKIT_QUIET", raising=False)
    return _Recorder()


def listen(recorder: _Recorder, client: Any) -> None:
    recorder.client = client
    sys.stderr = recorder  # undone by pytest's capture after the test


def _credits(line: str) -> int:
    found = re.search(r"→ (?:up to )?(\d+) credits", line) or re.search(r"= (\d+) credits", line)
    assert found is not None, line
    return int(found.group(1))


def test_a_bulk_lookup_says_its_cost_before_paying(recorded: _Recorder, world: Any) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    ids = list(world.companies)[:5]
    client.get_companies(ids[:2], progress=False)
    recorded.lines.clear()
    client.get_companies(ids, progress=False)
    [(line, spent_then)] = recorded.costs()
    assert line == "regkit: get_companies: 3 companies to fetch (2 cached) → 30 credits at most"
    assert spent_then == 20 and client.credits_spent - spent_then == _credits(line)  # said first, then paid
    recorded.lines.clear()
    client.get_companies(ids, progress=False)  # all cached: nothing to pay, nothing said
    assert recorded.costs() == []


def test_a_paged_search_says_the_cost_of_the_rest_before_fetching_it(recorded: _Recorder) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    results = client.search_all_companies("gmbh", limit=250, progress=False)
    [(line, spent_then)] = recorded.costs()
    assert line.startswith(f"regkit: search_all_companies: 250 wanted of {results.total_results} results: 2 more pages")
    assert spent_then == 10 and client.credits_spent - spent_then == _credits(line) == 20


def test_a_crawl_and_a_climb_say_each_level_before_paying_it(recorded: _Recorder) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    found = climb(client, "DE-HRB-M1906-110356")
    levels = recorded.costs()
    assert [line for line, _ in levels] == [
        f"regkit: climb: level {n}: {node} → 10 credits" for n, node in enumerate(found.chain)
    ]
    assert [spent for _, spent in levels] == [0, 10, 20]  # each said before it was paid

    told: list[Any] = []  # the same crawl's level estimates, handed to a callback by a client of its own
    regkit.crawl(
        regkit.Client(cache="memory", quiet=True),
        "DE-HRB-X1517-62135KI",
        depth=6,
        direction="down",
        progress=False,
        callback=told.append,
    )
    crawler = regkit.Client(cache="memory")
    listen(recorded, crawler)
    recorded.lines.clear()
    G = regkit.crawl(crawler, "DE-HRB-X1517-62135KI", depth=6, direction="down", progress=False)
    levels = recorded.costs()
    assert [line for line, _ in levels] == [f"regkit: crawl: {plan}" for plan in told if plan.estimated_credits]
    paid = [row["spent_credits"] for row in G.graph["crawl"].rows if row["spent_credits"]]
    assert [spent for _, spent in levels] == [sum(paid[:n]) for n in range(len(paid))]  # before each level
    assert [_credits(line) for line, _ in levels] == paid  # and each level paid what its line said


def test_a_callback_is_handed_the_estimate_instead(recorded: _Recorder) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    told: list[Any] = []
    regkit.crawl(client, "DE-HRB-X1517-62135KI", depth=1, direction="down", progress=False, callback=told.append)
    climb(client, "DE-HRB-M1906-110356", callback=told.append)
    assert recorded.costs() == [] and len(told) == 3  # two crawl levels and the climb's estimate, no line twice


def test_a_search_whose_pages_are_cached_says_nothing(recorded: _Recorder) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    client.search_all_companies("gmbh", limit=250, progress=False)
    recorded.lines.clear()
    client.search_all_companies("gmbh", limit=250, progress=False)  # every page cached: nothing to pay
    assert recorded.costs() == []


def test_a_paid_download_says_its_cost_first(recorded: _Recorder, tmp_path: Path) -> None:
    client = regkit.Client(cache="memory")
    listen(recorded, client)
    files = client.download([("DE-HRB-X1112-75364FL", "current_printout")], tmp_path)
    [(line, spent_then)] = recorded.costs()
    assert line.startswith("regkit: download: 1 document: 0 kept, 0 free, 1 × 20 = 20 credits")
    assert spent_then == 0 and files.credits == 20


def test_quiet_and_the_environment_variable_keep_stderr_clean(
    recorded: _Recorder, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = list(world.companies)[:3]
    quiet = regkit.Client(cache="memory", quiet=True)
    listen(recorded, quiet)
    quiet.get_companies(ids, progress=False)
    monkeypatch.setenv("REGKIT_QUIET", "1")
    regkit.Client(cache="memory").get_companies(ids, progress=False)
    assert recorded.costs() == []
    monkeypatch.setenv("REGKIT_QUIET", "0")
    regkit.Client(cache="memory").get_companies(ids, progress=False)
    assert len(recorded.costs()) == 1


def test_the_line_is_logged_too(world: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="regkit.client.spending"), warnings.catch_warnings():
        regkit.Client(cache="memory", quiet=True).get_companies(list(world.companies)[:2], progress=False)
    assert "get_companies: 2 companies to fetch (0 cached) → 20 credits at most" in caplog.text
