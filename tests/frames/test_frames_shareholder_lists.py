"""Shareholder lists: the PDF the local register writes, read back by ``regkit.frames.shareholder_list``;
the ownership-history and UBO frames.

Every list of the world is written and read back in ``tests/local/test_local_shareholder_list_pdf.py``.
"""

from __future__ import annotations

import datetime as dt
import io

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regkit.errors import ValidationError
from regkit.frames import ownership_history, shareholder_list, ubos
from regkit.local.models.pdf import text_pdf
from regkit.local.models.shareholder_list_pdf import document_entries, shareholder_list_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lists(world):
    """A few shareholder lists of the world: (company, document, owners of the list in the history's shape)."""
    out = []
    held = [row for row in world.shareholdings if row["end"] is None and row["holder_type"] == "natural_person"]
    for row in held[:20]:
        company = world.companies[row["company_id"]]
        for document in company.get("documents") or ():
            if document["type"] == "shareholder_list" and document.get("latest"):
                details = row.get("holder_details") or {}
                entry = {
                    "document_id": document["id"],
                    "document_date": document["date"],
                    "nominal_shares": round(row["nominal_share"] * 100),
                    "percentage_shares": round(row["share"] * 100, 4),
                }
                owner = {
                    "id": row["holder_id"],
                    "name": row["holder_name"],
                    "entity_type": "natural_person",
                    "city": details.get("city"),
                    "date_of_birth": details.get("date_of_birth"),
                    "ownership_history": [entry],
                }
                out.append((company, document, [owner]))
    assert out
    return out


def test_the_pdf_is_the_same_bytes_every_time(lists):
    company, document, owners = lists[0]
    entries = document_entries(owners, document["id"])
    assert shareholder_list_pdf(company, document, entries) == shareholder_list_pdf(company, document, entries)
    assert b"/CreationDate (D:" + document["date"].replace("-", "").encode() in shareholder_list_pdf(
        company, document, entries
    )


def test_a_long_list_runs_over_pages_and_reads_back_whole():
    company = {
        "id": "DE-HRB-B1204-1",
        "name": {"name": "Vielgesellschafter GmbH"},
        "register": {
            "register_court": "Amtsgericht Cottbus - Chóśebuz",
            "register_type": "HRB",
            "register_number": "1",
        },
    }
    # 120 holders of 250 EUR each: 30,000 EUR, each 1/120 of it
    entries = [
        {
            "id": f"p-{i}",
            "name": f"Gesellschafterin Nummer {i:03d} von der Grünen Wiese am Überlinger See"
            if i % 9 == 0
            else f"G {i}",
            "entity_type": "natural_person",
            "date_of_birth": "1970-01-02",
            "city": "Görlitz",
            "nominal_shares": 25000,
            "percentage_shares": 100 / 120,
        }
        for i in range(120)
    ]
    pdf = shareholder_list_pdf(company, {"id": "d-long", "date": "2021-12-31"}, entries)
    assert shareholder_list_pdf(company, {"id": "d-long", "date": "2021-12-31"}, entries) == pdf  # DejaVu embedded
    assert b"DejaVu" in pdf  # the court's name is not Latin-1
    frame = shareholder_list(pdf)
    assert pdf.count(b"/Type /Page\n") > 2
    assert frame["position"].tolist() == list(range(1, 121))
    assert frame["holder_name"].tolist() == [e["name"] for e in entries]
    assert frame["nominal_share"].sum() == 30000.0
    assert frame["percentage"].tolist() == [100 / 120] * 120
    assert frame["share"].tolist() == pytest.approx([1 / 120] * 120, rel=1e-9)  # a fraction: percentage / 100
    assert frame["total_share"].tolist() == frame["share"].tolist()  # one share per holder
    assert (frame["holder_city"] == "Görlitz").all()
    assert frame["document_date"].iloc[0] == pd.Timestamp("2021-12-31")


# letters of the Latin-1 path (umlauts, ß), and beyond it (the DejaVu path): Polish, Czech, Sorbian, Greek, Cyrillic
_LETTERS = "abcxyzAMWZäöüÄÖÜßéçñ0189-&.,'()/" + "łśőčřžĆŁ" + "αβΩΣ" + "жщЮЯ"
_WORDS = st.text(alphabet=_LETTERS, min_size=1, max_size=90)  # up to twice as long as a line of the column
_SPACES = st.text(alphabet=" \t\n\u00a0\u2003", min_size=1, max_size=3)


@st.composite
def _names(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORDS, min_size=1, max_size=6))
    text = draw(st.text(alphabet=" \t", max_size=2))  # leading white space, sometimes
    for i, word in enumerate(words):
        text += word + (draw(_SPACES) if i < len(words) - 1 else "")
    return text + draw(st.text(alphabet=" \t", max_size=2))


@settings(max_examples=80, deadline=None)
@given(names=st.lists(_names(), min_size=1, max_size=3), city=_names())
def test_any_name_reads_back_as_its_normalised_form(names: list[str], city: str) -> None:
    company = {"id": "DE-HRB-B1-1", "name": {"name": "Eigentum GmbH"}, "register": {}}
    entries = [
        {
            "id": f"o-{i}",
            "name": name,
            "entity_type": "german_company",
            "city": city,
            "nominal_shares": 100 * (i + 1),
            "percentage_shares": 10.0,
        }
        for i, name in enumerate(names)
    ]
    frame = shareholder_list(shareholder_list_pdf(company, {"id": "d-1", "date": "2020-01-01"}, entries))
    # normalised by hand: the words, one space between them
    assert frame["holder_name"].tolist() == [" ".join(name.split()) for name in names]
    assert frame["holder_city"].tolist() == [" ".join(city.split())] * len(names)


