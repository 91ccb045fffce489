"""A hand in words while it is played: the evaluators' words for 1 to 7 cards, and who gets them.

The own readout goes only into the state of the account seated there; a
spectator and the other players get none of it, only the words for the up cards.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from stud.cards import parse_cards
from stud.evaluate.sofar import eight_low_so_far, high_so_far, razz_so_far
from stud.table import Table
from stud.table.engine import start_engine_hand
from stud.table.readout import readout
from test_table_play import Clock, act_passively, deal, seated, settings

CARD = re.compile(r"[2-9TJQKA][cdhs]")


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("Ah", "high card Ace"),
        ("Kh Kd 5c", "a pair of Kings"),
        ("Kh Kd 5c 5s", "two pair, Kings and Fives"),
        ("9h 9d 9c 2s", "three of a kind, Nines"),
        ("9h 9d 9c 9s", "four of a kind, Nines"),
        ("Kh Kd 5c 5s 9h", "two pair, Kings and Fives"),
        ("2h 3d 4c 5s 6h Kd Kc", "a straight, Deuce to Six"),
        ("Ah 2d 3s 5c 7h Qc Jh", "high card Ace"),
    ],
)
def test_high_words_for_any_number_of_cards(cards: str, words: str) -> None:
    assert high_so_far(parse_cards(cards)) == words


def test_lows_so_far_and_draws() -> None:
    assert razz_so_far(parse_cards("7h 4d 2c")).ranks == "7,4,2"
    assert razz_so_far(parse_cards("2h 2d 7c")).ranks == "2,2,7"
    made = razz_so_far(parse_cards("8h 6d 4c 3s 2h Kd"))
    assert (made.ranks, made.made) == ("8,6,4,3,2", True)
    draw = eight_low_so_far(parse_cards("7h 5d 3c Kd"), to_come=3)
    assert draw is not None and (draw.ranks, draw.made, draw.possible) == ("7,5,3", False, True)
    dead = eight_low_so_far(parse_cards("Kc Kd Ks 9h Jd 2h"), to_come=1)
    assert dead is not None and (dead.ranks, dead.possible) == ("2", False)
    assert eight_low_so_far(parse_cards("Kc Kd Ks"), to_come=4) is None
    wheel = eight_low_so_far(parse_cards("Ah 2d 3s 5c 7h Qc Jh"), to_come=0)
    assert wheel is not None and (wheel.ranks, wheel.made) == ("7,5,3,2,A", True)
    assert readout("razz", [], 4) is None
    assert readout("stud", ["Kh", "Kd"], 5) == {"high": "a pair of Kings", "low": None}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: high_so_far([]), "expected 1, 2, 3, 4, 5, 6 or 7 cards, got 0"),
        (lambda: high_so_far([1, 1]), "appears more than once"),
        (lambda: razz_so_far([52]), "not a card: 52"),
        (lambda: eight_low_so_far([1, 2], to_come=-1), "cards to come must be 0 or more"),
        (lambda: readout("stud", ["Zz"], 3), "Zz"),
    ],
)
def test_bad_cards_are_refused_by_name(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def cards_in(value: Any) -> set[str]:
    """Every whole card string anywhere in a view (hashes and words aside)."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value))
    return {value} if isinstance(value, str) and CARD.fullmatch(value) else set()


def test_own_words_reach_only_the_seat_that_holds_the_cards() -> None:
    clock = Clock()
    table = Table(settings(game="stud8"), start_engine_hand, seed=5)
    seated(table, 3, clock)
    deal(table, clock)
    for _ in range(4):
        act_passively(table, clock)
    spectator = table.view(None)
    assert spectator["readout"] is None
    for seat in (0, 1, 2):
        view = table.view(seat)
        own = next(s for s in view["hand"]["seats"] if s["seat"] == seat)
        cards = [*own["down"], *own["up"]]
        assert view["readout"] == readout("stud8", cards, 7 - len(cards))
        # The words for the up cards are everyone's; nobody else's state carries my words.
        assert view["boards"] == spectator["boards"]
        assert set(view["boards"]) == {"0", "1", "2"}
        down = [c for c in own["down"] if c]
        assert len(down) == 2
        for other in {0, 1, 2} - {seat}:
            assert not set(down) & cards_in(table.view(other))
