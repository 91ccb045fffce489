"""A real room deals every hand from its committed shuffle, and no seed leaks before its hand ends.

Two players (who add their own seeds, as the browser does) and a bot play hands
at a real server over real websockets while a spectator watches. Every frame
each of them received is searched for every seed; each finished hand's
records verify, as downloaded.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from stud.fairness import commitment_of
from stud.history import read_phh, read_pokerstars
from stud.history.verify import verify
from stud.testing import wait
from stud.testing.server import Client, ServerProcess, ServerSpec

ARGS = (
    "--turn-seconds", "30", "--time-bank", "30", "--pause", "1.0", "--bot-delay", "0.01", "0.03",
    "--grace", "30", "--no-default-tables", "--bots", "station",
)  # fmt: skip
HANDS = 5


SERVER = ServerSpec(ARGS, clean_log=True)


def make_table(server: ServerProcess, client: Client, seats: int = 4, bots: int = 1) -> int:
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "fair", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": seats, "bots": bots},
        cookies={"stud_session": client.cookie or ""},
        timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


class Player:
    """A websocket player that seeds every hand it can and checks or calls to the end."""

    def __init__(self, client: Client, table: int) -> None:
        self.client = client
        self.table = table
        self.sent: dict[str, str] = {}  # commitment -> the seed we sent for it
        self.late: set[str] = set()  # commitments (first 32 digits) whose seed came too late
        self.acted: set[int] = set()
        self.finished = 0

    async def step(self, message: dict[str, Any]) -> None:
        ref = str(message.get("id", ""))
        if message["type"] == "error" and ref.startswith("seed:"):
            assert message["code"] in ("seeds_closed", "stale_seed"), message
            self.late.add(ref.removeprefix("seed:"))
        if message["type"] == "event" and message["event"]["type"] == "hand_finished":
            self.finished += 1
        if message["type"] != "state":
            return
        state = message["state"]
        shuffle = state["shuffle"]
        open_ = state["you"] is not None and shuffle and shuffle["open"]
        if open_ and shuffle["commitment"] not in self.sent:
            seed = secrets.token_hex(32)
            self.sent[shuffle["commitment"]] = seed
            commitment = shuffle["commitment"]
            message = {"type": "seed", "table": self.table, "commitment": commitment}
            await self.client.send({**message, "seed": seed, "id": f"seed:{commitment[:32]}"})
        turn = state["turn"]
        if (
            turn
            and turn["seat"] == state["you"]
            and state["legal"]
            and turn["turn"] not in self.acted
        ):
            self.acted.add(turn["turn"])
            legal = state["legal"]
            passive = [a for a in legal if a["action"] in ("check", "call", "bring-in")]
            choice = (passive or legal)[0]
            await self.client.send({"type": "act", "table": self.table, "action": choice["action"],
                                    "to": choice["to"], "turn": turn["turn"]})  # fmt: skip


async def run_players(
    players: list[Player], spectator: Client, hands: int, polled: list[str] | None = None
) -> None:
    async def drive(player: Player) -> None:
        while min(p.finished for p in players) < hands:
            try:
                message = await player.client.recv(timeout=0.5)
            except TimeoutError:
                continue
            await player.step(message)

    async def watch() -> None:
        while True:
            await spectator.recv(timeout=60)

    async def poll() -> None:
        """The table's REST view, read all along (it shows commitments, never a seed)."""
        table = players[0].table
        async with httpx.AsyncClient(base_url=spectator.base, timeout=10) as http:
            while polled is not None:
                polled.append((await http.get(f"/api/tables/{table}")).text)
                await asyncio.sleep(0.05)

    watching = asyncio.create_task(watch())
    polling = asyncio.create_task(poll())
    await asyncio.wait_for(asyncio.gather(*(drive(p) for p in players)), 300)
    last = max(p.client.last_event(p.table) for p in players)
    await wait.until(
        lambda: spectator.last_event(players[0].table) >= last, "the spectator saw every event"
    )
    watching.cancel()
    polling.cancel()


def events(client: Client) -> list[tuple[int, dict[str, Any]]]:
    """(frame index, event) of every event frame the client got."""
    return [(i, m["event"]) for i, m in enumerate(client.messages) if m["type"] == "event"]


