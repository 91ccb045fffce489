"""The web app, assembled: the room's lifespan, the Origin check, the REST routers
(stud.server.http), the websocket and the browser client's files.

``/openapi.json`` documents the REST side; docs/protocol.md the websocket.
"""

# No ``from __future__ import annotations``: FastAPI reads the websocket's annotations.
import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

from fastapi import FastAPI, WebSocket
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from stud.server.http import (
    accounts,
    admin,
    equity,
    hands,
    health,
    imports,
    language,
    players,
    preferences,
    tables,
    topups,
    tournaments,
)
from stud.server.http.deps import COOKIE, session_account
from stud.server.http.errors import add_error_handlers
from stud.server.http.headers import SecurityHeaders
from stud.server.http.offload import Workers
from stud.server.http.origin import OriginCheck, foreign_origin
from stud.server.observe.logs import at
from stud.server.observe.metrics import unwatch_room, watch_room
from stud.server.room.local import LocalCoordination
from stud.server.room.room import Coordinator, Room, RoomConfig
from stud.server.storage import Database
from stud.server.trust.limits import SignupLimit
from stud.server.trust.logins import PasswordGuard
from stud.server.trust.sockets import SocketShares
from stud.server.ws.connection import ClientConnection
from stud.table import HandFactory

log = logging.getLogger("stud.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"

INDEX_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stud card room</title></head>
<body><h1>Stud card room</h1>
<p>The server is running. The lobby is at <a href="/api/tables">/api/tables</a>,
the REST API at <a href="/docs">/docs</a> (<a href="/openapi.json">openapi.json</a>),
and the websocket at <code>/ws</code> (see docs/protocol.md).</p></body></html>
"""

ROUTERS = (
    accounts,
    hands,
    equity,
    imports,
    health,
    tables,
    tournaments,
    language,
    admin,
    topups,
    players,
    preferences,
)
"""The REST API, a router per resource (stud.server.http)."""


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
    workers = Workers()
    sockets = SocketShares(config.sockets)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.open_database()
        await room.start()
        collector = watch_room(room, asyncio.get_running_loop())
        log.info(
            "room started: %d tables and %d tournaments run here (database: %s%s)",
            len(room.actors), len(room.tournaments.actors), db.backend,
            ", shared through Redis" if redis_url else "", extra=at(),
        )  # fmt: skip
        # What start-up made (modules, the app, the tables) lives as long as the server:
        # out of the garbage collector's sight, so its full passes stay short.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            unwatch_room(collector)
            log.info("room stopping", extra=at())
            await room.stop()
            passwords.close()
            workers.close()
            db.close()

    app = FastAPI(
        title="Stud card room",
        version="1",
        summary="Seven Card Stud, Stud Hi/Lo and Razz: lobby, accounts and hand histories.",
        lifespan=lifespan,
    )
    # What the routers' dependencies read (stud.server.http.deps).
    app.state.room = room
    app.state.passwords = passwords
    app.state.signups = signups
    app.state.workers = workers
    app.add_middleware(OriginCheck, allowed=config.allowed_origins)
    app.add_middleware(SecurityHeaders)  # on every answer, the refusals above included
    # Outermost: the client's address and scheme, from a listed proxy's headers only.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(config.forwarded_allow_ips))
    add_error_handlers(app)
    for resource in ROUTERS:
        app.include_router(resource.router)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if foreign_origin(ws.headers, config.allowed_origins, ws.url.scheme) is not None:
            # A page on another site may not use this browser's session (cross-site hijacking).
            await ws.close(code=1008)
            return
        account = await session_account(db, config, ws.cookies.get(COOKIE))
        await ws.accept()
        await ClientConnection(ws, room, account, sockets).run()

    # The browser client.
    if (STATIC_DIR / "index.html").is_file():
        app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def index() -> HTMLResponse:
            return HTMLResponse(INDEX_HTML)

    return app
