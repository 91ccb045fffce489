"""The room's Prometheus metrics, through ``prometheus_client``, in a registry of their own.

Counters and histograms are bumped where things happen (a hand stored, an action
answered, a write committed, a Redis round trip, a refusal); what the room holds
now (tables, seats, tournaments) is read only when Prometheus scrapes, by
:class:`RoomCollector`, so it costs the tables nothing. The registry is served on
its own port (:func:`serve_metrics`), never on the players' one. docs/operations.md
lists the families.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

# A ``_created`` series beside each counter doubles the scrape and says little.
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry(auto_describe=True)
"""Every metric of the room (not the library's global one: tests start many rooms)."""

HANDS = Counter(
    "stud_hands", "Hands played to the end and stored, by game.", ["game"], registry=REGISTRY
)
ACTION_SECONDS = Histogram(
    "stud_action_seconds",
    "From a player's action received on the websocket to the table's events sent.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
DB_WRITE_SECONDS = Histogram(
    "stud_db_write_seconds",
    "A write transaction of the writer thread (a batch of writes), begin to commit.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
    registry=REGISTRY,
)
DB_WRITE_FAILURES = Counter(
    "stud_db_write_failures", "Writes that failed (each write of a failed batch is retried alone).",
    registry=REGISTRY,
)  # fmt: skip
REDIS_ROUND_TRIPS = Counter(
    "stud_redis_round_trips", "Requests sent to Redis (a pipeline is one).", registry=REGISTRY
)
REDIS_FAILURES = Counter(
    "stud_redis_failures", "Redis requests that failed (connection lost, timeout).",
    registry=REGISTRY,
)  # fmt: skip
REFUSALS = Counter(
    "stud_refusals", "Requests refused, REST and websocket, by code (stud.server.errors).",
    ["code"], registry=REGISTRY,
)  # fmt: skip
LOGIN_THROTTLES = Counter(
    "stud_login_throttles", "Logins refused because a name or address failed too often.",
    registry=REGISTRY,
)  # fmt: skip
CLIENTS = Gauge("stud_clients_connected", "Open websockets to this process.", registry=REGISTRY)
TOP_UPS = Counter(
    "stud_top_ups", "Free play chips given to players who ran low, by account kind.", ["kind"],
    registry=REGISTRY,
)  # fmt: skip


class ObservedRoom(Protocol):
    """What the collector reads of a room (stud.server.room.room.Room)."""

    actors: Any
    tournaments: Any

    def owns(self, table_id: int) -> bool: ...

    def health(self) -> dict[str, Any]: ...


def room_now(room: ObservedRoom) -> dict[str, Any]:
    """What ``room`` holds now; run on the room's event loop (its tables change there)."""
    actors = [a for a in room.actors.values() if not a.closed]
    people = bots = 0
    for actor in actors:
        for _, player in actor.table.players():
            if player.bot:
                bots += 1
            else:
                people += 1
    node = room.health().get("node")
    return {
        "running": len(actors),
        "owned": sum(1 for a in actors if room.owns(a.id)),
        "people": people,
        "bots": bots,
        "tournaments": sum(1 for t in room.tournaments.actors.values() if not t.over),
        "role": ("shared", str(node)) if node else ("alone", ""),
    }


SCRAPE_WAIT = 2.0
"""How long a scrape waits for the room's event loop to count (a stuck loop: no gauges)."""


class RoomCollector(Collector):
    """What one room holds now, counted on its event loop at scrape time: tables running
    and owned, seated players and bots, tournaments running, the process's role."""

    def __init__(self, room: ObservedRoom, loop: asyncio.AbstractEventLoop) -> None:
        self.room = room
        self.loop = loop

    def describe(self) -> list[Metric]:
        return []  # read at every scrape: nothing to check at registration

    async def _now(self) -> dict[str, Any]:
        return room_now(self.room)

    def collect(self) -> Iterator[Metric]:
        future = asyncio.run_coroutine_threadsafe(self._now(), self.loop)
        try:
            now = future.result(SCRAPE_WAIT)
        except (TimeoutError, RuntimeError):  # the loop is stuck or closed: skip the gauges
            future.cancel()
            return
        families = (
            ("stud_tables_running", "Cash tables this process runs.", now["running"]),
            (
                "stud_tables_owned",
                "Tables this process holds (a shared room: their leases; alone: all it runs).",
                now["owned"],
            ),
            (
                "stud_tournaments_running",
                "Tournaments this process runs, registering or playing.",
                now["tournaments"],
            ),
        )
        for name, text, value in families:
            family = GaugeMetricFamily(name, text)
            family.add_metric([], value)
            yield family
        seated = GaugeMetricFamily(
            "stud_seated", "Seats taken at this process's cash tables, by who.", labels=["who"]
        )
        seated.add_metric(["player"], now["people"])
        seated.add_metric(["bot"], now["bots"])
        yield seated
        role = GaugeMetricFamily(
            "stud_process_role", "1 for this process's role: alone, or one node of a shared room.",
            labels=["role", "node"],
        )  # fmt: skip
        role.add_metric(list(now["role"]), 1)
        yield role


def watch_room(room: ObservedRoom, loop: asyncio.AbstractEventLoop) -> RoomCollector:
    """Report ``room`` (run by ``loop``) in the metrics until :func:`unwatch_room`."""
    collector = RoomCollector(room, loop)
    REGISTRY.register(collector)
    return collector


def unwatch_room(collector: RoomCollector) -> None:
    REGISTRY.unregister(collector)


def serve_metrics(port: int, host: str = "127.0.0.1") -> Any:
    """Serve ``/metrics`` on ``host:port`` from a thread of its own (not the players' port);
    returns the server (``shutdown()`` stops it)."""
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return server
