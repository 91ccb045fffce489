"""Tournaments in storage: their snapshots, their tables' rows, and their money in the ledger.

Tournament chips never reach the ledger; only these movements do, each tagged
with the tournament's id:

* ``t_buy_in``: buy-in + fee leave the player's balance; the buy-in goes to the
  house's ``pool`` wallet (the prize pool), the fee to the house's balance;
* ``t_refund``: the same movement backwards (unregistering, a cancelled event);
* ``t_prize``: a prize from the pool to the player's balance.

So the pool of a tournament is always its entrants' buy-ins less the prizes
paid, and is empty once every prize is paid. A tournament's snapshot
(:mod:`stud.tournament.snapshot`) is stored in the transaction of the step that
changed it, with that step's money and hand records.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from stud.server.storage import schema as s
from stud.server.storage.ledger import Entry, LedgerError
from stud.server.storage.store import Store
from stud.server.storage.writes import json_text

POOL = "pool"
"""The house wallet that holds the prize pools (one per tournament, by ``tournament_id``)."""


def create(
    conn: Connection,
    name: str,
    game: str,
    kind: str,
    snapshot_of: Callable[[int], dict[str, Any]],
    *,
    template: str | None,
    created_by: int | None,
) -> tuple[int, dict[str, Any]]:
    """Insert a tournament; ``snapshot_of(id)`` makes its first snapshot. Its id and snapshot."""
    now = time.time()
    result = conn.execute(
        insert(s.tournaments).values(
            name=name, game=game, kind=kind, state="registering", snapshot="{}",
            template=template, created_by=created_by, created_at=now, updated_at=now,
        )
    )  # fmt: skip
    pk = result.inserted_primary_key
    assert pk is not None
    tournament_id = int(pk[0])
    data = snapshot_of(tournament_id)
    save(conn, tournament_id, data)
    return tournament_id, data


def save(conn: Connection, tournament_id: int, data: Mapping[str, Any]) -> None:
    """Store a tournament's snapshot (and its state, for the queries below)."""
    state = str(data["state"])
    finished = data.get("finished_at") if state in ("finished", "cancelled") else None
    conn.execute(
        update(s.tournaments)
        .where(s.tournaments.c.id == tournament_id)
        .values(
            snapshot=json.dumps(data, separators=(",", ":")),
            state=state,
            updated_at=time.time(),
            finished_at=finished,
        )
    )


_ROW = (
    s.tournaments.c.id,
    s.tournaments.c.template,
    s.tournaments.c.created_by,
    s.tournaments.c.snapshot,
)


def _row(r: Any) -> dict[str, Any]:
    return {
        "id": int(r.id),
        "template": r.template,
        "created_by": None if r.created_by is None else int(r.created_by),
        "snapshot": json.loads(r.snapshot),
    }


def stored(conn: Connection, *, unfinished: bool, limit: int | None = None) -> list[dict[str, Any]]:
    """Tournaments still to play (``unfinished``), or the latest finished or cancelled ones:
    each ``{"id", "template", "created_by", "snapshot"}``, oldest first."""
    done = s.tournaments.c.state.in_(("finished", "cancelled"))
    query = select(*_ROW).where(~done if unfinished else done)
    if limit is not None:
        query = query.order_by(s.tournaments.c.id.desc()).limit(limit)
    out = [_row(r) for r in conn.execute(query).all()]
    return sorted(out, key=lambda r: r["id"])


def stored_one(conn: Connection, tournament_id: int) -> dict[str, Any] | None:
    """One tournament's row as :func:`stored` gives it (None: no such tournament)."""
    r = conn.execute(select(*_ROW).where(s.tournaments.c.id == tournament_id)).first()
    return None if r is None else _row(r)


def unfinished_ids(conn: Connection) -> list[int]:
    """The tournaments registering or running (a shared room's processes share them out)."""
    done = s.tournaments.c.state.in_(("finished", "cancelled"))
    return [int(i) for i in conn.execute(select(s.tournaments.c.id).where(~done)).scalars()]


def finished_ids(conn: Connection, limit: int) -> list[int]:
    """The latest ``limit`` finished or cancelled tournaments."""
    done = s.tournaments.c.state.in_(("finished", "cancelled"))
    query = select(s.tournaments.c.id).where(done).order_by(s.tournaments.c.id.desc()).limit(limit)
    return [int(i) for i in conn.execute(query).scalars()]


def registering(conn: Connection, created_by: int) -> list[int]:
    """The tournaments an account opened that take registrations still."""
    query = select(s.tournaments.c.id).where(
        s.tournaments.c.state == "registering", s.tournaments.c.created_by == created_by
    )
    return [int(i) for i in conn.execute(query).scalars()]


def open_templates(conn: Connection) -> set[str]:
    """The room's default tournaments that have a copy taking registrations."""
    query = select(s.tournaments.c.template).where(
        s.tournaments.c.state == "registering", s.tournaments.c.template.is_not(None)
    )
    return {str(t) for t in conn.execute(query).scalars()}


def latest_start(conn: Connection, template: str) -> float | None:
    """When the latest copy of a default tournament starts (or started), from its snapshot."""
    row = conn.execute(
        select(s.tournaments.c.snapshot)
        .where(s.tournaments.c.template == template)
        .order_by(s.tournaments.c.id.desc())
        .limit(1)
    ).scalar()
    if row is None:
        return None
    start = json.loads(row).get("settings", {}).get("start_at")
    return None if start is None else float(start)


