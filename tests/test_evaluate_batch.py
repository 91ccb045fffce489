"""The NumPy batch evaluators' input checks and chunking: every integer dtype and layout,
non-cards, repeated cards in any pair of columns and in any row, across chunk and block edges."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
import pytest

from stud.evaluate import (
    eight_low_value,
    eight_low_values,
    high_value,
    high_values,
    razz_value,
    razz_values,
)
from stud.evaluate.batch import BLOCK, CHUNK

Batch = Callable[..., np.ndarray]
BATCHES = [high_values, razz_values, eight_low_values]
PAIRS = [(high_value, high_values), (razz_value, razz_values), (eight_low_value, eight_low_values)]
INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
INT_DTYPES += [">i2", ">u8"]  # big-endian too


def deal(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` random hands of ``size`` distinct cards, as int64."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size]


def suited(count: int, size: int, seed: int) -> np.ndarray:
    """Hands of distinct cards drawn mostly from one suit: flushes in most rows."""
    rng = np.random.default_rng(seed)
    hands = np.empty((count, size), dtype=np.int64)
    for row in range(count):
        suit = rng.integers(4)
        one_suit = rng.choice(13, size=size - 1, replace=False) * 4 + suit
        other = rng.choice(np.setdiff1d(np.arange(52), one_suit))
        hands[row] = rng.permutation(np.append(one_suit, other))
    return hands


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_every_integer_dtype_gives_the_same_values(batch: Batch, dtype: str) -> None:
    hands = deal(3_000, 7, seed=1)
    expected = batch(hands).tolist()
    typed = hands.astype(dtype)
    assert batch(typed).tolist() == expected
    assert batch(typed, check=False).tolist() == expected
    assert batch(np.zeros((0, 7), dtype=dtype)).shape == (0,)


@pytest.mark.parametrize("batch", BATCHES)
def test_any_layout_gives_the_same_values(batch: Batch) -> None:
    hands = deal(CHUNK + 500, 7, seed=2)
    expected = batch(hands).tolist()
    assert batch(np.asfortranarray(hands)).tolist() == expected
    assert batch(hands[:, ::-1]).tolist() == expected
    assert batch(hands[::-1]).tolist() == expected[::-1]
    wide = np.repeat(hands.astype(np.int16), 2, axis=1)  # every other column is the hand
    assert batch(wide[:, ::2]).tolist() == expected
    assert batch(hands[::2]).tolist() == expected[::2]


@pytest.mark.parametrize(("one", "batch"), PAIRS)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_flushes_across_chunks_match_one_hand(
    one: Callable[[Sequence[int]], int], batch: Batch, size: int
) -> None:
    hands = np.concatenate([suited(1_500, size, seed=size), deal(CHUNK, size, seed=size)])
    hands = hands[np.random.default_rng(size).permutation(len(hands))]
    expected = [one(h) for h in hands.tolist()]
    assert batch(hands).tolist() == expected
    assert batch(hands.astype(np.uint8), check=False).tolist() == expected


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize(
    ("dtype", "bad"),
    [
        ("int8", -1),
        ("int8", -128),
        ("int8", 52),
        ("int8", 127),
        ("uint8", 52),
        ("uint8", 255),
        ("int16", 256 + 5),  # would wrap to a card as a byte
        ("int16", -256 + 5),
        ("uint32", 2**32 - 1),
        ("int64", -(2**63)),
        ("int64", 2**40),
        ("uint64", 2**64 - 1),
        (">i4", -7),
    ],
)
@pytest.mark.parametrize("check", [True, False])
def test_non_cards_are_named_in_every_dtype(
    batch: Batch, dtype: str, bad: int, check: bool
) -> None:
    hands = deal(100, 7, seed=3).astype(dtype)
    hands[61, 4] = bad
    with pytest.raises(ValueError, match=rf"not a card: {bad} \(cards are ints 0\.\.51\)"):
        batch(hands, check=check)


@pytest.mark.parametrize("batch", BATCHES)
def test_the_first_non_card_is_named(batch: Batch) -> None:
    hands = deal(BLOCK + 10, 7, seed=4)
    hands[BLOCK + 3, 2] = 99
    hands[7, 6] = -3
    hands[7, 5] = 60
    with pytest.raises(ValueError, match="not a card: 60"):
        batch(hands)
    hands[7] = hands[8]
    with pytest.raises(ValueError, match="not a card: 99"):
        batch(hands, check=False)


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_a_repeat_in_any_two_columns_is_found(batch: Batch, size: int) -> None:
    hands = deal(40, size, seed=size)
    for row, (i, j) in enumerate(combinations(range(size), 2)):
        bad = hands.copy()
        bad[row, j] = bad[row, i]
        shown = str(bad[row].tolist()).replace("[", r"\[").replace("]", r"\]")
        with pytest.raises(ValueError, match=rf"^hand {row} repeats a card: {shown}$"):
            batch(bad)
        assert batch(bad, check=False).shape == (40,)  # trusted: no error, some value


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", ">u2"])
def test_the_first_repeated_row_is_named_at_chunk_and_block_edges(batch: Batch, dtype: str) -> None:
    count = BLOCK + CHUNK + 3
    hands = deal(count, 7, seed=5).astype(dtype)
    for row in (0, CHUNK - 1, CHUNK, BLOCK - 1, BLOCK, count - 1):
        bad = hands.copy()
        bad[row, 6] = bad[row, 0]
        if row + 1 < count:
            bad[count - 1, 3] = bad[count - 1, 2]  # a later repeat is not the one named
        with pytest.raises(ValueError, match=rf"^hand {row} repeats a card: \["):
            batch(bad)


@pytest.mark.parametrize("batch", BATCHES)
def test_a_non_card_is_named_before_a_repeat_in_its_block(batch: Batch) -> None:
    hands = deal(50, 7, seed=6)
    hands[2, 1] = hands[2, 0]
    hands[40, 0] = 52
    with pytest.raises(ValueError, match="not a card: 52"):
        batch(hands)
