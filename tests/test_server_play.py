"""A real server on a loopback port, real websockets: hands between two clients and a bot.

Every message each client receives is recorded and checked: numbered in order,
and no down card of another player in any of them before that player shows.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import random
import re
from typing import Any

import httpx
import pytest

from stud.testing import wait
from stud.testing.server import Client, ServerProcess, ServerSpec, check_no_foreign_down_cards

FAST = (
    "--turn-seconds", "1.5", "--time-bank", "1", "--pause", "0.1",
    "--bot-delay", "0.01", "0.03", "--grace", "30", "--no-default-tables", "--seed", "11",
)  # fmt: skip
"""Short clocks, for the time-out test."""
PLAY = ("--turn-seconds", "30", "--time-bank", "30", *FAST[4:])
"""Clocks no client runs out of on a slow machine: the play tests' players always act."""


def hand_factory_args() -> tuple[str, ...]:
    """The real engine; skipped (and reported) only while it cannot be imported."""
    factory = os.environ.get("STUD_TEST_HAND_FACTORY")
    if factory:
        return ("--hand-factory", factory)
    try:
        importlib.import_module("stud.table.engine")
    except ImportError as error:
        pytest.skip(f"the hand engine cannot be imported yet: {error}", allow_module_level=True)
    return ()


# No table fault (a bot that cannot act, a step that failed) along the way.
SERVER = ServerSpec(PLAY + hand_factory_args(), clean_log=True)
FAST_SERVER = ServerSpec(FAST + hand_factory_args(), clean_log=True)


def make_table(
    server: ServerProcess, client: Client, game: str, bots: int, seats: int = 6, **extra: Any
) -> int:
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": f"t-{game}", "game": game, "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": seats, "bots": bots, **extra},
        cookies={"stud_session": client.cookie or ""},
        timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


class Hands:
    """Finished hands each player saw; ``done`` once every player saw ``goal`` of them."""

    def __init__(self, players: int, goal: int) -> None:
        self.seen = [0] * players
        self.goal = goal
        self.done = asyncio.Event()

    def finished(self, player: int) -> None:
        self.seen[player] += 1
        if min(self.seen) >= self.goal:
            self.done.set()


async def play(client: Client, table: int, rng: random.Random, hands: Hands, me: int = 0) -> None:
    """Act whenever the state says it is our turn, until every player saw enough hands.

    A player keeps playing until the others are done too: one who stopped early would
    hold up the table for its whole clock. Silence longer than a minute is a hang.
    """
    acted: set[int] = set()  # a turn's later states (others' events) are not asked again
    loop = asyncio.get_running_loop()
    heard = loop.time()
    # The latest state read before (waiting for a reply) may already be our turn.
    states = [m for m in client.messages if m["type"] == "state"]
    message: dict[str, Any] | None = states[-1] if states else None
    while not hands.done.is_set():
        if message is None:
            try:
                message = await client.recv(timeout=0.5)
            except TimeoutError:
                assert loop.time() - heard < 60, "no message for a minute"
                continue
            heard = loop.time()
            if message["type"] == "event" and message["event"]["type"] == "hand_finished":
                hands.finished(me)
        if message["type"] != "state":
            message = None
            continue
        state = message["state"]
        turn = state["turn"]
        mine = turn and state["you"] is not None and turn["seat"] == state["you"]
        if mine and state["legal"] and turn["turn"] not in acted:
            acted.add(turn["turn"])
            legal = state["legal"]
            passive = [a for a in legal if a["action"] in ("check", "call", "bring-in")]
            choice = rng.choice(legal) if rng.random() < 0.25 else (passive or legal)[0]
            if choice["action"] == "fold" and passive:
                choice = passive[0]
            await client.send({"type": "act", "table": table, "action": choice["action"],
                               "to": choice["to"], "turn": turn["turn"]})  # fmt: skip
        message = None


async def record_all(client: Client) -> None:
    """Keep reading (and so recording) a spectator's messages until cancelled."""
    while True:
        await client.recv(timeout=60)


