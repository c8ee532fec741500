"""Over real HTTP against ``regkit serve``: every error the register answers has the interface's JSON body, and
the requests waitress refuses before the register sees them get exactly what ``docs/interface.md`` says
(section "Requests the HTTP server refuses itself"): waitress's ``text/plain`` answer, no answer at all for
two waitress defects. The requests are written byte by byte on raw sockets, since ``requests`` and ``httpx``
refuse to send most of them.

If waitress one day answers these in another way (or a hook appears), these tests fail: update the section
with what it does then.
"""

from __future__ import annotations

import http.client
import json
import logging
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from serve_support import ServedRegister, served_register

from regkit.local.app import MAX_BODY_BYTES
from regkit.local.exceptions import ERROR_CODES
from regkit.local.faults import DroppedConnection
from regkit.local.server import MAX_HEAD_BYTES, MAX_REQUEST_BODY_BYTES, LocalServer

INTERFACE_MD = Path(__file__).resolve().parents[2] / "docs" / "interface.md"
SECTION = "### Requests the HTTP server refuses itself"
AUTH = b"Authorization: Bearer demo-paid\r\n"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def error(self) -> dict[str, Any]:
        """The interface's error object of a JSON error answer (fails the test for any other body)."""
        assert self.headers.get("content-type") == "application/json", (self.status, self.headers, self.body[:200])
        body = json.loads(self.body)
        assert list(body) == ["error"] and sorted(body["error"]) == ["code", "message"], body
        code, message = body["error"]["code"], body["error"]["message"]
        assert isinstance(message, str) and message, body
        assert ERROR_CODES.get(code) == self.status, f"{code!r} is not a {self.status} code of the interface"
        return body["error"]


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def exchange(port: int, request: bytes, timeout: float = 20.0) -> Answer:
    """Send ``request`` as it is on a new connection and read one answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock, method=request.split(b" ", 1)[0].decode("latin-1"))
        response.begin()
        body = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)


def everything_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server writes on ``sock`` within ``seconds`` (until it closes the connection, if it does)."""
    received = b""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        received += chunk
    return received


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedRegister]:
    """One ``regkit serve`` for the module (these requests change no state)."""
    with served_register(tmp_path_factory.mktemp("rejected")) as running:
        yield running


@dataclass(frozen=True)
class Refused:
    """A request waitress refuses itself, with the status and body detail ``docs/interface.md`` gives."""

    id: str
    request: bytes
    status: int
    detail: str


REASONS = {
    400: "Bad Request",
    413: "Request Entity Too Large",
    431: "Request Header Fields Too Large",
    501: "Not Implemented",
}

