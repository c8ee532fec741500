"""``GET /v1/documents/{document_id}``: presigned downloads of company and extract documents.

No bearer token: the signature is the authorisation (it is what a presigned URL is for). The signature
is checked before the document is looked up, so unsigned requests learn nothing about which ids exist.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request

from .context import current
from .errors import ApiError
from .pdf import text_pdf

__all__ = ["bp", "company_document_pdf", "extract_document_pdf"]

bp = Blueprint("documents", __name__)

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
        lines.append(f"{ubo['position']}. {person['full_name']} ({person.get('date_of_birth')}, {person.get('city')}): "
                     f"{interest['type']}, {interest['scope']}, {interest['percentage']} %")
    lines += ["", "Synthetisches Dokument des lokalen regkit-Registers."]
    return text_pdf("Transparenzregister - Auszug", lines)


def _extract_document(document_id: str) -> tuple[bytes, str] | None:
    context = current()
    with context.state.connection() as conn:
        row = conn.execute(
            "SELECT e.seq, e.report, e.ready_at, d.filename FROM extract_documents d "
            "JOIN extracts e ON e.seq = d.extract_seq WHERE d.document_id = ?", (document_id,)).fetchone()
    if row is None or row[1] is None or row[2] > context.now():
        return None
    return extract_document_pdf(f"tre_{row[0]}", json.loads(row[1])), row[3]


# merge_slashes=False: werkzeug would answer an id starting with "/" (``%2F``) with a 308 to another URL and an
# HTML body; unmerged, the path does not route and is the interface's JSON 404.
@bp.get("/v1/documents/<path:document_id>", merge_slashes=False)
def download_document(document_id: str):
    """The PDF behind a presigned URL (403 when unsigned, tampered with or expired; 404 when unknown)."""
    context = current()
    context.signer.verify(document_id, request.args.get("expires"), request.args.get("signature"))
    found = context.catalog.documents.get(document_id)
    if found is not None:
        company_id, document = found
        company = context.catalog.world.companies.get(company_id) or context.catalog.world.realtime[company_id]
        data, filename = company_document_pdf(company, document), f"{document['type']}-{document['date']}.pdf"
    else:
        extract = _extract_document(document_id)
        if extract is None:
            raise ApiError("document_not_found", f"No document has the id {document_id}.")
        data, filename = extract
    return Response(data, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{filename}"'})
