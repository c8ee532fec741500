"""The client's CLI commands: output formats, and one clear line on stderr when something fails."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

import pytest
from cli_support import cli_runner, regkit_run, shell_env

from regkit.client.cli import commands as cli


@pytest.fixture
def run(register: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> Any:
    """Run ``regkit <argv>`` against the in-process test register; returns (status, stdout, stderr)."""
    return cli_runner(register, monkeypatch, capsys)


def test_company_json_and_table(run: Any, world: Any) -> None:
    cid = next(iter(world.companies))
    status, out, _ = run("company", cid, "--format", "json")
    assert status == 0 and json.loads(out)["id"] == cid
    status, out, _ = run("company", cid)
    assert status == 0 and out.splitlines()[0].split() == ["id", cid]


def test_insolvencies_formats(run: Any) -> None:
    status, out, _ = run(
        "insolvencies", "--filter", "current_status=opened,preliminary", "--limit", "3", "--format", "json"
    )
    rows = json.loads(out)
    assert status == 0 and len(rows) == 3 and {r["current_status"] for r in rows} <= {"opened", "preliminary"}
    status, out, _ = run("insolvencies", "-f", "opened_at=2020-01-01..", "--limit", "5", "--format", "csv")
    assert status == 0 and out.splitlines()[0].startswith("id,") and len(out.splitlines()) == 6
    status, out, _ = run("insolvencies", "--query", "zzzzqqqq-no-such-debtor")
    assert status == 0 and "(no results)" in out


def test_credits_and_cache(run: Any, world: Any) -> None:
    run("company", next(iter(world.companies)))
    status, out, _ = run("credits")
    assert status == 0 and "used_credits: 10" in out
    status, out, _ = run("cache", "info")
    assert status == 0 and "responses: 1" in out
    status, out, _ = run("cache", "clear")
    assert status == 0 and "deleted 1 answer(s) from" in out
    assert "responses: 0" in run("cache", "info")[1]


def test_cache_clear_older_than_keeps_what_is_younger(run: Any, world: Any) -> None:
    from datetime import datetime, timedelta, timezone

    from regkit.client.cache.client_cache import ClientCache, open_backend
    from regkit.client.cache.policy import CachePolicy

    old, young = list(world.companies)[:2]
    run("company", old)
    run("company", young)
    backend = open_backend("sqlite")  # the cache the commands used (REGKIT_CACHE_DIR of the test)
    assert backend is not None and len(backend.responses) == 2
    for key in list(backend.responses.keys()):
        response = backend.responses[key]
        if old in response.url:  # cached 40 days ago
            response.created_at = datetime.now(timezone.utc) - timedelta(days=40)
            backend.responses[key] = response
    status, out, _ = run("cache", "clear", "--older-than", "30d")
    assert status == 0 and "deleted 1 answer(s) cached more than 30 days ago" in out
    remaining = [backend.responses[k].url for k in backend.responses.keys()]
    assert len(remaining) == 1 and young in remaining[0]
    assert ClientCache(backend, CachePolicy()).clear() == 1


@pytest.mark.parametrize("age", ["30", "0d", "3y", "-2d", "thirty days"])
def test_cache_clear_older_than_refuses_what_is_not_an_age(run: Any, age: str) -> None:
    with pytest.raises(SystemExit):
        run("cache", "clear", "--older-than", age)


def test_older_than_goes_with_clear(run: Any) -> None:
    status, _, err = run("cache", "info", "--older-than", "30d")
    assert status != 0 and "regkit cache clear --older-than 30d" in err


@pytest.mark.parametrize(
    ("argv", "status", "fragment"),
    [
        (("company", "DE-HRB-nope"), 2, "not a company identifier"),
        (("company", "DE-HRB-B1234-999999999"), 1, "404 company_not_found"),
        (("insolvencies", "--filter", "court"), 2, "not FIELD=VALUE"),
        (("insolvencies", "--filter", "colour=red"), 2, "unknown filter field"),
        (("company", "DE-HRB-B1234-1", "--offline"), 1, "offline mode"),
    ],
)
def test_errors_are_one_line_on_stderr(run: Any, argv: tuple, status: int, fragment: str) -> None:
    code, out, err = run(*argv)
    assert code == status and out == "" and fragment in err
    assert err.count("\n") == 1 and err.startswith("regkit: error: ")


def test_offline_advice_is_for_a_shell_user(run: Any) -> None:
    _, _, err = run("company", "DE-HRB-B1234-1", "--offline")
    assert "without --offline" in err and "client.cache" not in err


def test_company_table_shows_nested_members_in_full(run: Any, world: Any) -> None:
    cid = next(
        c
        for c, rec in world.companies.items()
        if len(rec["names"]) > 1 and len(rec["representation"]) > 2 and len(rec["purpose"]["purpose"]) > 150
    )
    company = world.companies[cid]
    status, out, _ = run("company", cid, "--format", "table")
    text = " ".join(out.split())
    assert status == 0 and "{" not in out  # no JSON
    assert company["purpose"]["purpose"] in text  # long text is wrapped, not cut
    for entry in company["names"]:
        assert f"- name: {entry['name']}, legal_form: {entry['legal_form']}" in text
    for entry in company["representation"]:
        assert f"name: {entry['name']}" in text and f"role: {entry['role']}" in text
    counts = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line and not line[0].isspace()}
    assert counts["names"] == [str(len(company["names"])), "entries"]
    single = next(k for k in ("registers", "addresses", "purposes") if len(company[k]) == 1)
    assert counts[single] == ["1", "entry"]


def test_insolvencies_table_says_why_each_row_matched(run: Any) -> None:
    status, out, _ = run("insolvencies", "--query", "kühnl", "--limit", "40", "--format", "table")
    lines = out.splitlines()
    assert status == 0 and "matched" in lines[0].split()
    rows = json.loads(run("insolvencies", "--query", "kühnl", "--limit", "40", "--format", "json")[1])
    assert len(rows) == len(lines) - 1 > 5
    via_others = [r for r in rows if "kühnl" not in r["debtor_name"].lower()]
    assert via_others, "the world has proceedings found through their administrator or court"
    for row, line in zip(rows, lines[1:]):
        if "kühnl" in row["debtor_name"].lower():
            assert " debtor " in line
        if "kühnl" in (row.get("administrator_name") or "").lower():
            assert f"administrator: {row['administrator_name']}" in line
        assert "NaN" not in line


def test_add_commands_registers_on_any_subparsers() -> None:
    parser = argparse.ArgumentParser(prog="regkit")
    cli.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["company", "DE-HRB-B1234-1", "--realtime", "--format", "json"])
    assert args.handler is cli.company and args.realtime and args.format == "json"
    assert parser.parse_args(["cache", "info"]).handler is cli.cache


def test_the_regkit_command_runs_the_client_commands(run: Any, capsys: pytest.CaptureFixture) -> None:
    from regkit.cli import main

    assert main(["credits"]) == 0
    assert "remaining_credits:" in capsys.readouterr().out


def test_limit_must_be_at_least_one(run: Any) -> None:
    with pytest.raises(SystemExit) as stopped:
        run("insolvencies", "--limit", "0")
    assert stopped.value.code == 2


def test_csv_cells_holding_lists_are_json(run: Any) -> None:
    import csv
    import io

    status, out, _ = run("insolvencies", "-f", "current_status=opened", "--limit", "5", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and rows
    for row in rows:
        assert isinstance(json.loads(row["insolvency_grounds"]), list)


def test_budget_advice_is_for_a_shell_user(run: Any, world: Any) -> None:
    code, _, err = run("company", next(iter(world.companies)), "--budget", "5")
    assert code == 1 and "raise --budget" in err and "Client(" not in err


def test_a_state_file_that_is_not_a_register_is_one_line(tmp_path: Any) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n")
    done = regkit_run("credits", env=shell_env(tmp_path, REGKIT_LOCAL_STATE=str(tmp_path / "notes.txt")))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("regkit: error: the bundled register's state file")
    assert "REGKIT_LOCAL_STATE=" in done.stderr


def test_a_cache_directory_that_cannot_be_made_names_the_variable(tmp_path: Any) -> None:
    (tmp_path / "file").write_text("")
    done = regkit_run("credits", env=shell_env(tmp_path, REGKIT_CACHE_DIR=str(tmp_path / "file" / "cache")))
    assert done.returncode == 2 and "Traceback" not in done.stderr and "REGKIT_CACHE_DIR" in done.stderr


def test_an_out_path_that_is_a_file_is_one_line(tmp_path: Any) -> None:
    (tmp_path / "taken").write_text("")
    done = regkit_run("world", "build", "--companies", "50", "--out", str(tmp_path / "taken"), env=shell_env(tmp_path))
    assert done.returncode == 1 and "Traceback" not in done.stderr and str(tmp_path / "taken") in done.stderr


def test_a_reader_that_goes_away_is_no_error(tmp_path: Any) -> None:
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "regkit", "insolvencies", "--limit", "100", "--format", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=shell_env(tmp_path),
    )
    assert process.stdout is not None and process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    err = process.stderr.read().decode() if process.stderr else ""
    process.wait(timeout=120)
    assert "Broken pipe" not in err and "Traceback" not in err


def _words(name: str) -> list[str]:
    """A name's words as the search compares them: case and German spelling folded (ä/ae, ö/oe, ü/ue, ß/ss)."""
    folded = name.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    return re.findall(r"\w+", folded)


