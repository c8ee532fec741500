"""What changed between two answers about one entity, as a frame: the typed changes of ``changes-and-webhooks``.

The changes are :func:`regkit.schema.changes.diff_answers`' — the function the local register makes its monitors'
webhook events with — so a frame of a diff and the changes an event delivered read alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from regkit.errors import ValidationError
from regkit.schema.changes import CATEGORIES, CHANGE_MEMBERS, DIFFERS, KINDS, diff_answers

from ._columns import DATE, STR, Cat, build_frame, rows_to_columns
from ._input import as_dict

__all__ = ["changes", "changes_table"]

_KINDS = tuple(kind for kinds in KINDS.values() for kind in kinds)
_SPEC = [("category", Cat(CATEGORIES)), ("kind", Cat(_KINDS)), ("date", DATE), ("field", STR)]


def changes_table(found: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The frame of changes already made: a webhook event's ``changes``, or the list :func:`diff_answers` gives.

    Parameters
    ----------
    found : iterable of dict
        Changes, each with the members ``category``, ``kind``, ``date``, ``field``, ``before``, ``after`` and
        ``detail`` (:data:`regkit.schema.changes.CHANGE_MEMBERS`).

    Returns
    -------
    pandas.DataFrame
        One row per change, in the order given:

        ========  ==============  ==================================================================================
        category  category        the monitor preference it falls under: basic, representation, financials,
                                  documents, ownership, holdings, insolvencies, management_positions
        kind      category        what happened (``name_changed``, ``representative_left``, ``report_filed``, ...:
                                  :data:`regkit.schema.changes.KINDS`)
        date      datetime64[us]  the register's date of the fact; NaT when the answer gives none
        field     str             the member of the answer that changed (``name``, ``representation``, ...)
        before    object          the value before: str, float or None
        after     object          the value after: str, float or None
        detail    object          a dict: what else identifies the change (a person's id and name, a document's
                                  type, a currency, ...); empty when there is nothing to add
        ========  ==============  ==================================================================================

    Raises
    ------
    regkit.ValidationError
        A change without one of the members, or with a category or kind not in the taxonomy.
    """
    if isinstance(found, (str, bytes, Mapping, pd.DataFrame)) or not isinstance(found, Iterable):
        raise ValidationError(
            f"changes_table() takes a list of changes, not {type(found).__name__}",
            suggestion="pass a webhook event's 'changes' or what regkit.schema.changes.diff_answers returned; "
            "regkit.frames.changes(before, after) compares two answers",
        )
    rows = []
    for position, change in enumerate(found):
        if not isinstance(change, Mapping):
            raise ValidationError(
                f"change {position} is a {type(change).__name__}, not a change (a dict)",
                suggestion="pass the changes of a webhook event or of regkit.schema.changes.diff_answers unaltered",
            )
        missing = [member for member in CHANGE_MEMBERS if member not in change]
        if missing:
            raise ValidationError(
                f"change {position} lacks {', '.join(missing)}",
                suggestion="pass the changes of a webhook event or of regkit.schema.changes.diff_answers unaltered",
            )
        if change["category"] not in CATEGORIES or change["kind"] not in KINDS[change["category"]]:
            raise ValidationError(
                f"change {position} is of an unknown category or kind ({change['category']!r}, {change['kind']!r})",
                suggestion="the taxonomy is regkit.schema.changes.KINDS; a newer register may send kinds regkit does "
                "not know yet: update regkit",
            )
        rows.append(change)
    frame = build_frame(
        rows_to_columns([tuple(c[m] for m in ("category", "kind", "date", "field")) for c in rows], _SPEC), _SPEC
    )
    for member in ("before", "after", "detail"):
        values = np.empty(len(rows), dtype=object)
        values[:] = [dict(c[member]) if member == "detail" else c[member] for c in rows]
        frame[member] = values
    return frame


def changes(
    before: Any, after: Any, operation: str = "get_company", categories: Iterable[str] | None = None
) -> pd.DataFrame:
    """What changed from ``before`` to ``after``, two answers of one operation about the same entity.

    Parameters
    ----------
    before, after : record or dict
        The older and the newer answer (a client record, or its ``.raw``).
    operation : str, default "get_company"
        The operation both answer (``operationId``): ``get_company``, ``get_financials``, ``get_owners``,
        ``get_ubos``, ``get_historical_owners``, ``get_holdings``, ``get_person``, ``get_person_holdings`` or
        ``get_insolvency``.
    categories : iterable of str, optional
        Only changes of these categories (a monitor's preferences); all by default.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`changes_table`, one row per change; no rows when nothing changed. What is not a
        change is not compared: presigned URLs, expiries, retrieval times, the order of lists, and members one of
        the answers does not carry.

    Raises
    ------
    regkit.ValidationError
        An operation without changes, an unknown category, or an answer that is not one.

    Examples
    --------
    >>> before = {"id": "DE-HRB-B1234-1", "capital": {"amount": 25000.0, "currency": "EUR", "start_date": "2001-02-03"}}
    >>> after = {"id": "DE-HRB-B1234-1", "capital": {"amount": 50000.0, "currency": "EUR", "start_date": "2026-11-30"}}
    >>> changes(before, after)[["kind", "date", "before", "after"]]
                  kind       date   before    after
    0  capital_changed 2026-11-30  25000.0  50000.0
    """
    if operation not in DIFFERS:
        raise ValidationError(
            f"no changes are defined for {operation!r}",
            suggestion=f"operation is one of {', '.join(DIFFERS)}",
        )
    try:
        found = diff_answers(operation, as_dict(before), as_dict(after), categories)
    except ValueError as exc:
        raise ValidationError(str(exc), suggestion=f"categories are {', '.join(CATEGORIES)}") from None
    return changes_table(found)
