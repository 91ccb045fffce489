"""Replay: records run through the engine, rules checked, money compared, hidden cards handled."""

from __future__ import annotations

import dataclasses

import pytest

from stud.cards import Card, Deck
from stud.game import STUD, CardBurned, Hand, ScriptedCards, TableConfig
from stud.history import HandRecord, Kind, Show, read_pokerstars
from stud.history.from_engine import record_from_hand
from stud.history.phh import read_phh, write_phh
from stud.history.pokerstars_write import write_pokerstars
from stud.history.replay import completed, replay
from stud.history.samples import sample_hand, sample_hands

SAMPLES = (90, 3000)
"""The ``samples`` fixture's hands: how many, from which seed."""


def check_all(records: list[HandRecord]) -> None:
    for record in records:
        report = replay(record)
        assert report.ok, report.text()
        assert report.matched is True
        assert report.stacks == record.finishing_stacks
        assert report.rake == record.rake


def test_a_rake_taken_pot_by_pot_matches_when_different_players_win_the_pots(
    samples: list[HandRecord],
) -> None:
    """The samples that need a rake per pot (main and side pot won by others) match too."""
    split_rake = [
        r for r in samples if len(r.pots) > 1 and r.rake and len({c.seat for c in r.collects}) > 1
    ]
    assert split_rake, "the samples should hold raked hands whose pots go to different players"
    check_all(split_rake)


def test_the_engines_own_hands_replay_and_match(samples: list[HandRecord]) -> None:
    for record in samples:
        assert not replay(record).trusted
    check_all(samples)


def test_hands_read_from_pokerstars_text_replay_with_hidden_cards(
    samples: list[HandRecord],
) -> None:
    read = read_pokerstars(write_pokerstars(samples)).hands
    assert any(None in cards for record in read for cards in record.cards)
    check_all(read)


def _cards(text: str) -> list[int | None]:
    return [None if t == "??" else int(Card.parse(t)) for t in text.split()]


def check_call_hand(
    seats: list[str] | int, stacks: tuple[int, ...], *, burn_cards: bool = False
) -> Hand:
    """Stud: everyone checks or calls to the showdown (the bring-in seat brings in).

    ``seats`` gives each seat's cards, or is the seed of a shuffled deck.
    """
    config = TableConfig(
        game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=stacks, burn_cards=burn_cards
    )
    if isinstance(seats, int):
        hand = Hand(config, deck=Deck(seed=seats))
    else:
        hand = Hand(config, cards=ScriptedCards([_cards(s) for s in seats]))
    while not hand.is_over:
        kinds = {a.kind.value: a for a in hand.legal_actions()}
        hand.act(kinds.get("bring-in") or kinds.get("check") or kinds["call"])
    return hand


def quads_hand() -> HandRecord:
    hand = check_call_hand(["As Ad Ac Ah 2h 3h 4h", "Kd Qd 2c 7d 9h Kc 5s"], (100, 100))
    return record_from_hand(hand, names=("Quads", "Kings"))


def hide(record: HandRecord, seat: int, *positions: int) -> HandRecord:
    cards = [list(c) for c in record.cards]
    for position in positions:
        cards[seat][position] = None
    shows = tuple(
        dataclasses.replace(s, cards=tuple(cards[seat][: len(s.cards)]))
        if isinstance(s, Show) and s.seat == seat
        else s
        for s in record.shows
    )
    return dataclasses.replace(record, cards=tuple(tuple(c) for c in cards), shows=shows)


def test_a_bring_in_decided_by_a_hidden_door_card_is_trusted() -> None:
    record = next(
        r
        for r in sample_hands(30, seed=40)
        if r.actions[0].kind is Kind.BRING_IN and r.game != "razz"
    )
    bringer = record.actions[0].seat
    hidden = hide(record, bringer, 0, 1, 2)
    assert "????" in write_phh(hidden)
    report = replay(read_phh(write_phh(hidden)))
    assert report.ok, report.text()
    assert report.matched is True
    assert any("bring-in depends on an unknown door card" in t for t in report.trusted)
    assert any("action 1" in t for t in report.trusted)


def test_a_hidden_showdown_card_that_cannot_change_the_result() -> None:
    record = quads_hand()
    assert record.collected is not None and record.collected[1] == 0  # quads won it all
    report = replay(hide(record, 0, 6))
    assert report.ok, report.text()
    (note,) = report.trusted
    assert "1 hidden card(s) at the showdown (Quads (seat 1))" in note
    assert "every one of the" in note and "gives the recorded result" in note


