"""Transparenzregister extracts: sandbox and production orders, polling, every error of the Errors table."""

from __future__ import annotations

import pytest
from local_support import ACCOUNTS, EMPTY, FREE, VALID_ACCOUNT, charged, error_of, session_for

from regkit.local.models.admin import set_plan

EXTRACTS = "/v1/transparenzregister/extracts"
CREDENTIALS = "/v1/transparenzregister/credentials"


@pytest.fixture
def order(ids):
    """``order(session, company_id=<unique match>, name="default")``: place a production order."""

    def place(session, company_id=None, name="default"):
        return session.post(
            EXTRACTS, json={"company_id": company_id or ids.unique_match}, headers={"X-Credential-Name": name}
        )

    return place


@pytest.fixture
def paid(api):
    """A demo-paid session with the valid Transparenzregister account stored as ``default``."""
    session = api()
    assert session.post(CREDENTIALS, json=VALID_ACCOUNT).status_code == 201
    return session


# --- sandbox ---------------------------------------------------------------------------------------------------


def test_a_sandbox_order_with_a_body_of_blanks_is_not_json(api):
    # the body is JSON or absent (the document's content type); blanks are neither (issue 23: fuzzing found a
    # search answering such a body as if it were {})
    response = api().post(EXTRACTS, headers={"X-Credential-Name": "sandbox"}, data=b"  ")
    assert error_of(response) == (400, "invalid_json")


@pytest.mark.parametrize("kwargs", [{}, {"json": {}}])
def test_sandbox_order_is_free_and_completes(api, clock, kwargs):
    session = api()
    response = session.post(EXTRACTS, headers={"X-Credential-Name": "sandbox"}, **kwargs)
    assert response.status_code == 201
    extract = response.json()
    assert extract["status"] == "processing"
    assert extract["company_id"] is None and extract["ekrn"] == "DE727032388716"
    assert extract["id"].startswith("tre_") and extract["report"] is None and extract["documents"] is None
    assert charged(response) == 0
    assert session.get(f"{EXTRACTS}/{extract['id']}").json()["status"] == "processing"
    clock.advance(5)
    done = session.get(f"{EXTRACTS}/{extract['id']}").json()
    assert done["status"] == "completed"
    assert done["report"]["ubos"][0]["natural_person"]["last_name"] == "Mustermann"
    assert done["reference_number"] and done["completed_at"]
    # filled-gaps.md: corrected_by_reference is the correcting notice's reference (a string) or null, the
    # sandbox's test notice is a corrected one; deleted is the boolean
    assert isinstance(done["report"]["status_flags"]["corrected_by_reference"], str)
    assert done["report"]["status_flags"]["deleted"] is False
    assert session.get("/v1/credits").json()["used_credits"] == 0


def test_sandbox_ignores_stored_credentials_and_needs_none(api, clock):
    response = api().post(EXTRACTS, json={"company_id": "DE-HRB-Z9999-1"}, headers={"X-Credential-Name": "sandbox"})
    assert response.status_code == 201
    assert response.json()["company_id"] is None


@pytest.mark.parametrize("header", ["SANDBOX", "Sandbox", "sandBox"])
def test_a_case_variant_of_sandbox_is_400_not_the_sandbox(paid, header):
    response = paid.post(EXTRACTS, headers={"X-Credential-Name": header})
    assert error_of(response) == (400, "reserved_credential_name") and charged(response) == 0
    message = response.json()["error"]["message"]
    assert "case-sensitive" in message and "exactly 'sandbox'" in message and header in message
    assert paid.post(EXTRACTS, headers={"X-Credential-Name": "sandbox"}).status_code == 201  # the exact name is


def test_sandbox_needs_a_paid_plan(api):
    response = api(FREE).post(EXTRACTS, headers={"X-Credential-Name": "sandbox"})
    assert error_of(response) == (402, "plan_required")


# --- production ---------------------------------------------------------------------------------------------


