"""How the room sends a step cheaply, without changing what anyone gets.

- The websocket writes of one turn of the event loop leave in one system call,
  in order, and a close writes what was queued first (``stud.server.ws.transport``).
- A connection sends at once while the socket takes data, and through its
  writer when it pushes back: every message arrives once, in order.
- Each distinct view of a step is encoded once: spectators share one text,
  every connection of one account shares that account's text, and only the
  account dealt a down card ever sees it.

(Storing a hand's chips with its payout at once: ``test_storage_ledger.py``.)
"""

from __future__ import annotations

import asyncio
import types
from pathlib import Path
from typing import Any

import orjson
import pytest
from websockets.frames import Frame, Opcode

from stud.server.actors.table import TableActor
from stud.server.room.room import RoomConfig
from stud.server.storage import TableSpec
from stud.server.ws.connection import ClientConnection
from stud.server.ws.transport import (
    BATCH_CHARS,
    SEND_NOW,
    BatchingTransport,
    FrameCache,
    text_frame,
)
from stud.table import Event, Table, TableSettings
from stud.table.engine import start_engine_hand
from stud.testing.server import Client, ServerProcess, fresh_database
from test_server_protocol import ARGS as PLAY_ARGS
from test_server_protocol import factory_args, my_turn, new_table


class FakeTransport(asyncio.Transport):
    """Records each write it is given (one per system call on a real socket)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.aborted = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        assert not self.closed, "a write after close"
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 0


def test_one_turns_writes_leave_together_in_order() -> None:
    async def scenario() -> FakeTransport:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        batching.write(b"one")
        batching.write(b"")  # nothing to write: no empty call either
        batching.writelines([b"two", bytearray(b"three")])
        assert real.writes == []  # nothing leaves during the turn that queued it
        assert batching.get_write_buffer_size() == len(b"onetwothree")
        await asyncio.sleep(0)
        assert real.writes == [b"onetwothree"]
        batching.write(b"four")
        await asyncio.sleep(0)
        batching.write(b"five")
        batching.close()  # what is queued goes out before the close
        assert real.writes == [b"onetwothree", b"four", b"five"] and real.closed
        batching.write(b"late")
        await asyncio.sleep(0)  # a write after the close is dropped, not sent
        return real

    assert asyncio.run(scenario()).writes == [b"onetwothree", b"four", b"five"]


def test_abort_drops_what_is_queued() -> None:
    async def scenario() -> FakeTransport:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        batching.write(b"never")
        batching.abort()
        await asyncio.sleep(0)
        return real

    real = asyncio.run(scenario())
    assert real.writes == [] and real.aborted


class PushyWebSocket:
    """A websocket whose server offers a synchronous send that refuses while 'paused'."""

    def __init__(self) -> None:
        self.paused = False
        self.wire: list[str] = []  # what reached the socket, in order
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: {"send": self.send_now}}}
        self.resume = asyncio.Event()

    def send_now(self, text: str) -> bool:
        if self.paused:
            return False
        self.wire.append(text)
        return True

    async def send_text(self, text: str) -> None:
        await self.resume.wait()  # the ASGI send waits for the socket to drain
        self.wire.append(text)

    async def close(self, code: int = 1000) -> None:
        return None


def test_a_connection_keeps_order_when_the_socket_pushes_back() -> None:
    async def scenario() -> list[str]:
        ws = PushyWebSocket()
        room = types.SimpleNamespace(config=RoomConfig())
        conn = ClientConnection(ws, room, None)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn._writer())
        conn.send("1")
        conn.send("2")
        ws.paused = True
        conn.send("3")  # refused at once: waits in the outbox
        await asyncio.sleep(0)
        assert conn.outbox.empty()  # the writer took "3" and waits on the socket with it
        ws.paused = False
        conn.send("4")  # the socket takes data again, but "3" is not out yet
        conn.send("5")
        ws.resume.set()
        for _ in range(10):
            await asyncio.sleep(0)
        conn.send("6")  # all caught up: straight out again
        conn.outbox.put_nowait(None)
        await writer
        return ws.wire

    assert asyncio.run(scenario()) == ["1", "2", "3", "4", "5", "6"]


class Watcher:
    """A connection as the actor sees it: an account (None: a spectator) and its texts."""

    def __init__(self, account: int | None) -> None:
        self.account_id = account
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


def _actor() -> tuple[TableActor, Table]:
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4,
        pause_between_hands=0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=3, label="1")
    spec = TableSpec(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4, bots=0,
        min_buy_in=0, max_buy_in=0, id=1,
    )  # fmt: skip
    room = types.SimpleNamespace(config=RoomConfig(seed=3))
    return TableActor(room, spec, table), table


def _next_step(table: Table, now: float) -> list[Any]:
    """The table's next step: a deal when due, else its player to act checks or calls."""
    if table.hand is None:
        return table.tick(now)
    seat = table.actor_seat
    assert seat is not None
    player = table.seats[seat]
    assert player is not None
    legal = {a.action: a.to for a in table.legal()}
    action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
    return table.act(player.id, action, legal[action], table.turn_id, now)


