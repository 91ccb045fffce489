"""The progress bar the long subcommands (``equity``, ``sim``) show while they work."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def progress_bar(*, disable: bool, elapsed: bool = False) -> Progress:
    """A bar on standard error that goes when done: the task, done of total, time left.

    ``elapsed`` shows the time spent too.
    """
    columns: list[ProgressColumn] = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
    ]
    if elapsed:
        columns.append(TimeElapsedColumn())
    columns.append(TimeRemainingColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True, disable=disable)


T = TypeVar("T")


def timed_with_bar(
    description: str, total: int, work: Callable[[Callable[[int], None]], T], *, disable: bool
) -> tuple[T, float]:
    """Run ``work`` under a bar with the time spent; it is handed the bar's advance (how
    many more are done). Its result, and the wall seconds it took."""
    began = time.perf_counter()
    with progress_bar(disable=disable, elapsed=True) as bar:
        task = bar.add_task(description, total=total)
        result = work(lambda done: bar.advance(task, done))
    return result, time.perf_counter() - began
