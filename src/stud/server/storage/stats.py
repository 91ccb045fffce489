"""A player's stats, summed in the database from the hands' facts rows
(stud.server.storage.facts), and an account's own results by game and by session.

Another player's numbers count only the hands the viewer has a row in too (was dealt
into, or imported: an imported hand has only its importer's row), so nothing of a hand
the viewer was not in is ever summed for it. Every query is one indexed range of the
player's rows (the table is keyed by account first), joined for another player to the
viewer's rows by key: bench/bench_stats.py times them over 100,000 hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from sqlalchemy import Connection, and_, case, func, insert, select, text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from stud.server.storage import schema as s
from stud.server.storage.facts import FLAGS, ROOM_UNIT
from stud.server.storage.writes import UNREAD, insert_rows

SESSION_GAP: Final = 30 * 60.0
"""Seconds without a hand that end a session: the next hand starts another."""
MAX_SESSIONS: Final = 100
"""The most recent sessions an account's results list."""

_COLUMNS: Final = ("account_id", "source", "hand_id", "game", "at", "seat", *FLAGS, "net")
_TYPES: Final = {"source": "TEXT", "game": "TEXT", "at": "DOUBLE PRECISION"}
_INSERT_FACTS = insert(s.hand_facts)
_INSERT_FACTS_ARRAYS = text(
    f"INSERT INTO hand_facts ({', '.join(_COLUMNS)}) SELECT * FROM unnest("
    + ", ".join(f"CAST(:{c} AS {_TYPES.get(c, 'BIGINT')}[])" for c in _COLUMNS)
    + ")"
).execution_options(**{UNREAD: True})
"""A hand's facts rows in one statement, a column per array (PostgreSQL)."""