def check_numbering(client: Client, table: int) -> None:
    numbers = [m["n"] for m in client.messages if m["type"] == "event" and m["table"] == table]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def own_down_cards_leak(clients: list[tuple[Client, int | None]]) -> None:
    """A seat's own down cards (which only it knows) appear in nobody else's text pre-showdown."""
    for owner, seat in clients:
        if seat is None:
            continue
        by_hand: dict[int, set[str]] = {}
        number = 0
        for message in owner.messages:
            if message["type"] == "event":
                event = message["event"]
                if event["type"] == "new_hand":
                    number = event["number"]
                if event["type"] == "dealt" and event["seat"] == seat:
                    by_hand.setdefault(number, set()).update(c for c in event["down"] if c)
        for other, other_seat in clients:
            if other is owner:
                continue
            number, showing = 0, False
            for message in other.messages:
                if message["type"] == "event":
                    event = message["event"]
                    if event["type"] == "new_hand":
                        number, showing = event["number"], False
                    if event["type"] in ("showdown", "show"):
                        showing = True
                if showing:
                    continue
                text = json.dumps(message)
                for card in by_hand.get(number, ()):
                    assert f'"{card}"' not in text, (card, seat, other_seat, message)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_two_clients_and_a_bot_play_full_hands(server: ServerProcess, game: str) -> None:
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    watcher = Client(server.base)
    # The Stud Hi/Lo table takes a rake: 10% of each pot, at most 3 chips a hand.
    rake = {"rake_percent": 10, "rake_cap": 3} if game == "stud8" else {}
    table = make_table(server, alice, game, bots=3, **rake)
    rng = random.Random(5)

    async def run() -> None:
        for client in (alice, bob, watcher):
            welcome = await client.connect()
            assert welcome["type"] == "welcome"
        await watcher.send({"type": "watch", "table": table})
        drain = asyncio.create_task(record_all(watcher))
        await alice.send({"type": "sit", "table": table, "buy_in": 200, "id": "a"})
        assert (await alice.until(lambda m: m.get("id") == "a"))["type"] == "ok"
        await bob.send({"type": "sit", "table": table, "buy_in": 200, "id": "b"})
        assert (await bob.until(lambda m: m.get("id") == "b"))["type"] == "ok"
        hands = Hands(players=2, goal=4)
        await asyncio.wait_for(
            asyncio.gather(play(alice, table, rng, hands, 0), play(bob, table, rng, hands, 1)),
            600,  # only bounds a hang
        )
        last = max(alice.last_event(table), bob.last_event(table))
        await wait.until(lambda: watcher.last_event(table) >= last, "the watcher saw every event")
        drain.cancel()
        for client in (alice, bob, watcher):
            await client.close()

    asyncio.run(run())
    seats = {}
    for client in (alice, bob):
        states = [m for m in client.messages if m["type"] == "state"]
        seats[id(client)] = states[-1]["state"]["you"]
        assert seats[id(client)] is not None
    hidden = 0
    for client, seat in ((alice, seats[id(alice)]), (bob, seats[id(bob)]), (watcher, None)):
        hidden += check_no_foreign_down_cards(client, seat)
        check_numbering(client, table)
        assert not [m for m in client.messages if m["type"] == "error"]
    assert hidden > 0
    own_down_cards_leak([(alice, seats[id(alice)]), (bob, seats[id(bob)]), (watcher, None)])
    # A bot played alongside the two people.
    started = [m["event"] for m in watcher.messages if m["type"] == "event"
               and m["event"]["type"] == "new_hand"]  # fmt: skip
    assert any(
        {p["account_id"] for p in e["players"]} >= {alice.account["id"], bob.account["id"]}  # type: ignore[index]
        and len(e["players"]) >= 3
        for e in started
    )
    finished = [m["event"] for m in watcher.messages if m["type"] == "event"
                and m["event"]["type"] == "hand_finished"]  # fmt: skip
    assert len(finished) >= 4
    check_histories(server, game, finished, [(alice, seats[id(alice)]), (bob, seats[id(bob)])])
    check_rake(server, table, finished, raked=bool(rake))


