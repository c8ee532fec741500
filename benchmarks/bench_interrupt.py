"""What an interrupt costs: Ctrl-C during a bulk lookup, this checkout against an earlier commit, side by side.

For each version of regkit, a script looks up ``--ids`` uncached companies (``client.get_companies``) against one
``regkit serve --latency 300ms`` (no rate limit), and gets a real SIGINT after ``--after`` seconds. Printed per
version: the register's own charge count at the interrupt, when the script had exited, and 3 s later; the seconds
from the SIGINT to the script's exit; and the last line the script printed on stderr. The earlier version runs
from a ``git worktree`` of ``--against`` (default: the commit before issue 40's interrupt handling, 651be13), the
server from this checkout for both.

    python benchmarks/bench_interrupt.py                    # 400 ids, SIGINT after 5 s
    python benchmarks/bench_interrupt.py --against none     # this checkout only
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from serve_support import ServedRegister  # noqa: E402

SCRIPT = """
import json, sys
import regkit
print("regkit from", regkit.__file__, file=sys.stderr, flush=True)
ids = json.loads(open(sys.argv[1]).read())
client = regkit.Client(api_key="demo-paid", base_url=sys.argv[2], cache=sys.argv[3], ledger_file=None)
print("started", flush=True)
client.get_companies(ids, progress=False)
print("finished", flush=True)
"""


def charged(url: str) -> int:
    answer = requests.get(f"{url}/v1/credits", headers={"Authorization": "Bearer demo-paid"}, timeout=30)
    return int(answer.json()["used_credits"])


def run(version: str, source: Path, url: str, ids: list[str], after: float, work: Path) -> dict[str, object]:
    (work / "ids.json").write_text(json.dumps(ids))
    (work / "script.py").write_text(SCRIPT)
    before = charged(url)
    environment = {**os.environ, "PYTHONPATH": str(source), "REGKIT_QUIET": "1"}
    child = subprocess.Popen(
        [sys.executable, str(work / "script.py"), str(work / "ids.json"), url, str(work / f"{version}.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    child.stdout.readline()
    time.sleep(after)
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    at_interrupt = charged(url) - before
    _, err = child.communicate(timeout=600)
    exited = time.monotonic() - sent
    at_exit = charged(url) - before
    time.sleep(3)
    later = charged(url) - before
    lines = [line for line in err.strip().splitlines() if line.strip()]
    return {
        "version": version,
        "credits at SIGINT": at_interrupt,
        "credits at exit": at_exit,
        "credits 3 s later": later,
        "seconds to exit": round(exited, 2),
        "regkit from": lines[0].removeprefix("regkit from ") if lines else "",
        "last stderr line": lines[-1][:160] if lines else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", type=int, default=400)
    parser.add_argument("--after", type=float, default=5.0, help="seconds before the SIGINT")
    parser.add_argument("--against", default="651be13", help="a git ref to compare with, or 'none'")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from regkit.local.world.store import read_world

    ids = list(read_world().companies)[: args.ids]
    with tempfile.TemporaryDirectory(prefix="regkit-bench-interrupt-") as temporary:
        work = Path(temporary)
        versions = [("this checkout", ROOT)]
        if args.against != "none":
            tree = work / "against"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.against], check=True)
            versions.insert(0, (args.against, tree))
        try:
            rows = []
            for version, source in versions:
                server = ServedRegister(work / f"serve-{len(rows)}", "--latency", "300ms", "--rate-limit", "0")
                try:
                    rows.append(run(version, source, server.url, ids, args.after, work))
                finally:
                    server.stop()
        finally:
            if args.against != "none":
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(work / "against")])
    print(
        f"{args.ids} uncached companies (estimate {args.ids * 10} credits), SIGINT after {args.after} s, 300 ms latency"
    )
    for key in rows[0]:
        print(f"{key:>20}: " + " | ".join(f"{row[key]!s:>30}" for row in rows))


if __name__ == "__main__":
    main()
