"""The strong bot: ranges per opponent, equity against them, the expected value of each action.

Every decision follows the same three steps (see docs/bots.md for the design
and what it takes from the literature):

1. **A range per opponent.** Each live opponent's hidden cards are weighed by
   how likely its play makes them (:class:`stud.bots.estimate.Range`). Every
   action is read the same way: a player who takes it with a share ``q`` of
   his hands takes it with his top ``q``, so the hand's percentile within his
   range is weighted to the power ``2 (1 - q) / q`` (:func:`range_exponent`):
   a completion from a stealer says nothing, one from a nit says "top 8%", a
   prober's bet little, a nit's bet much, a check "not the top". On 3rd
   street the percentile is the start's; later it is the place of the hand he
   holds now among the hands that show my board (he acts by what he sees).
   ``q`` is that player's own rate
   (:mod:`stud.bots.players`), fed by every action at the table, the folds
   that end a hand included, and kept across hands.
2. **Equity against those ranges**, by one small Monte Carlo
   (:class:`stud.bots.estimate.Estimator`) dealt in groups that share the
   next street's cards: my share now, and against the part of each range
   that folds, calls or raises a wager of mine (the read rates, applied to
   the range as narrowed: a player who showed strength folds less than his
   average; the model checked against each player's answers to my wagers,
   :mod:`stud.bots.calibrate`), path by path for the next street.
3. **The expected value of each action** (fold, check or call, bet or
   raise), with a look-ahead over the next betting round (:class:`Ahead`):
   on each path of the next street the bot bets or checks, whichever is worth
   more, opponents folding, calling and betting into it with the matching
   parts of their ranges, and it calls a bet there only when its share pays
   for it (a bet I have not seen yet comes from the strong part of a range, a check
   behind from the rest). After that round the showdown share stands for the rest of
   the hand, plus what betting on wins against a player seen folding more often than a
   sound one on the streets left, or betting less often (:meth:`Ahead.rest_value`). The
   best action is played. When giving up is best and the opponents may fold, the bot bluffs
   with the frequency that pot odds make unexploitable (``bet / (pot + bet)``),
   scaled by how often these opponents really fold (never against a calling
   station).

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
from stud.bots.boards import door_class, showing
from stud.bots.estimate import MIN_EFFECTIVE, Estimator, FloatArray, Paths, Range, Versus
from stud.bots.options import Options
from stud.bots.players import (
    PRIOR_BET_CHECKED,
    PRIOR_FOLD_LATER,
    PlayerReads,
    PlayerStats,
    led_before,
)
from stud.bots.seen import Opponent, Seen, read_view
from stud.game import RAISE_CAP, Action, HandView

RestFolds = tuple[tuple[float, float, float], ...]
"""For each street after the next: how often all fold to my bet there, how often sound players
would, and how much of a sound player's betting is left undone (:meth:`StrongBot._later_folds`)."""

FUTURE_BETS = 0.0
"""Share of each later street's bet that both sides are expected to put in (showdown odds)."""

MAX_EXPONENT = 6.0
"""The sharpest narrowing of a range by one street's play (a top-15% range, about)."""


MAX_START_EXPONENT = 38.0
"""The sharpest narrowing by 3rd street's play (a top-5% range): those down cards are dealt
from the range (:attr:`stud.bots.estimate.Estimator.sample_starts`), not weighed, so a
narrow range costs no run-outs."""


MAX_LATER_EXPONENT = 2 * MAX_EXPONENT
"""The sharpest narrowing by 4th to 7th street's play, all actions together. From 4th to
6th street the down cards are dealt from the range (:meth:`stud.bots.estimate.Estimator.
_pair_range`), so it costs no run-outs; the reads' own cap (38) was tried there and won
nothing more against ``strong-v1`` (docs/bots.md, sixth pass)."""


def range_exponent(rate: float, cap: float = MAX_EXPONENT) -> float:
    """The exponent ``a`` of ``percentile ** a`` for a player who acts so with a ``rate`` share.

    A player taking an action with its top ``q`` of hands holds, on average, a
    hand at the percentile ``1 - q/2``; weighting percentiles by ``p ** a``
    gives the mean ``(a + 1) / (a + 2)``, so ``a = 2 (1 - q) / q``: 0 for a
    player who always does it (the action says nothing), 6 for the top 25%.
    """
    q = min(1.0, max(0.05, rate))
    return min(cap, 2.0 * (1.0 - q) / q)