def check_rake(
    server: ServerProcess, table: int, finished: list[dict[str, Any]], *, raked: bool
) -> None:
    """A raked table's hands pay rake (capped) that their histories state; others pay none."""
    lobby = httpx.get(f"{server.base}/api/tables/{table}", timeout=10).json()
    assert lobby["rake_percent"] == (10 if raked else 0)
    rakes = [e["summary"]["rake"] for e in finished]
    assert all(0 <= r <= 3 for r in rakes)
    assert (sum(rakes) > 0) == raked
    for event in finished:
        text = httpx.get(f"{server.base}/api/hands/{event['hand_id']}/pokerstars", timeout=10).text
        assert f"| Rake {event['summary']['rake']}" in text


def down_cards_by_hand(client: Client, seat: int) -> dict[int, set[str]]:
    """The down cards ``client`` was dealt in each hand (by hand number), from its own events."""
    by_hand: dict[int, set[str]] = {}
    number = 0
    for message in client.messages:
        if message["type"] != "event":
            continue
        event = message["event"]
        if event["type"] == "new_hand":
            number = event["number"]
        elif event["type"] == "dealt" and event["seat"] == seat:
            by_hand.setdefault(number, set()).update(c for c in event["down"] if c)
    return by_hand


def shown_by_hand(finished: list[dict[str, Any]]) -> dict[int, set[int]]:
    """Seats that showed their cards at each hand's showdown."""
    return {
        e["number"]: {r["seat"] for r in e["summary"]["results"] if r["type"] == "show"}
        for e in finished
    }


def cards_in_pokerstars(text: str) -> set[str]:
    """Every card named in PokerStars text (they are all in brackets)."""
    return {card for group in re.findall(r"\[([^\]]*)\]", text) for card in group.split()}


def cards_in_phh(text: str) -> set[str]:
    """Every known card dealt or shown in PHH text (``??`` is an unknown one)."""
    found: set[str] = set()
    for run in re.findall(r'"(?:d dh p\d+|p\d+ sm) ([^"# ]*)', text):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    found.discard("??")
    return found


def check_histories(
    server: ServerProcess,
    game: str,
    finished: list[dict[str, Any]],
    players: list[tuple[Client, int]],
) -> None:
    """Every finished hand has PHH and PokerStars text; each download hides what it must."""
    variant = {"stud": "F7S", "stud8": "F7S/8", "razz": "FR"}[game]
    shown = shown_by_hand(finished)
    own = {id(client): down_cards_by_hand(client, seat) for client, seat in players}
    played = 0
    for event in finished:
        hand_id, number = event["hand_id"], event["number"]
        base = f"{server.base}/api/hands/{hand_id}"
        record = httpx.get(base, timeout=10).json()
        assert record["status"] == "finished" and record["game"] == game
        assert record["you"] is None
        public_phh = httpx.get(base + "/phh", timeout=10).text
        public_ps = httpx.get(base + "/pokerstars", timeout=10).text
        assert public_phh.startswith(f'variant = "{variant}"') and "actions = [" in public_phh
        assert public_ps.startswith(f"PokerStars Hand #{hand_id}: ")
        assert "*** SUMMARY ***" in public_ps
        texts: dict[int | None, tuple[set[str], set[str]]] = {
            None: (cards_in_phh(public_phh), cards_in_pokerstars(public_ps))
        }
        for client, seat in players:
            cookies = {"stud_session": client.cookie or ""}
            mine_phh = httpx.get(base + "/phh", cookies=cookies, timeout=10).text
            mine_ps = httpx.get(base + "/pokerstars", cookies=cookies, timeout=10).text
            texts[seat] = (cards_in_phh(mine_phh), cards_in_pokerstars(mine_ps))
        for client, seat in players:
            cards = own[id(client)].get(number, set())
            if not cards:
                continue
            played += 1
            # A player's own down cards are in that player's downloads...
            assert cards <= texts[seat][0] and cards <= texts[seat][1], (cards, seat)
            if seat in shown[number]:
                continue
            # ...and in nobody else's, unless the player showed them down.
            for viewer, (phh_cards, ps_cards) in texts.items():
                if viewer != seat:
                    assert not cards & (phh_cards | ps_cards), (cards, seat, viewer)
        replay = httpx.get(base + "/replay", timeout=10).json()
        assert replay["number"] == number and replay["events"][0]["type"] == "hand_started"
        assert replay["events"][-1]["type"] == "hand_ended"
    assert played > 0


