"""A look-ahead over the next betting round, played in closed form path by path.

The strong bot values each action by what the pot is worth to it after the
next round (:class:`Ahead`): on each path of the next street it bets or
checks, whichever is worth more, the opponents folding, calling and betting
with the matching parts of their ranges (:class:`stud.bots.shares.Paths`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stud.bots.arrays import FloatArray
from stud.bots.ranges import Range
from stud.bots.seen import Seen
from stud.bots.shares import Paths

RestFolds = tuple[tuple[float, float, float], ...]
"""For each street after the next: how often all fold to my bet there, how often sound players
would, and how much of a sound player's betting is left undone
(:meth:`stud.bots.strong.StrongBot._later_folds`)."""


@dataclass(frozen=True, slots=True)
class Ahead:
    """A look-ahead over the next betting round: what a pot is worth to me after it.

    Along each path of the next street (:class:`stud.bots.shares.Paths`,
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
