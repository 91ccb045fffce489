"""Capacity at a latency bound: the search over offered load, and the statistics it reads.

A room's capacity is not the actions per second it serves at one fixed load (a
room that keeps up serves whatever it is offered, so two rooms that both keep
up serve the same). It is the most it serves while its p99 stays within a
bound. :func:`search` finds that point for a ``measure(tables)`` function:
it grows the number of busy tables geometrically until the p99 goes over the
bound, then bisects between the last count within the bound and the first
over it. Pure (no sockets, no clock): ``tests/test_bench_capacity.py`` runs it
on made-up rooms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank rule; NaN for no values.

    Nearest rank, not interpolation: the p99 of 1000 latencies is the 991st
    smallest, a latency some action really had.
    """
    if not values:
        return math.nan
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is not between 0 and 1")
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Point:
    """One measured load: ``tables`` busy tables, what they got, and what it cost.

    ``figures`` carries the rest of what was measured (CPU, Redis, PostgreSQL
    per action), printed beside the point; the search reads only the first fields.
    """

    tables: int
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    figures: dict[str, float] = field(default_factory=dict)

    def within(self, bound_ms: float) -> bool:
        return self.p99_ms <= bound_ms


@dataclass
class Capacity:
    """The outcome of one search: the best point within the bound (None if none was)."""

    bound_ms: float
    best: Point | None
    first_over: Point | None
    """The smallest load measured over the bound (None if the largest tried was within)."""


def search(
    measure: Callable[[int], Point],
    bound_ms: float,
    *,
    start: int,
    grow: float = 1.5,
    most: int,
    least: int = 1,
    resolution: float = 0.1,
    cache: dict[int, Point] | None = None,
) -> Capacity:
    """The most actions per second served with p99 within ``bound_ms``.

    From ``start`` tables the load grows by ``grow`` while within the bound (up
    to ``most``), or halves while over it (down to ``least``); then bisects until
    the gap between the best count within and the first over is under
    ``resolution`` of the best (or one table). ``cache`` holds the points
    measured already (by table count), shared by the searches for several
    bounds so a load is measured once.
    """
    if start < least or start > most:
        raise ValueError(f"start {start} is not between {least} and {most}")
    if grow <= 1.0:
        raise ValueError(f"grow {grow} must be above 1")
    points = cache if cache is not None else {}

    def at(tables: int) -> Point:
        if tables not in points:
            points[tables] = measure(tables)
        return points[tables]

    within: int | None = None
    over: int | None = None
    tables = start
    while True:
        if at(tables).within(bound_ms):
            within = tables
            if over is not None or tables >= most:
                break
            tables = min(most, max(tables + 1, math.ceil(tables * grow)))
        else:
            over = tables
            if within is not None or tables <= least:
                break
            tables = max(least, tables // 2)
    if within is not None and over is not None:
        while over - within > max(1.0, resolution * within):
            middle = (within + over) // 2
            if at(middle).within(bound_ms):
                within = middle
            else:
                over = middle
    candidates = [p for p in points.values() if p.within(bound_ms)]
    best = max(candidates, key=lambda p: p.actions_per_second, default=None)
    first_over = points[over] if over is not None else None
    return Capacity(bound_ms, best, first_over)


def ratio(numerator: Capacity, denominator: Capacity) -> float:
    """Actions per second of one capacity over another's; NaN when either has no point."""
    if numerator.best is None or denominator.best is None:
        return math.nan
    if denominator.best.actions_per_second <= 0:
        return math.nan
    return numerator.best.actions_per_second / denominator.best.actions_per_second


class Meter:
    """Pairs each action with its receipts: the latency is from sending to the last receipt.

    An action is known by its table and the event number it will make (the
    state's ``n`` plus one); it is answered when every one of ``watchers``
    clients at the table has received that event. Only actions sent while
    ``measuring`` count; receipts are taken whenever they come, so an action
    sent in the window and answered after it is still measured.
    """

    def __init__(self, watchers: int) -> None:
        self.watchers = watchers
        self.measuring = False
        self.pending: dict[tuple[int, int], list[float]] = {}
        self.latencies: list[float] = []
        self.hand_ends: list[float] = []
        """The latencies of the actions that ended a hand (also in ``latencies``): the room
        sends their events only once the hand's durable write committed."""

    def sent(self, table: int, n: int, at: float) -> None:
        if self.measuring:
            self.pending[(table, n)] = [at, 0.0]

    def received(self, table: int, n: int, at: float, *, ends_hand: bool = False) -> None:
        """Event ``n`` of ``table`` reached one more watcher (``ends_hand``: in the step that
        finished a hand)."""
        entry = self.pending.get((table, n))
        if entry is None:
            return
        entry[1] += 1
        if entry[1] >= self.watchers:
            del self.pending[(table, n)]
            self.latencies.append(at - entry[0])
            if ends_hand:
                self.hand_ends.append(at - entry[0])

    @property
    def actions(self) -> int:
        """Actions answered (at every client) so far."""
        return len(self.latencies)


@dataclass(frozen=True)
class Costs:
    """What a room's load costs in CPU: per action (ms) and per second whatever the actions
    (cores: leases, lobby, scans), for the room's processes together and for everything else
    on the machine that the load needs (the load generator, PostgreSQL, Redis)."""

    servers_ms: float
    others_ms: float
    servers_fixed: float = 0.0
    others_fixed: float = 0.0


def fit(rates: Sequence[float], cores: Sequence[float]) -> tuple[float, float]:
    """Least squares ``cores = fixed + ms / 1000 * rate``: (fixed cores, ms per action).

    CPU per action divided out at each load mixes the per-second work (a lease
    renewed, a lobby published) into the per-action figure, the more so the
    lighter the load; the line through every measured load separates the two.
    """
    if len(rates) != len(cores) or len(set(rates)) < 2:
        raise ValueError("a line needs loads at two different rates at least")
    n = len(rates)
    mean_x, mean_y = sum(rates) / n, sum(cores) / n
    sxx = sum((x - mean_x) ** 2 for x in rates)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(rates, cores, strict=True))
    slope = sxy / sxx
    return mean_y - slope * mean_x, 1000.0 * slope


def most_per_second(costs: Costs, processes: int, cores: int) -> float:
    """The most actions a second the costs allow: each process has at most one core (one
    event loop), and the processes and the rest share the machine's ``cores``."""
    if costs.servers_ms <= 0:
        return math.nan
    room = min(processes, cores) - max(0.0, costs.servers_fixed)
    by_processes = 1000.0 * room / costs.servers_ms
    machine = cores - max(0.0, costs.servers_fixed) - max(0.0, costs.others_fixed)
    by_machine = 1000.0 * machine / (costs.servers_ms + max(0.0, costs.others_ms))
    return max(0.0, min(by_processes, by_machine))


def ceilings(one: Costs, two: Costs, cores: int) -> tuple[float, float]:
    """(servers' own scaling, this machine's ceiling) for two processes against one.

    The first is what two processes serve against one at saturation when each
    has a core to itself and nothing else runs there (a room whose database,
    Redis and clients are elsewhere). The second is what the measured costs
    allow on this machine's ``cores`` with the load generator, PostgreSQL and
    Redis on them too: the most a measured ratio can show here.
    """
    alone = [Costs(c.servers_ms, 0.0, c.servers_fixed) for c in (one, two)]
    scaling = most_per_second(alone[1], 2, 2) / most_per_second(alone[0], 1, 2)
    return scaling, most_per_second(two, 2, cores) / most_per_second(one, 1, cores)