def call_exponent(fold: float, raises: float, cap: float = MAX_EXPONENT) -> float:
    """The exponent for a call by a player who folds a ``fold`` share and raises a ``raises`` one.

    He calls with the band of his hands between the two, whose mean percentile
    is ``(fold + 1 - raises) / 2``: the mean of a top ``1 - fold + raises``
    (:func:`range_exponent`). A tight player's call says "a strong hand" as
    surely as a raise would; a calling station's says nothing.
    """
    return range_exponent(1.0 - fold + raises, cap)


def _reraises(seen: Seen) -> bool:
    """Whether my wager now would re-raise a raise (the street's third wager or more): after
    his own wager, the level his folds and re-raises are read at."""
    return seen.wagers >= 2


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
    rather than how it looks now (see :class:`stud.bots.estimate.Versus`; on 3rd street they
    follow its start; scaled down for a player who folds more than a sound one).

    None (docs/bots.md, ninth pass): he answers by the cards he holds and the board he sees.
    A run-out's share is 0, 1/2 or 1, so ranking by it put every raise of his on exactly the
    run-outs I lose and his calls on the ones I win, and overrated my raises.
    """

    def __init__(self, seed: int | None = None, *, samples: int = 256, paths: int = 8) -> None:
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(self._rng.getrandbits(64))
        self.samples = samples
        """Monte Carlo run-outs per estimate."""
        self.paths = paths
        """Deals of the next street the run-outs are grouped in, for the look-ahead."""
        self._estimators: dict[str, Estimator] = {}
        self._small, self._big = 0, 0
        """The hand's small and big bet, set at each decision."""
        self.reads = PlayerReads()
        """What this bot has learnt of each opponent so far (every action it saw)."""
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
        """How ``opp``'s play narrows its hidden cards, as much as its habits say it does."""
        stats = self.reads.stats(opp.seat)
        line = opp.line
        start = 0.0
        cap = MAX_START_EXPONENT
        if line.opened[3]:
            # The first wager says what this player's rate of first wagers says: the
            # bring-in's completions and the steals from other seats are read apart.
            start += range_exponent(stats.open_third(line.had_bring_in), cap)
        raised_third = line.aggressive[3] - line.opened[3]
        # What he answered on 3rd street was a wager from a door like the scariest that wagered.
        door = self._third_door(seen, opp)
        if raised_third:
            # A raise says what this player's raising rate says (a bully's, little).
            start += range_exponent(stats.raise_third_as(line.brought_in, door), cap) * raised_third
        if line.called_wager[3]:
            # A call of my raise after wagering himself is read by how he meets a raise then.
            back = line.aggressive[3] > 0
            posted = line.brought_in
            start += call_exponent(
                stats.fold_rate(3, wagered=back, posted=posted, door=door),
                stats.raise_rate(3, wagered=back, posted=posted, door=door),
                cap,
            )
        elif line.calls[3]:
            start += 0.3
        start = min(cap, start)
        # Later streets: each action narrows the range by how rarely this player takes it.
        cap = MAX_LATER_EXPONENT
        bets: list[float] = []
        checks: list[float] = []
        for street in range(4, seen.street + 1):
            opened = int(line.opened[street])
            bet = opened * range_exponent(stats.open_at(street), cap)
            bet += (line.aggressive[street] - opened) * range_exponent(stats.raise_at(street), cap)
            back = line.aggressive[street] > 0
            bet += line.calls[street] * call_exponent(
                stats.fold_rate(street, wagered=back), stats.raise_rate(street, wagered=back), cap
            )
            bets.append(bet)
            checks.append(line.checks[street] * 0.5 * range_exponent(1.0 - stats.open_at(street)))
        # The caps hold for the whole line: a long line is scaled down street by street.
        later, checked = min(cap, sum(bets)), min(MAX_EXPONENT, sum(checks))
        scale_bets = later / sum(bets) if later > 0 else 0.0
        scale_checks = checked / sum(checks) if checked > 0 else 0.0
        later_at = tuple(
            (b * scale_bets, c * scale_checks) for b, c in zip(bets, checks, strict=True)
        )
        fold = self._fold_rate(seen, opp, stats)
        wagered = opp.line.aggressive[seen.street] > 0
        posted = opp.line.brought_in
        mine = door_class(seen.game, seen.mine_up[0]) if seen.street == 3 else None
        high = _reraises(seen)
        # How many spots his raise rate was counted in, over ranges his line had narrowed as
        # it has here: the seen rate takes over from the model's mapping as they accumulate.
        raise_evidence = 0
        if not opp.all_in and (wagered or seen.street >= 4):
            raise_evidence = (
                stats.raised_back_spots(seen.street, high)
                if wagered
                else stats.faced_at[seen.street]
            )
        raises = (
            0.0
            if opp.all_in
            else stats.raise_rate(seen.street, wagered=wagered, posted=posted, door=mine, high=high)
        )
        # A player who folds more than a sound one folds some winners too.
        late = (
            0.0
            if seen.street == 3
            else self.hindsight * min(1.0, PRIOR_FOLD_LATER / max(fold, 1e-6))
        )
        upcoming = min(7, seen.street + 1)
        next_fold = 0.0 if opp.all_in else stats.fold_at(upcoming)
        next_open = 0.0 if opp.all_in else stats.open_at(upcoming, first=False)
        next_open_first = 0.0 if opp.all_in else stats.open_at(upcoming, first=True)
        fold_seen, evidence = self._folds_seen(seen, opp, stats)
        # Next street: his folds seen there after leading the betting (as he has, if he
        # bet or raised on this street or before; into 4th, if he wagered on 3rd) or not,
        # whatever the boards.
        led = led_before(line.aggressive, seen.street + 1)
        next_seen, next_evidence = stats.fold_facing(upcoming, None, led)
        if opp.all_in or seen.street >= 7:
            next_evidence = 0
        calibration = stats.calibration
        return Range(
            opp, start, 0.0, fold, raises, late, later, checked, next_fold, next_open,
            fold_seen, evidence, next_seen, next_evidence, next_open_first,
            raise_evidence, later_at,
            fold_shift=calibration.shift(seen.street, wagered),
            next_fold_shift=calibration.shift(upcoming) if seen.street < 7 else 0.0,
        )  # fmt: skip

    def _folds_seen(self, seen: Seen, opp: Opponent, stats: PlayerStats) -> tuple[float, int]:
        """How often ``opp`` was seen folding to a bet in spots like this one, and in how many:
        the same street, my board looking better than his or not, his having led the betting
        on an earlier street or not (4th to 7th street, before he has wagered on it); or,
        once he has wagered on this street, raised back after wagering on it. That rate is
        counted in exactly such spots, over the ranges he brings to them: it is what he does
        there, not a cut of his whole range (a player who folds a raised bet half the time
        is not one who never folds because his bet showed strength). On 3rd street before
        he wagers the read rate is not mapped and stands alone."""
        if opp.all_in:
            return 0.0, 0
        if opp.line.aggressive[seen.street] > 0:
            high = _reraises(seen)
            return (
                stats.fold_back_as(seen.street, high),
                stats.raised_back_spots(seen.street, high),
            )
        if seen.street < 4:
            return 0.0, 0
        better = showing(seen.game, seen.mine_up) > showing(seen.game, opp.up)
        led = led_before(opp.line.aggressive, seen.street)
        return stats.fold_facing(seen.street, better, led)

    def _fold_rate(self, seen: Seen, opp: Opponent, stats: PlayerStats) -> float:
        """How often ``opp`` folds to my next wager now (less once it has wagered itself)."""
        if opp.all_in:
            return 0.0
        wagered = opp.line.aggressive[seen.street] > 0
        door = door_class(seen.game, seen.mine_up[0]) if seen.street == 3 else None
        high = _reraises(seen) if wagered else None
        return stats.fold_rate(
            seen.street, wagered=wagered, posted=opp.line.brought_in, door=door, high=high
        )

    @staticmethod
    def _third_door(seen: Seen, opp: Opponent) -> int | None:
        """The class of the scariest door among the others who wagered on 3rd street (me
        included): what ``opp``'s 3rd-street answers answered (None: nobody did)."""
        doors = [seen.mine_up[0]] if seen.my_line.aggressive[3] else []
        doors += [o.up[0] for o in seen.opponents if o is not opp and o.line.aggressive[3]]
        if not doors:
            return None
        return max(door_class(seen.game, card) for card in doors)

    def _later_folds(self, seen: Seen, ranges: list[Range], *, raised: bool = False) -> RestFolds:
        """For each street after the next one, how often every opponent folds to a bet there,
        and how often sound players would (each at his read rate for that street, after
        having led the betting or not, as he has by now; ``raised``: as he will have when
        he raises my wager).

        The look-ahead lets the showdown share after the next round stand for the
        rest of the hand: between sound players the fold equity and the bets still
        to come roughly even out. A player who folds more than a sound one
        (:data:`stud.bots.players.PRIOR_FOLD_LATER`) gives some of it away: what that
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
            # six-handed against strong-v1 in Razz they cost 7 bb/100 (docs/bots.md).
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


@dataclass(frozen=True, slots=True)
class Ahead:
    """A look-ahead over the next betting round: what a pot is worth to me after it.

    Along each path of the next street (:class:`stud.bots.estimate.Paths`,
    where the opponents fold, call and bet as their reads say, with the
    weaker and the stronger parts of their ranges), with a pot ``P`` and the
    next street's bet ``B``, I take the better of

    - **betting**: all fold (I take ``P``), or the callers' hands stay and I
      get my share against them of ``P`` plus the bets;
    - **checking**: someone bets (with his strong part), and I call only if
      my share against that part pays for it, else I fold; or nobody bets
      and the card is free.

    The path's showdown share after that round stands for the rest of the
    hand. The option to fold a path gone wrong is what pot odds alone miss (a
    draw is worth more than its share), and the bets a dominated hand must
    call or fold to are what they miss the other way.
    """

    bet: int
    """The next street's bet in chips (0: no next street, the showdown comes)."""
    opponents: int
    rest: RestFolds = ()
    """The streets after the next, as the betting stands (:data:`RestFolds`) ..."""
    rest_raised: RestFolds = ()
    """... and when they have raised my wager (they rarely give up then)."""
    rest_bet: int = 0
    """The bet on those streets."""

    @staticmethod
    def of(
        seen: Seen,
        ranges: list[Range],
        small: int,
        big: int,
        rest: RestFolds = (),
        rest_raised: RestFolds = (),
    ) -> Ahead:
        """The next round's bet, how many opponents may still bet, and the rest's folds."""
        street = seen.street
        bet = 0 if street >= 7 else small if street == 3 else big
        live = sum(1 for r in ranges if not r.opponent.all_in)
        return Ahead(
            bet if live else 0,
            max(1, live),
            rest=rest if live else (),
            rest_raised=rest_raised if live else (),
            rest_bet=big,
        )

    def rest_value(
        self, share: FloatArray, pot: FloatArray | float, *, raised: bool = False
    ) -> FloatArray:
        """What a pot is worth after the next round: my share of it, plus what betting on
        wins against players who fold more than sound ones.

        Between sound players the share stands for the rest of the hand. Against
        players who fold more, on each street left a bet wins what it would win
        with their folds less what it would win with a sound player's (when that
        is more than nothing: betting on is an option): the pot more often, a
        call from a stronger part of their range less often. The folds are the
        weakest part of what is left: my share falls linearly from their
        weakest hand to their strongest, as steeply as a mean of ``s`` allows.

        What betting on wins over checking on against a sound folder is what
        the balanced base lets a sound player's bets take back. A passive player
        leaves a share ``passive`` of a sound player's betting undone, and that
        share of it is added too (a nit opens the betting a sixth of the times
        he may: his folds and my value bets are not paid back by his bets).
        """
        b = self.rest_bet
        rest = self.rest_raised if raised else self.rest

        def worth(s: FloatArray, p: FloatArray, k: int) -> FloatArray:
            if k == len(rest):
                return s * p
            folds, sound, passive = rest[k]
            if folds <= sound and passive <= 0.0:
                return worth(s, p, k + 1)
            spread = np.minimum(s, 1.0 - s)
            # Checking on, called by them, called by sound players: one call a street.
            after = worth(
                np.concatenate((s, s - spread * folds, s - spread * sound)),
                np.concatenate((p, p + 2 * b, p + 2 * b)),
                k + 1,
            )
            on, called, called_sound = np.split(after, 3)
            lead = folds * p + (1.0 - folds) * (called - b)
            lead_sound = sound * p + (1.0 - sound) * (called_sound - b)
            # What betting on is worth over checking on, as far as a sound player's folds go,
            # is taken back by a sound player's bets; by a passive player's, only in part.
            edge = np.maximum(0.0, np.minimum(lead, lead_sound) - on)
            return on + np.maximum(0.0, lead - lead_sound) + passive * edge

        pots = np.broadcast_to(np.asarray(pot, dtype=np.float64), np.shape(share))
        return worth(np.asarray(share, dtype=np.float64), np.asarray(pots), 0)

    def value(self, paths: Paths | None, pot: float, *, raised: bool = False) -> float:
        """What a pot of ``pot`` chips is worth to me through the next round, in chips
        (``raised``: after they raised my wager)."""
        if paths is None:
            return 0.0
        weight = paths.weight / paths.weight.sum()
        if self.bet == 0:
            return float(weight @ paths.share) * pot
        bet = self.bet
        players = self.opponents + 1
        called = self.rest_value(paths.called, pot + 2 * bet, raised=raised)
        lead = paths.fold * pot + (1.0 - paths.fold) * (called - bet)
        faced = np.maximum(0.0, paths.bet_share * (pot + players * bet) - bet)
        quiet = self.rest_value(paths.quiet_share, pot, raised=raised)
        check = paths.bets * faced + (1.0 - paths.bets) * quiet
        best = np.maximum(lead, check)
        return float(weight @ best)
