"""Validation before sending: what is rejected, with what message, and the normal forms."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.client import ValidationError
from regkit.client.arguments import validation
from regkit.schema.interface import FILTER_FIELDS, FILTER_VALUES, REGISTER_TYPES


@given(
    st.sampled_from(REGISTER_TYPES),
    st.from_regex(r"[A-Z][0-9]{4}", fullmatch=True),
    st.from_regex(r"[0-9]{1,7}[A-Z]{0,2}", fullmatch=True),
)
def test_wellformed_company_ids_pass(register: str, court: str, number: str) -> None:
    cid = f"DE-{register}-{court}-{number}"
    assert validation.validate_company_id(cid) == cid
    assert validation.validate_company_id(f"  {cid}\n") == cid


@pytest.mark.parametrize(
    "bad", ["", "DE-HRB-1234-1", "DE-XYZ-B1234-1", "de-hrb-b1234-1", "DE-HRB-B1234-", "DE-HRB-B1234-1/../x", None, 42]
)
def test_malformed_company_ids_are_rejected(bad: object) -> None:
    with pytest.raises(ValidationError) as info:
        validation.validate_company_id(bad)
    assert isinstance(info.value, ValueError)
    assert "nothing was sent" in str(info.value) or "non-empty" in str(info.value)


def test_case_slip_gets_a_did_you_mean() -> None:
    with pytest.raises(ValidationError, match="did you mean 'DE-GnR-B1234-1'"):
        validation.validate_company_id("de-gnr-b1234-1")


def test_filter_mapping_forms() -> None:
    out = validation.filters(
        {
            "court": "Charlottenburg",
            "current_status": ["preliminary", "opened"],
            "opened_at": ("2024-01-01", date(2024, 12, 31)),
            "closed_at": (None, datetime(2025, 3, 1, 12, 30)),
            "has_open_insolvency": True,
            "city": {"keywords": ["Ber"]},
        }
    )
    assert out == [
        {"field": "city", "keywords": ["Ber"]},
        {"field": "closed_at", "max": "2025-03-01"},
        {"field": "court", "value": "Charlottenburg"},
        {"field": "current_status", "values": ["opened", "preliminary"]},
        {"field": "has_open_insolvency", "value": "true"},
        {"field": "opened_at", "min": "2024-01-01", "max": "2024-12-31"},
    ]


def test_filter_list_form_and_mapping_form_agree() -> None:
    as_list = [{"field": "current_status", "values": ["opened", "preliminary"]}, {"field": "court", "value": "Köln"}]
    as_map = {"court": "Köln", "current_status": ["preliminary", "opened"]}
    assert validation.filters(as_list) == validation.filters(as_map)


@given(st.dictionaries(st.sampled_from(sorted(FILTER_VALUES)), st.sampled_from(["x"]), max_size=0))
def test_empty_filters(value: dict) -> None:
    assert validation.filters(value) == []


@given(
    st.lists(st.sampled_from(sorted(set(FILTER_VALUES) - {"has_open_insolvency"})), min_size=1, unique=True), st.data()
)
def test_normalising_is_idempotent(fields: list[str], data: st.DataObject) -> None:
    spec = {f: data.draw(st.lists(st.sampled_from(FILTER_VALUES[f]), min_size=1)) for f in fields}
    once = validation.filters(spec)
    assert validation.filters(once) == once


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ({"curent_status": "opened"}, "did you mean 'current_status'"),
        ({"current_status": "open"}, "not a current_status value"),
        ({"opened_at": "2024-02-30"}, "is not a date: February 2024 has 29 days"),
        ({"opened_at": "02/01/2024"}, "is not a date: slashed dates"),  # "01.02.2024" is read, day first
        ({"opened_at": ("2024-12-31", "2024-01-01")}, "is after max"),
        ({"opened_at": (None, None)}, "at least one end"),
        ({"opened_at": ("2024-01-01",)}, "needs two items"),
        ({"court": ("a", "b")}, "cannot use 'min'"),
        ({"has_open_insolvency": ["true"]}, "cannot use 'values'"),
        ({"court": date(2024, 1, 1)}, "takes no date"),
        ({"current_status": []}, "must not be empty"),
        ({"company_id": "DE-X"}, "not a company identifier"),
        ([{"field": "court", "value": "a", "keywords": ["b"]}], "exactly one of"),
        ([{"field": "court"}], "exactly one of"),
        ([{"field": "court", "like": "a"}], "unknown member"),
        ("court=x", "mapping or a list"),
    ],
)
def test_bad_filters_are_explained(spec: object, fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        validation.filters(spec)


def test_every_interface_field_is_accepted() -> None:
    for field in FILTER_FIELDS:
        value = {
            "opened_at": "2024-01-01",
            "closed_at": "2024-01-01",
            "last_event_at": "2024-01-01",
            "claims_filing_deadline": "2024-01-01",
            "company_id": "DE-HRB-B1234-1",
            "person_id": "eab7afa1-5101-41e0-9b9a-161030e995b3",
        }.get(field)
        value = value or (FILTER_VALUES[field][0] if field in FILTER_VALUES else "x")
        assert validation.filters({field: value})[0]["field"] == field


@pytest.mark.parametrize(
    ("page", "per_page", "ok"),
    [(1, 1, True), (7, 100, True), (0, 10, False), (1, 0, False), (1, 101, False), (True, 10, False), ("1", 10, False)],
)
def test_page_bounds(page: object, per_page: object, ok: bool) -> None:
    if ok:
        assert validation.pagination(page, per_page) == {"page": page, "per_page": per_page}
    else:
        with pytest.raises(ValidationError):
            validation.pagination(page, per_page)


def test_sandbox_cannot_be_stored_but_can_be_used() -> None:
    assert validation.credential_name("sandbox") == "sandbox"
    with pytest.raises(ValidationError, match="reserved"):
        validation.credential_name("sandbox", storing=True)
    with pytest.raises(ValidationError, match="malformed"):
        validation.credential_name("my name", storing=True)


def test_password_never_echoed() -> None:
    with pytest.raises(ValidationError) as info:
        validation.credentials("", "hunter2-secret")
    assert "hunter2" not in str(info.value)


def test_monitor_bodies() -> None:
    assert validation.monitor("company", "DE-HRB-B1234-1", "basic", "daily") == {
        "entity_type": "company",
        "entity_id": "DE-HRB-B1234-1",
        "preferences": ["basic"],
        "update_frequency": "daily",
    }
    uuid = "0B6C3A5E-1D2F-4A3B-9C8D-7E6F5A4B3C2D"
    assert validation.monitor("person", uuid, ["basic", "basic"], None)["entity_id"] == uuid.lower()
    for args, fragment in [
        (("person", uuid, ["basic"], "weekly"), "always weekly"),
        (("company", "DE-HRB-B1234-1", [], None), "at least one"),
        (("company", "DE-HRB-B1234-1", ["basics"], None), "did you mean 'basic'"),
        (("firm", "DE-HRB-B1234-1", ["basic"], None), "not monitorable"),
        (("company", "DE-HRB-B1234-1", ["basic"], "hourly"), "unknown"),
        (("person", "not-a-uuid", ["basic"], None), "not a person id"),
    ]:
        with pytest.raises(ValidationError, match=fragment):
            validation.monitor(*args)


def test_ids_of_other_kinds() -> None:
    assert validation.extract_id("tre_100001") == "tre_100001"
    for bad in ("tre_", "100001", "tre_1/x"):
        with pytest.raises(ValidationError):
            validation.extract_id(bad)
    with pytest.raises(ValidationError):
        validation.insolvency_id("a/b")
    assert validation.query("  ") is None
    with pytest.raises(ValidationError):
        validation.query(3)
