"""The CLI as a person uses it (issue 40, "Stop means stop"): a register entry is suggested as an id, never fetched;
a table shows no presigned link; ``regkit search`` without words or filters is refused; every command that can spend
says what it spent on stderr (``--quiet``, ``regkit -q`` or ``REGKIT_QUIET=1`` leave it out); progress bars only
on a terminal.

Expected ids come from the world (``data/``) and the bundled court list, credits from the register's own account.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest
from cli_support import cli_runner, regkit_run, shell_env
from research_support import holdings_by_holder, pick_group_holder, positions_by_person

from regkit.client.transport.target import DEMO_API_KEY
from regkit.local.world import default_data_dir

#: ``regkit: 10 credits spent; 1 answer fetched, 0 from the cache (… saved); 90 of --budget 100 left``
SPENT = re.compile(
    r"^regkit: (?P<spent>[\d,]+) credits? spent; (?P<fetched>[\d,]+) answers? fetched, (?P<cached>[\d,]+) from the "
    r"cache(?: \((?P<saved>[\d,]+) credits? saved\))?(?:; (?P<left>[\d,]+) of --budget (?P<budget>[\d,]+) left)?$"
)


@pytest.fixture
def run(register: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> Any:
    """Run ``regkit <argv>`` against the in-process test register; returns (status, stdout, stderr)."""
    return cli_runner(register, monkeypatch, capsys)


def _used(register: Any) -> int:
    """Credits the register itself counts as used by the CLI's key (asked without any client)."""
    answer = register.session(DEMO_API_KEY).get(f"{register.base_url}/v1/credits")
    return int(answer.json()["used_credits"])


def _spent(err: str) -> dict[str, int]:
    """The spending line: the last line of stderr, as numbers."""
    match = SPENT.match(err.splitlines()[-1])
    assert match, f"no spending line at the end of stderr: {err!r}"
    return {k: int(v.replace(",", "")) for k, v in match.groupdict().items() if v is not None}


def _entry(company: dict[str, Any]) -> str:
    """A register entry as people write it, from the world's record: ``HRB 62135 KI Amtsgericht Kiel``."""
    register = company["register"]
    return f"{register['register_type']} {register['register_number']} {register['register_court']}"


# -- a register entry is suggested, not fetched --------------------------------------------------


def test_a_register_entry_is_suggested_as_its_id_and_nothing_is_sent(run: Any, world: Any, register: Any) -> None:
    by_type: dict[str, str] = {}
    for cid in sorted(world.companies):
        by_type.setdefault(world.companies[cid]["register"]["register_type"], cid)
    assert set(by_type) == {"HRB", "HRA", "GnR", "VR", "PR"}
    for command, cid in [*(("company", c) for c in by_type.values()), ("owners", by_type["HRB"])]:
        status, out, err = run(command, _entry(world.companies[cid]))
        assert status == 2 and out == "" and err.count("\n") == 1, err
        assert f"did you mean {cid} " in err and f"run: regkit {command} {cid} " in err
    status, _, err = run("holdings", _entry(world.companies[by_type["HRA"]]))
    assert status == 2 and f"run: regkit holdings {by_type['HRA']} " in err
    assert register.counter.count() == 0 and _used(register) == 0


def test_an_entry_whose_court_fits_several_lists_each_id(run: Any, register: Any) -> None:
    with (default_data_dir() / "reference" / "register_courts_observed.csv").open(encoding="utf-8") as handle:
        frankfurts = {
            row["code"]
            for row in csv.DictReader(handle)
            if row["name"].startswith("Frankfurt") and row["role"] == "current_registrar"
        }
    assert len(frankfurts) == 2  # Frankfurt am Main and Frankfurt (Oder)
    status, out, err = run("company", "HRB 168089 Frankfurt")
    assert status == 2 and out == "" and err.count("\n") == 1
    for code in frankfurts:
        assert f"DE-HRB-{code}-168089" in err and f"regkit company DE-HRB-{code}-168089" in err
    assert register.counter.count() == 0


@pytest.mark.parametrize(
    ("text", "says"),
    [("HRB 168089", "no register court given"), ("HRB 1 Atlantis", "unknown register court 'Atlantis'")],
)
def test_an_entry_that_names_no_known_court_says_what_to_write(run: Any, register: Any, text: str, says: str) -> None:
    status, out, err = run("owners", text)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert says in err and "regkit owners 'HRB 152955 Darmstadt'" in err and "nothing was sent" in err
    assert "court=" not in err  # said for a shell, not for Python
    assert register.counter.count() == 0


def test_an_id_in_the_wrong_letter_case_is_suggested_as_written(run: Any, register: Any) -> None:
    status, out, err = run("company", "de-hrb-r3101-94644")
    assert status == 2 and out == "" and "ids are case-sensitive; did you mean DE-HRB-R3101-94644?" in err
    assert "run: regkit company DE-HRB-R3101-94644" in err and "152955" not in err  # no unrelated example
    status, out, err = run("holdings", "DE-GNR-R3101-94644")
    assert status == 2 and "did you mean DE-GnR-R3101-94644?" in err
    assert register.counter.count() == 0


def test_a_name_where_an_id_belongs_is_pointed_to_the_search(run: Any, register: Any) -> None:
    status, out, err = run("company", "Siemens AG")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "regkit search Siemens AG" in err and "client." not in err  # said for a shell, not for Python
    assert register.counter.count() == 0


# -- what a table shows --------------------------------------------------------------------------