def _seat_of(client: Client) -> int | None:
    states = [m for m in client.messages if m["type"] == "state"]
    return states[-1]["state"]["you"] if states else None


def test_reconnect_mid_hand_gets_what_was_missed_and_keeps_the_seat(server: ServerProcess) -> None:
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    table = make_table(server, alice, "stud", bots=2)

    async def run() -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
        await alice.connect()
        await bob.connect()
        await alice.send({"type": "sit", "table": table, "buy_in": 200, "id": "a"})
        assert (await alice.until(lambda m: m.get("id") == "a"))["type"] == "ok"
        await bob.send({"type": "sit", "table": table, "buy_in": 200, "id": "b"})
        assert (await bob.until(lambda m: m.get("id") == "b"))["type"] == "ok"
        # Wait for a hand with alice in it (it may have been dealt before the reply to her
        # sit came), then drop her connection mid-hand.
        seat = _seat_of(alice)

        def dealt_to_alice(m: dict[str, Any]) -> bool:
            event = m.get("event") or {}
            return bool(event.get("type") == "dealt" and event.get("seat") == seat)

        if not any(dealt_to_alice(m) for m in alice.messages):
            await alice.until(dealt_to_alice, timeout=120)
        last = max(m["n"] for m in alice.messages if m["type"] == "event")
        await alice.close()
        bob_task = asyncio.create_task(
            play(bob, table, random.Random(1), Hands(players=1, goal=10**6))
        )
        # The hand goes on without her: there is something to miss.
        await wait.until(lambda: bob.last_event(table) > last, "an event alice misses")
        again = Client(server.base, alice.cookie)
        await again.connect()
        await again.send({"type": "watch", "table": table, "since": last})
        state = await again.until(lambda m: m["type"] == "state")
        missed = [m for m in again.messages if m["type"] == "event"]
        bob_task.cancel()
        await again.close()
        await bob.close()
        return last, state, missed

    last, state, missed = asyncio.run(run())
    assert state["state"]["you"] == _seat_of(alice)
    assert [m["n"] for m in missed] == list(range(last + 1, state["n"] + 1))
    hand = state["state"]["hand"]
    if hand is not None:
        me = [s for s in hand["seats"] if s["seat"] == state["state"]["you"]]
        assert me and all(card is not None for card in me[0]["down"])


@pytest.mark.parametrize("server", [FAST_SERVER], ids=["fast"], indirect=True)
def test_time_outs_check_or_fold_then_sit_out(server: ServerProcess) -> None:
    idle = Client.guest(server.base)
    table = make_table(server, idle, "razz", bots=2)

    async def run() -> None:
        await idle.connect()
        # Watch first, so every event from the first deal on is received.
        await idle.send({"type": "watch", "table": table})
        await idle.until(lambda m: m["type"] == "state")
        await idle.send({"type": "sit", "table": table, "buy_in": 200, "id": "s"})
        await idle.until(lambda m: m.get("id") == "s")
        await idle.until(
            lambda m: m["type"] == "event" and m["event"]["type"] == "sat_out", timeout=60
        )
        await idle.close()

    asyncio.run(run())
    seat = _seat_of(idle)
    events = [m["event"] for m in idle.messages if m["type"] == "event"]
    timeouts = [e for e in events if e["type"] == "timeout" and e["seat"] == seat]
    assert len(timeouts) >= 2
    # Checked or folded; the bring-in seat, which may not fold, posts the bring-in.
    assert {e["action"] for e in timeouts} <= {"check", "fold", "bring-in"}
    sat_out = [e for e in events if e["type"] == "sat_out" and e["seat"] == seat]
    assert sat_out[0]["reason"] == "timeouts"
