"""Where tasks run: the tourney study gives one answer on any number of jobs; Ray stays out.

The same seed gives the same tournaments whether they are played here or on
local processes; without ``--ray`` nothing imports Ray (it is an extra).
"""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from stud.cli import main
from stud.sim import Workers
from stud.sim.tourneys import TourneyStudy, play_study, pooled


@pytest.mark.slow
def test_a_tourney_study_is_the_same_on_any_number_of_jobs() -> None:
    study = TourneyStudy("stud", 3, ("random", "station"), tournaments=3, seed=5)
    told: list[int] = []
    here = play_study(study, 1, told.append)
    assert play_study(study, Workers(jobs=2)) == here
    assert sum(told) == 3 * 2  # players out, every tournament
    assert [s["seed"] for s in here] == [5, 6, 7]
    data = pooled(study, here)
    assert data["tournaments"] == 3 and data["hands"] == sum(s["hands"] for s in here)
    entries = {row["bot"]: row["players"] for row in data["bots"]}
    assert entries == {"random": 6, "station": 3}
    assert sum(row["net"] for row in data["bots"]) == -3 * 3 * study.fee  # fees leave the table


def test_bad_workers_are_named() -> None:
    with pytest.raises(ValueError, match="--jobs"):
        Workers.of(0)
    with pytest.raises(ValueError, match="--ray"):
        Workers(ray=" ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tournaments", "0"], "--tournaments must be at least 1"),
        (["--jobs", "0"], "--jobs (--workers) must be at least 1"),
        (["--tournaments", "2", "--histories", "out"], "--histories writes one tournament"),
        (["--ray", "local", "--histories", "out"], "--histories writes one tournament"),
    ],
)
def test_the_tourney_command_names_bad_input(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tourney", "razz", "--players", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_an_address_where_no_ray_answers_is_named_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as probe:  # a port nothing listens on once this socket is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["sim", "razz", "--bots", "random,station", "--hands", "10"]
    assert main([*argv, "--ray", f"127.0.0.1:{port}"]) == 2
    assert f"--ray 127.0.0.1:{port}: no Ray head answers there" in capsys.readouterr().err


@pytest.mark.slow
def test_nothing_imports_ray_without_the_option() -> None:
    code = (
        "import sys\n"
        "from stud.cli import main\n"
        "for argv in (['sim', 'razz', '--bots', 'random,station', '--hands', '40', '--jobs', "
        "'2'], ['tourney', 'razz', '--players', '2', '--bots', 'random', '--seed', '1', "
        "'--tournaments', '2', '--jobs', '2']):\n"
        "    assert main([*argv, '--json']) == 0\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert run.stdout.strip().splitlines()[-1] == "[]"
