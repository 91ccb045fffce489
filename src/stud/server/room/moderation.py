"""The operator's desk in the running room: bans and mutes carried out, and the console's
requests (``stud admin``) served.

The console works on the database alone; what needs the running room (closing a table,
calling a tournament off, a banned player's seats) reaches it through the database: the
console writes a request into ``admin_queue`` and every process of the room looks there
each :data:`POLL_SECONDS` (a read, off the event loop), serving the requests for the tables
and tournaments it runs. The same look refreshes who is banned and muted, so a ban made by
the console or by another process of a shared room is carried out here too: a banned
account's connections are closed, its seats are given up (a hand in progress is folded as
its turn comes and its stack cashed out when the hand ends), its waiting-list places and
registrations in tournaments not started yet are dropped (the buy-in refunded).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.server.actors.table import TableActor
from stud.server.room.coordination import Handle
from stud.server.room.desk import TournamentDesk
from stud.server.storage import Database
from stud.server.storage import moderation as desk_db
from stud.server.storage.outage import unavailable
from stud.server.wire import dumps
from stud.table import TableError

log = logging.getLogger("stud.server")

POLL_SECONDS = 1.0
"""How often the room looks at the database for bans, mutes and the console's requests."""


class ModeratedRoom(Protocol):
    """What the moderation uses of its room (:class:`stud.server.room.room.Room`)."""

    @property
    def db(self) -> Database: ...

    @property
    def actors(self) -> dict[int, TableActor]: ...

    @property
    def tournaments(self) -> TournamentDesk: ...

    def table(self, table_id: int) -> Handle | None: ...

    def owns(self, table_id: int) -> bool: ...

    def connections_of(self, account_id: int) -> list[Watcher]: ...


class Moderation:
    """Who is banned and muted, as this process last read it, and what it does about it."""

    def __init__(self, room: ModeratedRoom) -> None:
        self.room = room
        self.banned: dict[int, float | None] = {}
        self.muted: dict[int, float] = {}
        self._task: asyncio.Task[None] | None = None

    # -- chat (stud.server.actors.chat.ChatGuard) ------------------------------------------

    def muted_until(self, account_id: int) -> float | None:
        until = self.muted.get(account_id)
        return until if until is not None and until > time.time() else None

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._poll(), name="stud-moderation")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _poll(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception as error:  # the next look tries again
                if unavailable(error):  # the database is away: the tables say so already
                    log.warning("moderation: no look at bans and requests (the database is away)")
                else:
                    log.exception("moderation: the look at bans and requests failed")
            await asyncio.sleep(POLL_SECONDS)

    async def sweep(self) -> None:
        """Read bans, mutes and requests; carry the bans out; serve the requests."""
        db = self.room.db
        now = time.time()
        (self.banned, self.muted), requests = await db.read(
            lambda c: (desk_db.restrictions(c, now), desk_db.pending(c))
        )
        if self.banned:
            self.enforce(set(self.banned))
        for request in requests:
            await self._serve(*request)

    # -- bans and mutes made here (the admin page): at once, not at the next look ----------

    def banned_now(self, account_id: int, until: float | None) -> None:
        self.banned[account_id] = until
        self.enforce({account_id})

    def unbanned_now(self, account_id: int) -> None:
        self.banned.pop(account_id, None)

    def muted_now(self, account_id: int, until: float | None) -> None:
        if until is None:
            self.muted.pop(account_id, None)
        else:
            self.muted[account_id] = until

    def enforce(self, banned: set[int]) -> None:
        """End the banned accounts' connections here; give up their seats and places here
        (a seat once: a player already leaving is left to finish the hand)."""
        for account_id in banned:
            connections = self.room.connections_of(account_id)
            if not connections:
                continue
            until = desk_db.until_words(self.banned.get(account_id))
            notice = dumps(
                {"type": "error", "code": "account_banned", "message": "this account is banned",
                 "params": {"until": until}}
            )  # fmt: skip
            for connection in connections:
                connection.send(notice)
                end = getattr(connection, "end", None)  # a websocket (stud.server.ws.connection)
                if end is not None:
                    end()
        for actor in list(self.room.actors.values()):
            if actor.closed or not self.room.owns(actor.id):
                continue
            for _, player in actor.table.players():
                if player.id in banned and not player.leaving:
                    actor.tell(Command("leave", player.id))
            if actor.waiting:
                for account_id in [a for a in banned if a in actor.waiting]:
                    actor.tell(Command("unwait", account_id))
        for tourney in list(self.room.tournaments.actors.values()):
            if tourney.t.state == "registering":
                for account_id in banned & set(tourney.t.entrants):
                    tourney.tell(Command("unregister", account_id))

    # -- tables and tournaments ------------------------------------------------------------

    async def close_table(self, table_id: int) -> dict[str, Any]:
        """Close a cash table wherever it runs: everyone is cashed out now, or when the hand in
        progress ends (TableError ``no_table``; ``unavailable`` while it moves)."""
        handle = self.room.table(table_id)
        if handle is None:
            raise TableError("no_table", f"there is no open table {table_id}")
        result = await handle.call(Command("close"))
        return {"table": table_id, "closing": bool(result["closing"])}

    async def cancel_tournament(self, tournament_id: int) -> dict[str, Any]:
        """Call a tournament off wherever it runs (TournamentActor.call_off)."""
        handle = self.room.tournaments.handle(tournament_id)
        if handle is None:
            raise TableError("no_tournament", f"there is no tournament {tournament_id}")
        result: dict[str, Any] = await handle.call(Command("call_off"))
        return {"tournament": tournament_id, **result}

    async def _serve(self, request_id: int, action: str, target: int) -> None:
        """One console request: served here if this process runs its table or tournament
        (or nothing of the room has it), else left for the process that does."""
        if action == "close_table":
            runs_here = target in self.room.actors and self.room.owns(target)
            if not runs_here and self.room.table(target) is not None:
                return  # another process of a shared room runs it
        elif action == "cancel_tournament":
            desk = self.room.tournaments
            runs_here = target in desk.actors and desk.owns(target)
            if not runs_here and desk.handle(target) is not None:
                return
        db = self.room.db
        if not await db.write(lambda c: desk_db.claim(c, request_id)):
            return  # another process took it
        try:
            if action == "close_table":
                result = await self.close_table(target)
            elif action == "cancel_tournament":
                result = await self.cancel_tournament(target)
            else:
                result = {"error": "unknown_action", "message": f"unknown action {action!r}"}
        except TableError as error:
            result = {"error": error.code, "message": str(error)}
        log.info("moderation: request %s (%s %s) served: %s", request_id, action, target, result)
        await db.write(lambda c: desk_db.done(c, request_id, result))
