"""Capacity of a room of one process and of two (PostgreSQL + Redis) at a p99 bound.

For each room -- one process with no Redis (the anchor: the room of ``make
serve``, here on PostgreSQL), a shared room of one process, a shared room of
two -- it finds the most actions per second the room serves while the p99
from an action to its event at every client at the table stays within each
``--bound`` (50 and 100 ms): the busy tables grow by ``--grow`` from
``--start`` until the p99 goes over, then bisect (bench/capacity.py). Each
load is measured for ``--seconds`` after ``--warmup``, on one room per kind
(its tables are opened once and parked or woken between loads). It prints
every measured load (actions/s, p50/p99, CPU per action of the servers, of
this load generator, of PostgreSQL's backends and of Redis, Redis commands
and PostgreSQL commits and rows per action, and how busy the machine's cores
were), then each room's capacity and the ratio of two processes to one.

Beside each load, where the time went: the CPU of everything else on the
machine (other programs: the room shares a machine), how long the servers'
threads and the generator waited for a core, the p99 of the actions that ended
a hand (their events leave once the hand's durable write committed) apart from
the others', and what the room's PostgreSQL backends in a transaction were
doing (sampled): waiting for the server to send its next statement, waiting for
the commit's WAL to reach the disk, waiting for a lock, or running.
A load whose window had a bare ping's p99 over half the smallest bound (another
program's burst: a message with no table work took as long as a slow action)
is measured again, up to ``--retries`` times, and the window with the quickest
ping kept; every window is printed. ``--at N ...`` measures those loads only,
without the search; ``--server-src A
B`` runs the servers from other ``src/`` trees, each room from every tree in
turn (so the trees meet the machine's other work at about the same moments),
and reports each tree.

The players are guests at tables without bots, checking or calling 0.2-0.6 s
after their turn comes (bench_server.py's load), on a lean websocket client
(bench/lean_socket.py) so the generator takes as little as it can of the
cores it shares with the servers. Every table is opened through the first
process and its players connect there; the room spreads the tables over its
processes (each moved at a hand boundary, its players' messages then relayed
through Redis), and each load is measured once every process runs 35-65% of
them (printed with each point). ``--open-through each`` opens the n-th table
through process n mod 2, its players there (a proxy that routes by table).
``--pin`` pins the room's processes one per core (a room of one to core 0),
so "one process" is one core; the generator, PostgreSQL and Redis are not pinned.

    python bench/bench_cluster.py                         # about 5-8 minutes
    python bench/bench_cluster.py --rooms 1 2 --bound 50  # shorter

Needs a PostgreSQL it may create databases in (``--database-url`` or
``STUD_TEST_DATABASE_URL``) and a Redis (``--redis-url`` or
``STUD_TEST_REDIS_URL``; else a throwaway ``redis-server`` is started if one is
installed; a Redis of its own, since Redis's figures count every command it
serves). Loopback only; every load is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import httpx
import redis
import uvloop
from sqlalchemy import Engine, create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from capacity import Capacity, Costs, Meter, Point, ceilings, fit, percentile, ratio, search
from stud.testing.cluster import REDIS_URL_VARIABLE, Cluster, redis_for_tests
from stud.testing.server import (
    TEST_URL_VARIABLE,
    ServerProcess,
    fresh_database,
    postgres_admin_url,
)
from table_load import Pinger, TableLoad

ROOMS = {
    "anchor": "1 process, no Redis",
    "1": "1 process, shared room",
    "2": "2 processes, shared room",
}

SERVER_ARGS = ("--no-default-tables", "--no-default-tournaments", "--pause", "0.5",
               "--turn-seconds", "3600", "--signups", "1e9")  # fmt: skip
"""A parked table's player holds its action: the hour-long turn clock never acts for it."""


@dataclass(frozen=True)
class Usage:
    """Counters read at the start and the end of a measured window (their differences count)."""

    at: float
    servers_cpu: float
    servers_loop_cpu: float
    servers_waiting: float
    generator_cpu: float
    generator_waiting: float
    redis_cpu: float
    redis_commands: float
    pg_commits: float
    pg_rows: float
    pg_cpu: float
    machine_busy: float

    def __sub__(self, other: Usage) -> Usage:
        pairs = zip(asdict(self).values(), asdict(other).values(), strict=True)
        return Usage(*(a - b for a, b in pairs))


