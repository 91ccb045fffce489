"""Tables and tournaments run by another process, as the connections of this one see them,
and back.

:class:`RemoteTable` stands for a table another process owns: a connection
calls it as it would the table's actor, and the command travels to the owner.
:class:`RemoteWatcher` stands, in the owner's actor, for a client connected to
another process: the actor sends it its own messages exactly as it does a
local connection (one view per account, :mod:`stud.server.audience`), and they
travel back to the client's process, which hands each to that connection.
:class:`RemoteTourney` and :class:`RemoteTourneyWatcher` do the same for a
tournament and its tables (:mod:`stud.server.cluster.tourneys`).
"""

from __future__ import annotations

import asyncio
import itertools
from typing import TYPE_CHECKING, Any

from stud.server.actor import Command
from stud.server.channel import Watcher
from stud.table import TableError

if TYPE_CHECKING:
    from stud.server.cluster.room import ClusterRoom
    from stud.server.cluster.tourneys import ClusterDesk

REPLY_SECONDS = 10.0
"""How long a command waits for the owner's reply before the client is told to try again."""


class RemoteWatcher:
    """A connection of another process, watching a table this process runs."""

    __slots__ = ("account_id", "key", "node", "room", "table_id")

    def __init__(
        self, room: ClusterRoom, node: str, key: int, account_id: int | None, table_id: int
    ) -> None:
        self.room = room
        self.node = node
        self.key = key
        self.account_id = account_id
        self.table_id = table_id

    def send(self, text: str) -> None:
        token = self.room.leases.book.tokens.get(self.table_id, 0)
        self.room.bus.send(self.node, {"k": "out", "t": self.table_id, "tok": token,
                                       "c": self.key, "m": text})  # fmt: skip


class RemoteTable:
    """A table that another process runs, called like its actor."""

    def __init__(self, room: ClusterRoom, table_id: int, owner: str | None) -> None:
        self.room = room
        self.id = table_id
        self.owner = owner
        """None while nobody runs it (its owner died, another is taking it over)."""

    def _message(self, command: Command, request: int | None) -> dict[str, Any]:
        watcher = command.watcher
        key = None if watcher is None else self.room.connection_key(watcher)
        return {
            "k": "cmd", "from": self.room.node, "req": request, "t": self.id,
            "c": command.kind, "a": command.account_id, "args": command.args, "w": key,
            "wa": None if watcher is None else watcher.account_id,
        }  # fmt: skip

    def tell(self, command: Command) -> None:
        self.room.before_remote(self.id, command)
        if self.owner is not None:
            self.room.bus.send(self.owner, self._message(command, None))

    async def call(self, command: Command) -> Any:
        self.room.before_remote(self.id, command)
        if self.owner is None:
            if command.kind in ("watch", "unwatch"):
                return None  # a watch goes to the new owner as soon as there is one
            raise TableError("unavailable", "the table is moving to another server: try again")
        request, future = self.room.replies.open()
        self.room.bus.send(self.owner, self._message(command, request))
        try:
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except TimeoutError:
            raise TableError(
                "unavailable", "the table's server did not answer (it may be moving): try again"
            ) from None
        finally:
            self.room.replies.close(request)


class RemoteTourneyWatcher:
    """A connection of another process, watching a tournament (or its tables) run here."""

    __slots__ = ("account_id", "desk", "key", "node", "tournament_id")

    def __init__(
        self, desk: ClusterDesk, node: str, key: int, account_id: int | None, tournament_id: int
    ) -> None:
        self.desk = desk
        self.node = node
        self.key = key
        self.account_id = account_id
        self.tournament_id = tournament_id

    def send(self, text: str) -> None:
        token = self.desk.book.tokens.get(self.tournament_id, 0)
        self.desk.cluster.bus.send(self.node, {"k": "tout", "T": self.tournament_id,
                                               "tok": token, "c": self.key, "m": text})  # fmt: skip


class RemoteTourney:
    """A tournament another process runs, called like its actor."""

    def __init__(self, desk: ClusterDesk, tournament_id: int, owner: str | None) -> None:
        self.desk = desk
        self.id = tournament_id
        self.owner = owner

    def _message(self, command: Command, request: int | None) -> dict[str, Any]:
        watcher = command.watcher
        key = None if watcher is None else self.desk.cluster.connection_key(watcher)
        return {
            "k": "tcmd", "from": self.desk.cluster.node, "req": request, "T": self.id,
            "c": command.kind, "a": command.account_id, "args": command.args, "w": key,
            "wa": None if watcher is None else watcher.account_id,
        }  # fmt: skip

    def tell(self, command: Command) -> None:
        self.desk.before_remote(self.id, command)
        if self.owner is not None:
            self.desk.cluster.bus.send(self.owner, self._message(command, None))

    async def call(self, command: Command) -> Any:
        self.desk.before_remote(self.id, command)
        if self.owner is None:
            if command.kind in ("watch", "watch_tournament", "unwatch", "unwatch_tournament"):
                return None  # a watch goes to the new owner as soon as there is one
            raise TableError("unavailable", "the tournament is moving to another server: try again")
        replies = self.desk.cluster.replies
        request, future = replies.open()
        self.desk.cluster.bus.send(self.owner, self._message(command, request))
        try:
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except TimeoutError:
            raise TableError(
                "unavailable",
                "the tournament's server did not answer (it may be moving): try again",
            ) from None
        finally:
            replies.close(request)


class Replies:
    """Futures of commands sent to other processes, by request number."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}

    def open(self) -> tuple[int, asyncio.Future[Any]]:
        number = next(self._numbers)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        return number, future

    def close(self, number: int) -> None:
        self._waiting.pop(number, None)

    def resolve(self, message: dict[str, Any]) -> None:
        future = self._waiting.get(int(message["req"]))
        if future is None or future.done():
            return
        if "err" in message:
            code, text = message["err"]
            future.set_exception(TableError(str(code), str(text)))
        else:
            future.set_result(message.get("ok"))


def reply_message(request: int, future: asyncio.Future[Any]) -> dict[str, Any]:
    """The reply to a remote command, from the actor's future."""
    error = future.exception()
    if isinstance(error, TableError):
        return {"k": "reply", "req": request, "err": [error.code, str(error)]}
    if error is not None:
        return {"k": "reply", "req": request, "err": ["internal", f"server fault: {error}"]}
    return {"k": "reply", "req": request, "ok": future.result()}


__all__ = [
    "RemoteTable",
    "RemoteTourney",
    "RemoteTourneyWatcher",
    "RemoteWatcher",
    "Replies",
    "Watcher",
    "reply_message",
]
