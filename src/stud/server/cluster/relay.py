"""One kind's commands between this process and the others (tables, or tournaments), both
ways: one piece of code for both.

As the caller, a :class:`Relay` makes the stand-ins (:class:`.remote.Remote`) that
send a local connection's commands to the owner, and notes what each connection
follows of what another process runs, to watch it again with the next owner when it
moves (or when this process's subscription dropped and messages may be lost).

As the owner, it hands a command from another process to the actor, with a
:class:`.remote.RemoteWatcher` standing for the client connected there, and sends
the reply back; a command for what this process no longer runs is refused (a watch
is told to watch again). An owner's messages reach the client's connection unless a
newer owner has spoken (the lease's token orders them). Watchers of a process that
has died are disconnected, so their seats get the grace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.server.cluster.bus import Bus
from stud.server.cluster.lease import LeaseBook
from stud.server.cluster.remote import (
    Actor,
    Kind,
    Owner,
    Remote,
    RemoteWatcher,
    Replies,
    reply_message,
)

Follows = dict[int, tuple[Watcher, set[int | None]]]
"""A followed item's local connections: key -> (connection, what of it each watches)."""


class Links(Protocol):
    """What a relay uses to reach the other processes (:class:`.links.Links`)."""

    @property
    def node(self) -> str: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def replies(self) -> Replies: ...

    def connection_key(self, watcher: Watcher) -> int: ...


