"""Monte Carlo: uniform random run-outs in fixed batches, each with its own seed.

Batch ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``, so a seed
gives the same answer however many workers share the batches. When every
player's hands are tabled, a run-out is a random table index per player,
redrawn where it clashes with the players before; otherwise it is the first
cards of a partial Fisher-Yates shuffle of the pool, dealt to the players in
turn. Either way every distinct run-out is equally likely.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from stud.equity.combos import ranks
from stud.equity.deal import Deal
from stud.equity.showdown import IntArray, Tally, evaluators, settle
from stud.equity.tables import Table, player_table, values_of

BATCH = 1 << 16  # run-outs per batch: fixed, so results do not depend on workers


@dataclass(frozen=True)
class SampleTask:
    index: int
    size: int

    @property
    def runouts(self) -> int:
        return self.size


def plan(samples: int, batch: int = BATCH) -> list[SampleTask]:
    """Batches of ``batch`` run-outs (the last one shorter) adding up to ``samples``."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    return [
        SampleTask(index, min(batch, samples - start))
        for index, start in enumerate(range(0, samples, batch))
    ]


def partial_shuffle(rng: np.random.Generator, rows: int, m: int, k: int) -> npt.NDArray[np.uint8]:
    """``rows`` random ordered k-samples of ``range(m)`` without repetition."""
    deck = np.empty((rows, m), dtype=np.uint8)
    deck[:] = np.arange(m, dtype=np.uint8)
    index = np.arange(rows)
    for j in range(k):
        swap = rng.integers(j, m, size=rows)
        here = deck[:, j].copy()
        deck[:, j] = deck[index, swap]
        deck[index, swap] = here
    return deck[:, :k]


@lru_cache(maxsize=2)
def tables(deal: Deal, limit: int) -> tuple[Table | None, ...]:
    """Tables for players with at most ``limit`` possible hands; None means evaluate per run-out.

    With a community card still to deal every hand depends on it too, so all
    are evaluated per run-out (R12 tables are rare).
    """
    pool = deal.pool_array()
    return tuple(
        player_table(deal.game, pool, known, missing)
        if not deal.deal_community and comb(len(pool), missing) <= limit
        else None
        for known, missing in zip(deal.known, deal.missing, strict=True)
    )


MIN_ACCEPTANCE = 0.05  # below this chance of a disjoint draw, shuffle instead of redrawing


def by_rejection(deal: Deal, player_tables: tuple[Table | None, ...]) -> bool:
    """Whether to draw each player's subset by index and redraw clashes.

    Only with every player tabled, and when a random subset of each player
    misses the cards of those before with a fair chance. Given the players
    before, every subset disjoint from theirs is equally likely, and there are
    equally many of them whatever they hold, so run-outs stay uniform.
    """
    if any(t is None for t in player_tables):
        return False
    m = len(deal.pool)
    taken = 0
    for k in deal.missing:
        if comb(m - taken, k) < MIN_ACCEPTANCE * comb(m, k):
            return False
        taken += k
    return True


def _draw_indices(
    rng: np.random.Generator, player_tables: tuple[Table, ...], size: int
) -> list[IntArray]:
    """Each player's subset index per run-out, pairwise disjoint, by redrawing clashes."""
    used = np.zeros(size, dtype=np.uint64)
    picks = []
    for table in player_tables:
        pick = rng.integers(len(table), size=size)
        clash = np.flatnonzero(table.masks[pick] & used)
        while len(clash):
            again = rng.integers(len(table), size=len(clash))
            pick[clash] = again
            clash = clash[(table.masks[again] & used[clash]) != 0]
        used |= table.masks[pick]
        picks.append(pick)
    return picks


def run(deal: Deal, seed: int, task: SampleTask, table_limit: int) -> Tally:
    """Settle one batch of random run-outs."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(task.index,)))
    player_tables = tables(deal, table_limit)
    kinds = len(evaluators(deal.game))
    values: list[list[IntArray]] = [[] for _ in range(kinds)]
    if by_rejection(deal, player_tables):
        tabled = tuple(t for t in player_tables if t is not None)
        for table, pick in zip(tabled, _draw_indices(rng, tabled, task.size), strict=True):
            for kind in range(kinds):
                values[kind].append(table.values[kind][pick])
        return settle(deal.game, values)
    pool = deal.pool_array()
    m = len(pool)
    drawn = partial_shuffle(rng, task.size, m, sum(deal.missing) + deal.deal_community)
    offset = 0
    community: IntArray | None = None
    if deal.deal_community:
        community = pool[drawn[:, 0]]
        offset = 1
    for player, (known, missing) in enumerate(zip(deal.known, deal.missing, strict=True)):
        cols = drawn[:, offset : offset + missing]
        offset += missing
        got: list[IntArray] | tuple[IntArray, ...]
        if (tabled_player := player_tables[player]) is not None:
            where = ranks(np.sort(cols, axis=1), m)
            got = [v[where] for v in tabled_player.values]
        else:
            cards = pool[cols]
            if community is not None:
                cards = np.column_stack([cards, community])
            got = values_of(deal.game, known, cards)
        for kind in range(kinds):
            values[kind].append(got[kind])
    return settle(deal.game, values)
