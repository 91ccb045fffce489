"""The event loop's cheap paths do what the slow ones did (docs/protocol.md, "Load").

- A connection whose turn's frame has begun appends its next messages to it
  directly: the same frame, the same order, nothing after a close.
- A turn's messages past BATCH_CHARS are cut into runs exactly as they were
  when each message was checked on arrival.
"""

from __future__ import annotations

import asyncio
import json
import types
from typing import Any, cast

import orjson
import pytest

from stud.server.actors.table import TableActor
from stud.server.room.room import RoomConfig
from stud.server.storage import TableSpec
from stud.server.ws import protocol
from stud.server.ws.connection import ClientConnection
from stud.server.ws.frames import whole_text_frames
from stud.server.ws.transport import (
    BATCH_CHARS,
    SEND_NOW,
    BatchingTransport,
    BatchingWebSocketProtocol,
    turn_of,
)
from stud.table import Event, Table, TableSettings
from stud.table.engine import start_engine_hand
from test_server_sending import FakeTransport, Watcher, _next_step, _payloads


class BatchingWebSocket:
    """A websocket whose server batches a turn's messages (as ``?batch=1`` asks): its
    synchronous send queues each message for the turn's frame while 'open'."""

    def __init__(self, transport: BatchingTransport) -> None:
        self.transport = transport
        self.open = True
        self.offered: list[str] = []  # what went through the server's send_now
        self.scope: dict[str, Any] = {
            "extensions": {
                SEND_NOW: {"send": self.send_now, "batch": True, "turn": transport.texts}
            }
        }

    def send_now(self, text: str) -> bool:
        if not self.open:
            return False
        self.offered.append(text)
        self.transport.add_text(text)
        return True

    async def send_text(self, text: str) -> None:
        self.transport.add_text(text)

    async def close(self, code: int = 1000) -> None:
        return None


def test_a_connection_adds_to_its_turns_frame_in_order() -> None:
    async def scenario() -> tuple[FakeTransport, BatchingWebSocket]:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        ws = BatchingWebSocket(batching)
        room = types.SimpleNamespace(config=RoomConfig())
        conn = ClientConnection(ws, room, None)  # type: ignore[arg-type]
        assert turn_of(ws.scope) is batching.texts
        for n in range(1, 4):
            conn.send(f'{{"n":{n}}}')
        # Only the turn's first message was checked with the server; the rest joined it.
        assert ws.offered == ['{"n":1}']
        await asyncio.sleep(0)
        conn.send('{"n":4}')  # a new turn: checked with the server again
        batching.write(b"")  # (nothing)
        conn.send('{"n":5}')
        await asyncio.sleep(0)
        ws.open = False  # the socket pushes back: the next message waits for the writer
        conn.send('{"n":6}')
        assert conn.outbox.qsize() == 1 and batching.texts == []
        conn.closed = True
        conn.send('{"n":7}')  # after a close nothing more is sent
        await asyncio.sleep(0)
        return real, ws

    real, ws = asyncio.run(scenario())
    assert [orjson.loads(_payloads(w)[0]) for w in real.writes] == [
        [{"n": 1}, {"n": 2}, {"n": 3}],
        [{"n": 4}, {"n": 5}],
    ]
    assert ws.offered == ['{"n":1}', '{"n":4}']


def _old_cut(texts: list[str]) -> list[list[str]]:
    """How the turn's messages were cut when each was checked on arrival: a run closes
    once it is past BATCH_CHARS characters."""
    runs: list[list[str]] = []
    run: list[str] = []
    chars = 0
    for text in texts:
        if run and chars > BATCH_CHARS:
            runs.append(run)
            run, chars = [], 0
        run.append(text)
        chars += len(text)
    runs.append(run)
    return runs


