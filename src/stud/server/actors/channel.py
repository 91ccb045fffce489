"""A table's numbered event stream and its watchers, each event seen through its watcher's eyes.

Each event is encoded once for everyone and once more for each account it has
a private part for (its owner's down cards, the actor's legal actions), kept
as text (a dozen hands' worth) for clients that reconnect and ask for what they
missed ``since`` an event number. Who sees what is :mod:`stud.server.actors.audience`'s
rule: the account, never the seat or the connection.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol, TypeVar

import orjson

from stud.server.actors.audience import private_or_public
from stud.server.wire import dumps, encode
from stud.table import Event

K = TypeVar("K", bound=Hashable)

LOG_SIZE = 1000
"""Events kept per table (a dozen hands) for clients that reconnect; older gaps get a resync."""


class Watcher(Protocol):
    """A client connection as an actor sees it."""

    account_id: int | None

    def send(self, text: str) -> None:
        """Queue a message; never blocks (a client that cannot keep up is dropped)."""


SendMany = Callable[[list[str]], None]
"""A watcher's ``send_many``, if it has one: several messages in order, as many ``send``
calls would send them (a connection of this process: one call per step instead of one per
message)."""


class Channel:
    """The events of one table (``key``: its id in messages), numbered, and who watches it."""

    def __init__(self, key: int | str) -> None:
        self.key = key
        self._key = encode(key)
        self.n = 0
        # (n, text for everyone, text for each account with a private part): plain strings,
        # so the log costs the garbage collector nothing to keep.
        self.events: deque[tuple[int, str, dict[int, str]]] = deque(maxlen=LOG_SIZE)
        self.watchers: dict[Watcher, SendMany | None] = {}
        """Each watcher, with its ``send_many`` (None: messages one ``send`` at a time)."""

    def _text(self, head: bytes, event: Event, account: int | None) -> str:
        """``{"type": "event", "table": key, "n": n, "event": ...}`` as ``account`` sees it,
        the head (all but the event) encoded once for all its texts."""
        return b"".join((head, _json(event.for_account(account)), b"}")).decode()

    def _number(self, event: Event) -> tuple[str, dict[int, str]]:
        """Number an event and keep it: its text for everyone and for each account with a
        private part."""
        self.n += 1
        head = b'{"type":"event","table":%b,"n":%d,"event":' % (self._key, self.n)
        data = event.data
        if "type" in data:  # its own "type" would stand in the kind's place: merged whole
            public = self._text(head, event, None)
            private = {acc: self._text(head, event, acc) for acc in event.private}
        else:
            # The event's JSON is its kind's member, then its data's: ``for_account``'s dict
            # as orjson writes it, without making that dict for each text.
            kind = _KINDS.get(event.kind)
            if kind is None:
                kind = _KINDS[event.kind] = b'{"type":' + orjson.dumps(event.kind)
            body = b"".join((kind, b"," + _json(data)[1:] if data else b"}"))
            public = b"".join((head, body, b"}")).decode()
            private = {}
            for account, part in event.private.items():
                if not part or "type" in part or any(key in data for key in part):  # in place
                    private[account] = self._text(head, event, account)
                else:
                    own = b"".join((head, body[:-1], b",", _json(part)[1:], b"}"))
                    private[account] = own.decode()
        self.events.append((self.n, public, private))
        return public, private

    def publish(self, event: Event) -> None:
        """Number an event, keep it, and send it to each watcher as its account may see it."""
        public, private = self._number(event)
        if not private:  # nothing of anyone's own in it: the one text for all
            for watcher in list(self.watchers):
                watcher.send(public)
            return
        for watcher in list(self.watchers):
            watcher.send(private_or_public(private, public, watcher.account_id))

    def publish_step(
        self,
        events: list[Event],
        seats: list[tuple[Watcher, K]],
        shared: bytes,
        own: Mapping[K, bytes],
        tail: dict[str, Any],
    ) -> None:
        """A step's events, then each watcher's state (:meth:`state_texts`, by the viewer key
        ``seats`` gives each watcher, numbered after the events): what :meth:`publish` of
        each event and a ``send`` of each state would send, in that order for every watcher.

        A watcher with ``send_many`` gets the step in one call; any other gets each message
        as :meth:`publish` sends it (one event to every such watcher in turn, then the next:
        a shared room's relay joins what consecutive watchers of one process are sent alike).
        """
        steps: dict[Watcher, list[str]] = {}
        for watcher, many in self.watchers.items():
            if many is not None:
                steps[watcher] = []
        for event in events:
            public, private = self._number(event)
            for watcher in list(self.watchers):
                text = private_or_public(private, public, watcher.account_id) if private else public
                batch = steps.get(watcher)
                if batch is None:
                    watcher.send(text)
                else:
                    batch.append(text)
        texts = self.state_texts(shared, own, tail)
        for watcher, seat in seats:
            batch = steps.get(watcher)
            if batch is None:
                watcher.send(texts[seat])
            else:
                batch.append(texts[seat])
        for watcher, batch in steps.items():
            many = self.watchers.get(watcher)
            if many is not None:
                many(batch)

    def watch(self, watcher: Watcher, since: int | None) -> None:
        """Subscribe, and send the events missed ``since`` (if still kept) as the account sees
        them; the caller sends the state next."""
        self.watchers[watcher] = getattr(watcher, "send_many", None)
        first = self.events[0][0] if self.events else self.n + 1
        if since is not None and first - 1 <= since <= self.n:
            for n, public, private in self.events:
                if n > since:
                    watcher.send(private_or_public(private, public, watcher.account_id))

    def state_text(self, view: dict[str, Any]) -> str:
        """The ``state`` message carrying one account's (or a spectator's) view."""
        return dumps({"type": "state", "table": self.key, "n": self.n, "state": view})

    def state_texts(
        self, shared: bytes, own: Mapping[K, bytes], tail: dict[str, Any]
    ) -> dict[K, str]:
        """``state`` messages for several viewers of one moment, by viewer key: each carries
        the view whose JSON members are ``shared``, ``own[key]`` and ``tail``'s (the
        table's :meth:`~stud.table.Table.view_json` and the room's part), joined.

        The text is the one :meth:`state_text` makes of that merged view (the parts'
        keys are distinct), joined from encoded pieces rather than encoded whole
        for each viewer.
        """
        head = b'{"type":"state","table":%b,"n":%d,"state":{%b,' % (self._key, self.n, shared)
        last = b"," + _json(tail)[1:-1] + b"}}" if tail else b"}}"
        return {key: b"".join((head, part, last)).decode() for key, part in own.items()}

    def send_all(self, message: dict[str, Any]) -> None:
        text = dumps(message)
        for watcher in list(self.watchers):
            watcher.send(text)


_KINDS: dict[str, bytes] = {}
"""Each event kind's start of its JSON (``{"type":"action"``), encoded once."""


def _json(value: Any) -> bytes:
    """``value`` as :func:`stud.server.wire.encode` writes it, without a call into
    interpreted code for the usual value (no integer dict key)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return encode(value)
