"""The in-process register logs through ``logging`` (library style): an access line per request, a traceback per
unexpected 500, none for an injected one, a line per decryption — and never a key or a password."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from cryptography.fernet import Fernet
from local_support import VALID_ACCOUNT, error_of, session_for

from regkit.local import Faults, open_local_register
from regkit.local.config import Config
from regkit.local.models.users import resolve_user


def secrets_of(catalog) -> list[str]:
    return [*catalog.users, *(account["password"] for account in catalog.accounts.values())]


def records(caplog, name: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == name]


def test_the_register_installs_no_handler(tmp_path):
    register = open_local_register(state_path=tmp_path / "s.sqlite", key_path=tmp_path / "k" / "key")
    try:
        assert register.session("demo-paid").get(f"{register.base_url}/v1/credits").status_code == 200
        assert [type(h) for h in logging.getLogger("regkit").handlers] == [logging.NullHandler]
        assert logging.getLogger("regkit.local.access").handlers == []
    finally:
        register.close()


def test_an_access_line_per_request_without_a_secret(api, ids, catalog, caplog):
    caplog.set_level(logging.INFO, logger="regkit")
    session = api()
    assert session.get(f"/v1/company/{ids.unique_match}?realtime=false").status_code == 200
    assert session.post("/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    assert error_of(api("not-a-key-4711").get("/v1/credits")) == (401, "unauthorized")
    query = "api_key=demo-paid&access_token=demo-free&signature=ab&q=demo-empty"
    assert api(None).get(f"/v1/credits?{query}").status_code == 401
    lines = [record.getMessage() for record in records(caplog, "regkit.local.access")]
    assert len(lines) == 4, lines
    assert lines[0].startswith(f'- "GET /v1/company/{ids.unique_match}?realtime=false" 200 ')
    assert lines[0].endswith("user=user-1 credits=10") and "user=user-1 credits=0" in lines[1]
    assert '"GET /v1/credits" 401' in lines[2] and "user=-" in lines[2]
    assert (
        '"GET /v1/credits?api_key=[redacted]&access_token=[redacted]&signature=[redacted]&q=[redacted]" 401' in lines[3]
    )
    for secret in (*secrets_of(catalog), "not-a-key-4711", VALID_ACCOUNT["username"]):
        assert secret not in caplog.text


def test_an_unexpected_exception_is_logged_with_its_traceback(api, register, caplog):
    caplog.set_level(logging.INFO, logger="regkit")
    with sqlite3.connect(register.context.state.path) as state:  # the state file loses a table while in use
        state.execute("DROP TABLE monitors")
    response = api().get("/v1/monitor")
    assert error_of(response) == (500, "internal_error") and "logged" in response.json()["error"]["message"]
    [error] = records(caplog, "regkit.local.app")[-1:]
    assert error.levelno == logging.ERROR and error.getMessage() == "Internal error on GET /v1/monitor (user user-1)"
    assert error.exc_info is not None and isinstance(error.exc_info[1], sqlite3.OperationalError)
    assert "Traceback (most recent call last)" in caplog.text and "no such table: monitors" in caplog.text


def test_an_injected_500_is_one_line_without_a_traceback(make_register, caplog):
    caplog.set_level(logging.INFO, logger="regkit")
    register = make_register(faults=Faults(fault_rate=1.0))
    response = session_for(register, "demo-paid").get(f"{register.base_url}/v1/credits")
    assert error_of(response) == (500, "injected_fault")
    assert [r.getMessage() for r in records(caplog, "regkit.local.faults")] == [
        "Injecting fault 'error' into GET /v1/credits (fault injection is on)"
    ]
    [access] = records(caplog, "regkit.local.access")
    assert '"GET /v1/credits" 500' in access.getMessage() and access.getMessage().endswith("fault=error")
    assert all(record.exc_info is None for record in caplog.records) and "Traceback" not in caplog.text


def test_each_decryption_names_user_credential_and_purpose(api, ids, caplog):
    caplog.set_level(logging.INFO, logger="regkit")
    session = api()
    stored = session.post("/v1/transparenzregister/credentials", json={**VALID_ACCOUNT, "name": "team"})
    assert stored.status_code == 201
    for _ in range(2):
        order = session.post(
            "/v1/transparenzregister/extracts",
            json={"company_id": ids.unique_match},
            headers={"X-Credential-Name": "team"},
        )
        assert order.status_code == 201
    lines = [r.getMessage() for r in records(caplog, "regkit.local.vault") if r.getMessage().startswith("Decrypted")]
    assert (
        lines
        == [
            f"Decrypted stored Transparenzregister credentials 'team' of user user-1 for a production "
            f"extract of {ids.unique_match}"
        ]
        * 2
    )
    assert VALID_ACCOUNT["password"] not in caplog.text and VALID_ACCOUNT["username"] not in caplog.text


def test_no_repr_holds_a_key(register, catalog):
    secret = Fernet.generate_key().decode()
    assert secret not in repr(Config(secret_key=secret))
    with register.context.state.connection() as conn:
        user = resolve_user(conn, catalog, "demo-paid")
    assert "demo-paid" not in repr(user) and "name='user-1'" in repr(user)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org",
        "https://example.org/regkit",
        "https://u:secret@example.org",
        "https://example.org?x=1",
        "example.org",
    ],
)
def test_a_public_url_that_is_not_an_origin_is_refused(url):
    with pytest.raises(ValueError, match="public_url must be an origin") as info:
        Config(public_url=url)
    assert "secret" not in str(info.value)
