"""The dates a company record carries, read here apart from :mod:`regkit.frames.status`, for the tests that check a
snapshot on or after the record's newest date against the record.

Import as ``from record_support import ...`` (pytest puts the test's directory on ``sys.path``).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["record_dates", "newest_record_date"]

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def record_dates(value: Any) -> list[str]:
    """Every ``YYYY-MM-DD`` string of a record, at any depth, except dates of birth."""
    if isinstance(value, dict):
        return [d for k, v in value.items() if k != "date_of_birth" for d in record_dates(v)]
    if isinstance(value, list):
        return [d for v in value for d in record_dates(v)]
    return [value] if isinstance(value, str) and _DAY.fullmatch(value) else []


def newest_record_date(company: dict[str, Any]) -> str | None:
    """The newest of :func:`record_dates`, or None."""
    return max(record_dates(company), default=None)
