"""``regkit mcp`` as an MCP host runs it: the SDK's own client over a real stdio subprocess and over HTTP.

Every tool is listed with its input schema and called against the sandbox (the bundled world, in the server's
process); a call that would cross the session's budget is refused with nothing sent (the register's own account
says so); a cached answer costs 0; bad input is answered with the client's own message; the key is in no answer
and no log; the server ends with its session, and Ctrl-C ends the HTTP server with nothing left running.
"""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import psutil
import pytest
from mcp_support import HttpServer, answer_of, server_environment, stdio_session
from serve_support import regkit_command, served_register

from regkit.agents.tools import RegisterTools
from regkit.errors import ValidationError

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

PARENT = "DE-HRB-X1517-62135KI"  # Waldstein Holding GmbH, the README's group
MEMBER = "DE-HRB-M1906-110356"  # Waldstein Finanz GmbH, two levels below it
FILER = "DE-HRB-R2103-65834"  # Luxlog Holding AG: seventeen annual reports
LISTS = "DE-HRB-X1112-75364FL"  # shareholder lists filed, beneficial owners known
PERSON = "206c4e82-5281-4943-9344-96bceef6f6b9"  # Herbert Heinz

#: A call of every tool, in an order in which each has what it needs.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("parse_company_id", {"text": "HRB 62135 KI, Amtsgericht Kiel"}),
    ("search_companies", {"query": "Waldstein Holding"}),
    ("autocomplete_companies", {"query": "Waldst"}),
    ("search_persons", {"query": "Herbert Heinz"}),
    ("company_profile", {"company_id": PARENT}),
    ("company_history", {"company_id": PARENT, "history": "representation", "per_page": 2}),
    ("company_documents", {"company_id": PARENT}),
    ("realtime_document", {"company_id": PARENT, "category": "current_printout"}),
    ("financial_indicators", {"company_id": FILER, "years": 3}),
    ("financial_statement", {"company_id": FILER, "year": 2023, "depth": 1}),
    ("owners", {"company_id": MEMBER}),
    ("holdings", {"company_id": PARENT, "per_page": 5}),
    ("beneficial_owners", {"company_id": LISTS}),
    ("ownership_history", {"company_id": LISTS}),
    ("group_parent", {"company_id": MEMBER}),
    ("group_below", {"company_id": PARENT, "depth": 6, "per_page": 30}),
    ("search_insolvencies", {"query": "müller", "per_page": 2}),
    ("insolvency", {"insolvency_id": "ffc16ed4-3e03-4e4e-98b8-2133472a061f"}),
    ("person", {"person_id": PERSON}),
    ("person_holdings", {"person_id": PERSON}),
    ("changes", {"entity_id": PARENT}),
    ("watchlist_estimate", {"name": "waldstein", "companies": [PARENT, MEMBER], "categories": ["basic"]}),
    ("watchlist_refresh", {"name": "waldstein"}),
    ("session_credits", {"last": 5}),
]


def _credits(answer: dict[str, Any]) -> int:
    return int(answer["cost"].split()[0])