REFUSED = [
    Refused(
        "control character in a value",
        b"GET /v1/credits HTTP/1.1\r\nX-A: a\x01b\r\n" + AUTH + b"\r\n",
        400,
        "Invalid header",
    ),
    Refused("NUL in a value", b"GET /v1/credits HTTP/1.1\r\nX-A: a\x00b\r\n\r\n", 400, "Invalid header"),
    Refused("DEL in a value", b"GET /v1/credits HTTP/1.1\r\nX-A: a\x7fb\r\n\r\n", 400, "Invalid header"),
    Refused(
        "escape in the API key",
        b"GET /v1/credits HTTP/1.1\r\nAuthorization: Bearer demo\x1bpaid\r\n\r\n",
        400,
        "Invalid header",
    ),
    Refused("name not a token", b"GET /v1/credits HTTP/1.1\r\nX(A): b\r\n\r\n", 400, "Invalid header"),
    Refused("space before the colon", b"GET /v1/credits HTTP/1.1\r\nX-A : b\r\n\r\n", 400, "Invalid header"),
    Refused("no colon", b"GET /v1/credits HTTP/1.1\r\nnocolon\r\n\r\n", 400, "Invalid header"),
    Refused(
        "bare LF in a header",
        b"GET /v1/credits HTTP/1.1\r\nX-A: a\nb\r\n\r\n",
        400,
        'Bare CR or LF found in header line "X-A: a\nb"',
    ),
    Refused(
        "bare CR in the request line", b"GET /v1/cre\rdits HTTP/1.1\r\n\r\n", 400, "Bare CR or LF found in HTTP message"
    ),
    Refused(
        "continuation line first",
        b"GET /v1/credits HTTP/1.1\r\n X-A: b\r\n\r\n",
        400,
        'Malformed header line " X-A: b"',
    ),
    Refused("request line garbage", b"GARBAGE\r\n\r\n", 400, "Start line is invalid"),
    Refused("two spaces in the request line", b"GET  /v1/credits HTTP/1.1\r\n\r\n", 400, "Start line is invalid"),
    Refused("lower-case method", b"get /v1/credits HTTP/1.1\r\n\r\n", 400, 'Malformed HTTP method "get"'),
    Refused("raw non-ASCII byte in the target", b"GET /v1/company/\xff HTTP/1.1\r\n" + AUTH + b"\r\n", 400, "Bad URI"),
    Refused(
        "Content-Length not digits",
        b"POST /v1/search/insolvency HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        400,
        "Content-Length is invalid",
    ),
    Refused(
        "Content-Length negative",
        b"POST /v1/search/insolvency HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        400,
        "Content-Length is invalid",
    ),
    Refused(
        "Content-Length twice",
        b"POST /v1/search/insolvency HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
        400,
        "Content-Length is invalid",
    ),
    Refused(
        "chunk size not hexadecimal",
        b"POST /v1/search/insolvency HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        400,
        "Invalid chunk size",
    ),
    Refused(
        "chunk extension malformed",
        b"POST /v1/search/insolvency HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2;\x01\r\n{}\r\n0\r\n\r\n",
        400,
        "Invalid chunk extension",
    ),
    Refused(
        "chunk not terminated",
        b"POST /v1/search/insolvency HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
        400,
        "Chunk not properly terminated",
    ),
    Refused(
        "Transfer-Encoding gzip",
        b"POST /v1/search/insolvency HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        501,
        "Transfer-Encoding requested is not supported.",
    ),
    Refused(
        "head of the limit",
        b"GET /v1/credits HTTP/1.1\r\nX-A: " + b"a" * MAX_HEAD_BYTES + b"\r\n\r\n",
        431,
        f"exceeds max_header of {MAX_HEAD_BYTES}",
    ),
    Refused(
        "body of the limit",
        b"POST /v1/search/insolvency HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % MAX_REQUEST_BODY_BYTES,
        413,
        f"exceeds max_body of {MAX_REQUEST_BODY_BYTES}",
    ),
]


@pytest.mark.serve
@pytest.mark.parametrize("refused", REFUSED, ids=[r.id for r in REFUSED])
def test_waitress_answers_what_it_cannot_parse_itself_in_text_as_documented(served, refused):
    answer = exchange(port_of(served.url), refused.request)
    reason = REASONS[refused.status]
    assert answer.status == refused.status
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.body == f"{reason}\r\n\r\n{refused.detail}\r\n\r\n(generated by regkit)".encode()
    assert answer.headers["connection"] == "close"
    assert not any(name.startswith("x-credits") for name in answer.headers)


@pytest.mark.serve
def test_a_refused_request_never_reaches_the_register(served):
    """No access-log line and nothing charged: the register never saw it."""
    port = port_of(served.url)
    before = exchange(port, b"GET /v1/credits HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n")
    refused = exchange(port, b"GET /v1/credits?marker=refused HTTP/1.1\r\nX-A: \x01\r\n" + AUTH + b"\r\n")
    after = exchange(port, b"GET /v1/credits?marker=after HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n")
    assert refused.status == 400 and before.status == after.status == 200
    assert json.loads(before.body)["used_credits"] == json.loads(after.body)["used_credits"]
    log = served.log_file.read_text(errors="replace")
    assert "marker=after" in log and "marker=refused" not in log


