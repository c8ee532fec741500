"""``climb``: find a company's ultimate parent by looking up only its chain of control, cost estimated first.

A company record lists its links upwards (its Organträger, its shareholders), so the way to a group's parent is
up, one company at a time: look the company up, take its controlling parent (the rule of
:mod:`regkit.graph.control`: the profit-transfer agreement's parent, else the legal-person shareholder that
controls), look that one up, and so on until a company has no controlling parent. :func:`climb` does that and
nothing more — one company lookup per level (10 credits, free when cached), no minority shareholders, no persons
— where ``crawl(client, id, direction="up")`` looks up every company linked upwards.

As every paid bulk operation of regkit, the climb says its cost before it pays: :func:`estimate_climb_cost` walks
the chain as far as the client's cache knows it (cache hits, nothing sent, 0 credits) and tells what the rest will
cost; :func:`climb` makes that estimate first, hands it to ``callback``, refuses a climb whose known cost exceeds
the budget before anything is sent, and then estimates each level again before paying for it. The chain's length
above the last cached company cannot be known before it is looked up (the interface has no cheaper way up), so
the estimate of an uncached climb is a range: ``credits`` (the lookups certain now) to ``most_credits`` (every
level up to ``max_levels``); each level's own estimate is exact, and ``Climb.estimated_credits`` (their sum)
equals what the climb spent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import networkx as nx

from regkit.errors import BudgetExceededError, RegkitError, ValidationError

from ._plan import budget_stop, remaining, spending
from .build import from_companies
from .control import control_chain, controlling_parents
from .persons import is_company_id
from .schema import RECORD_RELATIONS

if TYPE_CHECKING:
    from regkit.client.protocol import CrawlClient

__all__ = ["Climb", "ClimbEstimate", "climb", "estimate_climb_cost"]

logger = logging.getLogger(__name__)

#: Levels a climb goes up at most, by default (the bundled world's deepest chain has 4).
MAX_LEVELS = 20


@dataclass(frozen=True)
class ClimbEstimate:
    """What climbing from a company to its ultimate parent will cost, told before anything is paid.

    Attributes
    ----------
    company_id : str
        Where the climb starts.
    known : tuple of str
        The chain as far as the cache knows it, from ``company_id`` up: each of these companies is cached.
    complete : bool
        The cache knows the whole chain: ``known[-1]`` has no controlling parent (or the walk met a company
        twice, or a parent that is not a registered company). The climb then costs nothing.
    next_id : str or None
        The first company of the chain the cache does not hold (the climb pays for it first); ``None`` when
        complete.
    credits : int
        The credits the climb certainly spends now: 0 when complete, else the price of ``next_id``.
    most_credits : int
        What it can spend at most: ``credits`` and one lookup for each further level up to ``max_levels``.
    price : int
        Credits of one company lookup.
    max_levels : int
        The climb's limit (levels above ``company_id``).
    budget_remaining : int or None
        Credits left in the client's budget (``None``: no budget).
    """

    company_id: str
    known: tuple[str, ...]
    complete: bool
    next_id: str | None
    credits: int
    most_credits: int
    price: int
    max_levels: int
    budget_remaining: int | None

    def __str__(self) -> str:
        if self.complete:
            return f"climb from {self.company_id}: {len(self.known)} companies, all cached → 0 credits"
        cached = f"{len(self.known)} cached, then " if self.known else ""
        return (
            f"climb from {self.company_id}: {cached}{self.next_id} to fetch → {self.credits} credits now, "
            f"at most {self.most_credits} ({self.max_levels} levels, {self.price} each)"
        )


@dataclass(frozen=True)
class Climb:
    """A climb from a company to its ultimate parent (what :func:`climb` returns).

    Attributes
    ----------
    company_id : str
        Where the climb started.
    chain : tuple of str
        ``(company_id, parent, grandparent, …, ultimate parent)``: :func:`~regkit.graph.control_chain` on
        ``graph``; ``(company_id,)`` when nothing controls it.
    graph : networkx.MultiDiGraph
        :func:`~regkit.graph.from_companies` of the companies looked up (their links as the records give them).
    estimate : ClimbEstimate
        The estimate made before anything was paid.
    estimated_credits : int
        The sum of each level's estimate, made before paying for the level.
    spent_credits : int
        What the climb spent (the client's ``credits_spent`` before and after); equals ``estimated_credits``
        unless a lookup failed (a failed lookup costs nothing).
    stopped : str or None
        Why the climb stopped before the top: ``max_levels`` reached, the budget, a failed lookup, or the
        callback; ``None`` when it reached the ultimate parent.
    """

    company_id: str
    chain: tuple[str, ...]
    graph: nx.MultiDiGraph
    estimate: ClimbEstimate
    estimated_credits: int
    spent_credits: int
    stopped: str | None

    @property
    def ultimate_parent(self) -> str:
        """The last company of the chain (``company_id`` itself when nothing controls it)."""
        return self.chain[-1]

    def __repr__(self) -> str:
        stop = f", stopped: {self.stopped}" if self.stopped else ""
        return (
            f"Climb({' → '.join(self.chain)}; {self.spent_credits} credits spent, "
            f"{self.estimated_credits} estimated{stop})"
        )


def _check(company_id: Any, max_levels: Any, budget: Any) -> None:
    if not isinstance(company_id, str) or not is_company_id(company_id):
        raise ValidationError(
            f"company_id must be a company id, not {company_id!r}",
            suggestion="company ids look like DE-HRB-B1204-12345 (regkit.parse_company_id turns 'HRB 12345 Köln' "
            "into one)",
        )
    if isinstance(max_levels, bool) or not isinstance(max_levels, int) or max_levels < 0:
        raise ValidationError(f"max_levels must be a whole number ≥ 0, not {max_levels!r}")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
        raise ValidationError(f"budget must be a whole number ≥ 0 or None, not {budget!r}")


def _parent(graph: nx.MultiDiGraph, node: str, chain: list[str]) -> str | None:
    """The company to climb to from ``node``, or ``None`` at the top (no parent, shared control, a company met
    before, or a parent that is not a registered company and cannot be looked up)."""
    parents = controlling_parents(graph, node)
    if len(parents) != 1:
        return None
    (parent,) = parents
    return parent if parent not in chain and is_company_id(parent) else None


def _walk(client: CrawlClient, company_id: str, max_levels: int, records: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The chain from ``company_id`` up, one level at a time: yields ``(company, estimate)`` before it is looked
    up; the caller puts its record into ``records`` (or stops). Ends at the top or after ``max_levels``."""
    chain = [company_id]
    node: str | None = company_id
    while node is not None:
        yield node, client.estimate_cost([node])
        if node not in records:
            return  # the caller stopped or the lookup failed
        if len(chain) > max_levels:
            return
        node = _parent(from_companies(list(records.values()), RECORD_RELATIONS), node, chain)
        if node is not None:
            chain.append(node)


def _fetch(client: CrawlClient, node: str) -> tuple[Any, RegkitError | None]:
    batch = client.get_companies([node], errors="collect", progress=False)
    record = batch[0]
    return record, None if record is not None else batch.errors.get(node)


def estimate_climb_cost(client: CrawlClient, company_id: str, max_levels: int = MAX_LEVELS) -> ClimbEstimate:
    """What :func:`climb` from ``company_id`` would cost now; nothing is sent and nothing is paid.

    The chain is walked as far as the client's cache holds it (each cached record read from the cache: a cache
    hit in the ledger, 0 credits); the first company it does not hold is the first the climb pays for.

    Parameters
    ----------
    client : regkit.Client
        Or anything with the members of :class:`~regkit.client.protocol.CrawlClient`.
    company_id : str
        The company whose ultimate parent is wanted.
    max_levels : int
        Levels above ``company_id`` the climb may go (default 20).

    Returns
    -------
    ClimbEstimate
        The cached part of the chain, whether it is the whole chain, the credits certain now (``credits``) and the
        most the climb can spend (``most_credits``).

    Raises
    ------
    regkit.ValidationError
        A malformed ``company_id`` or ``max_levels`` (nothing is sent).
    """
    _check(company_id, max_levels, None)
    records: dict[str, Any] = {}
    known: list[str] = []
    price = client.estimate_cost([company_id]).price
    for node, cost in _walk(client, company_id, max_levels, records):
        if cost.to_fetch:
            most = cost.credits + price * (max_levels - len(known))
            return _estimate(client, company_id, known, node, cost.credits, most, price, max_levels)
        record, _ = _fetch(client, node)  # cached: answered by the cache, 0 credits, nothing sent
        if record is None:
            break
        records[node] = record
        known.append(node)
    return _estimate(client, company_id, known, None, 0, 0, price, max_levels)


def _estimate(
    client: CrawlClient,
    company_id: str,
    known: list[str],
    next_id: str | None,
    credits: int,
    most: int,
    price: int,
    max_levels: int,
) -> ClimbEstimate:
    left = getattr(getattr(client, "budget", None), "remaining", None)
    return ClimbEstimate(company_id, tuple(known), next_id is None, next_id, credits, most, price, max_levels, left)


def climb(
    client: CrawlClient,
    company_id: str,
    *,
    budget: int | None = None,
    max_levels: int = MAX_LEVELS,
    callback: Callable[[ClimbEstimate], Any] | None = None,
) -> Climb:
    """Look up a company and its controlling parents, level by level, up to its ultimate parent.

    First the whole climb is estimated (:func:`estimate_climb_cost`) and handed to ``callback``; a climb whose
    certain cost exceeds the budget is refused before anything is sent. Then each level is estimated before it is
    paid for (0 credits when cached), and the climb stops — saying why in ``stopped`` and in a WARNING on
    ``regkit.graph.climbing`` — when the next level would cross the budget.

    Parameters
    ----------
    client : regkit.Client
        Or anything with the members of :class:`~regkit.client.protocol.CrawlClient`.
    company_id : str
        The company whose ultimate parent is wanted.
    budget : int, optional
        Credits this climb may spend (the client's own budget applies too).
    max_levels : int
        Levels above ``company_id`` to go at most (default 20).
    callback : callable, optional
        Called with the :class:`ClimbEstimate` before anything is paid; returning ``False`` stops the climb
        there (``callback=print`` shows the estimate). Without a callback each level that costs something is said
        on stderr before it is paid (``regkit: climb: level 0: … → 10 credits``; ``quiet`` leaves it out).

    Returns
    -------
    Climb
        ``chain`` (``company_id`` … ultimate parent), ``ultimate_parent``, ``graph`` (the companies looked up),
        ``estimate``, ``estimated_credits``, ``spent_credits`` and ``stopped``.

    Raises
    ------
    regkit.ValidationError
        A malformed ``company_id``, ``max_levels`` or ``budget`` (nothing is sent).
    regkit.BudgetExceededError
        When the estimate's certain cost exceeds the budget left (nothing is sent).
    regkit.NotFoundError
        When ``company_id`` itself is not in the register (free); a parent that cannot be looked up ends the
        climb with ``stopped`` instead.

    Examples
    --------
    >>> import regkit
    >>> from regkit.graph import climb
    >>> client = regkit.Client(cache="memory")
    >>> found = climb(client, "DE-HRB-R2103-158659", callback=print)
    climb from DE-HRB-R2103-158659: DE-HRB-R2103-158659 to fetch → 10 credits now, at most 210 (20 levels, 10 each)
    >>> found.chain
    ('DE-HRB-R2103-158659', 'DE-HRB-B1204-124641', 'DE-HRB-R2103-65834')
    >>> found.ultimate_parent, found.estimated_credits, found.spent_credits
    ('DE-HRB-R2103-65834', 30, 30)
    >>> print(regkit.graph.estimate_climb_cost(client, "DE-HRB-R2103-158659"))
    climb from DE-HRB-R2103-158659: 3 companies, all cached → 0 credits
    """
    _check(company_id, max_levels, budget)
    first = estimate_climb_cost(client, company_id, max_levels)
    logger.info("%s", first)
    records: dict[str, Any] = {}
    start = client.credits_spent
    estimated = 0
    stopped: str | None = None
    missing: list[str] = []
    if callback is not None and callback(first) is False:
        stopped = "the callback declined the climb"
    else:
        left = remaining(client, budget, 0)
        if left is not None and first.credits > left:
            raise BudgetExceededError(
                f"climbing from {company_id} costs at least {first.credits} credits; {left} left",
                needed=first.credits,
                remaining=left,
                suggestion="raise the budget, or climb from a company whose chain is cached "
                "(regkit.graph.estimate_climb_cost says what the cache knows)",
            )
        with spending(client, "climb") as run:
            for node, cost in _walk(client, company_id, max_levels, records):
                left = remaining(client, budget, client.credits_spent - start)
                if left is not None and cost.credits > left:
                    stopped = f"the budget: looking up {node} costs {cost.credits} credits, {left} left"
                    missing = [node]
                    break
                estimated += cost.credits
                if cost.credits and callback is None:  # a callback was handed the estimate instead
                    run.announce(f"level {len(records)}: {node} → {cost.credits} credits")
                record, error = _fetch(client, node)
                if record is None:
                    if node == company_id and error is not None:
                        raise error
                    stopped = f"{node} could not be looked up: {error}"
                    break
                records[node] = record
            else:
                top = records and _parent(
                    from_companies(list(records.values()), RECORD_RELATIONS), list(records)[-1], list(records)
                )
                if top:
                    stopped = f"max_levels={max_levels} reached"
    graph = from_companies(list(records.values()), RECORD_RELATIONS)
    chain = tuple(control_chain(graph, company_id)) if company_id in graph else (company_id,)
    if stopped:
        logger.warning("climb from %s stopped: %s", company_id, stopped)
    if stopped and stopped.startswith("the budget"):
        fetched = f"{len(records)} of the chain's companies ({' → '.join(records) or 'none'})"
        budget_stop("climb", stopped, fetched, missing, client.credits_spent - start)
    return Climb(company_id, chain, graph, first, estimated, client.credits_spent - start, stopped)
