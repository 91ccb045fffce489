"""Where a run's tasks are played: in this process, on local processes, or on a Ray cluster.

Every simulation cuts its work into tasks the same way (a session of hands or
deals, a batch of tournaments), each a pure function of its arguments: its
seeds come from the run's seed and the task's first item alone. So a task
gives the same result wherever and however often it runs, and
:func:`run_tasks` only chooses where. ``Workers(jobs=N)`` plays on N local
processes (the standard library's pool); ``Workers(ray=...)`` sends the same
tasks to Ray (:mod:`stud.sim.on_ray`, imported only then), which retries a
task whose worker died.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from stud.sim.tasks import C, Finished, Play, Progress, T, load

__all__ = ["Progress", "Workers", "run_sessions", "run_tasks"]


@dataclass(slots=True)
class Workers:
    """Where to play: ``jobs`` local processes, or Ray at ``ray`` (``local``, ``auto``, address).

    With Ray, ``jobs`` caps the CPUs of a ``local`` Ray (all of them when
    None); ``nodes`` fills in with the Ray nodes the tasks ran on.
    """

    jobs: int | None = None
    ray: str | None = None
    nodes: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"--jobs (--workers) must be at least 1, not {self.jobs}")
        if self.ray is not None and not self.ray.strip():
            raise ValueError("--ray: give local, auto or a cluster address")

    @classmethod
    def of(cls, workers: int | Workers) -> Workers:
        """``workers`` as is, or that many local processes."""
        return workers if isinstance(workers, Workers) else cls(jobs=workers)

    @property
    def processes(self) -> int:
        """Local processes to use without Ray."""
        return self.jobs or 1

    def describe(self) -> str:
        """For a summary line: ``2 job(s)`` or ``Ray (local), 1 node(s)``."""
        if self.ray is None:
            return f"{self.processes} job(s)"
        return f"Ray ({self.ray}), {len(self.nodes)} node(s)"

    def to_dict(self) -> dict[str, Any]:
        """For JSON output: ``workers`` as before, and Ray's address and node count if used."""
        if self.ray is None:
            return {"workers": self.processes}
        return {"workers": self.jobs, "ray": self.ray, "ray_nodes": len(self.nodes)}


def run_sessions(
    play: Play[C, T],
    config: C,
    sessions: Sequence[tuple[int, int]],
    workers: int | Workers = 1,
    progress: Progress | None = None,
    preload: Sequence[str] = (),
) -> list[T]:
    """``play(config, start, count)`` for every session, in order (see :func:`run_tasks`)."""
    tasks = [(config, start, count) for start, count in sessions]
    return run_tasks(play, tasks, workers, progress, preload)


def run_tasks(
    play: Play[C, T],
    tasks: Sequence[tuple[C, int, int]],
    workers: int | Workers = 1,
    progress: Progress | None = None,
    preload: Sequence[str] = (),
    done: Callable[[int, T], None] | None = None,
    *,
    unit: int = 1,
) -> list[T]:
    """``play(config, start, count)`` for every task, results in task order.

    Played here when there is one local job (or one task and no Ray), else
    on one pool of processes or on Ray: no pool per match, no worker idle
    while another finishes its last task. ``done(i, result)`` hears each task
    as it finishes, in finishing order: a caller saves it there, so an
    interrupted run keeps every finished task. ``progress`` hears the items
    done: as they are played here, and ``count * unit`` as each task
    finishes elsewhere. ``preload`` names modules every worker imports first
    (a module that registers more bots makes them playable there).
    """
    spread = Workers.of(workers)
    parts: list[Any] = [None] * len(tasks)
    here = spread.ray is None and (spread.processes == 1 or len(tasks) <= 1)
    finished: Finished
    if here:
        finished = ((i, play(c, start, n, progress)) for i, (c, start, n) in enumerate(tasks))
    elif spread.ray is None:
        finished = _on_processes(play, tasks, spread.processes, tuple(preload))
    else:
        from stud.sim.on_ray import on_ray

        finished = on_ray(play, tasks, spread.ray, spread.jobs, spread.nodes, tuple(preload))
    with closing(finished):
        for i, result in finished:
            parts[i] = result
            if done is not None:
                done(i, result)
            if progress is not None and not here:
                progress(tasks[i][2] * unit)
    return parts


def _on_processes(
    play: Play[Any, Any],
    tasks: Sequence[tuple[Any, int, int]],
    workers: int,
    preload: tuple[str, ...],
) -> Finished:
    """The tasks on a pool of local processes; those not started are cancelled if left early."""
    with _pool(min(workers, len(tasks)), preload) as pool:
        futures: dict[Future[Any], int] = {
            pool.submit(play, config, start, count, None): i
            for i, (config, start, count) in enumerate(tasks)
        }
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


def _pool(workers: int, preload: tuple[str, ...]) -> ProcessPoolExecutor:
    """Worker processes forked from a fresh server process that has imported the simulator.

    Forking the caller itself would copy the locks its threads hold (a
    progress bar's refresh thread, say) into every worker; a fork server
    starts clean, loads this module once, and forks each worker from there.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        spawn = multiprocessing.get_context("spawn")  # Windows: no fork at all
        return ProcessPoolExecutor(
            max_workers=workers, mp_context=spawn, initializer=load, initargs=(preload,)
        )
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["stud.sim.run"])
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=load, initargs=(preload,)
    )
