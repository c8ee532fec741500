"""Checks of :class:`regkit.Client`'s own arguments, made before anything is opened or sent.

Each function returns the argument as the client uses it, or raises
:class:`~regkit.errors.ValidationError` naming the argument, what it got and what it takes.
"""

from __future__ import annotations

import math
import re
from typing import Any

from regkit.errors import ValidationError

__all__ = [
    "budget",
    "budget_scope",
    "budget_member",
    "max_workers",
    "timeout",
    "retries",
    "policy",
    "offline",
    "adapter",
    "ledger_file",
]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _got(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})"


def budget(value: Any) -> int | None:
    """``None`` (no limit) or a whole number of credits ≥ 0.

    Examples
    --------
    >>> budget(300)
    300
    >>> budget("100")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: budget must be a whole number of credits (>= 0) or None, not '100' (str) — e.g. Client(budget=100); nothing was sent
    """
    if value is None or (_whole(value) and value >= 0):
        return value
    raise ValidationError(
        f"budget must be a whole number of credits (>= 0) or None, not {_got(value)}",
        suggestion="e.g. Client(budget=100); nothing was sent",
    )


_TEAM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_SCOPE_EXAMPLE = "e.g. Client(budget=300, budget_scope='redis://host:6379/0#team-a')"


def budget_scope(value: Any) -> tuple[str, str] | None:
    """``None`` (the client's own budget) or ``"<Redis URL>#<team>"``: the Redis URL and the team's name.

    The URL is ``redis://``, ``rediss://`` (TLS) or ``unix://``; the team's name has letters, digits, ``.``,
    ``_`` and ``-`` (at most 64, the first a letter or digit). Messages never show a password of the URL.

    Examples
    --------
    >>> budget_scope("redis://:s3cret@cache.example:6379/0#team-a")
    ('redis://:s3cret@cache.example:6379/0', 'team-a')
    >>> budget_scope("https://cache.example/#team-a")
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: budget_scope must be a Redis URL (redis://, rediss:// or unix://) and '#' with a team name, not 'https://cache.example/#team-a' — e.g. Client(budget=300, budget_scope='redis://host:6379/0#team-a')
    """
    from ..cache.client_cache import is_redis_url, redact_url

    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(
            f"budget_scope must be a Redis URL with '#' and a team name, or None, not {_got(value)}",
            suggestion=_SCOPE_EXAMPLE,
        )
    shown = redact_url(value.strip())
    if not is_redis_url(value):
        raise ValidationError(
            f"budget_scope must be a Redis URL (redis://, rediss:// or unix://) and '#' with a "
            f"team name, not {shown!r}",
            suggestion=_SCOPE_EXAMPLE,
        )
    url, sep, team = value.strip().rpartition("#")
    if not sep:
        raise ValidationError(
            f"budget_scope {shown!r} names no team: add '#' and the team's name to the Redis URL",
            suggestion=_SCOPE_EXAMPLE,
        )
    if not _TEAM.fullmatch(team):
        raise ValidationError(
            f"budget_scope: team name {team!r} is not valid: letters, digits, '.', '_' and '-', "
            "at most 64, starting with a letter or digit",
            suggestion=_SCOPE_EXAMPLE,
        )
    return url, team


def budget_member(value: Any, scope: tuple[str, str] | None) -> str | None:
    """``None`` (``user@host pid N``) or who spends in the team ledger: 1-100 printable characters; only with
    ``budget_scope``."""
    if value is None:
        return None
    if scope is None:
        raise ValidationError(
            "budget_member names who spends from a team budget, and there is none",
            suggestion="pass budget_scope='redis://host:6379/0#team-a' too, or leave budget_member out",
        )
    if isinstance(value, str) and 1 <= len(value.strip()) <= 100 and value.isprintable():
        return value.strip()
    raise ValidationError(
        f"budget_member must be a name of 1 to 100 printable characters, not {_got(value)}",
        suggestion="e.g. Client(..., budget_member='alice')",
    )


def max_workers(value: Any) -> int:
    """Threads of bulk calls: a whole number from 1 to 64."""
    if _whole(value) and 1 <= value <= 64:
        return value
    raise ValidationError(
        f"max_workers must be a whole number from 1 to 64, not {_got(value)}",
        suggestion="e.g. Client(max_workers=8); the interface's rate limit is per key anyway",
    )


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def timeout(value: Any) -> float | tuple[float, float]:
    """Seconds to wait: a positive number, or a pair ``(connect, read)`` of positive numbers."""
    if _seconds(value):
        return float(value)
    if isinstance(value, tuple) and len(value) == 2 and all(_seconds(v) for v in value):
        return (float(value[0]), float(value[1]))
    raise ValidationError(
        f"timeout must be a positive number of seconds or a pair (connect, read), not {_got(value)}",
        suggestion="e.g. Client(timeout=30) or Client(timeout=(5, 60))",
    )


def retries(value: Any) -> Any:
    """A whole number of retries ≥ 0, or a :class:`~regkit.client.transport.retry.RetryPolicy`."""
    from ..transport.retry import RetryPolicy

    if isinstance(value, RetryPolicy):
        return value
    if _whole(value) and value >= 0:
        return RetryPolicy(retries=value)
    raise ValidationError(
        f"retries must be a whole number >= 0 or a RetryPolicy, not {_got(value)}",
        suggestion="e.g. Client(retries=4), or Client(retries=0) to turn retrying off",
    )


def policy(value: Any) -> Any:
    """``None`` (the default lifetimes) or a :class:`~regkit.client.cache.policy.CachePolicy`."""
    from ..cache.policy import CachePolicy

    if value is None:
        return CachePolicy()
    if isinstance(value, CachePolicy):
        return value
    raise ValidationError(
        f"policy must be a regkit.CachePolicy or None, not {_got(value)}",
        suggestion="e.g. Client(policy=regkit.CachePolicy(company=timedelta(days=7)))",
    )


def offline(value: Any) -> bool:
    """``True`` or ``False``."""
    if isinstance(value, bool):
        return value
    raise ValidationError(f"offline must be True or False, not {_got(value)}")


def adapter(value: Any) -> Any:
    """``None`` or a requests transport adapter (an object with ``send`` and ``close``)."""
    if value is None or (callable(getattr(value, "send", None)) and callable(getattr(value, "close", None))):
        return value
    raise ValidationError(
        f"adapter must be a requests transport adapter (with send() and close()), not {_got(value)}",
        suggestion="e.g. regkit.local.open_local_register().adapter, or leave it out",
    )


def ledger_file(value: Any) -> Any:
    """``"default"``, ``None``/``False`` (no file) or a path (its directory is made when the first row comes).

    Examples
    --------
    >>> ledger_file(None) is None
    True
    >>> ledger_file(3)
    Traceback (most recent call last):
    ...
    regkit.errors.ValidationError: ledger_file must be 'default', a path or None, not 3 (int) — e.g. Client(ledger_file='~/regkit-ledger.jsonl'); nothing was sent
    """
    import os
    from pathlib import Path

    if value is None or value is False:
        return None
    if value == "default":
        return "default"
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        return Path(str(value).strip() if isinstance(value, str) else value).expanduser()
    raise ValidationError(
        f"ledger_file must be 'default', a path or None, not {_got(value)}",
        suggestion="e.g. Client(ledger_file='~/regkit-ledger.jsonl'); nothing was sent",
    )
