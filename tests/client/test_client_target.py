"""Where a client sends its key: the live service, the bundled register, or the server the user named.

Nothing here reaches the network: the live target is checked by what the client would send where,
and key handling over real HTTP is checked against recording servers on loopback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import regkit.client.transport.target as target
from regkit.client import Client, NotFoundError, TransportError, ValidationError
from regkit.client.transport.outcome import shorten

LIVE = "https://api.openregister.de"


class _Recorder(BaseHTTPRequestHandler):
    """Answers every GET with a fixed status and body and remembers the headers it was sent."""

    def do_GET(self) -> None:  # http.server's naming
        self.server.seen.append(dict(self.headers))  # type: ignore[attr-defined]
        status, headers, body = self.server.answer  # type: ignore[attr-defined]
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        data = json.dumps(body).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def recorders() -> Iterator[Any]:
    """``make(status, headers, body)`` starts a recording HTTP server on loopback and returns it
    (``server.url``, ``server.seen`` — the headers of each request); all are stopped afterwards."""
    servers: list[ThreadingHTTPServer] = []

    def make(status: int = 200, headers: dict[str, str] | None = None, body: Any = None) -> Any:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        server.seen, server.answer = [], (status, headers or {}, body or {})  # type: ignore[attr-defined]
        server.url = f"http://127.0.0.1:{server.server_port}"  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()


# -- where a key goes -----------------------------------------------------------------------------


def test_a_live_key_targets_the_live_service(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(api_key="sk-live-0123456789", cache="memory")
    assert (client.mode, client.base_url) == ("live", LIVE)
    assert "live service" in repr(client) and LIVE in repr(client) and "0123456789" not in repr(client)
    # The key is attached by the transport mounted at the live origin, and by nothing else.
    session = client._caller.session
    assert "Authorization" not in session.headers
    assert session.get_adapter(f"{LIVE}/v1/credits") is client._caller.meter
    assert session.get_adapter("https://api.handelsregister.ai/v1/credits") is not client._caller.meter


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"OPENREGISTER_API_KEY": "sk-or-1"}, ("live", LIVE, "sk-or-1")),
        ({"REGKIT_API_KEY": "sk-rk-1", "OPENREGISTER_API_KEY": "sk-or-1"}, ("live", LIVE, "sk-rk-1")),
        (
            {"OPENREGISTER_API_KEY": "sk-or-1", "OPENREGISTER_BASE_URL": "http://127.0.0.1:9/"},
            ("custom", "http://127.0.0.1:9", "sk-or-1"),
        ),
        (
            {
                "REGKIT_API_KEY": "sk-rk-1",
                "REGKIT_BASE_URL": "http://127.0.0.1:8/",
                "OPENREGISTER_BASE_URL": "http://127.0.0.1:9/",
            },
            ("custom", "http://127.0.0.1:8", "sk-rk-1"),
        ),
    ],
)
def test_the_official_clients_variables_are_read_after_regkits(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: tuple[str, str, str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    client = Client(cache="memory")
    assert (client.mode, client.base_url, client.target.api_key) == expected


def test_the_key_goes_only_to_the_chosen_host_never_through_a_redirect(recorders: Any) -> None:
    elsewhere = recorders(404, body={"error": {"code": "company_not_found", "message": "no such company"}})
    chosen = recorders(302, headers={"Location": f"{elsewhere.url}/v1/company/DE-HRB-B1234-1"})
    client = Client(api_key="sk-secret-abcdef", base_url=chosen.url, cache="memory", retries=0)
    with pytest.raises(NotFoundError):  # the redirect was followed, without the key
        client.get_company("DE-HRB-B1234-1")
    assert [h.get("Authorization") for h in chosen.seen] == ["Bearer sk-secret-abcdef"]
    assert elsewhere.seen and all("Authorization" not in h for h in elsewhere.seen)


@pytest.mark.parametrize("key", ["demo-paid", "demo-free", "demo-empty"])
def test_a_demo_key_stays_on_this_machine(key: str) -> None:
    client = Client(api_key=key, cache="memory")
    assert client.mode == "local" and client.base_url == target.LOCAL_ORIGIN
    credits = client.get_credits()  # answered by the bundled register, for that demo user
    assert credits.raw["included_credits"] == {"demo-paid": 100_000, "demo-free": 500, "demo-empty": 0}[key]


def test_a_demo_key_in_the_environment_stays_local(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGKIT_API_KEY", "demo-free")
    assert Client(cache="memory").mode == "local"


@pytest.mark.parametrize("live_url", [LIVE, LIVE + "/", "https://API.openregister.de:443"])
def test_a_demo_key_aimed_at_the_live_service_is_refused(live_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="demo key"):
        Client(api_key="demo-paid", base_url=live_url, cache="memory")
    monkeypatch.setenv("OPENREGISTER_BASE_URL", live_url)
    with pytest.raises(ValidationError, match="demo key"):
        Client(api_key="demo-free", cache="memory")


def test_a_demo_key_works_with_regkit_serve_elsewhere(recorders: Any) -> None:
    server = recorders(200, headers={"X-Credits-Charged": "0"}, body={"used_credits": 0})
    client = Client(api_key="demo-paid", base_url=server.url, cache="memory")
    assert client.mode == "custom" and "server at " + server.url in repr(client)


# -- the notice -----------------------------------------------------------------------------------

_NOTICE = "using the bundled local register"


def test_the_notice_is_seen_in_a_terminal_once(tmp_path: Any) -> None:
    script = textwrap.dedent("""
        import regkit
        first, second = regkit.Client(cache="memory"), regkit.Client(cache="memory")
        print(first.get_credits().remaining_credits > 0)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=_clean_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert done.stderr.count(_NOTICE) == 1 and "synthetic data" in done.stderr and "demo-paid" not in done.stderr