def schedstat(pid: int, only: int | None = None) -> tuple[float, float]:
    """(seconds run, seconds waiting for a core) so far of every thread of process ``pid``
    (or of its thread ``only``), to the nanosecond.

    ``/proc/PID/task/*/schedstat`` counts run time exactly, where ``/proc/PID/stat``
    counts 10 ms clock ticks: too coarse for a PostgreSQL backend over a short window.
    Its second field is the time the thread was runnable but on no core: what the
    machine's other work cost it.
    """
    ran = waited = 0
    try:
        threads = [str(only)] if only is not None else os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0, 0.0
    for thread in threads:
        try:
            fields = Path(f"/proc/{pid}/task/{thread}/schedstat").read_text().split()
            ran, waited = ran + int(fields[0]), waited + int(fields[1])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended between the listing and the read
    return ran / 1e9, waited / 1e9


def cpu_seconds(pid: int) -> float:
    """CPU seconds every thread of process ``pid`` has run so far (see :func:`schedstat`)."""
    return schedstat(pid)[0]


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent on anything but idling (/proc/stat)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class Gauges:
    """What the room's parts have used so far: servers and generator (/proc), Redis (INFO),
    PostgreSQL (pg_stat_database, and its backends' CPU in /proc)."""

    def __init__(self, pids: list[int], redis_url: str | None, database_url: str) -> None:
        self.pids = pids
        self.redis = redis.Redis.from_url(redis_url) if redis_url else None
        self.engine: Engine = create_engine(
            database_url.replace("postgresql://", "postgresql+psycopg://", 1), pool_size=2
        )
        self.waits = BackendWaits(self.engine)
        self._backends: dict[int, float] = {}
        self._backends_total = 0.0

    def read(self) -> Usage:
        redis_cpu = redis_commands = 0.0
        if self.redis is not None:
            cpu, stats = self.redis.info("cpu"), self.redis.info("stats")
            redis_cpu = float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])
            redis_commands = float(stats["total_commands_processed"])
        with self.engine.connect() as conn:
            commits, inserted, updated = conn.execute(
                text("SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database "
                     "WHERE datname = current_database()")
            ).one()  # fmt: skip
            backends = conn.execute(
                text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                     "AND pid <> pg_backend_pid()")
            ).scalars().all()  # fmt: skip
        backends = list(backends)
        servers = [schedstat(pid) for pid in self.pids]
        generator = schedstat(os.getpid())
        return Usage(
            at=time.monotonic(),
            servers_cpu=sum(ran for ran, _ in servers),
            # A process's first thread runs its event loop (the tables, the sockets).
            servers_loop_cpu=sum(schedstat(pid, only=pid)[0] for pid in self.pids),
            servers_waiting=sum(waited for _, waited in servers),
            generator_cpu=generator[0],
            generator_waiting=generator[1],
            redis_cpu=redis_cpu,
            redis_commands=redis_commands,
            pg_commits=float(commits),
            pg_rows=float(inserted + updated),
            pg_cpu=self._backends_cpu(backends),
            machine_busy=machine_busy_seconds(),
        )

    def _backends_cpu(self, backends: list[int]) -> float:
        """PostgreSQL backends' CPU so far: a backend's time is counted from when it is first
        seen, and what a backend that has ended had used stays counted."""
        for pid in backends:
            now = cpu_seconds(pid)
            self._backends_total += max(0.0, now - self._backends.get(pid, 0.0))
            self._backends[pid] = now
        return self._backends_total

    def close(self) -> None:
        if self.redis is not None:
            self.redis.close()
        self.engine.dispose()


WAITS = ("client", "commit", "lock", "running")
"""What the room's PostgreSQL backends that are in a transaction are doing, sampled: waiting for
the server process to send its next statement (its Python, its turn at the interpreter's lock
and at a core), for the commit's WAL to reach the disk, for a row lock, or running a statement."""


