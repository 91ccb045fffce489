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
moved to what he does, as fast as his answers accumulate. His answers forget
as his reads do (:meth:`FoldCalibration.decay`, at the reads' half-life): a
player who changes gear is checked against what he does now. The shift over
all streets is shrunk towards the population's (every player's answers,
never forgotten), as a player's rates are.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

PRIOR_PRECISION = 2.0
"""How firmly a shift is held at its prior (a log-odds standard deviation of 0.7): about
11 answers to a wager at fold chances near a quarter weigh as much. A street seldom
reached (the river) must be checked within a player's first hundred hands, where the
reads' half-life leaves about 144 hands' worth of answers at most."""

CLIP = 0.01
"""Model chances are taken within [CLIP, 1 - CLIP] before their log-odds."""

NEWTON_STEPS = 6

MAX_STEP = 2.0
"""The largest move of one Newton step, in log-odds: thousands of answers at a clipped
chance (all folds to a 1% model) make the likelihood's curvature vanish, and an undamped
step would overshoot by hundreds and overflow."""

KEPT = 4096
"""Answers kept per street and kind of spot, the latest: a bot that sits for days keeps its
decisions as fast as in its first session."""

FORGOTTEN = math.log(1000.0)
"""An answer weighing under a thousandth of a new one (about ten half-lives old) is dropped."""


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


Point = tuple[float, bool, float]
"""One answer: the model's log-odds, whether he folded, and the decay clock when he did."""

Points = npt.NDArray[np.float64]
"""Answers as an array, one :data:`Point` a row."""


def _fit(data: Points, prior: float, clock: float) -> float:
    """The shift maximizing the answers' likelihood, each weighed by its age on ``clock``,
    times a normal prior about ``prior``."""
    x, folded = data[:, 0], data[:, 1]
    weight = np.exp(data[:, 2] - clock)
    shift = prior
    for _ in range(NEWTON_STEPS):
        q = 1.0 / (1.0 + np.exp(-(x + shift)))
        gradient = float((weight * (folded - q)).sum()) - PRIOR_PRECISION * (shift - prior)
        curvature = float((weight * q * (1.0 - q)).sum()) + PRIOR_PRECISION
        step = max(-MAX_STEP, min(MAX_STEP, gradient / curvature))
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

    points: dict[tuple[int, bool], deque[Point]] = field(default_factory=dict)
    """(street, back) -> one :data:`Point` per answer, oldest first."""
    prior: FoldCalibration | None = field(default=None, repr=False, compare=False)
    """The population's answers: the shift over all streets is shrunk towards theirs
    (None: towards no shift)."""
    clock: float = 0.0
    """How much the answers have decayed so far, in e-folds (:meth:`decay`)."""
    _shifts: dict[tuple[int, bool], float] = field(default_factory=dict, repr=False)
    _pooled: dict[bool, float] = field(default_factory=dict, repr=False)
    _arrays: dict[tuple[int, bool], Points] = field(default_factory=dict, repr=False)
    """Each street's answers as an array, made again only when they change: the fit runs
    at every hand (the answers decay), and making an array of thousands of them is most
    of its cost."""

    def add(self, street: int, back: bool, modelled: float, folded: bool) -> None:
        """Count one answer: the model gave him ``modelled`` to fold, and he folded or not."""
        kept = self.points.setdefault((street, back), deque(maxlen=KEPT))
        kept.append((logit(modelled), folded, self.clock))
        self._arrays.pop((street, back), None)
        self._shifts.clear()
        self._pooled.pop(back, None)

    def decay(self, factor: float) -> None:
        """Weigh every answer so far by ``factor`` (under 1: what he did before counts less),
        dropping those that no longer count (:data:`FORGOTTEN`)."""
        self.clock -= math.log(factor)
        for key, kept in self.points.items():
            while kept and self.clock - kept[0][2] > FORGOTTEN:
                kept.popleft()
                self._arrays.pop(key, None)
        self._shifts.clear()
        self._pooled.clear()

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
        pooled = self.pooled(back)
        found = _fit(self._array(key), pooled, self.clock) if self.points.get(key) else pooled
        self._shifts[key] = found
        return found

    def pooled(self, back: bool = False) -> float:
        """The shift over all streets in this kind of spot (each street's is shrunk towards it)."""
        found = self._pooled.get(back)
        if found is None:
            base = self.prior.pooled(back) if self.prior is not None else 0.0
            every = [
                self._array(key) for key, kept in self.points.items() if key[1] == back and kept
            ]
            found = self._pooled[back] = (
                _fit(np.concatenate(every), base, self.clock) if every else base
            )
        return found

    def _array(self, key: tuple[int, bool]) -> Points:
        """The answers of ``key`` (street, back) as an array, oldest first."""
        found = self._arrays.get(key)
        if found is None:
            found = self._arrays[key] = np.asarray(self.points[key], dtype=np.float64)
        return found
