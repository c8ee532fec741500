"""The MCP server's answers against the raw answers they are made from, and a tool call's overhead (issue 44).

Prints, in one run, over 200 companies of the bundled world (every 25th id) and the persons and filers among them:

- answer sizes: each tool's answer (the text an agent reads, the ``cost`` line included) beside the interface's
  raw JSON answer it is made from (compact JSON, no indentation: the least the raw answer could take), median and
  max in bytes, and the median ratio;
- overhead: a cached ``company_profile`` through the MCP protocol (the SDK's in-process client and server) and
  through the tool function alone, beside the cached ``client.get_company`` it wraps (median ms per call).

    python benchmarks/bench_mcp.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from regkit.agents.cli import open_session
from regkit.agents.server import build_server
from regkit.agents.tools import RegisterTools
from regkit.local.world import read_world


def _compact(raw: Any) -> int:
    return len(json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode())


def _median_ms(call: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    world = read_world()
    ids = sorted(world.companies)[::25][:200]
    with tempfile.TemporaryDirectory() as tmp:
        args = argparse.Namespace(
            sandbox=True, data=None, state=str(Path(tmp) / "state.sqlite"), budget=1_000_000, team=None, cache=None
        )
        session, scrub = open_session(args)
        client, tools = session.client, RegisterTools(session, scrub)
        sizes: dict[str, list[tuple[int, int]]] = {}

        def measure(name: str, text: Any, raw: Any) -> None:
            if not text.is_error:
                sizes.setdefault(name, []).append((len(text.text.encode()), _compact(raw)))

        persons = []
        for company_id in ids:
            record = client.get_company(company_id).raw
            measure("company_profile", tools.company_profile(company_id), record)
            measure("company_documents", tools.company_documents(company_id), record)
            if record["legal_form"] in {"gmbh", "ug"}:
                measure("owners", tools.owners(company_id), client.get_owners(company_id).raw)
            measure("holdings", tools.holdings(company_id), client.get_holdings(company_id).raw)
            if record.get("indicators"):
                financials = client.get_financials(company_id).raw
                measure("financial_indicators", tools.financial_indicators(company_id), financials)
                measure("financial_statement", tools.financial_statement(company_id), financials)
            persons += [e["id"] for e in record["representation"] if e["type"] == "natural_person" and e["id"]][:1]
        for person_id in persons[:100]:
            measure("person", tools.person(person_id), client.get_person(person_id).raw)

        print(
            f"answer sizes over {len(ids)} companies of the bundled world (bytes; raw = the interface's compact JSON)"
        )
        print(f"  {'tool':22} {'answers':>7} {'median':>8} {'raw':>8} {'max':>8} {'raw max':>8} {'ratio':>6}")
        for name, pairs in sizes.items():
            ours, raw = [p[0] for p in pairs], [p[1] for p in pairs]
            ratio = statistics.median(a / b for a, b in pairs)
            print(
                f"  {name:22} {len(pairs):>7} {statistics.median(ours):>8.0f} {statistics.median(raw):>8.0f} "
                f"{max(ours):>8} {max(raw):>8} {ratio:>6.2f}"
            )

        server = build_server(session, scrub=scrub)
        company_id = ids[0]
        client.get_company(company_id)  # cached from here on

        async def through_mcp(repeat: int) -> float:
            from mcp import Client

            async with Client(server) as mcp_client:
                times = []
                for _ in range(repeat):
                    started = time.perf_counter()
                    await mcp_client.call_tool("company_profile", {"company_id": company_id})
                    times.append((time.perf_counter() - started) * 1000)
            return statistics.median(times)

        repeat = 300
        direct = _median_ms(lambda: client.get_company(company_id), repeat)
        tool = _median_ms(lambda: tools.company_profile(company_id), repeat)
        protocol = anyio.run(through_mcp, repeat)
        print(f"a cached company_profile, median of {repeat} calls (ms):")
        print(f"  client.get_company (cached)   {direct:8.2f}")
        print(f"  the tool function             {tool:8.2f}  ({tool / direct:.1f}x)")
        print(f"  through MCP (in-process)      {protocol:8.2f}  ({protocol / direct:.1f}x)")
        session.client.close()


if __name__ == "__main__":
    main()
