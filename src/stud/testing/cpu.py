"""Where a test run's CPU goes: a pytest plugin that writes each test's CPU seconds.

Wall time hides it (a test waiting on a stopped database costs seconds, not CPU), and on a
machine with two cores the CPU is what bounds ``make test``. Each test is charged the CPU
of the test process and of every process under it (servers, browsers, builds) while it
ran: its setup, call and teardown. Shared servers are charged to whichever test they
served at the time.

``STUD_TEST_CPU=<folder> make test`` writes one JSON line per test (and whether it failed) into
``<folder>/<worker>.jsonl``; ``python -m stud.testing.cpu <folder>`` prints the totals by
module and the costliest tests. Linux only (it reads ``/proc``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its reaped children), or None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # After the name: state, ppid, … utime (14th field), stime, cutime, cstime.
    ppid = int(fields[1])
    ticks = sum(int(f) for f in fields[11:15])
    return ppid, ticks / TICKS


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live process under it (each with its reaped ones)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                parents[int(entry.name)], cpu[int(entry.name)] = found
    total = 0.0
    for pid, seconds in cpu.items():
        walk = pid
        while walk > 1 and walk != root:
            walk = parents.get(walk, 0)
        if walk == root:
            total += seconds
    return total


class CpuReport:
    """Writes ``{"test", "cpu", "wall", "start", "failed"}`` per test into ``folder``
    (``start``: the test's start, seconds since the epoch, to draw a run's timeline)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.out = (folder / f"{worker}.jsonl").open("a", encoding="utf-8")
        self.failed: set[str] = set()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self.failed.add(report.nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        cpu, wall, start = tree_cpu(os.getpid()), time.monotonic(), time.time()
        yield
        line = {
            "test": item.nodeid,
            "cpu": round(tree_cpu(os.getpid()) - cpu, 2),
            "wall": round(time.monotonic() - wall, 2),
            "start": round(start, 2),
            "failed": item.nodeid in self.failed,
        }
        self.out.write(json.dumps(line) + "\n")
        self.out.flush()


def summary(folder: Path, top: int = 40) -> str:
    """The CPU by module and the ``top`` costliest tests, from a run's files."""
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text().splitlines() if line]
    by_module: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        module = by_module[row["test"].split("::")[0]]
        module[0] += row["cpu"]
        module[1] += row["wall"]
        module[2] += 1
    total = sum(row["cpu"] for row in rows)
    failed = [row["test"] for row in rows if row.get("failed")]
    lines = [f"{len(rows)} tests, {total:.0f} CPU seconds", *(f"failed: {t}" for t in failed)]
    lines += ["", "cpu s   wall s  tests  module"]
    for name, (cpu, wall, count) in sorted(by_module.items(), key=lambda kv: -kv[1][0])[:top]:
        lines.append(f"{cpu:7.1f} {wall:7.1f} {count:6d}  {name}")
    lines += ["", "cpu s   wall s  test"]
    for row in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        lines.append(f"{row['cpu']:7.1f} {row['wall']:7.1f}  {row['test']}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1])))
