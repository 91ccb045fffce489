"""How far the strong bot's model of one opponent's folds is off, read from his answers.

The model maps a player's read fold rate to the spot at hand (his range as
his line narrowed it, :meth:`stud.bots.shares.Run.rate`). That mapping
can be off for a given player in a given way: a nit's later-street folds
were counted over hands his calls had already narrowed, so cutting them
again by this line's narrowing predicted 0.07-0.36 where he folded
0.25-0.55; another player's folds may follow his
hand more closely than his average says. Rather than pick one mapping for
every player, the bot checks its own: each time it wagers, the model's fold
chance for every opponent facing the wager is written down, and his answer
(fold or not) is set against it. The gap, read as one shift of the model's
log-odds per street (a logistic recalibration fitted by maximum a
posteriori, shrunk towards the shift over all streets, itself shrunk
towards none), is added to the model for that player from then on.

A player the model reads right keeps a shift near zero; one it misreads is
moved to what he does, as fast as his answers accumulate.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

PRIOR_PRECISION = 4.0
"""How firmly a shift is held at its prior (a log-odds standard deviation of 0.5): about
25 answers to a wager at fold chances near a quarter weigh as much."""

CLIP = 0.01
"""Model chances are taken within [CLIP, 1 - CLIP] before their log-odds."""

NEWTON_STEPS = 6

KEPT = 4096
"""Answers kept per street and kind of spot, the latest: a bot that sits for days keeps its
decisions as fast as in its first session, and follows a player who changes."""


def logit(p: float) -> float:
    """The log-odds of ``p``, clipped away from 0 and 1."""
    q = min(1.0 - CLIP, max(CLIP, p))
    return math.log(q / (1.0 - q))


def expit(x: float) -> float:
    """The inverse of :func:`logit` (without the clip)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def shifted(p: float, shift: float) -> float:
    """The chance ``p`` moved by ``shift`` in log-odds (unchanged when the shift is 0)."""
    if shift == 0.0:
        return p
    return expit(logit(p) + shift)


def _fit(points: Sequence[tuple[float, bool]], prior: float) -> float:
    """The shift maximizing the answers' likelihood times a normal prior about ``prior``."""
    data = np.asarray(points, dtype=np.float64)
    x, folded = data[:, 0], data[:, 1]
    shift = prior
    for _ in range(NEWTON_STEPS):
        q = 1.0 / (1.0 + np.exp(-(x + shift)))
        gradient = float((folded - q).sum()) - PRIOR_PRECISION * (shift - prior)
        curvature = float((q * (1.0 - q)).sum()) + PRIOR_PRECISION
        step = gradient / curvature
        shift += step
        if abs(step) < 1e-4:
            break
    return shift


@dataclass(slots=True)
class FoldCalibration:
    """One opponent's answers to my wagers against the model's fold chance for each.

    Kept per street (3 to 7) and per kind of spot: facing my wager before he
    has wagered on the street, or raised by me after wagering (``back``).
    """

    points: dict[tuple[int, bool], deque[tuple[float, bool]]] = field(default_factory=dict)
    """(street, back) -> (the model's log-odds, whether he folded), one per answer."""
    _shifts: dict[tuple[int, bool], float] = field(default_factory=dict, repr=False)
    _pooled: dict[bool, float] = field(default_factory=dict, repr=False)

    def add(self, street: int, back: bool, modelled: float, folded: bool) -> None:
        """Count one answer: the model gave him ``modelled`` to fold, and he folded or not."""
        kept = self.points.setdefault((street, back), deque(maxlen=KEPT))
        kept.append((logit(modelled), folded))
        self._shifts.clear()
        self._pooled.pop(back, None)

    def answers(self, street: int | None = None, back: bool = False) -> int:
        """How many answers were counted on ``street`` (any street: None) in this kind of spot."""
        if street is not None:
            return len(self.points.get((street, back), ()))
        return sum(len(v) for (s, b), v in self.points.items() if b == back)

    def shift(self, street: int, back: bool = False) -> float:
        """The log-odds to add to the model's fold chance on ``street`` for this player."""
        key = (street, back)
        found = self._shifts.get(key)
        if found is not None:
            return found
        pooled = self._pooled.get(back)
        if pooled is None:
            every = [p for (s, b), v in self.points.items() if b == back for p in v]
            pooled = self._pooled[back] = _fit(every, 0.0) if every else 0.0
        own = self.points.get(key)
        found = _fit(own, pooled) if own else pooled
        self._shifts[key] = found
        return found
