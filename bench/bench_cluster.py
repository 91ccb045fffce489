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

The players are guests at tables without bots, checking or calling 0.2-0.6 s
after their turn comes (bench_server.py's load), on a lean websocket client
(bench/lean_socket.py) so the generator takes as little as it can of the
cores it shares with the servers. The n-th table is opened through process
n mod 2 and its players connect there (a proxy that routes by table).
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
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import redis
import uvloop
from sqlalchemy import Engine, create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from capacity import Capacity, Costs, Meter, Point, ceilings, fit, percentile, ratio, search
from stud.server.cluster.testing import REDIS_URL_VARIABLE, Cluster, redis_for_tests
from stud.server.testing import (
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
    generator_cpu: float
    redis_cpu: float
    redis_commands: float
    pg_commits: float
    pg_rows: float
    pg_cpu: float
    machine_busy: float

    def __sub__(self, other: Usage) -> Usage:
        pairs = zip(asdict(self).values(), asdict(other).values(), strict=True)
        return Usage(*(a - b for a, b in pairs))


def cpu_seconds(pid: int) -> float:
    """CPU seconds every thread of process ``pid`` has run so far, to the nanosecond.

    ``/proc/PID/task/*/schedstat`` counts run time exactly, where ``/proc/PID/stat``
    counts 10 ms clock ticks: too coarse for a PostgreSQL backend over a short window.
    """
    total = 0.0
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for thread in threads:
        try:
            total += int(Path(f"/proc/{pid}/task/{thread}/schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended between the listing and the read
    return total / 1e9


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
            database_url.replace("postgresql://", "postgresql+psycopg://", 1), pool_size=1
        )
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
        return Usage(
            at=time.monotonic(),
            servers_cpu=sum(cpu_seconds(pid) for pid in self.pids),
            generator_cpu=time.process_time(),
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
        await load.open(tables, bases)
        gc.collect()
        gc.freeze()  # what set-up made stays; the window's garbage is the players' alone
    load.set_busy(tables)
    await asyncio.sleep(args.warmup)
    meter = load.meter = Meter(args.players)
    dropped = load.dropped
    before = await asyncio.to_thread(gauges.read)
    meter.measuring = True
    pinger.start()
    gc.disable()  # the generator's collector pauses are not the room's latency
    try:
        await asyncio.sleep(args.seconds)
        meter.measuring = False
        pinger.stop()
        used = await asyncio.to_thread(gauges.read) - before
        drain_until = time.monotonic() + args.drain
        while meter.pending and time.monotonic() < drain_until:
            await asyncio.sleep(0.05)
    finally:
        gc.enable()
    # An action not answered within the drain counts as slower than any answered one.
    latencies = meter.latencies + [math.inf] * len(meter.pending)
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


def run_room(room: str, args: argparse.Namespace, folder: Path) -> RoomResult:
    """Start a fresh room of kind ``room`` and search its capacity at every bound."""
    env = {"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
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

        def at(tables: int) -> Point:
            point = loop.run_until_complete(
                measure(load, pinger, gauges, [s.base for s in servers], tables, args)
            )
            print(f"  {ROOMS[room]}: {describe(point)}", file=sys.stderr, flush=True)
            print(json.dumps({"room": room, **asdict(point)}), flush=True)
            return point

        try:
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


def describe(point: Point) -> str:
    f = point.figures
    return (
        f"{point.tables} tables: {point.actions_per_second} actions/s, p50 {point.p50_ms} ms, "
        f"p99 {point.p99_ms} ms (a bare ping's p99 {f['ping_p99_ms']} ms), "
        f"servers {f['servers_cpu_ms_per_action']} ms/action "
        f"({f['servers_cores']} cores), generator {f['generator_cpu_ms_per_action']} ms/action, "
        f"machine {f['machine_cores_busy']} cores busy"
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
    return float(getattr(point, key)) if hasattr(point, key) else point.figures[key]


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
                served += " (the most offered: it may serve more, see --most)"
            parts.append(f"{ROOMS[result.room]}: {served}")
        lines.append(f"capacity at p99 <= {bound:g} ms: " + "; ".join(parts))
        if "1" in by_room and "2" in by_room:
            two_to_one = ratio(by_room["2"].capacities[index], by_room["1"].capacities[index])
            pair = (by_room["2"].capacities[index], by_room["1"].capacities[index])
            verdict = "met" if two_to_one >= 1.6 else "not met"
            if any(c.best is not None and c.first_over is None for c in pair):
                verdict = "not measured: a room served the most offered, raise --most"
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
    results = []
    for room in args.rooms:
        print(f"{ROOMS[room]}:", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory() as folder:
            results.append(run_room(room, args, Path(folder)))
    loads.append(Path("/proc/loadavg").read_text().split(" ", 3)[:3])
    print()
    print(report(results, args, [" ".join(load) for load in loads]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
