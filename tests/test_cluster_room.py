"""One room on several real ``stud serve`` processes (PostgreSQL + Redis).

Every process serves the whole lobby and any table; each table is run by one
process only, even across a pause of its owner (SIGSTOP); when a process is
killed (-9) mid-hand, the others take its tables over, the hand is voided and
every chip is back, clients reconnect elsewhere and resume by event number;
one balance cannot be spent twice through two processes, nor failed logins
counted per process; each watcher, on whichever process, sees only its own
account's cards.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from typing import Any

import httpx
from sqlalchemy import select

from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.testing import wait
from stud.testing.cluster import (
    Cluster,
    runs,
    wait_until_run,
)
from stud.testing.server import (
    Client,
    ServerProcess,
    ServerSpec,
)
from test_trust_seats import Hands, Person, check_frames

ARGS = (
    "--turn-seconds", "30", "--time-bank", "5", "--pause", "0.05", "--grace", "30",
    "--bot-delay", "0.005", "0.02", "--no-default-tables", "--no-default-tournaments",
    "--seed", "17",
    "--login-failures", "20", "2", "--signups", "1000",
)  # fmt: skip
CLUSTER = ServerSpec(ARGS)


def open_table(server: ServerProcess, owner: Client, bots: int, **extra: Any) -> int:
    """A table opened through ``server`` (so that process runs it); its id."""
    body = {"name": f"t{random.randrange(10**6)}", "game": "stud", "ante": 1, "bring_in": 2,
            "small_bet": 4, "big_bet": 8, "seats": 4, "bots": bots, "min_buy_in": 20,
            "max_buy_in": 400, **extra}  # fmt: skip
    response = httpx.post(
        server.base + "/api/tables", json=body, cookies={"stud_session": owner.cookie or ""},
        timeout=30,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def ledger(db: Database) -> dict[str, Any]:
    """The ledger's total, chips by wallet kind, and every hand's status."""

    def read(conn: Any) -> dict[str, Any]:
        hands = conn.execute(select(s.hands.c.id, s.hands.c.table_id, s.hands.c.number,
                                    s.hands.c.status)).all()  # fmt: skip
        return {
            "total": db.store.ledger_total(conn),
            "holdings": db.store.holdings(conn),
            "hands": {int(h.id): (int(h.table_id), int(h.number), str(h.status)) for h in hands},
        }

    return db.read_sync(read)


def at_tables(base: str, client: Client) -> int:
    """An account's chips at tables (from the ledger)."""
    me = httpx.get(base + "/api/me", cookies={"stud_session": client.cookie or ""}, timeout=30)
    me.raise_for_status()
    return int(me.json()["at_tables"])


def totals(base: str, client: Client) -> int:
    """An account's chips: its balance and what it has at tables (from the ledger)."""
    me = httpx.get(base + "/api/me", cookies={"stud_session": client.cookie or ""}, timeout=30)
    me.raise_for_status()
    return int(me.json()["balance"]) + int(me.json()["at_tables"])


