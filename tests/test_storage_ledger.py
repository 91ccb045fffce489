"""Storage on SQLite and PostgreSQL: accounts, sessions, the ledger, hands and recovery."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import Connection

from stud.server.storage import (
    Database,
    Entry,
    LedgerError,
    TableSpec,
    hash_password,
    verify_password,
)
from stud.testing.server import fresh_database, require_backend

SPEC = TableSpec(
    name="t", game="stud", ante=1, bring_in=2, small_bet=5, big_bet=10, seats=6, bots=0,
    min_buy_in=50, max_buy_in=500,
)  # fmt: skip


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    with fresh_database("sqlite", tmp_path) as url:
        database = Database(url)
        database.start()
        from sqlalchemy import text

        mode = database.read_sync(lambda c: c.execute(text("PRAGMA journal_mode")).scalar())
        database.close()
    assert mode == "wal"


def test_passwords_are_hashed_with_a_kdf() -> None:
    encoded = hash_password("correct horse")
    assert encoded.startswith("$argon2id$")
    assert "correct horse" not in encoded
    assert verify_password(encoded, "correct horse")
    assert not verify_password(encoded, "wrong")
    assert not verify_password("garbage", "wrong")


def test_accounts_and_sessions(db: Database) -> None:
    store = db.store
    alice = db.write_sync(lambda c: store.create_account(c, "alice", "user", hash_password("pw")))
    with pytest.raises(ValueError, match="taken"):
        db.write_sync(lambda c: store.create_account(c, "alice", "user", None))
    found = db.read_sync(lambda c: store.account_by_name(c, "alice"))
    assert found is not None and found[0] == alice and found[1] is not None
    db.write_sync(lambda c: store.create_session(c, alice.id, "tok", 60))
    assert db.read_sync(lambda c: store.session_account(c, "tok")) == alice
    assert db.read_sync(lambda c: store.session_account(c, "other")) is None
    db.write_sync(lambda c: store.create_session(c, alice.id, "old", -1))
    assert db.read_sync(lambda c: store.session_account(c, "old")) is None
    db.write_sync(lambda c: store.delete_session(c, "tok"))
    assert db.read_sync(lambda c: store.session_account(c, "tok")) is None


def test_ledger_movements_balance_and_conserve(db: Database) -> None:
    store = db.store
    a = db.write_sync(lambda c: store.create_account(c, "a", "user"))
    b = db.write_sync(lambda c: store.create_account(c, "b", "user"))
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None))
    db.write_sync(lambda c: store.grant(c, a.id, 1000))
    db.write_sync(lambda c: store.grant(c, b.id, 1000))
    assert db.read_sync(lambda c: store.balance(c, a.id)) == 1000
    with pytest.raises(LedgerError):
        db.write_sync(lambda c: store.buy_in(c, a.id, table.id, 1001))
    db.write_sync(lambda c: store.buy_in(c, a.id, table.id, 300))
    db.write_sync(lambda c: store.buy_in(c, b.id, table.id, 200))
    assert db.read_sync(lambda c: store.balance(c, a.id)) == 700
    hand = db.write_sync(
        lambda c: store.start_hand(
            c,
            table.id,
            1,
            "stud",
            [{"seat": 0, "account_id": a.id}, {"seat": 1, "account_id": b.id}],
        )
    )
    db.write_sync(lambda c: store.commit_chips(c, table.id, hand, {a.id: 1, b.id: 1}))
    db.write_sync(lambda c: store.commit_chips(c, table.id, hand, {a.id: 20, b.id: 20}))
    # A result that does not add up is refused and changes nothing.
    with pytest.raises(LedgerError):
        db.write_sync(lambda c: store.finish_hand(c, table.id, hand, {a.id: 43}, 0, {}, None))
    db.write_sync(
        lambda c: store.finish_hand(c, table.id, hand, {a.id: 41}, 1, {"winner": "a"}, "{}")
    )
    stacks = db.read_sync(lambda c: store.table_stacks(c, table.id))
    assert stacks == {(table.id, a.id): 320, (table.id, b.id): 179}
    record = db.read_sync(lambda c: store.hand(c, hand))
    assert record is not None
    assert record["status"] == "finished" and record["pot"] == 42
    assert record["played"] == "{}" and record["phh"] is None and record["pokerstars"] is None
    assert [h["id"] for h in db.read_sync(lambda c: store.hands_for_account(c, b.id))] == [hand]
    listed = db.read_sync(lambda c: store.hands_for_table(c, table.id))
    assert [(h["id"], h["table_id"], h["game"], h["pot"]) for h in listed] == [
        (hand, table.id, "stud", 42)
    ]
    assert "players" not in listed[0]
    db.write_sync(lambda c: store.cash_out(c, a.id, table.id, 320))
    with pytest.raises(LedgerError):
        db.write_sync(lambda c: store.cash_out(c, b.id, table.id, 180))
    assert db.read_sync(lambda c: store.balance(c, a.id)) == 1020
    assert db.read_sync(store.ledger_total) == 0
    holdings = db.read_sync(store.holdings)
    assert holdings == {"cash": 1020 + 800, "table": 179, "pot": 0, "house": -1999, "pool": 0}
    # Chips are never minted: an unbalanced movement is refused.
    with pytest.raises(LedgerError):
        db.write_sync(lambda c: store.post(c, "grant", [Entry(a.id, "cash", 5)]))
    assert db.read_sync(store.ledger_total) == 0


def test_recover_voids_running_hands_and_returns_every_chip(db: Database) -> None:
    store = db.store
    a = db.write_sync(lambda c: store.create_account(c, "a", "user"))
    b = db.write_sync(lambda c: store.create_account(c, "b", "user"))
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None))
    for acc in (a, b):

        def fund(c: Connection, account: int = acc.id) -> None:
            store.grant(c, account, 500)
            store.buy_in(c, account, table.id, 100)

        db.write_sync(fund)
    hand = db.write_sync(
        lambda c: store.start_hand(
            c, table.id, 1, "razz", [{"account_id": a.id}, {"account_id": b.id}]
        )
    )
    db.write_sync(lambda c: store.commit_chips(c, table.id, hand, {a.id: 7, b.id: 12}))
    summary = db.write_sync(store.recover)
    assert summary == {"voided": 1, "refunded": 19, "cashed_out": 200}
    assert db.read_sync(lambda c: store.balance(c, a.id)) == 500
    assert db.read_sync(lambda c: store.balance(c, b.id)) == 500
    assert db.read_sync(lambda c: store.table_stacks(c)) == {}
    record = db.read_sync(lambda c: store.hand(c, hand))
    assert record is not None and record["status"] == "void"
    assert db.read_sync(store.ledger_total) == 0
    # Recovering again finds nothing to do.
    assert db.write_sync(store.recover) == {"voided": 0, "refunded": 0, "cashed_out": 0}


def test_writer_thread_group_commits_and_isolates_failures(db: Database) -> None:
    store = db.store

    async def run() -> list[object]:
        a = await db.write(lambda c: store.create_account(c, "a", "user"))
        grants = [db.write(lambda c: store.grant(c, a.id, 1)) for _ in range(200)]
        bad = db.write(lambda c: store.buy_in(c, a.id, 1, 10**9))
        results: list[object] = list(await asyncio.gather(*grants, bad, return_exceptions=True))
        results.append(await db.read(lambda c: store.balance(c, a.id)))
        return results

    results = asyncio.run(run())
    assert all(r is None for r in results[:200])
    assert isinstance(results[200], LedgerError)
    assert results[201] == 200


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_database_made_before_the_rake_gains_its_columns(backend: str, tmp_path: Path) -> None:
    """A room's database from before a column existed opens, the column added, rows kept."""
    from sqlalchemy import create_engine, inspect, text

    from stud.server.storage.database import resolve_url

    require_backend(backend)
    with fresh_database(backend, tmp_path) as url:
        old = create_engine(resolve_url(url))
        with old.begin() as conn:
            conn.execute(
                text(
                    "CREATE TABLE room_tables (id INTEGER PRIMARY KEY, name VARCHAR(64) NOT NULL,"
                    " game VARCHAR(8) NOT NULL, ante BIGINT NOT NULL, bring_in BIGINT NOT NULL,"
                    " small_bet BIGINT NOT NULL, big_bet BIGINT NOT NULL, seats INTEGER NOT NULL,"
                    " bots INTEGER NOT NULL, min_buy_in BIGINT NOT NULL,"
                    " max_buy_in BIGINT NOT NULL, created_by BIGINT, created_at FLOAT NOT NULL,"
                    " closed BOOLEAN NOT NULL)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO room_tables VALUES"
                    " (7, 'Old', 'razz', 1, 2, 5, 10, 6, 2, 50, 500, NULL, 0, FALSE)"
                )
            )
        old.dispose()
        database = Database(url)
        database.start()
        try:
            columns = {c["name"] for c in inspect(database.engine).get_columns("room_tables")}
            assert {"rake_percent", "rake_cap", "bot_kind"} <= columns
            (spec,) = database.read_sync(database.store.open_tables)
            assert (spec.id, spec.name, spec.game) == (7, "Old", "razz")
            assert (spec.rake_percent, spec.rake_cap, spec.bot_kind) == (0.0, None, "strong")
        finally:
            database.close()