class BackendWaits:
    """Samples, on a thread of its own, what the room's PostgreSQL backends wait on.

    Each sample reads ``pg_stat_activity`` for the room's database; a backend idle
    outside a transaction is not counted. The averages are backends at once in each
    of :data:`WAITS` (the time a second that transactions spent so).
    """

    def __init__(self, engine: Engine, every: float = 0.05) -> None:
        self.engine = engine
        self.every = every
        self.counts = dict.fromkeys(WAITS, 0)
        self.samples = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.counts, self.samples = dict.fromkeys(WAITS, 0), 0
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="backend-waits", daemon=True)
        self._thread.start()

    def stop(self) -> dict[str, float]:
        """Backends at once in each state, on average over the samples."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return {k: v / max(1, self.samples) for k, v in self.counts.items()}

    def _run(self) -> None:
        # The driver's own cursor, prepared once: a sample costs the generator's process (whose
        # interpreter lock it shares with the load) about a tenth of a millisecond.
        query = (
            "SELECT state, wait_event_type, wait_event FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"
        )
        with self.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT")
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            while not self._stop.wait(self.every):
                cursor.execute(query, prepare=True)
                self.samples += 1
                for state, kind, event in cursor.fetchall():
                    self.counts[classify(state, kind, event)] += 1


def classify(state: str, kind: str | None, event: str | None) -> str:
    """One of :data:`WAITS` for a backend's ``state`` and wait event."""
    if state.startswith("idle in transaction") or event == "ClientRead":
        return "client"
    if event in ("WALSync", "WALWrite", "WALInsert") or (kind == "IO" and "WAL" in (event or "")):
        return "commit"
    if kind == "Lock":
        return "lock"
    return "running"


def pin(pids: list[int]) -> list[int]:
    """Pin the n-th process, every thread of it, to the n-th core (mod the cores); the cores."""
    cores = sorted(os.sched_getaffinity(0))
    chosen = []
    for n, pid in enumerate(pids):
        core = cores[n % len(cores)]
        for thread in os.listdir(f"/proc/{pid}/task"):
            os.sched_setaffinity(int(thread), {core})
        chosen.append(core)
    return chosen


