"""The states a step sends, joined from kept JSON pieces, are the views made afresh, byte for byte.

``Table.view_json`` and ``EngineHand.view_json`` keep encoded pieces between
steps (each seated player's entry, each seat's cards in the hand, the settings,
the commitment) and make a piece again only when a value it was made of
changed. Here every text a watcher gets after every step is compared with the
text of the view built from nothing (``Table.view``, the engine's own view),
through play, seats changing hands, top-ups, sitting out, renames, new stakes
and spectators; and the values a kept piece depends on are changed one by one
to show that no stale piece is sent.
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import orjson
import pytest

from stud.cards import Card
from stud.server.actors.table import TableActor
from stud.server.room.room import RoomConfig
from stud.server.storage import TableSpec
from stud.table import Event, Table, TableSettings
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.readout import board_readouts, own_readout
from test_server_sending import Watcher

GAMES = ("stud", "stud8", "razz")


def _actor(game: str, seed: int, seats: int = 6) -> tuple[TableActor, Table]:
    settings = TableSettings(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=seats,
        pause_between_hands=0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=seed, label=str(seed))
    spec = TableSpec(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=seats, bots=0,
        min_buy_in=0, max_buy_in=0, id=seed + 1,
    )  # fmt: skip
    room = types.SimpleNamespace(config=RoomConfig(seed=seed))
    return TableActor(room, spec, table), table


def _fresh_text(actor: TableActor, watcher: Watcher) -> str:
    """The state text made from a view built from nothing, as on ``watch``."""
    account = watcher.account_id
    seat = None if account is None else actor.table.seat_of(account)
    return actor.channel.state_text(actor.add_room(actor.table.view(seat)))


def _send_and_compare(actor: TableActor) -> list[str]:
    """Send the states of this moment; each watcher's equals its fresh view's text."""
    actor.send_states()
    sent = []
    for watcher in actor.watchers:
        assert isinstance(watcher, Watcher)
        text = watcher.texts[-1]
        assert text == _fresh_text(actor, watcher), watcher.account_id
        sent.append(text)
    return sent


def _step(actor: TableActor, table: Table, rng: random.Random, now: float) -> None:
    """The next deal or a random legal action, published as the actor does."""
    if table.hand is None:
        outs = table.tick(now)
    else:
        seat = table.actor_seat
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        choice = rng.choice(table.legal())
        outs = table.act(player.id, choice.action, choice.to, table.turn_id, now)
    for out in outs:
        if isinstance(out, Event):
            actor._publish(out)


def _between_steps(actor: TableActor, table: Table, rng: random.Random, now: float) -> None:
    """Now and then what changes a kept piece outside play: a top-up, sitting out or in, a
    rename, new stakes, someone leaving and another account taking a seat."""
    roll = rng.random()
    seated = table.players()
    if roll < 0.04 and seated:
        _, player = rng.choice(seated)
        table.top_up(player.id, rng.choice([1, 7, 50]), now)
    elif roll < 0.06 and seated:
        _, player = rng.choice(seated)
        if player.sitting_out:
            table.sit_in(player.id, now)
        else:
            table.sit_out(player.id, now)
    elif roll < 0.07 and seated:
        _, player = rng.choice(seated)
        table.rename(player.id, f"{player.name}!")
    elif roll < 0.08:
        level = rng.randint(1, 3)
        table.set_stakes(level, 2 * level, 4 * level, 8 * level)
    elif roll < 0.10 and len(seated) > 2:
        seat, player = rng.choice(seated)
        table.leave(player.id, now)
        newcomer = 100 + rng.randint(0, 10**6)
        if table.seats[seat] is None:  # the same seat, another account
            table.sit(newcomer, f"n{newcomer}", rng.choice([3, 40, 300]), now, seat=seat)
            actor.watchers[Watcher(newcomer)] = None
    for out in table._drain():
        if isinstance(out, Event):
            actor._publish(out)


@pytest.mark.parametrize("game", GAMES)
def test_every_state_sent_is_the_view_made_afresh(game: str) -> None:
    rng = random.Random(f"view-json-{game}")
    actor, table = _actor(game, seed=GAMES.index(game))
    for account in (11, 12, 13, 14):
        actor.watchers[Watcher(account)] = None
        table.sit(account, f"p{account}", rng.choice([5, 60, 400]), 0.0)
    actor.watchers[Watcher(None)] = None  # a spectator
    actor.watchers[Watcher(99)] = None  # an account watching without a seat
    now, states = 1.0, 0
    for _ in range(700):
        _between_steps(actor, table, rng, now)
        _step(actor, table, rng, now)
        _send_and_compare(actor)
        states += 1
        now += rng.choice([0.5, 3.0, 40.0])  # some turns run into the time bank
        for out in table.tick(now):
            if isinstance(out, Event):
                actor._publish(out)
    assert table.hand_number > 10, "the run played hands"
    assert states == 700


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_hands_json_and_words_are_its_views_and_the_engines_own(game: str) -> None:
    """Byte for byte the fast view's JSON, the same value as the engine's own view, and the
    kept words the readouts of the engine's own views."""
    rng = random.Random(f"hand-json-{game}")
    for number in range(25):
        players = rng.randint(2, 8)
        seats = sorted(rng.sample(range(8), players))
        stacks = [rng.choice([3, 20, 60, 400]) for _ in seats]
        hand, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, seats, number)
        assert isinstance(hand, EngineHand)
        while True:
            for viewer in [None, *range(players)]:
                text = hand.view_json(viewer)
                assert text == orjson.dumps(hand.view(viewer)), (number, viewer)
                slow = hand.view(viewer, events=True)
                seat = None if viewer is None else seats[viewer]
                words = own_readout(slow, seat), board_readouts(hand.view(None, events=True))
                assert hand.words(viewer) == words, (number, viewer)
                del slow["events"]
                assert json.loads(text) == slow, (number, viewer)
            if hand.over:
                break
            choice = rng.choice(hand.legal())
            assert hand.actor is not None
            hand.act(hand.actor, choice.action, choice.to)


