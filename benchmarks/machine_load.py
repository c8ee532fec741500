"""What a benchmark prints about the machine it ran on: the cores, the load average and the busiest other
processes (sampled over a second), so that a reader can tell a quiet run from a shared one."""

from __future__ import annotations

import os
import time

__all__ = ["machine_lines"]


def machine_lines(most: int = 3) -> list[str]:
    """The cores and load average, then up to ``most`` other processes using 10 % of a core or more."""
    load = os.getloadavg()
    lines = [f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"]
    try:
        import psutil
    except ImportError:
        return lines
    processes = list(psutil.process_iter(["pid", "name", "cmdline"]))
    for process in processes:
        try:
            process.cpu_percent(None)
        except psutil.Error:
            pass
    time.sleep(1.0)
    busy = []
    for process in processes:
        try:
            share = process.cpu_percent(None)
        except psutil.Error:
            continue
        if process.pid != os.getpid() and share >= 10:
            command = " ".join(process.info["cmdline"] or [process.info["name"] or "?"])[:80]
            busy.append((share, process.pid, command))
    for share, pid, command in sorted(busy, reverse=True)[:most]:
        lines.append(f"  busy: {share:3.0f} % CPU pid {pid} {command}")
    if not busy:
        lines.append("  no other process busy")
    return lines