async def measure(
    load: TableLoad,
    pinger: Pinger,
    gauges: Gauges,
    bases: list[str],
    tables: int,
    args: argparse.Namespace,
) -> Point:
    """``tables`` busy tables for ``args.seconds`` after ``args.warmup``: one measured point."""
    if pinger.socket is None:
        await pinger.open(bases[0])
    if len(load.tables) < tables:
        print(f"  opening tables {len(load.tables) + 1}-{tables}...", file=sys.stderr, flush=True)
        await load.open(tables, bases[:1] if args.open_through == "first" else bases)
        if len(bases) > 1:
            await settle(bases, len(load.tables))
        gc.collect()
        gc.freeze()  # what set-up made stays; the window's garbage is the players' alone
    load.set_busy(tables)
    await asyncio.sleep(args.warmup)
    meter = load.meter = Meter(args.players)
    dropped = load.dropped
    before = await asyncio.to_thread(gauges.read)
    gauges.waits.start()
    meter.measuring = True
    print(f"  measuring {tables} busy tables for {args.seconds:g} s", file=sys.stderr, flush=True)
    pinger.start()
    gc.disable()  # the generator's collector pauses are not the room's latency
    try:
        await asyncio.sleep(args.seconds)
        meter.measuring = False
        pinger.stop()
        used = await asyncio.to_thread(gauges.read) - before
        waits = gauges.waits.stop()
        drain_until = time.monotonic() + args.drain
        while meter.pending and time.monotonic() < drain_until:
            await asyncio.sleep(0.05)
    finally:
        gc.enable()
    # An action not answered within the drain counts as slower than any answered one.
    latencies = meter.latencies + [math.inf] * len(meter.pending)
    others = list((Counter(meter.latencies) - Counter(meter.hand_ends)).elements())
    actions = max(1, meter.actions)
    per_action = {
        "servers_cpu_ms": 1000 * used.servers_cpu / actions,
        "generator_cpu_ms": 1000 * used.generator_cpu / actions,
        "pg_cpu_ms": 1000 * used.pg_cpu / actions,
        "redis_cpu_ms": 1000 * used.redis_cpu / actions,
        "redis_commands": used.redis_commands / actions,
        "pg_commits": used.pg_commits / actions,
        "pg_rows": used.pg_rows / actions,
    }
    figures = {f"{k}_per_action": round(v, 3) for k, v in per_action.items()}
    figures |= {
        "servers_cores": round(used.servers_cpu / used.at, 4),
        "servers_loop_cores": round(used.servers_loop_cpu / used.at, 4),
        "servers_waiting_cores": round(used.servers_waiting / used.at, 4),
        "generator_waiting_cores": round(used.generator_waiting / used.at, 4),
        # What ran on the machine besides the room, its generator, PostgreSQL and Redis.
        "outside_cores": round(
            (
                used.machine_busy
                - used.servers_cpu
                - used.generator_cpu
                - used.pg_cpu
                - used.redis_cpu
            )
            / used.at,
            2,
        ),
        "hand_end_p99_ms": round(1000 * percentile(meter.hand_ends, 0.99), 1),
        "other_p99_ms": round(1000 * percentile(others, 0.99), 1),
        "hand_end_share": round(len(meter.hand_ends) / actions, 3),
        **{f"pg_{name}_backends": round(v, 3) for name, v in waits.items()},
        "others_cores": round((used.generator_cpu + used.pg_cpu + used.redis_cpu) / used.at, 4),
        "generator_cores": round(used.generator_cpu / used.at, 4),
        "pg_cores": round(used.pg_cpu / used.at, 4),
        "redis_cores": round(used.redis_cpu / used.at, 4),
        "redis_commands_per_second": round(used.redis_commands / used.at, 1),
        "pg_commits_per_second": round(used.pg_commits / used.at, 1),
        "machine_cores_busy": round(used.machine_busy / used.at, 2),
        "ping_p99_ms": round(1000 * percentile(pinger.round_trips, 0.99), 1),
        "unanswered": len(meter.pending),
        "dropped_clients": load.dropped - dropped,
    }
    return Point(
        tables=tables,
        actions_per_second=round(meter.actions / used.at, 1),
        p50_ms=round(1000 * percentile(latencies, 0.5), 1),
        p99_ms=round(1000 * percentile(latencies, 0.99), 1),
        figures=figures,
    )


@dataclass
class RoomResult:
    room: str
    cores: list[int] | None
    points: list[Point]
    capacities: list[Capacity]


async def shares(bases: list[str]) -> list[int]:
    """How many tables each process runs now (``/api/health``)."""
    async with httpx.AsyncClient(timeout=30) as http:
        answers = [await http.get(base + "/api/health") for base in bases]
    return [len(a.json().get("runs", [])) for a in answers]


async def settle(bases: list[str], tables: int, within: float = 60.0) -> None:
    """Until each process runs between 35% and 65% of the ``tables`` (the room spreads the
    tables opened through one of them at their hand boundaries), up to ``within`` seconds."""
    started = time.monotonic()
    while True:
        now = await shares(bases)
        fair = sum(now) == tables and all(0.35 * tables <= n <= 0.65 * tables for n in now)
        if fair or time.monotonic() - started > within:
            break
        await asyncio.sleep(0.5)
    took = time.monotonic() - started
    print(f"  the room spread {tables} tables as {'/'.join(map(str, now))} in {took:.1f} s"
          f"{'' if fair else ' (NOT within 35-65%)'}", file=sys.stderr, flush=True)  # fmt: skip


