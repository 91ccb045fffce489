"""REST for accounts: register, play as a guest, register a guest in place, log in and out
(here, or everywhere), and the account itself (its balance and the chips it has at tables).

Failed logins are throttled per name and client and per address, new accounts per address,
and password hashing is bounded (stud.server.trust): each answers 429 or 503 with
Retry-After. Every login, registration and guest's registration in place gets a new
session token and ends the one the browser held, so a token planted in a browser before
its owner logs in is worth nothing; the cookie is ``Secure`` when the request came over
HTTPS (directly, or through a listed proxy) or the room says so.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
import secrets
import time
from collections.abc import Awaitable
from typing import TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import Connection

from stud.server.errors import Refusal
from stud.server.http.deps import (
    COOKIE,
    ClientAddress,
    ConfigDep,
    DatabaseDep,
    LoggedIn,
    PasswordsDep,
    RoomDep,
    SignupsDep,
)
from stud.server.http.errors import RestError, retry_after
from stud.server.observe.metrics import LOGIN_THROTTLES
from stud.server.room.room import RoomConfig
from stud.server.storage import Account, Database
from stud.server.storage import moderation as desk_db
from stud.server.storage.topups import top_up_state
from stud.server.trust.limits import SignupLimit
from stud.server.trust.logins import Busy, PasswordGuard
from stud.server.trust.names import (
    ACCOUNT_NAME_MAX,
    ACCOUNT_NAME_MIN,
    account_name,
    check_text,
    name_key,
)
from stud.server.trust.passwords import check_new_password
from stud.server.trust.ratelimit import Throttled

router = APIRouter(tags=["accounts"])

T = TypeVar("T")


class Credentials(BaseModel):
    name: str = Field(
        min_length=ACCOUNT_NAME_MIN, max_length=ACCOUNT_NAME_MAX, examples=["alice", "玩家小明"]
    )
    password: str = Field(min_length=6, max_length=200)


class AccountOut(BaseModel):
    id: int
    name: str
    kind: str
    balance: int
    at_tables: int = Field(default=0, description="chips in front of the account at tables")
    role: str = Field(default="player", description="player, moderator or admin (docs/admin.md)")
    top_up: dict[str, object] | None = Field(
        default=None, description="free play chips: GET /api/me/top-up's answer"
    )


async def logins_throttle(passwords: PasswordGuard, name: str, client: str) -> None:
    """429 ``too_many_logins`` with Retry-After when this name or address failed too often."""
    try:
        await passwords.admit(name, client)
    except Throttled as throttled:
        LOGIN_THROTTLES.inc()
        raise RestError(
            "too_many_logins", str(throttled), headers=retry_after(throttled.retry_after)
        ) from None


async def signups_throttle(signups: SignupLimit, client: str) -> None:
    """429 ``too_many_signups`` with Retry-After when this address made too many accounts."""
    try:
        await signups.admit(client)
    except Throttled as throttled:
        raise RestError(
            "too_many_signups", str(throttled), headers=retry_after(throttled.retry_after)
        ) from None


async def hashing(work: Awaitable[T]) -> T:
    """Await a password hash or check; 503 with Retry-After when too many are waiting."""
    try:
        return await work
    except Busy as busy:
        raise RestError("server_busy", str(busy), headers=retry_after(busy.retry_after)) from None


def checked_credentials(body: Credentials) -> tuple[str, str]:
    """The name and password of a new account, as the room's rules allow them (else 422)."""
    try:
        name = account_name(body.name)
        return name, check_new_password(check_text(body.password, "the password"), name)
    except Refusal as refusal:
        raise RestError.of(refusal) from None


async def account_out(db: Database, config: RoomConfig, account: Account) -> AccountOut:
    store = db.store
    balance, at_tables, member, top_up = await db.read(
        lambda c: (
            store.balance(c, account.id),
            store.wallet(c, account.id, "table"),
            desk_db.member(c, account.id),
            top_up_state(c, account.id, account.kind, config.top_ups),
        )
    )
    role = "player" if member is None else member.role
    return AccountOut(
        id=account.id, name=account.name, kind=account.kind, balance=balance,
        at_tables=at_tables, role=role, top_up=top_up.public(time.time()),
    )  # fmt: skip


async def open_session(
    db: Database, config: RoomConfig, request: Request, response: Response, account: Account
) -> AccountOut:
    """A new session for ``account``, its cookie on ``response``; the session the request's
    cookie held (if any) ends."""
    token = secrets.token_urlsafe(32)
    old = request.cookies.get(COOKIE)
    lasts = min(config.session_idle_seconds, config.session_seconds)

    def rotate(c: Connection) -> None:
        if old:
            db.store.delete_session(c, old)
        db.store.create_session(c, account.id, token, lasts)

    await db.write(rotate)
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(config.session_seconds),
        httponly=True,
        samesite="lax",
        path="/",
        secure=config.secure_cookies or request.url.scheme == "https",
    )
    return await account_out(db, config, account)


