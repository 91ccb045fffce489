"""A durable write on PostgreSQL costs one round trip, and the fence is as safe as before.

The writer sends a transaction as one pipeline (``BEGIN``, its statements, the fence's
check, ``COMMIT``) and waits once, for the commit (stud.server.storage.database.pipelined).
The round trips are counted at the socket, by a relay between the room and PostgreSQL:
whatever the client library does, a round trip is the server answering after the client
sent something. A stale owner's write is refused by PostgreSQL itself and keeps nothing.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest
from sqlalchemy import Connection, event, func, text
from sqlalchemy import select as sql_select
from sqlalchemy.engine import make_url

from stud.server.storage import Database, fences
from stud.server.storage import schema as s
from test_cluster_fence import SPEC

Write = Callable[[Connection], Any]
"""A fresh PostgreSQL database (the tests fail in CI without one, skip loudly elsewhere)."""


class Relay:
    """A TCP relay to PostgreSQL that counts round trips: the times the server answered
    after the client had sent something since its last answer (one per wait of the
    client for the server, however its messages and the answer are cut into packets)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.trips = 0
        self._lock = threading.Lock()
        self._closed = False
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            thread = threading.Thread(target=self._pump, args=(client, server), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        asked = False  # the client sent something the server has not answered yet
        with client, server:
            while not self._closed:
                ready, _, _ = select.select([client, server], [], [], 0.2)
                for sock in ready:
                    data = sock.recv(1 << 16)
                    if not data:
                        return
                    if sock is client:
                        server.sendall(data)
                        asked = True
                        continue
                    if asked:
                        with self._lock:
                            self.trips += 1
                        asked = False
                    client.sendall(data)

    def count(self) -> int:
        with self._lock:
            return self.trips

    def close(self) -> None:
        self._closed = True
        self.listener.close()
        for thread in self._threads:
            thread.join(5)


@pytest.fixture
def relayed(pg_url: str) -> Iterator[tuple[str, Relay]]:
    """The database's URL through a relay that counts its round trips."""
    url = make_url(pg_url)
    relay = Relay(url.host or "127.0.0.1", url.port or 5432)
    try:
        yield url.set(host="127.0.0.1", port=relay.port).render_as_string(False), relay
    finally:
        relay.close()


@pytest.fixture
def relayed_db(relayed: tuple[str, Relay]) -> Iterator[tuple[Database, dict[int, int], Relay]]:
    """A process's database through the relay, its fence's tokens, and the relay."""
    url, relay = relayed
    tokens: dict[int, int] = {}
    db = open_db(url, tokens)
    try:
        yield db, tokens, relay
    finally:
        db.close()


def open_db(url: str, tokens: dict[int, int]) -> Database:
    db = Database(url)
    db.start()
    db.store.fence = fences.TokenFence(tokens)
    return db


def write(db: Database, op: Write) -> Any:
    """A write through the writer thread, as the room makes it."""
    return db.submit(op).result(30)


def table_with_players(
    db: Database, tokens: dict[int, int], token: int = 1
) -> tuple[int, int, int]:
    """A table taken with ``token``, and two people with 500 chips at it."""
    store = db.store
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None)).id
    tokens[table] = token
    db.write_sync(lambda c: fences.claim(c, store, table, token, "a", time.time()))
    people = []
    for name in (f"p{table}a", f"p{table}b"):

        def seat(conn: Connection, name: str = name) -> int:
            account = store.create_account(conn, name, "user").id
            store.grant(conn, account, 1000)
            store.buy_in(conn, account, table, 500)
            return account

        people.append(db.write_sync(seat))
    return table, people[0], people[1]


def start(db: Database, table: int, number: int, one: int, two: int) -> int:
    players = [{"seat": 0, "account_id": one}, {"seat": 1, "account_id": two}]
    hand: int = write(db, lambda c: db.store.start_hand(c, table, number, "stud", players))
    return hand


def finish(db: Database, table: int, hand: int, one: int, two: int) -> Write:
    """A hand's end as the table's actor stores it: the pot's chips and payout, its record."""

    def op(conn: Connection) -> None:
        db.store.finish_hand(
            conn, table, hand, {one: 20}, 0, {"winners": [0]}, None, committed={one: 10, two: 10}
        )

    return op


def books(db: Database, table: int) -> tuple[int, int, list[tuple[int, str]]]:
    """The table's ledger rows, the ledger's total, and each hand of the table and its status."""

    def read(conn: Connection) -> tuple[int, int, list[tuple[int, str]]]:
        rows = conn.execute(
            sql_select(func.count()).select_from(s.ledger).where(s.ledger.c.table_id == table)
        ).scalar_one()
        hands = conn.execute(
            sql_select(s.hands.c.id, s.hands.c.status)
            .where(s.hands.c.table_id == table)
            .order_by(s.hands.c.id)
        ).all()
        return int(rows), db.store.ledger_total(conn), [(int(i), str(v)) for i, v in hands]

    return db.read_sync(read)


