"""Documents: the generated PDFs of company and extract documents, downloaded by presigned URL.

No bearer token: the signature is the authorisation (it is what a presigned URL is for). The signature
is checked before the document is looked up, so unsigned requests learn nothing about which ids exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..exceptions import ApiError
from .pdf import text_pdf
from .transparency import extract_document

if TYPE_CHECKING:
    from .backend import RegisterContext

__all__ = ["download_document", "company_document_pdf", "extract_document_pdf"]

_TITLES = {
    "articles_of_association": "Gesellschaftsvertrag / Satzung",
    "sample_protocol": "Musterprotokoll",
    "shareholder_list": "Liste der Gesellschafter",
}


def company_document_pdf(company: dict[str, Any], document: dict[str, Any]) -> bytes:
    """The generated PDF of one company document."""
    register = company.get("register") or {}
    lines = [
        f"{company['name']['name']}",
        f"{register.get('register_court', '')} {register.get('register_type', '')} {register.get('register_number', '')}",
        f"Dokument {document['id']} vom {document['date']}" + (" (aktuelle Fassung)" if document.get("latest") else ""),
        "",
        "Synthetisches Dokument des lokalen regkit-Registers; keine echte Registereintragung.",
    ]
    return text_pdf(_TITLES.get(document["type"], document["type"]), lines)


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


def download_document(
    context: RegisterContext, document_id: str, expires: str | None, signature: str | None
) -> tuple[bytes, str]:
    """The PDF and file name behind a presigned URL.

    Raises
    ------
    ApiError
        403 ``invalid_signature`` / ``url_expired`` when unsigned, tampered with or expired; 404
        ``document_not_found`` when no document (or no completed extract's document) has the id.
    """
    context.signer.verify(document_id, expires, signature)
    found = context.catalog.documents.get(document_id)
    if found is not None:
        company_id, document = found
        company = context.catalog.world.companies.get(company_id) or context.catalog.world.realtime[company_id]
        return company_document_pdf(company, document), f"{document['type']}-{document['date']}.pdf"
    extract = extract_document(context, document_id)
    if extract is None:
        raise ApiError("document_not_found", f"No document has the id {document_id}.")
    extract_id, report, filename = extract
    return extract_document_pdf(extract_id, report), filename
