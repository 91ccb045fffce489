"""Each player's hand values over every set of cards they might still get.

A player lacking k cards from a pool of m has only C(m, k) possible hands,
however many run-outs there are, so the batch evaluator runs once per such
hand and every run-out looks its values up by subset rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.equity.combos import MaskArray, masks, subsets
from stud.equity.showdown import IntArray, hand_values

CHUNK = 1 << 18  # hands per evaluator call: bounds the memory of big tables


def complete_hands(known: Sequence[int], drawn: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Hands (N, len(known) + k) of the known cards followed by each row of drawn cards."""
    hands = np.empty((len(drawn), len(known) + drawn.shape[1]), dtype=np.int64)
    hands[:, : len(known)] = known
    hands[:, len(known) :] = drawn
    return hands


def values_of(game: str, known: Sequence[int], drawn: npt.NDArray[np.integer]) -> list[IntArray]:
    """Values of the known cards completed by each row of drawn cards, in chunks."""
    if len(drawn) <= CHUNK:
        return hand_values(game, complete_hands(known, drawn))
    parts = [
        hand_values(game, complete_hands(known, drawn[start : start + CHUNK]))
        for start in range(0, len(drawn), CHUNK)
    ]
    return [np.concatenate([p[kind] for p in parts]) for kind in range(len(parts[0]))]


@dataclass(frozen=True)
class Table:
    """One player's values (one array per evaluator) and bit masks, per subset rank."""

    masks: MaskArray
    values: tuple[IntArray, ...]

    def __len__(self) -> int:
        return len(self.masks)


def player_table(
    game: str, pool: npt.NDArray[np.int64], known: Sequence[int], missing: int
) -> Table:
    """The table of a player holding ``known`` and lacking ``missing`` cards of ``pool``."""
    rows = subsets(len(pool), missing)
    return Table(masks(rows), tuple(values_of(game, known, pool[rows])))
