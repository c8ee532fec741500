"""Watchlists: a named set of companies and persons, refreshed for only what is stale, with the changes it found.

A watchlist (``client.watchlist(name, companies=..., persons=..., categories=..., stale_after=...)``) says what a
team watches and how fresh it must be. A member is **stale** when one of the lookups its categories need is not
in the cache, has expired — a webhook event marks its entity so (:meth:`regkit.client.Client.mark_stale`) — or was
fetched longer ago than ``stale_after``. :meth:`Watchlist.estimate` says what refreshing the stale members would
cost (nothing is sent); :meth:`Watchlist.refresh` refetches only them — under the budget, or ``max_credits``, the
stalest first — in a spending run an interrupt stops like every bulk call (what arrived is cached: running it
again resumes), and returns the changes it found, in the taxonomy of :func:`regkit.frames.changes_table`, read
from the versions the refetch kept (:meth:`regkit.client.Client.changes`).

Which lookups a member's categories need:

==================================================  ==================================================
company categories                                  lookups
==================================================  ==================================================
``basic``, ``representation``, ``documents``,        ``get_company``
``insolvencies``
``financials``                                      ``get_financials``
``ownership``                                       ``get_owners``
``holdings``                                        ``get_holdings``
==================================================  ==================================================

With ``insolvencies``, each open proceeding of a refreshed company is fetched again too (``get_insolvency``): its
events are published without the company record changing; their changes are listed under the company. A person:
``management_positions`` → ``get_person``, ``holdings`` → ``get_person_holdings``. Watchlists are kept
in the cache's storage (:mod:`regkit.client.cache.watchlists`): a team sharing a Redis cache shares them.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from regkit.errors import BudgetExceededError, RegkitError, ValidationError
from regkit.schema.changes import CATEGORIES
from regkit.schema.interface import COMPANY_ID_PATTERN, UUID_PATTERN

from .cache.client_cache import ClientCache
from .lookups import LOOKUPS, lookup_op
from .transport.call import Caller

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COMPANY_LOOKUPS",
    "PERSON_LOOKUPS",
    "Watchlist",
    "WatchlistEstimate",
    "WatchlistRefresh",
    "DEFAULT_STALE_AFTER",
]

#: The lookup (a name of :data:`regkit.client.lookups.LOOKUPS`) each category of a company member needs.
COMPANY_LOOKUPS: Mapping[str, str] = {
    "basic": "company",
    "representation": "company",
    "documents": "company",
    "insolvencies": "company",
    "financials": "financials",
    "ownership": "owners",
    "holdings": "holdings",
}
#: The lookup each category of a person member needs.
PERSON_LOOKUPS: Mapping[str, str] = {"management_positions": "person", "holdings": "person_holdings"}
#: A member fetched longer ago than this is stale, unless the watchlist says otherwise.
DEFAULT_STALE_AFTER = timedelta(days=7)

#: What fetching a proceeding costs (``GET /v1/insolvency/{id}``).
_PROCEEDING_PRICE = 10
_NAME_HINT = "a watchlist's name is a short text, e.g. client.watchlist('suppliers', companies=[...])"


@dataclass(frozen=True)
class WatchlistEstimate:
    """What refreshing a watchlist's stale members would cost now (nothing is sent).

    Attributes
    ----------
    name : str
        The watchlist.
    members : int
        Its companies and persons.
    stale : tuple of str
        The stale members, stalest first (never fetched first, then by the oldest of their answers).
    lookups : int
        The lookups a refresh of them sends at most (with ``insolvencies`` watched, a company's open proceedings
        as its stored record lists them).
    credits : int
        What those cost.
    budget_left : int or None
        The client's budget left (``None``: no budget).
    """

    name: str
    members: int
    stale: tuple[str, ...]
    lookups: int
    credits: int
    budget_left: int | None

    @property
    def within_budget(self) -> bool:
        """Whether the budget (if any) covers the whole refresh."""
        return self.budget_left is None or self.credits <= self.budget_left

    def __str__(self) -> str:
        budget = "no budget" if self.budget_left is None else f"budget left {self.budget_left}"
        return (
            f"watchlist {self.name!r}: {len(self.stale)} of {self.members} members stale → {self.lookups} lookups, "
            f"{self.credits} credits ({budget})"
        )


@dataclass(frozen=True)
class WatchlistRefresh:
    """What a refresh did.

    Attributes
    ----------
    changes : pandas.DataFrame
        The changes the refreshed answers brought, as :meth:`regkit.client.Client.changes` gives them (columns
        ``entity_id``, ``operation``, ``fetched_before``, ``fetched_after``, then those of
        :func:`regkit.frames.changes_table`), only comparisons with the answers this refresh fetched.
    refreshed : tuple of str
        The members fetched again.
    skipped : tuple of str
        Stale members left stale because ``max_credits`` or the budget did not cover them.
    errors : dict
        Member → the error its lookup ended with (an id the register no longer knows, ...); the others were
        refreshed.
    credits : int
        What the refresh cost.
    without_reports : tuple of str
        Companies whose fresh record lists no annual report: their financials were not fetched (an empty answer
        costs as much as a full one).
    """

    changes: pd.DataFrame
    refreshed: tuple[str, ...]
    skipped: tuple[str, ...]
    errors: Mapping[str, RegkitError] = field(default_factory=dict)
    credits: int = 0
    without_reports: tuple[str, ...] = ()

    def __repr__(self) -> str:
        changed = self.changes["entity_id"].nunique() if len(self.changes) else 0
        return (
            f"<WatchlistRefresh {len(self.refreshed)} refreshed, {changed} changed ({len(self.changes)} changes), "
            f"{len(self.skipped)} left stale, {len(self.errors)} errors, {self.credits} credits>"
        )

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(repr(self))}</p>" + (self.changes.head(20).to_html() if len(self.changes) else "")


class Watchlist:
    """A named set of companies and persons kept in the cache (see the module docstring).

    Get one with :meth:`regkit.client.Client.watchlist`; the constructor is not public.
    """

    def __init__(
        self,
        client: Any,
        caller: Caller,
        cache: ClientCache,
        name: str,
        definition: Mapping[str, Any],
        changes: Callable[..., pd.DataFrame],
        mark_stale: Callable[[str], int],
    ) -> None:
        self._client = client
        self._caller = caller
        self._cache = cache
        self._changes = changes
        self._mark_stale = mark_stale
        self.name = name
        self.companies: tuple[str, ...] = tuple(definition.get("companies", ()))
        self.persons: tuple[str, ...] = tuple(definition.get("persons", ()))
        self.categories: tuple[str, ...] = tuple(definition.get("categories", CATEGORIES))
        self.stale_after = timedelta(seconds=float(definition.get("stale_after", DEFAULT_STALE_AFTER.total_seconds())))
        self._proceedings: dict[str, list[str]] = {}  # the open proceedings of the companies a refresh fetched

    # -- what it is --------------------------------------------------------------------------------------------

    @property
    def members(self) -> tuple[str, ...]:
        """Its companies, then its persons."""
        return self.companies + self.persons

    def definition(self) -> dict[str, Any]:
        """What is stored: ``companies``, ``persons``, ``categories``, ``stale_after`` (seconds)."""
        return {
            "companies": list(self.companies),
            "persons": list(self.persons),
            "categories": list(self.categories),
            "stale_after": self.stale_after.total_seconds(),
        }

    def add(self, ids: Iterable[str]) -> Watchlist:
        """Add companies (by id) and persons (by UUID); stored at once. Returns the watchlist."""
        companies, persons = split_members(ids)
        self.companies = tuple(dict.fromkeys(self.companies + companies))
        self.persons = tuple(dict.fromkeys(self.persons + persons))
        self._save()
        return self

    def remove(self, ids: Iterable[str]) -> Watchlist:
        """Remove members; stored at once. Returns the watchlist."""
        companies, persons = split_members(ids)
        self.companies = tuple(c for c in self.companies if c not in set(companies))
        self.persons = tuple(p for p in self.persons if p not in set(persons))
        self._save()
        return self

    def delete(self) -> None:
        """Delete the watchlist from the cache (its members' answers stay cached)."""
        self._cache.store.watchlists.delete(self.name)

    def _save(self) -> None:
        self._cache.store.watchlists.put(self.name, self.definition())

    # -- freshness ---------------------------------------------------------------------------------------------

    def _lookups(self, member: str) -> list[str]:
        table = COMPANY_LOOKUPS if COMPANY_ID_PATTERN.match(member) else PERSON_LOOKUPS
        return list(dict.fromkeys(table[c] for c in self.categories if c in table))

    def _fetched(self) -> tuple[dict[str, list[str]], dict[str, list[datetime | None]]]:
        """Each member's plan (:meth:`_plan`) and its answers' fetch times (``None`` where the cache has none, or it
        has expired): one read of the cache for both."""
        plan = self._plan(self.members)
        ops = [(member, name) for member in self.members for name in plan[member] if name != "insolvency"]
        answers = self._caller.peek([lookup_op(name, member, False) for member, name in ops]) if ops else []
        fetched: dict[str, list[datetime | None]] = {member: [] for member in self.members}
        for (member, _), answer in zip(ops, answers):
            fetched[member].append(None if answer is None else _utc(answer.fetched_at))
        return plan, fetched

    def members_frame(self) -> pd.DataFrame:
        """Its members and how fresh each is (nothing is sent).

        Returns
        -------
        pandas.DataFrame
            ===========  ===================  ================================================================
            entity_id    str                  the company id or person UUID
            entity_type  str                  ``company`` or ``person``
            fetched_at   datetime64[us, UTC]  the oldest of its answers the categories need (NaT: one is missing
                                              or expired)
            stale        bool                 whether a refresh fetches it
            ===========  ===================  ================================================================
        """
        import pandas as pd

        (_, fetched), now = self._fetched(), datetime.now(timezone.utc)
        rows = []
        for member, times in fetched.items():
            oldest = None if not times or any(t is None for t in times) else min(t for t in times if t is not None)
            rows.append(
                (
                    member,
                    "company" if member in self.companies else "person",
                    oldest,
                    _stale(times, now, self.stale_after),
                )
            )
        frame = pd.DataFrame(rows, columns=["entity_id", "entity_type", "fetched_at", "stale"])
        frame["entity_id"] = frame["entity_id"].astype("string")
        frame["entity_type"] = frame["entity_type"].astype("string")
        frame["fetched_at"] = pd.to_datetime(frame["fetched_at"], utc=True).astype("datetime64[us, UTC]")
        frame["stale"] = frame["stale"].astype(bool)
        return frame

    def _stale(self) -> tuple[list[str], dict[str, list[str]]]:
        """The stale members, stalest first, and every member's plan."""
        (plan, fetched), now = self._fetched(), datetime.now(timezone.utc)
        stale = [member for member, times in fetched.items() if _stale(times, now, self.stale_after)]
        oldest = datetime.min.replace(tzinfo=timezone.utc)
        ordered = sorted(
            stale,
            key=lambda m: (
                not any(t is None for t in fetched[m]),
                min((t for t in fetched[m] if t is not None), default=oldest),
            ),
        )
        return ordered, plan

    def _plan(self, members: Sequence[str]) -> dict[str, list[str]]:
        """The lookups refreshing each of ``members`` sends at most: its lookups, less the financials of a company
        whose cached record lists no annual report (a refresh does not fetch them); one read of the cache."""
        plan = {member: self._lookups(member) for member in members}
        companies = [m for m, names in plan.items() if "financials" in names and "company" in names]
        records = self._caller.peek([lookup_op("company", m, False) for m in companies]) if companies else []
        for member, record in zip(companies, records):
            if record is not None and isinstance(record.data, dict) and not record.data.get("indicators"):
                plan[member] = [name for name in plan[member] if name != "financials"]
        if "insolvencies" in self.categories:  # each open proceeding of the stored record (expired or not)
            for member in (m for m in members if COMPANY_ID_PATTERN.match(m)):
                plan[member] += ["insolvency"] * len(self._open_proceedings(member))
        return plan

    def _open_proceedings(self, company_id: str) -> list[str]:
        """The open proceedings of the company's stored record (an expired one too), without sending anything."""
        if not self._cache.enabled:
            return []
        stored = self._cache.store.get(self._caller.cache_key(lookup_op("company", company_id, False)))
        try:
            record = json.loads(stored.content) if stored is not None else None
        except ValueError:
            return []
        summaries = record.get("insolvencies") if isinstance(record, dict) else None
        return [s["id"] for s in summaries or () if isinstance(s, dict) and s.get("closed_at") is None]

    @staticmethod
    def _price(names: Sequence[str]) -> int:
        return sum(
            _PROCEEDING_PRICE if name == "insolvency" else LOOKUPS[name].credits(realtime=False) for name in names
        )

    def estimate(self) -> WatchlistEstimate:
        """What refreshing the stale members costs now (nothing is sent); see :class:`WatchlistEstimate`."""
        return self._estimate(*self._stale())

    def _estimate(self, stale: list[str], plan: Mapping[str, list[str]]) -> WatchlistEstimate:
        return WatchlistEstimate(
            self.name,
            len(self.members),
            tuple(stale),
            sum(len(plan[m]) for m in stale),
            sum(self._price(plan[m]) for m in stale),
            self._client.budget.remaining,
        )

    # -- refreshing --------------------------------------------------------------------------------------------

    def refresh(self, max_credits: int | None = None, progress: bool = True) -> WatchlistRefresh:
        """Fetch the stale members again — the stalest first, as far as ``max_credits`` and the budget reach —
        and return the changes that brought.

        Parameters
        ----------
        max_credits : int, optional
            Spend at most this much; stale members beyond it stay stale (``skipped``). Without it, a refresh the
            budget cannot cover in full raises before anything is sent.
        progress : bool
            Show the company lookups' progress bar.

        Returns
        -------
        WatchlistRefresh

        Raises
        ------
        ValidationError
            ``max_credits`` is not a whole number of at least 0.
        BudgetExceededError
            Without ``max_credits``, when the budget left does not cover the refresh (nothing is sent).
        regkit.Interrupted
            On an interrupt: nothing more is sent; what arrived is cached (refreshing again resumes).
        """
        if max_credits is not None and (
            isinstance(max_credits, bool) or not isinstance(max_credits, int) or max_credits < 0
        ):
            raise ValidationError(
                f"max_credits must be a whole number of at least 0, not {max_credits!r}",
                suggestion="e.g. refresh(max_credits=500), or estimate() first",
            )
        stale, plan = self._stale()
        estimate = self._estimate(stale, plan)
        left = self._client.budget.remaining
        if max_credits is None and left is not None and estimate.credits > left:
            raise BudgetExceededError(
                f"refreshing watchlist {self.name!r} costs {estimate.credits} credits and the budget has {left} "
                f"left; nothing was sent. Pass max_credits={left} to refresh the stalest members it covers"
            )
        cap = min(c for c in (max_credits, left) if c is not None) if (max_credits, left) != (None, None) else None
        chosen: list[str] = []
        spent = 0
        for member in estimate.stale:
            price = self._price(plan[member])
            if cap is not None and spent + price > cap:
                continue
            chosen.append(member)
            spent += price
        skipped = tuple(m for m in estimate.stale if m not in set(chosen))
        started = datetime.now(timezone.utc)
        errors: dict[str, RegkitError] = {}
        self._proceedings = {}
        with self._client.spending(f"watchlist {self.name!r} refresh") as run:
            if estimate.stale:
                run.announce(
                    f"{len(chosen)} of {len(estimate.stale)} stale members to refresh → {spent} credits at most"
                    + (f"; {len(skipped)} left stale" if skipped else "")
                )
            for member in chosen:
                self._mark_stale(member)  # free: the next lookup of each fetches it, the old answer a version
            try:
                found, without_reports, deferred = self._fetch(
                    chosen, plan, progress, None if cap is None else cap - spent
                )
                errors.update(found)
            except KeyboardInterrupt:
                raise run.interrupted(
                    f"watchlist {self.name!r}: refresh again to go on (what arrived is cached)"
                ) from None
            credits = run.credits
        changes = self._changes_since(chosen, started)
        return WatchlistRefresh(changes, tuple(chosen), skipped + deferred, errors, credits, without_reports)

    def _fetch(
        self, chosen: Sequence[str], plan: Mapping[str, list[str]], progress: bool, spare: int | None
    ) -> tuple[dict[str, RegkitError], tuple[str, ...], tuple[str, ...]]:
        """Fetch the lookups of ``chosen``: the company records first (in bulk), then the rest one by one; a
        company whose fresh record lists no annual report has no financials fetched (they would be empty: 10
        credits for nothing). A company whose cached record listed none, so that its ``plan`` (the estimate) left its
        financials out, has them fetched when its fresh record lists a report — as far as ``spare`` credits reach, so
        the refresh never spends more than its cap; beyond it the company stays stale (deferred). With
        ``insolvencies`` watched, each refreshed company's open proceedings are fetched again too (their events are
        published without the record changing), as far as ``spare`` credits still reach. Returns the errors, the
        companies without reports and the deferred companies."""
        client, errors = self._client, {}
        by_lookup: dict[str, list[str]] = {}
        for member in chosen:
            for name in self._lookups(member):
                by_lookup.setdefault(name, []).append(member)
        without_reports: list[str] = []
        if by_lookup.get("company"):
            batch = client.get_companies(by_lookup.pop("company"), errors="collect", progress=progress)
            errors.update(batch.errors)
            reports = {r.id: bool(r.raw.get("indicators")) for r in batch.records if r is not None}
            if "insolvencies" in self.categories:
                self._proceedings = {
                    r.id: [s["id"] for s in r.raw.get("insolvencies") or () if s.get("closed_at") is None]
                    for r in batch.records
                    if r is not None
                }
            without_reports = [m for m in by_lookup.get("financials", ()) if reports.get(m) is False]
            by_lookup["financials"] = [m for m in by_lookup.get("financials", ()) if reports.get(m) is not False]
        methods = {
            "financials": client.get_financials,
            "owners": client.get_owners,
            "holdings": client.get_holdings,
            "person": client.get_person,
            "person_holdings": client.get_person_holdings,
        }
        deferred: list[str] = []
        for name, members in by_lookup.items():
            for member in members:
                if member in errors:
                    continue
                if name == "financials" and name not in plan.get(member, ()):  # a first report since the estimate
                    price = LOOKUPS["financials"].credits(realtime=False)
                    if spare is not None and spare < price:
                        deferred.append(member)
                        continue
                    spare = None if spare is None else spare - price
                try:
                    methods[name](member)
                except BudgetExceededError:
                    raise
                except RegkitError as error:
                    errors[member] = error
        for member, proceedings in self._proceedings.items():
            for proceeding_id in proceedings:
                if spare is not None and spare < _PROCEEDING_PRICE:
                    break
                self._mark_stale(proceeding_id)
                try:
                    client.get_insolvency(proceeding_id)
                except BudgetExceededError:
                    raise
                except RegkitError as error:
                    errors[member] = error
                spare = None if spare is None else spare - _PROCEEDING_PRICE
        return errors, tuple(without_reports), tuple(deferred)

    def _changes_since(self, members: Sequence[str], started: datetime) -> pd.DataFrame:
        import pandas as pd

        frames = [f for f in (self._changes(member, list(self.categories)) for member in members) if len(f)]
        for member, proceedings in self._proceedings.items():  # a proceeding's changes, under its company
            for proceeding_id in proceedings:
                found = self._changes(proceeding_id, ["insolvencies"])
                if len(found):
                    frames.append(
                        found.assign(entity_id=pd.array([member] * len(found), dtype=found["entity_id"].dtype))
                    )
        if not frames:
            return _empty_changes(self._changes)
        frame = pd.concat(frames, ignore_index=True)
        return frame[frame["fetched_after"] >= pd.Timestamp(started)].reset_index(drop=True)

    def changes(self) -> pd.DataFrame:
        """Every change the cache's versions of its members hold (0 credits, nothing sent), oldest first per
        member: :meth:`regkit.client.Client.changes` of each, in the watchlist's categories."""
        import pandas as pd

        frames = [self._changes(member, list(self.categories)) for member in self.members]
        return pd.concat(frames, ignore_index=True) if frames else _empty_changes(self._changes)

    def __repr__(self) -> str:
        return (
            f"<Watchlist {self.name!r}: {len(self.companies)} companies, {len(self.persons)} persons, "
            f"{', '.join(self.categories)}; stale after {self.stale_after}>"
        )


def _empty_changes(changes: Callable[..., pd.DataFrame]) -> pd.DataFrame:
    """An empty frame of changes with the columns and dtypes :meth:`regkit.client.Client.changes` gives (read for a
    well-formed id no cache holds: nothing is sent)."""
    return changes("DE-HRB-A0000-0", None).iloc[0:0]


def split_members(ids: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Company ids and person UUIDs (lower-cased) of ``ids``, each in order; anything else is refused."""
    if isinstance(ids, str):
        ids = [ids]
    companies: list[str] = []
    persons: list[str] = []
    for value in ids:
        if not isinstance(value, str):
            raise ValidationError(
                f"a member is a company id or a person's UUID, not {type(value).__name__}",
                suggestion="pass record.id of a company or a person",
            )
        text = value.strip()
        if COMPANY_ID_PATTERN.match(text):
            companies.append(text)
        elif UUID_PATTERN.match(text):
            persons.append(text.lower())
        else:
            raise ValidationError(
                f"{value!r:.80} is neither a company id (DE-HRB-B1234-5678) nor a person's UUID",
                suggestion="pass record.id of a company or a person (an insolvency proceeding is not watched)",
            )
    return tuple(companies), tuple(persons)


def members_of(ids: Iterable[str], kind: str) -> tuple[str, ...]:
    """``ids`` checked to be all ``companies`` (company ids) or all ``persons`` (UUIDs), in order, once each."""
    companies, persons = split_members(ids)
    wrong = persons if kind == "companies" else companies
    if wrong:
        other = "persons" if kind == "companies" else "companies"
        raise ValidationError(
            f"{kind} holds {wrong[0]!r}, which is one of the {other}",
            suggestion=f"pass it in {other}=[...] (or watchlist.add([...]), which tells them apart)",
        )
    return tuple(dict.fromkeys(companies if kind == "companies" else persons))


def check_definition(
    name: Any, categories: Any, stale_after: Any
) -> tuple[str, tuple[str, ...] | None, timedelta | None]:
    """The checked name, categories and age of a watchlist (before anything is stored)."""
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise ValidationError(
            f"name must be a non-empty text of at most 200 characters, not {name!r:.80}", suggestion=_NAME_HINT
        )
    wanted: tuple[str, ...] | None = None
    if categories is not None:
        wanted = tuple([categories] if isinstance(categories, str) else categories)
        unknown = sorted(set(wanted) - set(CATEGORIES), key=str)
        if unknown or not wanted:
            raise ValidationError(
                f"unknown categories {unknown}" if unknown else "categories must name at least one category",
                suggestion=f"categories are a monitor's preferences: {', '.join(CATEGORIES)}",
            )
    age: timedelta | None = None
    if stale_after is not None:
        if isinstance(stale_after, str):
            import pandas as pd

            try:
                age = pd.Timedelta(stale_after).to_pytimedelta()
            except ValueError:
                age = None
        elif isinstance(stale_after, timedelta):
            age = stale_after
        if age is None or age <= timedelta(0):
            raise ValidationError(
                f"stale_after must be a positive duration, not {stale_after!r:.80}",
                suggestion="e.g. stale_after='7D', '12h' or timedelta(days=30)",
            )
    return name.strip(), wanted, age


def _stale(times: Sequence[datetime | None], now: datetime, age: timedelta) -> bool:
    return not times or any(t is None or now - t > age for t in times)


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
