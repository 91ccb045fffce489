"""The event loop's cheap paths do what the slow ones did (docs/protocol.md, "Load").

- A connection whose turn's frame has begun appends its next messages to it
  directly: the same frame, the same order, nothing after a close.
- A turn's messages past BATCH_CHARS are cut into runs exactly as they were
  when each message was checked on arrival.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any

import orjson

from stud.server.actor import TableActor
from stud.server.connection import ClientConnection
from stud.server.room import RoomConfig
from stud.server.storage import TableSpec
from stud.server.transport import BATCH_CHARS, SEND_NOW, BatchingTransport, turn_of
from stud.table import Event, Table, TableSettings
from stud.table.engine import start_engine_hand
from test_server_sending import FakeTransport, _next_step, _payloads


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


def _loop_actor() -> tuple[TableActor, Table, list[Any]]:
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4,
        turn_seconds=10, time_bank=0, pause_between_hands=2,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=5, label="1")
    spec = TableSpec(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4, bots=0,
        min_buy_in=0, max_buy_in=0, id=1,
    )  # fmt: skip
    config = RoomConfig(seed=5, grace_seconds=30, bot_delay=(1.0, 3.0))
    room = Refuses()
    room.__dict__["config"] = config  # the one thing of the room's a pass may read
    actor = TableActor(room, spec, table)  # type: ignore[arg-type]
    watchers = [SendCounter(11), SendCounter(12), SendCounter(None)]
    for watcher in watchers:
        actor.watchers[watcher] = None
    return actor, table, watchers


class SendCounter:
    def __init__(self, account: int | None) -> None:
        self.account_id = account
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


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
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4,
        turn_seconds=0.05, time_bank=0, pause_between_hands=0.05, timeouts_to_sit_out=9,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=5, label="1")
    spec = TableSpec(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=4, bots=0,
        min_buy_in=0, max_buy_in=0, id=1,
    )  # fmt: skip

    async def scenario() -> list[str]:
        actor = TableActor(QuietRoom(RoomConfig()), spec, table)  # type: ignore[arg-type]
        watcher = SendCounter(None)
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
