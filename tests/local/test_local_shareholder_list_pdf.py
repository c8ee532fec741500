"""Every shareholder list of the bundled world as the PDF the register files, read back with
``regkit.frames.shareholder_list``: it equals the ownership history (``GET …/owners/historical``, in-process
through requests) of the same document.

The register's list content (``models.ownership_history.shareholder_lists``) is what the PDF is written from;
what the PDF is compared with is the served answer, and both with the world's shareholdings rows (the holders in
force on the list's date, their persons' birth dates and residences).
"""

from __future__ import annotations

import time
from collections import defaultdict

import pandas as pd
import pytest

from regkit.frames import ownership_history, shareholder_list
from regkit.local.models.ownership_history import shareholder_lists
from regkit.local.models.shareholder_list_pdf import filed_shareholder_list_pdf, shareholder_list_pdf

_COMPARED = ["document_id", "document_date", "name", "nominal_share", "share", "percentage"]


def _records(frame, name_column):
    return sorted(row for rows in _by_document(frame, name_column).values() for row in rows)


def _by_document(frame, name_column):
    """Each document's rows of ``frame`` as comparable tuples (one pass over the frame, not one per document)."""
    rows = frame.rename(columns={name_column: "name"})[_COMPARED]
    found = defaultdict(list)
    for r in rows.to_dict("records"):
        found[r["document_id"]].append(
            (
                r["document_id"],
                r["document_date"],
                r["name"],
                float(r["nominal_share"]),
                float(r["share"]),
                float(r["percentage"]),
            )
        )
    return found


@pytest.mark.slow
def test_every_list_of_the_world_reads_back_as_the_ownership_history_of_its_document(api, register, catalog):
    session = api()
    held = defaultdict(list)
    for row in catalog.world.shareholdings:
        held[row["company_id"]].append(row)
    documents = pdf_seconds = parse_seconds = 0.0
    for company_id, company in catalog.world.companies.items():
        if not any(d["type"] == "shareholder_list" for d in company["documents"] or ()):
            continue
        response = session.get(f"/v1/company/{company_id}/owners/historical")
        assert response.status_code == 200, company_id
        history = _by_document(ownership_history(response.json(), company_id), "owner_name")
        for filed in shareholder_lists(register.context, company_id):
            started = time.perf_counter()
            pdf = shareholder_list_pdf(company, {"id": filed["document_id"], "date": filed["date"]}, filed["holders"])
            written = time.perf_counter()
            frame = shareholder_list(pdf)
            parse_seconds += time.perf_counter() - written
            pdf_seconds += written - started
            documents += 1
            assert (frame["company_id"] == company_id).all() and (frame["document_id"] == filed["document_id"]).all()
            assert frame["position"].tolist() == list(range(1, len(frame) + 1))
            mine = sorted(history[filed["document_id"]])
            assert mine and _records(frame, "holder_name") == mine, (company_id, filed["document_id"])
            # and the world's rows in force on the list's date: the persons' birth dates and residences
            day = filed["date"]
            people = {
                (r["holder_name"], (r.get("holder_details") or {}).get("date_of_birth"))
                for r in held[company_id]
                if r["holder_type"] == "natural_person" and r["start"] <= day and (r["end"] is None or day < r["end"])
            }
            born = frame[frame["seat_or_birth"].str.startswith("geb. ", na=False)]
            assert {(n, d.date().isoformat()) for n, d in zip(born["holder_name"], born["holder_date_of_birth"])} == {
                p for p in people if p[1]
            }
            assert frame["percentage"].sum() == pytest.approx(100, abs=0.01)
            assert frame["share"].between(0, 1).all() and frame["share"].sum() == pytest.approx(1, abs=1e-4)
    assert documents > 4000
    print(
        f"\n{documents:.0f} shareholder lists: written in {pdf_seconds:.1f} s, read back in {parse_seconds:.1f} s "
        f"({(pdf_seconds + parse_seconds) / documents * 1000:.1f} ms a list)"
    )


def test_a_frame_read_from_a_list_has_the_documented_dtypes(register, catalog):
    company_id = next(
        cid
        for cid, c in catalog.world.companies.items()
        if sum(d["type"] == "shareholder_list" for d in c["documents"] or ()) >= 3
    )
    filed = shareholder_lists(register.context, company_id)[-1]
    company = catalog.world.companies[company_id]
    frame = shareholder_list(
        shareholder_list_pdf(company, {"id": filed["document_id"], "date": filed["date"]}, filed["holders"])
    )
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == {
        "company_id": "str",
        "document_id": "str",
        "document_date": "datetime64[us]",
        "position": "Int64",
        "holder_name": "str",
        "seat_or_birth": "str",
        "holder_date_of_birth": "datetime64[us]",
        "holder_city": "str",
        "nominal_share": "Float64",
        "share": "Float64",
        "total_share": "Float64",
        "percentage": "Float64",
        "total_percentage": "Float64",
    }
    assert frame["document_date"].iloc[0] == pd.Timestamp(filed["date"])


def test_a_filed_list_by_its_document_id(register, catalog):
    company_id, document = next(
        (cid, d)
        for cid, c in sorted(catalog.world.companies.items())
        for d in c["documents"] or ()
        if d["type"] == "shareholder_list"
    )
    pdf = filed_shareholder_list_pdf(register.context, document["id"])
    frame = shareholder_list(pdf)
    assert frame["document_id"].unique().tolist() == [document["id"]]
    assert frame["company_id"].unique().tolist() == [company_id]
    assert frame["document_date"].iloc[0] == pd.Timestamp(document["date"])
    assert filed_shareholder_list_pdf(register.context, document["id"]) == pdf
    assert filed_shareholder_list_pdf(register.context, "no-such-document") is None