def run_room(
    room: str, args: argparse.Namespace, folder: Path, server_src: str | None = None
) -> RoomResult:
    """Start a fresh room of kind ``room`` (its servers from ``server_src``, a ``src/`` tree,
    else this one) and search its capacity at every bound."""
    env = {"PYTHONPATH": server_src or str(Path(__file__).resolve().parent.parent)}
    with (
        redis_for_tests(folder) as redis_url,
        fresh_database("postgres", folder) as database_url,
        Cluster(database_url, redis_url, folder, extra_args=SERVER_ARGS,
                lease_seconds=args.lease_seconds, env=env) as cluster,
    ):  # fmt: skip
        if room == "anchor":
            plain = ServerProcess(database_url, folder, extra_args=SERVER_ARGS, env=env).start()
            cluster.servers.append(plain)
            servers = [plain]
        else:
            servers = [cluster.add() for _ in range(int(room))]
        pids = [s.proc.pid for s in servers if s.proc is not None]
        cores = pin(pids) if args.pin else None
        gauges = Gauges(pids, redis_url if room != "anchor" else None, database_url)
        load = TableLoad(args.players, (args.think_min, args.think_max), seed=args.seed)
        pinger = Pinger()
        loop = uvloop.new_event_loop()
        asyncio.set_event_loop(loop)
        points: dict[int, Point] = {}

        def once(tables: int) -> Point:
            point = loop.run_until_complete(
                measure(load, pinger, gauges, [s.base for s in servers], tables, args)
            )
            spread = loop.run_until_complete(shares([s.base for s in servers]))
            print(f"  {ROOMS[room]}: {describe(point)}; tables run by each process "
                  f"{'/'.join(map(str, spread))}", file=sys.stderr, flush=True)  # fmt: skip
            print(json.dumps({"room": room, **asdict(point), "spread": spread}), flush=True)
            return point

        def at(tables: int) -> Point:
            return least_disturbed(once, tables, min(args.bound) * DISTURBED_PING, args.retries)

        print(f"  servers' pids: {' '.join(map(str, pids))}; the generator's: {os.getpid()}",
              file=sys.stderr, flush=True)  # fmt: skip
        try:
            if args.at:
                for tables in args.at:
                    points[tables] = at(tables)
                capacities = [at_loads(points.values(), bound) for bound in sorted(args.bound)]
            else:
                capacities = [
                    search(at, bound, start=args.start, grow=args.grow, most=args.most,
                           least=args.least, resolution=args.resolution, cache=points)
                    for bound in sorted(args.bound)
                ]  # fmt: skip
        finally:
            load.close()
            pinger.close()
            loop.run_until_complete(asyncio.sleep(0.2))
            loop.close()
            asyncio.set_event_loop(None)
            gauges.close()
        return RoomResult(room, cores, sorted(points.values(), key=lambda p: p.tables), capacities)


DISTURBED_PING = 0.5
"""A window in which a bare ``ping`` (no table work) had a p99 over this share of the bound
measured the machine's other work more than the room: it is measured again (``--retries``)."""


def least_disturbed(
    once: Callable[[int], Point], tables: int, ping_limit_ms: float, retries: int
) -> Point:
    """``once(tables)``, measured again (up to ``retries`` times) while a bare ping's p99 was
    over ``ping_limit_ms``; the window whose ping was quickest, with how many were measured.

    The search trusts one window per load: a burst of another program's work in it
    (a bare ping then takes as long as a slow action) would decide the capacity.
    Every kind of room is held to the same rule, and every window is printed.
    """
    windows = [once(tables)]
    while windows[-1].figures["ping_p99_ms"] > ping_limit_ms and len(windows) <= retries:
        windows.append(once(tables))
    best = min(windows, key=lambda p: p.figures["ping_p99_ms"])
    return replace(best, figures={**best.figures, "windows": len(windows)})


def at_loads(points: Iterable[Point], bound: float) -> Capacity:
    """The capacity among the loads measured (``--at``): no search, the best within the bound."""
    measured = sorted(points, key=lambda p: p.tables)
    within = [p for p in measured if p.within(bound)]
    best = max(within, key=lambda p: p.actions_per_second, default=None)
    over = next((p for p in measured if not p.within(bound)), None)
    return Capacity(bound, best, over)


