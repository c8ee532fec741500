"""Stored Transparenzregister credentials: validation, limits, scoping, and encryption at rest."""

from __future__ import annotations

import logging
import os
import stat

import pytest
from cryptography.fernet import Fernet
from local_support import EMPTY, FREE, VALID_ACCOUNT, charged, error_of, session_for

CREDENTIALS = "/v1/transparenzregister/credentials"
EXTRACTS = "/v1/transparenzregister/extracts"


def test_store_returns_201_without_the_password(api):
    response = api().post(CREDENTIALS, json={**VALID_ACCOUNT, "name": "team"})
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "team" and body["username"] == VALID_ACCOUNT["username"]
    assert "password" not in body and VALID_ACCOUNT["password"] not in response.text
    assert body["created_at"] == body["updated_at"]
    assert charged(response) == 0


def test_name_defaults_to_default_and_overwrite_keeps_created_at(api, clock):
    session = api()
    first = session.post(CREDENTIALS, json=VALID_ACCOUNT).json()
    clock.advance(60)
    second = session.post(CREDENTIALS, json=VALID_ACCOUNT).json()
    assert first["name"] == second["name"] == "default"
    assert second["created_at"] == first["created_at"] != second["updated_at"]


@pytest.mark.parametrize(
    "body, code",
    [
        ({**VALID_ACCOUNT, "name": "sandbox"}, "reserved_credential_name"),
        ({**VALID_ACCOUNT, "name": "Sandbox"}, "reserved_credential_name"),
        ({**VALID_ACCOUNT, "name": "has space"}, "invalid_credential_name"),
        ({**VALID_ACCOUNT, "name": ""}, "invalid_credential_name"),
        ({"username": VALID_ACCOUNT["username"]}, "invalid_body"),
        ({"password": VALID_ACCOUNT["password"]}, "invalid_body"),
        ({**VALID_ACCOUNT, "password": ""}, "invalid_body"),
        ({**VALID_ACCOUNT, "username": 7}, "invalid_body"),
        ({**VALID_ACCOUNT, "remember": True}, "invalid_body"),
        ([], "invalid_body"),
    ],
)
def test_invalid_bodies_are_400(api, body, code):
    assert error_of(api().post(CREDENTIALS, json=body)) == (400, code)


def test_empty_body_is_400(api):
    assert error_of(api().post(CREDENTIALS)) == (400, "invalid_body")


def test_wrong_password_or_unknown_user_is_401(api):
    session = api()
    wrong = session.post(CREDENTIALS, json={**VALID_ACCOUNT, "password": "guess"})
    assert error_of(wrong) == (401, "register_credentials_rejected")
    unknown = session.post(CREDENTIALS, json={"username": "nobody@example.org", "password": "x"})
    assert error_of(unknown) == (401, "register_credentials_rejected")


def test_unauthenticated_is_401(api):
    assert error_of(api(None).post(CREDENTIALS, json=VALID_ACCOUNT)) == (401, "unauthorized")


def test_free_plan_is_402(api):
    assert error_of(api(FREE).post(CREDENTIALS, json=VALID_ACCOUNT)) == (402, "plan_required")


def test_eleventh_name_is_409_but_overwriting_is_allowed(api):
    session = api()
    for i in range(10):
        assert session.post(CREDENTIALS, json={**VALID_ACCOUNT, "name": f"set{i}"}).status_code == 201
    assert error_of(session.post(CREDENTIALS, json={**VALID_ACCOUNT, "name": "set10"})) == (
        409,
        "credential_limit_reached",
    )
    assert session.post(CREDENTIALS, json={**VALID_ACCOUNT, "name": "set3"}).status_code == 201


def test_credentials_are_scoped_to_the_api_user(api, ids):
    assert api().post(CREDENTIALS, json={**VALID_ACCOUNT, "name": "mine"}).status_code == 201
    other = api(EMPTY)  # paid plan, other user
    response = other.post(EXTRACTS, json={"company_id": ids.unique_match}, headers={"X-Credential-Name": "mine"})
    assert error_of(response) == (404, "credentials_not_found")
    for i in range(10):  # the other user's limit is its own
        assert other.post(CREDENTIALS, json={**VALID_ACCOUNT, "name": f"set{i}"}).status_code == 201


def test_password_is_nowhere_in_state_files_or_logs(api, register, ids, clock, caplog, tmp_path):
    caplog.set_level(logging.DEBUG)
    session = api()
    for name in ("default", "second"):
        assert session.post(CREDENTIALS, json={**VALID_ACCOUNT, "name": name}).status_code == 201
    extract = session.post(EXTRACTS, json={"company_id": ids.unique_match}).json()
    clock.advance(10)
    session.get(f"{EXTRACTS}/{extract['id']}")
    secret = VALID_ACCOUNT["password"].encode()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name.endswith("-wal") for p in files) and len(files) >= 3
    for path in files:
        data = path.read_bytes()
        assert secret not in data, path
        assert VALID_ACCOUNT["username"].encode() not in data, path
    assert "Decrypted stored Transparenzregister credentials 'default'" in caplog.text
    assert VALID_ACCOUNT["password"] not in caplog.text and VALID_ACCOUNT["username"] not in caplog.text
    assert "demo-paid" not in caplog.text


def test_generated_key_file_is_private_and_apart_from_the_state(api, register, tmp_path):
    api().post(CREDENTIALS, json=VALID_ACCOUNT)
    key_file = tmp_path / "keys" / "local.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.parent != register.context.state.path.parent
    assert not list(register.context.state.path.parent.glob("*.key"))


def test_key_file_beside_the_state_file_is_refused(make_register, tmp_path):
    register = make_register(key_path=tmp_path / "state" / "local.key")
    with pytest.raises(ValueError, match="must not live beside the state file"):
        register.context.vault.fernet()


def test_key_from_the_environment_is_used_and_no_file_written(make_register, tmp_path, monkeypatch, api):
    monkeypatch.setenv("REGKIT_LOCAL_SECRET_KEY", Fernet.generate_key().decode())
    register = make_register()
    session = register.mount(api().__class__(register.base_url))
    session.headers["Authorization"] = "Bearer demo-paid"
    assert session.post(CREDENTIALS, json=VALID_ACCOUNT).status_code == 201
    assert not (tmp_path / "keys").exists()


def test_a_changed_key_cannot_decrypt_and_says_so(make_register, api, ids, tmp_path):
    assert api().post(CREDENTIALS, json=VALID_ACCOUNT).status_code == 201
    os.remove(tmp_path / "keys" / "local.key")  # the key is lost: a new one is generated
    register = make_register()
    session = session_for(register, "demo-paid")
    response = session.post(f"{register.base_url}{EXTRACTS}", json={"company_id": ids.unique_match})
    assert error_of(response) == (500, "internal_error")
    assert "store them again" in response.json()["error"]["message"]
