"""The README's first-session example runs as written, against the bundled local register."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
from cryptography.fernet import Fernet

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[2] / "README.md"


def test_first_session_example_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("REGKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("REGKIT_LOCAL_STATE", str(tmp_path / "state.sqlite"))
    monkeypatch.setenv("REGKIT_LOCAL_SECRET_KEY", Fernet.generate_key().decode())
    monkeypatch.delenv("REGKIT_API_KEY", raising=False)
    monkeypatch.delenv("REGKIT_BASE_URL", raising=False)
    section = README.read_text(encoding="utf-8").split("## A first session", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    namespace: dict = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - the README's own example
    client = namespace["client"]
    assert client.credits_spent == int(client.get_credits()["used_credits"])
    assert namespace["G"].number_of_nodes() > 0 and len(namespace["frame"]) > 0
