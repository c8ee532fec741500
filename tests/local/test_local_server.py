"""The same register over real loopback HTTP (LocalServer, ``regkit serve``), and the in-process adapter
under requests-cache."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import requests_cache
from local_support import VALID_ACCOUNT, charged, conforming, error_of, session_for

from regkit.local.adapter import LOCAL_ORIGIN


def test_representative_calls_over_loopback(remote, ids, clock):
    session = remote()
    company = session.get(f"/v1/company/{ids.unique_match}")
    assert company.status_code == 200 and charged(company) == 10
    source = company.json()["sources"][0]["document_url"]
    assert source.startswith(session.base_url)
    assert remote(None).get(source).headers["Content-Type"] == "application/pdf"
    search = session.post("/v1/search/insolvency", json={"query": {"value": "mueller"}})
    assert search.status_code == 200 and search.json()["results"]
    assert session.post("/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    extract = session.post(
        "/v1/transparenzregister/extracts",
        json={"company_id": ids.unique_match},
        headers={"X-Credential-Name": "default"},
    ).json()
    clock.advance(5)
    assert session.get(f"/v1/transparenzregister/extracts/{extract['id']}").json()["status"] == "completed"
    assert (
        session.post(
            "/v1/monitor", json={"entity_type": "company", "entity_id": ids.unique_match, "preferences": ["basic"]}
        ).status_code
        == 200
    )
    assert session.delete(f"/v1/monitor/{ids.unique_match}").status_code == 204
    assert session.get("/v1/credits").json()["used_credits"] == 10 + 10 + 50 + 25
    assert error_of(remote(None).get("/v1/credits")) == (401, "unauthorized")
    assert error_of(remote(conform=False).get("/v1/missing")) == (404, "not_found")
    assert (
        remote(None).get("/v1/openapi.json").json()["servers"][0]["variables"]["base_url"]["default"]
        == session.base_url
    )


def test_truncated_and_malformed_input_over_loopback(remote):
    session = remote()
    assert error_of(session.post("/v1/search/insolvency", data=b"{")) == (400, "invalid_json")
    assert error_of(session.post("/v1/search/insolvency", json={"pagination": {"per_page": 500}})) == (
        400,
        "invalid_pagination",
    )


def test_server_start_stop_and_port(register):
    from regkit.local.server import LocalServer

    server = LocalServer(register.app)
    with pytest.raises(RuntimeError):
        _ = server.url
    server.start()
    assert server.ready.is_set() and server.port > 0
    assert session_for(register, None, base_url=server.url).get("/v1/openapi.json").status_code == 200
    server.stop()
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(f"http://127.0.0.1:{server.port}/v1/openapi.json", timeout=1)


def test_adapter_works_under_requests_cache(register, ids, tmp_path):
    session = requests_cache.CachedSession(str(tmp_path / "cache"), backend="sqlite")
    register.mount(session)
    session.hooks["response"].append(conforming)
    session.headers["Authorization"] = "Bearer demo-paid"
    url = f"{LOCAL_ORIGIN}/v1/company/{ids.unique_match}?export=true"
    first = session.get(url)
    second = session.get(url)
    assert first.from_cache is False and second.from_cache is True
    assert second.json() == first.json() and second.headers["X-Credits-Charged"] == "10"
    credits = session_for(register, "demo-paid").get(f"{LOCAL_ORIGIN}/v1/credits").json()
    assert credits["used_credits"] == 10
    cached = (tmp_path / "cache.sqlite").read_bytes()
    assert b"demo-paid" not in cached


def test_adapter_streams(register, ids):
    response = session_for(register, "demo-paid").get(f"{LOCAL_ORIGIN}/v1/company/{ids.unique_match}", stream=True)
    assert b"".join(response.iter_content(256)).startswith(b"{")


def test_regkit_serve_prints_where_it_listens_and_whom_it_serves_but_no_key(register, tmp_path):
    command = [sys.executable, "-m", "regkit.local", "serve", "--port", "0", "--state", str(tmp_path / "s.sqlite")]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=Path(__file__).parents[2]
    )
    try:
        banner = [process.stdout.readline() for _ in range(8)]
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", banner[0])
        assert match, banner
        assert any(line.strip().startswith("user-1   plan pro") for line in banner), banner
        assert not any(key in line for line in banner for key in register.api_keys), banner
        deadline = time.time() + 10
        while True:
            try:
                response = session_for(register, "demo-free", base_url=match.group(1)).get("/v1/credits")
                break
            except requests.exceptions.ConnectionError:
                assert time.time() < deadline
                time.sleep(0.1)
        assert response.json()["remaining_credits"] == 500
    finally:
        process.terminate()
        process.wait(timeout=10)


def _serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess:
    """Run ``regkit serve`` (the console script's code, ``python -m regkit.cli``) with a throw-away state and key."""
    from cryptography.fernet import Fernet

    environment = {**os.environ, "REGKIT_LOCAL_SECRET_KEY": Fernet.generate_key().decode()}
    command = [sys.executable, "-m", "regkit.cli", "serve", "--state", str(tmp_path / "state.sqlite"), *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=environment, check=False)


def _one_line_error(result: subprocess.CompletedProcess) -> str:
    """Assert the run failed with one line on stderr and no traceback; return that line."""
    assert result.returncode != 0 and result.stdout == "", (result.returncode, result.stdout)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("regkit serve: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.slow
def test_serve_reports_a_missing_world_directory_in_one_line(tmp_path):
    line = _one_line_error(_serve(tmp_path, "--port", "0", "--data", str(tmp_path / "nowhere")))
    assert str(tmp_path / "nowhere") in line and "regkit world build" in line


@pytest.mark.slow
def test_serve_reports_a_damaged_world_in_one_line(tmp_path):
    from regkit.local.world import default_data_dir
    from regkit.local.world.store import WORLD_FILES

    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for name in WORLD_FILES:
        (damaged / name).write_bytes((default_data_dir() / name).read_bytes())
    (damaged / "insolvencies.jsonl.gz").write_bytes((default_data_dir() / "insolvencies.jsonl.gz").read_bytes()[:999])
    line = _one_line_error(_serve(tmp_path, "--port", "0", "--data", str(damaged)))
    assert str(damaged) in line and "not a readable regkit world" in line and "regkit world build" in line


@pytest.mark.slow
@pytest.mark.parametrize("port", ["70000", "-1", "eighty", ""])
def test_serve_reports_an_invalid_port_in_one_line(tmp_path, port):
    result = _serve(tmp_path, "--port", port)
    assert result.returncode == 2
    assert f"--port must be a whole number from 0 to 65535 (0 picks a free one), not {port!r}" in _one_line_error(
        result
    )


@pytest.mark.slow
def test_serve_reports_a_negative_burst_retry_after_in_one_line(tmp_path):
    result = _serve(tmp_path, "--burst-rate", "0.1", "--burst-retry-after", "-1")
    assert result.returncode == 2
    assert "--burst-retry-after must be a whole number of seconds >= 0, not -1" in _one_line_error(result)


@pytest.mark.slow
def test_serve_reports_a_port_in_use_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = _one_line_error(_serve(tmp_path, "--port", str(port)))
    assert f"port {port} on 127.0.0.1 is in use" in line and "--port" in line