@pytest.mark.slow
def test_a_result_no_hidden_card_can_give_is_a_problem() -> None:
    record = quads_hand()
    total = sum(record.collected or ())
    wrong = dataclasses.replace(
        hide(record, 1, 0, 1),
        collected=(0, total),
        finishing_stacks=tuple(reversed(record.finishing_stacks or ())),
    )
    report = replay(wrong)
    assert not report.ok
    assert any("no cards they could be give the recorded result" in p for p in report.problems)


def test_a_loser_whose_cards_are_hidden_is_taken_as_mucked() -> None:
    report = replay(hide(quads_hand(), 1, 0, 1, 6))
    assert report.ok and report.matched is True
    assert any("taken as mucked" in t for t in report.trusted)


def test_an_illegal_action_names_the_hand_and_the_action(samples: list[HandRecord]) -> None:
    record = next(r for r in samples if any(a.kind is Kind.CALL for a in r.actions))
    index = next(i for i, a in enumerate(record.actions) if a.kind is Kind.CALL)
    call = record.actions[index]
    actions = list(record.actions)
    actions[index] = dataclasses.replace(call, kind=Kind.CHECK, amount=0)
    report = replay(dataclasses.replace(record, actions=tuple(actions)), "broken hand")
    assert not report.ok
    (problem,) = report.problems
    name = record.seats[call.seat].name
    assert problem.startswith(f"action {index + 1} ({name} check on street {call.street}): ")
    assert "cannot check" in problem
    assert report.text().startswith("broken hand [")


def test_an_action_out_of_turn(samples: list[HandRecord]) -> None:
    record = next(r for r in samples if len(r.actions) > 3 and r.actions[1].kind is Kind.FOLD)
    actions = list(record.actions)
    actions[1] = dataclasses.replace(actions[1], seat=(actions[1].seat + 1) % len(record.seats))
    report = replay(dataclasses.replace(record, actions=tuple(actions)))
    assert not report.ok
    assert "'s turn" in report.problems[0] and report.problems[0].startswith("action 2 ")


def test_stacks_that_do_not_match_are_reported(samples: list[HandRecord]) -> None:
    record = samples[0]
    stacks = list(record.finishing_stacks or ())
    stacks[0] += 1
    report = replay(dataclasses.replace(record, finishing_stacks=tuple(stacks)))
    assert not report.ok and report.matched is False
    assert report.problems == [
        f"final stacks differ: {record.names[0]} {stacks[0]} recorded, {stacks[0] - 1} replayed"
    ]


def test_the_stated_rake_is_taken(samples: list[HandRecord]) -> None:
    record = next(r for r in samples if r.rake >= 2 and len(r.collects) == 1)
    assert replay(record).rake == record.rake
    (collect,) = record.collects
    more = dataclasses.replace(
        record,
        rake=record.rake + 1,
        collects=(dataclasses.replace(collect, amount=collect.amount - 1),),
        pots=(record.pots[0] - 1,),
    )
    assert replay(more).ok is False  # the stacks the record states now differ by a cent
    fixed = dataclasses.replace(
        more,
        collected=tuple(c - (i == collect.seat) for i, c in enumerate(record.collected or ())),
        finishing_stacks=tuple(
            s - (i == collect.seat) for i, s in enumerate(record.finishing_stacks or ())
        ),
    )
    report = replay(fixed)
    assert report.ok, report.text()
    assert report.rake == record.rake + 1


def test_the_community_card_when_eight_reach_the_river() -> None:
    hand = check_call_hand(8, (500,) * 8)
    assert hand.has_community
    names = [f"P{i}" for i in range(8)]
    record = record_from_hand(hand, names=names, hero=0, currency="USD", decimals=2)
    text = write_pokerstars([record])
    assert f"*** RIVER *** [{record.community[0]}]" in text
    assert f"Board [{record.community[0]}]" in text
    (read,) = read_pokerstars(text).hands
    assert read.community == record.community and all(len(c) == 6 for c in read.cards)
    assert replay(read).ok


def test_burn_cards_in_a_live_record_are_followed() -> None:
    hand = check_call_hand(4, (300,) * 4, burn_cards=True)
    record = record_from_hand(hand)
    assert record.burn_cards and len(record.burns) == 4
    again = read_phh(write_phh(record))
    assert again.burns == record.burns and again.burn_cards
    report = replay(again)
    assert report.ok, report.text()
    burned = [e.card for e in report.events if isinstance(e, CardBurned)]
    assert burned == [int(c) for c in record.burns if c is not None]


def test_a_record_without_results_is_completed_by_its_replay() -> None:
    record = sample_hand("stud8", 5, 77)
    bare = dataclasses.replace(
        record, shows=(), collects=(), pots=(), rake=0, collected=None, finishing_stacks=None
    )
    report = replay(bare)
    assert report.ok and report.matched is None
    full = completed(bare)
    assert full.collects and full.finishing_stacks is not None
    assert replay(full).ok
