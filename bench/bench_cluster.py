"""The same load against a shared room of 1 process and of 2 (PostgreSQL + Redis on this machine).

bench_server.py's load (websocket guests at tables with no bots, checking or
calling after a short think) is offered at growing numbers of tables to a room
of one ``stud serve`` process, then to a room of two (and, as the anchor, to
one process without Redis: the room of ``make serve``, on the same
PostgreSQL); each table is opened through one process, round robin, and its
players connect to that process (what a proxy that routes by table would do).
For each size it prints actions per second, p50 and p99 from an action to its
event at every client, the servers' CPU per action and what Redis and
PostgreSQL carried per action (Redis commands and CPU, PostgreSQL
transactions and rows written). The figure that counts: the most actions per second each room
served with p99 under ``--p99-bound``, and the ratio of two processes to one.

    python bench/bench_cluster.py                      # 60 120 240 tables, 12 s each
    python bench/bench_cluster.py --tables 100 200 --seconds 20

Needs ``STUD_TEST_DATABASE_URL`` (a PostgreSQL it may create databases in) and
``STUD_TEST_REDIS_URL`` or a ``redis-server`` binary. Loopback only; bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis
import uvloop
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import Bench, Seat, cpu_split, open_table, percentile
from stud.server.cluster.testing import Cluster, redis_for_tests
from stud.server.testing import (
    TEST_URL_VARIABLE,
    Client,
    ServerProcess,
    fresh_database,
    postgres_admin_url,
)

SERVER_ARGS = ("--no-default-tables", "--pause", "0.5", "--turn-seconds", "30",
               "--signups", "1e9")  # fmt: skip


def redis_load(url: str) -> dict[str, float]:
    """Redis's own CPU seconds and commands so far (INFO)."""
    client = redis.Redis.from_url(url)
    try:
        cpu = client.info("cpu")
        stats = client.info("stats")
    finally:
        client.close()
    return {
        "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        "commands": float(stats["total_commands_processed"]),
    }


