"""Planned handover in a shared room (issue 34): a rolling restart voids no hand, and a room
spreads its tables over the processes it has.

SIGTERM makes a process deal no new hand, let those in progress finish, hand
each table over at its hand boundary and exit; its clients, disconnected first,
reconnect to another process and resume by event number. A process that joins
gets its share of the tables, each moved between hands.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter

import pytest

from stud.server.storage import Database
from stud.testing import wait
from stud.testing.cluster import Cluster, runs, wait_until_run
from stud.testing.server import Client, ServerProcess, ServerSpec
from test_cluster_room import ARGS, ledger, open_table, until
from test_trust_seats import Person

CLUSTER = ServerSpec((*ARGS, "--drain-seconds", "40"), env={"STUD_LEASE_SECONDS": "10"})
"""A long lease: a process starved of CPU (a loaded machine) keeps its tables, so what is
measured is the planned moves alone (a lapsed lease voids its hand, by design)."""


def terminate(server: ServerProcess) -> None:
    """SIGTERM, and wait for the process to drain and exit (the drain's bound, and more)."""
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=90)


def voided(db: Database) -> int:
    return sum(1 for *_, status in ledger(db)["hands"].values() if status == "void")


class Player(Person):
    """A person who plays its turns (check or call) and, when its process goes away, connects
    to another and resumes by event number: how long it heard nothing is recorded."""

    def __init__(self, client: Client, table: int) -> None:
        super().__init__(client, table)
        self.pauses: list[float] = []

    def dealt_since(self, n: int) -> int:
        """Hands dealt at its table (with it or not) numbered after ``n``."""
        return sum(1 for m in self.frames if m["type"] == "event" and int(m["n"]) > n
                   and m["event"]["type"] == "new_hand")  # fmt: skip

    async def move_to(self, server: ServerProcess) -> None:
        """Its socket was closed by a draining process: another one, resumed from last_n."""
        closed_at = time.monotonic()
        self.acted.clear()  # an act sent as the socket closed may be lost: its turn is asked again
        account, cookie = self.client.account, self.client.cookie
        self.client = Client(server.base, cookie)
        self.client.account = account
        last = self.last_n
        await self.connect()
        await self.send({"type": "watch", "since": last})
        await until(lambda: self.last_n > last, 30, "no resume after moving")
        self.pauses.append(time.monotonic() - closed_at)


@pytest.mark.slow
def test_a_rolling_restart_voids_no_hand_and_clients_follow(cluster: Cluster) -> None:
    servers = cluster.add_together(3)
    db = Database(cluster.database_url)
    db.start()
    tables = {open_table(s, Client.guest(s.base), bots=2) for s in servers for _ in range(2)}
    played: list[int] = []
    handover: list[float] = []

    async def run() -> None:
        await asyncio.to_thread(wait_until_run, servers, tables, 60)
        # Two people at two tables, each connected to a process that does not run it.
        people = []
        for table in sorted(tables)[:2]:
            home = next(s for s in servers if table not in runs(s))
            person = Player(Client.guest(home.base), table)
            await person.connect()
            await person.send({"type": "watch", "since": 0})
            await person.send({"type": "sit", "buy_in": 200})
            people.append(person)
        await until(lambda: all(p.seat is not None for p in people), 60, "not seated")
        try:
            for old in list(servers):
                hands_before = len(ledger(db)["hands"])
                moving = [p for p in people if p.client.base == old.base]
                marks = {p: p.last_n for p in people}
                started = time.monotonic()
                stopping = asyncio.create_task(asyncio.to_thread(terminate, old))
                others = [s for s in cluster.live() if s is not old]
                # Its clients are disconnected at once and connect to another process (as
                # the web client does, in a few hundred ms): its hands wait on them.
                for person in moving:
                    await until(lambda p=person: p.reader is not None and p.reader.done(), 30,
                                "the drained process's socket stayed open")  # fmt: skip
                    await person.move_to(others[0])
                await stopping
                # It exited by itself (uvicorn raises SIGTERM again once it is done), not
                # killed for taking too long.
                assert old.proc is not None, old.log()
                assert old.proc.returncode in (0, -signal.SIGTERM), old.log()
                live = cluster.live()
                await asyncio.to_thread(wait_until_run, live, tables, 60)
                handover.append(time.monotonic() - started)
                # Every person is dealt on, wherever its table runs now.
                for person in people:
                    mark = marks[person]
                    await until(lambda p=person, m=mark: p.dealt_since(m) >= 2, 60,
                                "a person's table deals no more after the handover")  # fmt: skip
                assert voided(db) == 0, "a hand was voided by a planned stop"
                played.append(len(ledger(db)["hands"]) - hands_before)
                await asyncio.to_thread(cluster.add)
        finally:
            for person in people:
                if person.reader is not None:
                    person.reader.cancel()
                await person.client.close()
        pauses = [round(x, 2) for p in people for x in p.pauses]
        print(f"rolling restart of 3 processes: {voided(db)} hands voided, hands per step "
              f"{played}, tables all run again after {[round(h, 1) for h in handover]} s, "
              f"clients moved with pauses of {pauses} s")  # fmt: skip

    try:
        asyncio.run(run())
        live = cluster.live()
        wait_until_run(live, tables, 60)
        owners = Counter(t for s in live for t in runs(s) & tables)
        assert set(owners.values()) == {1}, "a table with two owners"
        books = ledger(db)
        assert books["total"] == 0
        assert voided(db) == 0
        numbers = [(t, n) for t, n, _ in books["hands"].values()]
        assert len(numbers) == len(set(numbers)), "two processes dealt the same hand"
    finally:
        db.close()


def test_a_process_that_joins_takes_its_share_between_hands(cluster: Cluster) -> None:
    first = cluster.add()
    db = Database(cluster.database_url)
    db.start()
    try:
        tables = {open_table(first, Client.guest(first.base), bots=2) for _ in range(8)}
        wait_until_run([first], tables, 60)
        second = cluster.add()

        def shares() -> tuple[int, int]:
            return len(runs(first) & tables), len(runs(second) & tables)

        def fair() -> bool:
            mine, theirs = shares()
            return mine + theirs == len(tables) and min(mine, theirs) >= 3

        wait.wait_until(fair, lambda: f"no fair share: {shares()}", 60, 0.2)
        assert voided(db) == 0, "a table moved in the middle of a hand"
        # The one that leaves hands its share back, between hands too.
        terminate(second)
        wait_until_run([first], tables, 60)
        assert voided(db) == 0 and ledger(db)["total"] == 0
    finally:
        db.close()