def describe(point: Point) -> str:
    f = point.figures
    return (
        f"{point.tables} tables: {point.actions_per_second} actions/s, p50 {point.p50_ms} ms, "
        f"p99 {point.p99_ms} ms (a bare ping's p99 {f['ping_p99_ms']} ms), "
        f"servers {f['servers_cpu_ms_per_action']} ms/action "
        f"({f['servers_cores']} cores), generator {f['generator_cpu_ms_per_action']} ms/action, "
        f"machine {f['machine_cores_busy']} cores busy ({f['outside_cores']} outside the room); "
        f"p99 of the actions that ended a hand ({100 * f['hand_end_share']:.0f}%) "
        f"{f['hand_end_p99_ms']} ms, of the others {f['other_p99_ms']} ms; servers' event loops "
        f"{f['servers_loop_cores']} cores, waiting for a core {f['servers_waiting_cores']}, the "
        f"generator waiting {f['generator_waiting_cores']}; PostgreSQL backends in a transaction: "
        + ", ".join(f"{name} {f[f'pg_{name}_backends']}" for name in WAITS)
    )


LINES = (
    ("servers", "servers_cores", True),
    ("generator", "generator_cores", True),
    ("PostgreSQL", "pg_cores", True),
    ("Redis", "redis_cores", True),
    ("Redis", "redis_commands_per_second", False),
    ("PostgreSQL", "pg_commits_per_second", False),
)
"""The work split into per action and per second: (part, figure, whether it is CPU in cores)."""


def value(point: Point, key: str) -> float:
    """A field of ``point`` (tables, actions_per_second, p50_ms, p99_ms) or one of its figures."""
    return float(getattr(point, key)) if hasattr(point, key) else point.figures.get(key, math.nan)


DISTURBED_CORES = 0.25
"""Other programs' CPU (cores) past which a capacity is reported as measured on a busy machine."""


def disturbance(capacity: Capacity) -> float:
    """The most cores other programs used during the loads that decided ``capacity`` (the best
    within the bound and the first over it): 0 when not measured."""
    points = [p for p in (capacity.best, capacity.first_over) if p is not None]
    return max((p.figures.get("outside_cores", 0.0) for p in points), default=0.0)


