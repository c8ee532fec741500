"""The plan of a crawl: its arguments checked; for each level, what it will call on which endpoint, and what that costs, before anything is spent.

A level's *units* are its companies (a company lookup, and its holdings when the crawl goes down) and its
person seeds (a person lookup and/or their holdings). A unit is fetched whole or skipped whole: the
budget cut keeps units in order while their credits fit (cached calls are free), so no company is
half-crawled.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from regkit.errors import BudgetStopWarning, ValidationError, user_stacklevel

from .persons import is_company_id
from .report import LevelEstimate
from .schema import OWNERSHIP, RECORD_RELATIONS, REPRESENTATION

if TYPE_CHECKING:
    from regkit.client import CostEstimate
    from regkit.client.protocol import CrawlClient

logger = logging.getLogger(__name__)

__all__ = ["DIRECTIONS", "Level", "check_arguments", "estimate", "remaining", "spending", "budget_stop"]

#: The ways :func:`regkit.graph.crawl` can go.
DIRECTIONS = ("up", "down", "both")


def _is_person_id(text: Any) -> bool:
    try:
        return isinstance(text, str) and str(uuid.UUID(text)) == text.lower()
    except ValueError:
        return False


def check_arguments(
    seeds: Any, depth: int, relations: tuple[str, ...], budget: int | None, max_companies: int | None, direction: Any
) -> tuple[list[str], list[str]]:
    """The company seeds and person seeds, after every argument is checked (nothing is sent before)."""
    seeds = [seeds] if isinstance(seeds, str) else list(seeds)
    bad = [s for s in seeds if not (is_company_id(s) or _is_person_id(s))]
    if bad:
        raise ValidationError(
            f"not company ids or person ids: {bad[:5]}",
            suggestion="company ids look like DE-HRB-B1204-12345, person ids are UUIDs",
        )
    wrong = [
        f"{name}={value!r}"
        for name, value, low in (("depth", depth, 0), ("budget", budget, 0), ("max_companies", max_companies, 1))
        if value is not None and value < low
    ]
    if wrong:
        raise ValidationError(
            f"{', '.join(wrong)} is out of range", suggestion="depth and budget are ≥ 0, max_companies ≥ 1 (or None)"
        )
    if direction not in DIRECTIONS:
        raise ValidationError(f"direction must be one of {list(DIRECTIONS)}, not {direction!r}")
    if direction != "up" and OWNERSHIP not in relations:
        raise ValidationError(
            f"direction={direction!r} follows holdings (ownership edges), but relations {list(relations)} "
            "leave out 'ownership'",
            suggestion="add 'ownership' to relations, or crawl direction='up'",
        )
    if direction == "up" and not set(relations) & set(RECORD_RELATIONS):
        raise ValidationError(
            f"direction='up' follows the links of company records, and relations {list(relations)} "
            f"name none of them ({list(RECORD_RELATIONS)})",
            suggestion="add a record relation, or crawl direction='down' to follow holdings",
        )
    persons = [s.lower() for s in seeds if not is_company_id(s)]
    if persons and not {REPRESENTATION, OWNERSHIP} & set(relations):
        raise ValidationError(
            "person seeds are followed through their positions (representation) and holdings "
            "(ownership); relations name neither",
            suggestion="add 'representation' or 'ownership'",
        )
    return list(dict.fromkeys(s for s in seeds if is_company_id(s))), list(dict.fromkeys(persons))


@dataclass(frozen=True)
class Level:
    """Which endpoints a crawl calls for each kind of unit."""

    company_endpoints: tuple[str, ...]  # ("company",) or ("company", "holdings")
    person_endpoints: tuple[str, ...]  # a subset of ("person", "person_holdings")


def _estimate(client: CrawlClient, ids: Sequence[str], endpoint: str) -> CostEstimate:
    if endpoint == "company":  # the plain call: clients without other endpoints keep working for the upward crawl
        return client.estimate_cost(list(ids))
    return client.estimate_cost(list(ids), endpoint=endpoint)


def remaining(client: CrawlClient, budget: int | None, spent: int) -> int | None:
    """Credits the crawl may still spend: its own budget and the client's, whichever is smaller."""
    limits = [budget - spent] if budget is not None else []
    client_left = getattr(getattr(client, "budget", None), "remaining", None)
    if client_left is not None:
        limits.append(client_left)
    return min(limits) if limits else None


def _total(client: CrawlClient, shape: Level, ids: Sequence[str], persons: Sequence[str]) -> dict[str, CostEstimate]:
    found = {e: _estimate(client, ids, e) for e in shape.company_endpoints if ids}
    found.update({e: _estimate(client, persons, e) for e in shape.person_endpoints if persons})
    return found


