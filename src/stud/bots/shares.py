"""What one Monte Carlo says: my share of the pot, against each answer to a wager, path by path.

A :class:`Run` holds the run-outs' shares and weights and each opponent's
strength in each. It cuts each range into the parts that fold, call or raise
a wager of mine (:class:`Versus`), the fold chance moved towards what the
player was seen doing (:func:`fold_chance`), and plays the next street path
by path (:class:`Paths`): the inputs of the strong bot's expected values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots.arrays import FloatArray
from stud.bots.calibrate import shifted
from stud.bots.ranges import Range


@dataclass(frozen=True, slots=True)
class Estimate:
    """The bot's chances, as shares of the pot at the showdown (weighted over run-outs)."""

    share: float
    """Expected share of the pot if every live player goes to the showdown."""
    scoop: float
    """Chance of taking the whole pot alone."""
    low: float
    """Stud8: chance of winning (at least part of) the low half; 0 in other games."""
    samples: int
    effective: float
    """Effective sample size after weighting (Kish); small means the ranges are narrow."""


@dataclass(frozen=True, slots=True)
class Paths:
    """The next street, path by path: my share, and how the opponents meet a bet there.

    A path is one deal of the next street's cards I will see (mine and the
    opponents' next up cards); each figure is a weighted mean over the
    run-outs that continue it. On each path the opponents rank their hands by
    how they look (their strength now; how the run-out ends only breaks ties),
    fold the weakest part to my bet as often as they fold to a later bet, and
    bet the strongest part into my check as often as they open the betting.
    One path (the whole sample) where the hand has no next street.

    Not half by how the run-out ends (``0.5 * strength + 0.5 * (1 - my
    share)``): a run-out's share is 0, 1/2 or 1, so that ranks by the outcome
    first, every fold on exactly the run-outs I win, every call and bet on the
    ones I lose, as no player who cannot see my cards answers. It undervalues
    going on against his bet and betting into him: his folds are never of
    hands that beat mine, his calls never of hands mine beat.
    """

    share: FloatArray
    weight: FloatArray
    fold: FloatArray
    """The chance that every opponent folds to my bet."""
    called: FloatArray
    """My share against the hands that call it."""
    bets: FloatArray
    """The chance that some opponent bets into my check."""
    bet_share: FloatArray
    """My share against the hands that bet."""
    quiet_share: FloatArray
    """My share against the hands that check behind."""

    def against_top(self, top: float, *, rest: bool = False) -> Paths:
        """These paths against the strongest ``top`` of the ranges (``rest``: the others).

        My share is taken to fall linearly from their weakest hand to their
        strongest, as steeply as its mean allows: against the top ``q`` it is
        ``x - min(x, 1 - x) (1 - q)``, against the rest ``x + min(x, 1 - x) q``.
        For a bet into my check that I have not seen yet (he bets his strong
        part, or checks behind with the rest).
        """
        q = min(max(top, 0.0), 1.0)

        def moved(x: FloatArray) -> FloatArray:
            spread = np.minimum(x, 1.0 - x)
            return np.asarray(x + spread * q if rest else x - spread * (1.0 - q))

        return Paths(
            moved(self.share), self.weight, self.fold, moved(self.called), self.bets,
            moved(self.bet_share), moved(self.quiet_share),
        )  # fmt: skip

    @staticmethod
    def single(share: float = 1.0) -> Paths:
        """One path with this share, nobody folding or betting (no next street to speak of)."""
        one = np.array([share])
        zero = np.zeros(1)
        return Paths(one, np.ones(1), zero, one, zero, one, one)


FOLD_EVIDENCE = 8.0
"""How many observed spots weigh as much as the model's fold rate (the shrinkage's prior):
few, for a spot like the river facing a bet from a better board comes up a few times in a
hundred hands, and a player who gives up most of those must be read as one early."""


def fold_chance(modelled: float, seen: float, evidence: float) -> float:
    """The chance a player folds to my wager: the model's rate, moved to what he was seen doing.

    ``modelled`` is his read rate applied to his range as his line narrowed it
    (:meth:`_Run.rate`); ``seen`` is how often he folded in comparable spots,
    over ``evidence`` of them. The observed frequency is shrunk towards the
    model by :data:`FOLD_EVIDENCE` spots' weight: against a stranger the model
    stands, against a player seen folding 80% of river bets from a scary board
    the 80% takes over as the spots accumulate. A nit is attacked because he is
    seen to fold, and only as far as he is seen to.
    """
    if evidence <= 0:
        return modelled
    return (evidence * seen + FOLD_EVIDENCE * modelled) / (evidence + FOLD_EVIDENCE)


