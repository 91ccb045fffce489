"""A table's messages for connections of another process, as the relay queues and delivers
them: one text shared by several of them travels once, and each gets it, in order.

No Redis: the bus's queue is read before anything would be published.
"""

from __future__ import annotations

from typing import Any

import orjson

from stud.server.cluster.bus import Bus
from stud.server.cluster.lease import LeaseBook, LeaseTimes
from stud.server.cluster.relay import Relay
from stud.server.cluster.remote import TABLES, RemoteWatcher


class Connection:
    """A local client connection: what it was sent."""

    def __init__(self, account_id: int | None = None) -> None:
        self.account_id = account_id
        self.got: list[str] = []

    def send(self, text: str) -> None:
        self.got.append(text)


class RoomStandIn:
    """What a relay uses of its room: the bus, the node's name, connection keys."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.bus = Bus(None, "stud:test:", node, lambda _item: None)

    @staticmethod
    def connection_key(watcher: Any) -> int:
        return id(watcher)


def relay_of(node: str, tokens: dict[int, int]) -> tuple[RoomStandIn, Relay]:
    room = RoomStandIn(node)
    book = LeaseBook(node, LeaseTimes(), tokens=dict(tokens))
    return room, Relay(room, TABLES, book, {}, lambda _t: True, {})  # type: ignore[arg-type]


def queued(room: RoomStandIn, node: str) -> list[dict[str, Any]]:
    """What the bus would publish to ``node``, as that process would read it."""
    items = room.bus._pending.get(f"stud:test:node:{node}", [])
    return list(orjson.loads(orjson.dumps(items)))


def test_a_text_for_several_connections_of_one_process_travels_once() -> None:
    owner, owner_relay = relay_of("a", {7: 3})
    spectators = [RemoteWatcher(owner_relay, "b", key, None, 7) for key in (11, 12, 13)]
    player = RemoteWatcher(owner_relay, "b", 14, 5, 7)
    elsewhere = RemoteWatcher(owner_relay, "c", 11, None, 7)
    shared, own = '{"type":"state","viewer":null}', '{"type":"state","viewer":2}'
    for watcher in spectators[:2]:
        watcher.send(shared)
    elsewhere.send(shared)  # another process: its own item
    spectators[2].send(shared)  # joins the item for b's first two
    player.send(own)
    spectators[0].send(shared)  # after the player's: a new item, so the order holds
    items = queued(owner, "b")
    assert [(item["c"], item["m"]) for item in items] == [
        ([11, 12, 13], shared),
        ([14], own),
        ([11], shared),
    ]
    assert all(item["t"] == 7 and item["tok"] == 3 for item in items)
    assert [item["c"] for item in queued(owner, "c")] == [[11]]

    # On process b: each connection gets its messages, in order, once.
    _, reader = relay_of("b", {})
    local = {key: Connection() for key in (11, 12, 13, 14)}
    for key, connection in local.items():
        reader._connections[key] = connection  # as its watches made them
    for item in items:
        assert reader.on_message(item)
    assert local[11].got == [shared, shared]
    assert local[12].got == local[13].got == [shared]
    assert local[14].got == [own]


def test_equal_text_from_another_step_or_owner_is_not_joined() -> None:
    owner, relay = relay_of("a", {7: 3, 8: 3})
    first, second = RemoteWatcher(relay, "b", 1, None, 7), RemoteWatcher(relay, "b", 2, None, 8)
    text = '{"type":"state"}'
    first.send(text)
    second.send(text)  # the same text for another table: its own item
    relay.book.tokens[7] = 4
    first.send(text)  # a newer token: its own item
    assert [(item["t"], item["tok"], item["c"]) for item in queued(owner, "b")] == [
        (7, 3, [1]),
        (8, 3, [2]),
        (7, 4, [1]),
    ]


def test_a_message_naming_one_connection_is_still_delivered() -> None:
    """As a process of the version before sends it: ``c`` a single key."""
    _, reader = relay_of("b", {})
    connection = Connection()
    reader._connections[5] = connection
    assert reader.on_message({"k": "out", "t": 7, "tok": 1, "c": 5, "m": "x"})
    assert connection.got == ["x"]
