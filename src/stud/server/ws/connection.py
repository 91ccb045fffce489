"""One websocket client: reads its messages, checks them, sends it its own views.

Each message is tied to the account the session cookie named when the socket
opened; a message can only ever act for that account. Messages are checked
(size, JSON, shape, rate) before they reach a table; a refused one gets an
``error`` reply. The rate is the client's, not the socket's: every socket of an
account and of an address draws on one budget, and an account or address holding
as many sockets as it may is refused (stud.server.trust.sockets). A flooding
client is slowed, then disconnected; one that cannot keep up with its outgoing
messages is dropped rather than let it hold a table back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from stud.server.actors.mailbox import Command
from stud.server.errors import Refusal
from stud.server.observe.logs import refused
from stud.server.observe.metrics import ACTION_SECONDS, CLIENTS
from stud.server.room.room import Room, TableHandle
from stud.server.storage import Account
from stud.server.trust.sockets import Share, SocketShares
from stud.server.wire import dumps
from stud.server.ws.protocol import ProtocolError, parse, tournament_table
from stud.server.ws.transport import batches_of, send_now_of, turn_of
from stud.table import TableError

log = logging.getLogger("stud.server")

OUTBOX_LIMIT = 2000
POLICY_VIOLATION = 1008


class ClientConnection:
    """The server's side of one websocket."""

    def __init__(
        self,
        websocket: WebSocket,
        room: Room,
        account: Account | None,
        shares: SocketShares | None = None,
    ) -> None:
        self.websocket = websocket
        self.room = room
        self.account = account
        self.account_id: int | None = None if account is None else account.id
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.tables: set[int] = set()
        self.tournaments: set[int] = set()
        """Tournaments this connection watches, or watches a table of."""
        self.shares = shares or SocketShares()
        """The room's sockets and budgets (a connection alone, in a test, has its own)."""
        self.share: Share | None = None
        """The budgets this socket draws on, once it is admitted."""
        self.strikes = 0
        """Messages this socket sent over its budgets."""
        self.closed = False
        self._last_slow_notice = 0.0
        self._send_now = send_now_of(websocket.scope)
        self._batches = batches_of(websocket.scope)
        """Whether a turn's messages reach this client as one frame (it asked: ``?batch=1``)."""
        self._writing = False  # the writer holds a message it has not handed on yet
        self._turn = turn_of(websocket.scope)
        """This turn's frame to the client, once begun (stud.server.ws.transport.turn_of)."""

    def send(self, text: str) -> None:
        """Send a message to this client, in order; drop the client if it has fallen far behind.

        While the socket takes data and nothing waits before it, the message goes
        straight to the server's write queue (``stud.server.ws.transport``); otherwise
        it waits in the outbox for the writer task, which waits for the socket.
        """
        if self.closed:
            return
        turn = self._turn
        if turn:  # this turn's frame has begun: the message joins it (most of a step's sends)
            turn.append(text)
            return
        if (
            self._send_now is not None
            and not self._writing
            and self.outbox.empty()
            and self._send_now(text)
        ):
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            log.warning("dropping a client that does not read its messages")
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def send_many(self, texts: list[str]) -> None:
        """Send several messages in order, exactly as :meth:`send` of each would (a table's
        step: its events and state in one call from the actor, not one per message)."""
        turn = self._turn
        if turn and not self.closed:  # this turn's frame has begun: they all join it
            turn.extend(texts)
            return
        for index, text in enumerate(texts):
            self.send(text)
            turn = self._turn
            if turn and not self.closed:  # the first went at once: the rest join its frame
                turn.extend(texts[index + 1 :])
                return

    def reply(self, message: dict[str, Any], ref: Any = None) -> None:
        if ref is not None:
            message["id"] = ref
        self.send(dumps(message))

    def error(self, code: str, text: str, ref: Any = None, params: Any = None) -> None:
        refused(code)
        message: dict[str, Any] = {"type": "error", "code": code, "message": text}
        if params:
            message["params"] = params  # what the client's words need (chat_muted: until)
        self.reply(message, ref)

    def end(self) -> None:
        """Close this connection (its account was banned: stud.server.room.moderation)."""
        self.closed = True
        self.outbox.put_nowait(None)

    def log_out(self) -> None:
        """The account logged out everywhere: say so, then close once what is queued is sent
        (the session that opened this socket has ended)."""
        self.error("logged_out", "you logged out everywhere: this connection is closed")
        self.closed = True
        self.outbox.put_nowait(None)

    async def _writer(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                break
            self._writing = True
            try:
                await self.websocket.send_text(text)
            finally:
                self._writing = False
        with contextlib.suppress(Exception):
            await self.websocket.close(POLICY_VIOLATION)

    async def run(self) -> None:
        client = self.websocket.client
        try:
            self.share = self.shares.join(self.account_id, client.host if client else "")
        except Refusal as refusal:  # a fair share: this client holds as many sockets as it may
            with contextlib.suppress(Exception):
                await self.websocket.send_text(
                    dumps({"type": "error", "code": refusal.code, "message": str(refusal)})
                )
                await self.websocket.close(POLICY_VIOLATION, refusal.code)
            return
        try:
            await self._serve()
        finally:
            self.shares.leave(self.share)

    async def _serve(self) -> None:
        writer = asyncio.create_task(self._writer())
        self.room.connected(self)
        CLIENTS.inc()
        self.reply(
            {
                "type": "welcome",
                "protocol": 2,
                "batch": self._batches,
                "account": None if self.account is None else self.account.public(),
                "server_time": time.time(),
            }
        )
        try:
            while not self.closed:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                raw = text if text is not None else message.get("bytes") or b""
                if not await self._admit():
                    break
                await self._handle(raw)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.closed = True
            CLIENTS.dec()
            for table_id in self.tables:
                actor = self.room.table(table_id)
                if actor is not None:
                    actor.tell(Command("disconnect", self.account_id, watcher=self))
            for tournament_id in self.tournaments:
                desk_actor = self.room.tournaments.handle(tournament_id)
                if desk_actor is not None:
                    desk_actor.tell(Command("disconnect", self.account_id, watcher=self))
            self.room.disconnected(self)
            self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()

    async def _admit(self) -> bool:
        """Rate limit: over budget, the message is dropped and reading pauses; too often, close."""
        assert self.share is not None
        delay = self.share.take(time.monotonic())
        if delay == 0.0:
            return True
        self.strikes += 1
        if self.strikes > self.room.config.flood_strikes:
            self.error("flood", "too many messages: disconnecting")
            self.closed = True
            return False
        now = time.monotonic()
        if now - self._last_slow_notice > 0.5:
            self._last_slow_notice = now
            self.error("rate_limited", "too many messages: slow down (message dropped)")
        await asyncio.sleep(min(delay, 1.0))
        return True

    async def _handle(self, raw: str | bytes) -> None:
        try:
            message = parse(raw)
        except ProtocolError as error:
            self.error(error.code, str(error), error.ref)
            return
        kind, fields, ref = message.type, message.fields, message.ref
        if kind == "ping":
            self.reply({"type": "pong", "server_time": time.time()}, ref)
            return
        if kind in ("watch_tournament", "unwatch_tournament"):
            await self._watch_tournament(kind, int(fields["tournament"]), ref)
            return
        at = tournament_table(fields["table"])
        if at is not None:
            await self._at_tournament_table(kind, at, fields, ref)
            return
        table_id = int(fields["table"])
        actor = self.room.table(table_id)
        if actor is None:
            self.error("no_table", f"there is no table {table_id}", ref)
            return
        if kind in ("watch", "unwatch"):
            try:
                await self._watch(actor, kind, fields.get("since"), ref)
            except TableError as error:  # a shared room's table whose process did not answer
                self.error(error.code, str(error), ref)
            return
        if self.account_id is None:
            self.error("login_required", "log in or play as a guest first", ref)
            return
        received = time.perf_counter()
        try:
            result = await actor.call(Command(kind, self.account_id, args=fields, watcher=self))
        except TableError as error:
            self.error(error.code, str(error), ref, getattr(error, "params", None))
            return
        if kind == "act":  # its events are sent (or queued to send) when the call returns
            ACTION_SECONDS.observe(time.perf_counter() - received)
        if kind in ("sit", "wait") and table_id not in self.tables:
            await self._watch(actor, "watch", None, None)
        if kind != "act":
            extra = result if isinstance(result, dict) else {}
            self.reply({"type": "ok", "for": kind, "table": table_id, **extra}, ref)

    async def _watch(self, actor: TableHandle, kind: str, since: Any, ref: Any) -> None:
        if kind == "watch":
            self.tables.add(actor.id)
        else:
            self.tables.discard(actor.id)
        await actor.call(Command(kind, self.account_id, args={"since": since}, watcher=self))
        if kind == "unwatch":
            self.reply({"type": "ok", "for": kind, "table": actor.id}, ref)

    async def _watch_tournament(self, kind: str, tournament_id: int, ref: Any) -> None:
        """Follow a tournament's page (a ``tournament`` message now and after each change)."""
        actor = self.room.tournaments.handle(tournament_id)
        if actor is None:
            self.error("no_tournament", f"there is no tournament {tournament_id}", ref)
            return
        if kind == "watch_tournament":
            self.tournaments.add(tournament_id)
        try:
            await actor.call(Command(kind, self.account_id, watcher=self))
        except TableError as error:  # a shared room's tournament moving between processes
            self.error(error.code, str(error), ref)
            return
        if kind == "unwatch_tournament":
            self.reply({"type": "ok", "for": kind, "tournament": tournament_id}, ref)

    async def _at_tournament_table(
        self, kind: str, at: tuple[int, int], fields: dict[str, Any], ref: Any
    ) -> None:
        """A table message at a tournament table ``t<id>.<n>``: watched and played as a cash
        table is, but nobody sits down, leaves or buys chips there."""
        key = fields["table"]
        tournament_id, number = at
        actor = self.room.tournaments.handle(tournament_id)
        if actor is None:  # its actor refuses a table it does not have (no_table)
            self.error("no_table", f"there is no table {key}", ref)
            return
        if kind in CASH_ONLY:
            self.error("tournament_table", f"{kind} is for cash tables, not a tournament's", ref)
            return
        if kind not in ("watch", "unwatch") and self.account_id is None:
            self.error("login_required", "log in or play as a guest first", ref)
            return
        self.tournaments.add(tournament_id)
        args = {**fields, "table_number": number}
        received = time.perf_counter()
        try:
            await actor.call(Command(kind, self.account_id, args=args, watcher=self))
        except TableError as error:
            self.error(error.code, str(error), ref, getattr(error, "params", None))
            return
        if kind == "act":
            ACTION_SECONDS.observe(time.perf_counter() - received)
        if kind not in ("act", "watch"):
            self.reply({"type": "ok", "for": kind, "table": key}, ref)


CASH_ONLY = frozenset({"sit", "leave", "top_up", "wait", "unwait", "auto_rebuy"})
"""Table messages refused at a tournament table (``tournament_table``)."""
CASH_ONLY |= {"muck_losing_hands", "sit_out_bring_in"}  # a player's own choices
