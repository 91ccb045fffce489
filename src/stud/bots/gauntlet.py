"""The gauntlet: simple players of known styles that a strong bot must beat, each in its own way.

Each is a tight-aggressive skeleton (:class:`StyleBot`) with one trait turned
up, so that a leak of the strong bot shows as a loss to one of them:

- ``tag``: tight-aggressive. Completes a good start (top 20%), defends the
  top 30% against a completion, raises the top 7%; later streets bets when
  its share of the pot beats its fair share by a margin, calls on pot odds.
- ``stealer``: the ``tag`` that always completes when nobody has, unless it
  is the bring-in: it punishes a bot that surrenders its bring-in.
- ``nit``: only the top 8% of starts, later only strong hands, folds the rest:
  it should be stolen from at every turn.
- ``prober``: the ``tag`` that bets whenever it is checked to: it punishes
  a bot that checks and folds.
- ``bully``: the ``tag`` that re-raises every lone completion on 3rd street:
  it punishes a bot that steals and folds to a raise.
- ``maniac`` (:class:`ManiacBot`): bets and raises whenever it may, never folds.
- ``station`` (:class:`stud.bots.simple.StationBot`): calls everything, never raises.

They decide from their own cards, the up cards and the betting, as any bot,
with a small Monte Carlo for their share of the pot on later streets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stud.bots.boards import liveness
from stud.bots.estimate import Estimator
from stud.bots.options import Options
from stud.bots.seen import Seen, read_view
from stud.bots.starting import start_percentile
from stud.game import Action, HandView

SAMPLES = 96
"""Run-outs per estimate: these bots need a rough share, not a precise one."""


@dataclass(frozen=True, slots=True)
class Style:
    """A style's thresholds (3rd-street percentiles, later-street shares) and its trait."""

    open: float = 0.80
    """Complete first in with a start at least this good."""
    defend: float = 0.70
    """Call a completion with a start at least this good."""
    reraise: float = 0.93
    """Raise a completion with a start at least this good."""
    value: float = 0.08
    """Later streets: bet or raise when the share beats the fair share by this much."""
    call_margin: float = 0.0
    """Later streets: call when the share beats the pot odds by this much."""
    always_steal: bool = False
    """Complete whenever nobody has and it is not the bring-in."""
    probe: bool = False
    """Bet whenever checked to on 4th to 7th street."""
    resteal: bool = False
    """Re-raise every lone completion on 3rd street."""


STYLES: dict[str, Style] = {
    "tag": Style(),
    "stealer": Style(always_steal=True),
    "nit": Style(open=0.92, defend=0.88, reraise=0.97, value=0.15, call_margin=0.10),
    "prober": Style(probe=True),
    "bully": Style(resteal=True),
}


class StyleBot:
    """A tight-aggressive player with one trait turned up (see :data:`STYLES`)."""

    def __init__(
        self,
        style: str,
        seed: int | None = None,
        *,
        samples: int = SAMPLES,
        traits: Style | None = None,
    ) -> None:
        self.name = style
        self.style = STYLES[style] if traits is None else traits
        """The thresholds and trait it plays by: ``style``'s, or ``traits`` for one of its own."""
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(self._rng.getrandbits(64))
        self._estimators: dict[str, Estimator] = {}
        self.samples = samples

    def _share(self, seen: Seen) -> float:
        estimator = self._estimators.get(seen.game)
        if estimator is None:
            estimator = self._estimators[seen.game] = Estimator(seen.game, self._np, self.samples)
        return estimator.estimate(seen).share

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seen = read_view(view)
        options = Options(legal)
        if seen.street == 3:
            return self._third(seen, options)
        return self._later(seen, options)

    def _third(self, seen: Seen, options: Options) -> Action:
        style = self.style
        start = seen.mine_down[:2] + seen.mine_up[:1]
        strength = start_percentile(seen.game, start) + liveness(seen)
        if options.bring_in is not None:
            return options.aggressive() if strength >= style.open else options.bring_in
        if seen.wagers == 0:
            if style.always_steal or strength >= style.open:
                return options.aggressive()
            return options.give_up()
        if style.resteal and seen.wagers == 1 and options.wagers:
            return options.aggressive()
        if strength >= style.reraise and options.wagers:
            return options.aggressive()
        if strength >= style.defend + 0.04 * (seen.wagers - 1):
            return options.passive()
        return options.give_up()

    def _later(self, seen: Seen, options: Options) -> Action:
        style = self.style
        share = self._share(seen)
        fair = 1.0 / (len(seen.opponents) + 1)
        if seen.to_call == 0:
            checked_to = any(o.line.checks[seen.street] for o in seen.opponents)
            if share >= fair + style.value or (style.probe and checked_to):
                return options.aggressive(big=share >= fair + 2 * style.value)
            return options.give_up()
        if share >= fair + 2 * style.value + 0.05 * (seen.wagers - 1):
            return options.aggressive(big=True)
        odds = seen.to_call / (seen.pot + seen.to_call)
        if share >= odds + style.call_margin:
            return options.passive()
        return options.give_up()


class ManiacBot:
    """Completes, bets and raises whenever it may; calls when it may not; never folds."""

    name = "maniac"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        options = Options(legal)
        if options.wagers:
            return options.wagers[self._rng.randrange(len(options.wagers))]
        return options.passive()
