"""What a task is, wherever it runs: a function of (config, start, count), and its worker's start.

Shared by the local runner (:mod:`stud.sim.workers`) and the Ray one
(:mod:`stud.sim.on_ray`), so neither imports the other's module to know it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

Progress = Callable[[int], None]
"""Told how many more items (hands, deals, players out) are done."""

T = TypeVar("T")
C = TypeVar("C")

Play = Callable[[C, int, int, Progress | None], T]
"""``play(config, start, count, progress)``: one task, items ``start`` .. ``start + count - 1``."""

Finished = Generator[tuple[int, Any], None, None]
"""(task index, result), in finishing order."""


def load(modules: Sequence[str]) -> None:
    """Import the modules that register extra bots (a worker does, before it plays)."""
    for module in modules:
        importlib.import_module(module)
