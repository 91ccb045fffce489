"""A table's step reaches each connection in one call, and nobody gets anything else.

:meth:`TableActor._publish_step` hands a connection of this process (a watcher
with ``send_many``) the step's events and its state at once; any other watcher
(a shared room's remote watcher, a test's) still gets each message by ``send``,
an event to every such watcher in turn, then the next. Either way each
watcher gets exactly the texts, in the order, that publishing each event and
then sending the states gave it. :meth:`ClientConnection.send_many` sends as
:meth:`ClientConnection.send` of each message would, whether the turn's frame
has begun, the socket takes data, or it pushes back.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any

import orjson
import pytest

from stud.server.actors.table import TableActor
from stud.server.room.room import RoomConfig
from stud.server.storage import TableSpec
from stud.server.ws.connection import ClientConnection
from stud.server.ws.transport import SEND_NOW
from stud.table import Event, Table, TableSettings
from stud.table.engine import start_engine_hand

ACCOUNTS = (11, 12, 13)


class Plain:
    """A watcher with ``send`` only; every send is also noted in a log shared by all."""

    def __init__(self, account: int | None, log: list[tuple[Any, str]]) -> None:
        self.account_id = account
        self.texts: list[str] = []
        self.log = log

    def send(self, text: str) -> None:
        self.texts.append(text)
        self.log.append((self, text))


class Batching(Plain):
    """A watcher with ``send_many`` too, as a connection of this process has."""

    def __init__(self, account: int | None, log: list[tuple[Any, str]]) -> None:
        super().__init__(account, log)
        self.batches: list[list[str]] = []

    def send_many(self, texts: list[str]) -> None:
        self.batches.append(list(texts))
        self.texts.extend(texts)


def _table(game: str, seed: int) -> tuple[TableActor, Table]:
    settings = TableSettings(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=5,
        pause_between_hands=0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=seed, label="1")
    spec = TableSpec(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=5, bots=0,
        min_buy_in=0, max_buy_in=0, id=7,
    )  # fmt: skip
    room = types.SimpleNamespace(config=RoomConfig(seed=seed))
    return TableActor(room, spec, table), table


def _next(table: Table, now: float, turn: int) -> list[Any]:
    """A deal when due, else a varied action of the player to act (folds end hands early)."""
    if table.hand is None or table.actor_seat is None:
        return table.tick(now)
    legal = table.legal()
    pick = legal[turn % len(legal)]
    player = table.seats[table.actor_seat]
    assert player is not None
    return table.act(player.id, pick.action, pick.to, table.turn_id, now)


def _watch(actor: TableActor, watcher: Plain) -> None:
    actor.channel.watch(watcher, None)  # as a real watch registers it (send_many or not)


@pytest.mark.slow
def test_a_step_gives_every_watcher_what_each_message_sent_alone_gave() -> None:
    for game, seed in (("stud", 5), ("stud8", 6), ("razz", 7)):
        old_log: list[tuple[Any, str]] = []
        new_log: list[tuple[Any, str]] = []
        old, old_table = _table(game, seed)
        new, new_table = _table(game, seed)
        viewers: list[int | None] = [*ACCOUNTS, None, 99, 11]  # a spectator, a stranger, a twin
        before = [Plain(a, old_log) for a in viewers]
        plain = [Plain(a, new_log) for a in viewers]
        batching = [Batching(a, new_log) for a in viewers]
        for watcher in before:
            _watch(old, watcher)
        for first, second in zip(plain, batching, strict=True):  # interleaved, as they come
            _watch(new, first)
            _watch(new, second)
        assert all(new.watchers[w] is not None for w in batching)
        assert all(new.watchers[w] is None for w in plain)
        now = 1.0
        for account in ACCOUNTS:
            old_table.sit(account, f"p{account}", 500, now)
            new_table.sit(account, f"p{account}", 500, now)
        steps = 0
        for turn in range(400):
            outs_old = _next(old_table, now, turn)
            outs_new = _next(new_table, now, turn)
            events_old = [o for o in outs_old if isinstance(o, Event)]
            events_new = [o for o in outs_new if isinstance(o, Event)]
            for event in events_old:  # the way every step was sent before
                old._publish(event)
            if events_old:
                old.send_states()
            if events_new:
                new._publish_step(events_new)
                steps += 1
            now += 1.0
        assert steps > 100
        for reference, one, other in zip(before, plain, batching, strict=True):
            assert one.texts == reference.texts
            assert other.texts == reference.texts
            # One call per step, its state last; nothing through send.
            assert len(other.batches) == steps
            assert all(orjson.loads(batch[-1])["type"] == "state" for batch in other.batches)
            assert not any(w is other for w, _ in new_log)
        # The plain watchers were sent in the old order: each event to each of them in turn.
        old_order = [(before.index(w), text) for w, text in old_log]
        new_order = [(plain.index(w), text) for w, text in new_log]
        assert new_order == old_order
        # Nobody's down cards reached another account or a spectator.
        dealt_to: dict[int | None, int | None] = {a: new_table.seat_of(a) for a in ACCOUNTS}
        for watcher in batching:
            for text in watcher.texts:
                message = orjson.loads(text)
                if message["type"] == "event" and message["event"]["type"] == "dealt":
                    event = message["event"]
                    if dealt_to.get(watcher.account_id) != event["seat"]:
                        assert all(c is None for c in event.get("down", [])), text


class FakeSocket:
    """A batching websocket's server side: ``send_now`` puts a message in this turn's frame
    (the transport's list) while the socket takes data; paused, it refuses and the
    connection's writer waits on ``send_text``."""

    def __init__(self) -> None:
        self.turn: list[str] = []
        self.wire: list[str] = []  # frames' messages in the order they leave
        self.paused = False
        self.resume = asyncio.Event()
        self.scope: dict[str, Any] = {
            "extensions": {SEND_NOW: {"send": self.send_now, "batch": True, "turn": self.turn}}
        }

    def send_now(self, text: str) -> bool:
        if self.paused:
            return False
        self.turn.append(text)
        return True

    def end_turn(self) -> None:
        self.wire.extend(self.turn)
        self.turn.clear()

    async def send_text(self, text: str) -> None:
        await self.resume.wait()
        self.wire.append(text)

    async def close(self, code: int = 1000) -> None:
        return None


def _sent(many: bool) -> list[str]:
    """The messages that leave in a scenario of turns, the socket pushing back in one, sent
    message by message or a step at a time."""

    async def scenario() -> list[str]:
        socket = FakeSocket()
        room = types.SimpleNamespace(config=RoomConfig())
        conn = ClientConnection(socket, room, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn._writer())

        def step(texts: list[str]) -> None:
            if many:
                conn.send_many(texts)
            else:
                for text in texts:
                    conn.send(text)

        step(["a1", "a2", "a3"])  # an open socket, the turn's frame not begun
        step(["b1", "b2"])  # the same turn: they join its frame
        socket.end_turn()
        socket.paused = True
        step(["c1", "c2", "c3"])  # pushed back: the outbox, in order
        await asyncio.sleep(0)
        socket.paused = False
        step(["d1", "d2"])  # the socket takes data but c* wait: behind them
        socket.resume.set()
        for _ in range(20):
            await asyncio.sleep(0)
        socket.end_turn()
        step(["e1"])
        step([])
        step(["f1", "f2"])
        socket.end_turn()
        conn.closed = True
        step(["g1", "g2"])  # closed: nothing more
        socket.end_turn()
        conn.outbox.put_nowait(None)
        await writer
        return socket.wire

    return asyncio.run(scenario())


def test_send_many_sends_what_send_of_each_sends() -> None:
    one_by_one = _sent(many=False)
    assert one_by_one == ["a1", "a2", "a3", "b1", "b2", "c1", "c2", "c3", "d1", "d2",
                          "e1", "f1", "f2"]  # fmt: skip
    assert _sent(many=True) == one_by_one
