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

import numpy as np
import numpy.typing as npt

from stud.bots.arrays import FloatArray, IntArray
from stud.bots.boards import showing
from stud.bots.ranges import PairRange, Range, late_pressure, log_weight, pair_range, start_exponent
from stud.bots.seen import Opponent, Seen
from stud.bots.shares import Estimate, Paths, Run, Versus
from stud.bots.starting import start_table
from stud.bots.strength import strength
from stud.evaluate import eight_low_values, high_values, razz_values

BOARD_SAMPLES = 128
"""Hands showing my board that an opponent's later play is read against."""

BANK = 4096
"""Shuffled orders of the deck each estimator keeps, to draw run-outs without sorting."""

MIN_EFFECTIVE = 1 / 6
"""The least share of the run-outs the strong bot's weighting may leave effective (Kish)."""


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
        (:func:`stud.bots.strength.strength`)."""
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

    def _run(self, seen: Seen, ranges: list[Range], n: int, paths: int = 1) -> Run:
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
                logw += log_weight(
                    self._start,
                    self._strength,
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
        return Run(
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
    ) -> PairRange:
        """``r``'s first two down cards as a weighted table of every pair of ``live`` cards
        (:func:`stud.bots.ranges.pair_range`, with this game's tables)."""
        return pair_range(self._start, self._strength, live, r, later, boards, street)


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


def _shares(values: npt.NDArray[np.integer]) -> FloatArray:
    """Player 0's share of each run-out (ties split): values (players, n), bigger is better."""
    best = values.max(axis=0)
    win = values == best
    return np.asarray(win[0] / win.sum(axis=0), dtype=np.float64)


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
