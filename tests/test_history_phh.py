"""PHH: records written and read back, the fields we write, hidden cards, malformed files."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from stud.cards import Card, parse_cards
from stud.history import HandRecord, HistoryError, Kind, Muck, Show
from stud.history.phh import (
    from_roman,
    read_phh,
    read_phh_file,
    read_phhs,
    roman,
    write_phh,
    write_phhs,
)
from stud.history.samples import sample_hand

SAMPLES = (60, 2000)
"""The ``samples`` fixture's hands: how many, from which seed."""


def test_records_read_back_the_same(samples: list[HandRecord]) -> None:
    text = write_phhs(samples)
    result = read_phhs(text, "samples.phhs")
    assert not result.errors
    assert result.hands == samples
    assert write_phhs(result.hands) == text


@pytest.mark.parametrize(("game", "code"), [("stud", "F7S"), ("stud8", "F7S/8"), ("razz", "FR")])
def test_fields_written(game: str, code: str) -> None:
    record = sample_hand(game, 4, 5)  # type: ignore[arg-type]
    data = tomllib.loads(write_phh(record), parse_float=Decimal)
    assert data["variant"] == code
    assert data["antes"] == [Decimal("0.01")] * 4
    assert data["bring_in"] == Decimal("0.02")
    assert data["small_bet"] == Decimal("0.04") and data["big_bet"] == Decimal("0.08")
    assert data["starting_stacks"] == [Decimal(s) / 100 for s in record.starting_stacks]
    assert data["finishing_stacks"] == [Decimal(s) / 100 for s in record.finishing_stacks or ()]
    assert data["players"] == list(record.names)
    assert data["seats"] == [s.number for s in record.seats]
    assert data["seat_count"] == 8 and data["currency"] == "USD" and data["currency_symbol"] == "$"
    assert data["hand"] == int(record.hand_id or 0)
    assert data["_rake"] == Decimal(record.rake) / 100
    assert data["_hero"] == f"p{(record.hero or 0) + 1}"
    deals = [a for a in data["actions"] if a.startswith("d dh")]
    assert deals[0].startswith("d dh p1 ") and len(deals[0]) == len("d dh p1 ") + 6
    assert all(a.split()[0] in ("d", *(f"p{i}" for i in range(1, 5))) for a in data["actions"])


def test_tournament_chips_are_ints_and_the_level_a_number() -> None:
    record = sample_hand("razz", 3, 8, cash=False)
    data = tomllib.loads(write_phh(record))
    assert data["antes"] == [10, 10, 10] and data["small_bet"] == 50
    assert data["level"] == 2 and data["_tournament"] == (
        record.tournament and record.tournament.id
    )
    assert "currency" not in data
    assert read_phh(write_phh(record)) == record


def test_roman_numerals() -> None:
    assert [roman(n) for n in (1, 4, 9, 14, 31, 40)] == ["I", "IV", "IX", "XIV", "XXXI", "XL"]
    assert all(from_roman(roman(n)) == n for n in range(1, 200))
    with pytest.raises(ValueError, match="roman"):
        from_roman("IIV2")


HIDDEN = """
variant = "FR"
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 80, 60]
players = ["North", "East", "South"]
actions = [
  "d dh p1 ????Kd",  # a comment TOML skips
  "d dh p2 ????5h",
  "d dh p3 As2c3d",
  "p1 pb",
  "p2 cbr 4",
  "p3 cc",
  "p1 f # North gives up",
  "d dh p2 7h",
  "d dh p3 4c",
  "p3 cc",
  "p2 cbr 4",
  "p3 cc",
  "d dh p2 9s",
  "d dh p3 Kc",
  "p2 cbr 8",
  "p3 f",
]
"""


