"""Contract test: after a year of the register's clock, the official client still parses every answer strictly.

``regkit serve`` runs on its own state file; ``regkit local advance --days 365`` moves that file's clock from
another process, as a user would; the served register notices it within 2 s and serves the world a year on. Each
company the year changed (every fifth), its financials, and the persons appointed are fetched with the official
client (strict validation) and compared with the world a year on as the continuation computes it here.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import time
from typing import Any

import pytest

from regkit.local.world.continuation import Continuation

pytestmark = [pytest.mark.serve, pytest.mark.slow]

A_YEAR = 365


def _dump(model: Any) -> dict[str, Any]:
    return model.to_dict(mode="json")


def test_a_year_on_every_answer_parses_strictly(start_register: Any, world: Any) -> None:
    served = start_register("--rate-limit", "0")
    sdk = served.client()
    credits = sdk.usage.get_credits_v1()
    done = subprocess.run(
        [sys.executable, "-m", "regkit", "local", "advance", "--days", str(A_YEAR), "--state", str(served.state_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stdout.strip() == "2027-06-30", done.stderr
    continuation = Continuation.of_world(world)
    day = continuation.as_of + dt.timedelta(days=A_YEAR)
    changed = continuation.changed(day)
    first = changed[0]
    deadline = time.monotonic() + 5
    while _dump(sdk.company.get_details_v1(first, export=True)) != {**continuation.company(first, day), "sources": []}:
        assert time.monotonic() < deadline, "the served register did not notice the advance"
        time.sleep(0.2)
    for company_id in changed[::5]:
        expected = continuation.company(company_id, day)
        assert _dump(sdk.company.get_details_v1(company_id, export=True)) == {**expected, "sources": []}
        plain = sdk.company.get_details_v1(company_id)
        assert len(plain.sources) == len(expected["documents"])
        if expected.get("indicators"):
            financials = sdk.company.get_financials_v1(company_id)
            assert sorted(i.report_id for i in financials.indicators) == sorted(
                entry["report_id"] for entry in expected["indicators"]
            )
    appointed = [
        e.detail["person_id"]
        for e in continuation.events(continuation.as_of, day)
        if e.kind in {"director_appointed", "prokura_granted"}
    ]
    for person_id in appointed[::10]:
        person = sdk.person.get_details_v1(person_id)
        assert any(p.register_id for p in person.management_positions)
    # the proceedings filed since as_of, and those that published decisions since, as the official client reads them
    touched = sorted(
        {e.detail["insolvency_id"] for e in continuation.events(continuation.as_of, day) if "insolvency_id" in e.detail}
    )
    assert touched
    for proceeding_id in touched[::7]:
        expected = continuation.proceeding(proceeding_id, day)
        parsed = _dump(sdk.insolvency.get_details_v1(proceeding_id))
        assert [e["published_at"] for e in parsed["events"]] == [e["published_at"] for e in expected["events"]]
        assert parsed["current_status"] == expected["current_status"]
    assert sdk.usage.get_credits_v1().remaining_credits < credits.remaining_credits  # answered and charged
