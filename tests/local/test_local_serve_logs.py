"""What a real ``regkit serve`` writes: an access line per request, a traceback per unexpected 500, a line per
decryption of stored credentials — and never an API key or a password (its banner included)."""

from __future__ import annotations

import re
import sqlite3
import time

import pytest
import requests
from local_support import VALID_ACCOUNT

pytestmark = pytest.mark.serve

WRONG_KEY = "wrong-key-7f3a9c"


def secrets_of(catalog) -> list[str]:
    """Every demo key and Transparenzregister test password of the world (data/README.md, world.json)."""
    return [*catalog.users, *(account["password"] for account in catalog.accounts.values())]


def wait_for(path, pattern: str, timeout: float = 10.0) -> str:
    """The text of ``path`` once ``pattern`` occurs in it (the server writes its log lines as it goes)."""
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text(errors="replace") if path.exists() else ""
        if re.search(pattern, text) or time.monotonic() > deadline:
            return text
        time.sleep(0.05)


def test_serve_logs_every_request_a_500_traceback_and_each_decryption_but_no_secret(regkit_serve, catalog, ids):
    served = regkit_serve("--extract-delay", "0")
    paid = requests.Session()
    paid.headers["Authorization"] = "Bearer demo-paid"
    company = paid.get(f"{served.url}/v1/company/{ids.unique_match}")
    assert company.status_code == 200
    document_url = company.json()["sources"][0]["document_url"]
    assert requests.get(document_url).status_code == 200
    assert paid.post(f"{served.url}/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    order = paid.post(
        f"{served.url}/v1/transparenzregister/extracts",
        json={"company_id": ids.unique_match},
        headers={"X-Credential-Name": "default"},
    )
    assert order.status_code == 201
    assert requests.get(f"{served.url}/v1/credits", headers={"Authorization": f"Bearer {WRONG_KEY}"}).status_code == 401
    assert requests.get(f"{served.url}/v1/credits?api_key=demo-free&token=demo-empty&key=x").status_code == 401
    with sqlite3.connect(served.state_path) as state:  # the state file loses a table under the running register
        state.execute("DROP TABLE monitors")
    broken = paid.get(f"{served.url}/v1/monitor")
    assert broken.status_code == 500 and broken.json()["error"]["code"] == "internal_error"
    assert "logged" in broken.json()["error"]["message"]

    log = wait_for(served.log_file, r"Traceback[\s\S]*no such table: monitors")
    access = [line for line in log.splitlines() if " regkit.local.access: " in line and "openapi.json" not in line]
    assert len(access) == 7, access  # one line per request (the fixture's readiness probe left aside)
    assert any(
        f'"GET /v1/company/{ids.unique_match}" 200' in line and "user=user-1 credits=10" in line for line in access
    )
    assert any('"GET /v1/credits?api_key=[redacted]&token=[redacted]&key=[redacted]" 401' in line for line in access)
    assert any('"GET /v1/documents/' in line and "signature=[redacted]" in line for line in access)
    assert any('"GET /v1/monitor" 500' in line and "user=user-1" in line for line in access)
    assert re.search(
        r"ERROR regkit\.local\.app: Internal error on GET /v1/monitor \(user user-1\)\n"
        r"Traceback \(most recent call last\):[\s\S]*sqlite3\.OperationalError: no such table: monitors",
        log,
    )
    assert re.search(
        rf"INFO regkit\.local\.vault: Decrypted stored Transparenzregister credentials 'default' of "
        rf"user user-1 for a production extract of {ids.unique_match}",
        log,
    )
    written = served.everything_written()
    for secret in (*secrets_of(catalog), WRONG_KEY, VALID_ACCOUNT["username"], document_url.split("signature=")[1]):
        assert secret not in written, secret


def test_serve_banner_names_users_and_plans_but_no_key(regkit_serve, catalog):
    served = regkit_serve()
    banner = served.out.read_text()
    assert "user-1   plan pro, 100000 credits" in banner and "user-2   plan free, 500 credits" in banner
    assert "API keys are not shown" in banner and "data/README.md" in banner
    assert "failed authentications: 10 per minute per client address, then 429" in banner
    for key in catalog.users:
        assert key not in banner


def test_serve_verbose_writes_access_lines_to_stderr_and_plain_does_not(regkit_serve):
    plain, verbose = regkit_serve(), regkit_serve("--verbose")
    for served in (plain, verbose):
        response = requests.get(f"{served.url}/v1/credits", headers={"Authorization": "Bearer demo-free"})
        assert response.status_code == 200
        assert '"GET /v1/credits" 200' in wait_for(served.log_file, r'"GET /v1/credits" 200')
    assert '"GET /v1/credits" 200' in wait_for(verbose.err, r'"GET /v1/credits" 200')
    assert "regkit.local.access" not in plain.err.read_text() and "Local register ready" in plain.err.read_text()


def test_serve_reports_an_unwritable_log_file_in_one_line(tmp_path):
    import subprocess
    import sys

    command = [
        sys.executable,
        "-m",
        "regkit.cli",
        "serve",
        "--port",
        "0",
        "--state",
        str(tmp_path / "s.sqlite"),
        "--log-file",
        str(tmp_path / "missing-directory" / "serve.log"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1 and result.stdout == ""
    log_file = tmp_path / "missing-directory" / "serve.log"
    assert result.stderr.splitlines() == [
        f"regkit serve: cannot write the log file {log_file}: No such file or directory; choose another with --log-file"
    ]