@pytest.mark.serve
def test_a_malformed_ipv6_host_gets_the_connection_closed_without_a_byte(served):
    with socket.create_connection(("127.0.0.1", port_of(served.url)), timeout=10) as sock:
        sock.sendall(b"GET http://[zz]/v1/openapi.json HTTP/1.1\r\nConnection: close\r\n\r\n")
        assert everything_within(sock, 10) == b""
    assert "uncaptured python exception" in served.log_file.read_text(errors="replace")
    assert exchange(port_of(served.url), b"GET /v1/nothing HTTP/1.1\r\nConnection: close\r\n\r\n").status == 404


@pytest.mark.serve
@pytest.mark.parametrize("length", [b"abc", b"%d" % MAX_REQUEST_BODY_BYTES], ids=["invalid", "of the limit"])
def test_expect_continue_with_a_refused_content_length_gets_100_and_then_nothing(served, length):
    with socket.create_connection(("127.0.0.1", port_of(served.url)), timeout=10) as sock:
        sock.sendall(
            b"POST /v1/search/insolvency HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: " + length + b"\r\n\r\n"
        )
        assert everything_within(sock, 1.5) == b"HTTP/1.1 100 Continue\r\n\r\n"


def app_requests() -> list[tuple[str, bytes, int, str]]:
    """Requests waitress passes on although they are odd, with the status and code the register answers."""
    search = b"POST /v1/search/insolvency HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n"
    chunked = search + b"Transfer-Encoding: chunked\r\n\r\n"
    too_big = b" " * (MAX_BODY_BYTES + 1)
    return [
        ("body not JSON", search + b"Content-Length: 1\r\n\r\n{", 400, "invalid_json"),
        ("body not an object", search + b"Content-Length: 2\r\n\r\n[]", 400, "invalid_body"),
        ("chunked body not JSON", chunked + b"1\r\n{\r\n0\r\n\r\n", 400, "invalid_json"),
        (
            "page out of range",
            search + b'Content-Length: 27\r\n\r\n{"pagination":{"page":0}}  ',
            400,
            "invalid_pagination",
        ),
        (
            "percent-encoded bytes not UTF-8",
            b"GET /v1/company/%ff%fe HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n",
            400,
            "invalid_company_id",
        ),
        (
            "percent-encoded junk",
            b"GET /v1/company/%ZZ HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n",
            400,
            "invalid_company_id",
        ),
        (
            "flag neither true nor false",
            b"GET /v1/company/DE-HRB-F1103-267645?realtime=maybe HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n",
            400,
            "invalid_parameter",
        ),
        ("no HTTP version", b"GET /v1/company/nope\r\n" + AUTH + b"\r\n", 400, "invalid_company_id"),
        ("HTTP/2.0 over HTTP/1", b"GET /v1/company/nope HTTP/2.0\r\n" + AUTH + b"\r\n", 400, "invalid_company_id"),
        (
            "obs-text in the API key",
            b"GET /v1/credits HTTP/1.1\r\nAuthorization: Bearer d\xe9mo\r\n\r\n",
            401,
            "unauthorized",
        ),
        (
            "underscore header dropped",
            b"GET /v1/credits HTTP/1.1\r\nAuthori_zation: Bearer demo-paid\r\nConnection: close\r\n\r\n",
            401,
            "unauthorized",
        ),
        ("raw byte after a double slash", b"GET //\xff HTTP/1.1\r\nConnection: close\r\n\r\n", 404, "not_found"),
        (
            "wrong method",
            b"PUT /v1/credits HTTP/1.1\r\n" + AUTH + b"Connection: close\r\n\r\n",
            405,
            "method_not_allowed",
        ),
        ("body over 1 MiB", search + b"Content-Length: %d\r\n\r\n" % len(too_big) + too_big, 413, "payload_too_large"),
        (
            "chunked body over 1 MiB",
            chunked + b"%x\r\n" % len(too_big) + too_big + b"\r\n0\r\n\r\n",
            413,
            "payload_too_large",
        ),
        (
            "head just under the limit",
            b"GET /v1/credits HTTP/1.1\r\nX-A: " + b"a" * (MAX_HEAD_BYTES - 256) + b"\r\nConnection: close\r\n\r\n",
            401,
            "unauthorized",
        ),
    ]