async def _call(session: Any, name: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await session.call_tool(name, arguments)
    return bool(result.is_error), answer_of(result)


async def test_every_tool_is_listed_with_its_schema_and_answers_over_stdio(tmp_path: Path) -> None:
    assert {name for name, _ in CALLS} == set(RegisterTools.NAMES)
    async with stdio_session(tmp_path) as session:  # the sandbox's default budget: 1,000 credits
        listed = (await session.list_tools()).tools
        assert [tool.name for tool in listed] == list(RegisterTools.NAMES)
        for tool in listed:
            assert tool.input_schema["type"] == "object" and tool.description, tool.name
            assert "credits" in tool.description or "free" in tool.description.lower(), tool.name  # says its price
        profile = next(tool for tool in listed if tool.name == "company_profile").input_schema
        assert profile["required"] == ["company_id"] and "DE-" in profile["properties"]["company_id"]["description"]
        answers: dict[str, dict[str, Any]] = {}
        spent = 0
        for name, arguments in CALLS:
            failed, answer = await _call(session, name, arguments)
            assert not failed, (name, answer)
            assert next(iter(answer)) == "cost", answer  # the cost line comes first
            spent += _credits(answer)
            assert f"session {spent} of 1000 spent, {1000 - spent} left" in answer["cost"], (name, answer["cost"])
            answers[name] = answer
        assert answers["parse_company_id"]["company_id"] == PARENT
        assert [r["company_id"] for r in answers["search_companies"]["items"]] == [PARENT]
        assert _credits(answers["company_history"]) == 0  # the profile's lookup, cached
        assert [row[0] for row in answers["financial_statement"]["aktiva"]][0].startswith("A. ")
        assert answers["financial_statement"]["period"] == {"from": "2023-01-01", "to": "2023-12-31"}
        chain = [step["company_id"] for step in answers["group_parent"]["chain"]]
        assert chain[0] == MEMBER and answers["group_parent"]["ultimate_parent"] == PARENT == chain[-1]
        below = answers["group_below"]
        assert "stopped" not in below and below["subsidiaries"]["total"] == 23  # the README's group, whole, within it
        assert MEMBER in {row["company_id"] for row in below["subsidiaries"]["items"]}
        session_answer = answers["session_credits"]
        assert session_answer["session"] == {"budget": 1000, "spent": spent, "left": 1000 - spent}
        assert session_answer["account"]["used"] == spent  # the register's own account of what was charged
        templates = (await session.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["regkit://company/{company_id}"]
        [content] = (await session.read_resource(f"regkit://company/{PARENT}")).contents
        assert json.loads(content.text)["name"] == "Waldstein Holding GmbH"
        prompts = {prompt.name for prompt in (await session.list_prompts()).prompts}
        assert prompts == {"map_group", "due_diligence", "what_changed"}
        asked = await session.get_prompt("due_diligence", {"company": "Waldstein Finanz GmbH"})
        assert "Waldstein Finanz GmbH" in asked.messages[0].content.text


async def test_the_answers_are_the_clients_in_fewer_words(tmp_path: Path) -> None:
    """The compact answers say what the client's answers say: the same owners with their shares in percent, the
    same holdings (a fraction there) in percent, the same indicators in euros."""
    import regkit

    client = regkit.Client(cache="memory", quiet=True)
    async with stdio_session(tmp_path) as session:
        _, owners = await _call(session, "owners", {"company_id": MEMBER})
        _, holdings = await _call(session, "holdings", {"company_id": PARENT, "per_page": 100})
        _, indicators = await _call(session, "financial_indicators", {"company_id": FILER, "years": 1})
    raw_owners = client.get_owners(MEMBER).raw["owners"]
    assert [(o["id"], o["share"]) for o in owners["owners"]] == [
        (o["id"], f"{o['percentage_share']:g} %") for o in raw_owners
    ]
    raw_holdings = client.get_holdings(PARENT).raw["holdings"]
    assert {h["company_id"]: h["share"] for h in holdings["items"]} == {
        h["company_id"]: f"{round(h['percentage_share'] * 100, 2):g} %" for h in raw_holdings
    }
    latest = max(client.get_financials(FILER).raw["indicators"], key=lambda entry: entry["date"])
    [row] = indicators["indicators"]
    assert row["fiscal_year_end"] == latest["date"]
    assert row["revenue"] == f"{round(latest['revenue'] / 100):,} EUR"


async def test_a_call_that_would_cross_the_budget_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    async with stdio_session(tmp_path, "--budget", "25") as session:
        failed, first = await _call(session, "company_profile", {"company_id": PARENT})
        assert not failed and _credits(first) == 10
        failed, again = await _call(session, "company_profile", {"company_id": PARENT})
        assert not failed and _credits(again) == 0 and "1 from the cache" in again["cost"]
        failed, second = await _call(session, "company_profile", {"company_id": MEMBER})
        assert not failed and "session 20 of 25 spent, 5 left" in second["cost"]
        failed, refused = await _call(session, "company_profile", {"company_id": FILER})
        assert failed and refused["error"] == "refused"
        assert "could cost 10 credits" in refused["message"] and "5 of its 25 left" in refused["message"]
        assert "nothing was sent" in refused["message"] and "0 sent" in refused["cost"]
        failed, bounded = await _call(session, "group_below", {"company_id": PARENT, "max_companies": 3})
        assert failed and "could cost 60 credits" in bounded["message"]  # refused up front on its bound
        failed, walked = await _call(session, "group_below", {"company_id": PARENT})
        assert failed and walked["error"] == "refused"
        assert "stopped before level 0: it needed 10 credits and 5 are left" in walked["message"]
        failed, climbed = await _call(session, "group_parent", {"company_id": FILER})
        assert failed and climbed["error"] == "refused" and "could cost 10 credits" in climbed["message"]
        failed, account = await _call(session, "session_credits", {})
    assert account["session"] == {"budget": 25, "spent": 20, "left": 5}
    assert account["account"]["used"] == 20  # the register charged the two lookups and nothing else


async def test_bad_input_is_answered_with_the_clients_message(tmp_path: Path) -> None:
    import regkit

    with pytest.raises(ValidationError) as malformed:
        regkit.Client(cache="memory", quiet=True).get_company("HRB 12")
    with pytest.raises(ValidationError) as unknown_filter:
        regkit.Client(cache="memory", quiet=True).search_companies("x", {"colour": "red"})
    async with stdio_session(tmp_path) as session:
        failed, answer = await _call(session, "company_profile", {"company_id": "HRB 12"})
        assert failed and answer["error"] == "invalid input" and answer["message"] == str(malformed.value)
        failed, answer = await _call(session, "search_companies", {"query": "x", "filters": {"colour": "red"}})
        assert failed and answer["message"] == str(unknown_filter.value)
        failed, answer = await _call(session, "company_history", {"company_id": PARENT, "history": "wives"})
        assert failed and "history must be one of names, addresses" in answer["message"]
        result = await session.call_tool("holdings", {"company_id": PARENT, "page": 0})  # the schema's own check
        assert result.is_error
        failed, account = await _call(session, "session_credits", {})
    assert account["session"]["spent"] == 0 and account["account"]["used"] == 0


async def test_no_key_in_any_answer_or_log(tmp_path: Path) -> None:
    """Against a register with a key (``regkit serve``, the key in ``REGKIT_API_KEY``), every tool's answer, the
    tool list and the server's log leave the key out."""
    key = "demo-paid"
    with served_register(tmp_path / "serve", "--rate-limit", "0") as served:
        environment = server_environment(tmp_path, REGKIT_API_KEY=key, REGKIT_BASE_URL=served.url)
        texts = []
        async with stdio_session(tmp_path, "--budget", "2000", env=environment) as session:
            texts.append(json.dumps([tool.model_dump() for tool in (await session.list_tools()).tools]))
            for name, arguments in CALLS:
                result = await session.call_tool(name, arguments)
                texts.append(result.content[0].text)
            failed, account = await _call(session, "session_credits", {})
    assert not failed and account["serving"] == f"server at {served.url}"  # the key went to the server, nowhere else
    assert account["session"]["spent"] > 0
    written = "\n".join(texts) + (tmp_path / "mcp.err").read_text()
    assert key not in written


async def test_the_server_ends_with_its_stdio_session(tmp_path: Path) -> None:
    async with stdio_session(tmp_path) as session:
        await _call(session, "company_profile", {"company_id": PARENT})
        servers = [p for p in psutil.Process().children(recursive=True) if "mcp" in p.cmdline()]
        assert len(servers) == 1
        spawned = [servers[0], *servers[0].children(recursive=True)]
    gone, alive = psutil.wait_procs(spawned, timeout=10)
    assert alive == []


async def test_over_http_on_loopback_and_ctrl_c_leaves_nothing_running(tmp_path: Path) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    server = HttpServer(tmp_path)
    try:
        process = psutil.Process(server.process.pid)
        listening = [c.laddr for c in process.net_connections() if c.status == psutil.CONN_LISTEN]
        assert [(address.ip, address.port) for address in listening] == [("127.0.0.1", server.port)]
        async with streamable_http_client(server.url) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            assert [tool.name for tool in (await session.list_tools()).tools] == list(RegisterTools.NAMES)
            for name, arguments in CALLS:  # every tool, over HTTP too
                failed, answer = await _call(session, name, arguments)
                assert not failed, (name, answer)
            failed, again = await _call(session, "company_profile", {"company_id": PARENT})
            assert not failed and _credits(again) == 0
        spawned = [process, *process.children(recursive=True)]
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=15) == 130
        gone, alive = psutil.wait_procs(spawned, timeout=10)
        assert alive == []
        assert "regkit mcp: stopped" in server.err.read_text()
    finally:
        server.stop()


async def test_the_documented_host_configuration_starts_the_server(tmp_path: Path) -> None:
    """docs/guide/agents.md's JSON snippet, as written, is a configuration an MCP host can start the server from."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    text = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "agents.md").read_text(encoding="utf-8")
    [snippet] = re.findall(r"```json\n(.*?)\n```", text, flags=re.DOTALL)
    entry = json.loads(snippet)["mcpServers"]["regkit"]
    assert entry["command"] == "regkit" and entry["args"][0] == "mcp"
    command = regkit_command()  # the console script the snippet names, beside this Python

    environment = {**server_environment(tmp_path), **entry.get("env", {})}
    parameters = StdioServerParameters(command=command[0], args=[*command[1:], *entry["args"]], env=environment)
    with (tmp_path / "host.err").open("w") as errors:
        async with stdio_client(parameters, errlog=errors) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = [tool.name for tool in (await session.list_tools()).tools]
    assert listed == list(RegisterTools.NAMES)
    assert "session budget 1000 credits" in (tmp_path / "host.err").read_text()  # the sandbox's, stated at start


async def test_a_sandbox_on_a_world_moved_on_in_time(tmp_path: Path) -> None:
    """``--state`` names a register whose clock was advanced (``regkit local advance``): the sandbox serves that day's
    world, and says which day it is."""
    from regkit.local import open_local_register
    from regkit.local.world import read_world
    from regkit.local.world.continuation import Continuation

    state = tmp_path / "moved-on.sqlite"
    register = open_local_register(state_path=state)
    try:
        today = register.advance(120)
    finally:
        register.close()
    continuation = Continuation.of_world(read_world())
    renamed = next(e for e in continuation.events(continuation.as_of, today) if e.kind == "name_changed")
    async with stdio_session(tmp_path, "--state", str(state)) as session:
        failed, profile = await _call(session, "company_profile", {"company_id": renamed.company_id})
        failed_too, account = await _call(session, "session_credits", {})
    assert not failed and not failed_too
    assert account["serving"].endswith(f"its today {today.isoformat()}")
    assert (
        profile["name"] == continuation.company(renamed.company_id, today)["name"]["name"] != renamed.detail["before"]
    )


async def test_within_a_team_budget_as_well(tmp_path: Path) -> None:
    """``--team``: the team's cap (in Redis) and the session's budget both apply — whichever is smaller refuses."""
    from redis_support import redis_server, require_redis_server

    require_redis_server()
    with redis_server(tmp_path / "redis") as redis:
        import regkit

        team = f"{redis.url}#analysts"
        regkit.Client(cache="memory", budget=15, budget_scope=team, quiet=True)  # the team's cap: 15 credits
        async with stdio_session(tmp_path, "--team", team, "--budget", "100") as session:
            failed, first = await _call(session, "company_profile", {"company_id": PARENT})
            failed_again, refused = await _call(session, "company_profile", {"company_id": MEMBER})
        assert not failed and _credits(first) == 10
        assert failed_again and refused["error"] == "refused" and "team" in refused["message"]
        assert "session 10 of 100 spent, 90 left" in refused["cost"]  # the session had room; the team had not


async def test_a_sandbox_on_real_companies_imported_from_offeneregister(tmp_path: Path) -> None:
    """``--data DIR``: a world imported from OffeneRegister (real companies, CC BY 4.0) served to the agent."""
    import subprocess
    import sys

    from regkit.local.world.store import default_data_dir

    world = tmp_path / "offeneregister"
    sample = default_data_dir() / "offeneregister" / "sample.jsonl.bz2"
    command = [sys.executable, "-m", "regkit", "world", "import", "offeneregister", str(sample), "--out", str(world)]
    done = subprocess.run([*command, "--limit", "300"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    company_id, record = next(iter(_first_record(world).items()))
    async with stdio_session(tmp_path, "--data", str(world)) as session:
        failed, profile = await _call(session, "company_profile", {"company_id": company_id})
        failed_too, account = await _call(session, "session_credits", {})
    assert not failed and not failed_too
    assert profile["name"] == record["name"]["name"] and _credits(profile) == 10
    assert "OffeneRegister data (real, in-process)" in account["serving"]


def _first_record(world: Path) -> dict[str, Any]:
    from regkit.local.world.world_store import open_world

    companies = open_world(world).companies
    company_id = next(iter(companies))
    return {company_id: companies[company_id]}


def test_the_documented_python_example_runs_as_written(tmp_path: Path) -> None:
    """docs/guide/agents.md's Python example, run as a script with ``regkit`` on the PATH (the console script beside
    this Python), finds the README's group's parent and prints its answer with the cost line first."""
    import os
    import subprocess
    import sys

    text = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "agents.md").read_text(encoding="utf-8")
    [example] = re.findall(r"```python\n(.*?)\n```", text, flags=re.DOTALL)
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    environment = server_environment(tmp_path)
    environment["PATH"] = os.pathsep.join([str(Path(regkit_command()[0]).parent), environment.get("PATH", "")])
    environment["HOME"] = str(tmp_path / "home")  # the SDK passes a default environment to the server: HOME, PATH…
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=environment)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["cost"].startswith("10 credits") and answer["items"][0]["company_id"] == PARENT


async def test_a_walk_down_stops_before_the_level_it_cannot_pay_and_keeps_what_it_paid_for(tmp_path: Path) -> None:
    async with stdio_session(tmp_path, "--budget", "100") as session:
        failed, walked = await _call(session, "group_below", {"company_id": PARENT, "depth": 6})
        failed_too, again = await _call(session, "holdings", {"company_id": PARENT})
    assert not failed and not failed_too
    assert walked["stopped"].startswith("stopped before level 1: it needed 420 credits and 80 are left")
    assert walked["levels_crawled"] == 1 and walked["subsidiaries"]["total"] == 21  # what the holding holds directly
    assert _credits(walked) == 20 and "session 20 of 100 spent" in walked["cost"]
    assert _credits(again) == 0  # paid for once, cached


async def test_a_former_id_leads_the_walks_to_the_company_and_an_unknown_one_is_not_found(tmp_path: Path) -> None:
    """A company id from before a move to another court (``world.json``'s ``former_ids``, or a move the world made
    since) leads the group walks to the company under its id of now; an id nobody has is a "not found"."""
    from regkit.local.world import read_world

    former, current = "DE-HRB-R2610-51744", "DE-HRB-R1102-109244"
    assert read_world().meta["former_ids"][former] == current
    async with stdio_session(tmp_path) as session:
        failed, below = await _call(session, "group_below", {"company_id": former})
        failed_too, below_now = await _call(session, "group_below", {"company_id": current})
        failed_up, up = await _call(session, "group_parent", {"company_id": former})
        missing, unknown = await _call(session, "group_below", {"company_id": "DE-HRB-X1517-99999999"})
    assert not failed and not failed_too and not failed_up
    assert (below["company_id"], below["former_id"]) == (current, former) and "former_id" not in below_now
    assert below["subsidiaries"] == below_now["subsidiaries"] and below["subsidiaries"]["total"] > 0
    assert up["chain"][0]["company_id"] == current and up["former_id"] == former
    assert missing and unknown["error"] == "not found" and _credits(unknown) == 0


#: An agent's call of a whole group walk over HTTP (the server's URL in argv[1]), left to run until it is killed.
WALKER = """
import sys, anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

