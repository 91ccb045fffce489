"""PokerStars text: hands the engine plays, written and read back; malformed files reported."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from stud.cards import Card, parse_cards
from stud.game import STUD, Hand, ScriptedCards, TableConfig
from stud.history import HandRecord, Kind, read_pokerstars, read_pokerstars_file
from stud.history.describe import pokerstars_description
from stud.history.from_engine import record_from_hand
from stud.history.money import plain, to_units
from stud.history.pokerstars_read import split_hands
from stud.history.pokerstars_write import write_pokerstars, write_pokerstars_hand
from stud.history.samples import sample_hand, sample_hands


def written(records: list[HandRecord]) -> str:
    return write_pokerstars(records, describe=pokerstars_description)


SAMPLES = (90, 1000)
"""The ``samples`` fixture's hands: how many, from which seed."""


def _cards(text: str) -> list[int | None]:
    return [None if t == "??" else int(Card.parse(t)) for t in text.split()]


def crafted_stud_hand() -> HandRecord:
    """Stud, three players: completion, a capped 3rd street, an open pair, an all-in, a return."""
    config = TableConfig(
        game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100, 100, 30)
    )
    cards = ScriptedCards(
        [
            _cards("Ah Kd 2c 7s"),
            _cards("Qh Qd Ks Kc 5d 6d 4h"),
            _cards("Jh Jd Ts 9c 8d 3s 2h"),
        ]
    )
    hand = Hand(config, cards=cards)
    for action in (
        "bring-in",  # seat 0: the 2c is the lowest door card (R3)
        "complete",  # seat 1
        "raise",  # seat 2
        "call",
        "raise",
        "raise",  # the completion and three raises: capped (R10)
        "call",
        "call",
    ):
        hand.act(action)
    assert hand.street == 4 and hand.to_act == 1  # the open pair of kings acts first
    hand.act("bet", 8)  # R7: the double bet
    hand.act("call")
    hand.act("fold")
    hand.act("bet")
    hand.act("call")  # seat 2 has 5 left: all-in
    assert hand.is_over
    return record_from_hand(
        hand,
        names=("Ann", "Ben", "Cat"),
        seat_numbers=(2, 5, 7),
        hand_id="777",
        table="Crafted",
        max_seats=8,
        currency="USD",
        decimals=2,
        hero=0,
    )


def test_crafted_hand_reads_like_pokerstars() -> None:
    text = write_pokerstars_hand(crafted_stud_hand(), describe=pokerstars_description)
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Hand #777:  7 Card Stud Limit ($0.04/$0.08 USD) - ")
    assert lines[1] == "Table 'Crafted' 8-max"
    assert lines[2:5] == [
        "Seat 2: Ann ($1 in chips)",
        "Seat 5: Ben ($1 in chips)",
        "Seat 7: Cat ($0.30 in chips)",
    ]
    assert "Ann: posts the ante $0.01" in lines
    assert "Dealt to Ann [Ah Kd 2c]" in lines  # the hero's down cards
    assert "Dealt to Ben [Ks]" in lines  # everyone else's up card only
    third = lines[lines.index("Ann: brings in for $0.02") :]
    assert third[:9] == [
        "Ann: brings in for $0.02",
        "Ben: raises $0.02 to $0.04",  # the completion, as PokerStars writes it
        "Cat: raises $0.04 to $0.08",
        "Ann: calls $0.06",
        "Ben: raises $0.04 to $0.12",
        "Cat: raises $0.04 to $0.16",
        "Betting is capped",
        "Ann: calls $0.08",
        "Ben: calls $0.04",
    ]
    fourth = lines[lines.index("*** 4th STREET ***") :]
    assert fourth[1:6] == [
        "Dealt to Ann [Ah Kd 2c] [7s]",
        "Dealt to Ben [Ks] [Kc]",
        "Dealt to Cat [Ts] [9c]",
        "Pair on board - a double bet is allowed",
        "Ben: bets $0.08",
    ]
    assert "Cat: calls $0.05 and is all-in" in lines
    assert "Uncalled bet ($0.03) returned to Ben" in lines
    assert "*** SHOW DOWN ***" in lines
    assert "Ben: shows [Qh Qd Ks Kc 5d 6d 4h] (two pair, Kings and Queens)" in lines
    assert "Ann: " not in "\n".join(lines[lines.index("*** SHOW DOWN ***") :])
    summary = lines[lines.index("*** SUMMARY ***") :]
    assert summary[1].startswith("Total pot $") and summary[1].endswith("| Rake $0")
    assert "Seat 2: Ann folded on the 4th Street" in summary


