"""The web app: REST for the lobby, accounts and hand histories, and the websocket.

``/openapi.json`` documents the REST side; docs/protocol.md the websocket.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the dependency
# annotations at run time, and they name functions local to create_app.
import contextlib
import gc
import logging
import secrets
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from stud.game import variant
from stud.server.actors.bots import BOT_KINDS
from stud.server.actors.mailbox import Command
from stud.server.errors import Refusal, RestError, http_error, internal_error, retry_after
from stud.server.http.histories import hand_as_seen
from stud.server.http.language import router as language_router
from stud.server.http.origin import OriginCheck, foreign_origin
from stud.server.http.replay import router as replay_router
from stud.server.http.tournaments import add_tournament_routes
from stud.server.http.validation import validation_error
from stud.server.room.local import LocalCoordination
from stud.server.room.room import Coordinator, Room, RoomConfig
from stud.server.storage import Account, Database, TableSpec
from stud.server.trust.limits import SignupLimit
from stud.server.trust.logins import Busy, PasswordGuard
from stud.server.trust.names import account_name, check_text, name_key, table_name
from stud.server.trust.ratelimit import Throttled
from stud.server.ws.connection import ClientConnection
from stud.table import HandFactory, TableError

log = logging.getLogger("stud.server")

COOKIE = "stud_session"
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"

INDEX_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stud card room</title></head>
<body><h1>Stud card room</h1>
<p>The server is running. The lobby is at <a href="/api/tables">/api/tables</a>,
the REST API at <a href="/docs">/docs</a> (<a href="/openapi.json">openapi.json</a>),
and the websocket at <code>/ws</code> (see docs/protocol.md).</p></body></html>
"""


class Credentials(BaseModel):
    name: str = Field(min_length=3, max_length=20, examples=["alice"])
    password: str = Field(min_length=6, max_length=200)


GC_THRESHOLDS = (50_000, 20, 10)
"""The collector's thresholds while the room runs (Python's are 700, 10, 10).

With the default a young pass runs every 700 new containers, and objects that
live a hand (its state, events, views) survive two of them and reach the oldest
generation, whose full passes then come every few seconds and stop the event
loop for tens of milliseconds each, all tables with it: that was the p99 of a
busy room. 50,000 lets a hand's objects die young; measured at 250 tables
(bench_server, docs/protocol.md "Seventh round"): full passes 7 → 1 in a run,
collector time ×0.3, and the p99 with them. Memory grows by at most the young
generation's 50,000 containers.
"""


class NewTable(BaseModel):
    """A table to open. Game, stakes, size and rake are checked by the engine's own rules
    (``stud.game.TableConfig``), whose words a refusal (422) carries; the bounds here only
    keep numbers sane."""

    name: str = Field(max_length=200, description="1-40 printable characters, no line break")
    game: str = Field(max_length=16, examples=["stud", "stud8", "razz"])
    ante: int = Field(le=10**6)
    bring_in: int = Field(le=10**6)
    small_bet: int = Field(le=10**6)
    big_bet: int = Field(le=10**6)
    seats: int = Field(default=8, le=100)
    bots: int = Field(default=0, ge=0, le=8)
    min_buy_in: int | None = Field(default=None, ge=1, le=10**9)
    max_buy_in: int | None = Field(default=None, ge=1, le=10**9)
    rake_percent: float = Field(default=0.0, description="house cut of each pot")
    rake_cap: int | None = Field(default=None, le=10**9, description="at most this rake per hand")
    bot_kind: str = Field(default="strong", max_length=16, examples=["strong"])


class AccountOut(BaseModel):
    id: int
    name: str
    kind: str
    balance: int
    at_tables: int = Field(default=0, description="chips in front of the account at tables")


