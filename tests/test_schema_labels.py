"""``regkit.schema.labels``: every code of the interface's enumerations reads as words in a view."""

from __future__ import annotations

import doctest

import pytest

import regkit.schema as schema
import regkit.schema.labels as labels

ENUMERATIONS = {
    "legal_form": schema.LEGAL_FORMS,
    "status": schema.COMPANY_STATUSES,
    "role": schema.REPRESENTATION_ROLES,
    "current_status": schema.INSOLVENCY_STATUSES,
    "proceeding_kind": schema.PROCEEDING_KINDS,
    "debtor_kind": schema.DEBTOR_KINDS,
    "administration_kind": schema.ADMINISTRATION_KINDS,
    "event_type": schema.EVENT_TYPES,
}


@pytest.mark.parametrize("column", sorted(ENUMERATIONS))
def test_every_code_of_the_enumeration_has_its_own_label(column: str) -> None:
    table = labels.LABELS[column]
    assert set(table) == set(ENUMERATIONS[column]), set(ENUMERATIONS[column]) ^ set(table)
    assert all(label and "_" not in label for label in table.values())


def test_register_forms_read_as_the_register_writes_them() -> None:
    said = {code: labels.display_label("legal_form", code) for code in ("gmbh", "ug", "ek", "ev", "kgaa", "se")}
    assert said == {
        "gmbh": "GmbH",
        "ug": "UG (haftungsbeschränkt)",
        "ek": "e.K.",
        "ev": "e.V.",
        "kgaa": "KGaA",
        "se": "SE",
    }
    assert labels.display_label("status", "liquidation") == "in liquidation"
    assert labels.display_label("role", "PROKURA") == "authorised signatory (Prokura)"


def test_labels_are_english_with_a_german_term_only_as_its_gloss() -> None:
    """Issue 25: one language per label; the German term only where it carries meaning, as "english (German)"."""
    for column, mapping in labels.LABELS.items():
        if column in ("legal_form", "debtor_legal_form"):
            continue  # the names of legal forms (GmbH, UG (haftungsbeschränkt)) are names
        for code, text in mapping.items():
            bare = text
            for german, english in labels.GERMAN_TERMS.items():
                bare = bare.replace(f"{english} ({german})", english)
            assert not any(word in bare for word in labels.GERMAN_WORDS), (column, code, text)
            assert text == text.strip() and "_" not in text
    general = labels.display_label("role", "PERSONAL_LIABLE_DIRECTOR")
    assert general == "general partner (persönlich haftender Gesellschafter)"


def test_an_unknown_code_or_column_still_reads_as_words() -> None:
    assert labels.display_label("legal_form", "new_form") == "new form"
    assert labels.display_label("court", "Amtsgericht Kiel") == "Amtsgericht Kiel"
    assert labels.column_label("claims_filing_deadline") == "Claims filing deadline"


def test_doctests() -> None:
    result = doctest.testmod(labels)
    assert result.failed == 0 and result.attempted > 0
