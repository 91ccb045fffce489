"""bench/bench_table_step.py plays real tables and prints its figures with their anchor."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_table_step.py"


@pytest.mark.slow  # the step bench, run
def test_the_step_bench_plays_and_reports_per_action_with_an_anchor() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--actions", "60", "--tables", "3", "--warm", "20",
         "--spectators", "1"],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    line = out.stdout.strip().splitlines()[-1]
    match = re.fullmatch(
        r"src: ([0-9.]+) us of CPU per action \(x1\.00\); anchor: one state encoded ([0-9.]+) us",
        line,
    )
    assert match is not None, out.stdout
    assert float(match.group(1)) > 0 and float(match.group(2)) > 0
