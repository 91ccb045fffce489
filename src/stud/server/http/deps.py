"""The account a REST request speaks for, from its session cookie (for routers kept apart
from :mod:`stud.server.app`: the replayer's data, the account's language)."""

from __future__ import annotations

from fastapi import Request

from stud.server.storage import Account

SESSION_COOKIE = "stud_session"
MAX_TOKEN_LENGTH = 200


async def request_account(request: Request) -> Account | None:
    """The session's account, or None (no cookie, a forged or expired one)."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    db = request.app.state.room.db
    account: Account | None = await db.read(lambda c: db.store.session_account(c, token))
    return account
