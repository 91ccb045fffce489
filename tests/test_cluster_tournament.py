"""Tournaments in a room of several real ``stud serve`` processes (PostgreSQL + Redis).

The room's default tournaments are opened once for the room, whichever process
starts first; people register through process B for the scheduled tournament
that process A runs (and unregister, money back, from A's Sit & Go, which no
clock starts), and watch it and its tables from B, each seeing only its own
down cards. A is killed (-9) in the middle of hands:
B takes the tournament over as a restarted single process would (the hands in
progress void, the clock where it stood, the prizes paid still paid, the ledger
at zero), the people's connections on B follow it without doing anything, and
it plays on to a winner whose prizes add up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.testing import wait
from stud.testing.cluster import Cluster, health
from stud.testing.server import Client, ServerProcess, ServerSpec
from test_server_tournament_crash import (
    BOTS,
    State,
    check_resumed,
    check_won,
    read_state,
    wait_until,
)

ARGS = (
    "--turn-seconds", "1", "--time-bank", "0.5", "--pause", "0.05", "--grace", "30",
    "--bot-delay", "0.002", "0.01", "--bots", "random", "--no-default-tables", "--seed", "5",
    "--tournament-levels", "4", "--mtt-every", "3600", "--mtt-lead", "30",
    "--mtt-bots", str(BOTS),
)  # fmt: skip


CLUSTER = ServerSpec(ARGS)


def tournaments_run_by(server: ServerProcess) -> set[int]:
    return set(health(server).get("tournaments", []))


def listing(server: ServerProcess) -> dict[int, dict[str, Any]]:
    rows = httpx.get(server.base + "/api/tournaments", timeout=30).json()["tournaments"]
    return {int(t["id"]): t for t in rows}


def post(server: ServerProcess, path: str, client: Client, method: str = "POST") -> httpx.Response:
    cookies = {"stud_session": client.cookie or ""}
    return httpx.request(method, server.base + path, cookies=cookies, timeout=30)


def defaults_open(db: Database) -> dict[str, int]:
    """How many copies of each default tournament take registrations."""

    def read(conn: Any) -> dict[str, int]:
        rows = conn.execute(
            select(s.tournaments.c.template, func.count())
            .where(s.tournaments.c.state == "registering", s.tournaments.c.template.is_not(None))
            .group_by(s.tournaments.c.template)
        ).all()
        return {str(t): int(n) for t, n in rows}

    return db.read_sync(read)


def open_copy(db: Database, template: str) -> int:
    """The copy of a default tournament taking registrations."""

    def read(conn: Any) -> int:
        return int(
            conn.execute(
                select(s.tournaments.c.id).where(
                    s.tournaments.c.state == "registering", s.tournaments.c.template == template
                )
            ).scalar_one()
        )

    return db.read_sync(read)


def balance(server: ServerProcess, client: Client) -> int:
    cookies = {"stud_session": client.cookie or ""}
    return int(httpx.get(server.base + "/api/me", cookies=cookies, timeout=30).json()["balance"])


def poll(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Until ``condition`` holds (the timeout only bounds a hang)."""
    wait.wait_until(condition, what, timeout, 0.1)