def test_one_room_every_table_from_every_process_each_sees_only_its_own_cards(
    cluster: Cluster,
) -> None:
    a, b = cluster.add(), cluster.add()
    owner_a, owner_b = Client.guest(a.base), Client.guest(b.base)
    table = open_table(a, owner_a, bots=1)
    other = open_table(b, owner_b, bots=2)
    assert table in runs(a) and table not in runs(b)
    assert other in runs(b) and other not in runs(a)
    # One lobby, the same from both processes; any table's spectator view from either.
    lobbies = [
        {t["id"] for t in httpx.get(p.base + "/api/tables", timeout=30).json()} for p in (a, b)
    ]
    assert lobbies[0] == lobbies[1] == {table, other}
    seen = httpx.get(f"{b.base}/api/tables/{table}", timeout=30).json()
    assert seen["id"] == table and "state" in seen

    # People at the table that A runs, connected to A and to B, moving between them;
    # spectators on both. Every down card each receives must be its own account's.
    rng = random.Random(17)
    servers = [a, b]
    people = [Person(Client.guest(servers[i % 2].base), table) for i in range(4)]
    spectators = [Person(Client(a.base), table), Person(Client(b.base), table)]

    async def move(person: Person, server: ServerProcess) -> None:
        reader = person.reader
        assert reader is not None
        reader.cancel()
        await person.client.close()
        await asyncio.wait([reader], timeout=30)
        account, cookie = person.client.account, person.client.cookie
        person.client = Client(server.base, cookie)
        person.client.account = account
        await person.connect()
        await person.send({"type": "watch", "since": person.last_n})

    async def run() -> None:
        try:
            for p in [*spectators, *people]:
                await p.connect()
                await p.send({"type": "watch", "since": 0})
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 150
            while len(Hands(spectators[1].frames).starts) < 16:
                assert loop.time() < deadline, "the table stopped dealing"
                await asyncio.sleep(rng.uniform(0.05, 0.2))
                person = rng.choice(people)
                roll = rng.random()
                if person.seat is not None and roll < 0.25:
                    await person.send({"type": "leave"})
                elif person.seat is None and roll < 0.7:
                    await person.send({"type": "sit", "buy_in": 100})
                    await asyncio.sleep(0.05)
                    since = max(0, spectators[0].last_n - rng.randint(10, 300))
                    await person.send({"type": "watch", "since": since})  # replay, own eyes
                elif roll < 0.85:
                    await move(person, rng.choice(servers))
            await asyncio.sleep(0.5)
        finally:
            for p in [*spectators, *people]:
                if p.reader is not None:
                    p.reader.cancel()
                await p.client.close()

    asyncio.run(run())
    # Who was dealt each hand, from every stream's public new_hand events: a person's socket
    # may still deliver the next hand after the spectators' have been closed.
    starts = {
        int(m["n"]): m
        for p in [*spectators, *people]
        for m in p.frames
        if m["type"] == "event" and m["event"]["type"] == "new_hand"
    }
    hands = Hands([starts[n] for n in sorted(starts)])
    assert len(hands.starts) >= 12
    for spectator in spectators:
        assert check_frames(spectator.frames, None, hands) == 0
    own = [check_frames(p.frames, p.id, hands) for p in people]
    assert sum(own) > 0, "the people were never dealt in"
    # A and B still each run only their own table.
    assert runs(a) == {table} and runs(b) == {other}

    # The lobby B serves (A's entry, through Redis: written when it changed) follows the
    # table as it plays.
    def hands_seen(server: ServerProcess) -> int:
        entries = httpx.get(server.base + "/api/tables", timeout=30).json()
        return int(next(t for t in entries if t["id"] == table)["hands"])

    played = hands_seen(a)
    assert played >= 12
    wait.wait_until(lambda: hands_seen(b) >= played, "B's lobby does not follow A's table", 30, 0.2)
    # The creator of B's table closes it through A: it leaves every process's lobby.
    cookie = {"stud_session": owner_b.cookie or ""}
    refused = httpx.delete(
        f"{a.base}/api/tables/{other}", cookies={"stud_session": owner_a.cookie or ""}, timeout=30
    )
    assert refused.status_code == 403
    closed = httpx.delete(f"{a.base}/api/tables/{other}", cookies=cookie, timeout=30)
    assert closed.status_code == 200, closed.text
    wait.wait_until(
        lambda: not any(
            other in {t["id"] for t in httpx.get(p.base + "/api/tables", timeout=30).json()}
            for p in (a, b)
        ),
        "the closed table stays in a lobby", 60, 0.1,
    )  # fmt: skip
    assert other not in runs(b)


