"""What the frame builders accept: client records (anything with ``.raw``), plain dicts, and collections.

A *company* is a CompanyV1 mapping or an object whose ``.raw`` is one. *Companies* are one company, or an
iterable of them (a list, a ``CompanyBatch`` — its failed slots, ``None``, are skipped), or a mapping of
id → company (e.g. ``read_world().companies``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["as_dict", "company_list", "is_company", "required"]


def as_dict(obj: Any) -> Mapping[str, Any]:
    """The JSON object behind ``obj`` (its ``.raw`` if it has one)."""
    raw = getattr(obj, "raw", obj)
    if not isinstance(raw, Mapping):
        raise TypeError(f"expected a record (with .raw) or a dict, not {type(obj).__name__}")
    return raw


def is_company(obj: Any) -> bool:
    """Whether ``obj`` is one company (a CompanyV1 mapping or a record of one)."""
    raw = obj if type(obj) is dict else getattr(obj, "raw", obj)
    return (type(raw) is dict or isinstance(raw, Mapping)) and "id" in raw and "names" in raw


def company_list(companies: Any) -> list[Mapping[str, Any]]:
    """Normalise one company or a collection of companies to a list of CompanyV1 mappings."""
    if is_company(companies):
        return [as_dict(companies)]
    if isinstance(companies, Mapping):
        companies = companies.values()
    if isinstance(companies, (str, bytes)) or not isinstance(companies, Iterable):
        raise TypeError(f"expected a company or companies, not {type(companies).__name__}")
    out = []
    for item in companies:
        if item is None:
            continue
        if not is_company(item):
            raise TypeError(f"expected CompanyV1 records (with 'id' and 'names'), got {type(item).__name__}")
        out.append(item if type(item) is dict else as_dict(item))
    return out


class required:
    """Context manager: a ``KeyError`` inside becomes a ``ValueError`` naming the member and the company.

    Set ``.company`` to the id being processed (cheap: an attribute assignment per company).
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self.company: Any = None

    def __enter__(self) -> required:
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if kind is not None and issubclass(kind, KeyError):
            where = f" (company {self.company!r})" if self.company is not None else ""
            raise ValueError(
                f"{self.what}{where} lacks the required member {exc.args[0]!r}; is it an interface payload?"
            ) from exc