@pytest.mark.slow
def test_the_notice_is_seen_in_a_notebook(tmp_path: Any) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "import regkit\nclient = regkit.Client(cache='memory')\nclient.get_credits().remaining_credits > 0"
            )
        ]
    )
    import os

    saved = dict(os.environ)
    os.environ.update(_clean_env(tmp_path))
    try:
        nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    outputs = notebook.cells[0].outputs
    streams = [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    assert len(streams) == 1 and _NOTICE in streams[0].text and "synthetic data" in streams[0].text
    assert [o.data["text/plain"] for o in outputs if o.output_type == "execute_result"] == ["True"]


def test_an_imported_world_is_announced_as_real_data_with_its_licence(tmp_path: Any) -> None:
    """A client on a world imported from OffeneRegister says once that the data is real, with the CC BY
    attribution, and never calls it synthetic; its repr and source line say the same."""
    from regkit.local.world.offeneregister import import_offeneregister, sample_file

    world = import_offeneregister(sample_file(), tmp_path / "world", limit=200).directory
    script = textwrap.dedent(f"""
        import regkit
        first = regkit.Client(cache="memory", data_dir={str(world)!r})
        second = regkit.Client(cache="memory", data_dir={str(world)!r})
        print(repr(first))
        print(first.target.source())
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=_clean_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("real register data") == 1 and "synthetic" not in done.stderr
    assert "OffeneRegister.de" in done.stderr and "CC BY 4.0" in done.stderr
    assert "local register on OffeneRegister data (real, in-process)" in done.stdout
    assert "CC BY 4.0" in done.stdout.splitlines()[-1]


def test_the_notice_can_be_silenced_with_logging(tmp_path: Any) -> None:
    script = (
        "import logging, regkit; logging.getLogger('regkit.notice').setLevel(logging.ERROR); "
        "regkit.Client(cache='memory')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=_clean_env(tmp_path)
    )
    assert done.returncode == 0 and _NOTICE not in done.stderr


def _clean_env(tmp_path: Any) -> dict[str, str]:
    import os

    from cryptography.fernet import Fernet

    env = {k: v for k, v in os.environ.items() if not k.startswith(("REGKIT_", "OPENREGISTER_"))}
    env.update(
        REGKIT_CACHE_DIR=str(tmp_path / "cache"),
        REGKIT_LOCAL_STATE=str(tmp_path / "state.sqlite"),
        REGKIT_LOCAL_SECRET_KEY=Fernet.generate_key().decode(),
    )
    return env


# -- bad constructor arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"budget": "100"}, "budget"),
        ({"budget": -1}, "budget"),
        ({"budget": 10.5}, "budget"),
        ({"budget": True}, "budget"),
        ({"max_workers": 0}, "max_workers"),
        ({"max_workers": "8"}, "max_workers"),
        ({"timeout": "30"}, "timeout"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"timeout": (5, None)}, "timeout"),
        ({"retries": -1}, "retries"),
        ({"retries": "4"}, "retries"),
        ({"policy": {"company": 3}}, "policy"),
        ({"offline": "yes"}, "offline"),
        ({"adapter": object()}, "adapter"),
        ({"cache": 3.5}, "cache"),
        ({"api_key": 12345}, "api_key"),
        ({"api_key": "sk-abc\n"}, "api_key"),
        ({"api_key": "k", "base_url": "ftp://example.test"}, "base_url"),
        ({"api_key": "k", "base_url": "api.openregister.de"}, "base_url"),
        ({"api_key": "k", "base_url": "https://user:secret-key@example.test"}, "base_url"),
        ({"api_key": "k", "base_url": "http://127.0.0.1:99999"}, "base_url"),
        ({"api_key": "k", "base_url": "http://127.0.0.1:8080/?key=x"}, "base_url"),
    ],
)
def test_every_bad_constructor_argument_is_named(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Client(**kwargs)
    assert str(caught.value).startswith(named + " ")
    assert "secret-key" not in str(caught.value)


def test_bad_environment_values_name_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REGKIT_BASE_URL", "localhost:8080")
    monkeypatch.setenv("REGKIT_API_KEY", "k")
    with pytest.raises(ValidationError, match="^REGKIT_BASE_URL 'localhost:8080' is not an http"):
        Client(cache="memory")


# -- messages ------------------------------------------------------------------------------------


def test_a_refused_connection_reads_as_one_sentence(recorders: Any) -> None:
    server = recorders()
    port = server.server_port
    server.shutdown()
    server.server_close()
    client = Client(api_key="k", base_url=f"http://127.0.0.1:{port}", cache="memory", retries=0)
    with pytest.raises(TransportError) as caught:
        client.get_company("DE-HRB-B1234-1")
    text = str(caught.value)
    assert f"cannot connect to 127.0.0.1:{port}: connection refused" in text
    assert "HTTPConnectionPool" not in text and "object at 0x" not in text


def test_a_404_says_each_thing_once(local: Any) -> None:
    client = local.client()
    with pytest.raises(LookupError) as caught:
        client.get_company("DE-HRB-B1234-999999999")
    sentences = [s.strip().lower() for s in str(caught.value).replace("—", ";").split(";") if s.strip()]
    assert len(sentences) == len(set(sentences))
    assert str(caught.value).lower().count("check the id") <= 1


@given(
    st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "Zs", "P"]), max_size=400),
    st.integers(min_value=10, max_value=300),
)
def test_shortened_text_is_never_cut_mid_word(text: str, limit: int) -> None:
    out = shorten(text, limit)
    norm = " ".join(text.split())
    if len(norm) <= limit:
        assert out == norm
    else:
        assert out.endswith(" …")
        kept = out[: -len(" …")]
        assert norm.startswith(kept) and len(kept) <= limit
        # cut between two words, unless no space falls in the second half of the limit (one very long word)
        assert norm[len(kept)] == " " or norm[:limit].rfind(" ") <= limit // 2


def test_a_base_url_ending_in_v1_is_refused_with_the_fix() -> None:
    with pytest.raises(ValidationError, match=r"ends in /v1.*use 'http://127.0.0.1:8080'"):
        Client(api_key="k", base_url="http://127.0.0.1:8080/v1/")


def test_an_empty_key_says_so() -> None:
    with pytest.raises(ValidationError, match="^api_key must be a non-empty string, not an empty string"):
        Client(api_key="")
