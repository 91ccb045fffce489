"""A player's private notes on other accounts: a text and a colour tag each, seen by the
account that wrote them and nobody else (every query is keyed by the owner)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from stud.server.storage import schema as s


def note(conn: Connection, owner_id: int, account_id: int) -> dict[str, Any] | None:
    """``owner_id``'s note on ``account_id``, or None."""
    n = s.player_notes.c
    row = conn.execute(
        select(n.text, n.color, n.updated_at).where(
            n.owner_id == owner_id, n.account_id == account_id
        )
    ).first()
    return None if row is None else dict(row._mapping)


def notes(conn: Connection, owner_id: int) -> list[dict[str, Any]]:
    """Every note ``owner_id`` keeps, with the name of the account each is on."""
    n = s.player_notes.c
    rows = conn.execute(
        select(n.account_id, s.accounts.c.name, n.text, n.color, n.updated_at)
        .join(s.accounts, s.accounts.c.id == n.account_id)
        .where(n.owner_id == owner_id)
        .order_by(n.account_id)
    ).all()
    return [dict(r._mapping) for r in rows]


def set_note(conn: Connection, owner_id: int, account_id: int, text: str, color: str) -> None:
    """Keep ``owner_id``'s note on ``account_id``; an empty text and no colour remove it."""
    n = s.player_notes.c
    mine = (n.owner_id == owner_id) & (n.account_id == account_id)
    if not text and not color:
        conn.execute(delete(s.player_notes).where(mine))
        return
    values = {"text": text, "color": color, "updated_at": time.time()}
    if conn.execute(update(s.player_notes).where(mine).values(**values)).rowcount == 0:
        conn.execute(
            insert(s.player_notes).values(owner_id=owner_id, account_id=account_id, **values)
        )
