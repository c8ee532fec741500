"""Over real loopback HTTP: the ``Host`` header never decides where presigned URLs point, and failed
authentications are throttled per client address."""

from __future__ import annotations

import math
import socket
import subprocess
import sys
import time

import pytest
import requests
from local_support import VALID_ACCOUNT, error_of, session_for

from regkit.local import LocalServer
from regkit.local.adapter import LOCAL_ORIGIN

FORGED = {"Host": "attacker.example", "X-Forwarded-Host": "attacker.example", "X-Forwarded-Proto": "https"}


def urls_handed_out(session, ids, clock) -> list[str]:
    """The presigned URLs of a company, of a completed extract, and the OpenAPI servers default."""
    company = session.get(f"/v1/company/{ids.unique_match}", headers=FORGED).json()
    assert session.post("/v1/transparenzregister/credentials", json=VALID_ACCOUNT).status_code == 201
    order = session.post(
        "/v1/transparenzregister/extracts",
        json={"company_id": ids.unique_match},
        headers={**FORGED, "X-Credential-Name": "default"},
    ).json()
    clock.advance(5)
    extract = session.get(f"/v1/transparenzregister/extracts/{order['id']}", headers=FORGED).json()
    openapi = session.get("/v1/openapi.json", headers=FORGED).json()
    return [
        *(s["document_url"] for s in company["sources"]),
        *(d["url"] for d in extract["documents"]),
        openapi["servers"][0]["variables"]["base_url"]["default"],
    ]


def test_a_forged_host_header_does_not_move_presigned_urls(remote, server, ids, clock):
    urls = urls_handed_out(remote(), ids, clock)
    assert len(urls) >= 3 and all(url.startswith(f"{server.url}/") or url == server.url for url in urls), urls
    assert requests.get(urls[0]).headers["Content-Type"] == "application/pdf"


def test_a_configured_public_url_names_the_urls(make_register, ids, clock):
    register = make_register(public_url="https://register.example.org/")
    with LocalServer(register.app) as server:
        urls = urls_handed_out(session_for(register, "demo-paid", base_url=server.url), ids, clock)
    assert all(url.startswith("https://register.example.org") for url in urls), urls


def test_in_process_urls_stay_on_the_local_origin(api, ids):
    company = api().get(f"/v1/company/{ids.unique_match}", headers=FORGED).json()
    assert company["sources"][0]["document_url"].startswith(f"{LOCAL_ORIGIN}/v1/documents/")


@pytest.mark.slow
@pytest.mark.serve
def test_regkit_serve_uses_public_url_not_the_host_header(regkit_serve, ids):
    served = regkit_serve("--public-url", "https://register.example.org")
    company = requests.get(
        f"{served.url}/v1/company/{ids.unique_match}", headers={**FORGED, "Authorization": "Bearer demo-paid"}
    ).json()
    assert company["sources"][0]["document_url"].startswith("https://register.example.org/v1/documents/")
    assert "document URLs name https://register.example.org" in served.out.read_text()


@pytest.mark.slow
def test_regkit_serve_refuses_a_public_url_with_a_path(tmp_path):
    command = [
        sys.executable,
        "-m",
        "regkit.cli",
        "serve",
        "--port",
        "0",
        "--state",
        str(tmp_path / "s.sqlite"),
        "--public-url",
        "https://register.example.org/api",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("regkit serve: --public-url must be an origin such as")
    assert "no path" in result.stderr and len(result.stderr.splitlines()) == 1


class FromAddress(requests.adapters.HTTPAdapter):
    """Connect from another loopback address (another client, as the server sees it)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def other_loopback_address() -> str:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.2", 0))
        except OSError:
            pytest.skip("this system has no second loopback address 127.0.0.2")
    return "127.0.0.2"


@pytest.mark.slow
def test_guessing_keys_is_throttled_per_address(remote, server, register):
    guesser = remote("not-the-key")
    answers = [guesser.get("/v1/credits") for _ in range(300)]
    assert [a.status_code for a in answers[:10]] == [401] * 10
    assert all(error_of(a) == (429, "rate_limited") and int(a.headers["Retry-After"]) >= 1 for a in answers[10:])
    assert "failed authentications from your address" in answers[-1].json()["error"]["message"]
    # a correct key from the throttled address is not checked either: a 200 would tell which guess was right
    assert error_of(remote("demo-paid").get("/v1/credits")) == (429, "rate_limited")
    assert remote(None).get("/v1/openapi.json").status_code == 200  # what needs no key stays open
    elsewhere = session_for(register, "demo-paid", base_url=server.url)
    elsewhere.mount("http://", FromAddress(other_loopback_address()))
    assert elsewhere.get("/v1/credits").status_code == 200  # another client address is not affected


def test_the_throttle_refills_and_requests_without_a_key_do_not_count(make_register):
    register = make_register(auth_failure_limit=2, auth_failure_window=1.0)
    with LocalServer(register.app) as server:
        keyless = session_for(register, None, base_url=server.url)
        for _ in range(20):
            assert error_of(keyless.get("/v1/credits")) == (401, "unauthorized")
        guesser = session_for(register, "guess", base_url=server.url)
        assert [guesser.get("/v1/credits").status_code for _ in range(3)] == [401, 401, 429]
        blocked = session_for(register, "demo-paid", base_url=server.url).get("/v1/credits")
        assert error_of(blocked) == (429, "rate_limited")
        time.sleep(math.ceil(float(blocked.headers["Retry-After"])))  # as the answer says
        assert session_for(register, "demo-paid", base_url=server.url).get("/v1/credits").status_code == 200


def test_the_throttle_can_be_turned_off(make_register):
    register = make_register(auth_failure_limit=0)
    guesser = session_for(register, "guess")
    assert {guesser.get(f"{register.base_url}/v1/credits").status_code for _ in range(30)} == {401}
