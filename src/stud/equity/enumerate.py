"""Exact enumeration: every distinct run-out once, in tasks that split the work.

Players are joined one at a time: the rows so far (one subset per player
already placed, and the union of their bit masks) are crossed with every
subset of the next player and kept where the masks are disjoint. The work is
cut by rows of the first player (the one with the most subsets), so tasks
are even and their integer tallies add up to the same result in any order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from math import ceil, comb

import numpy as np

from stud.equity.combos import IntArray, MaskArray
from stud.equity.deal import Deal, subdeals
from stud.equity.showdown import Tally, settle
from stud.equity.tables import Table, player_table

JOIN_CELLS = 1 << 20  # row x subset pairs tested per join step: bounds memory
TASK_RUNOUTS = 1 << 21  # run-outs per task: granularity for workers and progress


@dataclass(frozen=True)
class ExactTask:
    """Rows ``start:stop`` of the first player's subsets in one sub-deal."""

    sub: int
    start: int
    stop: int
    runouts: int


def join_order(pool_size: int, missing: tuple[int, ...]) -> list[int]:
    """Players by number of subsets, most first (ties in seat order)."""
    return sorted(range(len(missing)), key=lambda i: -comb(pool_size, missing[i]))


def plan(deal: Deal, task_runouts: int = TASK_RUNOUTS) -> list[ExactTask]:
    """Tasks covering every run-out of the deal exactly once."""
    tasks = []
    for index, sub in enumerate(subdeals(deal)):
        first = join_order(len(sub.pool), sub.missing)[0]
        rows = comb(len(sub.pool), sub.missing[first])
        per_row = sub.runouts // rows
        step = max(1, min(rows, task_runouts // max(per_row, 1)))
        # Even task sizes: the same number of tasks, rows shared out evenly.
        count = ceil(rows / step)
        bounds = [rows * t // count for t in range(count + 1)]
        for start, stop in pairwise(bounds):
            tasks.append(ExactTask(index, start, stop, (stop - start) * per_row))
    return tasks


@lru_cache(maxsize=2)
def tables(deal: Deal, sub: int) -> tuple[Table, ...]:
    """Every player's table for one sub-deal (kept while its tasks run)."""
    piece = subdeals(deal)[sub]
    pool = np.array(piece.pool, dtype=np.int64)
    return tuple(
        player_table(deal.game, pool, known, missing)
        for known, missing in zip(piece.known, piece.missing, strict=True)
    )


def _join(
    masks: list[MaskArray], level: int, picks: list[IntArray], used: MaskArray
) -> Iterator[list[IntArray]]:
    """Yield blocks of rows, each a subset index per player, pairwise disjoint."""
    if level == len(masks):
        yield picks
        return
    nxt = masks[level]
    step = max(1, JOIN_CELLS // len(nxt))
    for start in range(0, len(used), step):
        block = used[start : start + step]
        rows, cols = np.nonzero((block[:, None] & nxt[None, :]) == 0)
        taken = [p[start : start + step][rows] for p in picks]
        yield from _join(masks, level + 1, [*taken, cols], block[rows] | nxt[cols])


def run(deal: Deal, task: ExactTask) -> Tally:
    """Settle every run-out of one task."""
    player_tables = tables(deal, task.sub)
    order = join_order(len(deal.pool) - deal.deal_community, deal.missing)
    ordered = [player_tables[i] for i in order]
    kinds = len(ordered[0].values)
    first = np.arange(task.start, task.stop, dtype=np.int64)
    tally = Tally(deal.players)
    masks = [t.masks for t in ordered]
    for picks in _join(masks, 1, [first], masks[0][first]):
        values: list[list[IntArray]] = [[] for _ in range(kinds)]
        for kind in range(kinds):
            columns: list[IntArray | None] = [None] * deal.players
            for table, player, pick in zip(ordered, order, picks, strict=True):
                columns[player] = table.values[kind][pick]
            values[kind] = [c for c in columns if c is not None]
        tally.add(settle(deal.game, values))
    assert tally.runouts == task.runouts
    return tally
