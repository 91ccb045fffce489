"""Lively tables and chips at the table layer: how bots come and go, sitting out and leaving
during a hand, topping up, the automatic rebuy (issue 14).

Pure: a made-up clock, the real engine.
"""

from __future__ import annotations

import pytest

from stud.table import Effect, Out, Table, TableError, TableSettings
from stud.table.crowd import Crowd
from stud.table.engine import start_engine_hand
from test_table_play import PAUSE, Clock, events
from test_table_play import settings as base_settings


def settings(**overrides: object) -> TableSettings:
    """An 8-seat table aiming at six players, buy-ins 40 to 400 (or as overridden)."""
    base: dict[str, object] = {"seats": 8, "bots": 6, "min_buy_in": 40, "max_buy_in": 400}
    return base_settings(**{**base, **overrides})


def play_hand(table: Table, clock: Clock) -> list[Out]:
    """Deal one hand and check or call it down."""
    outs = table.tick(clock(PAUSE))
    assert table.hand is not None
    return outs + play_hand_rest(table, clock)


def play_hand_rest(table: Table, clock: Clock) -> list[Out]:
    """Check or call the hand in progress down (the cheapest wager when there is no call)."""
    outs: list[Out] = []
    while table.hand is not None:
        seat = table.actor_seat
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        legal = {a.action: a.to for a in table.legal()}
        passive = [a for a in ("check", "call", "bring-in") if a in legal]
        wagers = sorted((to, a) for a, to in legal.items() if a != "fold")
        action = passive[0] if passive else wagers[0][1]
        outs += table.act(player.id, action, legal[action], table.turn_id, clock(0.1))
    return outs


def fill_bots(table: Table, clock: Clock, first_id: int = 100) -> int:
    """Seat the bots the table asks for now; how many."""
    wanted = table.bots_wanted()
    for i in range(wanted):
        account = first_id + len(table.players()) + i * 1000
        table.sit(account, f"Bot {account}", 400, clock(), bot=True)
    return wanted


def test_the_band_of_players_a_table_keeps() -> None:
    eight = Crowd(target=6, seats=8)
    assert (eight.low, eight.high) == (5, 7)
    six = Crowd(target=4, seats=6)
    assert (six.low, six.high) == (3, 5)
    assert Crowd(target=0, seats=6).bots_to_add(0, 6, 0, playable=False) == 0
    # An empty table fills at once; a dealing one takes one bot between two hands.
    assert eight.bots_to_add(0, 8, 0, playable=False) == 6
    assert eight.bots_to_add(4, 4, 0, playable=True) == 1
    # Seats owed to people waiting stay free of bots.
    assert eight.bots_to_add(4, 4, 4, playable=True) == 0
    assert eight.bot_should_leave(8, 0, 0) and eight.bot_should_leave(7, 0, 1)
    assert not eight.bot_should_leave(7, 1, 0)


def test_people_sitting_down_keep_an_eight_seat_table_lively() -> None:
    """Bots leave one a hand as people come, never below the band, and come back as they go."""
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=1)
    assert fill_bots(table, clock) == 6
    play_hand(table, clock)
    # Sitting down makes nobody leave at once: the next hand is seven-handed.
    table.sit(1, "alice", 200, clock())
    outs = play_hand(table, clock)
    assert not events(outs, "left")
    assert len(events(outs, "new_hand")[0].data["players"]) == 7
    # Each further person makes eight, above the band: one bot leaves after the hand.
    for account, name in ((2, "bob"), (3, "carol")):
        table.sit(account, name, 200, clock())
        assert len(table.players()) == 8
        outs = play_hand(table, clock)
        assert len(events(outs, "left")) == 1 and len(table.players()) == 7
    outs = play_hand(table, clock)
    assert not events(outs, "left") and len(table.players()) == 7
    # People leave: bots come back one between two hands until the table has six again.
    for account in (1, 2, 3):
        table.leave(account, clock())
    assert len(table.players()) == 4
    assert fill_bots(table, clock, 500) == 1
    assert table.bots_wanted() == 0  # one a pause
    play_hand(table, clock)
    assert fill_bots(table, clock, 600) == 1
    play_hand(table, clock)
    assert table.bots_wanted() == 0 and len(table.players()) == 6


