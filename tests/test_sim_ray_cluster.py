"""A two-node Ray cluster on this machine: tasks cross nodes, the answers stay those of ``--jobs``.

Ray's ``cluster_utils.Cluster`` starts a head and a second node of one CPU
each, offline, for the module; every command joins it by its address
(``--ray HOST:PORT``), as on a real cluster, and leaves it at the end. The
tasks are spread, so each run uses both nodes (its JSON says how many).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from ray.cluster_utils import Cluster

from stud.cli import main

pytestmark = pytest.mark.slow

WHERE = ("seconds", "workers", "ray", "ray_nodes", "cpu_seconds")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The head's address; two nodes of one CPU each."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        nodes = Cluster(
            initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
        )
        try:
            nodes.add_node(num_cpus=1)
            nodes.wait_for_nodes()
            yield nodes.address
        finally:
            nodes.shutdown()  # type: ignore[no-untyped-call]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def same_on_the_cluster(argv: list[str], address: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``argv`` on the cluster gives the answers of --jobs 1 and --jobs 2, from both nodes."""
    on_cluster = run([*argv, "--ray", address], capsys)
    assert on_cluster["ray_nodes"] == 2
    answers = [
        {k: v for k, v in data.items() if k not in WHERE}
        for data in (
            on_cluster,
            run([*argv, "--jobs", "1"], capsys),
            run([*argv, "--jobs", "2"], capsys),
        )
    ]
    assert answers[0] == answers[1] == answers[2]


def test_sim_on_two_nodes(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "razz", "--bots", "station,random", "--hands", "160", "--session", "20"]
    same_on_the_cluster([*argv, "--seed", "6"], cluster, capsys)


def test_gauntlet_on_two_nodes(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["gauntlet", "stud", "--bot", "station", "--opponents", "nit,maniac,tag", "--deals", "4"]
    same_on_the_cluster([*argv, "--seed", "3"], cluster, capsys)


def test_tourney_study_on_two_nodes(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tourney", "stud8", "--players", "3", "--bots", "station,random", "--seed", "11"]
    same_on_the_cluster([*argv, "--tournaments", "4"], cluster, capsys)


def test_a_local_ray_is_its_own_beside_a_cluster_on_this_machine(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["sim", "razz", "--bots", "station,random", "--hands", "40", "--session", "20"]
    local = run([*argv, "--seed", "6", "--ray", "local", "--jobs", "1"], capsys)
    assert local["ray_nodes"] == 1  # not the cluster's two
