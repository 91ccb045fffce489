"""How an opponent's play narrows his hidden cards: the likelihood of his line for each hand.

A :class:`Range` holds, for one opponent, how sharply his 3rd-street and
later play narrow his hands (the exponents his read rates give) and how he
meets a wager. The functions here turn it into weights: :func:`log_weight`
for the run-outs already dealt, :func:`pair_range` for dealing his first two
down cards from the range itself. A hand's place is its percentile within
his range, or among the hands that show my board (what he acts against).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots.arrays import FloatArray, IntArray
from stud.bots.seen import Line, Opponent

Strength = Callable[[IntArray], FloatArray]
"""A game's rough strength of partial hands (:func:`stud.bots.strength.strength`)."""
StartTable = npt.NDArray[np.float32]
"""A game's percentile of every three-card start (:func:`stud.bots.starting.start_table`)."""


@dataclass(frozen=True, slots=True)
class Range:
    """How one opponent's play so far narrows its hidden cards, and how it meets a wager.

    Each run-out is weighed by ``percentile(start) ** start`` (its 3rd-street
    play) times ``exp(4 * pressure * (strength - 0.5))`` (its later betting):
    a likelihood of the play given the cards, so the weighted run-outs are
    draws from the opponent's range given what it did (Bayes' rule with a
    uniform prior over the unseen cards). ``fold`` is how often it folds to a
    wager now: it folds the weakest ``fold`` of its range.
    """

    opponent: Opponent
    start: float
    pressure: float
    fold: float = 0.0
    raises: float = 0.0
    """How often it raises a wager now: it raises with the strongest ``raises`` of its range."""
    hindsight: float = 0.0
    """How far "weakest" and "strongest" go by how the hand ends rather than how it looks now."""
    later: float = 0.0
    """4th street on: weight ``percentile(hand now) ** later`` for its bets, raises and calls."""
    checked: float = 0.0
    """... and ``(1 - percentile) ** checked`` for its checks."""
    next_fold: float = 0.0
    """How often it folds to a bet on the next street (for the look-ahead)."""
    next_open: float = 0.0
    """How often it bets into a check on the next street (and see ``next_open_first``)."""
    fold_seen: float = 0.0
    """How often it was seen folding in spots like this one (same street, a board like
    mine against his), for the fold equity of my wager (see :func:`fold_chance`)."""
    fold_evidence: float = 0.0
    """How many such spots were seen (0: the modelled rate alone)."""
    next_fold_seen: float = 0.0
    """How often it was seen folding to a bet on the next street ..."""
    next_fold_evidence: float = 0.0
    """... and in how many spots."""
    next_open_first: float | None = None
    """How often it bets when it acts first on the next street (None: as into a check)."""
    raise_evidence: float = 0.0
    """After his wager on this street: how many times he was seen raised so (at this level),
    whose re-raises ``raises`` counts (see :meth:`Run.versus`)."""
    later_at: tuple[tuple[float, float], ...] = ()
    """``later`` and ``checked`` street by street from 4th (empty: all read on the hand now)."""
    fold_shift: float = 0.0
    """How far the model's fold chance for him is off in this spot, in log-odds, as his
    answers to my wagers showed (:mod:`stud.bots.calibrate`) ..."""
    next_fold_shift: float = 0.0
    """... and on the next street."""

    def streets(self, street: int) -> list[tuple[int, float, float]]:
        """Each street from 4th to ``street`` with the exponents of his play on it (the
        current street last, always there): read by the hand he held on that street."""
        if not self.later_at:
            return [(street, self.later, self.checked)]
        steps = [(4 + k, bets, checks) for k, (bets, checks) in enumerate(self.later_at)]
        earlier = [step for step in steps if step[0] < street and (step[1] or step[2])]
        now = [step for step in steps if step[0] == street] or [(street, 0.0, 0.0)]
        return [*earlier, *now]