async def refuse_banned(db: Database, account: Account) -> None:
    """403 ``account_banned`` (with ``until``: a UTC time, or ``forever``) for a banned account."""
    member = await db.read(lambda c: desk_db.member(c, account.id))
    if member is not None and member.banned(time.time()):
        until = desk_db.until_words(member.banned_until)
        raise RestError("account_banned", "this account is banned", {"until": until})


# -- the routes --------------------------------------------------------------------------


@router.post("/api/register")
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    db: DatabaseDep,
    config: ConfigDep,
    passwords: PasswordsDep,
    signups: SignupsDep,
    client: ClientAddress,
) -> AccountOut:
    """Create an account (with the room's starting play money) and log in.

    Names are NFKC-normalised and unique without regard to case; names the
    room uses itself (house, Bot…, Guest…) are reserved (docs/rest.md).
    """
    name, password = checked_credentials(body)
    await signups_throttle(signups, client)
    encoded = await hashing(passwords.hash(password))
    store = db.store

    def create(c: Connection) -> Account:
        account = store.create_account(c, name, "user", encoded)
        store.grant(c, account.id, config.starting_balance)
        return account

    try:
        account = await db.write(create)
    except ValueError as error:  # the store's one refusal here: the name is taken
        raise RestError("name_taken", str(error)) from None
    await signups.made(client)
    return await open_session(db, config, request, response, account)


@router.post("/api/register-guest")
async def register_guest(
    body: Credentials, request: Request, response: Response, account: LoggedIn, room: RoomDep,
    passwords: PasswordsDep,
) -> AccountOut:  # fmt: skip
    """A guest registers in place: a name and password for the same account, chips and hands.

    The name and password are checked as for ``/api/register``. The guest's session token
    ends and a new one is set (the open websocket stays the account's).
    """
    if account.kind != "guest":
        raise RestError("not_a_guest", "only a guest account can be registered in place")
    name, password = checked_credentials(body)
    encoded = await hashing(passwords.hash(password))
    db = room.db
    try:
        upgraded = await db.write(lambda c: db.store.upgrade_guest(c, account.id, name, encoded))
    except ValueError as error:  # a guest still (checked above): the name is taken
        raise RestError("name_taken", str(error)) from None
    room.rename(upgraded.id, upgraded.name)
    return await open_session(db, room.config, request, response, upgraded)


@router.post("/api/login")
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    db: DatabaseDep,
    config: ConfigDep,
    passwords: PasswordsDep,
    client: ClientAddress,
) -> AccountOut:
    """Log in. Failed logins are throttled per name and client, per address, and softly per
    name over all addresses, never for a client without failures (429, Retry-After)."""
    try:
        check_text(body.name, "the name")
        check_text(body.password, "the password")
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    key = name_key(body.name)
    await logins_throttle(passwords, key, client)
    found = await db.read(lambda c: db.store.account_by_name(c, key))
    encoded = None if found is None else found[1]
    if not await hashing(passwords.verify(encoded, body.password)) or found is None:
        await passwords.failed(key, client)
        raise RestError("wrong_password", "wrong name or password")
    await refuse_banned(db, found[0])
    return await open_session(db, config, request, response, found[0])


@router.post("/api/guest")
async def guest(
    request: Request, response: Response, db: DatabaseDep, config: ConfigDep,
    signups: SignupsDep, client: ClientAddress,
) -> AccountOut:  # fmt: skip
    """Play at once under a generated name, with the starting play money."""
    await signups_throttle(signups, client)
    store = db.store

    def create(c: Connection) -> Account:
        name = f"Guest-{secrets.token_hex(3)}"
        account = store.create_account(c, name, "guest")
        store.grant(c, account.id, config.starting_balance)
        return account

    account = await db.write(create)
    await signups.made(client)
    return await open_session(db, config, request, response, account)


@router.post("/api/logout")
async def logout(request: Request, response: Response, db: DatabaseDep) -> dict[str, bool]:
    token = request.cookies.get(COOKIE)
    if token:
        await db.write(lambda c: db.store.delete_session(c, token))
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.post("/api/logout-everywhere")
async def logout_everywhere(account: LoggedIn, response: Response, room: RoomDep) -> dict[str, int]:
    """End every session of the account (each browser, each device) and close its websockets
    on this process: a stolen cookie stops working. ``sessions``: how many ended."""
    db = room.db
    ended = await db.write(lambda c: db.store.delete_sessions(c, account.id))
    for connection in room.connections_of(account.id):
        log_out = getattr(connection, "log_out", None)  # a websocket of this process
        if log_out is not None:
            log_out()
    response.delete_cookie(COOKIE, path="/")
    return {"sessions": ended}


@router.get("/api/me")
async def me(account: LoggedIn, db: DatabaseDep, config: ConfigDep) -> AccountOut:
    return await account_out(db, config, account)