def test_production_order_completes_with_report_and_documents(ids, order, paid, clock, catalog):
    response = order(paid, ids.with_owner)
    assert response.status_code == 201
    extract = response.json()
    assert extract["status"] == "processing" and extract["company_id"] == ids.with_owner
    assert extract["ekrn"] == catalog.entities[ids.with_owner][0]
    assert charged(response) == 50
    clock.advance(4.9)
    assert paid.get(f"{EXTRACTS}/{extract['id']}").json()["status"] == "processing"
    clock.advance(0.1)
    poll = paid.get(f"{EXTRACTS}/{extract['id']}")
    assert charged(poll) == 0
    done = poll.json()
    assert done["status"] == "completed"
    assert done["report"]["ubos"] and done["report"]["fictional_ubo_reason"] is None
    assert all(u["interest"]["percentage"] >= 25 for u in done["report"]["ubos"])
    assert done["report"]["status_flags"]["corrected_by_reference"] is None  # a current notice
    [document] = done["documents"]
    assert document["format"] == "pdf"
    pdf = paid.get(document["url"])
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_production_extract_of_inactive_company_fails(ids, order, paid, clock, catalog):
    extract = order(paid, ids.inactive_match).json()
    clock.advance(5)
    failed = paid.get(f"{EXTRACTS}/{extract['id']}").json()
    assert failed["status"] == "failed"
    assert failed["report"] is None and failed["documents"] is None and failed["completed_at"]


def test_company_without_owner_reports_fictional_owners(ids, order, paid, clock):
    extract = order(paid, ids.without_owner).json()
    clock.advance(5)
    report = paid.get(f"{EXTRACTS}/{extract['id']}").json()["report"]
    assert report["fictional_ubo_reason"]
    assert report["ubos"] and all(u["interest"]["type"] == "fictional" for u in report["ubos"])


def test_header_missing_means_default_credentials(ids, paid):
    response = paid.post(EXTRACTS, json={"company_id": ids.unique_match})
    assert response.status_code == 201


def test_polling_another_users_extract_is_404(order, paid, make_register, register, api, tmp_path):
    extract = order(paid).json()
    set_plan(register.context.state, register.context.catalog, EMPTY, "pro", 0)
    assert error_of(api(EMPTY).get(f"{EXTRACTS}/{extract['id']}")) == (404, "extract_not_found")


@pytest.mark.parametrize(
    "extract_id, status, code",
    [
        ("tre_99999999", 404, "extract_not_found"),
        ("tre_0100001", 404, "extract_not_found"),
        ("tre_" + "9" * 40, 404, "extract_not_found"),
    ],
)
def test_unknown_extract_is_404(paid, extract_id, status, code):
    assert error_of(paid.get(f"{EXTRACTS}/{extract_id}")) == (status, code)


@pytest.mark.parametrize("extract_id", ["123", "tre_", "tre_12a", "TRE_1"])
def test_malformed_extract_id_is_400(api, extract_id):
    response = api(conform=False).get(f"{EXTRACTS}/{extract_id}")
    assert error_of(response) == (400, "invalid_extract_id")


def test_polling_needs_a_paid_plan(api):
    assert error_of(api(FREE).get(f"{EXTRACTS}/tre_100001")) == (402, "plan_required")


# --- the Errors table, order extract ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, headers, code",
    [
        ({}, {}, "invalid_body"),
        ({"company_id": "nope"}, {}, "invalid_company_id"),
        ({"company_id": "DE-HRB-Z9999-1", "extra": 1}, {}, "invalid_body"),
        ({"company_id": "DE-HRB-Z9999-1"}, {"X-Credential-Name": "bad name!"}, "invalid_credential_name"),
    ],
)
def test_order_400s_are_free(paid, body, headers, code):
    response = paid.post(EXTRACTS, json=body, headers=headers)
    assert error_of(response) == (400, code)
    assert charged(response) == 0


def test_order_with_malformed_json_is_400(paid):
    assert error_of(paid.post(EXTRACTS, data=b"{nope", headers={"X-Credential-Name": "sandbox"})) == (
        400,
        "invalid_json",
    )