def test_written_hands_read_back_the_same(samples: list[HandRecord]) -> None:
    text = written(samples)
    first = read_pokerstars(text, "samples.txt")
    assert not first.errors
    assert len(first.hands) == len(samples)
    again = read_pokerstars(written(first.hands), "again.txt")
    assert again.hands == first.hands
    assert written(again.hands) == text


def test_reading_recovers_what_the_text_shows(samples: list[HandRecord]) -> None:
    read = read_pokerstars(written(samples)).hands
    for original, copy in zip(samples, read, strict=True):
        assert copy.game == original.game
        assert copy.stakes.small_bet == original.stakes.small_bet
        assert copy.starting_stacks == original.starting_stacks
        assert copy.finishing_stacks == original.finishing_stacks
        assert copy.collected == original.collected
        assert copy.rake == original.rake and copy.pots == original.pots
        assert [(a.seat, a.kind, a.amount, a.to) for a in copy.actions] == [
            (a.seat, a.kind, a.amount, a.to) for a in original.actions
        ]
        hero = original.hero
        assert hero is not None and copy.hero == hero
        assert copy.cards[hero][:2] == original.cards[hero][:2]
        for seat, cards in enumerate(copy.cards):
            # every card the text shows is the card dealt; the rest are unknown
            for got, dealt in zip(cards, original.cards[seat], strict=True):
                assert got is None or got == dealt
            assert all(c is not None for c in cards[2:6])  # up cards are always shown


def test_every_feature_of_the_format_appears(samples: list[HandRecord]) -> None:
    text = written(samples)
    for needle in (
        ": brings in for $",
        ": raises $0.02 to $0.04",
        "Pair on board - a double bet is allowed",
        "Betting is capped",
        "Uncalled bet (",
        "and is all-in",
        "*** SHOW DOWN ***",
        "No low hand qualified",
        "; LO: ",
        "(Lo: ",
        "collected $",
        "from side pot",
        "Main pot $",
        "mucks hand",
        "(didn't bet)",
        "folded on the River",
        ": Tournament #",
    ):
        assert needle in text, needle


def test_amounts_print_as_pokerstars_prints_them() -> None:
    assert plain(100, 2) == "1"
    assert plain(160, 2) == "1.60"
    assert plain(4, 2) == "0.04"
    assert plain(331800, 2) == "3318"
    assert plain(1145, 0) == "1145"
    assert to_units("51125.64", 2) == 5112564
    with pytest.raises(ValueError, match=r"0\.001"):
        to_units("0.001", 2)


def test_room_noise_is_skipped() -> None:
    record = sample_hand("razz", 5, 41)
    text = written([record])
    lines = text.splitlines()
    noisy = list(lines)
    third = noisy.index("*** 3rd STREET ***")
    noisy.insert(third + 3, "Zed joins the table at seat #3")
    noisy.insert(third + 5, 'Ada said, "gl all"')
    noisy.insert(len(noisy) - 4, "Brook is disconnected")
    noisy.insert(len(noisy) - 4, "Brook is connected")
    noisy.insert(noisy.index("*** SUMMARY ***"), "Cy leaves the table")
    clean = read_pokerstars(text).hands
    loud = read_pokerstars("\n".join(noisy)).hands
    assert loud == clean


def _three_hands(tmp_path: Path) -> tuple[Path, list[str], list[HandRecord]]:
    records = [sample_hand("stud8", 4, seed) for seed in (3, 4, 5)]
    text = written(records)
    return tmp_path / "three.txt", text.splitlines(), records


def test_a_malformed_hand_names_file_hand_and_line(tmp_path: Path) -> None:
    path, lines, records = _three_hands(tmp_path)
    starts = [start for start, _ in split_hands("\n".join(lines))]
    middle = starts[1] - 1  # index of the second hand's first line
    target = next(i for i in range(middle, len(lines)) if lines[i].endswith("posts the ante $0.01"))
    lines[target] = lines[target].replace("posts the ante", "posts the aunt")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_pokerstars_file(path)
    assert [r.hand_id for r in result.hands] == [records[0].hand_id, records[2].hand_id]
    assert result.places == [1, 3]
    (error,) = result.errors
    assert error.source == str(path)
    assert error.hand == 2 and error.hand_id == records[1].hand_id
    assert error.line == target + 1
    assert "posts the aunt" in str(error)
    assert str(error).startswith(f"{path}, hand 2 (#{records[1].hand_id}), line {target + 1}: ")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("calls $0.04", "calls $0.05", "call of 5"),
        ("collected $", "collected $9", "summary"),
        ("*** SUMMARY ***", "*** SUMMERY ***", "unexpected line"),
        ("Table '", "Tabel '", "Table"),
    ],
)
def test_other_corruptions_are_caught(
    samples: list[HandRecord], old: str, new: str, message: str
) -> None:
    record = next(r for r in samples if "calls $0.04" in written([r]) and r.showdown)
    text = written([record])
    bad = text.replace(old, new, 1)
    assert bad != text
    result = read_pokerstars(bad, "x.txt")
    assert not result.hands
    (error,) = result.errors
    assert message in str(error)
    assert error.line is not None
    assert error.hand == 1