@pytest.mark.slow
def test_search_takes_the_words_unquoted(tmp_path: Any, world: Any) -> None:
    env = shell_env(tmp_path)
    unquoted = regkit_run("search", "Waldstein", "Holding", "--per-page", "100", "--format", "json", env=env)
    quoted = regkit_run("search", "Waldstein Holding", "--per-page", "100", "--format", "json", env=env)
    assert unquoted.returncode == 0 and "usage:" not in unquoted.stderr
    assert json.loads(unquoted.stdout)["results"] == json.loads(quoted.stdout)["results"]
    # the world's companies with both words in a current or former name (the last word a prefix, as documented)
    expected = {
        cid
        for cid, company in world.companies.items()
        for name in [company["name"]["name"], *(n["name"] for n in company.get("names") or [])]
        if "waldstein" in _words(name) and any(w.startswith("holding") for w in _words(name))
    }
    assert "DE-HRB-X1517-62135KI" in expected
    assert {r["company_id"] for r in json.loads(unquoted.stdout)["results"]} == expected
    table = regkit_run("search", "Waldstein", "Holding", env=env)
    assert table.returncode == 0 and "Waldstein Holding GmbH" in table.stdout


@pytest.mark.slow
def test_insolvencies_take_the_words_of_a_query_unquoted(tmp_path: Any) -> None:
    env = shell_env(tmp_path)
    unquoted = regkit_run("insolvencies", "--query", "müller", "gmbh", "--limit", "50", "--format", "json", env=env)
    quoted = regkit_run("insolvencies", "-q", "müller gmbh", "--limit", "50", "--format", "json", env=env)
    assert unquoted.returncode == 0 and json.loads(unquoted.stdout) == json.loads(quoted.stdout) != []


@pytest.mark.slow
def test_search_without_words_is_a_search_by_filters(tmp_path: Any, world: Any) -> None:
    done = regkit_run("search", "-f", "legal_form=se", "--per-page", "100", "--format", "json", env=shell_env(tmp_path))
    expected = {cid for cid, company in world.companies.items() if company["legal_form"] == "se"}
    assert done.returncode == 0 and {r["company_id"] for r in json.loads(done.stdout)["results"]} == expected


@pytest.mark.slow
def test_search_marks_the_companies_whose_holdings_are_cached(tmp_path: Any) -> None:
    env = shell_env(tmp_path)
    top = "DE-HRB-X1517-62135KI"  # Waldstein Holding GmbH (data/README.md)

    def marks() -> dict[str, str]:
        lines = regkit_run("search", "Waldstein", "--per-page", "100", env=env).stdout.splitlines()
        column = lines[0].split().index("holdings_cached")
        return {line.split()[0]: line.split()[-1] for line in lines[1:-1]} if column else {}

    assert set(marks().values()) == {"no"}
    assert regkit_run("holdings", top, env=env).returncode == 0
    after = marks()
    assert after[top] == "yes" and {v for k, v in after.items() if k != top} == {"no"}
