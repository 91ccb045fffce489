"""The table commits to each deck before the deal, takes its players' seeds and deals from them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stud.cards import Card
from stud.fairness import Shuffle, commitment_of
from stud.game import ScriptedCards
from stud.history import read_phh, read_pokerstars
from stud.history.verify import verify
from stud.table import Effect, Event, Heading, Out, Table, TableError, TableSettings
from stud.table.engine import start_engine_hand
from stud.table.events import HandEvent
from stud.table.port import HandPort


def settings(**changes: Any) -> TableSettings:
    base: dict[str, Any] = {
        "name": "t", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
        "seats": 6, "pause_between_hands": 1.0,
    }  # fmt: skip
    return TableSettings(**{**base, **changes})


def kinds(outs: list[Out]) -> list[str]:
    return [o.kind for o in outs if isinstance(o, Event)]


def play_out(table: Table, now: float) -> list[Out]:
    """Check or call until the hand is over; every Out of the hand."""
    outs: list[Out] = []
    while table.hand is not None:
        seat = table.actor_seat
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        legal = table.legal()
        action = next((a for a in legal if a.action in ("check", "call", "bring-in")), legal[0])
        outs += table.act(player.id, action.action, action.to, table.turn_id, now)
    return outs


def seated(n: int, **changes: Any) -> tuple[Table, list[Out]]:
    table = Table(settings(**changes), start_engine_hand, label="9")
    outs: list[Out] = []
    for i in range(n):
        outs += table.sit(100 + i, f"p{i}", 500, 0.0)
    return table, outs


def finished_effect(outs: list[Out]) -> Effect:
    return next(o for o in outs if isinstance(o, Effect) and o.kind == "hand_finished")


def test_the_commitment_comes_before_the_deal_and_the_seed_after_the_hand() -> None:
    table, outs = seated(3)
    (commit,) = [o for o in outs if isinstance(o, Event) and o.kind == "shuffle"]
    assert commit.data["number"] == 1 and commit.data["hand"] == "9-1" and commit.data["open"]
    pending = table.next_shuffle
    assert pending is not None and commit.data["commitment"] == commitment_of(pending.server_seed)
    view = table.view(None)
    assert view["shuffle"] == {**commit.data}
    dealt = table.tick(5.0)
    assert kinds(dealt)[0] == "new_hand"
    running = table.view(0)["shuffle"]
    assert running["commitment"] == commit.data["commitment"] and running["open"] is False
    during = dealt + play_out(table, 6.0)
    finish = finished_effect(during)
    shuffle = finish.data["summary"]["shuffle"]
    assert shuffle["server_seed"] == pending.server_seed
    assert shuffle["commitment"] == commit.data["commitment"]
    # Nothing the players were sent, nor any view of the hand, carried the seed before the end.
    texts = [json.dumps(o.data, default=str) for o in outs + during if isinstance(o, Event)]
    end = next(i for i, o in enumerate(x for x in outs + during if isinstance(x, Event))
               if o.kind == "hand_finished")  # fmt: skip
    assert all(pending.server_seed not in t for t in texts[:end])
    assert pending.server_seed in texts[end]
    # The next hand's commitment follows the finished hand, a new one.
    after = [o for o in during if isinstance(o, Event) and o.kind == "shuffle"]
    assert len(after) == 1 and after[0].data["number"] == 2
    assert after[0].data["commitment"] != commit.data["commitment"]


def test_players_seeds_go_in_dealing_order_and_the_deck_is_theirs() -> None:
    table, _ = seated(3)
    pending = table.next_shuffle
    assert pending is not None
    table.add_seed(101, pending.commitment, "aa")
    table.add_seed(100, pending.commitment, "bb")
    table.add_seed(100, pending.commitment, "cc")  # the last one before the deal counts
    dealt = table.tick(5.0)
    order = [table.seats[s].id for s in table.hand_seats]  # type: ignore[union-attr]
    mine = {100: "cc", 101: "aa", 102: ""}
    assert table.shuffle is not None
    assert table.shuffle.player_seeds == tuple(mine[a] for a in order)
    deck = table.shuffle.deck()
    n = len(order)
    started = [o for o in dealt if isinstance(o, Event) and o.kind == "dealt"]
    for k, event in enumerate(started):  # 3rd street: down, down, up in three rounds
        owner = table.seats[event.data["seat"]]
        assert owner is not None
        own = event.private[owner.id]["down"]  # private parts belong to accounts (issue 13)
        assert own == [str(Card(deck[k])), str(Card(deck[n + k]))]
        assert event.data["up"] == [str(Card(deck[2 * n + k]))]
    shuffle = table.shuffle
    finish = finished_effect(play_out(table, 6.0))
    phh, pokerstars = finish.data["hand"].histories(Heading(77, "t", finish.data["names"]))
    for record in (read_phh(phh), read_pokerstars(pokerstars).hands[0]):
        assert record.shuffle is not None
        assert record.shuffle.player_seeds == shuffle.player_seeds
        report = verify(record)
        assert report.ok, report.problems
        assert report.checked >= 3 * n and report.hidden == 0


def test_seeds_are_refused_when_they_cannot_count() -> None:
    table, _ = seated(2)
    pending = table.next_shuffle
    assert pending is not None
    with pytest.raises(TableError) as stranger:
        table.add_seed(999, pending.commitment, "ab")
    assert stranger.value.code == "not_seated"
    with pytest.raises(TableError) as stale:
        table.add_seed(100, "0" * 64, "ab")
    assert stale.value.code == "stale_seed" and pending.commitment in str(stale.value)
    with pytest.raises(TableError) as bad:
        table.add_seed(100, pending.commitment, "XYZ")
    assert bad.value.code == "bad_seed" and "hex" in str(bad.value)
    assert pending.seeds == {}  # nothing was taken
    table.tick(5.0)
    with pytest.raises(TableError) as closed:
        table.add_seed(100, pending.commitment, "ab")
    assert closed.value.code == "seeds_closed"


def test_a_seed_from_someone_not_dealt_in_is_dropped() -> None:
    table, _ = seated(3)
    pending = table.next_shuffle
    assert pending is not None
    table.add_seed(102, pending.commitment, "dd")
    table.sit_out(102, 1.0)
    table.tick(5.0)
    assert table.shuffle is not None and "dd" not in table.shuffle.player_seeds
    assert len(table.shuffle.player_seeds) == 2


def test_the_commitment_stands_until_its_hand_is_dealt() -> None:
    """A hand that could not be dealt keeps its commitment (and its seeds) for the next try."""
    table, _ = seated(2)
    pending = table.next_shuffle
    assert pending is not None
    table.add_seed(100, pending.commitment, "ee")
    table.leave(101, 1.0)
    table.tick(5.0)
    assert table.hand is None and table.next_shuffle is pending
    outs = table.sit(105, "late", 500, 6.0)
    assert "shuffle" not in kinds(outs)
    table.tick(20.0)
    assert table.shuffle is not None and table.shuffle.commitment == pending.commitment
    assert "ee" in table.shuffle.player_seeds


def stacked(
    game: str, ante: int, bring_in: int, small_bet: int, big_bet: int, stacks: list[int],
    seats: list[int], seed: int | None, *, shuffle: Shuffle | None = None,
) -> tuple[HandPort, list[HandEvent]]:  # fmt: skip
    cards = ScriptedCards(["Ah Kh 9c 9d 2s 3s 4c", "Qc Qd 5h 5s 6h 7h 8c"])
    return start_engine_hand(
        game, ante, bring_in, small_bet, big_bet, stacks, seats, seed, cards=cards,
        shuffle=shuffle,
    )  # fmt: skip


def test_a_stacked_deck_claims_no_shuffle() -> None:
    table = Table(settings(), stacked, label="1")
    table.sit(1, "a", 500, 0.0)
    table.sit(2, "b", 500, 0.0)
    dealt = table.tick(5.0)
    assert any(isinstance(o, Event) and o.data.get("up") == ["9c"] for o in dealt)
    finish = finished_effect(play_out(table, 6.0))
    assert "shuffle" not in finish.data["summary"]
    phh, _ = finish.data["hand"].histories(Heading(1, "t", finish.data["names"]))
    assert read_phh(phh).shuffle is None
