"""The beneficial owners of a Transparenzregister extract (``ExtractRecord.to_dataframe()``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ._columns import DATE, FLOAT, INT, STR, build_frame, rows_to_columns
from ._input import as_dict, is_collection, wrong_kind
from .ownership import share_fraction

__all__ = ["beneficial_owners"]

SPEC = [
    ("extract_id", STR),
    ("company_id", STR),
    ("position", INT),
    ("title", STR),
    ("first_name", STR),
    ("last_name", STR),
    ("full_name", STR),
    ("date_of_birth", DATE),
    ("city", STR),
    ("country", STR),
    ("nationalities", STR),
    ("interest_type", STR),
    ("interest_scope", STR),
    ("interest_percentage", FLOAT),
    ("share", FLOAT),
]
_EMPTY: Mapping[str, Any] = {}


def _extracts(extract: Any) -> list[Mapping[str, Any]]:
    if isinstance(getattr(extract, "raw", extract), Mapping):
        return [as_dict(extract)]
    if is_collection(extract):
        return [as_dict(item) for item in extract]
    raise wrong_kind(
        "an extract (record or dict) or several",
        extract,
        "pass client.get_extract(extract_id) or client.wait_for_extract(...) (or its .raw), or a list of them",
        function="beneficial_owners",
    )


def beneficial_owners(extract: Any) -> pd.DataFrame:
    """One row per beneficial owner (``report.ubos``) of one or more extracts.

    Parameters
    ----------
    extract : record, dict, or many of them
        Extract resources; one still ``processing`` (``report`` null) or ``failed`` gives no rows.

    Returns
    -------
    pandas.DataFrame
        ``extract_id``, ``company_id`` (str; NaN in sandbox mode), ``position`` (Int64), ``title``,
        ``first_name``, ``last_name``, ``full_name`` (str), ``date_of_birth`` (datetime64[us]), ``city``,
        ``country`` (str), ``nationalities`` (str, ``"; "``-joined), ``interest_type``, ``interest_scope``
        (str), ``interest_percentage`` (Float64, percent as the report gives it), ``share`` (Float64, the same
        interest as a **fraction** in [0, 1], as every regkit frame gives shares: ``interest_percentage`` / 100).
        Every member of the report is nullable; nulls stay null (a fictional owner's share is <NA>, never 0).

    Examples
    --------
    >>> beneficial_owners({"id": "tre_1", "company_id": None, "status": "processing", "report": None}).shape
    (0, 15)
    """
    rows = []
    for e in _extracts(extract):
        for ubo in (e.get("report") or _EMPTY).get("ubos") or ():
            person = ubo.get("natural_person") or _EMPTY
            interest = ubo.get("interest") or _EMPTY
            nationalities = person.get("nationalities")
            rows.append(
                (
                    e.get("id"),
                    e.get("company_id"),
                    ubo.get("position"),
                    person.get("title"),
                    person.get("first_name"),
                    person.get("last_name"),
                    person.get("full_name"),
                    person.get("date_of_birth"),
                    person.get("city"),
                    person.get("country"),
                    None if nationalities is None else "; ".join(nationalities),
                    interest.get("type"),
                    interest.get("scope"),
                    interest.get("percentage"),
                    share_fraction(interest.get("percentage"), 100),
                )
            )
    return build_frame(rows_to_columns(rows, SPEC), SPEC)
