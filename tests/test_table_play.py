"""The table layer on the real engine: the button, seating between hands, sitting out, leaving,
busting, bots making room, clocks and time-outs, and chips conserved over many hands.

The table is pure (time is an argument), so these tests drive it with a made-up clock.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stud.table import Effect, Event, Out, Table, TableError, TableSettings
from stud.table.engine import start_engine_hand

PAUSE = 1.0


def settings(**overrides: Any) -> TableSettings:
    base: dict[str, Any] = {
        "name": "t", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8,
        "seats": 6, "turn_seconds": 10.0, "time_bank": 5.0, "bank_refill": 1.0,
        "timeouts_to_sit_out": 2, "pause_between_hands": PAUSE,
    }  # fmt: skip
    base.update(overrides)
    return TableSettings(**base)


def events(outs: list[Out], kind: str | None = None) -> list[Event]:
    return [o for o in outs if isinstance(o, Event) and (kind is None or o.kind == kind)]


def effects(outs: list[Out], kind: str) -> list[Effect]:
    return [o for o in outs if isinstance(o, Effect) and o.kind == kind]


class Clock:
    """A made-up clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self, step: float = 0.0) -> float:
        self.now += step
        return self.now


def deal(table: Table, clock: Clock) -> list[Out]:
    """Let the pause pass so the next hand is dealt."""
    outs = table.tick(clock(PAUSE))
    assert table.hand is not None, outs
    return outs


def act_passively(table: Table, clock: Clock) -> list[Out]:
    """The player to act checks, calls or brings in (never folds)."""
    seat = table.actor_seat
    assert seat is not None
    player = table.seats[seat]
    assert player is not None
    legal = {a.action: a.to for a in table.legal()}
    action = next(a for a in ("check", "call", "bring-in") if a in legal)
    return table.act(player.id, action, legal[action], table.turn_id, clock(0.1))


def finish_hand(table: Table, clock: Clock) -> list[Out]:
    outs: list[Out] = []
    while table.hand is not None:
        outs += act_passively(table, clock)
    return outs


def seated(table: Table, count: int, clock: Clock, stack: int = 200) -> None:
    for i in range(count):
        table.sit(i + 1, f"p{i + 1}", stack, clock(), seat=i)


def test_button_moves_to_the_next_dealt_seat_and_the_hand_starts_at_its_left() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=1)
    for account, seat in ((1, 0), (2, 2), (3, 5)):
        table.sit(account, f"p{account}", 200, clock(), seat=seat)
    buttons = []
    for _ in range(4):
        outs = deal(table, clock)
        started = events(outs, "new_hand")[0]
        buttons.append(started.data["button"])
        order = [p["seat"] for p in started.data["players"]]
        assert order == table.hand_seats
        # Players in the hand run clockwise from the button's left.
        after = [(s - table.button - 1) % 6 for s in order]
        assert after == sorted(after) and order[-1] == table.button
        finish_hand(table, clock)
    assert buttons == [0, 2, 5, 0]


def test_a_player_who_sits_mid_hand_is_dealt_in_from_the_next_hand() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=2)
    seated(table, 2, clock)
    deal(table, clock)
    outs = table.sit(9, "late", 150, clock(), seat=4)
    assert events(outs, "seated")[0].data["seat"] == 4
    assert 4 not in table.hand_seats and table.seats[4] is not None
    late = table.seats[4]
    assert late is not None and late.index is None
    # Not in the hand: it may not act, and its view has no cards of its own.
    with pytest.raises(TableError) as refused:
        table.act(9, "check", 0, table.turn_id, clock())
    assert refused.value.code == "not_your_turn"
    finish_hand(table, clock)
    deal(table, clock)
    assert 4 in table.hand_seats


def test_sitting_out_takes_effect_at_the_next_hand_then_sitting_in_deals_again() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=3)
    seated(table, 3, clock)
    deal(table, clock)
    in_hand = table.hand_seats
    # Whoever sits out mid-hand plays the hand on: their turns wait for them as before.
    away = table.seats[in_hand[0]]
    assert away is not None
    outs = table.sit_out(away.id, clock())
    assert events(outs, "sat_out")[0].data == {"seat": in_hand[0], "next_hand": True}
    assert not events(outs, "action")
    played = events(finish_hand(table, clock), "action")
    mine = [e.data["kind"] for e in played if e.data["seat"] == in_hand[0]]
    assert mine and "fold" not in mine  # the passive player called the hand down
    deal(table, clock)
    assert in_hand[0] not in table.hand_seats and len(table.hand_seats) == 2
    finish_hand(table, clock)
    table.sit_in(away.id, clock())
    deal(table, clock)
    assert in_hand[0] in table.hand_seats


def test_sitting_out_leaves_too_few_players_and_no_hand_is_dealt() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=4)
    seated(table, 2, clock)
    table.sit_out(1, clock())
    assert table.tick(clock(PAUSE * 5)) == [] or table.hand is None
    assert table.hand is None and table.wakeup() is None
    table.sit_in(1, clock())
    deal(table, clock)


