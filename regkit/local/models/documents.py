"""Documents: a listed document's metadata, a document fetched from the register now, and the files behind
presigned URLs.

* ``get_document`` (``GET /v1/document/{id}``): the metadata of a document a company lists in ``documents``, with
  a URL valid for ``Config.document_url_ttl`` (15 minutes); free — the listing was paid with the company.
* ``get_realtime_document`` (``GET /v1/document?company_id=…&document_category=…``): one of
  :data:`~regkit.schema.interface.DOCUMENT_CATEGORIES` fetched "now" (it takes ``Config.realtime_latency``
  longer, as a realtime company lookup does); 20 credits. The printouts and the structured information are made
  from the register's newest record on its today (the world's ``as_of`` until the clock moves), their file date; the
  shareholder list and the articles are the company's latest listed ones (their own date). A company without
  that kind of document is a 404 ``document_not_available``, charged nothing.
* ``download_document`` (``GET /v1/documents/{id}?expires=…&signature=…``): the file. No bearer token: the
  signature is the authorisation. The signature is checked before the document is looked up, so unsigned
  requests learn nothing about which ids exist. A document fetched now has the id ``<code>-<company id>``
  (``AD-DE-HRB-R3101-94644``; codes AD, CD, HD, SI); listed documents keep their UUIDs.
"""

from __future__ import annotations

import re
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any

from regkit.schema.interface import COMPANY_ID_PATTERN, DOCUMENT_CATEGORIES, PRICES

from ..exceptions import ApiError
from .credits import Charged, spend
from .pdf import text_pdf
from .transparency import extract_document
from .users import User

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = [
    "download_document",
    "company_document_pdf",
    "extract_document_pdf",
    "shareholder_list_file",
    "document_name",
    "get_document",
    "get_realtime_document",
    "PRINTOUT_CODES",
]

_TITLES = {
    "articles_of_association": "Gesellschaftsvertrag / Satzung",
    "sample_protocol": "Musterprotokoll",
    "shareholder_list": "Liste der Gesellschafter",
}

#: The register's file codes of the categories made on request.
PRINTOUT_CODES = {
    "current_printout": "AD",
    "chronological_printout": "CD",
    "historical_printout": "HD",
    "structured_information": "SI",
}
_CATEGORY_OF_CODE = {code: category for category, code in PRINTOUT_CODES.items()}
_MADE_ID = re.compile(r"(AD|CD|HD|SI)-(.+)\Z")
_XML = "application/xml"
_PDF = "application/pdf"


def register_files() -> ModuleType:
    """:mod:`~regkit.local.models.register_files`, imported when first needed: it brings fpdf2, whose import
    takes longer (0.1–0.4 s) than opening the whole register otherwise would, and most sessions make no file."""
    from . import register_files as module

    return module


def _de_date(iso: str) -> str:
    year, month, day = iso[:10].split("-")
    return f"{day}.{month}.{year}"


def document_name(document: dict[str, Any]) -> str:
    """The name the register gives a listed document: ``"Musterprotokoll vom 01.01.2022"``."""
    return f"{_TITLES.get(document['type'], document['type'])} vom {_de_date(document['date'])}"


def shareholder_list_file(context: RegisterContext, company: dict[str, Any], document: dict[str, Any]) -> bytes:
    """The PDF of a filed shareholder list: the GesLV table of the list's holders, as the ownership history has
    them (:func:`~regkit.local.models.shareholder_list_pdf.filed_shareholder_list_pdf`).

    Raises
    ------
    ApiError
        404 ``document_not_found`` when the world holds no content for the list (a world built without the
        ``filings`` stage's data).
    """
    from .shareholder_list_pdf import filed_shareholder_list_pdf  # fpdf2: imported when a file is made

    pdf = filed_shareholder_list_pdf(context, document["id"])
    if pdf is None:
        raise ApiError("document_not_found", f"No shareholder list {document['id']} is filed in this register.")
    return pdf


def _generic_pdf(company: dict[str, Any], document: dict[str, Any]) -> bytes:
    register = company.get("register") or {}
    lines = [
        f"{company['name']['name']}",
        f"{register.get('register_court', '')} {register.get('register_type', '')} {register.get('register_number', '')}",
        f"Dokument {document['id']} vom {document['date']}" + (" (aktuelle Fassung)" if document.get("latest") else ""),
        "",
        "Synthetisches Dokument des lokalen regkit-Registers; keine echte Registereintragung.",
    ]
    return text_pdf(_TITLES.get(document["type"], document["type"]), lines)


def company_document_pdf(context: RegisterContext, company: dict[str, Any], document: dict[str, Any]) -> bytes:
    """The PDF of one listed company document: articles and sample protocols written by
    :mod:`~regkit.local.models.register_files`, shareholder lists by :func:`shareholder_list_file`."""
    if document["type"] == "articles_of_association":
        return register_files().articles_pdf(company, document)
    if document["type"] == "sample_protocol":
        return register_files().sample_protocol_pdf(company, document)
    if document["type"] == "shareholder_list":
        return shareholder_list_file(context, company, document)
    return _generic_pdf(company, document)


def extract_document_pdf(extract_id: str, report: dict[str, Any]) -> bytes:
    """The generated PDF of a completed Transparenzregister extract."""
    lines = [f"Auszug {extract_id}, erstellt am {report.get('created_at')}", ""]
    if report.get("fictional_ubo_reason"):
        lines += [f"Fiktiver wirtschaftlich Berechtigter: {report['fictional_ubo_reason']}", ""]
    for ubo in report.get("ubos") or ():
        person, interest = ubo["natural_person"], ubo["interest"]
        lines.append(
            f"{ubo['position']}. {person['full_name']} ({person.get('date_of_birth')}, {person.get('city')}): "
            f"{interest['type']}, {interest['scope']}, {interest['percentage']} %"
        )
    lines += ["", "Synthetisches Dokument des lokalen regkit-Registers."]
    return text_pdf("Transparenzregister - Auszug", lines)


