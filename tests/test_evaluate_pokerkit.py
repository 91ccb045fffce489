"""Random hands cross-checked against PokerKit: the same order on every pair compared.

PokerKit (a dev-only dependency) orders hands with ``<``, stronger is greater,
for ``StandardHighHand``, ``RegularLowHand`` (ace-to-five) and
``EightOrBetterLowHand`` (which refuses to form a hand when no low qualifies).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt
import pytest

from stud.cards import format_cards
from stud.evaluate import (
    eight_low_value,
    eight_low_values,
    high_value,
    high_values,
    razz_value,
    razz_values,
)

pokerkit = pytest.importorskip("pokerkit")

if TYPE_CHECKING:
    from pokerkit import Hand as KitHand


class Batch(Protocol):
    """``high_values`` and its kin: rows of cards in, values out; ``check=False`` skips repeats."""

    def __call__(self, hands: npt.NDArray[Any], /, *, check: bool = True) -> npt.NDArray[Any]: ...


def deal_hands(seed: int, count: int) -> list[list[int]]:
    """Random 5-, 6- and 7-card hands, a third of them from a thin deck (two suits, eight
    ranks) so that flushes, straights, full houses and paired lows come up often."""
    rng = random.Random(seed)
    thin = [r * 4 + s for r in range(13) if r < 4 or r > 8 for s in (1, 3)]
    hands = []
    for i in range(count):
        size = (5, 6, 7, 7)[i % 4]
        deck = thin if i % 3 == 0 else range(52)
        hands.append(rng.sample(list(deck), size))
    return hands


def ranks_by(keys: Sequence[Any]) -> np.ndarray:
    """0, 1, 2, ... by PokerKit's order, equal hands sharing a rank."""
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    ranks = np.zeros(len(keys), dtype=np.int64)
    rank = 0
    for prev, cur in pairwise(order):
        if keys[cur] != keys[prev]:
            rank += 1
        ranks[cur] = rank
    return ranks


def assert_same_order(ours: Sequence[int], theirs: np.ndarray) -> None:
    o = np.asarray(ours, dtype=np.int64)
    ours_sign = np.sign(o[:, None] - o[None, :])
    their_sign = np.sign(theirs[:, None] - theirs[None, :])
    bad = np.argwhere(ours_sign != their_sign)
    assert len(bad) == 0, f"{len(bad)} pairs ordered differently, e.g. {bad[0].tolist()}"


def pokerkit_key(kind: type[KitHand], cards: list[int]) -> object:
    try:
        return kind.from_game(format_cards(cards, ""))
    except ValueError:
        return None


class NoLow:
    """Sorts below every PokerKit eight-or-better hand and equals only itself."""

    def __lt__(self, other: object) -> bool:
        return not isinstance(other, NoLow)

    def __gt__(self, other: object) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoLow)

    def __hash__(self) -> int:
        return 0


CASES: list[tuple[str, Callable[[Sequence[int]], int], str]] = [
    ("high", high_value, "StandardHighHand"),
    ("razz", razz_value, "RegularLowHand"),
    ("eight", eight_low_value, "EightOrBetterLowHand"),
]


@pytest.mark.parametrize(("name", "ours", "kind"), CASES, ids=[c[0] for c in CASES])
def test_same_order_as_pokerkit(name: str, ours: Callable[[Sequence[int]], int], kind: str) -> None:
    hands = deal_hands(seed=len(name), count=1200)
    theirs = [pokerkit_key(getattr(pokerkit, kind), h) for h in hands]
    values = [ours(h) for h in hands]
    if name == "eight":
        assert [v == 0 for v in values] == [t is None for t in theirs]
        theirs = [NoLow() if t is None else t for t in theirs]
    assert_same_order(values, ranks_by(theirs))


@pytest.mark.parametrize(
    ("one", "batch"),
    [(high_value, high_values), (razz_value, razz_values), (eight_low_value, eight_low_values)],
)
def test_batch_matches_one_hand(one: Callable[[Sequence[int]], int], batch: Batch) -> None:
    rng = np.random.default_rng(7)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :size]
        expected = [one(h) for h in hands.tolist()]
        assert batch(hands).tolist() == expected
        assert batch(hands.astype(np.int8), check=False).tolist() == expected
