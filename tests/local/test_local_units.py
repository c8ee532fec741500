"""Small pure pieces of the local register: configuration, durations, signing, PDF, state file, errors."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest
from local_support import VALID_ACCOUNT, error_of, session_for

import regkit.local
from regkit.local.config import Config, default_key_path, default_state_path, parse_duration
from regkit.local.exceptions import ERROR_CODES, ApiError
from regkit.local.models.pdf import text_pdf
from regkit.local.models.state import StateDB
from regkit.local.signing import UrlSigner


@pytest.mark.parametrize("text, seconds", [("50ms", 0.05), ("1.5s", 1.5), ("2m", 120.0), ("3", 3.0), (".5", 0.5)])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "fast", "-1s", "5h"])
def test_parse_duration_rejects_garbage(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_state_path_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("REGKIT_LOCAL_STATE", str(tmp_path / "x.sqlite"))
    assert default_state_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("REGKIT_LOCAL_STATE")
    assert default_state_path().name == "local-register.sqlite"
    assert default_key_path().parent != default_state_path().parent


@pytest.mark.parametrize("kwargs", [{"rate_limit": -1}, {"extract_delay": -1}, {"url_ttl": 0}])
def test_config_rejects_nonsense(kwargs):
    with pytest.raises(ValueError):
        Config(**kwargs)


def test_signer_round_trip_and_rejections():
    now = [1000.0]
    signer = UrlSigner(b"k" * 32, ttl=60, clock=lambda: now[0])
    url = signer.url("http://x/", "doc/1")
    assert url.startswith("http://x/v1/documents/doc%2F1?expires=1060&signature=")
    signature = url.rsplit("=", 1)[1]
    signer.verify("doc/1", "1060", signature)
    for expires, sig, code in [
        ("1060", "00", "invalid_signature"),
        ("1061", signature, "invalid_signature"),
        (None, signature, "invalid_signature"),
        ("10x", signature, "invalid_signature"),
        ("1060", "ü" * 64, "invalid_signature"),
    ]:
        with pytest.raises(ApiError) as caught:
            signer.verify("doc/1", expires, sig)
        assert caught.value.code == code
    now[0] = 1061
    with pytest.raises(ApiError) as caught:
        signer.verify("doc/1", "1060", signature)
    assert caught.value.code == "url_expired"


def test_pdf_is_well_formed_and_survives_odd_text():
    data = text_pdf("Titel (mit) Klammern \\", ["Ümläute ß", "Emoji 🙂 wird ersetzt"])
    assert data.startswith(b"%PDF-1.4") and b"startxref" in data
    xref = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert data[xref : xref + 4] == b"xref"


def test_state_file_is_private_and_reopens(tmp_path):
    path = tmp_path / "deep" / "state.sqlite"
    first = StateDB(path)
    secret = first.meta("signing_secret")
    first.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    second = StateDB(path)
    assert second.meta("signing_secret") == secret
    with second.connection() as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    second.close()
    with pytest.raises(RuntimeError):
        with second.connection():
            pass


def test_transaction_rolls_back_on_error(tmp_path):
    state = StateDB(tmp_path / "s.sqlite")
    with pytest.raises(ApiError):
        with state.transaction() as conn:
            conn.execute("INSERT INTO usage (user, day, credits) VALUES ('u', '2026-01-01', 5)")
            raise ApiError("insufficient_credits", "no")
    with state.connection() as conn:
        assert conn.execute("SELECT count(*) FROM usage").fetchone()[0] == 0


def test_newer_state_schema_is_refused(tmp_path):
    path = tmp_path / "s.sqlite"
    StateDB(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version=99")
    with pytest.raises(RuntimeError, match="schema 99"):
        StateDB(path)


def test_error_codes_are_snake_case_and_statuses_are_errors():
    for code, status in ERROR_CODES.items():
        assert code.replace("_", "").isalpha() and code.islower()
        assert 400 <= status < 600


def test_package_exports_resolve_lazily():
    for name in regkit.local.__all__:
        assert getattr(regkit.local, name) is not None
    with pytest.raises(AttributeError):
        regkit.local.nothing_here  # noqa: B018


def test_bad_secret_key_is_a_500_on_store(make_register):
    register = make_register(secret_key="not-a-fernet-key")
    session = session_for(register, "demo-paid")
    response = session.post(f"{register.base_url}/v1/transparenzregister/credentials", json=VALID_ACCOUNT)
    assert error_of(response) == (500, "internal_error")


def test_default_register_uses_bundled_world(register):
    assert register.default_api_key == "demo-paid"
    assert set(register.api_keys) == {"demo-paid", "demo-free", "demo-empty"}
    assert "local.regkit" in repr(register)
    assert Path(register.context.state.path).exists()