def test_a_bot_makes_room_for_people_waiting_at_a_full_table() -> None:
    clock = Clock()
    table = Table(settings(seats=6, bots=6), start_engine_hand, seed=2)
    fill_bots(table, clock)
    assert all(p is not None for p in table.seats)
    table.waiting = 1
    outs = play_hand(table, clock)
    assert len(events(outs, "left")) == 1
    assert table.bots_wanted() == 0  # the free seat is the waiting person's


def test_sitting_out_and_leaving_during_a_hand() -> None:
    clock = Clock()
    table = Table(settings(bots=0), start_engine_hand, seed=3)
    for account in (1, 2, 3):
        table.sit(account, f"p{account}", 200, clock())
    table.tick(clock(PAUSE))
    actor = table.actor_seat
    assert actor is not None
    player = table.seats[actor]
    assert player is not None
    # Sitting out: the hand plays on, the player is still to act.
    outs = table.sit_out(player.id, clock())
    assert events(outs, "sat_out")[0].data["next_hand"] is True
    assert table.actor_seat == actor and not events(outs, "action")
    # Leaving on one's turn folds at once (or posts the bring-in, which may not be folded).
    outs = table.leave(player.id, clock())
    leaving = events(outs, "leaving")[0].data
    assert leaving == {"seat": actor, "folds": True}
    mine = [e.data["kind"] for e in events(outs, "action") if e.data["seat"] == actor]
    assert mine in (["fold"], ["bring-in"])
    assert table.actor_seat != actor
    assert table.view(actor)["seats"][actor]["leaving"] is True


def test_topping_up_between_hands_and_during_one() -> None:
    clock = Clock()
    table = Table(settings(bots=0), start_engine_hand, seed=4)
    table.sit(1, "alice", 100, clock())
    table.sit(2, "bob", 100, clock())
    outs = table.top_up(1, 50, clock())
    assert events(outs, "topped_up")[0].data == {
        "seat": 0, "amount": 50, "stack": 150, "after_hand": False, "rebuy": False
    }  # fmt: skip
    assert table.view(0)["mine"]["buy_in"] == 150  # what an automatic rebuy goes back to
    with pytest.raises(TableError) as refused:
        table.top_up(1, 300, clock())
    assert refused.value.code == "bad_top_up" and "at most 250" in str(refused.value)
    with pytest.raises(TableError):
        table.top_up(1, 0, clock())
    table.tick(clock(PAUSE))
    assert table.hand is not None
    outs = table.top_up(2, 100, clock())
    assert events(outs, "topped_up")[0].data["after_hand"] is True
    assert table.view(1)["mine"]["pending"] == 100
    outs = play_hand_rest(table, clock)
    added = events(outs, "topped_up")[0].data
    assert added["seat"] == 1 and added["amount"] == 100
    bob = table.seats[1]
    assert bob is not None and bob.pending == 0 and added["stack"] == bob.stack
    stacks = sum(p.stack for _, p in table.players())
    assert stacks == 100 + 50 + 100 + 100


def test_the_automatic_rebuy_is_due_below_the_minimum_and_keeps_a_busted_seat() -> None:
    clock = Clock()
    table = Table(
        settings(bots=0, ante=10, bring_in=10, small_bet=10, big_bet=20, min_buy_in=20),
        start_engine_hand,
        seed=5,
    )
    table.sit(1, "short", 20, clock())
    for account in (2, 3, 4):
        table.sit(account, f"deep{account}", 400, clock())
    table.set_auto_rebuy(1, True)
    mine = table.view(0)["mine"]
    assert {k: mine[k] for k in ("auto_rebuy", "pending", "buy_in")} == {
        "auto_rebuy": True, "pending": 0, "buy_in": 20
    }  # fmt: skip
    for _ in range(30):
        outs = play_hand(table, clock)
        short = table.seats[0]
        assert short is not None, "a player with the automatic rebuy is not sent away broke"
        if short.stack < 20:
            assert table.rebuy_wanted() == [(1, 20 - short.stack)]
            cash = [o for o in outs if isinstance(o, Effect) and o.kind == "cash_out"]
            assert not [c for c in cash if c.data["account_id"] == 1]
            return
    raise AssertionError("the short stack never fell below the minimum")


def test_the_rooms_tables_keep_five_to_seven_of_eight_and_three_to_five_of_six() -> None:
    from stud.server.room.room import DEFAULT_TABLES

    for spec in DEFAULT_TABLES:
        crowd = Crowd(spec.bots, spec.seats)
        assert (crowd.low, crowd.target, crowd.high) == (
            (5, 6, 7) if spec.seats == 8 else (3, 4, 5)
        ), spec
