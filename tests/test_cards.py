"""Cards: parsing, printing, ordering and the deck."""

from __future__ import annotations

import pytest

from stud.cards import Card, Deck, format_cards, full_deck, parse_cards


def test_parse_and_print_round_trip() -> None:
    for card in full_deck():
        assert Card.parse(str(card)) == card
        assert str(Card.parse(str(card))) == str(card)


def test_index_layout_matches_bring_in_suit_order() -> None:
    assert Card.parse("2c") == 0
    assert Card.parse("As") == 51
    # R3: clubs < diamonds < hearts < spades within a rank.
    assert Card.parse("2c") < Card.parse("2d") < Card.parse("2h") < Card.parse("2s")
    assert Card.parse("As").rank == 12 and Card.parse("As").suit == 3


@pytest.mark.parametrize("text", ["As Kd 2c", "AsKd2c", "as kd 2C", "As,Kd,2c"])
def test_parse_hand_forms(text: str) -> None:
    assert format_cards(parse_cards(text)) == "As Kd 2c"


def test_ten_written_as_10() -> None:
    assert str(Card.parse("10h")) == "Th"
    assert format_cards(parse_cards("10hJs")) == "Th Js"


@pytest.mark.parametrize(
    ("text", "bad"), [("1x", "1x"), ("A", "A"), ("Ass", "s"), ("Kd Zz", "Zz"), ("Qq", "Qq")]
)
def test_bad_text_names_the_token(text: str, bad: str) -> None:
    with pytest.raises(ValueError, match=repr(bad)):
        parse_cards(text)


def test_repeated_card_is_refused() -> None:
    with pytest.raises(ValueError, match="Kd appears more than once"):
        parse_cards("As Kd kd")
    assert len(parse_cards("As As", distinct=False)) == 2


def test_card_index_range() -> None:
    with pytest.raises(ValueError):
        Card(52)
    with pytest.raises(ValueError):
        Card(-1)


def test_seeded_deck_is_reproducible_and_complete() -> None:
    a = Deck(seed=7).deal_many(52)
    b = Deck(seed=7).deal_many(52)
    assert a == b
    assert sorted(a) == list(range(52))
    assert Deck(seed=8).deal_many(52) != a


def test_system_deck_deals_every_card_once() -> None:
    deck = Deck()
    cards = deck.deal_many(52)
    assert sorted(cards) == list(range(52))
    assert deck.remaining == 0
    with pytest.raises(ValueError, match="empty"):
        deck.deal()


def test_stacked_deck_deals_given_cards_first() -> None:
    deck = Deck.stacked("As Kd 2c")
    assert format_cards(deck.deal_many(3)) == "As Kd 2c"
    rest = deck.deal_many(49)
    assert sorted([*parse_cards("As Kd 2c"), *rest]) == list(range(52))


def test_shuffle_is_unbiased_enough() -> None:
    # Position of the ace of spades over many seeded shuffles: roughly uniform.
    counts = [0] * 52
    for seed in range(5200):
        counts[Deck(seed=seed).peek_remaining().index(Card.parse("As"))] += 1
    assert min(counts) > 50 and max(counts) < 160