def test_a_hand_s_chips_and_payout_are_stored_together(db: Database) -> None:
    store = db.store
    a = db.write_sync(lambda c: store.create_account(c, "a", "user"))
    b = db.write_sync(lambda c: store.create_account(c, "b", "user"))
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None))
    for account_id in (a.id, b.id):

        def fund(c: Connection, account_id: int = account_id) -> None:
            store.grant(c, account_id, 1000)
            store.buy_in(c, account_id, table.id, 300)

        db.write_sync(fund)
    players = [{"seat": 0, "account_id": a.id}, {"seat": 1, "account_id": b.id}]
    hand = db.write_sync(lambda c: store.start_hand(c, table.id, 1, "stud", players))
    committed = {a.id: 21, b.id: 21}
    # A result that does not add up is refused, and not even the chips put in are stored.
    with pytest.raises(LedgerError):
        db.write_sync(
            lambda c: store.finish_hand(
                c, table.id, hand, {a.id: 43}, 0, {}, None, committed=committed
            )
        )
    assert db.read_sync(lambda c: store.pot_contributions(c, hand)) == {}
    assert db.read_sync(lambda c: store.hand(c, hand))["status"] == "running"  # type: ignore[index]
    db.write_sync(
        lambda c: store.finish_hand(
            c, table.id, hand, {a.id: 41}, 1, {"winner": "a"}, "{}", committed=committed
        )
    )
    # The same books as chips committed on their own, then paid out.
    assert db.read_sync(lambda c: store.table_stacks(c, table.id)) == {
        (table.id, a.id): 320,
        (table.id, b.id): 279,
    }
    assert db.read_sync(lambda c: store.pot_contributions(c, hand)) == {}
    record = db.read_sync(lambda c: store.hand(c, hand))
    assert record is not None and record["status"] == "finished" and record["pot"] == 42
    assert record["played"] == "{}" and record["summary"] == {"winner": "a"}
    assert db.read_sync(store.ledger_total) == 0
    assert db.read_sync(store.holdings)["pot"] == 0