def test_order_without_paid_plan_is_402(order, api):
    assert error_of(order(api(FREE))) == (402, "plan_required")


def test_order_without_credits_is_402_and_nothing_stored(order, api, register):
    session = api(EMPTY)
    assert session.post(CREDENTIALS, json=VALID_ACCOUNT).status_code == 201
    assert error_of(order(session)) == (402, "insufficient_credits")
    with register.context.state.connection() as conn:
        assert conn.execute("SELECT count(*) FROM extracts").fetchone()[0] == 0


@pytest.mark.parametrize("state", sorted(ACCOUNTS))
def test_order_with_rejected_account_is_403(order, api, state):
    session = api()
    assert session.post(CREDENTIALS, json={**ACCOUNTS[state], "name": state}).status_code == 201
    response = order(session, name=state)
    assert error_of(response) == (403, "register_authentication_rejected")
    assert charged(response) == 0


@pytest.mark.parametrize(
    "role, name, status, code",
    [
        ("unknown", "default", 404, "company_not_found"),
        ("unique_match", "elsewhere", 404, "credentials_not_found"),
        ("no_match", "default", 404, "register_entity_not_found"),
        ("ambiguous", "default", 409, "ambiguous_register_entity"),
    ],
)
def test_order_404_and_409(paid, order, ids, role, name, status, code):
    response = order(paid, getattr(ids, role, "DE-HRB-Z9999-1"), name)
    assert error_of(response) == (status, code)
    assert charged(response) == 0


def test_production_quota_is_429_over_a_rolling_30_days(order, paid, register, clock):
    set_plan(register.context.state, register.context.catalog, "demo-paid", "basic", clock.now)  # quota 5
    for _ in range(5):
        assert order(paid).status_code == 201
        clock.advance(86400)
    response = order(paid)
    assert error_of(response) == (429, "extract_quota_exceeded")
    assert int(response.headers["Retry-After"]) == 30 * 86400 - 5 * 86400
    assert charged(response) == 0
    assert paid.post(EXTRACTS, headers={"X-Credential-Name": "sandbox"}).status_code == 201  # sandbox is not counted
    clock.advance(25 * 86400 + 1)
    assert order(paid).status_code == 201


def test_overwriting_credentials_leaves_an_extract_in_flight_alone(order, paid, clock):
    extract = order(paid).json()
    locked = {**ACCOUNTS["locked"], "name": "default"}
    assert paid.post(CREDENTIALS, json=locked).status_code == 201
    clock.advance(5)
    assert paid.get(f"{EXTRACTS}/{extract['id']}").json()["status"] == "completed"
    assert error_of(order(paid)) == (403, "register_authentication_rejected")


def test_extract_survives_a_restart(order, paid, make_register, clock):
    extract = order(paid).json()
    restarted = make_register()
    session = session_for(restarted, "demo-paid")
    clock.advance(5)
    assert session.get(f"{restarted.base_url}{EXTRACTS}/{extract['id']}").json()["status"] == "completed"


def test_a_company_that_moved_to_another_court_keeps_its_entity(order, paid, register, catalog):
    """The Transparenzregister knows a company by its entity, not by its register: once the register's clock has
    passed the company's move to another court's district, an order by its old or its new id is for the company
    under its new id, with the entity it had."""
    import datetime as dt

    from regkit.local.world import read_world
    from regkit.local.world.continuation import Continuation

    continuation = Continuation.of_world(read_world())
    year = continuation.events(continuation.as_of, continuation.as_of + dt.timedelta(days=365))
    move = next(e for e in year if e.kind == "court_moved" and len(catalog.entities.get(e.company_id, ())) == 1)
    register.advance((move.day - continuation.as_of).days)
    for asked in (move.company_id, move.detail["company_id"]):
        response = order(paid, asked)
        assert response.status_code == 201, response.text
        extract = response.json()
        assert (extract["company_id"], extract["ekrn"]) == (
            move.detail["company_id"],
            catalog.entities[move.company_id][0],
        )
