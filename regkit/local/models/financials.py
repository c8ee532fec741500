"""Financial statements: a company's filed reports, indicators and merged table, metered; each report as HTML.

The reports are derived on demand from the company record by :func:`regkit.local.world.statements.company_financials`
(the world's ``statements`` stage: no data file, no start-up cost). Each report's ``sources`` is one presigned
``html_url`` below ``/v1/financials/{company_id}/{report_id}``, valid 30 minutes like the company's
``sources``, signed by the register's :class:`~regkit.local.signing.UrlSigner` over the key
``financials/<company id>/<report id>``; behind it is an HTML rendering of the report.

A lookup costs ``PRICES["financials"]`` (10 credits); a malformed id (checked by the handler) or an unknown one
(404 ``company_not_found``) costs nothing. A company without filed reports answers 200 with empty
``indicators`` and ``reports`` and ``merged`` null, and is charged like any other answer.
"""

from __future__ import annotations

import html
import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from regkit.schema.interface import PRICES
from regkit.schema.statements import STATEMENTS

from ..exceptions import ApiError
from ..world.statements import company_financials, consolidating_groups
from .companies import find_company
from .credits import Charged, spend
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext
    from .catalog import Catalog
    from .world_day import WorldDay

__all__ = ["day_financials", "financials_of", "get_financials", "report_html", "download_report", "statement_groups"]


@dataclass(frozen=True)
class _Groups:
    """What the statements need of a world's groups: its seed, who is in a group, who consolidates."""

    seed: int | str
    members: frozenset[str]
    consolidating: dict[str, tuple[str, float]]


_GROUPS: weakref.WeakKeyDictionary[Catalog, _Groups] = weakref.WeakKeyDictionary()
_GROUPS_LOCK = threading.Lock()


def statement_groups(catalog: Catalog) -> _Groups:
    """The groups of ``catalog``'s world, worked out once per catalog, and the seed of its ``statements`` stage
    (the world's seed, or the one ``stage_seeds`` gave that stage)."""
    with _GROUPS_LOCK:
        found = _GROUPS.get(catalog)
        if found is None:
            meta = catalog.world.meta
            groups = meta.get("groups") or []
            seed = (meta.get("stage_seeds") or {}).get("statements", meta.get("seed", 0))
            members = frozenset(member for group in groups for member in group.get("members", ()))
            found = _GROUPS[catalog] = _Groups(seed, members, consolidating_groups(groups, seed))
        return found


def financials_of(context: RegisterContext, company: Mapping[str, Any]) -> dict[str, Any]:
    """The financials answer of ``company`` (a record of the register's world) without ``sources``."""
    return day_financials(context.world_day(), company)


def day_financials(world_day: WorldDay, company: Mapping[str, Any]) -> dict[str, Any]:
    """The financials answer of ``company``, a record of ``world_day``, without ``sources``: its statements drawn
    under the id it had on the world's ``as_of`` (:meth:`~.world_day.WorldDay.origin`), so a move to another
    court's district changes none of its reports."""
    groups = statement_groups(world_day.catalog)
    key = world_day.origin(company["id"])
    return company_financials(
        company,
        groups.seed,
        group_members=groups.members,
        consolidation=groups.consolidating.get(key),
        key=key,
    )


def _signing_key(company_id: str, report_id: str) -> str:
    return f"financials/{company_id}/{report_id}"


def _html_url(context: RegisterContext, base_url: str, company_id: str, report_id: str) -> str:
    """The presigned URL of one report's HTML rendering.

    The signer's own URL is that of a document (``/v1/documents/<key>?expires=…&signature=…``); the report
    keeps its query (expiry and signature over the key) under its own path.
    """
    signed = context.signer.url(base_url, _signing_key(company_id, report_id))
    path = f"/v1/financials/{quote(company_id, safe='')}/{quote(report_id, safe='')}"
    return f"{base_url.rstrip('/')}{path}?{signed.partition('?')[2]}"


def get_financials(context: RegisterContext, user: User, company_id: str, *, base_url: str) -> Charged[dict[str, Any]]:
    """The financials of a well-formed company id, 10 credits; 404 ``company_not_found`` (free) if unknown.

    Each report's ``sources`` holds its presigned ``html_url`` below ``base_url``.
    """
    company = find_company(context, company_id)
    answer = financials_of(context, company)
    for report in answer["reports"]:
        report["sources"] = [{"html_url": _html_url(context, base_url, company["id"], report["report_id"])}]
    charged = spend(context, user, PRICES["financials"])
    return Charged(answer, charged.credits, charged.remaining)


def _euros(cents: int | None) -> str:
    """An amount in cents as German-formatted euros (``1.234,56 €``); empty when null."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}".replace(",", ".") + f",{part:02d} €"


def _table_rows(rows: Sequence[Mapping[str, Any]], depth: int, out: list[str]) -> None:
    for row in rows:
        indent = f' style="padding-left:{depth * 1.5:.1f}em"' if depth else ""
        out.append(
            f"<tr><td{indent}>{html.escape(row['formatted_name'])}</td>"
            f'<td class="amount">{_euros(row["current_value"])}</td>'
            f'<td class="amount">{_euros(row["previous_value"])}</td></tr>'
        )
        _table_rows(row["children"], depth + 1, out)


_TITLES = {"aktiva": "Aktiva", "passiva": "Passiva", "guv": "Gewinn- und Verlustrechnung (§ 275 Abs. 2 HGB)"}


def report_html(company: Mapping[str, Any], report: Mapping[str, Any]) -> str:
    """One report as a small HTML page: a table per statement (line, this year, previous year)."""
    name = html.escape(str((company.get("name") or {}).get("name") or company["id"]))
    kind = "Konzernabschluss" if report["consolidated"] else "Jahresabschluss"
    start = report["report_start_date"] or "Gründung"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="de"><head><meta charset="utf-8">',
        f"<title>{kind} {name} {report['report_end_date']}</title>",
        "<style>td.amount{text-align:right}table{border-collapse:collapse}td,th{padding:2px 8px}</style>",
        "</head><body>",
        f"<h1>{kind} zum {report['report_end_date']}</h1>",
        f"<p>{name} ({html.escape(company['id'])}), Geschäftsjahr {start} bis {report['report_end_date']}</p>",
        f'<p class="report-id">Bericht {html.escape(report["report_id"])}</p>',
    ]
    for member in STATEMENTS:
        table = report[member]
        if table is None:
            continue
        parts.append(f"<h2>{_TITLES[member]}</h2>")
        parts.append("<table><thead><tr><th></th><th>Geschäftsjahr</th><th>Vorjahr</th></tr></thead><tbody>")
        _table_rows(table["rows"], 0, parts)
        parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def download_report(
    context: RegisterContext, company_id: str, report_id: str, expires: str | None, signature: str | None
) -> str:
    """The HTML of one report behind its presigned URL.

    Raises
    ------
    ApiError
        403 ``invalid_signature`` / ``url_expired`` when unsigned, tampered with or expired (checked before
        anything is looked up); 404 ``document_not_found`` when the company has no report of that id.
    """
    context.signer.verify(_signing_key(company_id, report_id), expires, signature)
    day = context.world_day()
    company = day.company(day.resolve(company_id))
    if company is not None:
        for report in financials_of(context, company)["reports"]:
            if report["report_id"] == report_id:
                return report_html(company, report)
    raise ApiError("document_not_found", f"{company_id} has no financial report {report_id}.")