def test_hidden_cards_and_comments() -> None:
    record = read_phh(HIDDEN, "hidden.phh")
    assert record.game == "razz" and record.names == ("North", "East", "South")
    assert record.cards[0] == (None, None, Card.parse("Kd"))
    assert record.cards[2][:3] == tuple(Card.parse(c) for c in ("As", "2c", "3d"))
    assert record.cards[1][3:] == (Card.parse("7h"), Card.parse("9s"))
    kinds = [(a.street, a.seat, a.kind, a.amount, a.to) for a in record.actions]
    assert kinds[:4] == [
        (3, 0, Kind.BRING_IN, 2, 2),
        (3, 1, Kind.COMPLETE, 4, 4),
        (3, 2, Kind.CALL, 4, 4),
        (3, 0, Kind.FOLD, 0, 2),
    ]
    assert (4, 2, Kind.CHECK, 0, 0) in kinds
    assert kinds[-1] == (5, 1, Kind.RETURN, 8, 0)  # the uncalled bet goes back
    assert record.finishing_stacks is None and record.collected is None
    assert read_phh(write_phh(record)) == record


def test_shows_mucks_and_the_community_card() -> None:
    text = """
variant = "F7S"
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ["d dh p1 AsAd2c", "d dh p2 KsKdQc", "p1 pb", "p2 cc",
  "d dh p1 3c", "d dh p2 4c", "p2 cc", "p1 cc", "d dh p1 5c", "d dh p2 6c", "p2 cc", "p1 cc",
  "d dh p1 7c", "d dh p2 8c", "p2 cc", "p1 cc", "d db Jh", "p2 cc", "p1 cc",
  "p2 sm KsKdQc4c6c8c # a pair of Kings", "p1 sm"]
"""
    record = read_phh(text)
    assert record.community == (Card.parse("Jh"),)
    assert record.shows == (
        Show(1, tuple(parse_cards("Ks Kd Qc 4c 6c 8c")), "a pair of Kings"),
        Muck(0),
    )
    assert "d db Jh" in write_phh(record)
    assert read_phh(write_phh(record)) == record


def test_the_community_card_of_players_all_in_before_the_river_is_written() -> None:
    """No one acts on 7th street and no one has a 7th card of their own (rules.md R12):
    the card the board shares is still dealt, so the PHH deals it (it used to drop it)."""
    text = """
variant = "FR"
antes = [1, 1, 1, 1, 1, 1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [3, 3, 3, 3, 3, 3, 3, 3]
actions = ["d dh p1 AsAd2c", "d dh p2 KsKdQc", "d dh p3 2s3s4s", "d dh p4 5s6s7s",
  "d dh p5 8s9sTs", "d dh p6 JsQs3c", "d dh p7 2h3h4h", "d dh p8 5h6h7h",
  "p1 pb", "p2 cbr 2", "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p7 cc", "p8 cc", "p1 cc",
  "d dh p1 3d", "d dh p2 4d", "d dh p3 5d", "d dh p4 6d", "d dh p5 7d", "d dh p6 8d",
  "d dh p7 9d", "d dh p8 Td", "d dh p1 Jd", "d dh p2 Qd", "d dh p3 Kd", "d dh p4 8h",
  "d dh p5 9h", "d dh p6 Th", "d dh p7 Jh", "d dh p8 Qh", "d dh p1 Kh", "d dh p2 Ah",
  "d dh p3 2d", "d dh p4 4c", "d dh p5 5c", "d dh p6 6c", "d dh p7 7c", "d dh p8 8c",
  "d db 9c"]
"""
    record = read_phh(text)
    assert record.community == (Card.parse("9c"),)
    assert not [a for a in record.actions if a.street == 7]
    assert write_phh(record).count('"d db 9c"') == 1
    assert read_phh(write_phh(record)) == record


def test_a_malformed_hand_in_a_phhs_file(tmp_path: Path) -> None:
    records = [sample_hand("stud", 3, seed) for seed in (21, 22, 23)]
    lines = write_phhs(records).splitlines()
    second = lines.index("[2]")
    target = next(i for i in range(second, len(lines)) if "cc" in lines[i])
    lines[target] = lines[target].replace("cc", "xx")
    path = tmp_path / "three.phhs"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_phh_file(path)
    assert result.hands == [records[0], records[2]] and result.places == [1, 3]
    (error,) = result.errors
    assert error.source == str(path) and error.hand == 2 and error.line == target + 1
    assert error.hand_id == records[1].hand_id
    assert "xx" in str(error) and "not a stud action" in str(error)