def test_every_hand_is_committed_seeded_and_verifiable(server: ServerProcess) -> None:
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    spectator = Client.guest(server.base)
    table = make_table(server, alice)
    players = [Player(alice, table), Player(bob, table)]
    polled: list[str] = []

    async def run() -> None:
        for client in (alice, bob, spectator):
            await client.connect()
        await spectator.send({"type": "watch", "table": table})
        for client in (alice, bob):
            await client.send({"type": "sit", "table": table, "buy_in": 300, "id": "sit"})
            assert (await client.until(lambda m: m.get("id") == "sit"))["type"] == "ok"
        # Refused seeds change nothing and say why.
        await spectator.send({"type": "seed", "table": table, "commitment": "a" * 64,
                              "seed": "ab", "id": "s"})  # fmt: skip
        refused = await spectator.until(lambda m: m.get("id") == "s")
        assert refused["type"] == "error" and refused["code"] == "not_seated"
        await alice.send({"type": "seed", "table": table, "commitment": "a" * 64,
                          "seed": "NOT HEX", "id": "x"})  # fmt: skip
        bad = await alice.until(lambda m: m.get("id") == "x")
        assert bad["code"] == "bad_message" and "hex digits" in bad["message"]
        await run_players(players, spectator, HANDS, polled)
        for client in (alice, bob, spectator):
            await client.close()

    asyncio.run(run())
    finished = [e for _, e in events(spectator) if e["type"] == "hand_finished"]
    assert len(finished) >= HANDS
    shuffles = {e["number"]: e["summary"]["shuffle"] for e in finished}
    # Each seed the table took before the deal went into that hand, at the sender's place in
    # the dealing order, if the sender was dealt in (one that reached the table after the
    # deal, on a slow machine, was refused with seeds_closed and is in no hand).
    dealt = {e["number"]: [p["account_id"] for p in e["players"]]
             for _, e in events(spectator) if e["type"] == "new_hand"}  # fmt: skip
    used = 0
    for number, shuffle in shuffles.items():
        assert commitment_of(shuffle["server_seed"]) == shuffle["commitment"]
        accounts = dealt[number]
        assert len(shuffle["player_seeds"]) == len(accounts)
        for player in players:
            sent = player.sent.get(shuffle["commitment"])
            me = player.client.account["id"]  # type: ignore[index]
            if sent is None or shuffle["commitment"][:32] in player.late or me not in accounts:
                assert sent is None or sent not in shuffle["player_seeds"]
                continue
            assert shuffle["player_seeds"][accounts.index(me)] == sent, (number, me)
            used += 1
    assert used >= HANDS // 2, used
    assert len(polled) > 10 and any('"commitment"' in text for text in polled)
    every_seed = [
        s for sh in shuffles.values() for s in (sh["server_seed"], *sh["player_seeds"]) if s
    ]
    assert not [seed for seed in every_seed for text in polled if seed in text]
    for client in (alice, bob, spectator):
        check_frames(client, shuffles)
        errors = [m for m in client.messages if m["type"] == "error"]
        expected = [m for m in errors if m.get("id") in ("s", "x")]
        late = [m for m in errors if str(m.get("id", "")).startswith("seed:")]
        assert len(expected) + len(late) == len(errors), errors
    check_records(server, alice, finished)


def check_frames(client: Client, shuffles: dict[int, dict[str, Any]]) -> None:
    """Each hand's commitment is shown before it is dealt; no seed of it before it ends."""
    seen = events(client)
    ends = {e["number"]: i for i, e in seen if e["type"] == "hand_finished"}
    deals = {e["number"]: i for i, e in seen if e["type"] == "new_hand"}
    for number, shuffle in shuffles.items():
        if number not in ends:
            continue
        secrets_ = [shuffle["server_seed"], *(s for s in shuffle["player_seeds"] if s)]
        for index, text in enumerate(client.texts):
            if index >= ends[number]:
                break
            for secret in secrets_:
                assert secret not in text, (number, index, text[:200])
        assert shuffle["server_seed"] in client.texts[ends[number]]
        if number in deals:
            before = "".join(client.texts[: deals[number]])
            assert shuffle["commitment"] in before, number


def check_records(server: ServerProcess, player: Client, finished: list[dict[str, Any]]) -> None:
    cookies = {"stud_session": player.cookie or ""}
    for event in finished:
        hand = event["hand_id"]
        record = httpx.get(f"{server.base}/api/hands/{hand}", cookies=cookies, timeout=10).json()
        assert record["summary"]["shuffle"] == event["summary"]["shuffle"]
        phh = httpx.get(f"{server.base}/api/hands/{hand}/phh", cookies=cookies, timeout=10).text
        stars = httpx.get(f"{server.base}/api/hands/{hand}/pokerstars", timeout=10).text
        for copy in (read_phh(phh), read_pokerstars(stars).hands[0]):
            report = verify(copy)
            assert report.ok and report.checked > 0, report.problems
        replay = httpx.get(f"{server.base}/api/hands/{hand}/replay", timeout=10).json()
        assert replay["shuffle"] == event["summary"]["shuffle"]
        assert json.dumps(replay).count(event["summary"]["shuffle"]["server_seed"]) == 1


def test_hand_ids_in_shuffles_go_on_after_a_restart(
    tmp_path: Path,
    database_factory: Callable[[str], str],
    server_factory: Callable[..., ServerProcess],
) -> None:
    """A table's hand numbers (and so its shuffles' hand ids) never repeat across restarts."""

    async def one_hand(base: str, table: int) -> dict[str, Any]:
        spectator = Client(base)
        await spectator.connect()
        await spectator.send({"type": "watch", "table": table})
        event = await spectator.until(
            lambda m: m["type"] == "event" and m["event"]["type"] == "hand_finished"
        )
        await spectator.close()
        return dict(event["event"])

    url = database_factory("sqlite")
    first = server_factory(SERVER, url, tmp_path)
    owner = Client.guest(first.base)
    table = make_table(first, owner, seats=2, bots=2)
    before = asyncio.run(one_hand(first.base, table))
    first.stop()
    second = server_factory(SERVER, url, tmp_path)
    after = asyncio.run(one_hand(second.base, table))
    assert after["number"] > before["number"]
    ids = (before["summary"]["shuffle"]["hand"], after["summary"]["shuffle"]["hand"])
    assert ids == (f"{table}-{before['number']}", f"{table}-{after['number']}")