# -- money -----------------------------------------------------------------------------------


def pay_buy_in(
    store: Store, conn: Connection, account_id: int, tournament_id: int, buy_in: int, fee: int
) -> None:
    """Buy-in + fee from the balance (LedgerError if it is short): pool and house."""
    if store.balance(conn, account_id) < buy_in + fee:
        raise LedgerError(f"the buy-in is {buy_in}+{fee} and the balance is too small")
    house = store.house(conn)
    store.post(
        conn,
        "t_buy_in",
        [
            Entry(account_id, "cash", -(buy_in + fee), tournament_id=tournament_id),
            Entry(house, POOL, buy_in, tournament_id=tournament_id),
            Entry(house, "cash", fee, tournament_id=tournament_id),
        ],
    )


def refund(
    store: Store, conn: Connection, account_id: int, tournament_id: int, buy_in: int, fee: int
) -> None:
    """Buy-in and fee back to the balance, out of the pool and the house."""
    house = store.house(conn)
    if pool(store, conn, tournament_id) < buy_in:
        raise LedgerError(f"tournament {tournament_id}: the pool cannot refund {buy_in}")
    store.post(
        conn,
        "t_refund",
        [
            Entry(account_id, "cash", buy_in + fee, tournament_id=tournament_id),
            Entry(house, POOL, -buy_in, tournament_id=tournament_id),
            Entry(house, "cash", -fee, tournament_id=tournament_id),
        ],
    )


def pay_prize(
    store: Store, conn: Connection, account_id: int, tournament_id: int, amount: int
) -> None:
    """A prize out of the tournament's pool (LedgerError if the pool is short)."""
    house = store.house(conn)
    if pool(store, conn, tournament_id) < amount:
        raise LedgerError(f"tournament {tournament_id}: the pool cannot pay a prize of {amount}")
    store.post(
        conn,
        "t_prize",
        [
            Entry(house, POOL, -amount, tournament_id=tournament_id),
            Entry(account_id, "cash", amount, tournament_id=tournament_id),
        ],
    )


def pool(store: Store, conn: Connection, tournament_id: int) -> int:
    """What the tournament's prize pool holds now."""
    query = select(func.coalesce(func.sum(s.ledger.c.amount), 0)).where(
        and_(
            s.ledger.c.account_id == store.house(conn),
            s.ledger.c.wallet == POOL,
            s.ledger.c.tournament_id == tournament_id,
        )
    )
    return int(conn.execute(query).scalar_one())


def paid_in(conn: Connection, tournament_id: int) -> dict[int, int]:
    """Each account's net buy-in + fee to the tournament (buy-ins less refunds), non-zero only."""
    rows = conn.execute(
        select(s.ledger.c.account_id, func.sum(s.ledger.c.amount))
        .where(
            and_(
                s.ledger.c.tournament_id == tournament_id,
                s.ledger.c.wallet == "cash",
                s.ledger.c.kind.in_(("t_buy_in", "t_refund")),
            )
        )
        .group_by(s.ledger.c.account_id)
    ).all()
    return {int(a): -int(v) for a, v in rows if int(v) < 0}


def prizes_paid(conn: Connection, tournament_id: int) -> dict[int, int]:
    """The prizes the ledger has paid in a tournament, by account."""
    rows = conn.execute(
        select(s.ledger.c.account_id, func.sum(s.ledger.c.amount))
        .where(
            and_(
                s.ledger.c.tournament_id == tournament_id,
                s.ledger.c.kind == "t_prize",
                s.ledger.c.wallet == "cash",
            )
        )
        .group_by(s.ledger.c.account_id)
    ).all()
    return {int(a): int(v) for a, v in rows}


# -- tables and hands ------------------------------------------------------------------------


def table_row(
    conn: Connection,
    tournament_id: int,
    name: str,
    game: str,
    stakes: Mapping[str, int],
    seats: int,
) -> int:
    """The ``room_tables`` row of a tournament table (made on first use, stored closed so it
    never opens as a cash table): its hands point to it."""
    found = conn.execute(
        select(s.room_tables.c.id).where(
            and_(s.room_tables.c.tournament_id == tournament_id, s.room_tables.c.name == name)
        )
    ).first()
    if found is not None:
        return int(found.id)
    result = conn.execute(
        insert(s.room_tables).values(
            name=name, game=game, seats=seats, bots=0, min_buy_in=0, max_buy_in=0,
            created_by=None, created_at=time.time(), closed=True, tournament_id=tournament_id,
            **stakes,
        )
    )  # fmt: skip
    pk = result.inserted_primary_key
    assert pk is not None
    return int(pk[0])


def finish_hand(
    conn: Connection,
    hand_id: int,
    pot: int,
    summary: Mapping[str, Any],
    played: str | None,
) -> None:
    """Store a tournament hand's result and the hand as played, which its histories are
    written from when asked for (its chips are not money: no ledger)."""
    conn.execute(
        update(s.hands)
        .where(s.hands.c.id == hand_id)
        .values(
            status="finished",
            finished_at=time.time(),
            pot=pot,
            summary=json_text(summary),
            played=played,
        )
    )


def set_played(conn: Connection, hand_id: int, played: str) -> None:
    """Store a finished hand as played again (its histories' closing lines came after it)."""
    conn.execute(update(s.hands).where(s.hands.c.id == hand_id).values(played=played))