def store_facts(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Store facts rows (:func:`stud.server.storage.facts.hand_facts`) and add them to their
    accounts' rollups, in the caller's transaction: the room's after each hand, an
    import's with its hands (in any order of time). A row's ``unit``, if given, is what its
    ``net`` counts (an imported hand's money); the room's chips otherwise."""
    columns = [{c: row[c] for c in _COLUMNS} for row in rows]
    insert_rows(conn, columns, _COLUMNS, _INSERT_FACTS_ARRAYS, _INSERT_FACTS)
    add_to_rollups(conn, rows)


def add_to_rollups(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Add facts rows to their accounts' rollups (by unit, stretch and game)."""
    sums: dict[tuple[int, str, int, str], dict[str, Any]] = {}
    for row in rows:
        unit = str(row.get("unit", ROOM_UNIT))
        key = (int(row["account_id"]), unit, int(row["at"] // SESSION_GAP), str(row["game"]))
        known = sums.get(key)
        if known is None:
            sums[key] = {
                "account_id": key[0], "unit": unit, "stretch": key[2], "game": key[3],
                "start": row["at"], "end": row["at"], "hands": 1,
                **{c: row[c] for c in _SUMMED},
            }  # fmt: skip
            continue
        known["start"] = min(known["start"], row["at"])
        known["end"] = max(known["end"], row["at"])
        known["hands"] += 1
        for c in _SUMMED:
            known[c] += row[c]
    if sums:
        conn.execute(_upsert(conn.dialect.name), list(sums.values()))


_SUMMED: Final = (*FLAGS, "net")


def _upsert(dialect: str) -> Any:
    """Add rows to the rollup: a new (account, stretch, game) inserted, a known one summed."""
    table = s.player_rollup
    statement = (postgresql_insert if dialect == "postgresql" else sqlite_insert)(table)
    new = statement.excluded
    values: dict[str, Any] = {c: table.c[c] + new[c] for c in ("hands", *_SUMMED)}
    values["start"] = case((new.start < table.c.start, new.start), else_=table.c.start)
    values["end"] = case((new.end > table.c.end, new.end), else_=table.c.end)
    return statement.on_conflict_do_update(
        index_elements=["account_id", "unit", "stretch", "game"], set_=values
    )


def _sums(f: Any) -> list[Any]:
    """The count of rows and the sum of each flag of :data:`FLAGS`, over table alias ``f``."""
    return [func.count().label("hands")] + [
        func.coalesce(func.sum(f.c[flag]), 0).label(flag) for flag in FLAGS
    ]


def _rows(conn: Connection, account_id: int) -> int:
    f = s.hand_facts.c
    return int(conn.execute(select(func.count()).where(f.account_id == account_id)).scalar_one())


def player_stats(conn: Connection, account_id: int, viewer_id: int) -> dict[str, Any]:
    """``account_id``'s counts (``hands`` and each flag of :data:`FLAGS`) over the hands
    ``viewer_id`` has facts for too; over all its hands when it is the viewer's own.

    Another player's are a join of the two players' rows by hand, read from the side with
    fewer rows (counted first: a range of the key each), which the planners may not know.
    """
    f = s.hand_facts.alias("f")
    if viewer_id == account_id:
        query = select(*_sums(f)).where(f.c.account_id == account_id)
    else:
        v = s.hand_facts.alias("v")
        pair = and_(
            f.c.account_id == account_id,
            v.c.account_id == viewer_id,
            v.c.source == f.c.source,
            v.c.hand_id == f.c.hand_id,
        )
        first, then = (v, f) if _rows(conn, viewer_id) <= _rows(conn, account_id) else (f, v)
        query = select(*_sums(f)).select_from(first).join(then, pair)
    row = conn.execute(query).one()
    return {key: int(value) for key, value in row._mapping.items()}


def own_stats(conn: Connection, account_id: int) -> tuple[dict[str, int], dict[str, Any]]:
    """An account's own counts (as :func:`player_stats`: every hand, imported ones too) and
    its results: ``hands`` and ``net`` of the room's hands, and by game and by session
    (newest first, at most :data:`MAX_SESSIONS`; a session ends after :data:`SESSION_GAP`
    without a hand), each entry with the ``unit`` its ``net`` counts: the room's chips, or
    an imported hand's money (:func:`stud.server.storage.facts.money_unit`), never summed
    together.

    Read from the account's rollup (a row per money, game and stretch of time shorter than
    the gap, so no session ends inside one): stretches of one money less than the gap apart
    are one session, joined here.
    """
    r = s.player_rollup.c
    groups = conn.execute(
        select(s.player_rollup)
        .where(r.account_id == account_id)
        .order_by(r.stretch, r.unit, r.game)
    ).all()
    counts = {"hands": 0, **dict.fromkeys(FLAGS, 0)}
    games: dict[tuple[str, str], dict[str, Any]] = {}
    sessions: list[dict[str, Any]] = []
    last: dict[str, dict[str, Any]] = {}  # each money's latest session
    for group in groups:
        g = group._mapping
        for key in counts:
            counts[key] += int(g[key])
        unit = str(g["unit"])
        game = games.setdefault(
            (unit, g["game"]), {"game": g["game"], "unit": unit, "hands": 0, "net": 0}
        )
        game["hands"] += int(g["hands"])
        game["net"] += int(g["net"])
        start, end = float(g["start"]), float(g["end"])
        session = last.get(unit)
        if session is not None and start - session["end"] <= SESSION_GAP:
            session["start"] = min(session["start"], start)
            session["end"] = max(session["end"], end)
            session["hands"] += int(g["hands"])
            session["net"] += int(g["net"])
        else:
            last[unit] = {"unit": unit, "start": start, "end": end,
                          "hands": int(g["hands"]), "net": int(g["net"])}  # fmt: skip
            sessions.append(last[unit])
    sessions.sort(key=lambda x: (x["start"], x["unit"]))
    for number, session in enumerate(sessions, 1):
        session["session"] = number
    by_game = [games[key] for key in sorted(games, key=lambda k: (k[0] != ROOM_UNIT, k))]
    room = [g for g in by_game if g["unit"] == ROOM_UNIT]
    results = {
        "hands": sum(g["hands"] for g in room),
        "net": sum(g["net"] for g in room),
        "by_game": by_game,
        "by_session": sessions[::-1][:MAX_SESSIONS],
    }
    return counts, results