def test_leaving_mid_hand_folds_the_player_and_cashes_out_after_the_hand() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=5)
    seated(table, 3, clock)
    deal(table, clock)
    while table.hand is not None and table.hand.view(None)["street"] < 4:
        act_passively(table, clock)
    assert table.hand is not None
    leaver_seat = next(s for s in table.hand_seats if s != table.actor_seat)
    leaver = table.seats[leaver_seat]
    assert leaver is not None
    outs = table.leave(leaver.id, clock())
    assert events(outs, "leaving")[0].data["seat"] == leaver_seat
    assert table.seats[leaver_seat] is leaver  # still there until the hand is over
    outs += finish_hand(table, clock)
    # Leaving folds the hand (at the player's turn: a free check is not taken).
    folds = [e for e in events(outs, "action") if e.data["seat"] == leaver_seat]
    assert [e.data["kind"] for e in folds] == ["fold"]
    cash = effects(outs, "cash_out")
    assert cash == [Effect("cash_out", {"account_id": leaver.id, "amount": leaver.stack})]
    assert table.seats[leaver_seat] is None
    assert events(outs, "left")[0].data == {
        "seat": leaver_seat, "name": leaver.name, "stack": leaver.stack
    }  # fmt: skip
    # Between hands a player leaves at once.
    other = table.players()[0][1]
    outs = table.leave(other.id, clock())
    assert effects(outs, "cash_out")[0].data["amount"] == other.stack
    assert table.seat_of(other.id) is None


def test_a_busted_player_leaves_the_table_with_nothing_to_cash_out() -> None:
    clock = Clock()
    # Tiny stacks against a big one: someone busts within a few all-in hands.
    table = Table(settings(ante=2, bring_in=2, small_bet=4, big_bet=8), start_engine_hand, seed=6)
    table.sit(1, "short", 6, clock(), seat=0)
    table.sit(2, "deep", 500, clock(), seat=1)
    busted = False
    for _ in range(40):
        outs = table.tick(clock(PAUSE))  # a hand all in on the antes ends as it is dealt
        outs += finish_hand(table, clock)
        if table.seat_of(1) is None:
            left = events(outs, "left")
            assert left and left[0].data["stack"] == 0
            assert not [e for e in effects(outs, "cash_out") if e.data["account_id"] == 1]
            busted = True
            break
    assert busted
    # One player left: no hand is dealt.
    assert table.tick(clock(PAUSE * 2)) == [] and table.hand is None


def test_bots_give_up_their_seats_one_hand_at_a_time_as_people_sit_down() -> None:
    clock = Clock()
    # Six seats aiming at three players (two to four).
    table = Table(settings(bots=3), start_engine_hand, seed=7)
    assert table.bots_wanted() == 3
    for i in range(3):
        table.sit(100 + i, f"bot{i}", 200, clock(), bot=True)
    assert table.bots_wanted() == 0
    deal(table, clock)
    table.sit(1, "alice", 200, clock())
    table.sit(2, "bob", 200, clock())
    # Five players for a table that keeps two to four: one bot leaves after the hand.
    outs = finish_hand(table, clock)
    assert len(events(outs, "left")) == 1
    assert {a.data["account_id"] for a in effects(outs, "cash_out")} <= {100, 101, 102}
    deal(table, clock)
    assert len(table.hand_seats) == 4
    outs = finish_hand(table, clock)
    assert not events(outs, "left")  # four is within the band
    # People never make way for bots.
    table.sit(3, "carol", 200, clock())
    table.sit(4, "dan", 200, clock())
    for _ in range(3):
        deal(table, clock)
        finish_hand(table, clock)
    assert {p.id for _, p in table.players() if not p.bot} == {1, 2, 3, 4}
    assert len(table.players()) == 4


def test_the_clock_then_the_time_bank_then_a_time_out() -> None:
    clock = Clock()
    table = Table(settings(turn_seconds=10.0, time_bank=5.0), start_engine_hand, seed=8)
    seated(table, 3, clock)
    deal(table, clock)
    seat = table.actor_seat
    assert seat is not None
    player = table.seats[seat]
    assert player is not None
    started = table.turn_started
    assert table.turn_deadline() == started + 15.0
    # Nothing happens before the deadline.
    assert table.tick(started + 14.9) == []
    # Acting 3 s over the clock spends 3 s of the bank.
    clock.now = started + 12.9  # the action lands 0.1 s later
    act_passively(table, clock)
    assert player.bank == pytest.approx(2.0)
    finish_hand(table, clock)
    # Between hands the bank refills a little, never past the full bank.
    assert player.bank == pytest.approx(3.0)


