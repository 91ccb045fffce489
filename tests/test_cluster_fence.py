"""The shared room's guarantees one by one: leases in Redis, fencing and buy-ins in PostgreSQL.

The processes-level tests (kill -9, SIGSTOP, two clients racing) are in
test_cluster_room.py; these pin each mechanism directly, without timing luck.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest
import redis.asyncio as aioredis
from sqlalchemy import Connection, select

from stud.server.cluster.lease import LeaseBook, Leases, LeaseTimes
from stud.server.storage import Database, LedgerError, TableSpec, fences
from stud.server.storage import schema as s

SPEC = TableSpec(
    name="t", game="stud", ante=1, bring_in=2, small_bet=5, big_bet=10, seats=6, bots=0,
    min_buy_in=50, max_buy_in=5000,
)  # fmt: skip


def open_db(url: str, tokens: dict[int, int] | None = None) -> Database:
    """A database as one process of the room opens it (its own fence when ``tokens`` is set)."""
    db = Database(url)
    db.start()
    if tokens is not None:
        db.store.fence = fences.TokenFence(tokens)
    return db


def claimed_table(db: Database, tokens: dict[int, int], node: str = "a") -> int:
    """A new table, taken by ``db``'s process with token 1 (noted in its ``tokens``)."""
    store = db.store
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None)).id
    tokens[table] = 1
    db.write_sync(lambda c: fences.claim(c, store, table, 1, node, time.time()))
    return table


def test_a_newer_lease_fences_the_old_owner_out(pg_url: str) -> None:
    tokens_a: dict[int, int] = {}
    tokens_b: dict[int, int] = {}
    a, b = open_db(pg_url, tokens_a), open_db(pg_url, tokens_b)
    try:
        store = a.store
        table = a.write_sync(lambda c: store.create_table(c, SPEC, None)).id
        player = a.write_sync(lambda c: store.create_account(c, "pat", "user"))
        a.write_sync(lambda c: store.grant(c, player.id, 1000))
        tokens_a[table] = 1
        a.write_sync(lambda c: fences.claim(c, store, table, 1, "a", time.time()))
        a.write_sync(lambda c: store.buy_in(c, player.id, table, 400))
        bot = a.write_sync(lambda c: store.create_account(c, "Bot 1", "bot"))
        a.write_sync(lambda c: store.grant(c, bot.id, 1000))
        a.write_sync(lambda c: store.buy_in(c, bot.id, table, 300))
        hand = a.write_sync(
            lambda c: store.start_hand(c, table, 1, "stud", [{"seat": 0, "account_id": player.id}])
        )
        # A pauses; B takes the table with a newer token: the hand is voided; the person's
        # stack stays at the table, to be seated again in the seat of the last hand (the
        # bot's goes back to its balance: the new owner brings its own bots).
        tokens_b[table] = 2
        recovered = b.write_sync(lambda c: fences.claim(c, b.store, table, 2, "b", time.time()))
        assert recovered["voided"] == 1 and recovered["cashed_out"] == 300
        assert recovered["kept"] == 400
        assert recovered["seated"] == [
            {"account_id": player.id, "name": "pat", "stack": 400, "seat": 0}
        ]
        # A wakes up: none of its writes for the table goes through any more.
        writes = [
            lambda c: store.buy_in(c, player.id, table, 100),
            lambda c: store.cash_out(c, player.id, table, 0),
            lambda c: store.start_hand(c, table, 2, "stud", []),
            lambda c: store.commit_chips(c, table, hand, {player.id: 5}),
            lambda c: store.close_table(c, table),
        ]
        for write in writes:
            with pytest.raises(fences.Fenced):
                a.write_sync(write)
        # B's do, and the books still balance.
        b.write_sync(lambda c: b.store.buy_in(c, player.id, table, 100))
        assert b.read_sync(store.ledger_total) == 0
        assert b.read_sync(lambda c: store.balance(c, player.id)) == 500
        assert b.read_sync(lambda c: store.balance(c, bot.id)) == 1000
        assert b.read_sync(lambda c: store.wallet(c, player.id, "table", table)) == 500
    finally:
        a.close()
        b.close()


