"""The process that builds a world store's company and insolvency search indexes beside the rest of the build.

:class:`~regkit.local.world.world_store.build.StoreBuild` starts it as a program (``python -c``) that takes the starting
process's ``sys.path`` (so it imports the same regkit) and calls :func:`main` with one JSON argument: ``data_dir``,
``target``, ``stages`` (the files of staged company rows, or ``null``) and ``parent`` (the pid of the process that
started it). It writes one JSON line to its standard output when it ends: ``{"error": null}``, or
``{"error": "<type>: <message>", "traceback": "..."}`` with exit code 1 (the starting process raises the error and
logs the traceback at DEBUG level). Anything else it would print goes to its standard error.

It is started as a program, not with :mod:`multiprocessing`: a ``spawn``ed process imports the caller's main
script again, so a script that imports a world without ``if __name__ == "__main__":`` would run its whole import a
second time in the helper and then fail. A program of its own imports regkit and nothing of the caller's.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Build the indexes ``argv[0]`` (the JSON argument) names; report on standard output; return the exit code."""
    report, sys.stdout = sys.stdout, sys.stderr  # the report line is the only thing on standard output
    arguments = json.loads(argv[0])
    from .processes import die_with_parent

    die_with_parent(arguments["parent"])  # a build whose parent was killed is of no use: end with it
    from .world_store.indexes import build_record_indexes_from_files

    stages = arguments["stages"]
    try:
        build_record_indexes_from_files(
            Path(arguments["data_dir"]), Path(arguments["target"]), None if stages is None else list(map(Path, stages))
        )
    except BaseException as exc:  # the parent raises it (and logs the traceback): nothing ends this silently
        failure = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        report.write(json.dumps(failure) + "\n")
        report.flush()
        return 1
    report.write(json.dumps({"error": None}) + "\n")
    report.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
