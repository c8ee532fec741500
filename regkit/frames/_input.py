"""What the frame builders accept: client records (anything with ``.raw``), plain dicts, and collections.

A *company* is a CompanyV1 mapping or an object whose ``.raw`` is one. *Companies* are one company, or an
iterable of them (a list, a ``CompanyBatch`` — its failed slots, ``None``, are skipped), or a mapping of
id → company (e.g. ``read_world().companies``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from regkit.errors import ArgumentError, ValidationError

__all__ = [
    "COMPANY_HINT",
    "RECORD_HINT",
    "as_dict",
    "company_list",
    "is_collection",
    "is_company",
    "required",
    "wrong_kind",
]

#: What to pass where a company (or companies) belongs, for the suggestion of every refusal.
COMPANY_HINT = (
    "pass a company record (client.get_company(id)), a CompanyBatch (client.get_companies(ids)), a CompanyV1 dict, "
    "or a list or mapping of them"
)
#: What to pass where any one answer belongs.
RECORD_HINT = (
    "pass the record a client method returned (client.get_company(id), client.get_person(id), …) or record.raw"
)


def wrong_kind(what: str, obj: Any, hint: str, *, function: str | None = None) -> ArgumentError:
    """The error for ``obj`` given where ``what`` belongs: an :class:`~regkit.errors.ArgumentError` (also the
    ``TypeError`` this module raised before) naming what was given and, in its suggestion, what to pass.

    With ``function`` (the builder's name) the message names the builder: "as_of needs one company …, not None";
    without, it reads "expected one company …, not None".
    """
    given = "None" if obj is None else type(obj).__name__
    if given == "DataFrame":
        given = "a DataFrame (frames are what the builders return; they take the records the client returns)"
    elif isinstance(obj, str):
        given = f"the string {obj[:40]!r} (an id or a name is not a record: fetch it with the client first)"
    elif isinstance(obj, (int, float)):
        given = f"{given} {obj!r}"
    message = f"{function} needs {what}, not {given}" if function else f"expected {what}, not {given}"
    return ArgumentError(message, suggestion=hint)


def as_dict(obj: Any) -> Mapping[str, Any]:
    """The JSON object behind ``obj`` (its ``.raw`` if it has one)."""
    raw = getattr(obj, "raw", obj)
    if not isinstance(raw, Mapping):
        raise wrong_kind("a record (with .raw) or a dict", obj, RECORD_HINT)
    return raw


def is_collection(obj: Any) -> bool:
    """Whether ``obj`` is a collection of records: iterable, but not text and not a frame (whose iteration gives
    its column names)."""
    return isinstance(obj, Iterable) and not isinstance(obj, (str, bytes)) and type(obj).__name__ != "DataFrame"


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
    if not is_collection(companies):
        raise wrong_kind("a company or companies", companies, COMPANY_HINT)
    out = []
    for item in companies:
        if item is None:
            continue
        if not is_company(item):
            raise wrong_kind("CompanyV1 records (with 'id' and 'names') in the collection", item, COMPANY_HINT)
        out.append(item if type(item) is dict else as_dict(item))
    return out


class required:
    """Context manager: a ``KeyError`` inside becomes a ``ValidationError`` (a ``ValueError``) naming the member and
    the company.

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
            raise ValidationError(
                f"{self.what}{where} lacks the required member {exc.args[0]!r}",
                suggestion="pass the interface's answer as the client returned it (the record, or record.raw)",
            ) from exc