def _step(actor: TableActor, outs: list[Any]) -> None:
    """What :meth:`TableActor.apply` does with a step's events (its storing aside)."""
    events = [out for out in outs if isinstance(out, Event)]
    for event in events:
        actor._publish(event)
    if events:
        actor.send_states()


def test_each_distinct_view_is_encoded_once_and_kept_to_its_account() -> None:
    actor, table = _actor()
    seated = {11: Watcher(11), 12: Watcher(12), 13: Watcher(13)}
    twin = Watcher(11)  # account 11 on a second connection (a second tab)
    spectators = [Watcher(None), Watcher(None), Watcher(99)]  # 99: logged in, not seated
    for watcher in [*seated.values(), twin, *spectators]:
        actor.watchers[watcher] = None
    now = 1.0
    for account in seated:
        table.sit(account, f"p{account}", 1000, now)
    hands = 0
    while hands < 3:
        outs = _next_step(table, now)
        hands += any(isinstance(o, Event) and o.kind == "new_hand" for o in outs)
        _step(actor, outs)
        now += 1.0
    # Spectators (logged in or not) get the very same text objects: encoded once for all.
    first = spectators[0].texts
    assert len(first) > 50
    for other in spectators[1:]:
        assert len(other.texts) == len(first)
        assert all(a is b for a, b in zip(first, other.texts, strict=True))
    # Both connections of one account share that account's texts, which are its own.
    assert all(a is b for a, b in zip(seated[11].texts, twin.texts, strict=True))
    assert seated[11].texts != seated[12].texts != first
    numbers: list[int] = []
    for text in first:
        message = orjson.loads(text)
        if message["type"] == "event":
            numbers.append(message["n"])
            assert all(card is None for card in message["event"].get("down", [])), text
        else:
            assert message["n"] == numbers[-1]  # a state follows the events it includes
            hand = message["state"]["hand"]
            for seat in [] if hand is None else hand["seats"]:
                if not seat["shown"]:
                    assert all(card is None for card in seat["down"]), text
    assert numbers == list(range(1, len(numbers) + 1))
    # A seated account sees its own down cards and nobody else's (before a showdown).
    for account, watcher in seated.items():
        own_seat = table.seat_of(account)
        seen_own = 0
        for text in watcher.texts:
            message = orjson.loads(text)
            if message["type"] != "event" or message["event"]["type"] != "dealt":
                continue
            event = message["event"]
            if event["seat"] == own_seat:
                seen_own += sum(card is not None for card in event.get("down", []))
            else:
                assert all(card is None for card in event.get("down", [])), text
        assert seen_own > 0


def test_a_state_joined_from_encoded_parts_is_the_whole_view_encoded() -> None:
    """send_states encodes what every viewer shares once and joins each seat's own part to
    it: the text is byte for byte the seat's whole view encoded, the seat's own cards in it."""
    actor, table = _actor()
    seated = {11: Watcher(11), 12: Watcher(12), 13: Watcher(13)}
    spectator = Watcher(None)
    for watcher in [*seated.values(), spectator]:
        actor.watchers[watcher] = None
    actor.waiting.join(77, "waiter", 100)  # the room's part (the waiting list) is in it too
    now = 1.0
    for account in seated:
        table.sit(account, f"p{account}", 1000, now)
    states = 0
    while states < 60:
        outs = _next_step(table, now)
        _step(actor, outs)
        now += 1.0
        if not any(isinstance(out, Event) for out in outs):
            continue
        states += 1
        for owner, watcher in [*seated.items(), (None, spectator)]:
            viewer = None if owner is None else table.seat_of(owner)
            assert watcher.texts[-1] == actor._state_message(table.view(viewer))
            state = orjson.loads(watcher.texts[-1])["state"]
            assert state["you"] == viewer and state["waiting"] == [{"id": 77, "name": "waiter"}]
            if table.hand is not None and viewer is not None:
                own = next(s for s in state["hand"]["seats"] if s["seat"] == viewer)
                assert own["down"] and all(card is not None for card in own["down"])


def test_a_text_frame_is_the_one_websockets_makes() -> None:
    for text in ["", "a", "é" * 62, "x" * 125, "x" * 126, "ü" * 40000, "y" * 65535, "z" * 70000]:
        frame = Frame(Opcode.TEXT, text.encode())
        assert text_frame(text) == frame.serialize(mask=False, extensions=[])


def test_a_message_sent_to_many_is_framed_once_per_turn() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        frames = FrameCache()
        message = "".join(["state-", "state"])
        first = frames.frame(message, loop)
        assert frames.frame(message, loop) is first  # the same message: the same bytes
        twin = "".join(["st", "ate-", "state"])  # equal text, another message
        assert frames.frame(twin, loop) == text_frame(twin)
        await asyncio.sleep(0)  # the turn is over: nothing is kept
        again = frames.frame(message, loop)
        assert again == first and again is not first

    asyncio.run(scenario())
    # A cache left by a loop that closed before its turn ended starts afresh on the next.
    frames = FrameCache()
    stale = asyncio.new_event_loop()
    frames.frame("old", stale)
    stale.close()
    asyncio.run(_frame_on_new_loop(frames))


