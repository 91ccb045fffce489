"""The strong bot: ranges per opponent, equity against them, the expected value of each action.

Every decision follows the same three steps (see docs/bots.md for the design
and what it takes from the literature):

1. **A range per opponent.** Each live opponent's hidden cards are weighed by
   how likely its play makes them (:class:`stud.bots.ranges.Range`). Every
   action is read the same way: a player who takes it with a share ``q`` of
   his hands takes it with his top ``q``, so the hand's percentile within his
   range is weighted to the power ``2 (1 - q) / q``
   (:func:`stud.bots.narrowing.range_exponent`): a completion from a
   stealer says nothing, one from a nit says "top 8%", a prober's bet
   little, a nit's bet much, a check "not the top". On 3rd street the
   percentile is the start's; later it is the place of the hand he
   holds now among the hands that show my board (he acts by what he sees).
   ``q`` is that player's own rate
   (:mod:`stud.bots.players`), fed by every action at the table, the folds
   that end a hand included, and kept across hands (recent ones weighing more).
2. **Equity against those ranges**, by one small Monte Carlo
   (:class:`stud.bots.estimate.Estimator`) dealt in groups that share the
   next street's cards: my share now, and against the part of each range
   that folds, calls or raises a wager of mine (the read rates, applied to
   the range as narrowed: a player who showed strength folds less than his
   average; the model checked against each player's answers to my wagers,
   :mod:`stud.bots.calibrate`), path by path for the next street.
3. **The expected value of each action** (fold, check or call, bet or
   raise), with a look-ahead over the next betting round
   (:class:`stud.bots.lookahead.Ahead`): on each path of the next street
   the bot bets or checks, whichever is worth more, opponents folding,
   calling and betting into it with the matching parts of their ranges,
   and it calls a bet there only when its share pays for it (a bet I have
   not seen yet comes from the strong part of a range, a check behind from
   the rest). After that round the showdown share stands for the rest of
   the hand, plus what betting on wins against a player seen folding more
   often than a sound one on the streets left, or betting less often
   (:meth:`stud.bots.lookahead.Ahead.rest_value`). The best action is
   played. When giving up is best and the opponents may fold, the bot
   bluffs with the frequency that pot odds make unexploitable
   (``bet / (pot + bet)``), scaled by how often these opponents really fold
   (never against a calling station).

Exploitation is on top of this by construction: the fold rates, the
completion and betting rates that set how much an action narrows a range,
and the bluffing frequency all come from the reads of each opponent, which
start from the prior of a sound player and follow the evidence.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from stud.bots.answers import Answers
from stud.bots.boards import showing
from stud.bots.estimate import MIN_EFFECTIVE, Estimator
from stud.bots.lookahead import Ahead, RestFolds
from stud.bots.narrowing import read_range
from stud.bots.options import Options
from stud.bots.player_stats import PRIOR_BET_CHECKED, PRIOR_FOLD_LATER, led_before
from stud.bots.players import HALF_LIFE, PlayerReads
from stud.bots.ranges import Range
from stud.bots.seen import Opponent, Seen, read_view
from stud.bots.shares import Versus
from stud.game import RAISE_CAP, Action, HandView


@dataclass(frozen=True, slots=True)
class Choice:
    """An action and its expected value in chips (what is already in the pot is sunk)."""

    action: Action
    value: float


class StrongBot:
    """Range-tracking, equity- and EV-driven, exploiting each opponent from its own reads."""

    name = "strong"
    hindsight = 0.0
    """From 4th street: how much a sound opponent's folds and raises follow how its hand ends
    rather than how it looks now (see :class:`stud.bots.shares.Versus`; on 3rd street they
    follow its start; scaled down for a player who folds more than a sound one).

    None: he answers by the cards he holds and the board he sees.
    A run-out's share is 0, 1/2 or 1, so ranking by it put every raise of his on exactly the
    run-outs I lose and his calls on the ones I win, and overrated my raises.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = 256,
        paths: int = 8,
        half_life: float | None = HALF_LIFE,
        pooled: bool = True,
    ) -> None:
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(self._rng.getrandbits(64))
        self.samples = samples
        """Monte Carlo run-outs per estimate."""
        self.paths = paths
        """Deals of the next street the run-outs are grouped in, for the look-ahead."""
        self._estimators: dict[str, Estimator] = {}
        self._small, self._big = 0, 0
        """The hand's small and big bet, set at each decision."""
        self.reads = PlayerReads(half_life=half_life, pooled=pooled)
        """What this bot has learnt of each opponent so far (every action it saw, recent
        hands weighing more, :attr:`PlayerReads.half_life`; None: never forgets), shrunk
        towards what it saw of every player (``pooled``) or a sound player's play."""
        self.answers = Answers()
        """The model's fold chances for the opponents facing my last wager, until they answer."""
        self.last_choices: tuple[Choice, ...] = ()
        """The actions weighed in the last decision, with their values (for diagnosis)."""
        for game in ("stud", "stud8", "razz"):
            self._estimator(game)  # tables and banks now, not in the first decision's 50 ms

    def _estimator(self, game: str) -> Estimator:
        estimator = self._estimators.get(game)
        if estimator is None:
            estimator = Estimator(
                game,
                self._np,
                self.samples,
                min_effective=MIN_EFFECTIVE,
                sample_starts=True,
                draws=True,
            )
            self._estimators[game] = estimator
        return estimator

    # -- what the table shows -----------------------------------------------------------------

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        """Count every action the view shows (hand-ending folds too), per opponent."""
        if view.viewer is not None:
            self.reads.update(view, players)
            self.answers.update(view, self.reads)

    # -- the decision ------------------------------------------------------------------------

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        self.reads.update(view)
        self.answers.update(view, self.reads)
        self.last_choices = ()
        if len(legal) == 1:
            return legal[0]
        options = Options(legal)
        ranges = [self._range(seen, opp) for opp in seen.opponents]
        versus = self._estimator(seen.game).against(seen, ranges, paths=self.paths)
        mine = view.seats[seen.me].bet
        self._small, self._big = view.small_bet, view.big_bet
        choices = self._choices(seen, options, ranges, versus, mine)
        self.last_choices = tuple(choices)
        action = max(choices, key=lambda c: c.value).action
        if not action.kind.is_wager and options.wagers:
            action = self._bluff(seen, options, ranges, versus, mine) or action
        if action.kind.is_wager:
            self.answers.expect(view, seen, ranges, versus.modelled)
        return action

    # -- ranges ------------------------------------------------------------------------------

    def _range(self, seen: Seen, opp: Opponent) -> Range:
        """How ``opp``'s play narrows its hidden cards, as much as its habits say it does
        (:func:`stud.bots.narrowing.read_range`, from this bot's reads of him)."""
        return read_range(self.reads.stats(opp.seat), seen, opp, self.hindsight)

    def _later_folds(self, seen: Seen, ranges: list[Range], *, raised: bool = False) -> RestFolds:
        """For each street after the next one, how often every opponent folds to a bet there,
        and how often sound players would (each at his read rate for that street, after
        having led the betting or not, as he has by now; ``raised``: as he will have when
        he raises my wager).

        The look-ahead lets the showdown share after the next round stand for the
        rest of the hand: between sound players the fold equity and the bets still
        to come roughly even out. A player who folds more than a sound one
        (:data:`stud.bots.player_stats.PRIOR_FOLD_LATER`) gives some of it away: what that
        excess wins is what betting on is worth beyond the share (:meth:`Ahead.rest_value`).
        The third number is how much of a sound player's betting he leaves undone
        (1 - his rate of opening the betting on the street over a sound player's, at
        least 0): what his bets do not take back. Exploitation on top of the base,
        from each opponent's own reads.
        """
        live = [r.opponent for r in ranges if not r.opponent.all_in]
        if len(live) != 1:
            # Heads-up only: "all fold" as a product of rates read heads-up or not, and the
            # pot growing by one call a street, do not hold at a table of several; measured
            # six-handed against strong-v1 in Razz they cost 7 bb/100.
            return ()
        out = []
        for street in range(seen.street + 2, 8):
            folds = sound = 1.0
            passive = 0.0
            for opp in live:
                stats = self.reads.stats(opp.seat)
                if raised or led_before(opp.line.aggressive, street):
                    # After leading the betting a player folds less than his average.
                    folds *= stats.fold_facing(street, None, True)[0]
                else:
                    # His average over the street, not his rate after passive lines: a sound
                    # player folds more there too (his range is weaker), which his share prices.
                    folds *= stats.fold_at(street)
                sound *= PRIOR_FOLD_LATER
                # How much of a sound player's betting he leaves undone: that share of what
                # betting on wins against a sound folder is not taken back by his bets.
                passive = 1.0 - min(1.0, stats.open_at(street) / PRIOR_BET_CHECKED)
            out.append((folds, sound, passive))
        return tuple(out)

    # -- expected values ---------------------------------------------------------------------

    def _choices(
        self, seen: Seen, options: Options, ranges: list[Range], versus: Versus, mine: int
    ) -> list[Choice]:
        pot = seen.pot
        rest = self._later_folds(seen, ranges), self._later_folds(seen, ranges, raised=True)
        ahead = Ahead.of(seen, ranges, self._small, self._big, *rest)
        out: list[Choice] = []
        if options.fold is not None and options.check is None:
            out.append(Choice(options.fold, 0.0))  # never fold what a check keeps for free
        now = versus.now_paths
        if options.check is not None:
            value = ahead.value(now, pot)
            to_act = [o for o in seen.opponents if not o.line.checks[seen.street] and not o.all_in]
            if to_act and now is not None:
                # Someone may still bet this street (each at his read rate for it), with the
                # strong part of his range: call it or fold on my share against that part;
                # or all check behind, with the rest.
                checks = 1.0
                for opp in to_act:
                    checks *= 1.0 - self.reads.stats(opp.seat).open_at(seen.street, first=False)
                bet = 1.0 - checks
                unit = seen.unit
                faced = max(0.0, ahead.value(now.against_top(bet), pot + 2 * unit) - unit)
                quiet = ahead.value(now.against_top(bet, rest=True), pot)
                value = bet * faced + (1.0 - bet) * quiet
            out.append(Choice(options.check, value))
        passive = options.call or options.bring_in
        if passive is not None:
            cost = passive.to - mine
            out.append(Choice(passive, ahead.value(now, pot + cost) - cost))
        for wager in options.wagers:
            out.append(Choice(wager, self._wager_value(seen, wager, ranges, versus, mine, ahead)))
        return out

    def _wager_value(
        self,
        seen: Seen,
        wager: Action,
        ranges: list[Range],
        versus: Versus,
        mine: int,
        ahead: Ahead,
    ) -> float:
        """The pot when everyone folds, the called share of a bigger pot, or a raise to face.

        Called or raised, the hand goes on: its value is the look-ahead's over
        the next betting round (:class:`Ahead`). Raised, the bot calls the
        raise, folds, or (heads-up, below the cap) raises back, whichever is
        worth more (:meth:`_raise_back`).
        """
        pot = seen.pot
        cost = wager.to - mine
        raise_by = wager.to - (mine + seen.to_call)
        callers = max(1.0, sum(1.0 - r.fold - r.raises for r in ranges))
        called = ahead.value(versus.called_paths, pot + cost + callers * raise_by) - cost
        unit = seen.unit
        raised_pot = pot + cost + raise_by + 2 * unit
        raised_value = ahead.value(versus.raised_paths, raised_pot, raised=True)
        raised = max(
            -cost,
            raised_value - cost - unit,
            self._raise_back(seen, ranges, versus, ahead, raised_pot - unit) - cost,
        )
        fold, raising = versus.fold, versus.raise_chance
        calling = max(0.0, 1.0 - fold - raising)
        return fold * pot + calling * called + raising * raised

    def _raise_back(
        self, seen: Seen, ranges: list[Range], versus: Versus, ahead: Ahead, pot: float
    ) -> float:
        """What raising his raise of my wager is worth, from the pot ``pot`` his raise made
        (heads-up, when the cap allows it): he folds as often as he was seen folding a raise
        of his raise, and calls with the strongest part of his raising hands.

        A player who raises and then gives up a re-raise (the gauntlet's nit folds his
        re-raise when it is capped) makes my first raise worth more than calling his raise
        would: that is how a raising war with him ends.
        """
        if len(ranges) != 1 or ranges[0].opponent.all_in or seen.wagers + 2 >= RAISE_CAP:
            return -math.inf
        unit = seen.unit
        stats = self.reads.stats(ranges[0].opponent.seat)
        folds = stats.fold_rate(seen.street, wagered=True, high=True)
        calls = ahead.value(
            versus.raised_paths.against_top(1.0 - folds) if versus.raised_paths else None,
            pot + 3 * unit,
            raised=True,
        )
        return folds * pot + (1.0 - folds) * (calls - 2 * unit)

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
