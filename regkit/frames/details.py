"""The smaller parts of a company record: documents, insolvency summaries, industry codes, contact data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from regkit.schema import ADMINISTRATION_KINDS, DOCUMENT_TYPES, INSOLVENCY_STATUSES, PROCEEDING_KINDS

from ._columns import BOOL, DATE, INT64, STR, Cat, build_frame, rows_to_columns
from ._input import company_list, required

__all__ = ["SOCIAL_MEDIA", "contact", "documents", "industry_codes", "insolvency_summaries"]

SOCIAL_MEDIA = ("linkedin", "instagram", "github", "twitter", "facebook", "youtube", "xing", "tiktok")
"""The optional members of ``contact.social_media``, in the interface's order."""

_DOCUMENTS = [("company_id", STR), ("id", STR), ("type", Cat(DOCUMENT_TYPES)), ("date", DATE), ("latest", BOOL)]
_SUMMARIES = [
    ("company_id", STR),
    ("id", STR),
    ("current_status", Cat(INSOLVENCY_STATUSES)),
    ("court", STR),
    ("case_number", STR),
    ("proceeding_kind", Cat(PROCEEDING_KINDS)),
    ("administration_kind", Cat(ADMINISTRATION_KINDS)),
    ("opened_at", DATE),
    ("closed_at", DATE),
]
_CODES = [("company_id", STR), ("scheme", STR), ("position", INT64), ("code", STR)]
_CONTACT = [
    ("company_id", STR),
    ("website_url", STR),
    ("email", STR),
    ("phone", STR),
    ("vat_id", STR),
    *((name, STR) for name in SOCIAL_MEDIA),
]


def _frame(companies: Any, spec: list, rows_of: Any) -> pd.DataFrame:
    rows: list[tuple] = []
    check = required("company")
    with check:
        for company in company_list(companies):
            check.company = company["id"]
            rows.extend(rows_of(company))
    return build_frame(rows_to_columns(rows, spec), spec)


def _document_rows(company: Mapping[str, Any]) -> list[tuple]:
    cid = company["id"]
    entries = sorted(company["documents"], key=lambda d: d["date"])
    return [(cid, d["id"], d["type"], d["date"], d["latest"]) for d in entries]


def documents(company: Any) -> pd.DataFrame:
    """The official documents available for a company, oldest first (same-day documents in payload order).

    Parameters
    ----------
    company : record, dict, or many of them

    Returns
    -------
    pandas.DataFrame
        ==========  ==============  ===========================================================
        company_id  str
        id          str             the document id
        type        category        articles_of_association / sample_protocol / shareholder_list
        date        datetime64[us]
        latest      bool            the latest version of that document type
        ==========  ==============  ===========================================================

    Examples
    --------
    >>> company = {"id": "DE-HRB-B1234-1", "names": [], "documents": [
    ...     {"id": "d2", "type": "shareholder_list", "date": "2021-03-01", "latest": True},
    ...     {"id": "d1", "type": "shareholder_list", "date": "2015-06-30", "latest": False}]}
    >>> documents(company)[["id", "date", "latest"]]
       id       date  latest
    0  d1 2015-06-30   False
    1  d2 2021-03-01    True
    """
    return _frame(company, _DOCUMENTS, _document_rows)


def _summary_rows(company: Mapping[str, Any]) -> list[tuple]:
    cid = company["id"]
    return [
        (
            cid,
            s["id"],
            s["current_status"],
            s["court"],
            s["case_number"],
            s.get("proceeding_kind"),
            s.get("administration_kind"),
            s.get("opened_at"),
            s.get("closed_at"),
        )
        for s in company.get("insolvencies") or ()
    ]


def insolvency_summaries(company: Any) -> pd.DataFrame:
    """One row per insolvency proceeding against the company (the record's optional ``insolvencies``).

    Parameters
    ----------
    company : record, dict, or many of them
        A record without ``insolvencies`` (the member is optional) gives no rows.

    Returns
    -------
    pandas.DataFrame
        ===================  ==============  ==============================================
        company_id           str
        id                   str             the proceeding (UUID; ``events`` takes it)
        current_status       category        InsolvencyStatus
        court                str             the insolvency court
        case_number          str             e.g. ``89 IN 762/20``
        proceeding_kind      category        NaN where null or absent (unknown)
        administration_kind  category        NaN where null or absent (unknown)
        opened_at            datetime64[us]
        closed_at            datetime64[us]
        ===================  ==============  ==============================================

    Examples
    --------
    >>> insolvency_summaries({"id": "DE-HRB-B1234-1", "names": []}).shape
    (0, 9)
    """
    return _frame(company, _SUMMARIES, _summary_rows)


def _code_rows(company: Mapping[str, Any]) -> list[tuple]:
    cid = company["id"]
    return [
        (cid, scheme, position, entry["code"])
        for scheme, entries in company["industry_codes"].items()
        for position, entry in enumerate(entries)
    ]


def industry_codes(company: Any) -> pd.DataFrame:
    """The company's industry codes (WZ 2025), one row per code, in the record's order.

    Parameters
    ----------
    company : record, dict, or many of them

    Returns
    -------
    pandas.DataFrame
        ==========  ======  =======================================================
        company_id  str
        scheme      str     the member of ``industry_codes`` (``"WZ2025"``)
        position    int64   0 for the first code of that scheme
        code        str     e.g. ``"47.40.2"``; ``code.str[:2]`` is the WZ division
        ==========  ======  =======================================================

    Examples
    --------
    >>> industry_codes({"id": "X", "names": [], "industry_codes": {"WZ2025": [{"code": "47.40.2"}]}})
      company_id  scheme  position     code
    0          X  WZ2025         0  47.40.2
    """
    return _frame(company, _CODES, _code_rows)


def _contact_rows(company: Mapping[str, Any]) -> list[tuple]:
    data = company["contact"]
    if data is None:
        return []
    social = data["social_media"]
    return [
        (
            company["id"],
            data["website_url"],
            data.get("email"),
            data.get("phone"),
            data.get("vat_id"),
            *(social.get(name) for name in SOCIAL_MEDIA),
        )
    ]


def contact(company: Any) -> pd.DataFrame:
    """The company's contact data: one row per company that has any (``contact`` is nullable).

    Parameters
    ----------
    company : record, dict, or many of them
        A company whose ``contact`` is null gives no row.

    Returns
    -------
    pandas.DataFrame
        ``company_id``, ``website_url``, ``email``, ``phone``, ``vat_id`` and the social media profiles
        ``linkedin``, ``instagram``, ``github``, ``twitter``, ``facebook``, ``youtube``, ``xing``, ``tiktok``;
        all ``str``, NaN where a member is absent.

    Examples
    --------
    >>> contact({"id": "X", "names": [], "contact": {"website_url": "https://x.example",
    ...          "social_media": {"xing": "https://www.xing.com/company/x"}}})[["website_url", "email", "xing"]]
             website_url email                            xing
    0  https://x.example   NaN  https://www.xing.com/company/x
    """
    return _frame(company, _CONTACT, _contact_rows)