async def _frame_on_new_loop(frames: FrameCache) -> None:
    loop = asyncio.get_running_loop()
    assert frames.frame("new", loop) == text_frame("new")
    await asyncio.sleep(0)
    assert frames._frames == {}


def _payloads(data: bytes) -> list[str]:
    """The text payloads of the server frames (unmasked) in ``data``, in order."""
    payloads = []
    while data:
        assert data[0] == 0x81, "a final text frame"
        length, start = data[1], 2
        if length == 126:
            length, start = int.from_bytes(data[2:4], "big"), 4
        elif length == 127:
            length, start = int.from_bytes(data[2:10], "big"), 10
        payloads.append(data[start : start + length].decode())
        data = data[start + length :]
    return payloads


def test_a_turns_messages_leave_as_one_frame_holding_them_in_order() -> None:
    async def scenario() -> FakeTransport:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        batching.add_text('{"type":"event","n":1}')
        batching.add_text('{"type":"event","n":2}')
        batching.add_text('{"type":"state","n":2}')
        assert real.writes == []
        await asyncio.sleep(0)
        batching.add_text('{"type":"pong"}')  # alone in its turn: the message as it is
        await asyncio.sleep(0)
        batching.add_text('{"type":"event","n":3}')
        batching.write(b"raw")  # bytes of the protocol's own keep their place after it
        batching.add_text('{"type":"event","n":4}')
        batching.close()  # a close sends what is queued first
        return real

    real = asyncio.run(scenario())
    first, second, third = real.writes
    messages = [orjson.loads(text) for text in _payloads(first)]
    assert messages == [
        [{"type": "event", "n": 1}, {"type": "event", "n": 2}, {"type": "state", "n": 2}]
    ]
    assert _payloads(second) == ['{"type":"pong"}']
    assert third.startswith(text_frame('{"type":"event","n":3}') + b"raw")
    assert _payloads(third[len(text_frame('{"type":"event","n":3}') + b"raw") :]) == [
        '{"type":"event","n":4}'
    ]
    assert real.closed


def test_a_long_turn_is_cut_into_frames_of_bounded_size() -> None:
    async def scenario() -> list[str]:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        text = '{"type":"event","pad":"' + "x" * 1000 + '"}'
        for _ in range(1000):
            batching.add_text(text)
        assert batching.get_write_buffer_size() >= 1000 * len(text)
        await asyncio.sleep(0)
        (write,) = real.writes
        return _payloads(write)

    payloads = asyncio.run(scenario())
    assert len(payloads) > 1 and all(len(p) < BATCH_CHARS + 2000 for p in payloads)
    messages = [m for p in payloads for m in orjson.loads(p)]
    assert len(messages) == 1000 and all(m["pad"] == "x" * 1000 for m in messages)


@pytest.mark.parametrize("batch", [True, False])
def test_a_step_reaches_a_client_as_one_frame_its_state_last(tmp_path: Path, batch: bool) -> None:
    """Through a real server: a step's events and its state arrive together, in order, to a
    client that asked for batches (``/ws?batch=1``); any other client gets a frame per message."""
    env = {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with (
        fresh_database("sqlite", tmp_path) as url,
        ServerProcess(url, tmp_path, extra_args=PLAY_ARGS + factory_args(), env=env) as server,
    ):
        me = Client.guest(server.base)
        if not batch:
            me.ws_url = me.ws_url.split("?")[0]
        table = new_table(server, me)
        frames = asyncio.run(_frames_while_bots_play(me, table, steps=12))
    if not batch:
        assert all(isinstance(f, dict) for f in frames), "a frame of several messages"
        assert sum(f["type"] == "event" for f in frames) >= 12
        return
    steps = [f for f in frames if isinstance(f, list) and any(m["type"] == "event" for m in f)]
    assert len(steps) >= 12
    for frame in steps:
        numbers = [m["n"] for m in frame if m["type"] == "event"]
        assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
        last = frame[-1]
        assert last["type"] == "state" and last["n"] == numbers[-1], frame


async def _frames_while_bots_play(me: Client, table: int, steps: int) -> list[Any]:
    """The raw frames (each parsed) a seated guest receives while it folds and bots play."""
    await me.connect()
    await me.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
    frames: list[Any] = []
    stepped = 0
    while stepped < steps:
        frame = orjson.loads(await asyncio.wait_for(me.ws.recv(), 60))
        frames.append(frame)
        messages = frame if isinstance(frame, list) else [frame]
        stepped += any(m["type"] == "event" for m in messages)
        for message in messages:
            if my_turn(message):
                legal = {a["action"] for a in message["state"]["legal"]}
                action = next(a for a in ("check", "bring-in", "call", "fold") if a in legal)
                turn = message["state"]["turn"]["turn"]
                await me.send({"type": "act", "table": table, "action": action, "turn": turn})
    await me.close()
    return frames