def _unit_cost(client: CrawlClient, endpoints: tuple[str, ...], unit: str) -> int:
    return sum(_estimate(client, [unit], e).credits for e in endpoints)


def _fit(
    client: CrawlClient, shape: Level, ids: list[str], persons: list[str], left: int
) -> tuple[list[str], list[str], list[str]]:
    """The companies and persons, in order, that ``left`` credits pay for; and the ones cut."""
    keep_ids: list[str] = []
    keep_persons: list[str] = []
    cut: list[str] = []
    for units, endpoints, keep in (
        (ids, shape.company_endpoints, keep_ids),
        (persons, shape.person_endpoints, keep_persons),
    ):
        for unit in units:
            cost = _unit_cost(client, endpoints, unit)
            if cost <= left:
                keep.append(unit)
                left -= cost
            else:
                cut.append(unit)
    return keep_ids, keep_persons, cut


def estimate(
    client: CrawlClient,
    shape: Level,
    ids: list[str],
    persons: list[str],
    level: int,
    left: int | None,
    max_left: int | None,
) -> tuple[LevelEstimate, str | None]:
    """The level's estimate after any cut for ``max_companies`` (``max_left``) and the budget (``left``), and
    why it was cut (``None`` if it was not)."""
    skipped: list[str] = []
    stopped = None
    if max_left is not None and len(ids) > max_left:
        ids, skipped = ids[:max_left], ids[max_left:]
        stopped = f"max_companies reached at level {level}"
    found = _total(client, shape, ids, persons)
    needed = sum(e.credits for e in found.values())
    if left is not None and needed > left:
        asked, what = len(ids) + len(persons), "companies and persons" if persons else "companies"
        ids, persons, cut = _fit(client, shape, ids, persons, left)
        skipped = cut + skipped
        stopped = (
            f"budget: level {level} needs {needed} credits, {left} left; "
            f"fetched {len(ids) + len(persons)} of its {asked} {what}"
        )
        found = _total(client, shape, ids, persons)
    credits = {e: est.credits for e, est in found.items()}
    company = found.get("company")
    plan = LevelEstimate(
        level,
        tuple(ids),
        0 if company is None else company.cached,
        sum(credits.values()),
        tuple(skipped),
        left,
        holdings=tuple(ids) if "holdings" in shape.company_endpoints else (),
        persons=tuple(persons),
        calls={e: est.distinct for e, est in found.items()},
        cached_calls={e: est.cached for e, est in found.items()},
        credits=credits,
    )
    return plan, stopped


class _LoggedRun:
    """The run of a client without ``spending`` (any object with :class:`~regkit.client.protocol.CrawlClient`'s
    older members): its cost lines are only logged, and an interrupt stays a plain ``KeyboardInterrupt``."""

    def __init__(self, call: str) -> None:
        self.call = call

    def announce(self, text: str) -> None:
        logger.info("%s: %s", self.call, text)


@contextlib.contextmanager
def spending(client: CrawlClient, call: str) -> Iterator[Any]:
    """``client.spending(call)`` (:meth:`regkit.Client.spending`): the walk's cost lines said before paying, and an
    interrupt that stops it with :class:`regkit.Interrupted`; a client without it gets lines in the log only."""
    method = getattr(client, "spending", None)
    if method is None:
        yield _LoggedRun(call)
        return
    with method(call) as run:
        yield run


def budget_stop(call: str, stopped: str, fetched: str, missing: Sequence[str], spent: int) -> None:
    """Warn (:class:`regkit.BudgetStopWarning`) that a walk stopped at the budget, with what it fetched, what it did
    not and what the next step would have cost (``stopped`` says it), and how to go on."""
    for prefix in ("budget: ", "the budget: "):
        stopped = stopped.removeprefix(prefix)
    examples = ", ".join(missing[:3]) + (", …" if len(missing) > 3 else "")
    left_out = f"; not fetched: {len(missing)} ({examples})" if missing else ""
    if fetched.startswith("0 "):  # nothing to resume from: say so, not "what was fetched is cached"
        then = f"Nothing was fetched or paid ({examples} left out): raise budget= (or the client's budget) and run {call} again"
    else:
        then = (
            f"In all it fetched {fetched} for {spent} credits{left_out}. What was fetched is cached: raise budget= "
            f"(or the client's budget) and run {call} again; only the rest is paid"
        )
    warnings.warn(
        BudgetStopWarning(f"{call} stopped at the budget: {stopped}. {then}"),
        stacklevel=user_stacklevel(),
    )