def start_exponent(line: Line, raises: float = 1.0, calls: float = 1.0) -> float:
    """How sharply 3rd-street play narrows a range: weight = percentile ** exponent.

    ``raises`` and ``calls`` scale what a raise and a call say (table reads:
    a raise from a maniac means less, a call from a station nothing).
    """
    voluntary = 2.5 * raises * line.aggressive[3] + 1.0 * calls * line.called_wager[3]
    limped = 0.5 * calls * (line.calls[3] > line.called_wager[3])
    return min(5.0, voluntary) + limped


def late_pressure(line: Line, raises: float = 1.0, calls: float = 1.0) -> float:
    """How sharply 4th-to-7th street play narrows a range (bets and raises count most)."""
    return min(4.0, raises * line.late_aggression() + 0.35 * calls * line.late_calls())


@dataclass(frozen=True, slots=True)
class PairRange:
    """Every ordered pair of live cards with its chance in a range (see :func:`pair_range`)."""

    live: IntArray
    chance: FloatArray
    """(L * L,): pair ``(live[k // L], live[k % L])``'s probability."""
    place: FloatArray
    """(L * L,): its hand's percentile before the later streets narrowed the range (or NaN)."""
    span: FloatArray
    """(L * L,): the width of the percentiles its hand shares with equal ones."""

    def draw(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` pairs (n, 2) drawn by their chance."""
        size = len(self.live)
        picked = rng.choice(size * size, size=n, p=self.chance)
        return np.stack((self.live[picked // size], self.live[picked % size]), axis=1)

    def places(self, first: IntArray, second: IntArray) -> tuple[FloatArray, FloatArray]:
        """The percentile and tie width of each pair ``(first, second)`` of live cards."""
        index = np.full(52, 0, dtype=np.int64)
        index[self.live] = np.arange(len(self.live))
        k = index[first] * len(self.live) + index[second]
        return self.place[k], self.span[k]


def pair_range(
    start: StartTable,
    strength: Strength,
    live: IntArray,
    r: Range,
    later: bool,
    boards: dict[int, FloatArray] | None = None,
    street: int = 4,
) -> PairRange:
    """The opponent's first two down cards as a weighted table of every pair of ``live`` cards.

    A pair's weight is its start's percentile (with the door card) to the
    power ``r.start``: the 3rd-street range of :func:`log_weight`. With
    ``later`` (4th to 6th street, when the two down cards are all it hides),
    the later streets' play is weighed in too, as :func:`log_weight` would:
    on each street, the place of the hand the pair made with the up cards of
    that street among the hands that showed my board then (``boards``,
    :meth:`stud.bots.estimate.Estimator._board`: a player who acts by what he
    sees bets more of his range into a weak board than into a scary one; without ``boards``, its
    percentile within the range as 3rd street left it), to the power of his
    betting and checking there (:meth:`Range.streets`). Every pair of the
    range is ranked, not a sample: a top-5% raising range is as narrow as
    read, and each run-out dealt from the table counts fully.
    """
    opp = r.opponent
    size = len(live)
    first = np.repeat(live, size)
    second = np.tile(live, size)
    valid = first != second
    base = start[first, second, opp.up[0]].astype(np.float64)
    weights = np.where(valid, np.power(base, r.start) if r.start > 0 else 1.0, 0.0)
    place = np.full(size * size, np.nan)
    span = np.zeros(size * size)
    if later:
        logw = np.zeros(size * size)
        for at, bets, checks in r.streets(street):
            up = opp.up if at == street else opp.up[: at - 2]
            shown = np.array(opp.down_known + up, dtype=np.int64)
            cards = np.concatenate(
                (
                    first[:, None],
                    second[:, None],
                    np.broadcast_to(shown, (size * size, len(shown))),
                ),
                axis=1,
            )
            power = strength(cards)
            low, high = _standing(power, weights, None if boards is None else boards[at])
            mid = 0.5 * (low + high)
            _add_play(logw, mid, bets, checks)
            if at == street:
                place, span = mid, high - low
        weights = weights * np.exp(logw)
    return PairRange(live, weights / weights.sum(), place, span)


def log_weight(
    start: StartTable,
    strength: Strength,
    r: Range,
    now: IntArray,
    hidden: int,
    power: FloatArray,
    place: FloatArray,
    dealt_from_range: bool = False,
    span: FloatArray | None = None,
    boards: dict[int, FloatArray] | None = None,
    street: int = 4,
) -> FloatArray:
    """Log-likelihood of the opponent's play for each run-out of its hidden cards.

    ``place`` receives, where later streets' play narrows the range, each
    run-out's percentile within the range as it was before that play, and
    ``span`` the width of the percentiles its hand shares with equal ones.
    ``dealt_from_range``: the down cards were dealt from the 3rd-street range
    already (:attr:`stud.bots.estimate.Estimator.sample_starts`), which is then not weighed again.
    """
    out = np.zeros(now.shape[0])
    opp = r.opponent
    if r.start > 0 and opp.up and hidden >= 2 and not dealt_from_range:
        # ``now`` holds the hidden cards first: any two of them stand for the first two downs.
        pct = start[now[:, 0], now[:, 1], opp.up[0]]
        out += r.start * np.log(np.maximum(pct, 1e-3))
    if r.pressure > 0:
        out += 4.0 * r.pressure * (power - 0.5)
    if r.later > 0 or r.checked > 0:
        # Later streets, as on 3rd: the place of its hand among the hands showing my
        # board (or within its range so far), to the power its rates give. On 7th street
        # the earlier streets' play is read by the hand he held then (his first two down
        # cards, ``now``'s first columns, and his up cards of that street).
        prior = np.exp(out - out.max())
        by_street = hidden == 3 and not opp.down_known and len(opp.up) == 4
        steps = r.streets(street) if by_street else [(street, r.later, r.checked)]
        for at, bets, checks in steps:
            cards = now if at == street else now[:, [0, 1, *range(3, 3 + at - 2)]]
            held = power if at == street else strength(cards)
            low, high = _standing(held, prior, None if boards is None else boards[at])
            pct = 0.5 * (low + high)
            if at == street:
                place[:] = pct
                if span is not None:
                    span[:] = high - low
            _add_play(out, pct, bets, checks)
    return out


def _against(values: FloatArray, board: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The share of the hands in sorted ``board`` that each value beats, and beats or ties."""
    n = len(board)
    low = np.searchsorted(board, values, side="left") / n
    high = np.searchsorted(board, values, side="right") / n
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def _percentile(values: FloatArray, weights: FloatArray) -> FloatArray:
    """Each value's percentile (0..1) in the weighted sample of ``values``, ties at their middle."""
    low, high = _percentile_bounds(values, weights)
    return np.asarray(0.5 * (low + high), dtype=np.float64)


def _standing(
    power: FloatArray, prior: FloatArray, board: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    """Where each hand stands, as bounds of a band: among the hands showing my board (what a
    player who reads it holds his hand against), or without one within his range so far."""
    return _percentile_bounds(power, prior) if board is None else _against(power, board)


def _add_play(out: FloatArray, place: FloatArray, bets: float, checks: float) -> None:
    """Add to ``out`` the log-likelihood of a line's bets and checks at each hand's place."""
    out += bets * np.log(np.maximum(place, 1e-3))
    out += checks * np.log(np.maximum(1.0 - place, 1e-3))


def _percentile_bounds(values: FloatArray, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The percentiles (0..1) each value's ties span in the weighted sample of ``values``.

    Rough strengths tie in classes (every J-high razz hand alike): a class holds
    the percentiles from the weight below it to the weight up to its end.
    """
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    cumulative = np.concatenate(([0.0], np.cumsum(weights[order])))
    cumulative /= cumulative[-1]
    below = np.searchsorted(ranked, values, side="left")
    upto = np.searchsorted(ranked, values, side="right")
    return (
        np.asarray(cumulative[below], dtype=np.float64),
        np.asarray(cumulative[upto], dtype=np.float64),
    )
