"""Issue 13, defect 1: a seat taken after another account left it reads nothing of theirs.

Random seat churn against a real server over hundreds of hands: accounts sit,
leave, take the seat another account just left, watch ``since`` an old event
(the replay of the table's log), watch from 0, and reconnect. Every frame each
account received and every REST answer it got about a finished hand (the
record, both downloads and the replayer's events) is checked against who was
dealt what: a down card that was never shown reaches only the account it was
dealt to.
"""

from __future__ import annotations

import asyncio
import bisect
import random
from typing import Any

import httpx
import pytest

from stud.history import read_phh
from stud.history.model import Show, is_up
from stud.testing.server import Client, ServerProcess, ServerSpec, check_log

ARGS = (
    "--turn-seconds", "20", "--time-bank", "5", "--pause", "0.02", "--grace", "30",
    "--bot-delay", "0.002", "0.005", "--no-default-tables", "--seed", "13",
)  # fmt: skip
HANDS = 120
PEOPLE = 4


SERVER = ServerSpec(ARGS)


class Person:
    """One account's socket: records every frame, plays its turns (check or call)."""

    def __init__(self, client: Client, table: int) -> None:
        self.client = client
        self.table = table
        account = client.account
        self.id: int | None = None if account is None else int(account["id"])
        self.name = "" if account is None else str(account["name"])
        self.seat: int | None = None
        self.last_n = 0
        self.frames: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None
        self.acted: set[int] = set()
        self.last_act = 0.0

    async def connect(self) -> None:
        await self.client.connect()
        self.reader = asyncio.create_task(self._read())

    async def reconnect(self) -> None:
        reader = self.reader
        assert reader is not None
        if reader.done() and reader.exception() is not None:
            raise AssertionError(f"{self.name}'s socket failed") from reader.exception()
        # Closing the socket ends the reader (cancelling alone can be lost in Python 3.11's
        # wait_for when a message arrives at that moment); it must end before a new socket.
        reader.cancel()
        await self.client.close()
        done, _ = await asyncio.wait([reader], timeout=30)
        assert done, f"{self.name}'s reader did not stop"
        await self.connect()

    async def _read(self) -> None:
        while True:
            message = await self.client.recv(timeout=120)
            self.frames.append(message)
            if message["type"] not in ("event", "state") or message.get("table") != self.table:
                continue
            self.last_n = max(self.last_n, int(message["n"]))
            if message["type"] != "state":
                continue
            state = message["state"]
            self.seat = state["you"]
            turn = state["turn"]
            if turn and self.seat is not None and turn["seat"] == self.seat and state["legal"]:
                if turn["turn"] in self.acted:
                    continue
                self.acted.add(turn["turn"])
                legal = state["legal"]
                passive = [a for a in legal if a["action"] in ("check", "call", "bring-in")]
                choice = (passive or legal)[0]
                # A person's pace: heads-up against a quick bot, acting at once would pass
                # the server's message rate (20 a second) and get the socket closed.
                loop = asyncio.get_running_loop()
                await asyncio.sleep(max(0.0, self.last_act + 0.1 - loop.time()))
                self.last_act = loop.time()
                await self.client.send(
                    {"type": "act", "table": self.table, "action": choice["action"],
                     "to": choice["to"], "turn": turn["turn"]}
                )  # fmt: skip

    async def send(self, message: dict[str, Any]) -> None:
        await self.client.send({"table": self.table, **message})


