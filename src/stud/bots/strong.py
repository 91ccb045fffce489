"""The strong bot: ranges per opponent, equity against them, the expected value of each action.

Every decision follows the same three steps (see docs/bots.md for the design
and what it takes from the literature):

1. **A range per opponent.** Each live opponent's hidden cards are weighed by
   how likely its play makes them (:class:`stud.bots.estimate.Range`): a
   completion from a player who completes 90% of the time says almost
   nothing, one from a player who completes 10% of the time says "top 10%";
   a bet from a player who always bets when checked to says little, a check
   says "not much". How much each action says comes from that player's own
   counts (:mod:`stud.bots.players`), fed by every action at the table, the
   folds that end a hand included, and kept across hands.
2. **Equity against those ranges**, by one small Monte Carlo
   (:class:`stud.bots.estimate.Estimator`): my share of the pot now, and my
   share when a wager of mine is called, each opponent folding the weakest
   part of its range as often as it folds to a wager.
3. **The expected value of each action** (fold, check or call, bet or raise)
   with a short look-ahead: the bets still to come are counted as "showdown
   odds" (both sides putting in :data:`FUTURE_BETS` of each later street's
   bet), a wager earns the pot when every opponent folds and its called share
   otherwise. The best action is played. When giving up is best and the
   opponents may fold, the bot bluffs with the frequency that pot odds make
   unexploitable (``bet / (pot + bet)``), scaled by how often these opponents
   really fold (never against a calling station).

Exploitation is on top of this by construction: the fold rates, the
completion and betting rates that set how much an action narrows a range,
and the bluffing frequency all come from the reads of each opponent, which
start from the prior of a sound player and follow the evidence.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from stud.bots.boards import showing
from stud.bots.estimate import Estimator, Range, Versus
from stud.bots.options import Options
from stud.bots.players import PRIOR_BET_CHECKED, PRIOR_FOLD_LATER, PlayerReads, PlayerStats
from stud.bots.seen import Opponent, Seen, read_view
from stud.game import Action, HandView

FUTURE_BETS = 0.2
"""Share of each later street's bet that both sides are expected to put in (showdown odds)."""

MAX_EXPONENT = 6.0
"""The sharpest narrowing of a range by one street's play (a top-15% range, about)."""


def range_exponent(rate: float) -> float:
    """The exponent ``a`` of ``percentile ** a`` for a player who acts so with a ``rate`` share.

    A player taking an action with its top ``q`` of hands holds, on average, a
    hand at the percentile ``1 - q/2``; weighting percentiles by ``p ** a``
    gives the mean ``(a + 1) / (a + 2)``, so ``a = 2 (1 - q) / q``: 0 for a
    player who always does it (the action says nothing), 6 for the top 25%.
    """
    q = min(1.0, max(0.05, rate))
    return min(MAX_EXPONENT, 2.0 * (1.0 - q) / q)


@dataclass(frozen=True, slots=True)
class Choice:
    """An action and its expected value in chips (what is already in the pot is sunk)."""

    action: Action
    value: float


