"""Each player's own choices at a cash table (issue 38): mucking or showing a hand that
cannot win, and sitting out after the next bring-in (docs/play.md, "Your choices").

The table is pure (time is an argument): these tests drive it over the real engine with a
made-up clock, every player checking and calling, so most hands reach a showdown.
"""

from __future__ import annotations

from typing import Any

from stud.table import Event, Out, Table
from stud.table.engine import start_engine_hand
from test_table_play import Clock, act_passively, deal, events, seated, settings


def play_hand(table: Table, clock: Clock) -> list[Out]:
    """Deal the next hand and play it to its end, everyone checking or calling."""
    outs = deal(table, clock)
    while table.hand is not None:
        outs += act_passively(table, clock)
    return outs


def shown_and_mucked(outs: list[Out]) -> tuple[set[int], set[int]]:
    return {e.data["seat"] for e in events(outs, "show")}, {
        e.data["seat"] for e in events(outs, "muck")
    }


def test_a_player_who_shows_never_mucks_and_the_others_still_do() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=38)
    seated(table, 4, clock)
    table.set_show_losing(2, True)  # seat 1
    assert table.seats[1] is not None and table.seats[1].own()["muck_losing_hands"] is False
    others_mucked = showdowns = 0
    for _ in range(40):
        shown, mucked = shown_and_mucked(play_hand(table, clock))
        if not shown:
            continue
        showdowns += 1
        assert 1 not in mucked  # dealt in every hand, it always shows at a showdown
        assert 1 in shown
        others_mucked += len(mucked)
    assert showdowns >= 20 and others_mucked > 0  # the others' default: muck a beaten hand


def test_the_choice_holds_from_the_next_hand_dealt() -> None:
    """A hand's showdown choices are fixed when it is dealt: a change waits for the next."""
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=7)
    seated(table, 3, clock)
    deal(table, clock)
    table.set_show_losing(1, True)
    assert mucks(table) is True  # the room's default, one for every seat
    while table.hand is not None:
        act_passively(table, clock)
    deal(table, clock)
    player = table.seats[0]
    assert player is not None and player.index is not None
    choices = mucks(table)
    assert isinstance(choices, tuple) and len(choices) == 3
    assert [i for i, muck in enumerate(choices) if not muck] == [player.index]


def mucks(table: Table) -> bool | tuple[bool, ...]:
    """The engine's muck option of the hand in progress."""
    hand: Any = table.hand
    return hand.hand.config.muck_losing_hands  # type: ignore[no-any-return]


def brought_in(outs: list[Out]) -> int | None:
    return next(
        (e.data["seat"] for e in events(outs, "action") if e.data["kind"] == "bring-in"), None
    )


def test_sit_out_next_bring_in_plays_until_it_posts_one_then_sits_out() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=12)
    seated(table, 4, clock)
    assert table.sit_out_after_bring_in(3, True) == []  # seat 2; nothing happens yet
    player = table.seats[2]
    assert player is not None and player.own()["sit_out_after_bring_in"] is True
    for hand in range(60):
        outs = play_hand(table, clock)
        dealt = events(outs, "new_hand")[0].data["players"]
        assert 2 in [p["seat"] for p in dealt], hand  # dealt in until its bring-in
        sat_out = [e for e in events(outs, "sat_out") if isinstance(e, Event)]
        if brought_in(outs) != 2:
            assert not sat_out and not player.sitting_out
            continue
        # The hand it brought in: it sat out as it posted it, from the next hand on.
        assert [e.data for e in sat_out] == [{"seat": 2, "next_hand": True}]
        assert player.sitting_out and not player.sit_out_after_bring_in
        break
    else:
        raise AssertionError("seat 2 never brought in")
    for _ in range(3):
        outs = play_hand(table, clock)
        assert 2 not in [p["seat"] for p in events(outs, "new_hand")[0].data["players"]]


def test_asked_after_posting_this_hands_bring_in_it_sits_out_from_the_next() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=5)
    seated(table, 3, clock)
    deal(table, clock)
    seat = table.actor_seat  # the bring-in's turn comes first
    assert seat is not None
    bringer = table.seats[seat]
    assert bringer is not None
    assert brought_in(act_passively(table, clock)) == seat
    other = next(p for s, p in table.players() if s != seat)
    assert table.sit_out_after_bring_in(other.id, True) == []  # it has not posted one
    sat = table.sit_out_after_bring_in(bringer.id, True)
    assert [e.data for e in events(sat, "sat_out")] == [{"seat": seat, "next_hand": True}]
    assert bringer.sitting_out and table.hand is not None  # the hand plays on
    assert not other.sitting_out and other.sit_out_after_bring_in
    table.sit_out_after_bring_in(other.id, False)  # changed its mind
    assert not other.sit_out_after_bring_in


def test_the_history_and_replay_keep_each_choice_and_no_mucked_card() -> None:
    """A hand's record and its replay show what was shown, a beaten hand its player chose to
    show among it, and never a mucked hand's down cards to anyone else."""
    from stud.game import Hand, HandMucked, HandShown, ScriptedCards, TableConfig, visible_events
    from stud.history import record_from_events, replay
    from test_game_rules import THREE_TO_SHOWDOWN, do, passive

    config = TableConfig(
        game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(200,) * 3,
        muck_losing_hands=(True, False, True),
    )  # fmt: skip
    hand = Hand(config, cards=ScriptedCards(THREE_TO_SHOWDOWN))
    passive(hand, 7)
    do(hand, (2, "bet"), (0, "call"), (1, "call"))
    report = replay(record_from_events(hand.events))
    assert report.ok, report.problems
    for log in (hand.events, report.events):
        assert [e.seat for e in log if isinstance(e, HandShown)] == [2, 1]
        assert [e.seat for e in log if isinstance(e, HandMucked)] == [0]
    mucked_down = set(THREE_TO_SHOWDOWN[0].split()[:2]) | {THREE_TO_SHOWDOWN[0].split()[-1]}
    for viewer in (None, 1, 2):
        seen = str([e.to_dict() for e in visible_events(report.events, viewer)])
        assert not any(f"'{card}'" in seen for card in mucked_down), viewer
        assert "'6c'" in seen  # seat 1's down card: shown, by its choice
