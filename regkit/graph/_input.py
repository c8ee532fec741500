"""What the graph builders accept: client records (anything with ``.raw``), plain dicts, and collections."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = ["as_dict", "iter_companies"]


def as_dict(obj: Any) -> Mapping[str, Any]:
    """The JSON object behind ``obj`` (its ``.raw`` if it has one).

    Raises
    ------
    TypeError
        When ``obj`` is neither a mapping nor has a mapping ``.raw``.
    """
    raw = getattr(obj, "raw", obj)
    if not isinstance(raw, Mapping):
        raise TypeError(f"expected a company record (with .raw) or a CompanyV1 dict, not {type(obj).__name__}")
    return raw


def _is_one_company(obj: Any) -> bool:
    raw = getattr(obj, "raw", obj)
    return isinstance(raw, Mapping) and isinstance(raw.get("id"), str) and "name" in raw


def iter_companies(companies: Any) -> Iterator[Mapping[str, Any]]:
    """Yield CompanyV1 mappings from one company, an iterable of them, or a mapping id → company.

    ``None`` items (failed slots of a ``CompanyBatch``) are skipped.

    Raises
    ------
    TypeError
        For anything else, or an item without a string ``id``.
    """
    if _is_one_company(companies):
        yield as_dict(companies)
        return
    if isinstance(companies, Mapping):
        companies = companies.values()
    if isinstance(companies, (str, bytes)) or not isinstance(companies, Iterable):
        raise TypeError(
            f"expected companies (records, dicts, or a mapping id → company), not {type(companies).__name__}"
        )
    for item in companies:
        if item is None:
            continue
        raw = as_dict(item)
        if not isinstance(raw.get("id"), str):
            raise TypeError(f"expected CompanyV1 records with a string 'id', got keys {sorted(raw)[:6]}")
        yield raw
