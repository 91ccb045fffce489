"""The first strong bot (``strong-v1``), kept as a yardstick: tight-aggressive, equity-driven.

It is the strong bot of issue 6, unchanged in play: :mod:`stud.bots.strong`
replaced it (issue 18) and is measured against it. Its leaks, for the record:
it surrenders the bring-in to steals, folds to a maniac on 3rd street, reads
the table as a whole from its own turns only (never the folds that end a
hand), and its mixing is narrower than its Monte Carlo noise.

On 3rd street it keeps a starting-hand discipline (percentile tables of
:mod:`stud.bots.starting`, corrected for the cards it sees are dead), opens by
completing rather than limping, steals with a door card that outranks the
doors left to act, and defends by equity against the range the completer's
door and action suggest. From 4th street on it estimates its share of the pot
by a small Monte Carlo against weighted ranges (:mod:`stud.bots.estimate`),
bets and raises for value when its share beats its fair share by a margin,
calls on pot odds, folds otherwise. Game shaping: Razz punishes bricks and
paired boards; Stud8 prizes scooping starts and low draws and keeps raising
a locked half (a freeroll); Stud values pairs by rank and liveness and the
door card's strength. Choices near a threshold are drawn from a smooth
probability with a seeded generator, so the same seed replays the same game
while its play stays hard to read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stud.bots.boards import bricked, door_quality, liveness, showing
from stud.bots.estimate import Estimator
from stud.bots.options import Options
from stud.bots.reads import Reads
from stud.bots.seen import Opponent, Seen, read_view
from stud.bots.shares import Estimate
from stud.bots.starting import start_percentile
from stud.game import Action, HandView


@dataclass(frozen=True, slots=True)
class Profile:
    """The thresholds of one game (percentiles of 3rd-street starts, shares of the pot)."""

    open: float
    """Complete first in with a start this good (or better)."""
    steal: float
    """Complete as a steal, with the best door left, from this good."""
    defend: float
    """Call a completion only with a start this good (the discipline)."""
    reraise: float
    """Raise a completion with a start this good."""
    bet_margin: float
    """Bet for value when the share beats the fair share by this much."""
    raise_margin: float
    """Raise when the share beats the fair share by this much."""
    bluff: float
    """How often to bet a weak hand into one checked opponent with a better-looking board."""


PROFILES = {
    "razz": Profile(
        open=0.80, steal=0.55, defend=0.72, reraise=0.93, bet_margin=0.07, raise_margin=0.14,
        bluff=0.10,
    ),
    "stud8": Profile(
        open=0.82, steal=0.60, defend=0.74, reraise=0.95, bet_margin=0.08, raise_margin=0.15,
        bluff=0.06,
    ),
    "stud": Profile(
        open=0.84, steal=0.55, defend=0.76, reraise=0.95, bet_margin=0.07, raise_margin=0.14,
        bluff=0.08,
    ),
}  # fmt: skip

STREET_ODDS = {3: 1.3, 4: 1.2, 5: 1.08, 6: 1.03, 7: 1.0}
"""Pot odds are scaled up on early streets: a call there buys only the next card, not the river."""

LOOSE = 0.85
"""Below this ``Reads.folds_to_pressure`` the table is loose: it calls instead of folding."""

TEMPERATURE = 0.03
"""Softness of the mixed decisions: at this distance past a threshold the odds are 73/27."""


class StrongV1Bot:
    """Tight-aggressive baseline for Stud, Stud8 and Razz; ``seed`` makes its play reproducible."""

    name = "strong-v1"

    def __init__(self, seed: int | None = None, *, samples: int = 160) -> None:
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(self._rng.getrandbits(64))
        self.samples = samples
        """Monte Carlo run-outs per estimate."""
        self._estimators: dict[str, Estimator] = {}
        self.reads = Reads()
        """What this bot has learnt of the table's folding and raising so far."""
        for game in PROFILES:
            self._estimator(game)  # tables and banks now, not in the first decision's 50 ms

    # -- helpers ---------------------------------------------------------------------------

    def _estimator(self, game: str) -> Estimator:
        estimator = self._estimators.get(game)
        if estimator is None:
            estimator = Estimator(game, self._np, self.samples)
            self._estimators[game] = estimator
        return estimator

    def _estimate(self, seen: Seen, opponents: list[Opponent] | None = None) -> Estimate:
        reads = self.reads
        meaning = (reads.raise_meaning, reads.call_meaning)
        return self._estimator(seen.game).estimate(seen, opponents, meaning=meaning)

    def _chance(self, edge: float, temperature: float = TEMPERATURE) -> bool:
        """True with a probability that rises smoothly from 0 to 1 as ``edge`` crosses 0."""
        x = max(-30.0, min(30.0, edge / temperature))
        return self._rng.random() < 1.0 / (1.0 + math.exp(-x))

    # -- the decision ----------------------------------------------------------------------

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seen = read_view(view)
        self.reads.update(view)
        options = Options(legal)
        if seen.street == 3:
            return self._third(seen, options)
        return self._later(seen, options)

    # -- 3rd street ------------------------------------------------------------------------

    def _third(self, seen: Seen, options: Options) -> Action:
        game = seen.game
        profile = PROFILES[game]
        start = seen.mine_down[:2] + seen.mine_up[:1]
        strength = start_percentile(game, start) + liveness(seen)
        if seen.wagers == 0 and self.reads.folds_to_pressure < LOOSE:
            return self._loose_open(seen, options)
        if options.bring_in is not None:  # I bring it in: complete only with a real hand
            if strength >= profile.open and self._chance(strength - profile.open, 0.05):
                return options.aggressive()
            return options.bring_in
        if seen.wagers == 0:
            if strength >= profile.open:
                return options.aggressive() if self._rng.random() < 0.92 else options.passive()
            pressure = self.reads.folds_to_pressure
            steal = profile.steal + 0.3 * max(0.0, 1.0 - pressure)  # stations do not fold
            if self._steal_spot(seen) and self._chance(strength - steal, 0.08):
                return options.aggressive()
            if strength >= profile.defend and self._limpers(seen) >= 2 and self._chance(-0.02):
                return options.passive()  # sometimes see a cheap multiway card
            return options.give_up()
        # Facing a completion or a raise: the discipline first, then equity against the range.
        active = [
            o for o in seen.opponents if o.line.aggressive[3] or o.line.called_wager[3]
        ] or seen.opponents
        estimate = self._estimate(seen, active)
        fair = 1.0 / (len(active) + 1)
        if (
            strength >= profile.reraise
            and options.wagers
            and self._chance(estimate.share - fair - profile.raise_margin)
        ):
            return options.aggressive()
        odds = seen.to_call / (seen.pot + seen.to_call) * STREET_ODDS[3]
        gate = profile.defend + 0.04 * (seen.wagers - 1)
        if strength >= gate and estimate.share >= odds:
            return options.passive()
        if estimate.share >= odds + 0.15:
            return options.passive()  # live, cheap and ahead of a wide steal
        return options.give_up()

    def _loose_open(self, seen: Seen, options: Options) -> Action:
        """A table that rarely folds: steals are dead, but any hand ahead of theirs is value.

        Such players see every street, so the share against all of them (their
        calls say little) decides: complete when ahead of the fair share by a
        margin, limp when about even (a passive table lets a hand see cards
        cheaply), fold the rest.
        """
        profile = PROFILES[seen.game]
        estimate = self._estimate(seen)
        fair = 1.0 / (len(seen.opponents) + 1)
        if options.wagers and self._chance(estimate.share - fair - profile.bet_margin):
            return options.aggressive()
        if options.bring_in is not None:
            return options.bring_in
        start = seen.mine_down[:2] + seen.mine_up[:1]
        strength = start_percentile(seen.game, start) + liveness(seen)
        steal = profile.steal + 0.3 * max(0.0, 1.0 - self.reads.folds_to_pressure)
        if self._steal_spot(seen) and self._chance(strength - steal, 0.08):
            return options.aggressive()
        if estimate.share >= 0.95 * fair and self._chance(estimate.share - 0.95 * fair, 0.02):
            return options.passive()
        return options.give_up()

    def _limpers(self, seen: Seen) -> int:
        return sum(1 for o in seen.opponents if o.line.calls[3] and not o.line.brought_in)

    def _steal_spot(self, seen: Seen) -> bool:
        """My door outranks every door still to act (and the bring-in's), and nobody limped."""
        game = seen.game
        mine = door_quality(game, seen.mine_up[0])
        behind = 0
        for opp in seen.opponents:
            line = opp.line
            if line.calls[3] or line.aggressive[3]:
                return False
            if door_quality(game, opp.up[0]) >= mine:
                return False
            if not line.brought_in:
                behind += 1
        return behind <= 2

    # -- 4th to 7th street ------------------------------------------------------------------

    def _later(self, seen: Seen, options: Options) -> Action:
        game = seen.game
        profile = PROFILES[game]
        estimate = self._estimate(seen)
        players = len(seen.opponents) + 1
        fair = 1.0 / players
        share = estimate.share
        if game == "stud8" and self._freeroll(estimate, players):
            return options.aggressive(big=True)
        # Value bets get thinner at a table that calls too much (a bluff-catcher pays them).
        thin = 0.4 + 0.6 * min(1.0, self.reads.folds_to_pressure)
        if seen.to_call == 0:
            value = share - fair - profile.bet_margin * thin
            if options.wagers and self._chance(value):
                return options.aggressive(big=value > 0.12)
            if options.wagers and self._bluff_spot(seen, estimate, fair):
                return options.aggressive()
            return options.give_up()
        # Facing a bet: raise for value, call on odds, fold the rest.
        margin = profile.raise_margin * thin + 0.05 * max(0, seen.wagers - 1)
        if options.wagers and self._chance(share - fair - margin):
            return options.aggressive(big=True)
        odds = seen.to_call / (seen.pot + seen.to_call) * STREET_ODDS[seen.street]
        if share >= odds:
            return options.passive()
        if seen.street == 7 and share >= 0.75 * odds and self._rng.random() < 0.25:
            return options.passive()  # a light call now and then keeps bluffs honest
        return options.give_up()

    def _freeroll(self, estimate: Estimate, players: int) -> bool:
        """Stud8: one half nearly locked and a shot at the other: every bet is profit."""
        return estimate.low > 0.95 and estimate.share > 0.5 + 0.05 * (players == 2)

    def _bluff_spot(self, seen: Seen, estimate: Estimate, fair: float) -> bool:
        """One opponent who checked, my board looks better than theirs, some equity behind."""
        if len(seen.opponents) != 1 or estimate.share < fair - 0.2:
            return False
        opp: Opponent = seen.opponents[0]
        if seen.street == 7 and estimate.share < fair - 0.1:
            chance = PROFILES[seen.game].bluff * 0.5
        else:
            chance = PROFILES[seen.game].bluff
        chance *= self.reads.folds_to_pressure
        if showing(seen.game, seen.mine_up) <= showing(seen.game, opp.up):
            return False
        if seen.game == "razz" and bricked(opp.up):
            chance *= 4.0  # Razz: attack the player who just caught a brick
        return self._rng.random() < chance
