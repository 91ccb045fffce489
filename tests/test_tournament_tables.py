"""What the table layer does for tournaments: stakes set between hands, a player taken off
with their chips, away players dealt in, bots kept seated (stud.table.Table)."""

from __future__ import annotations

from typing import Any

import pytest

from stud.table import Effect, Event, Out, Table, TableError, TableSettings
from stud.table.engine import start_engine_hand


def table(*, tournament: bool, **extra: Any) -> Table:
    values: dict[str, Any] = {
        "name": "t", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8,
        "seats": 4, "pause_between_hands": 1.0, "tournament": tournament, "max_buy_in": 100,
    }  # fmt: skip
    values.update(extra)
    return Table(TableSettings(**values), start_engine_hand, seed=3)


def kinds(outs: list[Out]) -> list[str]:
    return [o.kind for o in outs]


def play_out(t: Table, now: float) -> list[Out]:
    outs: list[Out] = []
    while t.hand is not None:
        seat = t.actor_seat
        assert seat is not None
        player = t.seats[seat]
        assert player is not None
        legal = {a.action: a.to for a in t.legal()}
        action = next(a for a in ("check", "call", "bring-in") if a in legal)
        outs += t.act(player.id, action, legal[action], t.turn_id, now)
    return outs


def test_new_stakes_apply_from_the_next_hand() -> None:
    t = table(tournament=True)
    t.sit(1, "a", 500, 0.0)
    t.sit(2, "b", 500, 0.0)
    t.tick(1.0)
    assert t.hand is not None
    outs = t.set_stakes(2, 3, 10, 20)
    assert kinds(outs) == ["stakes"] and t.settings.small_bet == 10
    assert t.view(None)["hand"]["small_bet"] == 4  # the hand in progress keeps its stakes
    play_out(t, 2.0)
    t.tick(3.0)
    assert t.view(None)["hand"]["small_bet"] == 10
    assert t.set_stakes(2, 3, 10, 20) == []  # the same stakes again: nothing to say
    with pytest.raises(ValueError):
        t.set_stakes(2, 30, 10, 20)  # a bring-in above the small bet


def test_a_player_is_taken_off_with_their_chips_but_never_out_of_a_hand() -> None:
    t = table(tournament=True)
    for account in (1, 2, 3):
        t.sit(account, f"p{account}", 300, 0.0)
    t.tick(1.0)
    assert t.hand is not None
    with pytest.raises(TableError, match="hand in progress"):
        t.take(1)
    t.sit(4, "late", 250, 1.5)  # seated during the hand, not in it
    player, outs = t.take(4)
    assert (player.id, player.stack) == (4, 250)
    assert [o.kind for o in outs] == ["left"] and not [o for o in outs if isinstance(o, Effect)]
    play_out(t, 2.0)
    total = sum(p.stack for _, p in t.players())
    player, outs = t.take(2)
    assert player.stack + sum(p.stack for _, p in t.players()) == total
    assert not [o for o in outs if isinstance(o, Effect)]  # no cash-out: chips stay in play
    with pytest.raises(TableError, match="not seated"):
        t.take(2)


def test_the_last_player_taken_leaves_no_hand_due() -> None:
    t = table(tournament=True)
    t.sit(1, "a", 300, 0.0)
    t.sit(2, "b", 300, 0.0)
    assert t.next_hand_at is not None
    t.take(2)
    assert t.next_hand_at is None
    assert t.tick(5.0) == [] and t.hand is None


@pytest.mark.parametrize("tournament", [True, False])
def test_away_players_are_dealt_in_only_at_a_tournament_table(tournament: bool) -> None:
    t = table(tournament=tournament)
    for account in (1, 2, 3):
        t.sit(account, f"p{account}", 100, 0.0)
    t.sit_out(3, 0.5)
    dealing = t.tick(1.0)
    assert t.hand is not None
    antes = [o.data for o in dealing if isinstance(o, Event) and o.kind == "ante"]
    assert (
        {"seat": t.seat_of(3), "amount": 1}
        in [{"seat": a["seat"], "amount": a["amount"]} for a in antes]
    ) is tournament
    dealt = {t.seats[s].id for s in t.hand_seats}  # type: ignore[union-attr]
    assert (3 in dealt) is tournament
    outs = play_out(t, 2.0)
    finished = [o for o in outs if isinstance(o, Event) and o.kind == "hand_finished"]
    assert finished


def test_bots_stay_seated_at_a_tournament_table_and_no_buy_in_limit_applies() -> None:
    t = table(tournament=True, bots=0)
    t.sit(1, "ann", 5000, 0.0)  # above the table's max_buy_in: tournament chips
    for account in (2, 3, 4):
        t.sit(account, f"bot{account}", 100, 0.0, bot=True)
    t.tick(1.0)
    assert t.hand is not None and len(t.hand_seats) == 4
    cash = table(tournament=False, bots=2)
    with pytest.raises(TableError, match="buy-in"):
        cash.sit(1, "ann", 5000, 0.0)
