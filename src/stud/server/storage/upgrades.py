"""What a database made by an older room needs beyond new tables and columns.

:meth:`~stud.server.storage.database.Database.create_schema` adds what is missing; these
steps redo what an older shape cannot keep: a table whose key changed is made again from
what it is derived from, and rows an older room never wrote are written. Each step looks
at what it finds first, so running it on an up-to-date database changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, Final

from sqlalchemy import Connection, Engine, and_, exists, inspect, select

from stud.history import HistoryError, read_phh
from stud.server.storage import schema as s
from stud.server.storage.facts import imported_facts
from stud.server.storage.stats import add_to_rollups, store_facts

log = logging.getLogger(__name__)

CHUNK: Final = 2_000
"""Rows read and written at a time."""


def before_create(engine: Engine) -> bool:
    """Drop the stats rollup if it has no ``unit`` in its key (before money was kept apart
    by unit); True if it must be made again from the facts (:func:`after_create`)."""
    known = inspect(engine)
    if not known.has_table(s.player_rollup.name):
        return False
    if "unit" in {c["name"] for c in known.get_columns(s.player_rollup.name)}:
        return False
    with engine.begin() as conn:
        s.player_rollup.drop(conn)
    return True


def after_create(conn: Connection, rebuild_rollups: bool) -> None:
    """Make the rollup again if :func:`before_create` dropped it, then give each imported
    hand stored without its facts row (before imports counted in the stats) its row."""
    if rebuild_rollups:
        rows = 0
        for chunk in _chunks(conn, select(s.hand_facts)):
            add_to_rollups(conn, chunk)
            rows += len(chunk)
        log.info("stats rollup made again from %d facts rows", rows)
    _imported_facts(conn)


def _imported_facts(conn: Connection) -> None:
    hands, facts = s.imported_hands.c, s.hand_facts.c
    has_row = exists().where(
        and_(
            facts.source == "import",
            facts.hand_id == hands.id,
            facts.account_id == hands.account_id,
        )
    )
    missing = select(hands.id, hands.account_id, hands.imported_at, hands.phh).where(
        hands.hero.is_not(None), ~has_row
    )
    written = 0
    for chunk in _chunks(conn, missing):
        rows = []
        for hand in chunk:
            try:
                row = imported_facts(read_phh(hand["phh"]), float(hand["imported_at"]))
            except HistoryError as error:  # stored by an older reader: kept, not counted
                log.warning("imported hand %s has no stats: %s", hand["id"], error)
                continue
            if row is not None:
                rows.append({**row, "account_id": hand["account_id"], "hand_id": hand["id"]})
        store_facts(conn, rows)
        written += len(rows)
    if written:
        log.info("stats facts written for %d imported hands", written)


def _chunks(conn: Connection, query: Any) -> Iterator[list[dict[str, Any]]]:
    """The query's rows as mappings, CHUNK at a time, all read before any is written."""
    rows = [dict(row._mapping) for row in conn.execute(query)]
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]