def test_older_headers_and_a_byte_order_mark_are_read() -> None:
    record = sample_hand("stud", 3, 11)
    text = written([record])
    head, rest = text.split("\n", 1)
    old = head.replace("PokerStars Hand #", "PokerStars Game #").replace(" USD)", ")")
    result = read_pokerstars("\ufeff" + old + "\n" + rest)
    assert not result.errors
    assert result.hands == read_pokerstars(text).hands


def test_a_tracker_export_header_in_capitals_is_read() -> None:
    record = sample_hand("stud8", 4, 12, cash=False)
    text = written([record])
    head, rest = text.split("\n", 1)
    upper = head.replace("Tournament", "TOURNAMENT").replace("Level", "LEVEL")
    upper = upper.replace("7 Card Stud Hi/Lo Limit", "7 CARD STUD HI/LO LIMIT")
    result = read_pokerstars(upper + "\n" + rest)
    assert result.hands == read_pokerstars(text).hands
    tournament = result.hands[0].tournament
    assert tournament is not None and tournament.level == "II"


def test_a_card_pokerstars_could_not_print_is_read_as_unknown() -> None:
    record = next(
        r
        for r in sample_hands(40, seed=3)
        if r.hero is not None and len(r.cards[r.hero]) == 7 and r.hero in r.live_at_end()
    )
    hero = record.seats[record.hero or 0].name
    lines = written([record]).splitlines()
    river = next(
        i
        for i, line in enumerate(lines)
        if line.startswith(f"Dealt to {hero} [") and line.count(" ") > 8
    )
    lines[river] = lines[river].rsplit("[", 1)[0] + "[of]"
    (read,) = read_pokerstars("\n".join(lines)).hands
    assert any("'of' is not a card" in note for note in read.notes)
    # The hand still reads whole: the card comes back from the showdown if it was shown.
    (clean,) = read_pokerstars(written([record])).hands
    hero_seat = record.hero or 0
    if hero_seat in read.shown():
        assert read == clean
    else:
        assert read.cards[hero_seat][6] is None
        assert read.cards[hero_seat][:6] == clean.cards[hero_seat][:6]


def test_kinds_of_actions_are_kept() -> None:
    record = crafted_stud_hand()
    (read,) = read_pokerstars(write_pokerstars_hand(record)).hands
    kinds = [a.kind for a in read.actions if a.street == 3]
    assert kinds[:3] == [Kind.BRING_IN, Kind.COMPLETE, Kind.RAISE]
    assert dataclasses.replace(read, notes=()) == read
    assert read.cards[1] == tuple(parse_cards("Qh Qd Ks Kc 5d 6d 4h"))


# Seven cards each: North (Ah) is high on board and acts first from 4th street; East's 2c brings in.
DEAL = ("Ah Kd As Ac 9h 9d 8c", "Jh Jd 2c 3c 4c 5c 6c", "Th 9s 8s 7s 6s 5s 4s")


def _forced_bring_in_hand(stacks: tuple[int, int, int], actions: list[str]) -> HandRecord:
    """Stud at a table whose bring-in is the small bet (4): East's bring-in is the forced bet."""
    config = TableConfig(game=STUD, ante=1, bring_in=4, small_bet=4, big_bet=8, stacks=stacks)
    hand = Hand(config, cards=ScriptedCards([_cards(c) for c in DEAL]))
    for action in actions:
        hand.act(action)
    while not hand.is_over:
        hand.act("check" if any(a.kind.value == "check" for a in hand.legal_actions()) else "call")
    return record_from_hand(hand, names=("North", "East", "South"), hero=0)


