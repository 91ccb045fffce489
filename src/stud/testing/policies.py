"""Policies for the tests of :mod:`stud.bots.policy`, by the ``module:factory`` names of the CLI."""

from __future__ import annotations

from typing import Any

import numpy as np

from stud.bots.policy import PolicyBot, from_policy


def first_legal(observation: Any, mask: np.ndarray) -> int:
    """The first index the mask allows (fold when it may, else check or call)."""
    return int(np.flatnonzero(mask)[0])


def first_legal_bot(seed: int | None = None) -> PolicyBot:
    """:func:`first_legal` as a bot of any game: ``stud.testing.policies:first_legal_bot``."""
    return from_policy(first_legal)
