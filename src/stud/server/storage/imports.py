"""Imported hands in storage: the hand histories an account uploaded, private to it.

Every function takes the account, and every read is of that account's rows only: no query
here reads another account's imported hands (stud.server.http.imports answers 404 for one).
A hand is one row, stored whole or not at all with the account's facts row of it (its
stats, stud.server.storage.stats) in the same transaction; one (site, hand number) is kept
once per account. :func:`imported_records_of` reads the hands back (the hand in PHH, the
project's history format, with the account's seat in it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select

from stud.server.storage import schema as s
from stud.server.storage.stats import store_facts

_NOT_STORED = ("place", "facts")
"""Keys of an upload's row that are no column: its place in its file, its facts row."""

LIST_COLUMNS = (
    "id",
    "site",
    "site_hand_id",
    "game",
    "played_at",
    "imported_at",
    "file_name",
    "table_name",
    "hero",
    "hero_name",
    "hero_net",
    "pot",
    "decimals",
    "currency",
)
"""What a list of imported hands shows of each (not the hand itself)."""


def imported_count(conn: Connection, account_id: int) -> int:
    table = s.imported_hands.c
    return int(
        conn.execute(select(func.count()).where(table.account_id == account_id)).scalar_one()
    )


def store_imported(
    conn: Connection, account_id: int, rows: Sequence[dict[str, Any]], quota: int
) -> list[int | str]:
    """Insert the rows an account uploaded (``place``, if given, is not stored) and the
    account's facts row of each (``facts``, if given: stored with the hand, in this
    transaction); for each, its new id, or why it was not stored: ``import_duplicate`` (the
    account holds that hand already, or an earlier row had it) or ``import_quota`` (past
    the account's ``quota``)."""
    table = s.imported_hands.c
    wanted = [row["site_hand_id"] for row in rows]
    have: set[tuple[str, str]] = set()
    for start in range(0, len(wanted), 500):
        found = conn.execute(
            select(table.site, table.site_hand_id).where(
                and_(
                    table.account_id == account_id,
                    table.site_hand_id.in_(wanted[start : start + 500]),
                )
            )
        )
        have.update((str(site), str(key)) for site, key in found)
    room = quota - imported_count(conn, account_id)
    now = time.time()
    fresh: list[dict[str, Any]] = []
    facts: list[dict[str, Any] | None] = []
    out: list[int | str] = []
    for row in rows:
        key = (row["site"], row["site_hand_id"])
        if key in have:
            out.append("import_duplicate")
        elif len(fresh) >= room:
            out.append("import_quota")
        else:
            have.add(key)
            out.append(len(fresh))  # its place among the new rows, made an id below
            columns = {k: v for k, v in row.items() if k not in _NOT_STORED}
            fresh.append({**columns, "account_id": account_id, "imported_at": now})
            facts.append(row.get("facts"))
    if not fresh:
        return out
    statement = insert(s.imported_hands).returning(table.id, sort_by_parameter_order=True)
    ids = [int(i) for i in conn.execute(statement, fresh).scalars()]
    store_facts(
        conn,
        [{**row, "account_id": account_id, "hand_id": hand_id}
         for hand_id, row in zip(ids, facts, strict=True) if row is not None],
    )  # fmt: skip
    return [ids[place] if isinstance(place, int) else place for place in out]


def imported_hands(conn: Connection, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The account's imported hands, newest import first (no hand text)."""
    table = s.imported_hands.c
    rows = conn.execute(
        select(*(table[name] for name in LIST_COLUMNS))
        .where(table.account_id == account_id)
        .order_by(table.id.desc())
        .limit(limit)
    ).all()
    return [dict(row._mapping) for row in rows]


def imported_hand(conn: Connection, account_id: int, hand_id: int) -> dict[str, Any] | None:
    """One of the account's imported hands, with its PHH text; None if it has no such hand."""
    table = s.imported_hands.c
    row = conn.execute(
        select(s.imported_hands).where(and_(table.id == hand_id, table.account_id == account_id))
    ).first()
    return None if row is None else dict(row._mapping)


def imported_records_of(conn: Connection, account_id: int) -> Iterator[tuple[int, int | None, str]]:
    """(id, the account's seat, PHH text) of each of the account's imported hands, oldest
    first: what stats read (stud.history.read_phh gives the record)."""
    table = s.imported_hands.c
    rows = conn.execute(
        select(table.id, table.hero, table.phh)
        .where(table.account_id == account_id)
        .order_by(table.id)
    )
    for hand_id, hero, phh in rows:
        yield int(hand_id), None if hero is None else int(hero), str(phh)
