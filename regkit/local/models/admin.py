"""Operator actions on a state file: change a user's plan, re-enable monitors, read a balance.

They are what ``regkit local plan|enable-monitors|credits`` run, and they work while a server is using
the same state file (SQLite transactions keep both consistent).
"""

from __future__ import annotations

from typing import Any

from ..exceptions import OperatorError
from .catalog import Catalog
from .credits import credits_document
from .monitors import set_disabled
from .state import StateDB
from .users import resolve_user, store_plan, user_ref

__all__ = ["set_plan", "enable_monitors", "credit_summary", "OperatorError"]


def _check_key(catalog: Catalog, api_key: str) -> None:
    if api_key not in catalog.users:
        raise OperatorError(f"Unknown API key {api_key!r}; the world knows {', '.join(catalog.users)}.")


def set_plan(state: StateDB, catalog: Catalog, api_key: str, plan: str, now: float) -> int:
    """Put ``api_key`` on ``plan``; a plan without monitoring disables the user's monitors.

    Returns
    -------
    int
        The number of monitors this disabled (an upgrade never re-enables any).
    """
    _check_key(catalog, api_key)
    if plan not in catalog.plans:
        raise OperatorError(f"Unknown plan {plan!r}; the world has {', '.join(catalog.plans)}.")
    with state.transaction() as conn:
        store_plan(conn, api_key, plan, now)
        if catalog.plans[plan].get("monitoring"):
            return 0
        return set_disabled(conn, user_ref(api_key), True)


def enable_monitors(state: StateDB, catalog: Catalog, api_key: str) -> int:
    """Re-enable the disabled monitors of ``api_key`` (its plan must include monitoring); return how many."""
    _check_key(catalog, api_key)
    with state.transaction() as conn:
        user = resolve_user(conn, catalog, api_key)
        if not user.monitoring:
            raise OperatorError(
                f"{api_key}'s plan {user.plan_name!r} does not include monitoring; change the plan first."
            )
        return set_disabled(conn, user.ref, False)


def credit_summary(state: StateDB, catalog: Catalog, api_key: str, now: float) -> dict[str, Any]:
    """What ``GET /v1/credits`` would answer for ``api_key``, plus its plan."""
    _check_key(catalog, api_key)
    with state.connection() as conn:
        user = resolve_user(conn, catalog, api_key)
        return {"api_key": api_key, "plan": user.plan_name, **credits_document(conn, user, now)}