def create_app(
    db: Database, config: RoomConfig, hand_factory: HandFactory, redis_url: str | None = None
) -> FastAPI:
    """The app for one room; the room starts and stops with the app.

    With ``redis_url`` the room is shared with every process started the same way
    (on the same PostgreSQL database): see stud.server.cluster and docs/deploy.md.
    Without it nothing of the cluster (nor the redis package) is imported.
    """
    coordination: Coordinator = LocalCoordination
    if redis_url:
        from stud.server.cluster.coordination import RedisCoordination

        coordination = partial(RedisCoordination, redis_url=redis_url)
    room = Room(db=db, config=config, hand_factory=hand_factory, coordination=coordination)
    passwords = PasswordGuard(config.logins, room.buckets)
    signups = SignupLimit(config.limits, room.buckets)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.open_database()
        await room.start()
        # What start-up made (modules, the app, the tables) lives as long as the server:
        # out of the garbage collector's sight, so its full passes stay short.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await room.stop()
            passwords.close()
            db.close()

    app = FastAPI(
        title="Stud card room",
        version="1",
        summary="Seven Card Stud, Stud Hi/Lo and Razz: lobby, accounts and hand histories.",
        lifespan=lifespan,
    )
    app.state.room = room
    app.add_middleware(OriginCheck, allowed=config.allowed_origins)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
    store = db.store

    def address(request: Request) -> str:
        return request.client.host if request.client else ""

    async def logins_throttle(name: str, client: str) -> None:
        """429 ``too_many_logins`` with Retry-After when this name or address failed too often."""
        try:
            await passwords.admit(name, client)
        except Throttled as throttled:
            raise RestError(
                "too_many_logins", str(throttled), headers=retry_after(throttled.retry_after)
            ) from None

    async def signups_throttle(client: str) -> None:
        """429 ``too_many_signups`` with Retry-After when this address made too many accounts."""
        try:
            await signups.admit(client)
        except Throttled as throttled:
            raise RestError(
                "too_many_signups", str(throttled), headers=retry_after(throttled.retry_after)
            ) from None

    async def hashing(work: Any) -> Any:
        """Await a password hash or check; 503 with Retry-After when too many are waiting."""
        try:
            return await work
        except Busy as busy:
            raise RestError(
                "server_busy", str(busy), headers=retry_after(busy.retry_after)
            ) from None

    async def session_account(token: str | None) -> Account | None:
        if not token or len(token) > 200:
            return None
        return await db.read(lambda c: store.session_account(c, token))

    async def current(request: Request) -> Account | None:
        return await session_account(request.cookies.get(COOKIE))

    async def required(account: Annotated[Account | None, Depends(current)]) -> Account:
        if account is None:
            raise RestError("login_required", "log in or play as a guest first")
        return account

    async def open_session(response: Response, account: Account) -> AccountOut:
        token = secrets.token_urlsafe(32)
        await db.write(lambda c: store.create_session(c, account.id, token, config.session_seconds))
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(config.session_seconds),
            httponly=True,
            samesite="lax",
            path="/",
        )
        return await account_out(account)

    async def account_out(account: Account) -> AccountOut:
        balance, at_tables = await db.read(
            lambda c: (store.balance(c, account.id), store.wallet(c, account.id, "table"))
        )
        return AccountOut(
            id=account.id, name=account.name, kind=account.kind, balance=balance,
            at_tables=at_tables,
        )  # fmt: skip

    # -- accounts --------------------------------------------------------------------------

    @app.post("/api/register", tags=["accounts"])
    async def register(body: Credentials, request: Request, response: Response) -> AccountOut:
        """Create an account (with the room's starting play money) and log in.

        Names are NFKC-normalised and unique without regard to case; names the
        room uses itself (house, Bot…, Guest…) are reserved (docs/protocol.md).
        """
        try:
            name = account_name(body.name)
            password = check_text(body.password, "the password")
        except Refusal as refusal:
            raise RestError.of(refusal) from None
        await signups_throttle(address(request))
        encoded = await hashing(passwords.hash(password))

        def create(c: Any) -> Account:
            account = store.create_account(c, name, "user", encoded)
            store.grant(c, account.id, config.starting_balance)
            return account

        try:
            account = await db.write(create)
        except ValueError as error:  # the store's one refusal here: the name is taken
            raise RestError("name_taken", str(error)) from None
        await signups.made(address(request))
        return await open_session(response, account)

    @app.post("/api/register-guest", tags=["accounts"])
    async def register_guest(
        body: Credentials, account: Annotated[Account, Depends(required)]
    ) -> AccountOut:
        """A guest registers in place: a name and password for the same account, chips and hands.

        The name and password are checked as for ``/api/register``.
        """
        if account.kind != "guest":
            raise RestError("not_a_guest", "only a guest account can be registered in place")
        try:
            name = account_name(body.name)
            password = check_text(body.password, "the password")
        except Refusal as refusal:
            raise RestError.of(refusal) from None
        encoded = await hashing(passwords.hash(password))
        try:
            upgraded = await db.write(lambda c: store.upgrade_guest(c, account.id, name, encoded))
        except ValueError as error:  # a guest still (checked above): the name is taken
            raise RestError("name_taken", str(error)) from None
        room.rename(upgraded.id, upgraded.name)
        return await account_out(upgraded)

    @app.post("/api/login", tags=["accounts"])
    async def login(body: Credentials, request: Request, response: Response) -> AccountOut:
        """Log in. Failed logins are throttled per name and per address (429, Retry-After)."""
        try:
            check_text(body.name, "the name")
            check_text(body.password, "the password")
        except Refusal as refusal:
            raise RestError.of(refusal) from None
        key, client = name_key(body.name), address(request)
        await logins_throttle(key, client)
        found = await db.read(lambda c: store.account_by_name(c, key))
        encoded = None if found is None else found[1]
        if not await hashing(passwords.verify(encoded, body.password)) or found is None:
            await passwords.failed(key, client)
            raise RestError("wrong_password", "wrong name or password")
        return await open_session(response, found[0])

    @app.post("/api/guest", tags=["accounts"])
    async def guest(request: Request, response: Response) -> AccountOut:
        """Play at once under a generated name, with the starting play money."""
        await signups_throttle(address(request))

        def create(c: Any) -> Account:
            name = f"Guest-{secrets.token_hex(3)}"
            account = store.create_account(c, name, "guest")
            store.grant(c, account.id, config.starting_balance)
            return account

        account = await db.write(create)
        await signups.made(address(request))
        return await open_session(response, account)

    @app.post("/api/logout", tags=["accounts"])
    async def logout(request: Request, response: Response) -> dict[str, bool]:
        token = request.cookies.get(COOKIE)
        if token:
            await db.write(lambda c: store.delete_session(c, token))
        response.delete_cookie(COOKIE, path="/")
        return {"ok": True}

    @app.get("/api/me", tags=["accounts"])
    async def me(account: Annotated[Account, Depends(required)]) -> AccountOut:
        return await account_out(account)

    @app.get("/api/me/hands", tags=["hands"])
    async def my_hands(account: Annotated[Account, Depends(required)]) -> list[dict[str, Any]]:
        return await db.read(lambda c: store.hands_for_account(c, account.id))

    # -- lobby -----------------------------------------------------------------------------

    @app.get("/api/health", tags=["room"])
    async def health() -> dict[str, Any]:
        return {
            "ok": True,
            "tables": len(room.actors),
            "database": db.backend,
            "recovered": room.recovered,
            **room.health(),
        }

    @app.get("/api/tables", tags=["lobby"])
    async def tables(game: str | None = None) -> list[dict[str, Any]]:
        """The lobby: every table with its game, stakes, seats taken, average pot, hands/hour."""
        return [t for t in await room.lobby_all() if game is None or t["game"] == game]

    @app.post("/api/tables", tags=["lobby"], status_code=201)
    async def create_table(
        body: NewTable, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """Open a table (a few per account: docs/protocol.md); a 422 says what is wrong."""
        try:
            name = table_name(body.name)
        except Refusal as refusal:
            raise RestError.of(refusal) from None
        try:
            variant(body.game)
        except ValueError as error:
            raise RestError("unknown_game", str(error)) from None
        if body.bot_kind not in BOT_KINDS:
            raise RestError("unknown_bot_kind", f"no bots of kind {body.bot_kind!r}")
        spec = TableSpec(
            name=name,
            game=body.game,
            ante=body.ante,
            bring_in=body.bring_in,
            small_bet=body.small_bet,
            big_bet=body.big_bet,
            seats=body.seats,
            bots=max(0, min(body.bots, body.seats)),
            min_buy_in=body.min_buy_in or body.small_bet * 10,
            max_buy_in=body.max_buy_in or body.small_bet * 100,
            rake_percent=body.rake_percent,
            rake_cap=body.rake_cap,
            bot_kind=body.bot_kind,
        )
        try:
            actor = await room.create_table(spec, account)
        except Refusal as refusal:  # over the account's quota
            raise RestError.of(refusal) from None
        except ValueError as error:  # the engine's words on stakes, size or rake
            raise RestError("bad_table_settings", str(error)) from None
        return actor.lobby()

    @app.delete("/api/tables/{table_id}", tags=["lobby"])
    async def close_table(
        table_id: int, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """Close a table you opened: no new hand or player; everyone is cashed out now, or
        when the hand in progress ends; then it leaves the lobby."""
        handle, spec = room.table(table_id), room.spec(table_id)
        if handle is None or spec is None:
            raise RestError("no_table", "no such table")
        if spec.created_by != account.id:
            raise RestError("not_table_owner", "only the account that opened a table may close it")
        try:
            result = await handle.call(Command("close", account.id))
        except TableError as error:  # a shared room's table between two processes
            raise RestError("unavailable", str(error), headers=retry_after(1)) from None
        return {"ok": True, "table": table_id, "closing": bool(result["closing"])}

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def table(table_id: int) -> dict[str, Any]:
        """One table's lobby entry and what a spectator sees now."""
        try:
            entry = await room.table_entry(table_id)
        except TableError as error:  # a shared room's table between two processes
            raise RestError("unavailable", str(error), headers=retry_after(1)) from None
        if entry is None:
            raise RestError("no_table", "no such table")
        return entry

    @app.get("/api/tables/{table_id}/hands", tags=["hands"])
    async def table_hands(table_id: int) -> list[dict[str, Any]]:
        return await db.read(lambda c: store.hands_for_table(c, table_id))

    # The tournaments' lobby, registration and Sit & Gos (stud.server.http.tournaments).
    add_tournament_routes(app, room, current)

    # -- hand histories --------------------------------------------------------------------

    async def finished_hand(hand_id: int, account: Account | None) -> dict[str, Any]:
        """A finished or void hand, its texts cut to what ``account`` may see."""
        viewer = None if account is None else account.id
        # Read, and its texts written, on the read's worker thread: not on the event loop.
        record = await db.read(lambda c: hand_as_seen(store.hand(c, hand_id), viewer))
        if record is None or record["status"] == "running":
            raise RestError("no_hand", "no finished hand with that id")
        return record

    @app.get("/api/hands/{hand_id}", tags=["hands"])
    async def hand(
        hand_id: int, account: Annotated[Account | None, Depends(current)]
    ) -> dict[str, Any]:
        """A finished hand: players, result, and its PHH and PokerStars text.

        The texts show up cards, cards shown down and, to a player of the hand,
        that player's own down cards; no other card.
        """
        return await finished_hand(hand_id, account)

    def download(hand_id: int, text: str | None, suffix: str) -> PlainTextResponse:
        if not text:
            raise RestError("void_hand", "this hand has no history (it was void)")
        return PlainTextResponse(
            text if text.endswith("\n") else text + "\n",
            headers={"Content-Disposition": f'attachment; filename="hand-{hand_id}.{suffix}"'},
        )

    @app.get("/api/hands/{hand_id}/phh", tags=["hands"], response_class=PlainTextResponse)
    async def hand_phh(
        hand_id: int, account: Annotated[Account | None, Depends(current)]
    ) -> PlainTextResponse:
        """The hand as PHH, with only the cards the caller may see (others ``??``)."""
        return download(hand_id, (await finished_hand(hand_id, account))["phh"], "phh")

    @app.get("/api/hands/{hand_id}/pokerstars", tags=["hands"], response_class=PlainTextResponse)
    async def hand_pokerstars(
        hand_id: int, account: Annotated[Account | None, Depends(current)]
    ) -> PlainTextResponse:
        """The hand as PokerStars text; ``Dealt to`` shows the caller's own down cards."""
        return download(hand_id, (await finished_hand(hand_id, account))["pokerstars"], "txt")

    # The replayer's data (a separate module of the browser client's: stud.server.http.replay).
    app.include_router(replay_router)
    # The account's language for the browser client (stud.server.http.language).
    app.include_router(language_router)

    # -- the websocket ---------------------------------------------------------------------

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if foreign_origin(ws.headers, config.allowed_origins) is not None:
            # A page on another site may not use this browser's session (cross-site hijacking).
            await ws.close(code=1008)
            return
        account = await session_account(ws.cookies.get(COOKIE))
        await ws.accept()
        await ClientConnection(ws, room, account).run()

    # -- the browser client ----------------------------------------------------------------

    if (STATIC_DIR / "index.html").is_file():
        app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def index() -> HTMLResponse:
            return HTMLResponse(INDEX_HTML)

    return app
