"""Equity notation and table checks: every street expressible, malformed input refused."""

from __future__ import annotations

from math import comb

import pytest

from stud.cards import Card
from stud.equity import equity, parse_hand
from stud.equity.deal import make_deal
from stud.equity.notation import parse_dead


def test_streets_three_to_seven() -> None:
    assert parse_hand("As 2d | 3c").street == 3
    assert parse_hand("As 2d | 3c 4h").street == 4
    assert parse_hand("As2d|3c4h5s").street == 5
    assert parse_hand("As 2d | 3c 4h 5s 6d").street == 6
    assert parse_hand("As 2d | 3c 4h 5s 6d | 7c").street == 7
    assert parse_hand("?? ?? | 3c 4h 5s 6d | ??").street == 7


def test_missing_down_cards_are_unknown() -> None:
    for text in ("?? | Kh", "| Kh", "?? ?? | Kh", "??,?? | Kh"):
        hand = parse_hand(text)
        assert hand.down == (None, None)
        assert hand.up == (Card.parse("Kh"),)
        assert hand.unknown == 2
        assert str(hand) == "?? ?? | Kh"
    one = parse_hand("As | Kh")
    assert one.known == [Card.parse("As"), Card.parse("Kh")] and one.unknown == 1


def test_round_trip_and_ten_forms() -> None:
    hand = parse_hand("10s 2d | 3c 4h 5s Td | ??")
    assert str(hand) == "Ts 2d | 3c 4h 5s Td | ??"
    assert parse_hand(str(hand)) == hand


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("As 2d 3c | 4h", "3 down cards"),
        ("As 2d | 3c 4h 5s 6d 7c", "5 up cards"),
        ("As 2d | 3c 4h 5s | 7c", "after 4 up cards"),
        ("As 2d | 3c 4h 5s 6d | 7c 8c", "one card"),
        ("As 2d | 3c 4h 5s 6d | ", "one card"),
        ("As 2d", "'|'"),
        ("As 2d |", "no up cards"),
        ("As 2d | 3c | 4c | 5c", "at most three sections"),
        ("As As | 3c", "As appears twice"),
        ("As 2x | 3c", "unknown suit"),
        ("As 1d | 3c", "unknown rank"),
        ("As 2d | 3", "bad card"),
    ],
)
def test_malformed_hands(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_hand(text)


def test_dead_cards_with_unseen() -> None:
    cards, unseen = parse_dead("7c 8d ?? ??")
    assert [str(c) for c in cards] == ["7c", "8d"] and unseen == 2
    assert parse_dead(None) == ([], 0)
    assert parse_dead(["7c", 0]) == ([Card.parse("7c"), Card(0)], 0)


@pytest.mark.parametrize(
    ("players", "dead", "words"),
    [
        (["As 2d | 3c", "As 4d | 5c"], None, "As appears twice: player 1 and player 2"),
        (["As 2d | 3c", "?? | 5c"], "3c", "3c appears twice: player 1 and the dead cards"),
        (["As 2d | 3c", "?? | 5c"], "7c 7c", "7c appears twice in the dead cards"),
        (["As 2d | 3c", "?? | 5c 6c"], None, "player 1 on 3rd, player 2 on 4th"),
        (["As 2d | 3c 4c 5c 6c | 7d", "?? | 5h 6h 7h 8h"], None, "different streets"),
        (["As 2d | 3c"], None, "1 players"),
        (["?? | 2c"] * 9, None, "9 players"),
    ],
)
def test_malformed_tables(players: list[str], dead: str | None, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_deal("razz", players, dead)


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'holdem'"):
        equity("holdem", ["As 2d | 3c", "?? | Kh"])
    assert make_deal(" Razz ", ["As 2d | 3c", "?? | Kh"]).game == "razz"


def test_too_many_dead_cards() -> None:
    dead = " ".join(["??"] * 10)
    with pytest.raises(ValueError, match="need more than 52 cards"):
        make_deal("stud", [f"?? | {r}c" for r in "2345678"], dead)


def test_run_out_count_counts_each_assignment_once() -> None:
    # Two players with only unknown down cards: C(m, 4) * C(m - 4, 4) assignments.
    deal = make_deal("razz", ["?? | Kh", "?? | Qh"], "7c 8d")
    m = 52 - 4
    assert len(deal.pool) == m and deal.missing == (6, 6)
    assert deal.runouts == comb(m, 6) * comb(m - 6, 6)
    # Unseen dead cards change neither the pool nor the count.
    assert make_deal("razz", ["?? | Kh", "?? | Qh"], "7c 8d ?? ??").runouts == deal.runouts


def test_r12_decided_by_deck_size() -> None:
    seven = [f"?? | {r}c {r}d {r}h {r}s" for r in "2345678"]
    # 7 players through 6th street: 42 cards, 10 left, each gets a 7th-street card.
    assert not make_deal("stud", seven).r12
    # ... unless 4 more cards are out of play: 6 left for 7 players.
    deal = make_deal("stud", seven, "?? ?? ?? ??")
    assert deal.r12 and deal.deal_community and deal.missing == (2,) * 7
    eight = [*seven, "?? | 9c 9d 9h 9s"]
    assert make_deal("stud", eight).r12
    with pytest.raises(ValueError, match="R12"):
        make_deal("stud", [h + " | ??" for h in eight])
    with pytest.raises(ValueError, match="only when the deck runs out"):
        make_deal("stud", seven, community="Ts")
    with pytest.raises(ValueError, match="community card comes after 6th street"):
        make_deal("stud", [f"?? | {r}c" for r in "23456789"], community="Ts")
