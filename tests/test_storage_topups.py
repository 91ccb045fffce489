"""Free play chips in storage, on SQLite and PostgreSQL: who may top up, by how much, how often,
that chips at a table count, and that two top-ups at once (two writers: two processes of a
room) give one. The ledger is checked after each."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, select

from stud.server.storage import Database, Entry, TableSpec
from stud.server.storage import schema as s
from stud.server.storage.topups import TopUpResult, TopUpRules, top_up, top_up_state

RULES = TopUpRules(to=10_000, threshold=1_000, period_seconds=3600.0, guest_period_seconds=600.0)
SPEC = TableSpec(
    name="t", game="stud", ante=1, bring_in=2, small_bet=5, big_bet=10, seats=6, bots=0,
    min_buy_in=50, max_buy_in=10_000,
)  # fmt: skip


def account_with(db: Database, cash: int, kind: str = "user", name: str = "ann") -> int:
    store = db.store

    def make(c: Connection) -> int:
        account = store.create_account(c, name, kind)
        store.grant(c, account.id, cash)
        return account.id

    return db.write_sync(make)


def give(db: Database, account_id: int, kind: str = "user", now: float = 1_000.0) -> TopUpResult:
    return db.write_sync(lambda c: top_up(db.store, c, account_id, kind, RULES, now))


def held(db: Database, account_id: int) -> int:
    store = db.store
    return db.read_sync(
        lambda c: store.balance(c, account_id) + store.wallet(c, account_id, "table")
    )


def test_a_low_account_tops_up_to_the_start_from_the_house(db: Database) -> None:
    ann = account_with(db, 300)
    house_before = db.read_sync(lambda c: db.store.balance(c, db.store.house(c)))
    result = give(db, ann)
    assert (result.amount, result.refusal) == (9_700, None)
    assert held(db, ann) == 10_000
    store = db.store
    assert db.read_sync(lambda c: store.balance(c, store.house(c))) == house_before - 9_700
    assert db.read_sync(store.ledger_total) == 0
    rows = db.read_sync(lambda c: c.execute(select(s.top_ups)).all())
    assert len(rows) == 1 and rows[0].amount == 9_700 and rows[0].held == 300
    assert "300" in rows[0].reason and "1000" in rows[0].reason
    kinds = db.read_sync(
        lambda c: c.execute(select(s.ledger.c.kind).where(s.ledger.c.txn == rows[0].txn)).all()
    )
    assert [k for (k,) in kinds] == ["top_up", "top_up"]


def test_an_account_not_low_is_refused_and_nothing_moves(db: Database) -> None:
    ann = account_with(db, 1_000)  # at the threshold: not below it
    result = give(db, ann)
    assert (result.amount, result.refusal) == (0, "free_chips_not_low")
    assert held(db, ann) == 1_000
    assert db.read_sync(lambda c: c.execute(select(s.top_ups)).all()) == []


def test_once_per_period_and_the_next_time_is_told(db: Database) -> None:
    ann = account_with(db, 0)
    assert give(db, ann, now=1_000.0).amount == 10_000
    # It loses everything again at once (its stack goes to the house): too soon, told when.
    table = db.write_sync(lambda c: db.store.create_table(c, SPEC, None))
    db.write_sync(lambda c: db.store.buy_in(c, ann, table.id, 10_000))
    house = db.read_sync(db.store.house)
    db.write_sync(
        lambda c: db.store.post(
            c, "rake", [Entry(ann, "table", -10_000, table.id), Entry(house, "cash", 10_000)]
        )
    )
    refused = give(db, ann, now=1_000.0 + 3_599)
    assert refused.refusal == "free_chips_too_soon"
    assert refused.state.next_at == 1_000.0 + 3_600
    assert refused.state.public(1_000.0 + 3_599)["next_at"] == 4_600.0
    assert give(db, ann, now=1_000.0 + 3_600).amount == 10_000
    assert db.read_sync(db.store.ledger_total) == 0


def test_guests_top_up_within_their_own_period(db: Database) -> None:
    guest = account_with(db, 0, kind="guest", name="Guest-1")
    assert give(db, guest, kind="guest", now=0.0).amount == 10_000
    state = db.read_sync(lambda c: top_up_state(c, guest, "guest", RULES))
    assert state.next_at == 600.0


def test_chips_at_a_table_count(db: Database) -> None:
    """Sitting down with the balance does not make an account low."""
    ann = account_with(db, 9_500)
    table = db.write_sync(lambda c: db.store.create_table(c, SPEC, None))
    db.write_sync(lambda c: db.store.buy_in(c, ann, table.id, 9_000))
    assert db.read_sync(lambda c: db.store.balance(c, ann)) == 500
    result = give(db, ann)
    assert result.refusal == "free_chips_not_low" and result.state.held == 9_500
    assert held(db, ann) == 9_500


def giving(writer: Database, account_id: int) -> Callable[[Connection], TopUpResult]:
    return lambda c: top_up(writer.store, c, account_id, "user", RULES, 5.0)


def test_two_top_ups_at_once_give_one(db: Database) -> None:
    """Two writers (as two processes of a shared room would have) top the same account up at
    the same moment, many times over: exactly one top-up each round."""
    other = Database(db.url)
    other.start()
    try:
        for round_ in range(5):
            ann = account_with(db, 0, name=f"p{round_}")
            futures = [writer.submit(giving(writer, ann)) for writer in (db, other, db, other)]
            results = [f.result(30) for f in futures]
            assert sorted(r.amount for r in results) == [0, 0, 0, 10_000], results
            assert {r.refusal for r in results if not r.amount} == {"free_chips_not_low"}
            assert held(db, ann) == 10_000
        assert db.read_sync(db.store.ledger_total) == 0
    finally:
        other.close()
