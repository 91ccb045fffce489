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

from sqlalchemy import Connection, and_, case, func, insert, literal_column, select, text

from stud.server.storage import schema as s
from stud.server.storage.facts import FLAGS
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
    """Store facts rows (:func:`stud.server.storage.facts.hand_facts`) in the caller's
    transaction: the room's as a hand's result is stored, an import's with its hands."""
    insert_rows(conn, rows, _COLUMNS, _INSERT_FACTS_ARRAYS, _INSERT_FACTS)


def player_stats(conn: Connection, account_id: int, viewer_id: int) -> dict[str, Any]:
    """``account_id``'s counts (``hands`` and each flag of :data:`FLAGS`) over the hands
    ``viewer_id`` has facts for too; over all its hands when it is the viewer's own."""
    f = s.hand_facts.alias("f")
    columns = [func.count().label("hands")]
    columns += [func.coalesce(func.sum(f.c[flag]), 0).label(flag) for flag in FLAGS]
    query = select(*columns).select_from(f).where(f.c.account_id == account_id)
    if viewer_id != account_id:
        v = s.hand_facts.alias("v")
        query = query.join(
            v,
            and_(
                v.c.account_id == viewer_id,
                v.c.source == f.c.source,
                v.c.hand_id == f.c.hand_id,
            ),
        )
    row = conn.execute(query).one()
    return {key: int(value) for key, value in row._mapping.items()}


def own_results(conn: Connection, account_id: int) -> dict[str, Any]:
    """An account's own chips won or lost: in all, by game, and by session (newest first,
    at most :data:`MAX_SESSIONS`; a session ends after :data:`SESSION_GAP` without a hand)."""
    f = s.hand_facts.c
    mine = f.account_id == account_id
    games = conn.execute(
        select(f.game, func.count(), func.coalesce(func.sum(f.net), 0))
        .where(mine)
        .group_by(f.game)
        .order_by(f.game)
    ).all()
    by_game = [{"game": g, "hands": int(n), "net": int(net)} for g, n, net in games]
    previous = func.lag(f.at).over(order_by=(f.at, f.hand_id))
    gaps = (
        select(
            f.at,
            f.net,
            case((f.at - previous <= SESSION_GAP, 0), else_=1).label("fresh"),
        )
        .where(mine)
        .subquery()
    )
    numbered = select(
        gaps.c.at,
        gaps.c.net,
        func.sum(gaps.c.fresh).over(order_by=gaps.c.at, rows=(None, 0)).label("session"),
    ).subquery()
    session = literal_column("session")
    sessions = conn.execute(
        select(
            numbered.c.session.label("session"),
            func.min(numbered.c.at),
            func.max(numbered.c.at),
            func.count(),
            func.sum(numbered.c.net),
        )
        .group_by(numbered.c.session)
        .order_by(session.desc())
        .limit(MAX_SESSIONS)
    ).all()
    by_session = [
        {"session": int(n), "start": float(a), "end": float(b), "hands": int(c), "net": int(net)}
        for n, a, b, c, net in sessions
    ]
    return {
        "hands": sum(g["hands"] for g in by_game),
        "net": sum(g["net"] for g in by_game),
        "by_game": by_game,
        "by_session": by_session,
    }