class StrongBot:
    """Range-tracking, equity- and EV-driven, exploiting each opponent from its own reads."""

    name = "strong"
    hindsight = 1.0
    """From 4th street: how much an opponent's folds and raises follow how its hand ends.

    (See :class:`stud.bots.estimate.Versus`; on 3rd street they follow its start.)
    """

    def __init__(
        self, seed: int | None = None, *, samples: int = 192, future: float = FUTURE_BETS
    ) -> None:
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(self._rng.getrandbits(64))
        self.samples = samples
        """Monte Carlo run-outs per estimate."""
        self.future = future
        """Share of each later street's bet both sides are expected to put in."""
        self._estimators: dict[str, Estimator] = {}
        self._small, self._big = 0, 0
        """The hand's small and big bet, set at each decision."""
        self.reads = PlayerReads()
        """What this bot has learnt of each opponent so far (every action it saw)."""
        for game in ("stud", "stud8", "razz"):
            self._estimator(game)  # tables and banks now, not in the first decision's 50 ms

    def _estimator(self, game: str) -> Estimator:
        estimator = self._estimators.get(game)
        if estimator is None:
            estimator = Estimator(game, self._np, self.samples)
            self._estimators[game] = estimator
        return estimator

    # -- what the table shows -----------------------------------------------------------------

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        """Count every action the view shows (hand-ending folds too), per opponent."""
        if view.viewer is not None:
            self.reads.update(view, players)

    # -- the decision ------------------------------------------------------------------------

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        self.reads.update(view)
        if len(legal) == 1:
            return legal[0]
        options = Options(legal)
        ranges = [self._range(seen, opp) for opp in seen.opponents]
        hindsight = 0.0 if seen.street == 3 else self.hindsight
        versus = self._estimator(seen.game).against(seen, ranges, hindsight=hindsight)
        mine = view.seats[seen.me].bet
        self._small, self._big = view.small_bet, view.big_bet
        choices = self._choices(seen, options, ranges, versus, mine)
        best = max(choices, key=lambda c: c.value)
        if not best.action.kind.is_wager and options.wagers:
            bluff = self._bluff(seen, options, ranges, versus, mine)
            if bluff is not None:
                return bluff
        return best.action

    # -- ranges ------------------------------------------------------------------------------

    def _range(self, seen: Seen, opp: Opponent) -> Range:
        """How ``opp``'s play narrows its hidden cards, as much as its habits say it does."""
        stats = self.reads.stats(opp.seat)
        line = opp.line
        start = 0.0
        if line.aggressive[3]:
            start += range_exponent(stats.steal_rate)
            start += range_exponent(stats.raise_third) * 0.5 * (line.aggressive[3] - 1)
        if line.called_wager[3]:
            start += 0.5 * range_exponent(1.0 - stats.fold_third)
        elif line.calls[3]:
            start += 0.3
        start = min(MAX_EXPONENT, start)
        bets = range_exponent(stats.open_rate) / range_exponent(PRIOR_BET_CHECKED)
        calls = stats.fold_later / PRIOR_FOLD_LATER
        raised = min(1.5, max(0.1, bets))
        called = min(1.2, max(0.1, calls))
        checks = sum(line.checks[4:])
        pressure = raised * line.late_aggression() + 0.35 * called * line.late_calls()
        pressure = min(4.0, pressure) - 0.25 * checks
        fold = self._fold_rate(seen, opp, stats)
        raises = 0.0 if opp.all_in else stats.raise_rate(seen.street)
        return Range(opp, start, pressure, fold, raises)

    def _fold_rate(self, seen: Seen, opp: Opponent, stats: PlayerStats) -> float:
        """How often ``opp`` folds to my next wager now (less once it has wagered itself)."""
        if opp.all_in:
            return 0.0
        return stats.fold_rate(seen.street, wagered=opp.line.aggressive[seen.street] > 0)

    # -- expected values ---------------------------------------------------------------------

    def _choices(
        self, seen: Seen, options: Options, ranges: list[Range], versus: Versus, mine: int
    ) -> list[Choice]:
        pot = seen.pot
        future = self.future * future_bets(seen.street, self._small, self._big)
        share = versus.now.share
        opponents = max(1, len(seen.opponents))
        out: list[Choice] = []
        if options.fold is not None:
            out.append(Choice(options.fold, 0.0))
        passive = options.check or options.call or options.bring_in
        if passive is not None:
            cost = passive.to - mine
            gain = share * (pot + cost + (opponents + 1) * future)
            out.append(Choice(passive, gain - cost - future))
        for wager in options.wagers:
            out.append(Choice(wager, self._wager_value(seen, wager, ranges, versus, mine, future)))
        return out

    def _wager_value(
        self,
        seen: Seen,
        wager: Action,
        ranges: list[Range],
        versus: Versus,
        mine: int,
        future: float,
    ) -> float:
        """The pot when everyone folds, the called share of a bigger pot, or a raise to face.

        Raised, the bot calls the raise or folds, whichever is worth more.
        """
        pot = seen.pot
        cost = wager.to - mine
        raise_by = wager.to - (mine + seen.to_call)
        callers = max(1.0, sum(1.0 - r.fold - r.raises for r in ranges))
        called_pot = pot + cost + callers * raise_by + (callers + 1) * future
        called = versus.called * called_pot - cost - future
        unit = seen.unit
        raised_pot = pot + cost + raise_by + 2 * unit + 2 * future
        raised = max(-cost, versus.raised * raised_pot - cost - unit - future)
        fold, raising = versus.fold, versus.raise_chance
        calling = max(0.0, 1.0 - fold - raising)
        return fold * pot + calling * called + raising * raised

    # -- bluffs ------------------------------------------------------------------------------

    def _bluff(
        self, seen: Seen, options: Options, ranges: list[Range], versus: Versus, mine: int
    ) -> Action | None:
        """Bet a hand that would give up, as often as pot odds make unexploitable.

        Against a bet of ``b`` into ``pot``, a caller's bluff-catcher breaks even
        when bluffs are ``b / (pot + b)`` of the bets; betting that share of the
        give-up hands keeps the bot's bets hard to read. The frequency is scaled
        by how often these opponents really fold (none against a station), and
        halved when the bot's board looks worse than theirs.
        """
        if seen.street == 3 or seen.to_call > 0 or not ranges:
            return None
        if versus.now.share >= 0.5:
            return None  # a hand with showdown value checks; the bluffs are the weakest
        wager = options.wagers[0]
        bet = wager.to - mine
        alpha = bet / (seen.pot + bet)
        folding = 1.0
        for r in ranges:
            folding *= min(1.5, r.fold / PRIOR_FOLD_LATER)
        chance = alpha * min(1.0, folding)
        if any(
            showing(seen.game, seen.mine_up) < showing(seen.game, r.opponent.up) for r in ranges
        ):
            chance *= 0.5
        return wager if self._rng.random() < chance else None


def future_bets(street: int, small: int, big: int) -> int:
    """One bet of each street after ``street``, in chips (the small bet on 4th street)."""
    smalls = 1 if street < 4 else 0
    bigs = 7 - max(street, 4)
    return smalls * small + bigs * big