def test_an_older_token_cannot_take_a_table_back_nor_a_closed_one_be_taken(pg_url: str) -> None:
    tokens: dict[int, int] = {}
    db = open_db(pg_url, tokens)
    try:
        store = db.store
        table = db.write_sync(lambda c: store.create_table(c, SPEC, None)).id
        tokens[table] = 5
        db.write_sync(lambda c: fences.claim(c, store, table, 5, "a", time.time()))
        for stale in (5, 4):

            def reclaim(conn: Connection, token: int = stale) -> None:
                fences.claim(conn, store, table, token, "b", time.time())

            with pytest.raises(fences.Fenced):
                db.write_sync(reclaim)
        assert db.read_sync(lambda c: fences.stored_token(c, table)) == 5
        db.write_sync(lambda c: store.close_table(c, table))
        with pytest.raises(fences.TableGone):
            db.write_sync(lambda c: fences.claim(c, store, table, 6, "b", time.time()))
    finally:
        db.close()


def test_two_buy_ins_at_once_cannot_spend_one_balance_twice(pg_url: str) -> None:
    """Two processes' transactions: the second waits for the first's lock, then sees its debit."""
    a, b = open_db(pg_url), open_db(pg_url)
    try:
        store = a.store
        one = a.write_sync(lambda c: store.create_table(c, SPEC, None)).id
        two = a.write_sync(lambda c: store.create_table(c, SPEC, None)).id
        player = a.write_sync(lambda c: store.create_account(c, "pat", "user"))
        a.write_sync(lambda c: store.grant(c, player.id, 1000))
        first_in = threading.Event()
        outcome: dict[str, object] = {}

        def second() -> None:
            first_in.wait(10)
            try:
                b.write_sync(lambda c: b.store.buy_in(c, player.id, two, 700))
                outcome["second"] = "bought in"
            except LedgerError as error:
                outcome["second"] = error

        thread = threading.Thread(target=second)
        thread.start()

        def first(conn: Connection) -> None:
            store.buy_in(conn, player.id, one, 700)
            first_in.set()
            time.sleep(0.5)  # the second buy-in runs now, and must wait for this transaction

        a.write_sync(first)
        thread.join(20)
        assert isinstance(outcome["second"], LedgerError), outcome
        assert a.read_sync(lambda c: store.balance(c, player.id)) == 300
        assert a.read_sync(store.ledger_total) == 0
    finally:
        a.close()
        b.close()


def test_one_fence_statement_per_transaction_however_many_tables_it_writes_for(
    pg_url: str,
) -> None:
    """The writer joins several tables' writes into one transaction: their tokens are checked
    together, just before it commits, in one statement; one stale token refuses it all."""
    from sqlalchemy import event

    tokens: dict[int, int] = {}
    db, other = open_db(pg_url, tokens), open_db(pg_url, {})
    try:
        store = db.store
        tables = [claimed_table(db, tokens) for _ in "abc"]
        statements: list[str] = []

        def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
            statements.append(statement)

        event.listen(db.write_engine, "before_cursor_execute", count)

        def deal(conn: Connection, number: int) -> None:
            for table in tables:
                store.start_hand(conn, table, number, "stud", [])

        db.write_sync(lambda c: deal(c, 1))
        fenced = [q for q in statements if "table_leases" in q]
        assert len(fenced) == 1 and "FOR UPDATE NOWAIT" in fenced[0]
        assert len(statements) == 1 + len(tables)  # each table's hand, and the fence
        # The last table was taken by another process meanwhile: nothing of the
        # transaction is written, the other tables' hands neither.
        other.write_sync(lambda c: fences.claim(c, other.store, tables[-1], 2, "b", time.time()))
        with pytest.raises(fences.Fenced):
            db.write_sync(lambda c: deal(c, 2))
        hands = db.read_sync(lambda c: c.execute(select(s.hands.c.number)).scalars().all())
        assert sorted(hands) == [1, 1, 1]

        # Written under two tokens in one transaction (the table was lost and taken again
        # meanwhile): refused, whichever is stored.
        def relet(conn: Connection) -> None:
            store.start_hand(conn, tables[0], 3, "stud", [])
            tokens[tables[0]] = 2
            store.start_hand(conn, tables[0], 4, "stud", [])

        with pytest.raises(fences.Fenced):
            db.write_sync(relet)
        assert db.read_sync(lambda c: fences.stored_token(c, tables[0])) == 1
    finally:
        db.close()
        other.close()


