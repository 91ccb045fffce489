"""Commands for a table or tournament another process runs: the stand-in a connection
calls, the replies, and what differs between tables and tournaments.

:class:`Remote` stands for a table or tournament another process owns: a
connection calls it as it would the actor, the command travels to the owner's
inbox (:mod:`.bus`) and the reply comes back (:class:`Replies`), or the client is
told ``unavailable`` when nobody runs it or the owner does not answer in
:data:`REPLY_SECONDS`. :class:`RemoteWatcher` stands, in the owner's actor, for a
client connected to another process: the actor sends it its own messages exactly
as it does a local connection (one view per account, :mod:`stud.server.actors.audience`).
A :class:`Kind` says how tables and tournaments differ (their bus messages, which
commands watch); :mod:`.relay` carries both the same way.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.table import TableError

REPLY_SECONDS = 10.0
"""How long a command waits for the owner's reply before the client is told to try again."""

Owner = tuple[str, int]
"""A lease's holder: the process and its token."""


class Actor(Protocol):
    """What a relay hands an owner's commands to (a table's or a tournament's actor)."""

    def tell(self, command: Command) -> None: ...


@dataclass(frozen=True, slots=True)
class Kind:
    """What a relay carries, and how its commands watch: tables, or tournaments."""

    noun: str
    """How the client's errors name it."""
    tag: str
    """Before the bus kinds ``cmd``, ``out`` and ``dropped`` of its messages."""
    id_key: str
    """The id's key in those messages."""
    watches: frozenset[str]
    """Commands that start a watch (followed, to watch again with the next owner)."""
    unwatches: frozenset[str]
    """Commands that end a watch of what they name."""
    forgets: frozenset[str]
    """Commands after which the owner forgets the client's remote watcher."""
    answers: Mapping[str, Callable[[Any], Any]]
    """Commands the owner answers from the actor at once, without queueing them."""
    rewatch: Callable[[Watcher, int | None], Command]
    """The command that watches ``what`` (None: the whole) again with a new owner."""

    def what(self, command: Command) -> int | None:
        """What of it a command watches: a tournament's table number, else the whole."""
        number = command.args.get("table_number")
        return number if isinstance(number, int) else None

    def message_kind(self, name: str) -> str:
        return self.tag + name


def _table_rewatch(watcher: Watcher, _what: int | None) -> Command:
    return Command("watch", watcher.account_id, args={}, watcher=watcher)


def _tournament_rewatch(watcher: Watcher, what: int | None) -> Command:
    if what is None:
        return Command("watch_tournament", watcher.account_id, watcher=watcher)
    args = {"table_number": what, "since": None}
    return Command("watch", watcher.account_id, args=args, watcher=watcher)


TABLES = Kind(
    noun="table", tag="", id_key="t",
    watches=frozenset({"watch"}), unwatches=frozenset({"unwatch"}),
    forgets=frozenset({"unwatch", "disconnect"}),
    answers={"spectate": lambda actor: actor.entry()},
    rewatch=_table_rewatch,
)  # fmt: skip
TOURNAMENTS = Kind(
    noun="tournament", tag="t", id_key="T",
    watches=frozenset({"watch", "watch_tournament"}),
    unwatches=frozenset({"unwatch", "unwatch_tournament"}),
    forgets=frozenset({"disconnect"}), answers={}, rewatch=_tournament_rewatch,
)  # fmt: skip


class Relay(Protocol):
    """What the stand-ins use of the relay that made them (:class:`.relay.Relay`)."""

    @property
    def kind(self) -> Kind: ...

    @property
    def replies(self) -> Replies: ...

    def before_remote(self, item_id: int, command: Command) -> None: ...

    def send_command(
        self, node: str, item_id: int, command: Command, request: int | None
    ) -> None: ...

    def send_out(self, node: str, item_id: int, key: int, text: str) -> None: ...


class RemoteWatcher:
    """A connection of another process, watching something this process runs."""

    __slots__ = ("account_id", "item_id", "key", "node", "relay")

    def __init__(
        self, relay: Relay, node: str, key: int, account_id: int | None, item_id: int
    ) -> None:
        self.relay = relay
        self.node = node
        self.key = key
        self.account_id = account_id
        self.item_id = item_id

    def send(self, text: str) -> None:
        self.relay.send_out(self.node, self.item_id, self.key, text)


class Remote:
    """A table or tournament another process runs, called like its actor."""

    def __init__(self, relay: Relay, item_id: int, owner: str | None) -> None:
        self.relay = relay
        self.id = item_id
        self.owner = owner
        """None while nobody runs it (its owner died, another is taking it over)."""

    def tell(self, command: Command) -> None:
        self.relay.before_remote(self.id, command)
        if self.owner is not None:
            self.relay.send_command(self.owner, self.id, command, None)

    async def call(self, command: Command) -> Any:
        relay = self.relay
        relay.before_remote(self.id, command)
        noun = relay.kind.noun
        if self.owner is None:
            if command.kind in relay.kind.watches | relay.kind.unwatches:
                return None  # a watch goes to the new owner as soon as there is one
            raise TableError("unavailable", f"the {noun} is moving to another server: try again")
        replies = relay.replies
        request, future = replies.open()
        relay.send_command(self.owner, self.id, command, request)
        try:
            return await asyncio.wait_for(future, REPLY_SECONDS)
        except TimeoutError:
            raise TableError(
                "unavailable", f"the {noun}'s server did not answer (it may be moving): try again"
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
    "TABLES",
    "TOURNAMENTS",
    "Actor",
    "Kind",
    "Remote",
    "RemoteWatcher",
    "Replies",
    "reply_message",
]