async def main():
    async with streamable_http_client(sys.argv[1]) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("group_below", {"company_id": "DE-HRB-X1517-62135KI", "depth": 6})

anyio.run(main)
"""


async def test_ctrl_c_during_a_walk_stops_its_spending_at_once(tmp_path: Path) -> None:
    """Ctrl-C while a group walk is paying its way (against a register 300 ms away) stops the walk: the server ends
    within seconds and the register charges nothing more after it — not the rest of the walk (480 credits in
    all), which a server waiting for its requests in flight would have gone on paying."""
    import subprocess
    import sys
    import time

    import requests

    with served_register(tmp_path / "serve", "--rate-limit", "0", "--latency", "300ms") as served:
        environment = server_environment(tmp_path, REGKIT_API_KEY="demo-paid", REGKIT_BASE_URL=served.url)
        server = HttpServer(tmp_path, "--budget", "2000", env=environment)
        walker = subprocess.Popen([sys.executable, "-c", WALKER, server.url], stderr=subprocess.DEVNULL)

        def used() -> int:
            answer = requests.get(f"{served.url}/v1/credits", headers={"Authorization": "Bearer demo-paid"}, timeout=30)
            return int(answer.json()["used_credits"])

        try:
            deadline = time.monotonic() + 60
            while used() < 100:  # the walk is under way
                assert time.monotonic() < deadline and server.process.poll() is None
                time.sleep(0.1)
            server.process.send_signal(signal.SIGINT)
            assert server.process.wait(timeout=15) == 130
            at_exit = used()
            time.sleep(2)
            assert used() == at_exit < 480
        finally:
            walker.kill()
            walker.wait(timeout=10)
            server.stop()


async def test_ctrl_c_to_a_stdio_server_stops_its_call_at_once(tmp_path: Path) -> None:
    """The same over stdio: Ctrl-C (SIGINT) to the server while its walk pays ends it, and nothing more is charged
    (the interpreter would otherwise wait at exit for the tool's thread, paying on)."""
    import time

    import anyio
    import requests

    with served_register(tmp_path / "serve", "--rate-limit", "0", "--latency", "300ms") as served:
        environment = server_environment(tmp_path, REGKIT_API_KEY="demo-paid", REGKIT_BASE_URL=served.url)

        def used() -> int:
            answer = requests.get(f"{served.url}/v1/credits", headers={"Authorization": "Bearer demo-paid"}, timeout=30)
            return int(answer.json()["used_credits"])

        async with stdio_session(tmp_path, "--budget", "2000", env=environment) as session:
            [server] = [p for p in psutil.Process().children(recursive=True) if "mcp" in p.cmdline()]

            async def interrupt() -> None:
                while used() < 100:  # the walk is under way
                    await anyio.sleep(0.1)
                server.send_signal(signal.SIGINT)

            async with anyio.create_task_group() as group:
                group.start_soon(interrupt)
                with anyio.move_on_after(30):  # the server ends without answering
                    await session.call_tool("group_below", {"company_id": PARENT, "depth": 6})
            assert psutil.wait_procs([server], timeout=15)[1] == []  # ended (the SDK's client reaps it: no exit code)
        at_exit = used()
        time.sleep(2)
        assert used() == at_exit < 480
    assert "regkit mcp: stopped" in (tmp_path / "mcp.err").read_text()