def test_a_write_is_refused_at_once_while_another_process_takes_its_table(pg_url: str) -> None:
    """The fence's row lock is held by another process only while it takes the table over:
    the owner's write is refused without waiting for it (no two transactions wait on each
    other's rows), and goes through once the takeover gave up."""
    tokens: dict[int, int] = {}
    a, b = open_db(pg_url, tokens), open_db(pg_url)
    try:
        store = a.store
        table = claimed_table(a, tokens)
        locked, done = threading.Event(), threading.Event()

        def taking_over() -> None:
            with b.write_engine.begin() as conn:  # a takeover holds the row, then gives up
                fences.check(conn, table, 1)  # the lock a takeover takes to store its token
                locked.set()
                done.wait(60)
                conn.rollback()

        thread = threading.Thread(target=taking_over)
        thread.start()
        try:
            assert locked.wait(30)
            with pytest.raises(fences.Fenced, match="taken over"):
                a.write_sync(lambda c: store.start_hand(c, table, 1, "stud", []))
        finally:
            done.set()
            thread.join(30)
        a.write_sync(lambda c: store.start_hand(c, table, 1, "stud", []))
        hands = a.read_sync(lambda c: c.execute(select(s.hands.c.number)).scalars().all())
        assert hands == [1]
    finally:
        a.close()
        b.close()


def test_leases_are_exclusive_lapse_and_carry_growing_tokens(redis_url: str) -> None:
    # Long enough that a loaded machine cannot lapse the lease between two of its steps.
    times = LeaseTimes(ttl=1.5, renew=0.1, scan=0.1, margin=0.2)

    async def run() -> None:
        client = aioredis.from_url(redis_url)
        prefix = f"stud:test{os.getpid()}{time.monotonic_ns()}:"
        a = Leases(client, LeaseBook("a", times), prefix)
        b = Leases(client, LeaseBook("b", times), prefix)
        try:
            first = await a.acquire(7)
            assert first is not None and a.book.holds(7)
            assert await b.acquire(7) is None  # held: nobody else gets it
            assert await a.renew() == []
            assert (await b.owners([7]))[7] == ("a", first)
            # A stops renewing (paused): its own clock stops trusting the lease first ...
            await asyncio.sleep(times.ttl - times.margin + 0.02)
            assert not a.book.holds(7)
            await asyncio.sleep(times.margin + 0.05)
            # ... then the lease lapses and B takes it with a newer token.
            second = await b.acquire(7, floor=0)
            assert second is not None and second > first
            assert await a.renew() == [7]  # A learns it lost the table
            assert 7 not in a.book.tokens
            await a.release(7)  # giving up what is not ours changes nothing
            assert (await a.owners([7]))[7] == ("b", second)
            # A floor from PostgreSQL (Redis lost its counters) puts the next token above it.
            await b.release(7)
            assert (await a.owners([7]))[7] is None
            third = await a.acquire(7, floor=100)
            assert third == 101
        finally:
            await client.delete(*[k async for k in client.scan_iter(match=prefix + "*")])
            await client.aclose()

    asyncio.run(run())


def test_the_live_processes_are_those_whose_heartbeat_stands(redis_url: str) -> None:
    """Read in one step from the set of names; a name whose key lapsed leaves the set, and
    comes back with its process's next beat."""
    from stud.server.cluster.nodes import Nodes

    async def run() -> None:
        client = aioredis.from_url(redis_url)
        prefix = f"test:{os.getpid()}:{time.monotonic_ns()}:"
        a, b, c = (Nodes(client, prefix, name, 60.0) for name in "abc")
        try:
            await a.beat(3)
            await b.beat(5)
            await c.beat(0)
            assert await a.live(4) == {"a": 4, "b": 5, "c": 0}
            await client.delete(b.key("b"))  # b's heartbeat lapsed (it died)
            await c.leave()  # c stopped cleanly
            assert await a.live(4) == {"a": 4}
            assert await client.smembers(a.members) == {b"a"}
            await b.beat(2)  # b was only paused: it is back
            assert await c.live(0) == {"a": 3, "b": 2, "c": 0}
            # A process of an earlier version beats without joining the set: live for one
            # that names it (it has watchers from it), while its heartbeat stands.
            await client.set(a.key("old"), b'{"tables": 7}')
            assert await a.live(4) == {"a": 4, "b": 2}
            assert await a.live(4, ["old", "gone", "a"]) == {"a": 4, "b": 2, "old": 7}
        finally:
            await client.delete(*[k async for k in client.scan_iter(match=prefix + "*")])
            await client.aclose()

    asyncio.run(run())


