"""The evaluator API: PokerStars words, the five cards used, R6 showing order and bad input."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pytest

from stud.cards import Card, format_cards, parse_cards
from stud.evaluate import (
    HandValue,
    eight_low_value,
    eight_low_values,
    evaluate_eight_low,
    evaluate_high,
    evaluate_razz,
    high_value,
    high_values,
    razz_value,
    razz_values,
    showing_high_value,
    showing_razz_value,
)


class Batch(Protocol):
    """``high_values`` and its kin: rows of cards in, values out; ``check=False`` skips repeats."""

    def __call__(self, hands: npt.NDArray[Any], /, *, check: bool = True) -> npt.NDArray[Any]: ...


HIGH_WORDS = [
    ("7c 3s 5h Qc Kc 6d 4d", "a straight, Three to Seven", "7c 6d 5h 4d 3s", "straight"),
    ("7s Qs 6c 7h 3s Qh", "two pair, Queens and Sevens", "Qs Qh 7s 7h 6c", "two pair"),
    ("Kd Ks Kh 4c 4d 9s 2c", "a full house, Kings full of Fours", "Ks Kh Kd 4d 4c", "full house"),
    ("Ah 9h 7h 4h 2h Kd Qc", "a flush, Ace high", "Ah 9h 7h 4h 2h", "flush"),
    ("Jd Jc 9s 7h 4c 3d 2s", "a pair of Jacks", "Jd Jc 9s 7h 4c", "pair"),
    ("5d 5c 5s Kh 9c 3d 2s", "three of a kind, Fives", "5s 5d 5c Kh 9c", "three of a kind"),
    ("Ad Ac As Ah 9c 3d 2s", "four of a kind, Aces", "As Ah Ad Ac 9c", "four of a kind"),
    ("Ah Js 9d 7c 4h 3s 2d", "high card Ace", "Ah Js 9d 7c 4h", "high card"),
    ("9s Ts Js Qs Ks 2d 2c", "a straight flush, Nine to King", "Ks Qs Js Ts 9s", "straight flush"),
    ("As Ks Qs Js Ts", "a Royal Flush", "As Ks Qs Js Ts", "straight flush"),
    ("As 2d 3c 4h 5s Kd Kc", "a straight, Ace to Five", "5s 4h 3c 2d As", "straight"),
    ("Ah 2h 3h 4h 5h 9c", "a straight flush, Ace to Five", "5h 4h 3h 2h Ah", "straight flush"),
    ("Tc Jc Qd Kc Ac 3c 9h", "a flush, Ace high", "Ac Kc Jc Tc 3c", "flush"),
    ("6s 7d 9h 8c 5s 5h 9d", "a straight, Five to Nine", "9h 8c 7d 6s 5s", "straight"),
    ("5h 5c 2s As 5d Ah 4d", "a full house, Fives full of Aces", "5h 5d 5c As Ah", "full house"),
    ("2c 2d 2h 3c 3d 3h Ks", "a full house, Threes full of Deuces", "3h 3d 3c 2h 2d", "full house"),
    ("Qc Qd Qh Qs Kc Kd Ks", "four of a kind, Queens", "Qs Qh Qd Qc Ks", "four of a kind"),
]

LOW_WORDS = [
    # cards, razz words, razz category, eight-or-better words (None: no low)
    ("2h 8d Kh 6h 3d 6d 4h", "8,6,4,3,2", "low", "8,6,4,3,2"),
    ("7c 3s 5h Qc Kc 6d 4d", "7,6,5,4,3", "low", "7,6,5,4,3"),
    ("As 2d 3c 4h 5s Kd Kc", "5,4,3,2,A", "low", "5,4,3,2,A"),
    ("6h 8h 3d Ad Ac Kh 8c", "K,8,6,3,A", "low", None),
    ("2d 4s 9d 7c Ts 5s Tc", "9,7,5,4,2", "low", None),
    ("Kc Kd 4s 3h 2c Kh Ks", "K,K,4,3,2", "pair", None),
    ("3d 3s 5h 4h 5c", "5,5,3,3,4", "two pair", None),
    ("3d 3s 3h 5c 5d 3c 5h", "3,3,3,5,5", "full house", None),
    ("Ac Ad Ah As 2c 2d 2h", "A,A,A,2,2", "full house", None),
    ("9c 9d 9h 9s 8c", "9,9,9,9,8", "four of a kind", None),
    ("Ac Ad 2c 2d 3c 3d 3h", "2,2,A,A,3", "two pair", None),
]


@pytest.mark.parametrize(("cards", "words", "used", "category"), HIGH_WORDS)
def test_high_words_and_cards(cards: str, words: str, used: str, category: str) -> None:
    result = evaluate_high(parse_cards(cards))
    assert result.description == words
    assert format_cards(result.cards) == used
    assert result.category == category
    assert result.value == high_value(parse_cards(cards)) == high_value(result.cards)


@pytest.mark.parametrize(("cards", "razz", "category", "eight"), LOW_WORDS)
def test_low_words_and_cards(cards: str, razz: str, category: str, eight: str | None) -> None:
    hand = parse_cards(cards)
    result = evaluate_razz(hand)
    assert result.description == razz
    assert result.category == category
    assert ",".join(c.rank_char for c in result.cards) == razz
    assert result.value == razz_value(hand) == razz_value(result.cards)
    low = evaluate_eight_low(hand)
    if eight is None:
        assert low is None and eight_low_value(hand) == 0
    else:
        assert low is not None
        assert low.description == eight and low.category == "low"
        assert low.value == eight_low_value(hand) == razz_value(hand)


def test_hand_value_is_frozen_and_typed() -> None:
    result = evaluate_high(parse_cards("As Ks 7d 7c 2h 3h 9s"))
    assert isinstance(result, HandValue)
    assert all(type(c) is Card for c in result.cards)
    assert str(result) == "a pair of Sevens [7d 7c As Ks 9s]"
    with pytest.raises(AttributeError):
        result.value = 0  # type: ignore[misc]


def random_hands(seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(count)]


@pytest.mark.parametrize(
    ("value", "full"),
    [(high_value, evaluate_high), (razz_value, evaluate_razz), (eight_low_value, None)],
)
def test_best_five_of_more(
    value: Callable[[Sequence[int]], int], full: Callable[[Sequence[int]], HandValue] | None
) -> None:
    """6 and 7 cards are worth their best five; the five reported are from the hand."""
    for hand in random_hands(3, 3000):
        best = max(value(five) for five in combinations(hand, 5))
        assert value(hand) == best
        if full is not None:
            result = full(hand)
            assert result.value == best
            assert len(result.cards) == 5 and set(result.cards) <= set(hand)
            assert value(result.cards) == best
            # Of equally good fives, the one with the highest cards (suits break ties).
            fives = [f for f in combinations(hand, 5) if value(f) == best]
            assert sorted(result.cards) == sorted(max(fives, key=lambda f: sorted(f)[::-1]))


def test_card_objects_and_order_do_not_matter() -> None:
    hand = parse_cards("Ah Kh Qd Jc 9s 9h 2c")
    ints = [int(c) for c in hand]
    for f in (high_value, razz_value, eight_low_value):
        assert f(hand) == f(ints) == f(tuple(reversed(ints)))


BAD = [
    ([0, 1, 2, 3], "expected 5, 6 or 7 cards, got 4"),
    (list(range(8)), "expected 5, 6 or 7 cards, got 8"),
    ([0, 1, 2, 3, 3], "card 2s appears more than once"),
    ([0, 1, 2, 3, 52], "not a card: 52"),
    ([0, 1, 2, 3, -1], "not a card: -1"),
    ([0, 1, 2, 3, "As"], "not a card: 'As'"),
    ([0, 1, 2, 3, 4.0], "not a card: 4.0"),
]


@pytest.mark.parametrize(("cards", "message"), BAD)
@pytest.mark.parametrize("full", [evaluate_high, evaluate_razz, evaluate_eight_low])
def test_bad_input_named(cards: list[object], message: str, full: Callable[..., object]) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        full(cards)


@pytest.mark.parametrize("fast", [high_value, razz_value, eight_low_value])
def test_fast_calls_check_the_count(fast: Callable[[Sequence[int]], int]) -> None:
    for count in (0, 4, 8):
        with pytest.raises(ValueError, match=f"expected 5, 6 or 7 cards, got {count}"):
            fast(list(range(count)))


@pytest.mark.parametrize("batch", [high_values, razz_values, eight_low_values])
def test_batch_bad_input_named(batch: Batch) -> None:
    good = np.array([[0, 5, 10, 15, 20, 25, 30]])
    assert batch(good).shape == (1,)
    assert batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)
    with pytest.raises(ValueError, match=r"got shape \(7,\)"):
        batch(good[0])
    with pytest.raises(ValueError, match=r"got shape \(1, 4\)"):
        batch(good[:, :4])
    with pytest.raises(ValueError, match="dtype float64"):
        batch(good.astype(float))
    with pytest.raises(ValueError, match="not a card: 52"):
        batch(np.vstack([good, [[1, 2, 3, 4, 5, 6, 52]]]))
    with pytest.raises(ValueError, match=r"hand 1 repeats a card: \[1, 2, 3, 4, 5, 6, 1\]"):
        batch(np.vstack([good, [[1, 2, 3, 4, 5, 6, 1]]]))
    # check=False trusts the deal not to repeat a card, never to hold a non-card.
    with pytest.raises(ValueError, match="not a card: -1"):
        batch(np.vstack([good, [[1, 2, 3, 4, 5, 6, -1]]]), check=False)


def test_one_hand_sums_fit_one_cpython_digit() -> None:
    """The high path's key sums stay within |s| < 2**30, where CPython adds fastest."""
    from stud.evaluate import high

    lowest = min(high._KEY0) + 6 * min(high._KEY)
    highest = max(high._KEY0) + 6 * max(high._KEY)
    assert lowest > -(2**30) and highest < 2**30