class Watcher:
    """A seated person who does not act (so a hand waits on it), recording what it receives."""

    def __init__(self, client: Client, table: int) -> None:
        self.client = client
        self.table = table
        self.frames: list[dict[str, Any]] = []
        self.last_n = 0
        self.reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    async def connect(self, server: ServerProcess, since: int | None = None) -> None:
        account = self.client.account
        self.client = Client(server.base, self.client.cookie)
        self.client.account = account
        self.closed = asyncio.Event()
        await self.client.connect()
        self.reader = asyncio.create_task(self._read())
        watch: dict[str, Any] = {"type": "watch", "table": self.table}
        if since:
            watch["since"] = since
        await self.client.send(watch)

    async def _read(self) -> None:
        try:
            while True:
                message = await self.client.recv(timeout=300)
                self.frames.append(message)
                if message.get("table") == self.table and message["type"] in ("event", "state"):
                    self.last_n = max(self.last_n, int(message["n"]))
        except Exception:
            self.closed.set()

    def seat(self, after: int = 0) -> int | None:
        """Where the last state numbered above ``after`` seats this account."""
        states = [m for m in self.frames if m["type"] == "state" and m["table"] == self.table
                  and int(m["n"]) > after]  # fmt: skip
        return None if not states else states[-1]["state"]["you"]

    def my_turn(self) -> bool:
        """Whether the last state says the table waits on this account."""
        states = [m for m in self.frames if m["type"] == "state" and m["table"] == self.table]
        if not states:
            return False
        state = states[-1]["state"]
        return bool(state["turn"] and state["you"] is not None
                    and state["turn"]["seat"] == state["you"])  # fmt: skip

    async def stop(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        await self.client.close()


async def until(predicate: Any, timeout: float, what: str) -> None:
    """Poll ``predicate`` (the timeout only bounds a hang)."""
    await wait.until(predicate, what, timeout, 0.05)


def test_kill_9_mid_hand_the_others_take_over_void_it_and_clients_resume(
    cluster: Cluster,
) -> None:
    servers = [cluster.add() for _ in range(3)]
    db = Database(cluster.database_url)
    db.start()
    tables = {open_table(s, Client.guest(s.base), bots=2) for s in servers for _ in range(2)}

    async def one_round() -> None:
        live = cluster.live()
        await asyncio.to_thread(wait_until_run, live, set(tables), 60)
        held = {server: runs(server) & set(tables) for server in live}
        victim = max(live, key=lambda s: len(held[s]))
        survivors = [s for s in live if s is not victim]
        table = min(held[victim])
        # Two people at one of the victim's tables: one connected to the victim itself,
        # one to a survivor (its messages go through Redis).
        near = Watcher(Client.guest(victim.base), table)
        far = Watcher(Client.guest(survivors[0].base), table)
        await near.connect(victim)
        await far.connect(survivors[0])
        for person in (near, far):
            await person.client.send({"type": "sit", "table": table, "buy_in": 200})
        # Both seated first: the far person's sit travels through Redis and may be answered
        # after a hand dealt without it has come to the near person's turn (on a loaded
        # machine it was, and its seat was read before any state had seated it).
        await until(lambda: None not in (near.seat(), far.seat()), 60, "the people not seated")
        # Kill while the hand waits on one of them: no hand can end between reading the
        # chips and the kill.
        await until(lambda: near.my_turn() or far.my_turn(), 60, "no turn for the people")

        def at_tables_now(*people: Watcher) -> int:
            return sum(at_tables(survivors[0].base, p.client) for p in people)

        before = {p: totals(survivors[0].base, p.client) for p in (near, far)}
        at_table = {p: at_tables(survivors[0].base, p.client) for p in (near, far)}
        seats = {p: p.seat() for p in (near, far)}
        assert None not in seats.values()
        books = ledger(db)
        running = {h for h, (t, _, st) in books["hands"].items() if t == table and st == "running"}
        assert running, "no hand in progress at the victim's table"
        last_far = far.last_n
        killed = time.monotonic()
        victim.kill()
        # The survivors run every table again ...
        await asyncio.to_thread(wait_until_run, survivors, set(tables), 60)
        print(f"kill -9: every table run again {time.monotonic() - killed:.1f} s after, "
              f"{len(running)} hand(s) in progress voided")  # fmt: skip
        for t in tables:
            assert sum(1 for s in survivors if t in runs(s)) <= 1
        # ... the hand in progress is void, every chip back where it was when it began ...
        after = ledger(db)
        for hand in running:
            assert after["hands"][hand][2] == "void"
        assert after["total"] == 0 and after["holdings"]["pot"] == 0
        for person in (near, far):
            assert totals(survivors[0].base, person.client) == before[person]
            # ... and both are still seated, their stacks at the table as before the hand.
            assert at_tables(survivors[0].base, person.client) == at_table[person]
        # ... the person on a survivor hears from the new owner without doing anything, and
        # is still in its seat ...
        await until(lambda: far.last_n > last_far, 30, "the far person heard nothing new")
        await until(lambda: far.seat(last_far) is not None, 30, "no state from the new owner")
        assert far.seat(last_far) == seats[far]
        # ... and the one on the dead process reconnects elsewhere and resumes by number.
        await until(near.closed.is_set, 30, "the dead process's socket stayed open")
        last_near = near.last_n
        await near.connect(survivors[-1], since=last_near)
        await until(lambda: near.last_n > last_near, 30, "no resume after reconnecting")
        states = [m for m in near.frames if m["type"] == "state" and m["n"] > last_near]
        assert states, "the resumed client got no state"
        assert near.seat(last_near) == seats[near]
        # They leave (seats kept over a takeover would otherwise stay taken for the grace
        # period, and the next round's people find the table full).
        for person in (near, far):
            await person.client.send({"type": "leave", "table": table})
        await until(lambda: at_tables_now(near, far) == 0, 60, "the people did not leave")
        for person in (near, far):
            await person.stop()

    async def run() -> None:
        # Three processes, then two, then (one more started) two again: three kills.
        for _ in range(3):
            if len(cluster.live()) < 2:
                await asyncio.to_thread(cluster.add)
            await one_round()

    try:
        asyncio.run(run())
        books = ledger(db)
        assert books["total"] == 0
        numbers = [(t, n) for t, n, _ in books["hands"].values()]
        assert len(numbers) == len(set(numbers)), "two processes dealt the same hand"
    finally:
        db.close()


def test_a_paused_owner_never_runs_its_table_beside_the_new_one(cluster: Cluster) -> None:
    a, b = cluster.add(), cluster.add()
    table = open_table(a, Client.guest(a.base), bots=3)
    db = Database(cluster.database_url)
    db.start()
    try:
        wait.wait_until(lambda: len(ledger(db)["hands"]) >= 3, "no play", 60)
        assert a.proc is not None
        os.kill(a.proc.pid, signal.SIGSTOP)  # a network pause, as the owner sees it: nothing
        stopped = time.monotonic()
        try:
            wait_until_run([b], {table}, 60)
            print(f"SIGSTOP: the table run by the other process {time.monotonic() - stopped:.1f} "
                  "s after")  # fmt: skip
            hands_then = len(ledger(db)["hands"])
            wait.wait_until(lambda: len(ledger(db)["hands"]) >= hands_then + 3, "B does not deal")
        finally:
            os.kill(a.proc.pid, signal.SIGCONT)
        # A wakes up with a lapsed lease: from its first answer on, it runs nothing.
        for _ in range(30):
            held_a, held_b = runs(a), runs(b)
            assert table not in held_a and table in held_b
            time.sleep(0.05)
        books = ledger(db)
        numbers = [(t, n) for t, n, _ in books["hands"].values()]
        assert len(numbers) == len(set(numbers)), "both processes dealt the same hand"
        assert books["total"] == 0 and books["holdings"]["pot"] == 0
    finally:
        db.close()


def test_one_balance_and_one_login_throttle_for_the_whole_room(cluster: Cluster) -> None:
    a, b = cluster.add(), cluster.add()
    player = Client.guest(a.base)  # 10 000 chips to start with
    big = {"min_buy_in": 100, "max_buy_in": 10_000}
    one = open_table(a, Client.guest(a.base), bots=0, **big)
    two = open_table(b, Client.guest(b.base), bots=0, **big)
    start = totals(a.base, player)

    async def run() -> list[str]:
        here, there = Client(a.base, player.cookie), Client(b.base, player.cookie)
        await here.connect()
        await there.connect()
        outcomes: list[str] = []
        try:
            for attempt in range(6):
                # The same account, at both tables at once, each for most of its balance.
                await asyncio.gather(
                    here.send({"type": "sit", "table": one, "buy_in": 6000, "id": attempt}),
                    there.send({"type": "sit", "table": two, "buy_in": 6000, "id": attempt}),
                )

                def answer(message: dict[str, Any], n: int = attempt) -> bool:
                    return bool(message.get("id") == n)

                replies = await asyncio.gather(here.until(answer, 30), there.until(answer, 30))
                kinds = sorted(r["type"] if r["type"] == "ok" else r["code"] for r in replies)
                outcomes.append(",".join(kinds))
                assert totals(a.base, player) == start
                for client, table in ((here, one), (there, two)):
                    await client.send({"type": "leave", "table": table})
                await asyncio.sleep(0.3)
        finally:
            await here.close()
            await there.close()
        return outcomes

    outcomes = asyncio.run(run())
    assert set(outcomes) == {"insufficient_balance,ok"}, outcomes
    assert totals(a.base, player) == start

    # Failed logins count once for the room: two per name in a burst (ARGS), whichever
    # process they went to, so spreading guesses over the processes gains nothing.
    body = {"name": "victim", "password": "correct horse"}
    assert httpx.post(a.base + "/api/register", json=body, timeout=30).status_code == 200
    wrong = {"name": "victim", "password": "wrong guess"}
    assert httpx.post(a.base + "/api/login", json=wrong, timeout=30).status_code == 401
    assert httpx.post(b.base + "/api/login", json=wrong, timeout=30).status_code == 401
    for server in (a, b):
        refused = httpx.post(server.base + "/api/login", json=body, timeout=30)
        assert refused.status_code == 429, refused.text
        assert int(refused.headers["Retry-After"]) >= 1


def bot_accounts(db: Database) -> tuple[int, int]:
    """How many bot accounts the room has, and how many of them sit at a table now."""

    def read(conn: Any) -> tuple[int, int]:
        bots = {a.id for a in db.store.accounts_of_kind(conn, "bot")}
        seated = {a for (_, a), v in db.store.table_stacks(conn).items() if v > 0 and a in bots}
        return len(bots), len(seated)

    return db.read_sync(read)


def test_processes_that_die_or_restart_reuse_the_room_s_bots(cluster: Cluster) -> None:
    servers = [cluster.add(), cluster.add()]
    db = Database(cluster.database_url)
    db.start()
    try:
        tables = {open_table(s, Client.guest(s.base), bots=3) for s in servers for _ in range(2)}
        wanted = 3 * len(tables)

        def settled() -> int:
            """Every table run and its bots seated: the room's bot accounts then."""
            wait_until_run(cluster.live(), tables, 60)
            counts: tuple[int, int] = wait.wait_until(
                lambda: ((c := bot_accounts(db))[1] >= wanted and c) or None,
                lambda: f"bots seated: {bot_accounts(db)[1]} of {wanted}", 60, 0.1,
            )  # fmt: skip
            return counts[0]

        first = settled()
        # Four times a process dies (kill -9) and a new one joins: the tables it ran are
        # taken over and get bots again, from the room's idle ones.
        for _ in range(4):
            victim = max(cluster.live(), key=lambda s: len(runs(s) & tables))
            victim.kill()
            cluster.add()
            settled()
        # The whole room stopped and started again: the same bots sit down.
        for server in cluster.live():
            server.stop()
        cluster.add()
        total = settled()
        # At most one more table-load of bots than at first (a table taken over before the
        # dead process's bots counted as idle), not a new set per process and per takeover.
        assert total <= first + wanted, (first, total)
    finally:
        db.close()