def test_a_tournament_and_its_tables_are_fenced_by_the_tournament_s_token(pg_url: str) -> None:
    from dataclasses import replace

    from stud.server.storage import tourneys
    from stud.tournament import Tournament, TournamentSettings
    from stud.tournament.snapshot import snapshot

    tournaments_a: dict[int, int] = {}
    tournaments_b: dict[int, int] = {}
    a, b = open_db(pg_url), open_db(pg_url)
    a.store.fence = fences.TokenFence({}, tournaments_a)
    b.store.fence = fences.TokenFence({}, tournaments_b)
    try:
        proto = TournamentSettings(id=0, name="sng", game="razz", table_seats=2)

        def first(tournament_id: int) -> dict[str, object]:
            return snapshot(Tournament(replace(proto, id=tournament_id)), time.time())

        tid, _ = a.write_sync(
            lambda c: tourneys.create(
                c, "sng", "razz", "sng", first, template=None, created_by=None
            )
        )
        stakes = {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}
        row = a.write_sync(lambda c: tourneys.table_row(c, tid, f"{tid} 1", "razz", stakes, 2))
        # A takes it and deals at its table (the hand's row is fenced by the tournament).
        tournaments_a[tid] = 1
        assert a.write_sync(lambda c: fences.claim_tournament(c, tid, 1, "a", time.time()))
        hand = a.write_sync(lambda c: a.store.start_hand(c, row, 1, "razz", []))
        # A pauses; B takes it with a newer token: the hand A left running is void.
        tournaments_b[tid] = 2
        stored = b.write_sync(lambda c: fences.claim_tournament(c, tid, 2, "b", time.time()))
        assert stored is not None and stored["id"] == tid and stored["snapshot"]["state"]
        status = b.read_sync(
            lambda c: c.execute(select(s.hands.c.status).where(s.hands.c.id == hand)).scalar()
        )
        assert status == "void"
        # A wakes up: neither its tournament's writes nor its tables' go through.
        with pytest.raises(fences.Fenced):
            a.write_sync(lambda c: fences.check_tournament(c, tid, 1))
        with pytest.raises(fences.Fenced):
            a.write_sync(lambda c: a.store.start_hand(c, row, 2, "razz", []))
        # An older token cannot take it back; B's writes go through.
        with pytest.raises(fences.Fenced):
            a.write_sync(lambda c: fences.claim_tournament(c, tid, 2, "a", time.time()))
        b.write_sync(lambda c: fences.check_tournament(c, tid, 2))
        b.write_sync(lambda c: b.store.start_hand(c, row, 2, "razz", []))
        # A finished tournament is nobody's to take.
        data = dict(stored["snapshot"], state="finished", finished_at=time.time())
        b.write_sync(lambda c: tourneys.save(c, tid, data))
        assert b.write_sync(lambda c: fences.claim_tournament(c, tid, 3, "b", time.time())) is None
    finally:
        a.close()
        b.close()


def test_an_owner_stopped_in_the_middle_of_a_write_does_not_hold_up_the_takeover(
    pg_url: str,
) -> None:
    """A process paused (or cut off) inside a transaction holds the fence's row lock: the
    server ends that transaction, the new owner's claim goes through while the old one is
    still paused, and the old one's write is refused when it wakes."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from stud.server.storage.database import IDLE_IN_TRANSACTION_SECONDS

    tokens_a: dict[int, int] = {}
    a, b = open_db(pg_url, tokens_a), open_db(pg_url, {})
    try:
        store = a.store
        table = claimed_table(a, tokens_a)
        locked, woke = threading.Event(), threading.Event()
        outcome: dict[str, object] = {}

        def paused_owner() -> None:
            try:
                with a.write_engine.begin() as conn:
                    fences.check(conn, table, 1)  # the row lock, as each of its writes takes
                    locked.set()
                    time.sleep(IDLE_IN_TRANSACTION_SECONDS + 3)  # stopped mid-transaction
                    woke.set()
                    store.start_hand(conn, table, 1, "stud", [])
                outcome["a"] = "committed"
            except DBAPIError as error:
                outcome["a"] = error

        thread = threading.Thread(target=paused_owner)
        thread.start()
        assert locked.wait(10)
        # B takes the table while A is still paused: the server ended A's transaction.
        recovered = b.write_sync(lambda c: fences.claim(c, b.store, table, 2, "b", time.time()))
        assert not woke.is_set(), "the takeover waited for the paused owner"
        assert recovered["voided"] == 0
        thread.join(30)
        assert isinstance(outcome["a"], DBAPIError), outcome
        assert "idle-in-transaction timeout" in str(outcome["a"])
        # A, awake, runs its write again (as its writer does after a failed batch): refused.
        with pytest.raises(fences.Fenced):
            a.write_sync(lambda c: store.start_hand(c, table, 1, "stud", []))
        assert b.read_sync(lambda c: fences.stored_token(c, table)) == 2
        hands = b.read_sync(lambda c: c.execute(text("SELECT count(*) FROM hands")).scalar())
        assert hands == 0
    finally:
        a.close()
        b.close()
