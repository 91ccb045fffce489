"""A fast equity estimate for bots: a small Monte Carlo against weighted opponent ranges.

Every card the bot has seen is dead; the rest of the deck is dealt out at
random, many run-outs at once, and the batch evaluators of
:mod:`stud.evaluate` score every hand of every run-out in one call. Each
run-out is then weighed by how likely each opponent's hidden cards make the
way it played (strong starts complete and raise; strong hands bet later
streets), so the estimate is against the ranges the up cards and the actions
suggest, not against any two cards. A few hundred run-outs cost well under a
millisecond or so of NumPy, inside the 50 ms a bot may think.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots.boards import showing
from stud.bots.calibrate import shifted
from stud.bots.seen import Line, Opponent, Seen
from stud.bots.starting import start_table
from stud.evaluate import eight_low_values, high_values, razz_values

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


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


def _counts(values: IntArray, size: int = 13) -> IntArray:
    """Per row, how many of each value 0..size-1 it holds: (N, c) -> (N, size), one bincount."""
    n = values.shape[0]
    offsets = (np.arange(n, dtype=np.int64) * size)[:, None]
    return np.bincount((values + offsets).ravel(), minlength=n * size).reshape(n, size)


def high_strength(cards: IntArray) -> FloatArray:
    """A rough 0..1 strength of partial high hands (N, c): made hands first, then draws."""
    ranks = cards >> 2
    counts = _counts(ranks)
    most = counts.max(axis=1)
    paired = counts >= 2
    pairs = paired.sum(axis=1)
    top_pair = 12 - np.argmax(paired[:, ::-1], axis=1)
    top = ranks.max(axis=1)
    flush = _counts(cards & 3, 4).max(axis=1)
    out = 0.05 + 0.012 * top
    out = np.where(pairs == 1, 0.3 + 0.02 * top_pair, out)
    out = np.where(pairs >= 2, 0.6 + 0.015 * top_pair, out)
    out = np.where(most == 3, 0.8 + 0.01 * top_pair, out)
    out = np.where((most >= 3) & (pairs >= 2), 0.96, out)
    out = np.where(most == 4, 1.0, out)
    if cards.shape[1] < 7:
        out = np.where(flush == 4, np.maximum(out, 0.5), out)
    out = np.where(flush >= 5, np.maximum(out, 0.9), out)
    return np.asarray(out, dtype=np.float64)


def low_strength(cards: IntArray, *, eight: bool) -> FloatArray:
    """A rough 0..1 strength of partial ace-to-five lows (N, c); ``eight``: only 8-or-better."""
    lows = ((cards >> 2) + 1) % 13
    present = _counts(lows) > 0
    distinct = present.sum(axis=1)
    k = min(cards.shape[1], 5)
    kth = np.argmax(present.cumsum(axis=1) >= k, axis=1)
    span = 8 - k if eight else 13 - k
    smooth = 1.0 - (kth - (k - 1)) / span
    out = np.where(distinct >= k, smooth, 0.1 * distinct / k)
    if eight:
        out = np.where((distinct >= k) & (kth > 7), 0.05, out)
    return np.asarray(np.clip(out, 0.0, 1.0), dtype=np.float64)


def low_draw_strength(cards: IntArray, *, eight: bool) -> FloatArray:
    """A 0..1 strength of partial ace-to-five lows (N, c) by their best distinct low cards;
    ``eight``: only 8-or-better counts (Stud8's low half).

    While cards are to come (4th to 6th street) a hand is ranked by its best
    ``c - 1`` distinct lows (five at most), the highest of them first and
    the lower ones breaking ties; a low it lacks (a pair, or with ``eight``
    a nine or more) counts as worse than a king. On 5th street, 2-3 down
    under K-4-6 is a four-card 6-low draw. :func:`low_strength` ranks it by
    its fifth card, the king, as it ranks every hand with a high up card:
    there a player's bets cannot tell his good down cards from his bad
    ones, and a range narrowed by them stays as wide as it was. With
    ``eight``, a hand that has no 8-or-better draw stays below 0.05 (the
    bottom of :func:`low_strength`'s scale), ranked by how many low cards
    it has.
    """
    c = cards.shape[1]
    k = min(5, c) if c <= 3 or c >= 7 else c - 1
    present = _counts(((cards >> 2) + 1) % 13) > 0
    if eight:
        present[:, 8:] = False
    distinct = present.sum(axis=1)
    reached = present.cumsum(axis=1)
    # The j-th lowest distinct card (ace 0 .. king 12), 13 where the hand has fewer.
    lows = [np.where(distinct >= j, np.argmax(reached >= j, axis=1), 13) for j in range(1, k + 1)]
    # Lexicographic, the highest of the k first: each lower card a digit below (base 15).
    key = (lows[-1] - (k - 1)).astype(np.float64)
    digit = 1.0
    for j in range(k - 2, -1, -1):
        digit /= 15.0
        key += digit * (lows[j] - j)
    if not eight:
        return np.asarray(1.0 - key / (15 - k), dtype=np.float64)
    drawn = 0.1 + 0.9 * (1.0 - key / (9 - k))
    out = np.where(distinct >= k, drawn, 0.05 * distinct / k)
    return np.asarray(out, dtype=np.float64)


def strength(game: str, cards: IntArray, *, draws: bool = False) -> FloatArray:
    """Rough strength of the partial hands (N, c) in ``game``, 0 (nothing) to 1 (the nuts);
    ``draws``: lows ranked as draws while cards are to come (:func:`low_draw_strength`)."""
    lows = low_draw_strength if draws else low_strength
    if game == "razz":
        return lows(cards, eight=False)
    high = high_strength(cards)
    if game == "stud":
        return high
    low = lows(cards, eight=True)
    return np.asarray(np.minimum(1.0, np.maximum(high, low) + 0.3 * np.minimum(high, low)))


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


BOARD_SAMPLES = 128
"""Hands showing my board that an opponent's later play is read against."""

BANK = 4096
"""Shuffled orders of the deck each estimator keeps, to draw run-outs without sorting."""


class Estimator:
    """Monte Carlo equity for one game, with its own seeded random generator.

    Run-outs come from a bank of shuffled decks made once: for a live deck of
    L cards, keeping the entries below L of each shuffled ``range(52)`` gives a
    shuffled ``range(L)`` (one mask, cached per L), and a decision takes a
    random run of those rows. Every order of the live cards is equally likely,
    and a decision costs a slice and a gather instead of a sort.
    """

    def __init__(
        self,
        game: str,
        rng: np.random.Generator,
        samples: int = 160,
        *,
        min_effective: float = 0.0,
        sample_starts: bool = False,
        draws: bool = False,
    ) -> None:
        self.game = game
        self.draws = draws
        """Read play by lows (Razz, Stud8's low half) ranked as draws while cards are to come
        (:func:`strength`)."""
        self.rng = rng
        self.samples = samples
        self.min_effective = min_effective
        """Temper the weights until this share of the run-outs is effective (0: never)."""
        self.sample_starts = sample_starts
        """Deal each opponent's first two down cards from its 3rd-street range (not weigh them).

        A tight player's range (a re-raise from the top 5%) weighs all but a few
        uniform run-outs to nothing, and tempering then widens it back; dealt
        from the range itself, every run-out counts (importance sampling with
        the range as the proposal)."""
        self._start = start_table(game)
        self._master = np.argsort(rng.random((BANK, 52)), axis=1).astype(np.int8)
        self._banks: dict[int, npt.NDArray[np.int8]] = {}

    def _strength(self, cards: IntArray) -> FloatArray:
        return strength(self.game, cards, draws=self.draws)

    def _draw(self, live: IntArray, count: int, n: int) -> IntArray:
        """``n`` run-outs of ``count`` of the ``live`` cards each, every order equally likely."""
        size = len(live)
        bank = self._banks.get(size)
        if bank is None:
            bank = self._master[self._master < size].reshape(BANK, size)
            self._banks[size] = bank
        if n > BANK:
            rows = bank[self.rng.integers(0, BANK, n)]
        else:
            first = int(self.rng.integers(0, BANK - n + 1))
            rows = bank[first : first + n]
        return live[rows[:, :count]]

    def estimate(
        self,
        seen: Seen,
        opponents: list[Opponent] | None = None,
        *,
        samples: int | None = None,
        weighted: bool = True,
        meaning: tuple[float, float] = (1.0, 1.0),
    ) -> Estimate:
        """My chances against ``opponents`` (default: every live one), weighted by their ranges.

        ``meaning`` scales what a raise and a call say about a range (see
        :class:`stud.bots.reads.Reads`).
        """
        opps = seen.opponents if opponents is None else opponents
        n = samples or self.samples
        if not opps:
            return Estimate(1.0, 1.0, 1.0 if self.game == "stud8" else 0.0, n, float(n))
        ranges = [
            Range(opp, start_exponent(opp.line, *meaning), late_pressure(opp.line, *meaning))
            if weighted
            else Range(opp, 0.0, 0.0)
            for opp in opps
        ]
        run = self._run(seen, ranges, n)
        return run.estimate()

    def against(
        self, seen: Seen, ranges: list[Range], *, samples: int | None = None, paths: int = 1
    ) -> Versus:
        """My chances against ``ranges``, and when they call a wager (see :class:`Versus`).

        ``paths`` > 1 deals the run-outs in that many groups, each sharing the
        next street's cards (mine and the opponents' next up cards): my share
        in each group is what I would know after the next card, the input of
        a look-ahead over the next betting round (:class:`Paths`).
        """
        n = samples or self.samples
        if not ranges:
            alone = Estimate(1.0, 1.0, 1.0 if self.game == "stud8" else 0.0, n, float(n))
            whole = Paths.single()
            return Versus(alone, 1.0, 1.0, now_paths=whole, called_paths=whole, raised_paths=whole)
        return self._run(seen, ranges, n, paths).versus(ranges)

    def _run(self, seen: Seen, ranges: list[Range], n: int, paths: int = 1) -> _Run:
        """Deal ``n`` run-outs, score them, and weigh each by the opponents' ranges."""
        opps = [r.opponent for r in ranges]
        mine = seen.mine
        known_cards = seen.known
        live = np.array([c for c in range(52) if c not in known_cards], dtype=np.int64)
        left = len(live)
        community = seen.community
        shared = 1 if community is not None else 0
        hidden = [o.down_count - len(o.down_known) for o in opps]
        future = [7 - o.down_count - len(o.up) - shared for o in opps]
        mine_future = 7 - len(mine) - shared
        need = mine_future + sum(hidden) + sum(future)
        draw_shared = False
        if need > left and not shared and mine_future > 0:
            # R12: too few cards for 7th street, so it comes as one community card.
            draw_shared = True
            mine_future -= 1
            future = [f - 1 for f in future]
            need = mine_future + sum(hidden) + sum(future) + 1
        # Columns 0..need-1 are dealt cards; the known cards follow, so that one gather
        # through ``layout`` builds every player's seven cards for every run-out.
        fixed: list[int] = []
        cursor = 0

        def dealt(count: int) -> list[int]:
            nonlocal cursor
            cols = list(range(cursor, cursor + count))
            cursor += count
            return cols

        def known(cards: list[int]) -> list[int]:
            cols = [need + len(fixed) + i for i in range(len(cards))]
            fixed.extend(cards)
            return cols

        tail = dealt(1) if draw_shared else known([community]) if community is not None else []
        my_cols = dealt(mine_future)
        layout = [*known(mine), *my_cols, *tail]
        # The next street's cards that I will see: mine, and the opponents' next up cards.
        next_cols = my_cols[:1] if my_cols else tail[:1] if draw_shared else []
        # The next street's up cards (4th to 6th), which set who acts first there.
        up_next: list[int | None] = [my_cols[0] if my_cols and seen.street < 6 else None]
        now_cols: list[list[int]] = []
        for opp, h, f in zip(opps, hidden, future, strict=True):
            now = dealt(h) + known(opp.down_known + opp.up)
            now_cols.append(now)
            theirs = dealt(f)
            if theirs and seen.street < 6:
                next_cols.append(theirs[0])
            up_next.append(theirs[0] if theirs and seen.street < 6 else None)
            layout += now + theirs + tail
        groups = paths if next_cols and paths > 1 and n % paths == 0 else 1
        pool = np.empty((n, need + len(fixed)), dtype=np.int64)
        pool[:, :need] = self._draw(live, need, n)
        if groups > 1:
            _share_next(pool[:, :need], next_cols, groups)
        boards = self._board(seen, live) if seen.street >= 4 else None
        dealt_from_range = [False] * len(opps)
        dealt_places: list[tuple[FloatArray, FloatArray] | None] = [None] * len(opps)
        if self.sample_starts:
            keep = list(next_cols) if groups > 1 else []
            for i, (r, h, cols) in enumerate(zip(ranges, hidden, now_cols, strict=True)):
                opp = r.opponent
                narrowed_later = h == 2 and (r.later > 0 or r.checked > 0)
                if (r.start > 0 or narrowed_later) and h >= 2 and opp.up:
                    dealing = self._pair_range(live, r, narrowed_later, boards, seen.street)
                    pairs = dealing.draw(self.rng, n)
                    for _ in range(8):
                        # A pair holding a card another column keeps is redrawn: the
                        # range given those cards (rejection sampling).
                        clash = _clashes(pool[:, keep], pairs)
                        if not clash.any():
                            break
                        pairs[clash] = dealing.draw(self.rng, int(clash.sum()))
                    _place(pool[:, :need], cols[:2], pairs, keep)
                    keep += cols[:2]
                    dealt_from_range[i] = True
                    if narrowed_later:
                        dealt_places[i] = dealing.places(pool[:, cols[0]], pool[:, cols[1]])
        pool[:, need:] = fixed
        first = self._first_next(seen, opps, pool, up_next, groups) if groups > 1 else None
        players = len(opps) + 1
        flat = pool[:, layout].reshape(n * players, 7)
        logw = np.zeros(n)
        strengths = np.empty((len(opps), n))
        places = np.full((len(opps), n), np.nan)
        spans = np.zeros((len(opps), n))
        for i, (r, h, cols) in enumerate(zip(ranges, hidden, now_cols, strict=True)):
            now_cards = pool[:, cols]
            power = self._strength(now_cards)
            dealt_place = dealt_places[i]
            if dealt_place is not None:
                # The later streets' narrowing was dealt too: nothing left to weigh.
                places[i], spans[i] = dealt_place
            else:
                logw += self._log_weight(
                    r,
                    now_cards,
                    h,
                    power,
                    places[i],
                    dealt_from_range[i],
                    spans[i],
                    boards,
                    seen.street,
                )
            opp = r.opponent
            if len(opp.up) == 1 and h >= 2:
                # 3rd street: the start tables rank three-card hands better than ``strength``.
                power = self._start[now_cards[:, 0], now_cards[:, 1], opp.up[0]].astype(np.float64)
            strengths[i] = power
        weights = _tempered(logw, self.min_effective)
        low_share: FloatArray | None = None
        if self.game == "stud8":
            high = high_values(flat).reshape(n, players).T
            low = eight_low_values(flat).reshape(n, players).T
            high_share = _shares(high)
            best_low = low.max(axis=0)
            has_low = best_low > 0
            low_win = (low == best_low) & has_low
            low_share = low_win[0] / np.maximum(low_win.sum(axis=0), 1)
            share = np.where(has_low, 0.5 * high_share + 0.5 * low_share, high_share)
        else:
            values = (razz_values if self.game == "razz" else high_values)(flat)
            share = _shares(values.reshape(n, players).T)
        return _Run(
            np.asarray(share, dtype=np.float64),
            weights,
            strengths,
            low_share,
            groups,
            places,
            spans,
            first,
        )

    def _board(self, seen: Seen, live: IntArray) -> dict[int, FloatArray]:
        """Street by street from 4th to now, the strengths of hands that show my up cards of
        that street, their down cards any the opponents cannot see: what a player who reads
        my board held his hand against when he acted on that street."""
        unseen = np.concatenate((live, np.array(seen.mine_down, dtype=np.int64)))
        downs = len(seen.mine_down)
        drawn = self._draw(unseen, downs, BOARD_SAMPLES)
        boards = {}
        for street in range(4, seen.street + 1):
            up = seen.mine_up[: street - 2] if street < seen.street else seen.mine_up
            hidden = drawn if street == seen.street else drawn[:, :2]
            shown = np.broadcast_to(np.array(up, dtype=np.int64), (BOARD_SAMPLES, len(up)))
            power = np.sort(self._strength(np.concatenate((hidden, shown), axis=1)))
            boards[street] = power
        return boards

    def _first_next(
        self,
        seen: Seen,
        opps: list[Opponent],
        pool: IntArray,
        up_next: list[int | None],
        groups: int,
    ) -> npt.NDArray[np.bool_]:
        """Whether I act first on the next street along each path: my up cards then (with the
        path's next card) show better than every opponent's (the best board showing acts first)."""
        size = pool.shape[0] // groups
        boards = [seen.mine_up, *(o.up for o in opps)]
        first = np.ones(groups, dtype=bool)
        for g in range(groups):
            row = pool[g * size]
            shown = [
                showing(self.game, [*up, int(row[col])] if col is not None else up)
                for up, col in zip(boards, up_next, strict=True)
            ]
            first[g] = shown[0] > max(shown[1:])
        return first

    def _pair_range(
        self,
        live: IntArray,
        r: Range,
        later: bool,
        boards: dict[int, FloatArray] | None = None,
        street: int = 4,
    ) -> _PairRange:
        """The opponent's first two down cards as a weighted table of every pair of ``live`` cards.

        A pair's weight is its start's percentile (with the door card) to the
        power ``r.start``: the 3rd-street range of :meth:`_log_weight`. With
        ``later`` (4th to 6th street, when the two down cards are all it hides),
        the later streets' play is weighed in too, as :meth:`_log_weight` would:
        on each street, the place of the hand the pair made with the up cards of
        that street among the hands that showed my board then (``boards``,
        :meth:`_board`: a player who acts by what he sees bets more of his range
        into a weak board than into a scary one; without ``boards``, its
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
        base = self._start[first, second, opp.up[0]].astype(np.float64)
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
                power = self._strength(cards)
                low, high = _standing(power, weights, None if boards is None else boards[at])
                mid = 0.5 * (low + high)
                _add_play(logw, mid, bets, checks)
                if at == street:
                    place, span = mid, high - low
            weights = weights * np.exp(logw)
        return _PairRange(live, weights / weights.sum(), place, span)

    def _log_weight(
        self,
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
        already (:attr:`Estimator.sample_starts`), which is then not weighed again.
        """
        out = np.zeros(now.shape[0])
        opp = r.opponent
        if r.start > 0 and opp.up and hidden >= 2 and not dealt_from_range:
            # ``now`` holds the hidden cards first: any two of them stand for the first two downs.
            pct = self._start[now[:, 0], now[:, 1], opp.up[0]]
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
                held = power if at == street else self._strength(cards)
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


def _share_next(drawn: IntArray, columns: list[int], groups: int) -> None:
    """Make each of ``groups`` equal blocks of run-outs share the cards in ``columns``.

    Each block takes the cards of its first row; in every other row of the
    block a wanted card found elsewhere in the row swaps places with the card
    in the column, so every row stays a valid deal (no card twice). The
    blocks' next cards are drawn as any run-out's, so the blocks are a
    stratified sample of the next street.
    """
    n = drawn.shape[0]
    rows = np.arange(n)
    leaders = (rows // (n // groups)) * (n // groups)
    for col in columns:
        wanted = drawn[leaders, col]
        current = drawn[:, col].copy()
        match = drawn == wanted[:, None]
        found = match.any(axis=1)
        where = np.argmax(match, axis=1)
        drawn[rows[found], where[found]] = current[found]
        drawn[:, col] = wanted


def _clashes(kept: IntArray, cards: IntArray) -> npt.NDArray[np.bool_]:
    """The rows where one of ``cards`` (n, k) is among the ``kept`` ones (n, m)."""
    return np.asarray((kept[:, :, None] == cards[:, None, :]).any(axis=(1, 2)), dtype=np.bool_)


def _place(drawn: IntArray, columns: list[int], cards: IntArray, keep: list[int]) -> None:
    """Put ``cards`` (n, k) in ``columns`` of each run-out, keeping every row a valid deal.

    A wanted card found elsewhere in its row swaps places with the card in the
    column; a row whose wanted card sits in one of the ``keep`` columns (the
    next street's shared cards, another opponent's placed cards) keeps its
    cards as dealt (rare: such pairs are redrawn first).
    """
    ok = np.flatnonzero(~_clashes(drawn[:, keep], cards))
    for k, col in enumerate(columns):
        wanted = cards[ok, k]
        current = drawn[ok, col].copy()
        match = drawn[ok] == wanted[:, None]
        found = match.any(axis=1)
        where = np.argmax(match, axis=1)
        drawn[ok[found], where[found]] = current[found]
        drawn[ok, col] = wanted


@dataclass(frozen=True, slots=True)
class _PairRange:
    """Every ordered pair of live cards with its chance in a range (see ``_pair_range``)."""

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

    They used to rank half by how the run-out ends (``0.5 * strength + 0.5 *
    (1 - my share)``). A run-out's share is 0, 1/2 or 1, so that ranked by the
    outcome first: every fold on exactly the run-outs I win, every call and
    bet on the ones I lose, as no player who cannot see my cards answers. That
    undervalued going on against his bet and betting into him: his folds were
    never of hands that beat mine, his calls never of hands mine beat
    (docs/bots.md, thirteenth pass).
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
    whose re-raises ``raises`` counts (see :meth:`_Run.versus`)."""
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


FOLD_EVIDENCE = 16.0
"""How many observed spots weigh as much as the model's fold rate (the shrinkage's prior)."""


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
class _Run:
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

MIN_EFFECTIVE = 1 / 6
"""The least share of the run-outs the strong bot's weighting may leave effective (Kish)."""


def _tempered(logw: FloatArray, least: float) -> FloatArray:
    """The run-outs' weights, flattened until at least a share ``least`` of them count.

    The likelihoods of a long betting line multiply, and a handful of
    run-outs can end up carrying all the weight: the estimate is then the
    noise of those few, with a narrow range that no player's play really
    implies. Halving the log-weights (tempering, a likelihood raised to a
    power under one) until the effective sample size is at least
    ``least`` of the run-outs keeps the range's shape and its noise bounded.
    """
    n = len(logw)
    weights: FloatArray = np.exp(logw - logw.max())
    for _ in range(6 if least > 0 else 0):
        total = float(weights.sum())
        if total * total >= least * n * float(weights @ weights):
            break
        logw = logw * 0.5
        weights = np.exp(logw - logw.max())
    return weights


def _part(
    share: FloatArray, weights: FloatArray, mask: npt.NDArray[np.bool_], whole: float
) -> float:
    """My weighted share over the run-outs in ``mask`` (``whole`` when there are none)."""
    weight = float(weights @ mask)
    return float((share * mask) @ weights / weight) if weight > 0 else whole


def _shares(values: npt.NDArray[np.integer]) -> FloatArray:
    """Player 0's share of each run-out (ties split): values (players, n), bigger is better."""
    best = values.max(axis=0)
    win = values == best
    return np.asarray(win[0] / win.sum(axis=0), dtype=np.float64)
