"""Tables of websocket players for the capacity bench: opened once, busy or parked at will.

Each table has ``players`` guests on :class:`lean_socket.LeanSocket`
connections; each checks or calls (bring-in, fold when nothing else) a think
time after its turn comes. The load is the number of *busy* tables: a parked
table's player whose turn it is holds the action until the table is busy
again (the room runs with a turn clock long enough never to act for it), so
the bench can step the load up and down on one room without opening and
closing tables for each step. Every message is timestamped on arrival and
paired with the action it answers by :class:`capacity.Meter`.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import orjson

from bench_server import post as _post
from capacity import Meter
from lean_socket import LeanSocket, connect

ACTIONS = ("check", "call", "bring-in", "fold")
"""What a bench player does, the first of these that is legal."""

GAMES = ("stud", "stud8", "razz")

HAND_END = "hand_finished"
"""The event of the step that finished a hand: the room sends it after the hand's write."""


class Player:
    """One seat's client: records receipts, decides on its turn, acts after a think."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.socket: LeanSocket | None = None
        self.last_turn = -1
        self.my_turn = True  # until the first state: a seat may sit down to its turn

    def on_text(self, payload: bytes, arrived: float) -> None:
        """Every event is a receipt; a state is read only after this seat's turn was announced.

        A ``turn`` event carries ``legal`` only to the client whose turn it is, so
        the (large) state that ends each step is parsed only when it may ask this
        seat to act: a third of the states, the generator's largest parsing cost.
        """
        if payload.startswith(b'{"type":"state"'):
            if self.my_turn:
                self.my_turn = False
                self.decide(orjson.loads(payload))
            return
        parsed = orjson.loads(payload)
        if isinstance(parsed, list):  # several messages sent together (a step's events, state)
            # A step's events leave together, so the action that finished a hand is answered
            # in the frame that carries ``hand_finished``: it waited for the hand's write.
            ends = any(m["type"] == "event" and m["event"]["type"] == HAND_END for m in parsed)
            for message in parsed:
                self.on_message(message, arrived, ends)
        else:
            self.on_message(parsed, arrived)

    def on_message(self, message: dict[str, Any], arrived: float, ends: bool = False) -> None:
        """One message of a frame (a state here only from a frame of several)."""
        if message["type"] == "state":
            if self.my_turn:
                self.my_turn = False
                self.decide(message)
        elif message["type"] == "event":
            table = self.table
            table.load.meter.received(table.id, message["n"], arrived, ends_hand=ends)
            event = message["event"]
            if event["type"] == "turn" and "legal" in event:
                self.my_turn = True

    def decide(self, message: dict[str, Any]) -> None:
        """Act (after a think) if the state asks this seat to, once per turn."""
        state = message["state"]
        turn = state["turn"]
        if not turn or state["you"] is None or turn["seat"] != state["you"]:
            return
        legal = state["legal"]
        if not legal or turn["turn"] == self.last_turn:
            return
        self.last_turn = turn["turn"]
        to = {a["action"]: a["to"] for a in legal}
        action = next(a for a in ACTIONS if a in to)
        table = self.table
        act = orjson.dumps(
            {"type": "act", "table": table.id, "action": action, "to": to[action],
             "turn": turn["turn"]}
        )  # fmt: skip
        table.hold(self, message["n"] + 1, act)

    def on_lost(self) -> None:
        self.table.load.dropped += 1

    def act(self, n: int, act: bytes) -> None:
        table = self.table
        if not table.busy:
            table.parked.append((self, n, act))
            return
        table.load.meter.sent(table.id, n, time.monotonic())
        if self.socket is not None:
            self.socket.send_text(act)


class Table:
    """One bench table: its id, its players, whether it is busy, and any action it holds."""

    def __init__(self, load: TableLoad, table_id: int, port: int) -> None:
        self.load = load
        self.id = table_id
        self.port = port
        self.players: list[Player] = []
        self.busy = False
        self.parked: list[tuple[Player, int, bytes]] = []

    def hold(self, player: Player, n: int, act: bytes) -> None:
        """Act after a think time if the table is busy, else when it is busy again."""
        if self.busy:
            self.load.later(player, n, act)
        else:
            self.parked.append((player, n, act))

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        if busy:
            parked, self.parked = self.parked, []
            for player, n, act in parked:
                self.load.later(player, n, act)


class TableLoad:
    """Every bench table of one room, the meter of the window being measured, and the think."""

    def __init__(self, players: int, think: tuple[float, float], seed: int = 0) -> None:
        self.players = players
        self.think = think
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.meter = Meter(players)
        self.dropped = 0

    def later(self, player: Player, n: int, act: bytes) -> None:
        delay = self.rng.uniform(*self.think)
        asyncio.get_running_loop().call_later(delay, player.act, n, act)

    def set_busy(self, count: int) -> None:
        """The first ``count`` tables busy, the others parked."""
        for index, table in enumerate(self.tables):
            if table.busy != (index < count):
                table.set_busy(index < count)

    async def open(self, count: int, bases: list[str], batch: int = 10) -> None:
        """Open tables until there are ``count``, the n-th through ``bases[n % len(bases)]``.

        Its players connect to the same process (what a proxy that routes by
        table does), so the room's processes share the tables evenly.
        """
        clients = [httpx.AsyncClient(base_url=base, timeout=120) for base in bases]
        try:
            while len(self.tables) < count:
                first = len(self.tables)
                numbers = range(first, min(count, first + batch))
                opened = await asyncio.gather(
                    *(self._open_one(n, clients[n % len(clients)]) for n in numbers)
                )
                self.tables.extend(opened)
        finally:
            for client in clients:
                await client.aclose()

    async def _open_one(self, n: int, http: httpx.AsyncClient) -> Table:
        cookies = [await _guest(http) for _ in range(self.players)]
        response = await _post(
            http, "/api/tables",
            json={"name": f"bench-{n}", "game": GAMES[n % len(GAMES)], "ante": 1,
                  "bring_in": 2, "small_bet": 4, "big_bet": 8, "seats": self.players,
                  "bots": 0},
            headers={"Cookie": f"stud_session={cookies[0]}"},  # not the jar: many guests
        )  # fmt: skip
        response.raise_for_status()
        url = httpx.URL(str(http.base_url))
        port = url.port or 80
        table = Table(self, int(response.json()["id"]), port)
        for cookie in cookies:
            player = Player(table)
            player.socket = await connect(url.host, port, cookie, player.on_text, player.on_lost)
            table.players.append(player)
            player.socket.send_text(orjson.dumps({"type": "sit", "table": table.id, "buy_in": 400}))
        return table

    def close(self) -> None:
        for table in self.tables:
            table.busy = False
            for player in table.players:
                if player.socket is not None:
                    player.socket.close()


async def _guest(http: httpx.AsyncClient) -> str:
    response = await _post(http, "/api/guest")
    response.raise_for_status()
    cookie = response.cookies.get("stud_session")
    if not cookie:
        raise RuntimeError("the room gave a guest no session cookie")
    # Out of the jar: a sign-up that brings a session along ends it (the room renews the
    # token of a browser that changes who it is), and each guest here keeps its own.
    http.cookies.clear()
    return cookie


class Pinger:
    """The anchor inside each load: round trips of a bare ``ping`` through the same process.

    No table work is in a ping, so its p99 shows what the machine's load alone
    costs a message at that moment; the actions' p99 is read against it.
    """

    def __init__(self, every: float = 0.05) -> None:
        self.every = every
        self.socket: LeanSocket | None = None
        self.sent_at: float | None = None
        self.round_trips: list[float] = []
        self.running = False

    async def open(self, base: str) -> None:
        url = httpx.URL(base)
        self.socket = await connect(url.host, url.port or 80, None, self.on_text, lambda: None)

    def on_text(self, payload: bytes, arrived: float) -> None:
        if self.sent_at is not None and payload.startswith(b'{"type":"pong"'):
            self.round_trips.append(arrived - self.sent_at)
            self.sent_at = None

    def start(self) -> None:
        self.round_trips, self.sent_at, self.running = [], None, True
        self._tick()

    def stop(self) -> None:
        self.running = False

    def _tick(self) -> None:
        if not self.running or self.socket is None:
            return
        if self.sent_at is None:  # one ping in flight at a time
            self.sent_at = time.monotonic()
            self.socket.send_text(b'{"type":"ping"}')
        asyncio.get_running_loop().call_later(self.every, self._tick)

    def close(self) -> None:
        self.running = False
        if self.socket is not None:
            self.socket.close()
