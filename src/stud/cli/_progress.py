"""The progress bar the long subcommands (``equity``, ``sim``) show while they work."""

from __future__ import annotations

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
