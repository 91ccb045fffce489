"""How ``make test`` hands its tests to the xdist workers: a few at a time, the long kinds
first, and never more tests that start servers, browsers or rooms at once than
:data:`HEAVY_AT_ONCE` (one more at the end).

xdist's own ``load`` schedule gives each worker a long run of consecutive tests up
front and lets it keep them: whichever worker drew the long server tests was left
running them alone long after the others had finished. Handing out tests as workers
free up fixes that, but only if it cannot also start a server test on every worker at
once: on two cores, four rooms of bots playing together outrun the tests' deadlines.

Each worker writes, when it has collected, what every test is (:class:`Kind`: the
tests' markers, from the fixtures they use) to a file the controller names
(:func:`write_kinds`); the controller's :class:`CappedScheduling` reads it. A worker
whose last test used a module's shared server gets that module's next test when it can,
so the module's server is not started on every worker. Each test's time is kept in
pytest's cache (``.pytest_cache``): within a kind, the modules that took longest last
time start first.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScheduling
from xdist.workermanage import WorkerController

HEAVY = ("server", "browser", "cluster")
"""Markers of tests that start processes (a server, a browser, a room) or lean on services."""
HEAVY_AT_ONCE = max(1, int(os.environ.get("STUD_TEST_HEAVY_AT_ONCE") or 2))
"""How many workers may run heavy tests at once (``$STUD_TEST_HEAVY_AT_ONCE``, else 2), one
more once no long test of another kind is left to keep the cores busy. On two cores,
three heavy tests beside a long CPU-bound one made browser tests miss their deadlines."""
QUICK_SHARE = 8
"""At most this many quick tests go to a worker at a time: fewer round trips, and a share
short enough that no worker is left with a long one at the end."""
KINDS_INPUT = "stud_test_kinds"
"""The key of the kinds file's path in each worker's ``workerinput``."""
DURATIONS = "stud/durations"
"""The pytest cache's key for each test's seconds in the runs before."""


@dataclass(frozen=True)
class Kind:
    """What the scheduler knows of a test: whether it is heavy (counts towards
    :data:`HEAVY_AT_ONCE`), whether it is long (marked ``slow``: never sent in a chunk) and
    its module (``group``); its place in the order (``rank``) follows from the first two."""

    heavy: bool
    long: bool
    group: str

    @property
    def rank(self) -> int:
        return rank_of(self.heavy, self.long)

    @classmethod
    def of(cls, item: pytest.Item) -> Kind:
        heavy = any(item.get_closest_marker(name) for name in HEAVY)
        return cls(heavy, item.get_closest_marker("slow") is not None, item.nodeid.split("::")[0])


def rank_of(heavy: bool, long: bool) -> int:
    """Where a test starts in the run: heavy and long ones first, then heavy ones (how many
    run at once is capped, so they are the run's bottleneck), then long ones, which fill
    the workers the cap leaves free, then the quick ones, which even out the end."""
    return (0 if long else 1) if heavy else (2 if long else 3)


def start_rank(item: pytest.Item) -> int:
    """The :func:`rank_of` a collected test (the key a run's tests are sorted by)."""
    return Kind.of(item).rank


LIGHT = Kind(heavy=False, long=False, group="")
"""What a test the kinds file does not name counts as: a quick one."""


def write_kinds(config: pytest.Config, items: Iterable[pytest.Item]) -> None:
    """On a worker: write each collected test's :class:`Kind` where the controller reads it
    (every worker writes the same, each through a file of its own renamed into place)."""
    workerinput: dict[str, Any] = getattr(config, "workerinput", None) or {}
    path = workerinput.get(KINDS_INPUT)
    if not path:
        return
    kinds = {item.nodeid: vars(Kind.of(item)) for item in items}
    scratch = Path(f"{path}.{workerinput['workerid']}")
    scratch.write_text(json.dumps(kinds), encoding="utf-8")
    scratch.replace(path)


def read_kinds(path: Path, collection: Sequence[str]) -> list[Kind]:
    """Each test's kind, in the collection's order (:data:`LIGHT` if the file lacks it)."""
    try:
        kinds = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kinds = {}
    return [Kind(**kinds[nodeid]) if nodeid in kinds else LIGHT for nodeid in collection]


class CappedScheduling(LoadScheduling):  # type: ignore[misc]  # xdist ships no types
    """xdist's ``load`` schedule, handing tests out as workers free up (two in hand each: the
    one running and the next), in the collection's order, skipping heavy tests for a worker
    while :data:`HEAVY_AT_ONCE` others hold one."""

    def __init__(
        self, config: pytest.Config, log: Any, kinds_path: Path, durations: dict[str, float]
    ) -> None:
        super().__init__(config, log)
        self.collection: list[str] | None = None
        self.kinds_path = kinds_path
        self.kinds: list[Kind] = []
        self.last_group: dict[WorkerController, str] = {}
        self.durations = durations
        """Each test's seconds in earlier runs; this run's are added as they end."""

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is None:
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            collection: list[str] = next(iter(self.node2collection.values()))
            self.collection = collection
            self.kinds = read_kinds(self.kinds_path, collection)
            self.pending[:] = self._longest_first(collection)
        for node in self.nodes:
            self.check_schedule(node)

    def mark_test_complete(
        self, node: WorkerController, item_index: int, duration: float = 0
    ) -> None:
        self.node2pending[node].remove(item_index)
        assert self.collection is not None
        self.durations[self.collection[item_index]] = round(duration, 2)
        # A heavy test's end may let a worker waiting for one go on: every worker gets a look.
        for worker in self.nodes:
            self.check_schedule(worker)

    def check_schedule(self, node: WorkerController, duration: float = 0) -> None:
        if node.shutting_down:
            return
        held = self.node2pending[node]
        while len(held) < 2 and self.pending:
            chosen = self._choose(node)
            if not chosen:
                break  # every test left is heavy and the heavy ones are all handed out
            for index in chosen:
                self.pending.remove(index)
            held.extend(chosen)
            node.send_runtest_some(chosen)
            self.last_group[node] = self.kinds[chosen[-1]].group
        if not self.pending:
            node.shutdown()

    def _longest_first(self, collection: list[str]) -> list[int]:
        """The tests' indices in their kinds' order, and within a kind the modules that took
        longest before first (a module's tests stay together, in their order)."""
        seconds: dict[str, float] = {}
        for nodeid, kind in zip(collection, self.kinds, strict=True):
            seconds[kind.group] = seconds.get(kind.group, 0.0) + self.durations.get(nodeid, 0.0)
        return sorted(
            range(len(collection)),
            key=lambda i: (self.kinds[i].rank, -seconds[self.kinds[i].group], i),
        )

    def _holds_heavy(self, node: WorkerController) -> bool:
        """Whether a heavy test is running on ``node`` or waits there to run next (a worker
        runs one test at a time, so it counts once however many it holds)."""
        return any(self.kinds[i].heavy for i in self.node2pending[node])

    def heavy_workers(self) -> int:
        """How many workers hold a heavy test (at most :meth:`heavy_limit`)."""
        return sum(self._holds_heavy(node) for node in self.nodes)

    def heavy_limit(self) -> int:
        """:data:`HEAVY_AT_ONCE`, or one more once every long test not heavy has ended."""
        held = (i for tests in self.node2pending.values() for i in tests)
        busy = any(self.kinds[i].long and not self.kinds[i].heavy for i in (*held, *self.pending))
        return HEAVY_AT_ONCE if busy else HEAVY_AT_ONCE + 1

    def _choose(self, node: WorkerController) -> list[int]:
        """The next tests for ``node``: a test of the first allowed one's rank from the module
        it ran last, else from a module no other worker is on, else the first allowed. A
        quick one comes with up to :data:`QUICK_SHARE` of the quick ones after it."""
        room = self._holds_heavy(node) or self.heavy_workers() < self.heavy_limit()
        allowed = [i for i in self.pending if room or not self.kinds[i].heavy]
        if not allowed:
            return []
        first = self.kinds[allowed[0]]
        group = self.last_group.get(node)
        same = (
            i for i in allowed if self.kinds[i].group == group and self.kinds[i].rank == first.rank
        )
        others = {g for worker, g in self.last_group.items() if worker is not node}
        free = (  # else a module no other worker is on: its server is started once, not twice
            i
            for i in allowed
            if self.kinds[i].group not in others and self.kinds[i].rank == first.rank
        )
        index = next(same, None)
        if index is None:
            index = next(free, allowed[0])
        kind = self.kinds[index]
        if kind.heavy or kind.long:
            return [index]
        quick = [i for i in allowed if not self.kinds[i].heavy and not self.kinds[i].long]
        share = max(1, min(QUICK_SHARE, len(quick) // (4 * max(1, len(self.nodes)))))
        return [index, *(i for i in quick if i != index)][:share]


class Schedule:
    """The controller's side: names the kinds file to the workers and makes the scheduler
    (for xdist's default ``load`` distribution; another ``--dist`` keeps xdist's own)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        """Made once there are workers (a run without ``-n`` makes none)."""
        self.scheduler: CappedScheduling | None = None

    @property
    def kinds_path(self) -> Path:
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="stud-schedule-"))
        return self.folder / "kinds.json"

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        node.workerinput[KINDS_INPUT] = str(self.kinds_path)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        if config.getoption("dist") != "load":
            return None
        cache = getattr(config, "cache", None)  # none under -p no:cacheprovider
        before = cache.get(DURATIONS, {}) if cache is not None else {}
        self.scheduler = CappedScheduling(config, log, self.kinds_path, dict(before))
        return self.scheduler

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(session.config, "cache", None)
        if self.scheduler is not None and cache is not None:
            cache.set(DURATIONS, self.scheduler.durations)

    def pytest_unconfigure(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
