"""What the financial-statement builders accept: financials answers, one or a mapping of company id → answer.

A *financials answer* is the JSON object of ``GET /v1/company/{id}/financials`` (members ``indicators``,
``reports``, ``merged``), or a record whose ``.raw`` is one (``client.get_financials``). The answer does not
name its company: a record of the client carries it as ``company_id``; a plain dict is named by handing in a
mapping of company id → answer (alone, its company is left missing).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from regkit.errors import ArgumentError, NoFinancialReportsWarning, user_stacklevel

__all__ = ["financial_answers", "is_financials", "warn_without_reports"]


def _raw(obj: Any) -> Any:
    return getattr(obj, "raw", obj)


def _is_answer(obj: Any) -> bool:
    raw = _raw(obj)
    return isinstance(raw, Mapping) and "reports" in raw and "indicators" in raw and "names" not in raw


def is_financials(obj: Any) -> bool:
    """Whether ``obj`` is a financials answer, or a non-empty mapping of company id → financials answer."""
    if _is_answer(obj):
        return True
    return isinstance(obj, Mapping) and bool(obj) and all(_is_answer(v) for v in obj.values())


def _company_of(obj: Any) -> str | None:
    named = getattr(obj, "company_id", None) if hasattr(obj, "raw") else None
    return named if isinstance(named, str) else _raw(obj).get("company_id")


def financial_answers(answers: Any) -> list[tuple[str | None, Mapping[str, Any]]]:
    """``(company_id, answer)`` pairs of one answer or a mapping of id → answer, in input order.

    Raises
    ------
    ArgumentError
        (a ``TypeError``) ``answers`` is neither (a company record, say: its 13 indicators are not statements).
    """
    if _is_answer(answers):
        return [(_company_of(answers), _raw(answers))]
    if isinstance(answers, Mapping) and all(_is_answer(v) for v in answers.values()):
        return [(str(cid), _raw(answer)) for cid, answer in answers.items()]
    raise ArgumentError(
        f"expected a financials answer (client.get_financials(company_id), or its .raw: a dict with 'indicators' "
        f"and 'reports') or a mapping of company id -> answer, not {type(answers).__name__}",
        suggestion="pass client.get_financials(company_id) (a company record's 13 indicators are not statements)",
    )


def company_names(answers: Any) -> dict[str, str]:
    """``{company_id: name}`` of the records among ``answers`` (one, or a mapping of id → answer) that know their
    company's name (``record.company_name``, from the client's cache); plain answers name none."""
    pairs = [(_company_of(answers), answers)] if _is_answer(answers) else list(answers.items())
    return {
        str(cid): str(name)
        for cid, answer in pairs
        if cid and isinstance(name := getattr(answer, "company_name", None), str) and name
    }


def warn_without_reports(company_ids: Sequence[str | None], what: str) -> None:
    """Warn once that the companies ``company_ids`` have filed no reports (so ``what`` has no rows of theirs)."""
    if not company_ids:
        return
    named = ", ".join(str(c) for c in company_ids[:5]) + (" …" if len(company_ids) > 5 else "")
    warnings.warn(
        f"{len(company_ids)} financials answer(s) without filed reports ({named}): no {what} rows for them",
        NoFinancialReportsWarning,
        stacklevel=user_stacklevel(),
    )