def show(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_showing_high_order() -> None:
    # worst to best (R6): high cards < pair < two pair < trips < quads; no straights or flushes.
    boards = [
        "5s 6s 7s 8s",
        "As Kd Qh Js",
        "2c 2d 3h 4s",
        "2c 2d Ah Ks",
        "Kc Kd 2h 3s",
        "3c 3d 2h 2s",
        "Ac Ad Kh Ks",
        "2c 2d 2h As",
        "Ac Ad Ah 2s",
        "2c 2d 2h 2s",
    ]
    values = [showing_high_value(show(b)) for b in boards]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert showing_high_value(show("Ah Kd")) > showing_high_value(show("Kh Qd"))
    assert showing_high_value(show("9c 9d")) > showing_high_value(show("As Kd"))
    assert showing_high_value(show("As")) > showing_high_value(show("Ks"))
    # Suits play no part: equal boards tie, whatever their order.
    assert showing_high_value(show("Ah 7d 7c")) == showing_high_value(show("7h 7s Ad"))


def test_showing_razz_order() -> None:
    # worst to best: pairs are bad, then the highest card decides, ace low.
    boards = [
        "Kc Kd Kh Ks",
        "Kc Kd Qh Qs",
        "2c 2d 3h 4s",
        "Kc Qd Jh Ts",
        "Qc Jd Th 9s",
        "8c 5d 4h 3s",
        "8c 4d 3h 2s",
        "7c 6d 5h 4s",
        "4c 3d 2h As",
    ]
    values = [showing_razz_value(show(b)) for b in boards]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert (
        showing_razz_value(show("As"))
        > showing_razz_value(show("2s"))
        > showing_razz_value(show("Ks"))
    )
    assert showing_razz_value(show("Ac 2d")) > showing_razz_value(show("Ac Ad"))
    assert showing_razz_value(show("Ah 2d")) == showing_razz_value(show("2h As"))


@pytest.mark.parametrize("showing", [showing_high_value, showing_razz_value])
def test_showing_bad_input(showing: Callable[[Sequence[int]], int]) -> None:
    with pytest.raises(ValueError, match="expected 1, 2, 3 or 4 cards, got 0"):
        showing([])
    with pytest.raises(ValueError, match="expected 1, 2, 3 or 4 cards, got 5"):
        showing([0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="appears more than once"):
        showing([7, 7])


CORPUS = Path(
    os.environ.get(
        "STUD_POKERSTARS_CORPUS",
        Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pokerstars",
    )
)
SHOWS = re.compile(r": shows \[([^\]]+)\] \((.+)\)$")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the PokerStars corpus is not beside the clone")
def test_words_match_real_pokerstars_shows() -> None:
    """Every ``shows`` line of the real hands, read in place, gets PokerStars' own words."""
    checked = 0
    for path in sorted(CORPUS.glob("*/*.txt")):
        for line in path.read_text(encoding="utf-8-sig").splitlines():
            found = SHOWS.search(line.strip())
            if not found:
                continue
            cards = parse_cards(found.group(1))
            words = found.group(2)
            if len(cards) < 5:
                continue
            if words.startswith("Lo: "):
                assert evaluate_razz(cards).description == words[4:], line
            elif words.startswith("HI: "):
                high, _, low = words[4:].partition("; LO: ")
                assert evaluate_high(cards).description == high, line
                result = evaluate_eight_low(cards)
                assert (result.description if result else "") == low, line
            else:
                assert evaluate_high(cards).description == words, line
            checked += 1
    assert checked >= 40
