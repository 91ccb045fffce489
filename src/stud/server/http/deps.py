"""What a REST endpoint is given, as FastAPI dependencies: the room, its database and
settings (from the app's state, set by :func:`stud.server.app.create_app`), the guards on
passwords and sign-ups, the caller's address, and the account its session cookie speaks
for (the one cookie → account step, which the websocket uses too)."""

# No ``from __future__ import annotations``: FastAPI reads these annotations at run time.
# Every dependency here is ``async``: FastAPI runs a plain function's in a worker thread.
import time
from typing import Annotated

from fastapi import Depends, Request

from stud.server.http.errors import RestError
from stud.server.room.room import Room, RoomConfig
from stud.server.storage import Account, Database
from stud.server.trust.limits import SignupLimit
from stud.server.trust.logins import PasswordGuard

COOKIE = "stud_session"
"""The session cookie: a random token, stored hashed (stud.server.storage.accounts)."""
MAX_TOKEN_LENGTH = 200


async def room_of(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


RoomDep = Annotated[Room, Depends(room_of)]


async def database_of(room: RoomDep) -> Database:
    return room.db


async def config_of(room: RoomDep) -> RoomConfig:
    return room.config


async def passwords_of(request: Request) -> PasswordGuard:
    passwords: PasswordGuard = request.app.state.passwords
    return passwords


async def signups_of(request: Request) -> SignupLimit:
    signups: SignupLimit = request.app.state.signups
    return signups


async def client_address(request: Request) -> str:
    return request.client.host if request.client else ""


DatabaseDep = Annotated[Database, Depends(database_of)]
ConfigDep = Annotated[RoomConfig, Depends(config_of)]
PasswordsDep = Annotated[PasswordGuard, Depends(passwords_of)]
SignupsDep = Annotated[SignupLimit, Depends(signups_of)]
ClientAddress = Annotated[str, Depends(client_address)]


async def session_account(db: Database, config: RoomConfig, token: str | None) -> Account | None:
    """The account of a session token, or None (no cookie, a forged, ended or expired one).

    A session ends once unused for ``config.session_idle_seconds``, and at the latest
    ``config.session_seconds`` after its login: each use moves its end on (written at
    most every tenth of the idle time, or hour, not on every request).
    """
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    found = await db.read(lambda c: db.store.session(c, token))
    if found is None:
        return None
    account, created_at, expires_at = found
    wanted = min(time.time() + config.session_idle_seconds, created_at + config.session_seconds)
    if wanted - expires_at > min(config.session_idle_seconds / 10, 3600.0):
        await db.write(lambda c: db.store.extend_session(c, token, wanted))
    return account


async def current_account(request: Request, db: DatabaseDep, config: ConfigDep) -> Account | None:
    """The account the request's session cookie speaks for, or None."""
    return await session_account(db, config, request.cookies.get(COOKIE))


CurrentAccount = Annotated[Account | None, Depends(current_account)]


def require(account: Account | None) -> Account:
    """``account``; 401 ``login_required`` without one."""
    if account is None:
        raise RestError("login_required", "log in or play as a guest first")
    return account


async def logged_in(account: CurrentAccount) -> Account:
    """The session's account; 401 without one (before the body is read)."""
    return require(account)


LoggedIn = Annotated[Account, Depends(logged_in)]