APP_REQUESTS = app_requests()


@pytest.mark.serve
@pytest.mark.parametrize(
    ("request_bytes", "status", "code"), [case[1:] for case in APP_REQUESTS], ids=[case[0] for case in APP_REQUESTS]
)
def test_every_error_the_register_answers_over_http_has_the_json_body(served, request_bytes, status, code):
    answer = exchange(port_of(served.url), request_bytes)
    assert answer.status == status, answer.body[:300]
    assert answer.error()["code"] == code


def test_an_exception_escaping_the_application_is_a_json_500(caplog):
    def broken(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raise RuntimeError("a bug under the register's own error handling")

    caplog.set_level(logging.ERROR, logger="regkit.local.server")
    with LocalServer(broken) as server:
        response = requests.get(f"{server.url}/v1/credits", timeout=10)
        again = requests.get(f"{server.url}/v1/credits", timeout=10)
    assert response.status_code == again.status_code == 500
    answer = Answer(500, {k.lower(): v for k, v in response.headers.items()}, response.content)
    assert answer.error()["code"] == "internal_error"
    assert "a bug under the register's own error handling" in caplog.text


def test_an_injected_drop_still_closes_the_connection():
    def dropping(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raise DroppedConnection("injected timeout")

    with LocalServer(dropping) as server, pytest.raises(requests.exceptions.ConnectionError):
        requests.get(f"{server.url}/v1/credits", timeout=10)


@pytest.mark.serve
def test_the_official_client_sees_the_refusal_as_any_400_with_a_text_body(served):
    """httpx sends a header value with U+0001 (it refuses only NUL and white space): the official client raises
    its ``BadRequestError`` by the status, as for every 400, with waitress's text as ``body``."""
    import openregister

    with pytest.raises(openregister.BadRequestError) as raised:
        served.client(api_key="demo\x01paid").company.get_details_v1("DE-HRB-F1103-267645")
    assert raised.value.status_code == 400
    assert raised.value.body == "Bad Request\r\n\r\nInvalid header\r\n\r\n(generated by regkit)"
    with pytest.raises(openregister.APIConnectionError):  # a line break: httpx refuses to send it at all
        served.client(api_key="demo\npaid").company.get_details_v1("DE-HRB-F1103-267645")


def documented_refusals() -> list[tuple[int, str]]:
    """``(status, detail)`` of every row of the section's table; ``…`` in a detail stands for any text."""
    text = INTERFACE_MD.read_text(encoding="utf-8")
    section = text[text.index(SECTION) : text.index("\n## ", text.index(SECTION))]
    rows = [line for line in section.splitlines() if re.match(r"\| [^-]", line) and not line.startswith("| Request")]
    found = []
    for row in rows:
        _, status, details = (cell.strip() for cell in row.strip("|").split(" | "))
        found += [(int(status), detail) for detail in re.findall(r"`([^`]+)`", details)]
    return found


def matches(documented: str, detail: str) -> bool:
    return re.fullmatch(".*".join(re.escape(part) for part in documented.split("…")), detail, re.DOTALL) is not None


def test_the_documented_refusals_are_the_tested_ones():
    documented = documented_refusals()
    assert documented, f"no table under {SECTION!r} in docs/interface.md"
    tested = [(r.status, r.detail) for r in REFUSED]
    undocumented = [t for t in tested if not any(s == t[0] and matches(d, t[1]) for s, d in documented)]
    untested = [d for d in documented if not any(s == d[0] and matches(d[1], t) for s, t in tested)]
    assert not undocumented and not untested, (undocumented, untested)
    text = INTERFACE_MD.read_text(encoding="utf-8")
    assert r"`<reason>\r\n\r\n<detail>\r\n\r\n(generated by regkit)`" in text
    assert "`Content-Type: text/plain; charset=utf-8`" in text