def report(results: list[RoomResult], args: argparse.Namespace, loads: list[str]) -> str:
    """The table of every measured point, each room's capacity per bound, and the ratios."""
    columns: list[tuple[str, str, int]] = [
        ("tables", "tables", 0),
        ("actions/s", "actions_per_second", 1),
        ("p50 ms", "p50_ms", 1),
        ("p99 ms", "p99_ms", 1),
        ("ping p99", "ping_p99_ms", 1),
        ("srv ms/act", "servers_cpu_ms_per_action", 3),
        ("srv cores", "servers_cores", 2),
        ("gen ms/act", "generator_cpu_ms_per_action", 3),
        ("pg ms/act", "pg_cpu_ms_per_action", 3),
        ("pg commits/act", "pg_commits_per_action", 3),
        ("pg rows/act", "pg_rows_per_action", 2),
        ("redis ms/act", "redis_cpu_ms_per_action", 3),
        ("redis cmd/act", "redis_commands_per_action", 2),
        ("busy cores", "machine_cores_busy", 2),
        ("outside", "outside_cores", 2),
        ("srv wait", "servers_waiting_cores", 2),
        ("end p99", "hand_end_p99_ms", 1),
        ("other p99", "other_p99_ms", 1),
        ("pg client", "pg_client_backends", 2),
        ("pg commit", "pg_commit_backends", 2),
        ("windows", "windows", 0),
    ]
    pinned = "the room's processes, one per core" if args.pin else "nothing"
    lines = [
        f"load average {loads[0]} at the start, {loads[-1]} at the end; "
        f"{os.cpu_count()} cores; pinned: {pinned}"
    ]
    header = f"{'room':<26}" + "".join(f"{name:>{max(9, len(name) + 1)}}" for name, _, _ in columns)
    lines += ["", header]
    for result in results:
        for point in result.points:
            row = f"{ROOMS[result.room]:<26}"
            row += "".join(
                f"{value(point, key):>{max(9, len(name) + 1)}.{places}f}"
                for name, key, places in columns
            )
            lines.append(row)
    lines.append("")
    by_room = {r.room: r for r in results}
    for index, bound in enumerate(sorted(args.bound)):
        parts = []
        for result in results:
            capacity = result.capacities[index]
            best = capacity.best
            served = (
                f"{best.actions_per_second} actions/s at {best.tables} tables" if best else "none"
            )
            if best is not None and capacity.first_over is None:
                served += (
                    " (within at every load measured: it may serve more)"
                    if getattr(args, "at", None)
                    else " (the most offered: it may serve more, see --most)"
                )
            outside = disturbance(capacity)
            if outside > DISTURBED_CORES:
                served += f" (other programs used up to {outside:.2f} cores meanwhile)"
            parts.append(f"{ROOMS[result.room]}: {served}")
        lines.append(f"capacity at p99 <= {bound:g} ms: " + "; ".join(parts))
        if "1" in by_room and "2" in by_room:
            two_to_one = ratio(by_room["2"].capacities[index], by_room["1"].capacities[index])
            pair = (by_room["2"].capacities[index], by_room["1"].capacities[index])
            verdict = "met" if two_to_one >= 1.6 else "not met"
            if any(c.best is not None and c.first_over is None for c in pair):
                verdict = "not measured: a room was within at the most it was offered" + (
                    "" if getattr(args, "at", None) else ", raise --most"
                )
            outside = max(disturbance(c) for c in pair)
            if outside > DISTURBED_CORES:
                verdict += (
                    f"; but measured while other programs used up to {outside:.2f} of the "
                    f"machine's cores: the scheduler's figures as much as the room's"
                )
            text_ = f"  ratio 2 processes / 1 process: {two_to_one:.2f} (target 1.6: {verdict})"
            if "anchor" in by_room:
                anchor = ratio(by_room["2"].capacities[index], by_room["anchor"].capacities[index])
                text_ += f"; 2 processes / the anchor: {anchor:.2f}"
            lines.append(text_)
    if 50.0 in args.bound:
        at_50 = sorted(args.bound).index(50.0)
        for room in ("anchor", "1"):
            if room in by_room:
                best = by_room[room].capacities[at_50].best
                tables = best.tables if best else 0
                verdict = "met" if tables >= 200 else "not met"
                lines.append(
                    f"  target, one process serves 200 tables with p99 under 50 ms: {verdict} "
                    f"for {ROOMS[room]} (within 50 ms up to {tables} tables)"
                )
    lines += ["", "Each part's work, a line through every load measured: per action + per second"]
    for result in results:
        if len({p.actions_per_second for p in result.points}) < 2:
            continue
        parts = []
        for name, key, cpu in LINES:
            fixed, per_action_ms = fit(
                [p.actions_per_second for p in result.points],
                [p.figures[key] for p in result.points],
            )
            if cpu:
                parts.append(f"{name} {per_action_ms:.3f} ms CPU + {fixed:.3f} cores")
            else:
                unit = key.split("_")[1]
                parts.append(f"{name} {per_action_ms / 1000:.2f} {unit} + {fixed:.0f} {unit}/s")
        lines.append(f"  {ROOMS[result.room]}: " + "; ".join(parts))

    if "1" in by_room and "2" in by_room:
        one, two = costs(by_room["1"]), costs(by_room["2"])
        scaling, ceiling = ceilings(one, two, os.cpu_count() or 1)
        lines.append(
            f"From these costs, at saturation: two processes each with a core to itself serve "
            f"{scaling:.2f}x one; on this machine, sharing its cores with the generator, "
            f"PostgreSQL and Redis, at most {ceiling:.2f}x"
        )
    return "\n".join(lines)


