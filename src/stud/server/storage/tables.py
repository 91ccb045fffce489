"""The room's cash tables in storage: each one's game, stakes, size, bots and whether it
is closed (a tournament's tables are stored by stud.server.storage.tourneys)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from stud.server.storage import schema as s
from stud.server.storage.writes import FencedWrites
from stud.table.settings import fields_of

PUBLIC_SPEC = (
    "id", "name", "game", "ante", "bring_in", "small_bet", "big_bet", "seats", "bots",
    "min_buy_in", "max_buy_in", "rake_percent", "rake_cap", "bot_kind",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table of the room as stored: its game, stakes, size and how many seats bots may fill."""

    name: str
    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    seats: int
    bots: int
    min_buy_in: int
    max_buy_in: int
    id: int = 0
    rake_percent: float = 0.0
    """The house's cut of each pot, in percent (rounded down to a chip)."""
    rake_cap: int | None = None
    """At most this much rake per hand (None: no cap)."""
    bot_kind: str = "strong"
    """Which of :mod:`stud.bots` fills the table's empty seats."""
    created_by: int | None = None
    """The account that opened the table (None: the room's own); it may close it."""

    def public(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return fields_of(self, PUBLIC_SPEC)


class Tables(FencedWrites):
    """The store's cash tables (a part of :class:`stud.server.storage.Store`)."""

    def create_table(self, conn: Connection, spec: TableSpec, created_by: int | None) -> TableSpec:
        values = spec.public()
        del values["id"]
        result = conn.execute(
            insert(s.room_tables).values(
                **values, created_by=created_by, created_at=time.time(), closed=False
            )
        )
        pk = result.inserted_primary_key
        assert pk is not None
        return TableSpec(**{**values, "id": int(pk[0]), "created_by": created_by})

    def close_table(self, conn: Connection, table_id: int) -> None:
        """Mark a table closed: it is not opened again at the next start."""
        self._fenced(conn, table_id)
        conn.execute(
            update(s.room_tables).where(s.room_tables.c.id == table_id).values(closed=True)
        )

    def open_tables(self, conn: Connection, only: Iterable[int] | None = None) -> list[TableSpec]:
        """The tables not closed (``only``: those of them with these ids), by id."""
        query = select(s.room_tables).where(s.room_tables.c.closed.is_(False))
        if only is not None:
            query = query.where(s.room_tables.c.id.in_(list(only)))
        rows = conn.execute(query.order_by(s.room_tables.c.id)).all()
        fields = TableSpec.__dataclass_fields__
        return [TableSpec(**{k: row._mapping[k] for k in fields}) for row in rows]

    def open_table_ids(self, conn: Connection) -> list[int]:
        """The ids of the tables not closed, in order."""
        query = select(s.room_tables.c.id).where(s.room_tables.c.closed.is_(False))
        return [int(t) for t in conn.execute(query.order_by(s.room_tables.c.id)).scalars()]
