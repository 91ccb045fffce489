"""REST for accounts: register, play as a guest, register a guest in place, log in and out,
and the account itself (its balance and the chips it has at tables).

Failed logins are throttled per name and per address, new accounts per address, and
password hashing is bounded (stud.server.trust): each answers 429 or 503 with Retry-After.
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
        return account_name(body.name), check_text(body.password, "the password")
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
    db: Database, config: RoomConfig, response: Response, account: Account
) -> AccountOut:
    """A new session for ``account``: its cookie on ``response``."""
    token = secrets.token_urlsafe(32)
    await db.write(lambda c: db.store.create_session(c, account.id, token, config.session_seconds))
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(config.session_seconds),
        httponly=True,
        samesite="lax",
        path="/",
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
    return await open_session(db, config, response, account)


@router.post("/api/register-guest")
async def register_guest(
    body: Credentials, account: LoggedIn, room: RoomDep, passwords: PasswordsDep
) -> AccountOut:
    """A guest registers in place: a name and password for the same account, chips and hands.

    The name and password are checked as for ``/api/register``.
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
    return await account_out(db, room.config, upgraded)


@router.post("/api/login")
async def login(
    body: Credentials,
    response: Response,
    db: DatabaseDep,
    config: ConfigDep,
    passwords: PasswordsDep,
    client: ClientAddress,
) -> AccountOut:
    """Log in. Failed logins are throttled per name and per address (429, Retry-After)."""
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
    return await open_session(db, config, response, found[0])


@router.post("/api/guest")
async def guest(
    response: Response, db: DatabaseDep, config: ConfigDep, signups: SignupsDep,
    client: ClientAddress,
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
    return await open_session(db, config, response, account)


@router.post("/api/logout")
async def logout(request: Request, response: Response, db: DatabaseDep) -> dict[str, bool]:
    token = request.cookies.get(COOKIE)
    if token:
        await db.write(lambda c: db.store.delete_session(c, token))
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/api/me")
async def me(account: LoggedIn, db: DatabaseDep, config: ConfigDep) -> AccountOut:
    return await account_out(db, config, account)