def test_a_hand_s_end_is_one_round_trip_and_durable_when_its_write_returns(
    relayed_db: tuple[Database, dict[int, int], Relay],
) -> None:
    db, tokens, relay = relayed_db
    table, one, two = table_with_players(db, tokens)
    for number in (1, 2, 3):
        hand = start(db, table, number, one, two)
        before = relay.count()
        write(db, finish(db, table, hand, one, two))
        # BEGIN, the pot's ledger rows, the hand's record, the fence's check and COMMIT: one
        # wait, for the commit (five on main: BEGIN, the rows, the record, the check, COMMIT).
        assert relay.count() - before == 1
        # Returned means committed: another connection sees the hand finished.
        assert books(db, table)[2][-1] == (hand, "finished")
    before = relay.count()
    start(db, table, 4, one, two)
    assert relay.count() - before == 2  # the new hand's id is read before its players go
    assert db.read_sync(db.store.ledger_total) == 0


def test_the_hands_ends_queued_together_are_one_transaction_and_one_round_trip(
    relayed_db: tuple[Database, dict[int, int], Relay],
) -> None:
    db, tokens, relay = relayed_db
    seated = [table_with_players(db, tokens) for _ in range(3)]
    hands = [start(db, table, 1, one, two) for table, one, two in seated]
    commits: list[str] = []

    def on_commit(_conn: object) -> None:
        commits.append("commit")

    event.listen(db.write_engine, "commit", on_commit)
    hold, held = threading.Event(), threading.Event()

    def blocker(_conn: Connection) -> None:  # the writer is busy: the next writes queue
        held.set()
        hold.wait(30)

    before = relay.count()
    first = db.submit(blocker)
    assert held.wait(30)
    ends: list[Future[Any]] = [
        db.submit(finish(db, table, hand, one, two))
        for (table, one, two), hand in zip(seated, hands, strict=True)
    ]
    hold.set()
    first.result(30)
    for end in ends:
        end.result(30)
    # The blocker's empty transaction, then the three hands' ends in one (nine on main).
    assert len(commits) == 2
    assert relay.count() - before == 2
    for table, _, _ in seated:
        assert books(db, table)[2][-1][1] == "finished"


def test_a_stale_owner_s_write_is_refused_and_changes_nothing(pg_url: str) -> None:
    tokens_a: dict[int, int] = {}
    tokens_b: dict[int, int] = {}
    a, b = open_db(pg_url, tokens_a), open_db(pg_url, tokens_b)
    try:
        table, one, two = table_with_players(a, tokens_a)
        kept, k_one, k_two = table_with_players(a, tokens_a)
        hand = start(a, table, 1, one, two)
        other_hand = start(a, kept, 1, k_one, k_two)
        # B takes the first table with a newer token: A's running hand there is void.
        tokens_b[table] = 2
        b.write_sync(lambda c: fences.claim(c, b.store, table, 2, "b", time.time()))
        before = books(a, table)
        # A, stale, ends the hand: refused by PostgreSQL at the commit; nothing is kept.
        with pytest.raises(fences.Fenced, match=f"table {table}: lease token 1 is not the current"):
            write(a, finish(a, table, hand, one, two))
        assert books(a, table) == before
        # In one transaction with a write for a table A still runs: the batch fails, each
        # write runs alone, and only the stale one is refused.
        hold, held = threading.Event(), threading.Event()

        def blocker(_conn: Connection) -> None:
            held.set()
            hold.wait(30)

        first = a.submit(blocker)
        assert held.wait(30)
        stale = a.submit(finish(a, table, hand, one, two))
        fresh = a.submit(finish(a, kept, other_hand, k_one, k_two))
        hold.set()
        first.result(30)
        fresh.result(30)
        with pytest.raises(fences.Fenced):
            stale.result(30)
        assert books(a, table) == before
        assert books(a, kept)[2] == [(other_hand, "finished")]
        # Written on a connection of one's own (no pipeline): refused at the check itself.
        with pytest.raises(fences.Fenced), a.write_engine.begin() as conn:
            a.store.start_hand(conn, table, 2, "stud", [])
            a.store.settle(conn)
        assert books(a, table) == before
        # The writer's connection goes on; the pool's are plain transactions again (the
        # pipeline's autocommit does not leak): a failed transaction keeps nothing.
        start(a, kept, 2, k_one, k_two)
        with pytest.raises(RuntimeError), a.write_engine.begin() as conn:
            conn.execute(text("CREATE TABLE probe (id INT)"))
            raise RuntimeError("rolled back")
        probe = a.read_sync(lambda c: c.execute(text("SELECT to_regclass('probe')")).scalar())
        assert probe is None
        assert a.read_sync(a.store.ledger_total) == 0
    finally:
        a.close()
        b.close()


def test_the_relay_counts_each_wait_of_a_plain_transaction(
    relayed: tuple[str, Relay],
) -> None:
    """The relay's count, on the path the writer no longer takes: psycopg's own transaction
    waits for BEGIN, each statement and COMMIT."""
    url, relay = relayed
    db = Database(url)
    db.start()
    try:
        with db.write_engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            conn.commit()
            before = relay.count()
            with conn.begin():
                for value in range(3):
                    conn.execute(text("SELECT :v"), {"v": value})
            assert relay.count() - before == 5  # BEGIN, three statements, COMMIT
    finally:
        db.close()