def _state(watcher: Watcher) -> dict[str, Any]:
    message = json.loads(watcher.texts[-1])
    assert message["type"] == "state"
    state: dict[str, Any] = message["state"]
    return state


def _seated_table() -> tuple[TableActor, Table, dict[int, Watcher]]:
    actor, table = _actor("stud", seed=7)
    watchers = {account: Watcher(account) for account in (11, 12, 13)}
    for account, watcher in watchers.items():
        actor.watchers[watcher] = None
        table.sit(account, f"p{account}", 200, 0.0)
    return actor, table, watchers


def test_a_kept_seat_entry_is_made_again_when_its_values_change() -> None:
    actor, table, watchers = _seated_table()
    _send_and_compare(actor)
    seat = table.seat_of(12)
    assert seat is not None
    before = _state(watchers[11])["seats"][seat]
    assert before["stack"] == 200 and before["name"] == "p12"
    table.top_up(12, 25, 0.0)
    table.rename(12, "renamed")
    player = table.seats[seat]
    assert player is not None
    player.bank -= 1.25  # a turn ran into the time bank
    _send_and_compare(actor)
    after = _state(watchers[11])["seats"][seat]
    assert (after["stack"], after["name"], after["time_bank"]) == (225, "renamed", 28.75)
    table.sit_out(12, 0.0)
    _send_and_compare(actor)
    assert _state(watchers[13])["seats"][seat]["sitting_out"] is True
    table.set_stakes(2, 4, 8, 16)
    _send_and_compare(actor)
    assert _state(watchers[13])["settings"]["small_bet"] == 8


def _act_first(table: Table, choices: tuple[str, ...], now: float) -> None:
    """The player to act takes the first of ``choices`` that is legal."""
    seat = table.actor_seat
    assert seat is not None
    player = table.seats[seat]
    assert player is not None
    legal = {a.action: a.to for a in table.legal()}
    action = next(a for a in choices if a in legal)
    table.act(player.id, action, legal[action], table.turn_id, now)


def _cards_seen(state: dict[str, Any]) -> set[str]:
    """Every card a state shows in its hand (anyone's down or up cards, the community)."""
    hand = state["hand"]
    if hand is None:
        return set()
    cards = {c for e in hand["seats"] for c in (*e["down"], *e["up"]) if c}
    return cards | ({hand["community"]} if hand["community"] else set())


def test_a_kept_card_entry_is_made_again_as_the_hand_goes_on() -> None:
    """Each seat's cards and chips in the hand reach every viewer when they change."""
    actor, table, watchers = _seated_table()
    table.tick(1.0)
    hand = table.hand
    assert isinstance(hand, EngineHand)
    now, up_counts = 2.0, set()
    while table.hand is hand and not hand.over:
        _act_first(table, ("bring-in", "bet", "call", "check"), now)
        _send_and_compare(actor)
        if table.hand is not hand:  # over: the next states show no hand
            break
        spectator_view = hand.view(None, events=True)  # the engine's own, built from nothing
        for watcher in watchers.values():
            entries = {e["seat"]: e for e in _state(watcher)["hand"]["seats"]}
            for engine_entry in spectator_view["seats"]:
                entry = entries[engine_entry["seat"]]
                for key in ("stack", "bet", "committed", "live", "up"):
                    assert entry[key] == engine_entry[key], (key, watcher.account_id)
                up_counts.add(len(entry["up"]))
        now += 1.0
    assert up_counts >= {1, 2, 3, 4}, "the hand dealt its streets"


def test_a_seat_taken_by_another_account_shows_each_account_only_its_own_cards() -> None:
    """The kept pieces of a seat belong to whoever was dealt in: the account that leaves a
    seat, still watching, sees none of the next occupant's down cards, and the newcomer
    sees its own and no words of the first account's hand."""
    actor, table, watchers = _seated_table()
    table.tick(1.0)
    assert table.hand is not None
    _send_and_compare(actor)
    seat = table.seat_of(12)
    assert seat is not None
    first = _state(watchers[12])
    assert first["readout"] is not None
    table.leave(12, 1.5)  # folded now or on its turn; the seat frees when the hand ends
    now = 2.0
    while table.seats[seat] is not None:
        _act_first(table, ("fold", "check", "call", "bring-in"), now)
        _send_and_compare(actor)
        now += 1.0
    newcomer = Watcher(21)
    actor.watchers[newcomer] = None
    table.sit(21, "p21", 200, now, seat=seat)
    _send_and_compare(actor)
    assert _state(newcomer)["you"] == seat and _state(newcomer)["readout"] is None
    assert _state(watchers[12])["you"] is None
    while table.hand is None:
        now += 1.0
        table.tick(now)
    _send_and_compare(actor)
    hand = table.hand
    assert isinstance(hand, EngineHand)
    newcomer_index = hand.seats.index(seat)
    dealt = [str(Card(c)) for c in hand.hand.down_cards(newcomer_index) if c is not None]
    mine = next(e for e in _state(newcomer)["hand"]["seats"] if e["seat"] == seat)
    assert mine["down"] == dealt and _state(newcomer)["readout"] is not None
    old = next(e for e in _state(watchers[12])["hand"]["seats"] if e["seat"] == seat)
    assert old["down"] == [None] * len(dealt)
    assert not _cards_seen(_state(watchers[12])) & set(dealt)
    assert _state(watchers[12])["readout"] is None