def test_a_long_turn_is_cut_where_it_was_cut_before() -> None:
    sizes = [BATCH_CHARS + 5, 10, 20, BATCH_CHARS // 2, BATCH_CHARS // 2, 1, BATCH_CHARS, 7]

    async def scenario(texts: list[str]) -> list[str]:
        real = FakeTransport()
        batching = BatchingTransport(real, asyncio.get_running_loop())
        for text in texts:
            batching.add_text(text)
        assert batching.get_write_buffer_size() == sum(map(len, texts))
        await asyncio.sleep(0)
        (write,) = real.writes
        assert batching.texts == []
        return _payloads(write)

    texts = [orjson.dumps({"n": n, "pad": "x" * size}).decode() for n, size in enumerate(sizes)]
    payloads = asyncio.run(scenario(texts))
    expected = [run[0] if len(run) == 1 else "[" + ",".join(run) + "]" for run in _old_cut(texts)]
    assert payloads == expected
    assert len(payloads) == 4  # the first alone, as it is; then runs of several


class Refuses:
    """A room service a pass with nothing due must not call."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a timer pass with nothing due called room.{name}")


class Checks:
    """A bot that checks or calls (only its seat matters here)."""

    def choose(self, view: Any, legal: Any) -> Any:
        raise AssertionError("not asked here")

    def observe(self, view: Any, players: Any) -> None:
        return None


def _table(**clocks: Any) -> tuple[Table, TableSpec]:
    """A four-seat Stud table with the given clocks (TableSettings' fields), and its spec."""
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4, **clocks
    )
    table = Table(settings, start_engine_hand, seed=5, label="1")
    spec = TableSpec(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4, bots=0,
        min_buy_in=0, max_buy_in=0, id=1,
    )  # fmt: skip
    return table, spec


def _loop_actor() -> tuple[TableActor, Table, list[Any]]:
    table, spec = _table(turn_seconds=10, time_bank=0, pause_between_hands=2)
    config = RoomConfig(seed=5, grace_seconds=30, bot_delay=(1.0, 3.0))
    room = Refuses()
    room.__dict__["config"] = config  # the one thing of the room's a pass may read
    actor = TableActor(room, spec, table)
    watchers = [Watcher(11), Watcher(12), Watcher(None)]
    for watcher in watchers:
        actor.watchers[watcher] = None
    return actor, table, watchers


def _snapshot(actor: TableActor, table: Table, watchers: list[Any]) -> tuple[Any, ...]:
    return (
        table.turn_id, table.hand is None, table.next_hand_at, table.actor_seat,
        actor.bot_due, dict(actor.gone), [len(w.texts) for w in watchers], len(actor.waiting),
    )  # fmt: skip


def test_a_skipped_timer_pass_is_one_that_would_have_done_nothing() -> None:
    """Along many hands of two people and a bot, at moments before and after each deadline:
    whenever the actor would skip its timer pass, the pass finds nothing to do (it changes
    nothing, sends nothing, calls nothing of the room's); and every timer that is due
    (a turn's clock, the bot's think time, a seat given up, a deal) makes it run."""
    actor, table, watchers = _loop_actor()
    now = 100.0
    for account in (11, 12):
        table.sit(account, f"p{account}", 500, now)
    table.sit(13, "bot", 500, now, bot=True)
    actor.bots[13] = Checks()
    actor.gone[12] = now + 10_000.0  # a seat kept for a player who lost the connection
    skipped = due = 0
    for step in range(400):
        if step == 150:
            actor.waiting.join(21, "w", 100)  # somebody waits for a seat: never skipped
        if step == 200:
            actor.waiting.drop(21)
        # The bot's think time, as the pass sets it when the turn comes to the bot.
        seat = table.actor_seat
        player = None if seat is None else table.seats[seat]
        if player is not None and player.id == 13:
            if actor.bot_due is None:
                assert not actor._nothing_due(now, actor._wakeup()), (
                    "the bot's think time is set by the pass"
                )
                actor.bot_due = now + 2.0
        else:
            actor.bot_due = None
        moments = [now, now + 1.0]
        for deadline in (table.wakeup(), actor.bot_due, *actor.gone.values()):
            if deadline is not None:
                moments += [deadline - 0.5, deadline, deadline + 0.5]
        for moment in moments:
            deadlines = [table.wakeup(), actor.bot_due, *actor.gone.values()]
            is_due = any(d is not None and moment >= d for d in deadlines)
            between = table.hand is None or bool(actor.waiting)
            if actor._nothing_due(moment, actor._wakeup()):
                assert not is_due and not between
                skipped += 1
                before = _snapshot(actor, table, watchers)
                asyncio.run(actor._timers(moment))
                assert _snapshot(actor, table, watchers) == before
            else:
                due += 1
                assert is_due or between or actor.table.hand is None
        now += 1.0
        outs = _next_step(table, now)
        if any(isinstance(o, Event) and o.kind == "new_hand" for o in outs):
            actor.bot_due = None
    assert skipped > 300 and due > 300


class QuietRoom:
    """What a running actor asks of its room when nobody sends it anything: it owns its
    table, and stores a hand's start and end (here, nowhere)."""

    def __init__(self, config: RoomConfig) -> None:
        self.config = config
        self.db = self
        self.actors: dict[int, Any] = {}

    def owns(self, table_id: int) -> bool:
        return True

    async def write(self, fn: Any) -> Any:
        return 7, []

    async def lend_bot(self, actor: Any) -> None:
        return None

    def release_bot(self, account: int) -> None:
        return None


def test_with_no_command_the_clock_still_deals_and_runs_out_turns() -> None:
    """The actor waits on its queue with no deadline of asyncio's around each wait: its own
    timer wakes it when the deal is due and when a turn's clock runs out."""
    table, spec = _table(
        turn_seconds=0.05, time_bank=0, pause_between_hands=0.05, timeouts_to_sit_out=9
    )

    async def scenario() -> list[str]:
        actor = TableActor(QuietRoom(RoomConfig()), spec, table)  # type: ignore[arg-type]
        watcher = Watcher(None)
        actor.watchers[watcher] = None
        for account in (11, 12, 13):
            table.sit(account, f"p{account}", 500, 0.0)
        table.next_hand_at = actor._clock()
        actor.start()
        kinds: list[str] = []
        for _ in range(600):  # until two hands were dealt and played out by the clock alone
            await asyncio.sleep(0.02)
            kinds = [orjson.loads(t).get("event", {}).get("type", "") for t in watcher.texts]
            if kinds.count("new_hand") >= 2 and "timeout" in kinds:
                break
        await actor.stop()
        assert actor._alarm is None  # a stopped actor leaves no timer behind
        return kinds

    kinds = asyncio.run(scenario())
    assert kinds.count("new_hand") >= 2 and "timeout" in kinds


def test_a_message_is_read_and_refused_as_with_the_standard_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """orjson first, json.loads for what it refuses: every message is read, or refused
    with the same code and words, as when json.loads read them all."""
    texts = [
        '{"type":"act","table":3,"action":"call","to":4,"turn":17,"id":"x"}',
        '{"type":"chat","table":1,"text":"caf\\u00e9 \\u4f60\\u597d \\ud83c\\udccf"}',
        '{"type":"ping","id":1.5e3}',
        '{"type":"ping","id":-0}',
        '{"type":"act","table":3,"action":"call","turn":18446744073709551615}',
        '{"type":"ping","id":123456789012345678901234567890}',  # past 64 bits
        '{"type":"sit","table":123456789012345678901234567890,"buy_in":5}',
        '{"type":"ping","id":NaN}',  # json.loads only
        '{"type":"chat","table":1,"text":"\\ud800"}',  # a lone surrogate: json.loads only
        '{"type":"ping","type":"watch","table":2}',  # the last of a repeated key
        '{"type":"watch","table":2' + ',"x":' + "[" * 1500 + "]" * 1500 + "}",  # deep
        "[" * 100_000 + "]" * 100_000,
        '{"type": "ping"',
        "",
        '{"type":"ping",}',
        '{"type":"ping","id":"\x01"}',
        "[1, 2]",
        '"ping"',
    ]

    def outcome(text: str) -> tuple[Any, ...]:
        try:
            message = protocol.parse(text)
        except protocol.ProtocolError as error:
            return ("refused", error.code, str(error), error.ref)
        return ("read", message.type, repr(message.fields), message.ref)

    fast = [outcome(text) for text in texts]
    monkeypatch.setattr(protocol, "_loads", json.loads)
    assert fast == [outcome(text) for text in texts]
    assert fast[0][0] == "read" and fast[-6][:2] == ("refused", "bad_json")


class SocketTransport(FakeTransport):
    """A socket's transport as uvicorn's websocket protocol uses it."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = True

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_reading(self) -> bool:
        return self.reading

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8650), "peername": ("127.0.0.1", 40000)}.get(
            name, default
        )


class GeneralParser(BatchingWebSocketProtocol):
    """The same protocol with every read handed to websockets' own parser."""

    def _between_frames(self) -> bool:
        return False


HANDSHAKE = (
    b"GET /ws?batch=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)


def _client_frame(
    opcode: int, payload: bytes, *, fin: bool = True, rsv: int = 0, masked: bool = True
) -> bytes:
    """A client's frame (RFC 6455 5.2), masked with a fixed key unless told not to."""
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    length = len(payload)
    flag = 0x80 if masked else 0
    if length < 126:
        head += bytes([flag | length])
    elif length < 65536:
        head += bytes([flag | 126]) + length.to_bytes(2, "big")
    else:
        head += bytes([flag | 127]) + length.to_bytes(8, "big")
    if not masked:
        return head + payload
    key = b"\x12\x34\x56\x78"
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def _serve(
    protocol_class: type[BatchingWebSocketProtocol], reads: list[bytes]
) -> tuple[list[Any], bytes, bool]:
    """What the application received, the bytes the server wrote after its handshake, and
    whether it closed, for a client that sends ``reads`` (each one read of the socket)."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    received: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            received.append({k: v for k, v in message.items() if k != "reason"})
            if message["type"] == "websocket.disconnect":
                return

    async def scenario() -> tuple[bytes, bool]:
        config = Config(app=app, ws_max_size=65536, ws_ping_interval=None, lifespan="off")
        config.load()
        protocol = protocol_class(config, ServerState(), {}, asyncio.get_running_loop())
        transport = SocketTransport()
        protocol.connection_made(transport)
        protocol.data_received(HANDSHAKE)
        for _ in range(5):
            await asyncio.sleep(0)
        handshake = len(b"".join(transport.writes))
        for data in reads:
            if transport.closed:
                break
            protocol.data_received(data)
            for _ in range(5):
                await asyncio.sleep(0)
        if not transport.closed:
            protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return b"".join(transport.writes)[handshake:], transport.closed

    wire, closed = asyncio.run(scenario())
    return received, wire, closed


def test_whole_text_frames_are_received_as_websockets_receives_them() -> None:
    """Reads of whole small text frames skip websockets' parser; every other read goes to
    it. Whatever the reads hold and however the stream is cut into reads, the application
    gets the same messages and the client the same bytes (pongs, closes) either way."""
    import random

    act = b'{"type":"act","table":3,"action":"call","to":4,"turn":17}'
    frames = {
        "act": _client_frame(0x1, act),
        "chat": _client_frame(0x1, '{"type":"chat","text":"你好 ♠"}'.encode()),
        "long": _client_frame(0x1, b'{"type":"chat","text":"' + b"x" * 300 + b'"}'),
        "ping": _client_frame(0x9, b"hi"),
        "parts": _client_frame(0x1, b'{"type":', fin=False) + _client_frame(0x0, b'"ping"}'),
        "binary": _client_frame(0x2, b"\x00\x01"),
        "bad utf-8": _client_frame(0x1, b'{"type":"\xff"}'),
        "unmasked": _client_frame(0x1, b'{"type":"ping"}', masked=False),
        "reserved bit": _client_frame(0x1, b'{"type":"ping"}', rsv=0x40),
        "too big": _client_frame(0x1, b"y" * 70_000),
        "close": _client_frame(0x8, (1000).to_bytes(2, "big") + b"bye"),
    }
    payloads: dict[str, str | bytes] = {
        "act": act.decode(),
        "chat": '{"type":"chat","text":"你好 ♠"}',
        "long": '{"type":"chat","text":"' + "x" * 300 + '"}',
        "parts": '{"type":"ping"}',
        "binary": b"\x00\x01",
    }
    rng = random.Random(17)
    endings = ["bad utf-8", "unmasked", "reserved bit", "too big", "close", None]
    fast_reads = 0
    for case in range(60):
        names = rng.choices(["act", "act", "act", "chat", "long", "ping", "parts", "binary"], k=8)
        ending = endings[case % len(endings)]
        stream = b"".join(frames[name] for name in names) + (frames[ending] if ending else b"")
        cuts = sorted(rng.sample(range(1, len(stream)), rng.randint(0, 6)))
        if case % 3 == 0:  # cut at the frames' own ends, as a client's writes mostly arrive
            cuts, at = [], 0
            for name in names:
                at += len(frames[name])
                cuts.append(at)
        reads = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
        reads = [r for r in reads if r]
        fast = _serve(BatchingWebSocketProtocol, reads)
        assert fast == _serve(GeneralParser, reads), (names, ending, cuts)
        fast_reads += sum(whole_text_frames(r, 65536) is not None for r in reads)
        if ending is None:  # every message arrives, in order
            expected = [payloads[name] for name in names if name != "ping"]
            got = [m.get("text", m.get("bytes")) for m in fast[0]]
            assert got == [*expected, None]  # then the disconnect
    assert fast_reads > 50  # the fast path was taken, not only the general one


def test_a_frame_cut_between_reads_is_never_read_from_its_middle() -> None:
    """A read that starts inside a frame is websockets' to finish, even when the rest of
    that frame looks like whole text frames (here a binary frame whose payload, once the
    client's mask is applied, is exactly a text frame's bytes)."""
    inner = _client_frame(0x1, b'{"type":"ping"}')
    key = b"\x12\x34\x56\x78"
    payload = bytes(b ^ key[i % 4] for i, b in enumerate(inner))  # masked: becomes ``inner``
    outer = _client_frame(0x2, payload)
    assert outer.endswith(inner)
    reads = [outer[: len(outer) - len(inner)], inner, _client_frame(0x1, b'{"n":2}')]
    received, _, _ = _serve(BatchingWebSocketProtocol, reads)
    assert received == [
        {"type": "websocket.receive", "bytes": payload},
        {"type": "websocket.receive", "text": '{"n":2}'},
        {"type": "websocket.disconnect", "code": 1005},
    ]
    assert (received, *_serve(BatchingWebSocketProtocol, reads)[1:]) == _serve(GeneralParser, reads)


def test_only_whole_final_masked_text_frames_are_read_directly() -> None:
    text = b'{"type":"ping"}'
    two = _client_frame(0x1, text) + _client_frame(0x1, b"x" * 300)
    assert whole_text_frames(two, 65536) == [text, b"x" * 300]
    assert whole_text_frames(b"", 65536) == []
    refused = {
        "unmasked": _client_frame(0x1, text, masked=False),
        # (as long as a masked frame of that length: only the mask bit refuses it)
        "unmasked, then 4 bytes": _client_frame(0x1, text, masked=False) + b"abcd",
        "reserved bit": _client_frame(0x1, text, rsv=0x40),
        "a fragment": _client_frame(0x1, text, fin=False),
        "a continuation": _client_frame(0x0, text),
        "binary": _client_frame(0x2, text),
        "ping": _client_frame(0x9, b""),
        "close": _client_frame(0x8, b"\x03\xe8"),
        "64-bit length": _client_frame(0x1, b"z" * 65536),
        "cut short": _client_frame(0x1, text)[:-1],
        "a frame and a piece": _client_frame(0x1, text) + _client_frame(0x1, text)[:3],
    }
    for name, data in refused.items():
        assert whole_text_frames(data, 65536) is None, name
    assert whole_text_frames(_client_frame(0x1, b"x" * 300), 200) is None  # over max_size


def test_a_websockets_with_other_internals_reads_every_frame_with_its_own_parser() -> None:
    """The direct read depends on websockets' parser's internals; where they differ (another
    release), every read goes to websockets rather than failing the connection."""
    from types import SimpleNamespace

    from websockets.protocol import OPEN

    protocol = BatchingWebSocketProtocol.__new__(BatchingWebSocketProtocol)
    protocol.conn = cast(Any, SimpleNamespace(state=OPEN, current_size=None))
    assert protocol._between_frames() is False
