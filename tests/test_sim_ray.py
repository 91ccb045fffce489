"""``--ray local``: the same answers as ``--jobs 1`` and ``--jobs 2``, and a killed worker retried.

One local Ray of two CPUs for the module, started offline by the project's
own :func:`stud.sim.on_ray.connect` (the commands then use it as is) and shut
down at the end. Runs are tiny: this checks sameness, not speed.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray

from stud.cli import main
from stud.sim import SimConfig, Workers, simulate

pytestmark = pytest.mark.slow

WHERE = ("seconds", "workers", "ray", "ray_nodes", "cpu_seconds")
"""JSON fields that tell where and how fast a run went, not what it found."""


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    from stud.sim.on_ray import connect

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        assert connect("local", 2)
        try:
            yield
        finally:
            ray.shutdown()


def answers(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The command's JSON without the fields that say where it ran."""
    assert main([*argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return {k: v for k, v in data.items() if k not in WHERE}


def same_everywhere(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Run ``argv`` with --jobs 1, --jobs 2 and --ray local; assert one answer; return it."""
    one = answers([*argv, "--jobs", "1"], capsys)
    two = answers([*argv, "--jobs", "2"], capsys)
    on_ray = answers([*argv, "--ray", "local"], capsys)
    assert one == two == on_ray
    return one


def test_sim_is_the_same_on_ray(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "stud8", "--bots", "random,station,random", "--hands", "90", "--session", "20"]
    data = same_everywhere([*argv, "--seed", "4"], capsys)
    assert data["hands"] == 90 and len(data["players"]) == 3


def test_gauntlet_is_the_same_on_ray_and_resumes(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["gauntlet", "razz", "--bot", "station", "--opponents", "nit,maniac", "--seed", "2"]
    whole = same_everywhere([*argv, "--deals", "6"], capsys)
    assert [r["hands"] for r in whole["rows"]] == [12] * 4
    assert all("adjusted" in r for r in whole["rows"])  # the luck terms, the same too
    out = tmp_path / "razz.jsonl"
    first = answers([*argv, "--deals", "6", "--out", str(out), "--ray", "local"], capsys)
    assert first["played_hands"] == 48 and first["rows"] == whole["rows"]
    again = answers([*argv, "--deals", "6", "--out", str(out), "--ray", "local"], capsys)
    assert again["played_hands"] == 0 and again["reused_hands"] == 48
    assert again["rows"] == whole["rows"]
    home = tmp_path / "home.jsonl"
    answers([*argv, "--deals", "6", "--out", str(home), "--jobs", "1"], capsys)
    assert _records(out) == _records(home)


def _records(path: Path) -> list[dict[str, Any]]:
    """The file's records, in session order, without the CPU time each took."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        del row["cpu"]
    return sorted(rows, key=lambda r: (r["villain"], r["seats"], r["start"]))


def test_tourney_study_is_the_same_on_ray(
    local_ray: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tourney", "razz", "--players", "3", "--bots", "random,station", "--seed", "7"]
    data = same_everywhere([*argv, "--tournaments", "3"], capsys)
    assert data["tournaments"] == 3 and [r["seed"] for r in data["runs"]] == [7, 8, 9]
    single = same_everywhere(argv, capsys)
    assert single["places"] and single["seed"] == 7


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def _ours(pid: int) -> bool:
    """Whether ``pid`` descends from this process (our Ray's, not another run's)."""
    while pid > 1:
        pid = _parent(pid)
        if pid == os.getpid():
            return True
    return False


def _busy_workers(task: str) -> list[int]:
    """Our Ray's workers running ``task`` now (Ray names a worker's process after its task)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(f"ray::{task}".encode()) and _ours(int(entry.name)):
                found.append(int(entry.name))
    return found


def _first(find: Callable[[], list[int]], seconds: float) -> int | None:
    """The first thing ``find`` finds within ``seconds``, looking every few milliseconds."""
    deadline = time.monotonic() + seconds
    pause = threading.Event()
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found[0]
        pause.wait(0.005)
    return None


def test_a_killed_worker_costs_its_task_alone(local_ray: None) -> None:
    config = SimConfig("razz", ("station", "random"), hands=1200, seed=9, session=60)
    home = simulate(config)
    killed: list[int] = []
    done: list[int] = []

    def count_and_kill(hands: int) -> None:
        """After the first task is back, kill -9 a worker in the middle of another."""
        done.append(hands)
        if not killed:
            pid = _first(lambda: _busy_workers("play_task"), 60)
            assert pid is not None, "no Ray worker was caught running a task"
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    result = simulate(config, Workers(ray="local"), count_and_kill)
    assert killed
    assert np.array_equal(result.net, home.net)
    assert sum(done) == config.hands  # every task counted once: the killed one was rerun
