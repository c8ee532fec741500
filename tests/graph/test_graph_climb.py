"""``climb`` / ``estimate_climb_cost`` against the bundled local register: the chain each member of a group climbs is
the one the whole world's graph gives, the top is the group's Organträger of data/README.md, and the credits spent
are the estimate — 10 for each company of the chain not yet cached."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from regkit import BudgetExceededError, BudgetStopWarning, NotFoundError, ValidationError
from regkit.graph import Climb, climb, control_chain, controlled_companies, estimate_climb_cost

PRICE = 10  # a company lookup (docs/interface.md)


@pytest.fixture
def make_client() -> Iterator[Callable[..., Any]]:
    """``regkit.Client`` on the in-process bundled register with a cache of its own (memory): every lookup is
    paid once per client."""
    import regkit

    clients: list[Any] = []

    def make(**kwargs: Any) -> Any:
        clients.append(regkit.Client(cache="memory", **kwargs))
        return clients[-1]

    yield make
    for client in clients:
        client.close()


@pytest.fixture(scope="module")
def waldstein(readme_groups: list[dict[str, Any]]) -> dict[str, Any]:
    return next(g for g in readme_groups if g["name"] == "Waldstein Holding GmbH")


def _deepest(world_graph: Any, top: str) -> list[str]:
    members = sorted(controlled_companies(world_graph, top))
    return max((control_chain(world_graph, m) for m in members), key=len)


def test_every_member_climbs_to_the_organtraeger_for_the_estimated_credits(
    make_client: Any, world_graph: Any, waldstein: dict[str, Any]
) -> None:
    top = waldstein["organtraeger"]
    members = sorted(controlled_companies(world_graph, top))
    assert len(members) + 1 == waldstein["companies"]
    for member in members:
        client = make_client()
        expected = tuple(control_chain(world_graph, member))
        found = climb(client, member)
        assert isinstance(found, Climb) and found.stopped is None
        assert found.chain == expected and found.ultimate_parent == top
        assert found.spent_credits == found.estimated_credits == PRICE * len(expected) == client.credits_spent


def test_the_estimate_comes_first_and_knows_what_is_cached(make_client: Any, world_graph: Any, waldstein: Any) -> None:
    chain = _deepest(world_graph, waldstein["organtraeger"])
    start, parent = chain[0], chain[1]
    assert len(chain) >= 3
    client = make_client()
    seen: list[Any] = []
    before = estimate_climb_cost(client, start, max_levels=5)
    assert (before.known, before.complete, before.next_id) == ((), False, start)
    assert (before.credits, before.most_credits) == (PRICE, PRICE * 6) and client.requests_sent == 0
    client.get_company(start)
    partial = estimate_climb_cost(client, start)
    assert (partial.known, partial.next_id, partial.credits) == ((start,), parent, PRICE)
    found = climb(client, start, callback=seen.append)
    assert seen == [partial]  # the estimate was handed over before anything was paid
    assert found.spent_credits == found.estimated_credits == PRICE * (len(chain) - 1)
    after = estimate_climb_cost(client, start)
    assert (after.known, after.complete, after.credits, after.next_id) == (tuple(chain), True, 0, None)
    again = climb(client, start)
    assert again.chain == tuple(chain) and again.spent_credits == again.estimated_credits == 0
    assert "all cached → 0 credits" in str(after)


def test_the_budget_is_checked_before_paying(make_client: Any, world_graph: Any, waldstein: Any) -> None:
    chain = _deepest(world_graph, waldstein["organtraeger"])
    client = make_client()
    with pytest.raises(BudgetExceededError, match="at least 10 credits; 5 left"):
        climb(client, chain[0], budget=5)
    assert client.credits_spent == 0 and client.requests_sent == 0
    with pytest.warns(BudgetStopWarning) as told:  # shown by Jupyter and the terminal: not only in the log
        cut = climb(client, chain[0], budget=PRICE)
    message = str(told[0].message)
    assert f"looking up {chain[1]} costs {PRICE} credits, 0 left" in message  # what the next level would cost
    assert f"fetched 1 of the chain's companies ({chain[0]})" in message and f"not fetched: 1 ({chain[1]})" in message
    assert "raise budget=" in message
    assert cut.stopped is not None and "budget" in cut.stopped and chain[1] in cut.stopped
    assert cut.spent_credits == cut.estimated_credits == PRICE and cut.chain == tuple(chain[:2])
    capped = make_client(budget=2 * PRICE)
    with pytest.warns(BudgetStopWarning, match="climb stopped at the budget"):
        two = climb(capped, chain[0])
    assert two.spent_credits == 2 * PRICE and "budget" in (two.stopped or "")


def test_levels_and_the_callback_stop_it(make_client: Any, world_graph: Any, waldstein: Any) -> None:
    chain = _deepest(world_graph, waldstein["organtraeger"])
    client = make_client()
    declined = climb(client, chain[0], callback=lambda estimate: False)
    assert declined.stopped and declined.spent_credits == 0 and client.requests_sent == 0
    one = climb(client, chain[0], max_levels=1)
    assert one.stopped == "max_levels=1 reached" and one.spent_credits == 2 * PRICE
    assert one.chain[:2] == tuple(chain[:2])


def test_bad_and_unknown_ids(make_client: Any) -> None:
    client = make_client()
    for bad in ("HRB 12345", None, 7):
        with pytest.raises(ValidationError, match="company id"):
            climb(client, bad)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="max_levels"):
        estimate_climb_cost(client, "DE-HRB-X1517-62135KI", max_levels=-1)
    with pytest.raises(NotFoundError):
        climb(client, "DE-HRB-X1517-99999999KI")
    assert client.credits_spent == 0


def test_the_readme_climb_is_true(make_client: Any, world: Any) -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = re.search(r'regkit\.graph\.climb\(client, "([^"]+)"', text)
    top = re.search(r"climbed\.ultimate_parent\s+# '([^']+)': ([^,]+),", text)
    assert start and top, "README's first session no longer climbs"
    found = climb(make_client(), start.group(1))
    assert found.ultimate_parent == top.group(1) and world.companies[top.group(1)]["name"]["name"] == top.group(2)
