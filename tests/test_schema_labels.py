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
    assert labels.display_label("status", "liquidation") == "in Liquidation"
    assert labels.display_label("role", "PROKURA") == "Prokura"


def test_an_unknown_code_or_column_still_reads_as_words() -> None:
    assert labels.display_label("legal_form", "new_form") == "new form"
    assert labels.display_label("court", "Amtsgericht Kiel") == "Amtsgericht Kiel"
    assert labels.column_label("claims_filing_deadline") == "Claims filing deadline"


def test_doctests() -> None:
    result = doctest.testmod(labels)
    assert result.failed == 0 and result.attempted > 0