def _file_date(context: RegisterContext) -> str:
    """The date of a file made now: the register's today (so files are the same run after run)."""
    return context.today().isoformat()


def _newest(context: RegisterContext, company_id: str) -> dict[str, Any] | None:
    day = context.world_day()
    company_id = day.resolve(company_id)
    return day.realtime(company_id) or day.company(company_id)


def _listed_file_name(document: dict[str, Any]) -> str:
    return f"{document['type']}-{document['date']}.pdf"


def get_document(context: RegisterContext, document_id: str, *, base_url: str) -> dict[str, Any]:
    """The metadata ``{id, name, date, type, url}`` of a listed document, the URL valid 15 minutes (free).

    Raises
    ------
    ApiError
        404 ``document_not_found`` when no company lists a document with that id.
    """
    day = context.world_day()
    found = day.document(document_id) or day.document(document_id.lower())
    if found is None:
        raise ApiError(
            "document_not_found",
            f"No company lists a document with the id {document_id}; the ids are in a company's documents "
            "(GET /v1/company/{company_id}).",
        )
    _, document = found
    return {
        "id": document["id"],
        "name": document_name(document),
        "date": document["date"],
        "type": document["type"],
        "url": context.signer.url(base_url, document["id"], ttl=context.config.document_url_ttl),
    }


def _latest_listed(company: dict[str, Any], kind: str) -> dict[str, Any] | None:
    listed = [d for d in company.get("documents") or () if d.get("type") == kind]
    if not listed:
        return None
    return max(listed, key=lambda d: (bool(d.get("latest")), d["date"], d["id"]))


def get_realtime_document(
    context: RegisterContext, user: User, company_id: str, category: str, *, base_url: str
) -> Charged[dict[str, Any]]:
    """``{category, file_name, file_date, url}`` of a document fetched from the register now (20 credits).

    Raises
    ------
    ApiError
        400 ``invalid_document_category`` for a category not in
        :data:`~regkit.schema.interface.DOCUMENT_CATEGORIES`; 404 ``company_not_found``; 404
        ``document_not_available`` when the company has no document of that category (no shareholder list, no
        articles, or no historical printout because it was registered after 2006). None of them is charged.
    """
    if category not in DOCUMENT_CATEGORIES:
        raise ApiError(
            "invalid_document_category",
            f"{category!r} is not a document category; use one of {', '.join(DOCUMENT_CATEGORIES)}.",
        )
    company_id = context.world_day().resolve(company_id)
    company = _newest(context, company_id)
    if company is None:
        raise ApiError("company_not_found", f"No company has the id {company_id}.")
    if category in PRINTOUT_CODES:
        code = PRINTOUT_CODES[category]
        if code == "HD" and not register_files().has_historical_printout(company):
            raise _not_available(company_id, category, "it was registered after 2006, so it has no paper register")
        file_date = _file_date(context)
        document_id = f"{code}-{company_id}"
        file_name = f"{company_id}_{code}_{file_date.replace('-', '')}.{'xml' if code == 'SI' else 'pdf'}"
    else:
        listed = _latest_listed(context.world_day().company(company_id) or company, category)
        if listed is None:
            raise _not_available(company_id, category, f"it has filed no {category.replace('_', ' ')}")
        document_id, file_date, file_name = listed["id"], listed["date"], _listed_file_name(listed)
    if context.config.realtime_latency:
        time.sleep(context.config.realtime_latency)
    body = {
        "category": category,
        "file_name": file_name,
        "file_date": file_date,
        "url": context.signer.url(base_url, document_id, ttl=context.config.document_url_ttl),
    }
    charged = spend(context, user, PRICES["document_realtime"])
    return Charged(body, charged.credits, charged.remaining)


def _not_available(company_id: str, category: str, why: str) -> ApiError:
    return ApiError(
        "document_not_available",
        f"The register holds no {category} for {company_id}: {why}. The documents it lists are in "
        "GET /v1/company/{company_id} (documents); no credits were charged.",
    )


def download_document(
    context: RegisterContext, document_id: str, expires: str | None, signature: str | None
) -> tuple[bytes, str, str]:
    """The file, its name and its media type behind a presigned URL.

    Raises
    ------
    ApiError
        403 ``invalid_signature`` / ``url_expired`` when unsigned, tampered with or expired; 404
        ``document_not_found`` when no document (or no completed extract's document) has the id.
    """
    context.signer.verify(document_id, expires, signature)
    day = context.world_day()
    found = day.document(document_id)
    if found is not None:
        company_id, document = found
        company = day.company(company_id) or day.realtime(company_id) or context.catalog.world.realtime[company_id]
        return company_document_pdf(context, company, document), _listed_file_name(document), _PDF
    made = _MADE_ID.match(document_id)
    if made and COMPANY_ID_PATTERN.match(made.group(2)):
        code, company_id = made.groups()
        newest = _newest(context, company_id)
        if newest is not None and (code != "HD" or register_files().has_historical_printout(newest)):
            file_date = _file_date(context)
            name = f"{company_id}_{code}_{file_date.replace('-', '')}"
            if code == "SI":
                from .structured_information import structured_information_xml

                return structured_information_xml(newest, file_date), f"{name}.xml", _XML
            return register_files().printout_pdf(newest, code, file_date), f"{name}.pdf", _PDF
    extract = extract_document(context, document_id)
    if extract is None:
        raise ApiError("document_not_found", f"No document has the id {document_id}.")
    extract_id, report, filename = extract
    return extract_document_pdf(extract_id, report), filename, _PDF