class Follower:
    """A person (or spectator) on one process: watches the tournament, then each table it is
    seated at (``tournament_seat``), recording every message."""

    def __init__(self, client: Client, tournament: int, table: str | None = None) -> None:
        self.client = client
        self.tournament = tournament
        self.table = table
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.client.connect()
        await self.client.send({"type": "watch_tournament", "tournament": self.tournament})
        if self.table is not None:
            await self.client.send({"type": "watch", "table": self.table})
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while True:
            message = await self.client.recv(timeout=600)
            if message["type"] == "tournament_seat":
                await self.client.send({"type": "watch", "table": message["table"]})

    def states_after(self, moment: float) -> int:
        """Table states received from the owner that took over (numbered above the first's)."""
        return sum(
            1 for m in self.client.messages if m["type"] == "state" and int(m["n"]) >= moment
        )

    async def stop(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        await self.client.close()


def own_down_cards_only(messages: list[dict[str, Any]]) -> int:
    """Every face-up down card a client received at a tournament table is its own seat's
    (``you`` in that table's last state) or was shown; how many of its own it saw."""
    you: dict[str, int | None] = {}
    shown: dict[str, set[int]] = {}
    own = 0
    for message in messages:
        key = str(message.get("table"))
        if message["type"] == "state":
            you[key] = message["state"].get("you")
            hand = message["state"]["hand"]
            for row in [] if hand is None else hand["seats"]:
                if row["shown"] or all(card is None for card in row["down"]):
                    continue
                assert row["seat"] == you[key], f"seat {you[key]} sees seat {row['seat']}: {row}"
                own += 1
        elif message["type"] == "event":
            event = message["event"]
            if event["type"] == "new_hand":
                shown[key] = set()
            elif event["type"] == "show":
                shown.setdefault(key, set()).add(int(event["seat"]))
            elif event["type"] == "dealt" and any(c is not None for c in event["down"]):
                seat = int(event["seat"])
                assert seat == you.get(key) or seat in shown.get(key, set()), message
                own += 1
    return own


@pytest.mark.slow
def test_a_tournament_run_by_a_killed_process_is_taken_over_and_played_to_a_winner(
    cluster: Cluster,
) -> None:
    # Started side by side: the MTT's registration closes on a clock (``--mtt-lead`` and its
    # late levels) that starts when the first opens it, so the second's start-up (long on a
    # loaded machine) is not spent from it.
    first, second = cluster.add_together(2)
    db = Database(cluster.database_url)
    db.start()
    try:
        run(cluster, db, first, second)
    finally:
        db.close()


def run(cluster: Cluster, db: Database, first: ServerProcess, second: ServerProcess) -> None:
    # The defaults, once for the room: one copy of each taking registrations, both lobbies
    # the same, all run by A (the process that opened them) and none by B.
    one_each = dict.fromkeys({"sng-stud", "sng-stud8", "sng-razz", "mtt-stud"}, 1)
    poll(lambda: defaults_open(db) == one_each, "one copy of each default")
    poll(lambda: set(listing(first)) == set(listing(second)), "the same list from both processes")
    open_ = ("registering", "late_registration")
    rows = listing(second).items()
    mtt = min(t for t, row in rows if row["kind"] == "mtt" and row["state"] in open_)
    a, b = (first, second) if mtt in tournaments_run_by(first) else (second, first)
    assert mtt in tournaments_run_by(a) and mtt not in tournaments_run_by(b)

    # Three people register through B; a second registration is refused.
    people = [Client.guest(b.base) for _ in range(3)]
    for person in people:
        response = post(b, f"/api/tournaments/{mtt}/register", person)
        assert response.status_code == 200, response.text
        assert response.json()["me"]["registered"] is True
    again = post(b, f"/api/tournaments/{mtt}/register", people[0])
    assert again.status_code == 409 and again.json()["code"] == "already_registered", again.text
    # Unregistering through B from a tournament A runs gives the money back, and registering
    # again takes it again. On A's Sit & Go, which waits for its seats to fill: the MTT starts
    # on a clock (``--mtt-lead``) that a slow machine can pass before this line, and then
    # refuses, rightly, with ``already_started`` (no refunds once it runs).
    sng = open_copy(db, "sng-stud")
    assert sng in tournaments_run_by(a) and sng not in tournaments_run_by(b)
    leaver = people[1]
    before = balance(b, leaver)
    for _ in range(2):  # taken, given back; taken again, given back again
        joined = post(b, f"/api/tournaments/{sng}/register", leaver)
        assert joined.status_code == 200 and joined.json()["me"]["registered"], joined.text
        assert balance(b, leaver) < before
        gone = post(b, f"/api/tournaments/{sng}/register", leaver, method="DELETE")
        assert gone.status_code == 200 and not gone.json()["me"]["registered"], gone.text
        assert balance(b, leaver) == before
    page = httpx.get(f"{a.base}/api/tournaments/{mtt}", timeout=30).json()
    assert len(page["entrants"]) == BOTS + 3  # the owner has them all

    async def play() -> State:
        followers = [Follower(Client(b.base, p.cookie), mtt) for p in people]
        spectator = Follower(Client(b.base), mtt, table=f"t{mtt}.1")
        for follower in followers:
            await follower.start()
        try:
            # Killed in the middle of hands, once at least one hand has finished.
            await asyncio.to_thread(
                wait_until, db, mtt,
                lambda st: "finished" in st["hands"].values(),
                "dealing",
            )  # fmt: skip
            await spectator.start()  # a table of A's, watched from B
            await asyncio.to_thread(
                wait_until, db, mtt, lambda st: "running" in st["hands"].values(), "dealing"
            )
            a.kill()
            killed = time.monotonic()
            before = read_state(db, mtt)  # what the crash left
            # B takes it over: the hands A left running are void, nothing else lost.
            after = await asyncio.to_thread(
                wait_until, db, mtt,
                lambda st: all(st["hands"][h] == "void" for h, status in
                               before["hands"].items() if status == "running")
                and float(st["snapshot"]["taken_at"]) > float(before["snapshot"]["taken_at"]),
                "taken over",
            )  # fmt: skip
            assert mtt in tournaments_run_by(b)
            # Too late for a refund: refused with a code that says so, nothing changed.
            kept = await asyncio.to_thread(balance, b, people[0])
            late = await asyncio.to_thread(
                post, b, f"/api/tournaments/{mtt}/register", people[0], "DELETE"
            )
            assert late.status_code == 409 and late.json()["code"] == "already_started", late.text
            assert await asyncio.to_thread(balance, b, people[0]) == kept
            check_resumed(before, after, time.monotonic() - killed)
            # The people on B hear from the new owner without watching again.
            token_floor = 10**9 * 2

            async def heard() -> None:
                while not all(f.states_after(token_floor) for f in followers):
                    await asyncio.sleep(0.1)

            await asyncio.wait_for(heard(), 120)
            # It plays on, on B, to a winner.
            final = await asyncio.to_thread(
                wait_until, db, mtt, lambda st: st["snapshot"]["state"] == "finished", "won", 400
            )
        finally:
            for follower in [*followers, spectator]:
                await follower.stop()
        # Nobody saw a down card but their own; the people were dealt theirs.
        assert sum(own_down_cards_only(f.client.messages) for f in followers) > 0
        assert own_down_cards_only(spectator.client.messages) == 0
        return final

    check_won(db, asyncio.run(play()), people)
    # The finished tournament shows on B, and the next copy of the schedule is open.
    shown = listing(b)
    assert shown[mtt]["state"] == "finished"
    assert defaults_open(db).get("mtt-stud") == 1


@pytest.mark.slow
def test_a_sit_and_go_opened_on_one_process_is_joined_and_filled_from_another(
    cluster: Cluster,
) -> None:
    a, b = cluster.add(), cluster.add()
    db = Database(cluster.database_url)
    db.start()
    try:
        creator, other = Client.guest(b.base), Client.guest(a.base)
        body = {"game": "razz", "seats": 3, "buy_in": 50, "fee": 5, "level_seconds": 10}
        cookies = {"stud_session": creator.cookie or ""}
        opened = []
        for _ in range(2):  # two waiting to start per account, counted over the whole room
            made = httpx.post(b.base + "/api/tournaments", json=body, cookies=cookies, timeout=30)
            assert made.status_code == 201, made.text
            opened.append(int(made.json()["id"]))
        third = httpx.post(a.base + "/api/tournaments", json=body, cookies=cookies, timeout=30)
        assert third.status_code == 403 and third.json()["code"] == "tournament_limit"
        sng = opened[0]
        poll(lambda: sng in listing(a), "A lists B's Sit & Go")
        assert sng in tournaments_run_by(b) and sng not in tournaments_run_by(a)
        # Both register through A (the creator's buy-in travels to B); the creator asks A for
        # bots in the last seat: it starts, and plays to a winner.
        for person in (creator, other):
            joined = post(a, f"/api/tournaments/{sng}/register", person)
            assert joined.status_code == 200, joined.text
        filled = post(a, f"/api/tournaments/{sng}/fill", creator)
        assert filled.status_code == 200, filled.text
        final = wait_until(db, sng, lambda st: st["snapshot"]["state"] == "finished", "won", 400)
        assert final["total"] == 0 and final["pool"] == 0
        assert sum(final["prizes"].values()) == 50 * 3
        # A shows the finished tournament too once it reads it back from PostgreSQL (the
        # runner on B stops listing it in Redis as it finishes): eventually, not at once.
        poll(
            lambda: (
                httpx.get(f"{a.base}/api/tournaments/{sng}", timeout=30).json().get("state")
                == "finished"
            ),
            "A shows the finished Sit & Go",
        )
    finally:
        db.close()