def test_broken_toml_in_one_hand_leaves_the_others(tmp_path: Path) -> None:
    records = [sample_hand("stud8", 3, seed) for seed in (31, 32)]
    text = write_phhs(records).replace("big_bet = 0.08", "big_bet = = 0.08", 1)
    result = read_phhs(text, "broken.phhs")
    assert result.hands == [records[1]]
    (error,) = result.errors
    assert error.hand == 1 and error.line == 6 and "TOML" in str(error)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('variant = "FR"', 'variant = "NT"'), "not F7S"),
        (("antes = [1, 1, 1]", "antes = [1, 2, 1]"), "same for every player"),
        (('"p2 cbr 4",', '"p2 cbr 1",'), "action 5 'p2 cbr 1'"),
        (('"p3 cc",', '"p9 cc",'), "not a player"),
        (("starting_stacks = [100, 80, 60]", "starting_stacks = [100]"), "2 to 8"),
        (("small_bet = 4\n", ""), "small_bet"),
    ],
)
def test_errors_say_what_is_wrong(change: tuple[str, str], message: str) -> None:
    bad = HIDDEN.replace(*change, 1)
    assert bad != HIDDEN
    with pytest.raises(HistoryError, match=message):
        read_phh(bad, "bad.phh")


def _short_bring_in_hand() -> HandRecord:
    """Stud: East's 2c brings in with the one chip the ante left it (all in); the others fold."""
    from stud.game import STUD, Hand, ScriptedCards, TableConfig
    from stud.history import record_from_hand

    def cards(text: str) -> list[int | None]:
        return [int(c) for c in parse_cards(text)]

    config = TableConfig(game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100, 2, 60))
    dealt = ScriptedCards([cards("Ah Kd Qs"), cards("Jh Jd 2c"), cards("Th 9d 8s")])
    hand = Hand(config, cards=dealt)
    assert hand.to_act == 1
    for action in ("bring-in", "fold", "fold"):
        hand.act(action)
    assert hand.is_over
    return record_from_hand(hand, names=("North", "East", "South"), hero=0)


def test_a_short_all_in_bring_in_from_pokerstars_text_reads_back_from_phh() -> None:
    """PokerStars text states no bring-in when the only one was all in for less: the PHH written
    from such a record posts the seat's chips with its ``pb`` and reads back as the same record."""
    from stud.history import read_pokerstars, replay, write_pokerstars_hand

    text = write_pokerstars_hand(_short_bring_in_hand())
    assert "East: brings in for 1 and is all-in" in text
    (record,) = read_pokerstars(text).hands
    assert record.stakes.bring_in is None
    phh = write_phh(record)
    data = tomllib.loads(phh)
    assert data["_bring_in_unknown"] is True and "p2 pb" in data["actions"]
    assert data["bring_in"] >= 1  # what the pb posts: at least the seat's one chip
    again = read_phh(phh)
    assert again == record
    assert again.actions[0].amount == 1 and again.actions[0].all_in
    report = replay(again)
    assert report.ok and report.matched, report.text()


def test_a_bring_in_of_unknown_amount_that_is_not_all_in_is_refused() -> None:
    """With ``_bring_in_unknown`` the ``pb`` is only known when it puts the player all in."""
    phh = write_phh(_short_bring_in_hand()).replace("bring_in = 2", "bring_in = 1")
    phh = phh.replace("starting_stacks = [100, 2, 60]", "starting_stacks = [100, 3, 60]")
    phh += "_bring_in_unknown = true\n"
    with pytest.raises(HistoryError, match=r"action 4 'p2 pb'.*must put the player all in"):
        read_phh(phh, "unknown.phh")
