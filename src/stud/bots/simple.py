"""The two reference opponents: uniform random, and the calling station."""

from __future__ import annotations

import random
from collections.abc import Sequence

from stud.game import Action, ActionKind, HandView

_PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


class RandomBot:
    """Uniform among the legal actions (each amount of a wager counts as its own action).

    A yardstick: a bot that cannot beat it clearly is not playing poker.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        return legal[self._rng.randrange(len(legal))]


class StationBot:
    """Never folds, never raises: checks, calls, or posts the bring-in.

    The classic losing player a value-betting bot must beat; it only wagers
    when a wager is its one legal action (a bring-in as large as the small bet).
    """

    name = "station"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic; the argument keeps every bot constructible alike

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        for kind in _PASSIVE:
            for action in legal:
                if action.kind is kind:
                    return action
        wagers = [a for a in legal if a.kind.is_wager]
        if wagers:
            return min(wagers, key=lambda a: a.to)
        return legal[0]