def postgres_load(url: str) -> dict[str, float]:
    """This database's transactions and rows written so far (pg_stat_database)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database "
                     "WHERE datname = current_database()")
            ).one()  # fmt: skip
    finally:
        engine.dispose()
    return {"commits": float(row[0]), "rows": float(row[1]) + float(row[2])}


async def run_load(
    servers: list[ServerProcess], args: argparse.Namespace, tables: int, urls: tuple[str, str]
) -> dict[str, Any]:
    """Open ``tables`` tables over ``servers``, play them, measure for ``args.seconds``."""
    bench = Bench(args.players)
    think = (args.think_min, args.think_max)
    tasks: list[asyncio.Task[None]] = []
    clients: list[Client] = []
    https = [httpx.AsyncClient(base_url=s.base, timeout=120) for s in servers]
    try:
        for first in range(0, tables, 10):
            batch = await asyncio.gather(
                *(open_table(https[t % len(servers)], servers[t % len(servers)], bench, t,
                             args.players)
                  for t in range(first, min(first + 10, tables)))
            )  # fmt: skip
            for table, table_clients in batch:
                for client in table_clients:
                    tasks.append(asyncio.create_task(Seat(client, table, bench).run(think)))
                    clients.append(client)
    finally:
        for http in https:
            await http.aclose()
    await asyncio.sleep(args.warmup)
    pids = [s.proc.pid for s in servers if s.proc is not None]
    redis_url, database_url = urls
    redis_before = await asyncio.to_thread(redis_load, redis_url)
    pg_before = await asyncio.to_thread(postgres_load, database_url)
    start = time.monotonic()
    bench.stop = start + args.seconds
    bench.measuring = True
    server_cpu, own_cpu = sum(sum(cpu_split(p)) for p in pids), time.process_time()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        await asyncio.gather(*tasks)
    finally:
        gc.enable()
    elapsed = time.monotonic() - start
    server_cpu = sum(sum(cpu_split(p)) for p in pids) - server_cpu
    own_cpu = time.process_time() - own_cpu
    redis_after = await asyncio.to_thread(redis_load, redis_url)
    pg_after = await asyncio.to_thread(postgres_load, database_url)
    for client in clients:
        with contextlib.suppress(Exception):
            await client.close()
    lat = sorted(bench.latencies)
    actions = max(1, bench.actions)
    return {
        "processes": len(servers),
        "tables": tables,
        "actions_per_second": round(bench.actions / elapsed, 1),
        "p50_ms": round(1000 * percentile(lat, 0.5), 2),
        "p99_ms": round(1000 * percentile(lat, 0.99), 2),
        "server_cpu_ms_per_action": round(1000 * server_cpu / actions, 3),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "clients_cpu_share": round(own_cpu / elapsed, 2),
        "redis_cpu_ms_per_action": round(
            1000 * (redis_after["cpu"] - redis_before["cpu"]) / actions, 3
        ),
        "redis_commands_per_action": round(
            (redis_after["commands"] - redis_before["commands"]) / actions, 2
        ),
        "pg_commits_per_action": round((pg_after["commits"] - pg_before["commits"]) / actions, 3),
        "pg_rows_per_action": round((pg_after["rows"] - pg_before["rows"]) / actions, 3),
        "unanswered": len(bench.pending),
        "dropped_clients": bench.dropped,
    }


def one_size(args: argparse.Namespace, processes: int, tables: int, folder: Path) -> dict[str, Any]:
    """A fresh room of ``processes`` on a fresh database, loaded with ``tables`` tables."""
    with (
        redis_for_tests(folder) as redis_url,
        fresh_database("postgres", folder) as database_url,
        Cluster(database_url, redis_url, folder, extra_args=SERVER_ARGS,
                lease_seconds=args.lease_seconds,
                env={"PYTHONPATH": str(Path(__file__).resolve().parent.parent)}) as room,
    ):  # fmt: skip
        if processes == 0:  # the anchor: a room of one process, no Redis at all
            plain = ServerProcess(database_url, folder, extra_args=SERVER_ARGS,
                                  env={"PYTHONPATH": room.env["PYTHONPATH"]}).start()  # fmt: skip
            room.servers.append(plain)
            servers = [plain]
        else:
            servers = [room.add() for _ in range(processes)]
        result: dict[str, Any] = uvloop.run(
            run_load(servers, args, tables, (redis_url, database_url))
        )
        result["redis"] = processes > 0
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, nargs="+", default=[60, 120, 240])
    parser.add_argument("--players", type=int, default=3, help="websocket bots per table")
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think-min", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=0.6)
    parser.add_argument("--p99-bound", type=float, default=100.0, help="ms")
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    args = parser.parse_args()
    if postgres_admin_url() is None:
        print(f"bench_cluster: not run, {TEST_URL_VARIABLE} is not set (a PostgreSQL to use)")
        return 0
    results: list[dict[str, Any]] = []
    best: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}
    for tables in args.tables:
        for processes in (0, 1, 2):
            with tempfile.TemporaryDirectory() as folder:
                result = one_size(args, processes, tables, Path(folder))
            results.append(result)
            print(json.dumps(result), flush=True)
            if result["p99_ms"] <= args.p99_bound:
                best[processes] = max(best[processes], result["actions_per_second"])
    print()
    print(f"{'tables':>6} {'procs':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'srv ms/act':>10} {'redis cmd/act':>13} {'pg commits/act':>14}")  # fmt: skip
    for r in results:
        procs = f"{r['processes']}" if r["redis"] else "1 alone"
        print(f"{r['tables']:>6} {procs:>7} {r['actions_per_second']:>10} "
              f"{r['p50_ms']:>8} {r['p99_ms']:>8} {r['server_cpu_ms_per_action']:>10} "
              f"{r['redis_commands_per_action']:>13} {r['pg_commits_per_action']:>14}")  # fmt: skip
    ratio = best[2] / best[1] if best[1] else float("nan")
    print(
        f"most actions/s with p99 under {args.p99_bound:g} ms: one process without Redis "
        f"(the anchor) {best[0]}, a shared room of 1 process {best[1]}, of 2 processes "
        f"{best[2]}; ratio 2/1 {ratio:.2f} (target 1.6)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
