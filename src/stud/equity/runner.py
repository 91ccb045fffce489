"""Run tasks in this process or in a pool of worker processes, adding their tallies.

Tallies are integer sums, so the total is the same in any order and with any
number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Protocol, TypeVar

from stud.equity.showdown import Tally


class Task(Protocol):
    @property
    def runouts(self) -> int: ...


T = TypeVar("T", bound=Task)
Progress = Callable[[int, int], None]


def run_tasks(
    work: Callable[[T], Tally],
    tasks: Sequence[T],
    players: int,
    workers: int = 1,
    progress: Progress | None = None,
) -> Tally:
    """Total tally of ``work(task)`` over the tasks; ``progress(done, total)`` in run-outs.

    ``work`` must pickle (a module-level function or a partial of one) when
    ``workers > 1``.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    total = sum(t.runouts for t in tasks)
    done = 0
    tally = Tally(players)
    if progress is not None:
        progress(0, total)
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            tally.add(work(task))
            done += task.runouts
            if progress is not None:
                progress(done, total)
        return tally
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        futures = {pool.submit(work, task): task for task in tasks}
        for future in as_completed(futures):
            tally.add(future.result())
            done += futures[future].runouts
            if progress is not None:
                progress(done, total)
    return tally
