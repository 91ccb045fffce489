"""How ``make test`` hands tests to its workers (stud.testing.schedule): as workers free up,
the heavy kinds first, never more heavy tests out at once than the cap, a module's tests
kept to the worker that ran the module's last one, and the slowest modules first once a
run has timed them."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from stud.testing.schedule import (
    HEAVY_AT_ONCE,
    LIGHT,
    CappedScheduling,
    Kind,
    rank_of,
    read_kinds,
)


class Config:
    """What xdist's scheduler reads of pytest's config: the workers and the chunk limit."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def getvalue(self, name: str) -> Any:
        assert name == "tx"
        return [f"{self.workers}*popen"]

    def getoption(self, name: str) -> Any:
        assert name == "maxschedchunk"
        return None


class Worker:
    """A worker as the controller sees it: the tests sent to it, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices

    def shutdown(self) -> None:
        self.shutting_down = True


def kind(heavy: bool = False, long: bool = False, group: str = "m") -> Kind:
    return Kind(heavy=heavy, long=long, group=group)


def scheduler(
    tmp_path: Path, kinds: dict[str, Kind], workers: int, durations: dict[str, float] | None = None
) -> tuple[CappedScheduling, list[Worker]]:
    path = tmp_path / "kinds.json"
    path.write_text(json.dumps({nodeid: vars(k) for nodeid, k in kinds.items()}))
    sched = CappedScheduling(cast(pytest.Config, Config(workers)), None, path, durations or {})
    nodes = [Worker(f"gw{i}") for i in range(workers)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, list(kinds))
    sched.schedule()
    return sched, nodes


def run_all(sched: CappedScheduling, nodes: list[Worker]) -> list[tuple[str, int]]:
    """Ends each worker's running test in turn until none is left, recording at each step how
    many heavy tests are out; returns (worker, test) in the order they ended."""
    ended: list[tuple[str, int]] = []
    while any(sched.node2pending[node] for node in nodes):
        for node in nodes:
            held = sched.node2pending[node]
            if held and (len(held) >= 2 or node.shutting_down):
                assert sched.heavy_workers() <= sched.heavy_limit() <= HEAVY_AT_ONCE + 1
                index = held[0]
                sched.mark_test_complete(node, index, 1.0)
                ended.append((node.name, index))
    return ended


def test_every_test_is_sent_once_and_the_workers_are_told_to_stop(tmp_path: Path) -> None:
    kinds = {f"t{i}.py::a": kind(heavy=i % 3 == 0) for i in range(40)}
    sched, nodes = scheduler(tmp_path, kinds, workers=4)
    ended = run_all(sched, nodes)
    assert sorted(index for _node, index in ended) == list(range(40))
    assert sorted(i for node in nodes for i in node.sent) == list(range(40))
    assert all(node.shutting_down for node in nodes)
    assert sched.tests_finished


def test_no_more_heavy_tests_are_out_than_the_cap_and_the_others_run_meanwhile(
    tmp_path: Path,
) -> None:
    heavy = {f"h{i}.py::a": kind(heavy=True, group=f"h{i}") for i in range(12)}
    quick = {f"q{i}.py::a": kind(long=True, group=f"q{i}") for i in range(12)}
    sched, nodes = scheduler(tmp_path, {**heavy, **quick}, workers=6)
    assert sched.heavy_workers() == HEAVY_AT_ONCE
    # The workers the cap leaves without a heavy test took the long ones after them.
    firsts = [sched.collection[node.sent[0]] for node in nodes]  # type: ignore[index]
    assert sum(name.startswith("q") for name in firsts) >= 6 - HEAVY_AT_ONCE
    run_all(sched, nodes)  # asserts the cap at every step


def test_a_worker_keeps_to_the_module_it_ran_last(tmp_path: Path) -> None:
    kinds = {  # the two modules' tests interleaved: only keeping to a module sorts them out
        f"{module}.py::t{i}": kind(heavy=True, group=f"{module}.py")
        for i in range(6)
        for module in "ab"
    }
    sched, nodes = scheduler(tmp_path, kinds, workers=1)
    run_all(sched, nodes)
    assert sched.collection is not None
    modules = [sched.collection[i].split("::")[0] for i in nodes[0].sent]
    assert modules == ["a.py"] * 6 + ["b.py"] * 6


def test_quick_tests_go_in_short_shares(tmp_path: Path) -> None:
    kinds = {f"q.py::t{i}": kind() for i in range(400)}
    sched, nodes = scheduler(tmp_path, kinds, workers=4)
    assert all(1 < len(node.sent) <= 8 for node in nodes)
    run_all(sched, nodes)


def test_the_modules_that_took_longest_start_first(tmp_path: Path) -> None:
    kinds = {
        "short.py::a": kind(long=True, group="short.py"),
        "long.py::a": kind(long=True, group="long.py"),
        "long.py::b": kind(long=True, group="long.py"),
        "heavy.py::a": kind(heavy=True, long=True, group="heavy.py"),
    }
    durations = {"short.py::a": 5.0, "long.py::a": 30.0, "long.py::b": 1.0}
    sched, _nodes = scheduler(tmp_path, kinds, workers=1, durations=durations)
    assert sched.collection is not None
    order = [sched.collection[i] for i in sched.node2pending[_nodes[0]] + sched.pending]
    assert order == ["heavy.py::a", "long.py::a", "long.py::b", "short.py::a"]


def test_a_test_the_kinds_file_does_not_name_counts_as_quick(tmp_path: Path) -> None:
    (tmp_path / "kinds.json").write_text(json.dumps({"a.py::x": vars(kind(heavy=True))}))
    kinds = read_kinds(tmp_path / "kinds.json", ["a.py::x", "b.py::y"])
    assert kinds[0].heavy
    assert kinds[1] == LIGHT and LIGHT.rank == rank_of(heavy=False, long=False) == 3
    assert read_kinds(tmp_path / "missing.json", ["a.py::x"])[0].heavy is False


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_heavy_tests_alone_all_run_with_any_number_of_workers(tmp_path: Path, workers: int) -> None:
    kinds = {f"h{i}.py::a": kind(heavy=True, group=f"h{i}") for i in range(5)}
    sched, nodes = scheduler(tmp_path, kinds, workers=workers)
    assert len(run_all(sched, nodes)) == 5


def test_one_more_heavy_test_runs_once_no_long_test_of_another_kind_is_left(
    tmp_path: Path,
) -> None:
    heavy = {f"h{i}.py::a": kind(heavy=True, group=f"h{i}") for i in range(12)}
    long = {"slow.py::a": kind(long=True, group="slow.py")}
    sched, nodes = scheduler(tmp_path, {**heavy, **long}, workers=6)
    assert sched.heavy_workers() == HEAVY_AT_ONCE
    run_all(sched, nodes)
    sched, nodes = scheduler(tmp_path, heavy, workers=6)
    assert sched.heavy_workers() == HEAVY_AT_ONCE + 1


def test_a_worker_free_to_choose_takes_a_module_no_other_worker_is_on(tmp_path: Path) -> None:
    kinds = {
        f"{module}.py::t{i}": kind(heavy=True, group=f"{module}.py")
        for module in "ab"
        for i in range(4)
    }
    sched, nodes = scheduler(tmp_path, kinds, workers=2)
    assert sched.collection is not None
    firsts = [sched.collection[node.sent[0]].split("::")[0] for node in nodes]
    assert firsts == ["a.py", "b.py"]
    run_all(sched, nodes)
    for node in nodes:
        assert len({sched.collection[i].split("::")[0] for i in node.sent}) == 1