def test_the_table_shows_no_presigned_link_and_json_keeps_it(run: Any, world: Any) -> None:
    cid = "DE-HRB-X1517-62135KI"  # Waldstein Holding GmbH (data/README.md): two documents
    raw = json.loads(run("company", cid, "--format", "json")[1])
    links = [source["document_url"] for source in raw["sources"]]
    assert links and all("signature=" in link and "expires=" in link for link in links)
    status, out, _ = run("company", cid)
    assert status == 0 and "signature" not in out and "expires=" not in out
    text = " ".join(out.split())
    for link in links:
        assert f"{link.split('?')[0]} (presigned link left out: --format json has it)" in text


# -- search without words ------------------------------------------------------------------------


def test_search_without_words_or_filters_is_refused(run: Any, register: Any) -> None:
    for argv in (("search",), ("search", "--page", "2"), ("search", "--format", "json")):
        status, out, err = run(*argv)
        assert status == 2 and out == "" and err.count("\n") == 1, argv
        assert "regkit search Waldstein Holding" in err and "regkit search -f legal_form=se" in err
    assert register.counter.count() == 0 and _used(register) == 0


# -- what was spent ------------------------------------------------------------------------------


def _spending_commands(world: Any) -> list[tuple[str, ...]]:
    holder, held = pick_group_holder(world)
    person = next(p for p in sorted(positions_by_person(world)))
    assert holder in holdings_by_holder(world)
    return [
        ("company", holder),
        ("owners", held),
        ("holdings", holder),
        ("person", person),
        ("search", "nordstern"),
        ("search", "-f", "legal_form=se", "--format", "csv"),
        ("insolvencies", "--limit", "150", "--format", "json"),
    ]


def test_every_command_that_can_spend_says_what_it_spent(run: Any, world: Any, register: Any) -> None:
    for argv in _spending_commands(world):
        before = _used(register)
        status, out, err = run(*argv)
        paid = _used(register) - before
        assert status == 0 and out and paid > 0, (argv, err)
        assert _spent(err) == {"spent": paid, "fetched": paid // 10, "cached": 0}, argv
        assert "regkit: " not in out  # the spending line is not part of the output
        status, again, err = run(*argv)
        assert status == 0 and again == out and _used(register) == before + paid
        assert _spent(err) == {"spent": 0, "fetched": 0, "cached": paid // 10, "saved": paid}, argv


def test_the_spending_line_says_what_is_left_of_the_budget(run: Any, world: Any, register: Any) -> None:
    status, _, err = run("company", next(iter(world.companies)), "--budget", "1000")
    assert status == 0 and _spent(err) == {"spent": 10, "fetched": 1, "cached": 0, "left": 990, "budget": 1000}


def test_a_command_refused_after_paying_says_what_it_spent(run: Any, register: Any) -> None:
    # the first page is paid; the next ones would cross the budget: refused before they are sent
    status, out, err = run("insolvencies", "--limit", "250", "--budget", "15")
    lines = err.splitlines()
    assert status == 1 and out == "" and len(lines) == 2 and lines[0].startswith("regkit: error: ")
    assert "raise --budget" in lines[0] and _used(register) == 10
    assert _spent(err) == {"spent": 10, "fetched": 1, "cached": 0, "left": 5, "budget": 15}


def test_a_command_refused_before_sending_stays_one_line(run: Any, world: Any, register: Any) -> None:
    status, _, err = run("company", next(iter(world.companies)), "--budget", "5")
    assert status == 1 and err.count("\n") == 1 and register.counter.count() == 0


def test_credits_is_free_and_says_nothing_about_spending(run: Any) -> None:
    status, out, err = run("credits")
    assert status == 0 and "remaining_credits:" in out and err == ""


def test_quiet_leaves_every_line_about_credits_out(
    run: Any, register: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from regkit.cli import main

    # 150 results: the second page's cost is announced before it is paid, unless quiet
    argv = ("insolvencies", "--limit", "150", "--format", "json")
    loud = run(*argv)[2]
    assert "search_all_insolvencies" in loud and _spent(loud)["spent"] == 20
    assert run(*argv, "--quiet")[2] == ""
    assert main(["-q", *argv]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("REGKIT_QUIET", "1")
    assert run(*argv)[2] == ""
    assert _used(register) == 20


# -- in a shell ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_regkit_command_says_what_it_spent(tmp_path: Any) -> None:
    env = shell_env(tmp_path)
    done = regkit_run("company", "DE-HRB-X1517-62135KI", "--budget", "100", env=env)
    assert done.returncode == 0 and "Waldstein Holding GmbH" in done.stdout
    paid = "regkit: 10 credits spent; 1 answer fetched, 0 from the cache; 90 of --budget 100 left"
    assert done.stderr.splitlines()[-1] == paid
    done = regkit_run("company", "DE-HRB-X1517-62135KI", env=env)
    free = "regkit: 0 credits spent; 0 answers fetched, 1 from the cache (10 credits saved)"
    assert done.stderr.splitlines()[-1] == free
    quiet = regkit_run("company", "DE-HRB-X1517-62135KI", env={**env, "REGKIT_QUIET": "1"})
    assert quiet.returncode == 0 and "credits" not in quiet.stderr and quiet.stdout == done.stdout


@pytest.mark.slow
def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Any) -> None:
    done = regkit_run("insolvencies", "--limit", "300", "--format", "csv", env=shell_env(tmp_path))
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 301
    assert "\r" not in done.stderr and "insolvency pages" not in done.stderr
    assert SPENT.match(done.stderr.splitlines()[-1])


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal as Linux has it")
def test_a_progress_bar_on_a_terminal(tmp_path: Any) -> None:
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a terminal 120 columns wide
    process = subprocess.Popen(
        [sys.executable, "-m", "regkit", "insolvencies", "--limit", "300", "--format", "csv"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=shell_env(tmp_path),
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert process.wait(timeout=300) == 0
    assert b"insolvency pages" in seen and b"\r" in seen