def costs(result: RoomResult) -> Costs:
    """The room's CPU: a line through every load it was measured at (per action, per second)."""
    rates = [p.actions_per_second for p in result.points]
    servers = [p.figures["servers_cores"] for p in result.points]
    others = [p.figures["others_cores"] for p in result.points]
    if len(set(rates)) < 2:
        return Costs(1000 * servers[0] / rates[0], 1000 * others[0] / rates[0])
    servers_fixed, servers_ms = fit(rates, servers)
    others_fixed, others_ms = fit(rates, others)
    return Costs(servers_ms, others_ms, servers_fixed, others_fixed)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rooms", nargs="+", choices=list(ROOMS), default=list(ROOMS),
                        help="which rooms to measure, in this order (anchor 1 2)")  # fmt: skip
    parser.add_argument("--bound", type=float, nargs="+", default=[50.0, 100.0],
                        help="p99 bounds in ms, a capacity for each (50 100)")  # fmt: skip
    parser.add_argument("--at", type=int, nargs="+", default=None,
                        help="measure these busy tables only, no search")  # fmt: skip
    parser.add_argument("--start", type=int, default=60, help="busy tables first measured (60)")
    parser.add_argument("--grow", type=float, default=1.5, help="load factor per step up (1.5)")
    parser.add_argument("--least", type=int, default=10, help="busy tables at least (10)")
    parser.add_argument("--most", type=int, default=1200, help="busy tables at most (1200)")
    parser.add_argument("--resolution", type=float, default=0.1,
                        help="bisect until the gap is this share of the load (0.1)")  # fmt: skip
    parser.add_argument("--players", type=int, default=3, help="websocket players per table (3)")
    parser.add_argument("--think-min", type=float, default=0.2, help="seconds (0.2)")
    parser.add_argument("--think-max", type=float, default=0.6, help="seconds (0.6)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before each window (3)")
    parser.add_argument("--seconds", type=float, default=8.0, help="each measured window (8)")
    parser.add_argument("--drain", type=float, default=10.0,
                        help="seconds to wait for the window's last answers (10)")  # fmt: skip
    parser.add_argument(
        "--pin", action="store_true",
        help="pin the room's processes one per core (a room of one to core 0)",
    )  # fmt: skip
    parser.add_argument(
        "--server-src", nargs="+", default=None, metavar="DIR",
        help="run the servers from these src/ trees (exports of other commits, to compare), "
        "each kind of room from every tree in turn",
    )  # fmt: skip
    parser.add_argument(
        "--retries", type=int, default=2,
        help="measure a load again, up to this many times, while a bare ping's p99 was over "
        f"{DISTURBED_PING:g} of the smallest bound (another program's burst); 0: never (2)",
    )  # fmt: skip
    parser.add_argument(
        "--open-through", choices=("first", "each"), default="first",
        help="open every table through the first process, its players connected there, and "
        "let the room spread the tables over its processes (first); or the n-th through "
        "process n mod N, its players there, as a proxy routing by table would (each)",
    )  # fmt: skip
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0, help="the think times' random seed")
    parser.add_argument(
        "--database-url", default=None,
        help=f"a PostgreSQL to create databases in (${TEST_URL_VARIABLE})",
    )  # fmt: skip
    parser.add_argument(
        "--redis-url", default=None,
        help=f"a Redis of its own (${REDIS_URL_VARIABLE}; else a redis-server started here)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.database_url:
        os.environ[TEST_URL_VARIABLE] = args.database_url
    if args.redis_url:
        os.environ[REDIS_URL_VARIABLE] = args.redis_url
    # Not run, and said why, rather than failed: `make bench` runs every bench with no arguments.
    if postgres_admin_url() is None:
        print(f"bench_cluster: not run, no PostgreSQL (--database-url or ${TEST_URL_VARIABLE})")
        return 0
    if not os.environ.get(REDIS_URL_VARIABLE) and shutil.which("redis-server") is None:
        print(f"bench_cluster: not run, no Redis (--redis-url, ${REDIS_URL_VARIABLE} "
              "or a redis-server binary)")  # fmt: skip
        return 0
    loads = [Path("/proc/loadavg").read_text().split(" ", 3)[:3]]
    trees: list[str | None] = list(args.server_src) if args.server_src else [None]
    results: dict[str | None, list[RoomResult]] = {tree: [] for tree in trees}
    # Each kind of room from every tree one after the other: what the machine's other work
    # does to the figures moves over minutes, so the trees are compared at the same moments.
    for room in args.rooms:
        for tree in trees:
            where = f" (the server from {tree})" if tree else ""
            print(f"{ROOMS[room]}{where}:", file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory() as folder:
                results[tree].append(run_room(room, args, Path(folder), tree))
    loads.append(Path("/proc/loadavg").read_text().split(" ", 3)[:3])
    for tree in trees:
        print()
        if tree:
            print(f"The server from {tree}:")
        print(report(results[tree], args, [" ".join(load) for load in loads]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