@pytest.mark.parametrize(
    ("stacks", "actions", "line", "bring_in"),
    [
        ((100, 100, 100), ["complete", "call", "call"], "East: brings in for 4", 4),
        (
            (100, 2, 100),
            ["complete", "complete", "call"],
            "East: brings in for 1 and is all-in",
            None,
        ),
        # All in for 3 of 4, half a bet or more: it is the street's bet and South raises it (R11).
        ((100, 4, 100), ["complete", "raise", "call"], "East: brings in for 3 and is all-in", None),
    ],
)
def test_a_bring_in_that_is_the_small_bet_is_written_as_a_bring_in_and_replays(
    stacks: tuple[int, int, int], actions: list[str], line: str, bring_in: int | None
) -> None:
    """At a table whose bring-in is the small bet the engine's forced completion is the bring-in:
    PokerStars text says ``brings in for`` (``and is all-in`` for a short seat), and it replays."""
    from stud.history import replay

    record = _forced_bring_in_hand(stacks, actions)
    assert record.actions[0].kind is Kind.BRING_IN
    text = write_pokerstars_hand(record)
    assert line in text.splitlines() and "East: bets" not in text
    (read,) = read_pokerstars(text).hands
    assert read.stakes.bring_in == bring_in
    assert read.actions == record.actions
    report = replay(read)
    assert report.ok and report.matched and report.stacks == record.finishing_stacks, report.text()


def test_betting_is_capped_only_by_the_fourth_full_bet_or_raise() -> None:
    """A short all-in raise of less than half a bet is no raise (R11): after the completion and
    two raises it does not cap the street; the full raise after it does, as the engine says."""
    from stud.game import BettingCapped

    config = TableConfig(
        game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100, 14, 100)
    )
    deal = ("Ah Kd 2c 3d 4h 5d 6c", "Jh Jd 5c 6d 7h 8h 9c", "Th 9s 8s 7s 6s 5s 4s")
    hand = Hand(config, cards=ScriptedCards([_cards(c) for c in deal]))
    for action in ("bring-in", "complete", "raise", "raise"):  # 2, 4, 8, 12
        hand.act(action)
    hand.act("raise", 13)  # East: all in, one chip more
    hand.act("raise")  # South: 16, the fourth full wager
    while not hand.is_over:
        hand.act("check" if any(a.kind.value == "check" for a in hand.legal_actions()) else "call")
    assert [e.street for e in hand.events if isinstance(e, BettingCapped)] == [3]
    record = record_from_hand(hand, names=("North", "East", "South"), hero=0)
    lines = write_pokerstars_hand(record).splitlines()
    short = lines.index("East: raises 1 to 13 and is all-in")
    assert lines[short + 1 : short + 3] == ["South: raises 3 to 16", "Betting is capped"]
    assert lines.count("Betting is capped") == 1
    (read,) = read_pokerstars("\n".join(lines)).hands
    assert read.actions == record.actions


@pytest.mark.parametrize(
    ("time", "zone", "stamp"),
    [
        # The corpus's tournament header: 2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]
        ("2013-01-03 16:27:43", "EET", "2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]"),
        ("2026-01-31 02:05:09", "UTC", "2026/01/31 2:05:09 UTC [2026/01/30 21:05:09 ET]"),
        ("2026-07-01 14:00:00", "UTC", "2026/07/01 14:00:00 UTC [2026/07/01 10:00:00 ET]"),
        ("2009-07-16 02:36:31", "CET", "2009/07/16 2:36:31 CET [2009/07/15 20:36:31 ET]"),
        ("2010-09-09 18:27:23", "ET", "2010/09/09 18:27:23 ET"),
    ],
)
@pytest.mark.parametrize("cash", [False, True])
def test_a_header_in_another_zone_than_et_adds_the_time_in_et(
    time: str, zone: str, stamp: str, cash: bool
) -> None:
    """PokerStars follows a local time in another zone with the same moment in ET."""
    from datetime import datetime

    when = datetime.fromisoformat(time)
    record = dataclasses.replace(sample_hand("razz", 3, 8, cash=cash), time=when, time_zone=zone)
    assert record.time_et is None
    text = write_pokerstars_hand(record)
    header = text.splitlines()[0]
    assert header.endswith(f" - {stamp}"), header
    if cash:
        assert header.startswith("PokerStars Hand #100000000008:  Razz Limit ($0.04/$0.08 USD)")
    else:
        assert ": Tournament #3000003, $10+$1 USD Razz Limit - Level II (50/100) - " in header
    (read,) = read_pokerstars(text).hands
    assert (read.time, read.time_zone) == (when, zone)
    assert (read.time_et is None) == (zone == "ET")
    assert write_pokerstars_hand(read) == text