class Relay:
    """One kind's commands between this process and the others, both ways (module doc)."""

    def __init__(
        self,
        links: Links,
        kind: Kind,
        book: LeaseBook,
        actors: Mapping[int, Actor],
        owns: Callable[[int], bool],
        owners: Mapping[int, Owner],
    ) -> None:
        self.links = links
        self.kind = kind
        self.book = book
        self.actors = actors
        self.owns = owns
        self.owners = owners
        """Who runs each item, as last read from the leases (the caller keeps it)."""
        self._connections: dict[int, Watcher] = {}
        self._following: dict[int, Follows] = {}
        """Local connections following an item another process runs."""
        self._followed: dict[int, Owner | None] = {}
        """The owner each followed item's watches were last sent to."""
        self._remote_watchers: dict[tuple[str, int, int], RemoteWatcher] = {}
        self._newest_token: dict[int, int] = {}
        self._missing: set[str] = set()

    @property
    def replies(self) -> Replies:
        """The futures of the commands this process sent and waits for."""
        return self.links.replies

    def remote(self, item_id: int) -> Remote:
        """The stand-in for an item run elsewhere (or by nobody yet)."""
        owner = self.owners.get(item_id)
        return Remote(self, item_id, None if owner is None else owner[0])

    # -- the caller's side -----------------------------------------------------------------

    def send_command(self, node: str, item_id: int, command: Command, request: int | None) -> None:
        watcher = command.watcher
        key = None if watcher is None else self.links.connection_key(watcher)
        self.links.bus.send(node, {
            "k": self.kind.message_kind("cmd"), "from": self.links.node, "req": request,
            self.kind.id_key: item_id, "c": command.kind, "a": command.account_id,
            "args": command.args, "w": key, "wa": None if watcher is None else watcher.account_id,
        })  # fmt: skip

    def before_remote(self, item_id: int, command: Command) -> None:
        """Note what each local connection follows of a remote item (to watch it again with
        the next owner if it moves)."""
        watcher = command.watcher
        if watcher is None:
            return
        key = self.links.connection_key(watcher)
        if command.kind in self.kind.watches:
            self.follow(item_id, watcher, self.kind.what(command))
            self._followed[item_id] = self.owners.get(item_id)
        elif command.kind in self.kind.unwatches:
            self._unfollow(item_id, key, self.kind.what(command))
        elif command.kind == "disconnect":
            self._unfollow(item_id, key, None, everything=True)

    def follow(self, item_id: int, watcher: Watcher, what: int | None) -> None:
        key = self.links.connection_key(watcher)
        self._connections[key] = watcher
        follows = self._following.setdefault(item_id, {})
        follows.setdefault(key, (watcher, set()))[1].add(what)

    def _unfollow(
        self, item_id: int, key: int, what: int | None, *, everything: bool = False
    ) -> None:
        """Stop following ``what`` (or everything) of an item for one connection."""
        follows = self._following.get(item_id, {})
        entry = follows.get(key)
        if entry is not None:
            if everything:
                entry[1].clear()
            else:
                entry[1].discard(what)
            if not entry[1]:
                del follows[key]
        self._forget_connection(key)

    def _forget_connection(self, key: int) -> None:
        if not any(key in follows for follows in self._following.values()):
            self._connections.pop(key, None)

    def follow_moves(self) -> None:
        """Watch again, with its new owner, each followed item that changed hands."""
        for item_id, follows in list(self._following.items()):
            if not follows:
                del self._following[item_id]
                continue
            owner = self.owners.get(item_id)
            if owner is None or owner == self._followed.get(item_id):
                continue
            self._followed[item_id] = owner
            if owner[0] == self.links.node:
                continue  # taken here: attach() watched them
            for watcher, watched in list(follows.values()):
                for what in list(watched):
                    self.send_command(owner[0], item_id, self.kind.rewatch(watcher, what), None)

    def rewatch_all(self) -> None:
        """The subscription dropped (messages may be lost): every followed item watched again."""
        self._followed.clear()

    def dropped(self, item_id: int) -> None:
        """The owner took this process for dead (or had not opened it): watch it again."""
        self._followed[item_id] = None

    # -- the owner's side ------------------------------------------------------------------

    def send_out(self, node: str, item_id: int, key: int, text: str) -> None:
        """An actor's message for one connection of another process.

        The same text (the very object: a step encodes what its watchers share once) for
        several connections of one process, one after the other, goes as one item naming
        them all: a table's spectators on another process cost one copy per step there.
        """
        token, kind = self.book.tokens.get(item_id, 0), self.kind.message_kind("out")
        bus = self.links.bus
        last = bus.last_for(node)
        if (
            last is not None
            and last.get("m") is text
            and last.get("k") == kind
            and last.get(self.kind.id_key) == item_id
            and last.get("tok") == token
        ):
            last["c"].append(key)
            return
        bus.send(node, {"k": kind, self.kind.id_key: item_id, "tok": token, "c": [key], "m": text})

    def took(self, item_id: int, token: int, actor: Actor) -> None:
        """Taken here with ``token``: connections here that followed it elsewhere watch it here."""
        self._newest_token[item_id] = token
        for key, (watcher, watched) in self._following.pop(item_id, {}).items():
            for what in watched:
                actor.tell(self.kind.rewatch(watcher, what))
            self._forget_connection(key)
        self._followed.pop(item_id, None)

    def lost(self, item_id: int, watchers: list[tuple[Watcher, int | None]]) -> None:
        """No longer run here: the local ``(watcher, what)`` follow it to its next owner,
        the other processes' watchers are forgotten (theirs re-watch)."""
        for watcher, what in watchers:
            if isinstance(watcher, RemoteWatcher):
                self._remote_watchers.pop((watcher.node, watcher.key, item_id), None)
            else:
                self.follow(item_id, watcher, what)
        self._followed[item_id] = None

    def watcher_nodes(self) -> set[str]:
        """The processes whose connections watch something run here."""
        return {node for node, _, _ in self._remote_watchers}

    def sweep_dead_watchers(self, live: set[str]) -> None:
        """Watchers of a process gone from two scans in a row: disconnected (their seats get
        the grace). If it was only slow, it is told, and its connections watch again."""
        nodes = {node for node, _, _ in self._remote_watchers}
        missing = nodes - live
        dead, self._missing = missing & self._missing, missing
        for node in dead:
            items: set[int] = set()
            for key in [k for k in self._remote_watchers if k[0] == node]:
                watcher = self._remote_watchers.pop(key)
                items.add(watcher.item_id)
                actor = self.actors.get(watcher.item_id)
                if actor is not None:
                    actor.tell(Command("disconnect", watcher.account_id, watcher=watcher))
            for item_id in items:
                self._send_dropped(node, item_id)

    def _send_dropped(self, node: str, item_id: int) -> None:
        """Tell ``node`` to watch ``item_id`` again (this process dropped its watchers)."""
        self.links.bus.send(
            node, {"k": self.kind.message_kind("dropped"), self.kind.id_key: item_id}
        )

    # -- messages from the other processes -------------------------------------------------

    def on_message(self, item: dict[str, Any]) -> bool:
        """Handle a bus message of this kind; False if it is not one."""
        kind = item.get("k")
        if kind == self.kind.message_kind("out"):
            self._deliver(item)
        elif kind == self.kind.message_kind("cmd"):
            self._command(item)
        elif kind == self.kind.message_kind("dropped"):
            self.dropped(int(item[self.kind.id_key]))
        else:
            return False
        return True

    def _deliver(self, item: dict[str, Any]) -> None:
        """An owner's message for local connections (``c``: their keys, or one key, as sent
        before messages were joined); none from a superseded owner."""
        item_id, token = int(item[self.kind.id_key]), int(item["tok"])
        if token < self._newest_token.get(item_id, 0):
            return
        self._newest_token[item_id] = token
        text, keys = str(item["m"]), item["c"]
        for key in keys if isinstance(keys, list) else [keys]:
            watcher = self._connections.get(int(key))
            if watcher is not None:
                watcher.send(text)

    def _command(self, item: dict[str, Any]) -> None:
        """A command from a connection of another process, for an item this one runs."""
        sender, request = str(item["from"]), item.get("req")
        item_id, kind = int(item[self.kind.id_key]), str(item["c"])
        bus = self.links.bus
        actor = self.actors.get(item_id)
        if actor is None or not self.owns(item_id):
            if kind in self.kind.watches:  # taken, not open here yet: the sender watches again
                self._send_dropped(sender, item_id)
                if request is not None:
                    bus.send(sender, {"k": "reply", "req": request, "ok": None})
            elif request is not None:
                refusal = ["unavailable", f"the {self.kind.noun} is moving: try again"]
                bus.send(sender, {"k": "reply", "req": request, "err": refusal})
            return
        answer = self.kind.answers.get(kind)
        if answer is not None:
            if request is not None:
                bus.send(sender, {"k": "reply", "req": request, "ok": answer(actor)})
            return
        watcher: RemoteWatcher | None = None
        if item.get("w") is not None:
            key = (sender, int(item["w"]), item_id)
            watcher = self._remote_watchers.get(key)
            if watcher is None:
                account = None if item.get("wa") is None else int(item["wa"])
                watcher = RemoteWatcher(self, sender, int(item["w"]), account, item_id)
                if kind in self.kind.watches:  # only a watcher is kept (by the actor, and here)
                    self._remote_watchers[key] = watcher
            if kind in self.kind.forgets:
                self._remote_watchers.pop(key, None)
        account_id = None if item.get("a") is None else int(item["a"])
        command = Command(kind, account_id, args=dict(item.get("args") or {}), watcher=watcher)
        if request is not None:
            done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            command.done = done
            done.add_done_callback(lambda f: bus.send(sender, reply_message(int(request), f)))
        actor.tell(command)