@dataclass(frozen=True, slots=True)
class Versus:
    """My chances against ranges, now and in each answer to the wager I am about to make.

    Each opponent folds the weakest ``fold`` of its range, raises with the
    strongest ``raises`` and calls with the rest: the chance of each answer
    (any raise counts first, then any call) and my share against the hands
    that give it.
    """

    now: Estimate
    called: float
    """My share of the pot when it is called and not raised."""
    fold: float
    """The chance that every opponent folds to the wager."""
    raised: float = 0.0
    """My share of the pot when it is raised."""
    raise_chance: float = 0.0
    """The chance that some opponent raises."""
    now_paths: Paths | None = None
    """My share along each path of the next street, against the whole ranges."""
    called_paths: Paths | None = None
    """... against the hands that call my wager."""
    raised_paths: Paths | None = None
    """... against the hands that raise it."""
    modelled: tuple[float, ...] = ()
    """Each opponent's chance to fold to the wager by the model alone (before its shift and
    before what he was seen doing), for checking the model against his answer."""


@dataclass(frozen=True, slots=True)
class Run:
    """One Monte Carlo: my share and its weight in each run-out, each opponent's strength."""

    share: FloatArray
    weights: FloatArray
    strengths: FloatArray
    """(opponents, run-outs): each opponent's strength now (its cards so far) in each run-out."""
    low_share: FloatArray | None
    groups: int = 1
    """Run-outs come in this many equal blocks, each sharing the next street's cards."""
    places: FloatArray | None = None
    """(opponents, run-outs): the hand's percentile within its range before the later
    streets' play narrowed it (NaN where that play did not narrow it)."""
    spans: FloatArray | None = None
    """(opponents, run-outs): the width of the percentiles the hand shares with its ties."""
    first: npt.NDArray[np.bool_] | None = None
    """(groups,): whether I act first on the next street along each path (my board, with
    the path's up cards, the best showing)."""

    def rate(self, i: int, rate: float, *, top: bool = False) -> float:
        """Opponent ``i``'s read ``rate`` as it applies to its narrowed range.

        A player who folds the bottom ``rate`` of his hands (or bets the top
        ``rate``, ``top``) folds less (bets more) once his play has shown a
        strong range: the share of his range now in that bottom (top) part.
        The read rates are averages over all his hands; this is what they
        come to for the hands he can hold here.
        """
        if self.places is None or np.isnan(self.places[i, 0]):
            return rate
        place = self.places[i]
        span = np.zeros_like(place) if self.spans is None else self.spans[i]
        # A class of tied hands straddling the cut is cut in proportion: the strongest
        # class a raise narrows to holds percentiles up to 1, not only its middle.
        cut = 1.0 - rate if top else rate
        edge = place + 0.5 * span if top else place - 0.5 * span
        inside = (edge - cut) if top else (cut - edge)
        part = np.where(span > 0, np.clip(inside / np.maximum(span, 1e-12), 0.0, 1.0), inside > 0)
        return float(self.weights @ part) / float(self.weights.sum())

    def paths(
        self,
        folds: list[float],
        opens: list[tuple[float, float]],
        mask: npt.NDArray[np.bool_] | None = None,
    ) -> Paths:
        """The next street path by path (:class:`Paths`), over the run-outs in ``mask``.

        ``opens`` holds each opponent's rate of betting into my check and of
        betting first: on a path where I act first he can only bet into my
        check; where he acts first, he bets at his first-to-act rate.
        """
        k = self.groups
        w = (self.weights if mask is None else self.weights * mask).reshape(k, -1)
        weight = w.sum(axis=1)
        kept = weight > 0
        if not kept.any():
            return self.paths(folds, opens) if mask is not None else Paths.single()
        first = self.first if self.first is not None else np.ones(k, dtype=bool)
        share = self.share.reshape(k, -1)
        stays = np.zeros(w.shape, dtype=bool)
        bets = np.zeros(w.shape, dtype=bool)
        total = np.maximum(weight, 1e-300)[:, None]
        for i, (fold, (behind, ahead)) in enumerate(zip(folds, opens, strict=True)):
            # He answers by how his hand looks; how it ends only breaks ties.
            key = (self.strengths[i] + 1e-3 * (1.0 - self.share)).reshape(k, -1)
            order = np.argsort(key, axis=1, kind="stable")
            cumulative = np.cumsum(np.take_along_axis(w, order, axis=1), axis=1) / total
            place = np.empty_like(cumulative)
            np.put_along_axis(place, order, cumulative, axis=1)
            stays |= place > min(max(fold, 0.0), 1.0)
            opening = np.clip(np.where(first, behind, ahead), 0.0, 1.0)
            bets |= place > (1.0 - opening)[:, None]

        def part(cut: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
            """The share of each path's weight in ``cut``, and my share against it, shrunk."""
            wc = w * cut
            mass = wc.sum(axis=1)
            mine = (wc * share).sum(axis=1)
            overall = float(mine.sum() / mass.sum()) if mass.sum() > 0 else 0.5
            # A path's share rests on few run-outs (fewer still in a cut); taking the
            # better of two lines on noisy shares overrates them, so each is shrunk
            # towards the cut's mean over all paths by its effective sample size.
            effective = mass**2 / np.maximum((wc * wc).sum(axis=1), 1e-300)
            own = np.where(mass > 0, mine / np.maximum(mass, 1e-300), overall)
            shrunk = (effective * own + SHRINK * overall) / (effective + SHRINK)
            return mass / total[:, 0], shrunk

        staying, called = part(stays)
        betting, bet_share = part(bets)
        _, quiet = part(~bets)
        mine = (w * share).sum(axis=1) / total[:, 0]
        return Paths(
            mine[kept], weight[kept], 1.0 - staying[kept], called[kept],
            betting[kept], bet_share[kept], quiet[kept],
        )  # fmt: skip

    def estimate(self) -> Estimate:
        w = self.weights
        total = float(w.sum())
        effective = total**2 / float((w**2).sum())
        share = float(self.share @ w / total)
        scoop = float((self.share >= 1.0) @ w / total)
        low = 0.0 if self.low_share is None else float((self.low_share > 0) @ w / total)
        return Estimate(share, scoop, low, len(w), effective)

    def versus(self, ranges: list[Range]) -> Versus:
        """Cut each range by strength: its weakest ``fold`` folds, its strongest ``raises`` raise.

        Strength is a blend of the opponent's hand now and, with the weight
        ``hindsight`` (one per opponent), how the run-out ends for me: players
        fold the hands that look weak and, more often than not, would lose.
        """
        w = self.weights
        total = float(w.sum())
        stays = np.zeros(len(w), dtype=bool)
        raised = np.zeros(len(w), dtype=bool)
        modelled = tuple(self.rate(i, r.fold) for i, r in enumerate(ranges))
        for i, r in enumerate(ranges):
            # His re-raises after wagering were counted in exactly such spots, over the
            # ranges his wager had narrowed: the seen rate takes over from the model's mapping
            # as such spots accumulate, as his folds there do.
            fold, raising, late = (
                fold_chance(shifted(modelled[i], r.fold_shift), r.fold_seen, r.fold_evidence),
                fold_chance(self.rate(i, r.raises, top=True), r.raises, r.raise_evidence),
                r.hindsight,
            )
            key = (1.0 - late) * self.strengths[i] + late * (1.0 - self.share)
            order = np.argsort(key, kind="stable")
            cumulative = np.empty(len(w))
            cumulative[order] = np.cumsum(w[order]) / total
            stays |= cumulative > min(max(fold, 0.0), 1.0)
            raised |= cumulative > 1.0 - min(max(raising, 0.0), 1.0)
        called = stays & ~raised
        mine = self.share
        next_folds = [
            fold_chance(
                shifted(self.rate(i, r.next_fold), r.next_fold_shift),
                r.next_fold_seen,
                r.next_fold_evidence,
            )
            for i, r in enumerate(ranges)
        ]
        next_opens = [
            (
                self.rate(i, r.next_open, top=True),
                self.rate(
                    i, r.next_open if r.next_open_first is None else r.next_open_first, top=True
                ),
            )
            for i, r in enumerate(ranges)
        ]
        fold_all = max(0.0, 1.0 - float(w @ stays) / total)
        overall = float(mine @ w / total)
        return Versus(
            self.estimate(),
            _part(mine, w, called, overall),
            fold_all,
            _part(mine, w, raised, overall),
            float(w @ raised) / total,
            self.paths(next_folds, next_opens),
            self.paths(next_folds, next_opens, called),
            self.paths(next_folds, next_opens, raised),
            modelled,
        )


SHRINK = 16.0
"""How many run-outs' worth a path's share is shrunk towards the mean of all paths."""


def _part(
    share: FloatArray, weights: FloatArray, mask: npt.NDArray[np.bool_], whole: float
) -> float:
    """My weighted share over the run-outs in ``mask`` (``whole`` when there are none)."""
    weight = float(weights @ mask)
    return float((share * mask) @ weights / weight) if weight > 0 else whole