def test_open_tables_by_id_and_only_some(db: Database) -> None:
    """A shared room reads the open tables' ids every few seconds, and the settings of those
    it does not know yet: closed tables are in neither."""
    store = db.store

    def make(conn: Connection) -> list[TableSpec]:
        return [store.create_table(conn, replace(SPEC, name=f"t{i}"), None) for i in range(4)]

    made = db.write_sync(make)
    db.write_sync(lambda c: store.close_table(c, made[1].id))
    ids = [spec.id for spec in made]
    assert db.read_sync(store.open_table_ids) == [ids[0], ids[2], ids[3]]
    some = db.read_sync(lambda c: store.open_tables(c, [ids[1], ids[3]]))
    assert [(spec.id, spec.name) for spec in some] == [(ids[3], "t3")]
    assert db.read_sync(lambda c: store.open_tables(c, [])) == []
    assert [spec.id for spec in db.read_sync(store.open_tables)] == [ids[0], ids[2], ids[3]]


def test_a_read_of_several_statements_sees_one_moment(db: Database) -> None:
    """A grant committed between two statements of one read is seen by neither: the room's
    holdings by wallet always add up, however the writer's commits fall (both backends)."""
    store = db.store
    account = db.write_sync(lambda c: store.create_account(c, "reader", "user"))
    db.write_sync(lambda c: store.grant(c, account.id, 1000))

    def read_with_a_grant_between(conn: Connection) -> tuple[int, int, dict[str, int]]:
        first = store.balance(conn, account.id)
        db.write_sync(lambda c: store.grant(c, account.id, 500))  # another connection commits
        return first, store.balance(conn, account.id), store.holdings(conn)

    first, second, holdings = db.read_sync(read_with_a_grant_between)
    assert first == second == 1000
    assert sum(holdings.values()) == 0 and holdings["cash"] == 1000
    # The next read sees the commit.
    assert db.read_sync(lambda c: store.balance(c, account.id)) == 1500
    assert db.read_sync(lambda c: sum(store.holdings(c).values())) == 0