class Hands:
    """Who was dealt in each hand, by table seat, from a spectator's stream of new_hand events."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.starts: list[int] = []
        self.players: list[dict[int, int]] = []
        self.by_number: dict[int, dict[int, int]] = {}
        for message in frames:
            if message["type"] == "event" and message["event"]["type"] == "new_hand":
                event = message["event"]
                seats = {int(p["seat"]): int(p["account_id"]) for p in event["players"]}
                self.starts.append(int(message["n"]))
                self.players.append(seats)
                self.by_number[int(event["number"])] = seats

    def at(self, n: int) -> dict[int, int]:
        """The players of the hand event ``n`` belongs to."""
        index = bisect.bisect_left(self.starts, n) - 1
        assert index >= 0, f"event {n} comes before any hand"
        return self.players[index]


def check_frames(frames: list[dict[str, Any]], account: int | None, hands: Hands) -> int:
    """Every down card in ``frames`` was dealt to ``account`` or shown; returns how many."""
    seen = 0
    for message in frames:
        if message["type"] == "event":
            event = message["event"]
            if event["type"] == "dealt" and any(c is not None for c in event["down"]):
                owner = hands.at(int(message["n"])).get(int(event["seat"]))
                assert owner == account, f"{account} got {owner}'s down cards: {message}"
                seen += 1
            if event["type"] == "turn" and "legal" in event:
                owner = hands.at(int(message["n"])).get(int(event["seat"]))
                assert owner == account, f"{account} got {owner}'s legal actions: {message}"
        elif message["type"] == "state" and message["state"]["hand"] is not None:
            state = message["state"]
            players = hands.by_number.get(int(state["hand_number"]), {})
            for row in state["hand"]["seats"]:
                if row["shown"] or all(c is None for c in row["down"]):
                    continue
                owner = players.get(int(row["seat"]))
                assert row["seat"] == state["you"] and owner == account, (
                    f"{account} (seat {state['you']}) sees seat {row['seat']} ({owner}): {message}"
                )
                seen += 1
            for event in state["hand"].get("events") or []:
                if event["type"] == "dealt" and any(c is not None for c in event["down"]):
                    assert players.get(int(event["seat"])) == account, message
    return seen


def check_rest(base: str, hand_id: int, person: Person | None) -> None:
    """The record, downloads and replay of one hand show ``person`` only what it may see."""
    cookies = {} if person is None else {"stud_session": person.client.cookie or ""}
    account = None if person is None else person.id
    with httpx.Client(base_url=base, cookies=cookies, timeout=30) as http:
        record = http.get(f"/api/hands/{hand_id}").json()
        mine = [i for i, p in enumerate(record["players"]) if p["account_id"] == account]
        me = mine[0] if mine else None
        seats = [int(p["seat"]) for p in record["players"]]
        assert record["you"] == (None if me is None else seats[me])
        for text in (record["phh"], http.get(f"/api/hands/{hand_id}/phh").text):
            parsed = read_phh(text)
            shown = {s.seat for s in parsed.shows if isinstance(s, Show)}
            for index, held in enumerate(parsed.cards):
                for position, card in enumerate(held):
                    if card is not None and not is_up(position) and index not in shown:
                        assert index == me, f"{account} reads seat {index}'s {card} in {hand_id}"
        public = httpx.get(f"{base}/api/hands/{hand_id}/pokerstars", timeout=30).text
        text = http.get(f"/api/hands/{hand_id}/pokerstars").text
        extra = set(text.splitlines()) - set(public.splitlines())
        assert all(person is not None and person.name in line for line in extra), extra
        replay = http.get(f"/api/hands/{hand_id}/replay").json()
        for event in replay["events"]:
            if event["type"] == "dealt" and any(c is not None for c in event["down"]):
                assert event["seat"] == replay["you"] and me is not None, (account, event)


@pytest.mark.slow
def test_seat_churn_never_shows_anyone_else_s_hole_cards(server: ServerProcess) -> None:
    rng = random.Random(13)
    owner = Client.guest(server.base)
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "churn", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 4, "bots": 2, "min_buy_in": 20, "max_buy_in": 400},
        cookies={"stud_session": owner.cookie or ""}, timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    table = int(response.json()["id"])
    people = [Person(Client.guest(server.base), table) for _ in range(PEOPLE)]
    spectator = Person(Client(server.base), table)
    taken_over = 0

    async def run() -> None:
        try:
            await churn()
        finally:  # closing every socket ends every reader, so a failure cannot hang the loop
            for p in [spectator, *people]:
                if p.reader is not None:
                    p.reader.cancel()
                await p.client.close()

    async def churn() -> None:
        nonlocal taken_over
        await spectator.connect()
        await spectator.send({"type": "watch", "since": 0})  # every hand from the first
        for person in people:
            await person.connect()
            await person.send({"type": "watch"})
        vacated: list[int] = []  # seats a person just left
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 420
        while len(Hands(spectator.frames).starts) < HANDS:
            assert loop.time() < deadline, "the table stopped dealing"
            await asyncio.sleep(rng.uniform(0.02, 0.12))
            person = rng.choice(people)
            roll = rng.random()
            if person.seat is not None and roll < 0.35:
                vacated.append(person.seat)
                await person.send({"type": "leave"})
            elif person.seat is None and roll < 0.7:
                seat = vacated.pop() if vacated and rng.random() < 0.8 else rng.randrange(4)
                await person.send({"type": "sit", "seat": seat, "buy_in": 100})
                await asyncio.sleep(0.05)
                # The attack: read the table's log back from before this seat was ours.
                since = max(0, spectator.last_n - rng.randint(20, 600))
                await person.send({"type": "watch", "since": since})
                taken_over += 1
            elif roll < 0.8:
                await person.send({"type": "watch", "since": 0})
            elif roll < 0.9:
                await person.send({"type": "watch", "since": rng.randint(0, person.last_n)})
            else:
                await person.reconnect()
                await person.send({"type": "watch", "since": person.last_n})
        await asyncio.sleep(0.5)
        for p in [spectator, *people]:
            assert p.reader is not None
            if p.reader.done() and p.reader.exception() is not None:
                raise AssertionError(f"{p.name}'s socket failed") from p.reader.exception()

    asyncio.run(run())
    hands = Hands(spectator.frames)
    assert len(hands.starts) >= HANDS and taken_over >= 20
    check_frames(spectator.frames, None, hands)
    own_cards = sum(check_frames(p.frames, p.id, hands) for p in people)
    assert own_cards > 0, "the people were never dealt in"
    finished = [
        int(m["event"]["hand_id"])
        for m in spectator.frames
        if m["type"] == "event" and m["event"]["type"] == "hand_finished"
    ]
    for hand_id in rng.sample(finished, 15):
        for person in [None, *people]:
            check_rest(server.base, hand_id, person)
    check_log(server)
