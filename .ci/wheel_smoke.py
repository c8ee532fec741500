"""Smoke test of an installed regkit wheel: what installing the regkit wheel gives a user with no clone.

Run by ``.ci/wheel-smoke.sh`` with the Python of a fresh virtual environment the wheel was installed
into, isolated (``python -I``) and from a directory outside the checkout::

    python -I wheel_smoke.py --checkout CHECKOUT --source SOURCE_COPY_THE_WHEEL_WAS_BUILT_FROM

It checks that regkit is imported from that environment (never from the checkout), that every file of
``data/`` is in the installed package, and then does what a user does first: a company lookup and an
insolvency search through ``regkit.Client()``, ``regkit serve`` answering one HTTP request,
``regkit world build`` of a tiny world, ``regkit --version``, and the error a missing world gives.
Exits non-zero (an AssertionError) on the first failure.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

COMPANY_ID = "DE-HRB-R3101-94644"


def _step(name: str, started: float) -> None:
    print(f"wheel smoke: {name} ok ({time.perf_counter() - started:.1f} s)", flush=True)


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    return result


def check_installation(checkout: Path, source: Path) -> Path:
    """regkit comes from this environment; the bundled world is in it, file for file."""
    import regkit
    from regkit.local.world import default_data_dir

    where = Path(regkit.__file__).resolve()
    for outside in (checkout, source):
        assert not where.is_relative_to(outside), f"regkit was imported from {where}, inside {outside}"
    assert where.is_relative_to(Path(sys.prefix).resolve()), f"regkit {where} is not in the venv {sys.prefix}"
    assert "REGKIT_DATA_DIR" not in os.environ, "REGKIT_DATA_DIR is set; the smoke must use the bundled world"
    data = default_data_dir()
    assert data == where.parent / "_data", f"the bundled world was looked for in {data}, not in the package"
    shipped = {p.relative_to(data).as_posix() for p in data.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    expected = {p.relative_to(source / "data").as_posix() for p in (source / "data").rglob("*") if p.is_file()}
    assert expected <= shipped, (
        f"data/ files missing from the wheel: {sorted(expected - shipped)}; "
        "add them to [tool.setuptools.package-data] in pyproject.toml"
    )
    print(
        f"wheel smoke: regkit {importlib.metadata.version('regkit')} from {where.parent}; "
        f"{len(shipped)} data files in {data}",
        flush=True,
    )
    return data


def check_client() -> None:
    """A company lookup and an insolvency search against the bundled local register, in-process."""
    import regkit

    client = regkit.Client()
    company = client.get_company(COMPANY_ID)
    assert company["id"] == COMPANY_ID, company["id"]
    assert company["register"]["register_number"] == COMPANY_ID.rsplit("-", 1)[1], company["register"]
    assert company["register"]["register_court"].startswith("Amtsgericht "), company["register"]
    assert company["name"]["name"].strip(), company["name"]
    assert len(company.history("names")) == len(company["names"]) >= 1
    assert client.credits_spent == 10, client.credits_spent
    client.get_company(COMPANY_ID)  # from the cache this time
    assert client.credits_spent == 10, client.credits_spent

    page = client.search_insolvencies(query="müller", filters={"debtor_kind": "natural_person"}, per_page=20)
    rows = list(page)
    assert rows, "the insolvency search found nothing in the bundled world"
    assert all(row["debtor_kind"] == "natural_person" for row in rows), rows[0]
    assert page.total_results >= len(rows)
    assert client.credits_spent == 20, client.credits_spent
    print(f"wheel smoke: {company['name']['name']}; {page.total_results} proceedings for 'müller'", flush=True)


def _read_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def check_serve(regkit_command: str, work: Path) -> None:
    """``regkit serve --port 0`` listens and answers a lookup over HTTP, metered."""
    import requests

    process = subprocess.Popen(
        [regkit_command, "serve", "--port", "0", "--state", str(work / "serve-state.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
        deadline, seen, url = time.monotonic() + 180, [], None
        while url is None:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"regkit serve exited ({process.wait()}):\n{''.join(seen)}"
            seen.append(line)
            match = re.search(r"listening on (http://\S+)", line)
            url = match.group(1) if match else None
        response = requests.get(
            f"{url}/v1/company/{COMPANY_ID}", headers={"Authorization": "Bearer demo-paid"}, timeout=60
        )
        assert response.status_code == 200, (response.status_code, response.text[:500])
        assert response.json()["id"] == COMPANY_ID
        assert response.headers["X-Credits-Charged"] == "10", dict(response.headers)
        unauthenticated = requests.get(f"{url}/v1/company/{COMPANY_ID}", timeout=60)
        assert unauthenticated.status_code == 401, unauthenticated.status_code
        print(f"wheel smoke: regkit serve answered at {url}", flush=True)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def check_world_build(regkit_command: str, work: Path) -> None:
    """``regkit world build`` builds a tiny world from the bundled reference lists, and it reads back."""
    from regkit.local.world import read_world

    out = work / "tiny-world"
    result = _run([regkit_command, "world", "build", "--companies", "60", "--seed", "1", "--out", str(out)])
    assert result.returncode == 0, result.stderr
    world = read_world(out)
    assert len(world.companies) == 60, len(world.companies)
    assert world.insolvencies, "the tiny world has no insolvency proceedings"
    print(f"wheel smoke: {result.stdout.strip()}", flush=True)


def check_version(regkit_command: str) -> None:
    result = _run([regkit_command, "--version"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"regkit {importlib.metadata.version('regkit')}", result.stdout


def check_missing_world_error(regkit_command: str, work: Path) -> None:
    """A world that is not there: one line that says what to do, no traceback."""
    empty = work / "no-world"
    empty.mkdir()
    result = _run(
        [regkit_command, "serve", "--port", "0", "--state", str(work / "missing.sqlite")],
        env={**os.environ, "REGKIT_DATA_DIR": str(empty)},
    )
    assert result.returncode != 0, (result.returncode, result.stdout, result.stderr)
    assert "REGKIT_DATA_DIR points at" in result.stderr and "Unset it" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def check_mcp_without_its_extra(regkit_command: str) -> None:
    """``regkit mcp`` from a wheel installed without the ``mcp`` extra: one line naming the extra, no traceback."""
    result = _run([regkit_command, "mcp"], stdin=subprocess.DEVNULL)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "pip install 'mcp>=2.3'" in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == "", result.stdout


def check_dataset_exports_without_their_extras(regkit_command: str, work: Path) -> None:
    """``regkit world export parquet`` and ``regkit export ftm`` from a wheel installed without pyarrow and
    followthemoney: one line each naming what to install, no traceback, nothing written."""
    world = work / "tiny-world"
    result = _run([regkit_command, "world", "export", "parquet", str(world), str(work / "dataset")])
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "pip install pyarrow" in result.stderr and "Traceback" not in result.stderr, result.stderr
    result = _run([regkit_command, "export", "ftm", str(work / "world.ftm.json"), "--data", str(world)])
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "pip install followthemoney" in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert not (work / "dataset").exists() and not (work / "world.ftm.json").exists()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, required=True, help="the repository checkout (must not be imported)")
    parser.add_argument("--source", type=Path, required=True, help="the source tree the wheel was built from")
    args = parser.parse_args()
    checkout, source = args.checkout.resolve(), args.source.resolve()
    regkit_command = str(Path(sys.executable).parent / "regkit")
    assert Path(regkit_command).is_file(), f"no regkit command beside {sys.executable}"
    with tempfile.TemporaryDirectory(prefix="regkit-wheel-smoke-") as tmp:
        work = Path(tmp)
        for name, check in (
            ("installation", lambda: check_installation(checkout, source)),
            ("company lookup and insolvency search", check_client),
            ("regkit serve", lambda: check_serve(regkit_command, work)),
            ("regkit world build", lambda: check_world_build(regkit_command, work)),
            ("regkit --version", lambda: check_version(regkit_command)),
            ("missing-world error", lambda: check_missing_world_error(regkit_command, work)),
            ("regkit mcp without its extra", lambda: check_mcp_without_its_extra(regkit_command)),
            (
                "the dataset exports without their extras",
                lambda: check_dataset_exports_without_their_extras(regkit_command, work),
            ),
        ):
            started = time.perf_counter()
            check()
            _step(name, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
