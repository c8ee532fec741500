"""A team's budget on Redis: one credit cap for every client of the team, in any process on any machine.

``Client(budget=300, budget_scope="redis://host:6379/0#team-a")`` makes the client's ``budget`` a
:class:`TeamBudget`: the interface of :class:`~regkit.client.budget.limit.Budget` (the transport uses it unchanged),
with the state in Redis so that every client of ``team-a`` spends from one cap:

* **Atomic reservations.** Before a paid request is sent its price is reserved by a Lua script that, in one
  step, adds up the calls in flight and the team's settled spending, and either holds the price or refuses
  (:class:`~regkit.errors.BudgetExceededError`, nothing sent). Two processes that each want 300 credits
  under a 300-credit cap spend 300 together.
* **Settled with what was charged**, atomically with the team's spending, and appended to the team ledger (a
  Redis stream): :meth:`TeamBudget.ledger` says who spent what.
* **The register's account is the authoritative total.** One API key per team, spent only through regkit: the
  register's ``used_credits`` (``GET /v1/credits``, free) then counts exactly what the team spent. When the team
  begins, its first paid reservation anchors it: the account's ``used_credits`` (and ``period.reset_at``) at that
  moment are kept in Redis, and from then on the team's spending is ``used_now - anchor``. A client reads the
  account through the reader :class:`regkit.Client` binds (:meth:`TeamBudget.bind_account`).

**It fails closed.** No credit is spent that the cap has not seen:

* *Redis does not answer*: a paid call is not sent (:class:`~regkit.errors.BudgetUnavailableError` from
  :meth:`~TeamBudget.reserve`). Free calls go on.
* *Redis lost the team's data* (restarted without persistence, flushed, or rolled back to an older save): the
  team's hash is missing, holds another identity, or an older counter (``gen``) than a member has seen. It is never
  read as "no limit": a member that remembers the team re-establishes it before its next paid call — the same cap,
  and ``spent = used_now - anchor`` from the register's account (:meth:`TeamBudget.restore`; a
  :class:`~regkit.errors.BudgetWarning` says so, and the ledger gets a ``restore`` row of that total). When it
  cannot (no account reader, the register unreachable, a new billing period, a team never anchored) the error says
  why and what to do, e.g. ``restore(spent=N)``. A team created without a cap stays one: it is counted, never
  refused. The team's hash is written when the team is created, so "never had a cap" and "lost its data" differ.
* *Settling never loses a paid answer*: when Redis fails at that moment, :meth:`~TeamBudget.settle` issues a
  :class:`~regkit.errors.BudgetWarning`, keeps the charge pending in this handle and returns a short note;
  pending charges are recorded before this handle's next reservation (and by its background thread), and while
  any are pending and Redis still does not answer, paid calls are refused. Re-establishing the team from the
  account counts this handle's pending charges once (the account already has them).
* *A member killed mid-call*: each reservation lives :attr:`TeamBudget.hold` seconds (default 120), extended by
  the heartbeat of the process that holds it every third of that while the call runs. A reservation whose hold
  passed — its process stopped beating — is **not** freed: it becomes an *orphan*, still counted against the cap,
  since the register may have charged its call. Orphans are resolved by reconciling with the account
  (:meth:`TeamBudget.reconcile`, tried by a reservation that finds orphans, at most once a second per handle):
  read the team's counter ``gen`` and its live reservations (script 1), read the account, and — only if no
  reservation or settlement happened in between and no call is in flight (script 2) — set ``spent = used_now -
  anchor`` and drop the orphans.

  *The trade-off*: until a quiet moment lets the reconciliation run, an orphan's credits stay held even if its call
  was never charged — the team may be refused credits it still has, never granted credits it has not. A team
  that is never quiet (a reservation in flight at every moment) keeps its orphans held until the explicit
  :meth:`~TeamBudget.reconcile` finds such a moment. A reconciliation trusts that a dead member's request has been
  charged or dropped by the register once its hold passed (the register answers far sooner than ``hold``).
  Charges settled against a reservation from before a restore, or against an orphan a reconciliation already
  settled, may be in the account twice over: they are counted (the cap stays safe) and marked ``unsure``, and the
  next reconciliation, at a quiet moment, corrects the total.

What is not covered: a member that joins after Redis lost the team's data, while no member that remembers it runs,
begins the team anew (anchored at the account's total then). Run the team's Redis with persistence (AOF or RDB)
when members come and go.

Keys (all under one Redis Cluster hash slot, ``{team}``; nothing under ``regkit:*``, so ``regkit cache clear``
leaves them alone)::

    regkit-team:{team-a}:budget    hash: the team — id, incarnation, cap (absent: no cap), spent, gen, unsure,
                                   and its anchor (the account's used_credits, period.reset_at and period.type
                                   when the team began); written when the team is created
    regkit-team:{team-a}:holds     hash: reservation id -> credits held by a call in flight
    regkit-team:{team-a}:expiry    sorted set: reservation id -> when its hold ends (ms, Redis' clock)
    regkit-team:{team-a}:orphans   hash: reservation id -> credits of a call whose member stopped beating
    regkit-team:{team-a}:carried   set: reservations held again after a reconciliation settled them
    regkit-team:{team-a}:ledger    stream of settlements: who, call, path, credits, at

No API key, Redis password or request body is ever written there: reservation ids are random, the anchor holds
only numbers and a date, and the ledger holds the member's name, the client method, the request path and the
credits.

**The cap lives in Redis.** The first client that passes ``budget=N`` for a team sets the team's cap to ``N``;
a later client passing another ``N`` is refused (:class:`~regkit.errors.ValidationError`) until someone
changes the cap on purpose with :meth:`TeamBudget.set_limit`. A client without ``budget`` uses the team's cap if
it has one; a team without a cap counts and records spending but refuses nothing. Spending accumulates: for a
new period, use a new team name (``#team-a-2026-06``).

The package, by role: :mod:`~regkit.client.team.budget` holds :class:`TeamBudget`, a facade composing the others;
:mod:`~regkit.client.team.reservations` reserves and settles; :mod:`~regkit.client.team.heartbeat` keeps the calls
in flight held (and leaves orphans when a member stops); :mod:`~regkit.client.team.reconciliation` reconciles with
the register's account and restores a lost team; :mod:`~regkit.client.team.scripts` holds the Lua scripts that do
each step atomically inside Redis. Below them, :mod:`~regkit.client.team.connection` (the team's keys and scripts on
its Redis), :mod:`~regkit.client.team.memory` (what one handle remembers), :mod:`~regkit.client.team.charges`
(recording settlements) and :mod:`~regkit.client.team.model` (what they pass between them).
"""

from __future__ import annotations

from .budget import TeamBudget
from .model import DEFAULT_HOLD_SECONDS, LEDGER_LENGTH, TeamReconciliation, TeamReservation, default_member

__all__ = [
    "TeamBudget",
    "TeamReservation",
    "TeamReconciliation",
    "DEFAULT_HOLD_SECONDS",
    "LEDGER_LENGTH",
    "default_member",
]