def test_a_word_longer_than_the_column_is_cut_into_lines_and_read_back_whole():
    word = "Grundstücksverwaltungsbeteiligungsgesellschaft" * 3  # 138 letters: some four lines of the column
    company = {"id": "DE-HRB-B1-1", "name": {"name": "Eigentum GmbH"}, "register": {}}
    entries = [
        {
            "name": f"  {word}  und   Söhne ",
            "entity_type": "german_company",
            "city": "Kassel",
            "nominal_shares": 100,
            "percentage_shares": 100.0,
        }
    ]
    pdf = shareholder_list_pdf(company, {"id": "d-1", "date": "2020-01-01"}, entries)
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as document:
        cell = document.pages[0].extract_tables()[0][1][1]  # pdfplumber's own reading: lines of the cell
    assert cell.count("\n") >= 3  # the word is on several lines
    assert shareholder_list(pdf)["holder_name"].tolist() == [f"{word} und Söhne"]


def test_a_pdf_that_is_not_a_shareholder_list_says_what_was_expected(tmp_path):
    other = text_pdf("Gesellschaftsvertrag / Satzung", ["Alpha GmbH", "Dokument 1"])
    with pytest.raises(ValidationError, match="is not a shareholder list.*Liste der Gesellschafter"):
        shareholder_list(other)
    with pytest.raises(ValidationError, match="not a PDF"):
        shareholder_list(b"<html>nope</html>")
    path = tmp_path / "list.pdf"
    path.write_bytes(b"%PDF-1.4 truncated")
    with pytest.raises(ValidationError, match=str(path)):
        shareholder_list(path)
    with pytest.raises(ValidationError, match="cannot read"):
        shareholder_list(tmp_path / "missing.pdf")


def test_ownership_history_frame_has_one_row_per_owner_and_list():
    answer = {
        "owners": [
            {
                "id": "p-1",
                "name": "Ida Roth",
                "entity_type": "natural_person",
                "country": "DE",
                "status": "removed",
                "first_appearance": "2010-01-01",
                "last_appearance": "2015-06-30",
                "ownership_history": [
                    {
                        "document_id": "d1",
                        "document_date": "2010-01-01",
                        "nominal_shares": 2500000,
                        "percentage_shares": 100.0,
                    },
                    {
                        "document_id": "d2",
                        "document_date": "2015-06-30",
                        "nominal_shares": 1250000,
                        "percentage_shares": 50.0,
                    },
                ],
            },
            {
                "id": "DE-HRB-B1204-9",
                "name": "Beta GmbH",
                "entity_type": "german_company",
                "country": "DE",
                "status": "active",
                "first_appearance": "2015-06-30T00:00:00Z",
                "last_appearance": None,
                "ownership_history": [
                    {
                        "document_id": "d2",
                        "document_date": "2015-06-30",
                        "nominal_shares": 1250001,
                        "percentage_shares": 50.0,
                    },
                ],
            },
        ]
    }
    frame = ownership_history(answer, "DE-HRB-B1204-1")
    assert len(frame) == 3
    assert frame["document_id"].tolist() == ["d1", "d2", "d2"]
    assert frame["nominal_share"].tolist() == [25000.0, 12500.01, 12500.0]  # equal shares: by name
    assert frame.groupby("document_id")["percentage"].sum().tolist() == [100.0, 100.0]
    assert frame["share"].tolist() == [1.0, 0.5, 0.5]  # percentage_shares / 100, a fraction
    assert str(frame["share"].dtype) == "Float64"
    assert frame["owner_name"].tolist() == ["Ida Roth", "Beta GmbH", "Ida Roth"]
    assert frame["first_appearance"].iloc[1] == pd.Timestamp("2015-06-30")  # a date-time in the answer: its day
    assert frame["last_appearance"].isna().tolist() == [False, True, False]
    assert str(frame["document_date"].dtype) == "datetime64[us]"
    assert frame["entity_type"].cat.categories.tolist()[:2] == ["natural_person", "german_company"]
    empty = ownership_history({"owners": []})
    assert list(empty.columns) == list(frame.columns) and len(empty) == 0
    with pytest.raises(TypeError, match="ownership-history answer"):
        ownership_history({"ubos": []})


def test_ubos_frame_flags_fictitious_owners():
    frame = ubos(
        {
            "company_id": "DE-HRB-B1204-1",
            "ubos": [
                {
                    "id": "p-1",
                    "name": "Ida Roth",
                    "natural_person": {"date_of_birth": "1970-01-02", "city": "Kassel"},
                    "legal_person": None,
                    "percentage_share": None,
                    "max_percentage_share": 40.0,
                },
                {
                    "id": "p-2",
                    "name": "Eva Lenz",
                    "natural_person": {"city": "Kiel"},
                    "legal_person": None,
                    "percentage_share": None,
                    "max_percentage_share": None,
                },
            ],
        }
    )
    assert frame["is_fictitious"].tolist() == [False, True]
    assert frame["max_percentage"].tolist()[0] == 40.0 and frame["percentage"].isna().all()
    assert frame["max_share"].tolist()[0] == 0.4 and frame["share"].isna().all()  # fractions; null stays null
    assert frame["max_share"].isna().tolist() == [False, True]  # a fictitious owner has no share, not 0
    assert frame["date_of_birth"].iloc[0] == dt.datetime(1970, 1, 2)