def test_time_outs_check_or_fold_or_bring_in_and_repeated_ones_sit_the_player_out() -> None:
    clock = Clock()
    table = Table(settings(game="razz", turn_seconds=10.0, time_bank=5.0), start_engine_hand,
                  seed=9)  # fmt: skip
    seated(table, 3, clock)
    sleeper = 2  # account 2 never acts
    timeouts: list[dict[str, Any]] = []
    sat_out: list[dict[str, Any]] = []
    for _ in range(20):
        if table.hand is None:
            sleeping = table.seats[1]
            if sleeping is not None and sleeping.sitting_out:
                break
            table.tick(clock(PAUSE))
            continue
        seat = table.actor_seat
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        if player.id != sleeper:
            act_passively(table, clock)
            continue
        legal = {a.action for a in table.legal()}
        deadline = table.turn_deadline()
        assert deadline is not None
        outs = table.tick(deadline)
        timeout = events(outs, "timeout")[0].data
        expected = "check" if "check" in legal else "fold" if "fold" in legal else "bring-in"
        assert timeout == {"seat": seat, "action": expected}
        timeouts.append(timeout)
        # The bank is spent on a time-out.
        assert player.bank == 0.0
        sat_out += [e.data for e in events(outs, "sat_out")]
        clock.now = deadline
    assert len(timeouts) == 2
    assert sat_out == [{"seat": 1, "reason": "timeouts"}]
    while table.hand is not None:
        act_passively(table, clock)
    deal(table, clock)
    assert 1 not in table.hand_seats


def test_refused_actions_change_nothing() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=10)
    seated(table, 3, clock)
    deal(table, clock)
    seat = table.actor_seat
    assert seat is not None
    actor = table.seats[seat]
    assert actor is not None
    other = next(p for s, p in table.players() if s != seat)
    before = (table.turn_id, table.hand.view(None) if table.hand else None, actor.stack)
    cases = [
        (other.id, "call", 0, table.turn_id, "not_your_turn"),
        (actor.id, "raise", 10_000, table.turn_id, "illegal_action"),
        (actor.id, "bring-in", 2, table.turn_id - 1, "stale_turn"),
        (999, "fold", 0, table.turn_id, "not_seated"),
    ]
    for account, action, to, turn, code in cases:
        with pytest.raises(TableError) as refused:
            table.act(account, action, to, turn, clock())
        assert refused.value.code == code
    assert before == (table.turn_id, table.hand.view(None) if table.hand else None, actor.stack)


def test_only_the_owner_sees_its_down_cards_in_events_and_views() -> None:
    clock = Clock()
    table = Table(settings(), start_engine_hand, seed=11)
    seated(table, 3, clock)
    outs = deal(table, clock)
    dealt = events(outs, "dealt")
    assert dealt
    for event in dealt:
        seated_there = table.seats[event.data["seat"]]
        assert seated_there is not None
        owner = seated_there.id
        assert all(card is None for card in event.data["down"])
        assert all(card is not None for card in event.for_account(owner)["down"])
        for _, other in table.players():
            if other.id != owner:
                assert all(card is None for card in event.for_account(other.id)["down"])
    for seat in table.hand_seats:
        hand = table.view(seat)["hand"]
        for row in hand["seats"]:
            mine = row["seat"] == seat
            assert all((card is not None) == mine for card in row["down"])


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("rake", [0.0, 5.0])
def test_chips_are_conserved_over_many_hands(game: str, rake: float) -> None:
    """Random play with people coming and going: stacks + cash-outs + rake = buy-ins."""
    rng = random.Random(f"{game}{rake}")
    clock = Clock()
    table = Table(
        settings(game=game, rake_percent=rake, rake_cap=3, max_buy_in=300),
        start_engine_hand,
        seed=12,
    )
    bought = cashed = raked = hands = 0
    next_id = 1
    for seat in range(4):
        table.sit(next_id, f"p{next_id}", 100, clock(), seat=seat)
        bought += 100
        next_id += 1
    for _ in range(3000):
        outs: list[Out]
        if table.hand is None:
            if len(table.players()) < 3:
                free = next(s for s, p in enumerate(table.seats) if p is None)
                outs = table.sit(next_id, f"p{next_id}", 80, clock(), seat=free)
                bought += 80
                next_id += 1
            else:
                outs = table.tick(clock(PAUSE))
        else:
            actor = table.actor_seat
            assert actor is not None
            player = table.seats[actor]
            assert player is not None
            roll = rng.random()
            if roll < 0.01:
                outs = table.leave(player.id, clock())
            elif roll < 0.02:
                outs = table.sit_out(player.id, clock())
            elif roll < 0.03:
                outs = table.tick(clock(100.0))  # a time-out
            elif roll < 0.05:
                # Chips bought during the hand, added to the stack when it ends.
                seat, someone = rng.choice(table.players())
                outs = []
                if someone.stack + someone.pending + 20 <= table.settings.max_buy_in:
                    outs = table.top_up(someone.id, 20, clock())
                    bought += 20
            else:
                choice = rng.choice(table.legal())
                outs = table.act(player.id, choice.action, choice.to, table.turn_id, clock(0.1))
        for out in outs:
            if isinstance(out, Effect) and out.kind == "cash_out":
                cashed += int(out.data["amount"])
            if isinstance(out, Effect) and out.kind == "hand_finished":
                raked += int(out.data["rake"])
                hands += 1
                assert out.data["rake"] <= 3
        for _, player in table.players():
            if player.sitting_out and table.hand is None and rng.random() < 0.3:
                table.sit_in(player.id, clock())
        if table.hand is None:
            held = sum(p.stack for _, p in table.players())
            assert held + cashed + raked == bought
    assert hands > 50
    assert (raked > 0) == (rake > 0)
