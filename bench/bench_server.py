"""Load bench: N tables of websocket bots through the real server stack on loopback.

A real ``stud.server`` process runs with no bots of its own; this process
opens N tables and seats ``--players`` websocket clients at each (guests that
check or call, after a short think time). It reports the actions per second
the room handled, and the 50th and 99th percentile of the time from a client
sending an action to the last client at that table receiving its event.
Loopback only; bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop

from stud.server.testing import Client, ServerProcess, fresh_database


class Seat:
    """One websocket bot: acts on its turn and timestamps every event it receives.

    It reads from the moment it sits down (a client that does not read its socket
    stalls the server's sends and its own keepalive pings).
    """

    def __init__(self, client: Client, table: int, bench: Bench) -> None:
        self.client = client
        self.table = table
        self.bench = bench

    async def run(self, think: tuple[float, float]) -> None:
        ws = self.client.ws
        acted: set[int] = set()
        while time.monotonic() < self.bench.stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            except Exception:
                self.bench.dropped += 1
                return
            now = time.monotonic()
            message = orjson.loads(text)
            if message["type"] == "event":
                self.bench.received(self.table, message["n"], now)
            elif message["type"] == "state":
                state = message["state"]
                turn = state["turn"]
                mine = turn and state["you"] is not None and turn["seat"] == state["you"]
                if mine and state["legal"] and turn["turn"] not in acted:
                    acted.add(turn["turn"])
                    legal = {a["action"]: a["to"] for a in state["legal"]}
                    action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
                    await asyncio.sleep(random.uniform(*think))
                    self.bench.sent(self.table, message["n"] + 1, time.monotonic())
                    act = {"type": "act", "table": self.table, "action": action,
                           "to": legal[action], "turn": turn["turn"]}  # fmt: skip
                    try:
                        await ws.send(json.dumps(act))
                    except Exception:
                        self.bench.dropped += 1
                        return


class Bench:
    """Pairs each action (the next event number at its table) with its receipts."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.pending: dict[tuple[int, int], tuple[float, int]] = {}
        self.latencies: list[float] = []
        self.actions = 0
        self.measuring = False
        self.stop = float("inf")
        self.dropped = 0

    def sent(self, table: int, n: int, at: float) -> None:
        if self.measuring:
            self.pending[(table, n)] = (at, 0)

    def received(self, table: int, n: int, at: float) -> None:
        entry = self.pending.get((table, n))
        if entry is None:
            return
        start, count = entry
        count += 1
        if count >= self.players:
            del self.pending[(table, n)]
            self.latencies.append(at - start)
            self.actions += 1
        else:
            self.pending[(table, n)] = (start, count)


async def open_table(
    http: httpx.AsyncClient, server: ServerProcess, bench: Bench, t: int, players: int
) -> tuple[int, list[Client]]:
    """A new table (its id) and its ``players`` guests, each seated."""
    clients = []
    for _ in range(players):
        response = await http.post("/api/guest")
        clients.append(Client(server.base, response.cookies.get("stud_session")))
    response = await http.post(
        "/api/tables",
        json={"name": f"bench-{t}", "game": ("stud", "stud8", "razz")[t % 3], "ante": 1,
              "bring_in": 2, "small_bet": 4, "big_bet": 8, "seats": players, "bots": 0},
        cookies={"stud_session": clients[0].cookie or ""},
    )  # fmt: skip
    table = int(response.json()["id"])
    for client in clients:
        await client.connect()
        await client.send({"type": "sit", "table": table, "buy_in": 400})
    return table, clients


async def probe(server: ServerProcess, bench: Bench, rtts: list[float]) -> None:
    """The anchor: round trips of a bare ping through the same server and event loops.

    No table work is in a ping, so its percentiles show what the machine's load alone
    costs a message; the action figures are read against them.
    """
    client = Client(server.base)
    await client.connect()
    try:
        while time.monotonic() < bench.stop:
            await asyncio.sleep(0.05)
            if not bench.measuring:
                continue
            sent = time.monotonic()
            await client.send({"type": "ping"})
            await client.until(lambda m: m["type"] == "pong", timeout=30)
            rtts.append(time.monotonic() - sent)
    finally:
        await client.close()


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time a process has used so far (Linux /proc), 0 if unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


async def main_async(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    bench = Bench(args.players)
    think = (args.think_min, args.think_max)
    tasks: list[asyncio.Task[None]] = []
    clients: list[Client] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        for first in range(0, args.tables, 10):
            batch = await asyncio.gather(
                *(open_table(http, server, bench, t, args.players)
                  for t in range(first, min(first + 10, args.tables)))
            )  # fmt: skip
            for table, table_clients in batch:
                for client in table_clients:
                    seat = Seat(client, table, bench)
                    tasks.append(asyncio.create_task(seat.run(think)))
                    clients.append(client)
    rtts: list[float] = []
    tasks.append(asyncio.create_task(probe(server, bench, rtts)))
    await asyncio.sleep(args.warmup)
    start = time.monotonic()
    bench.stop = start + args.seconds
    bench.measuring = True
    pid = server.proc.pid if server.proc else None
    print(f"measuring for {args.seconds} s (server pid {pid})", file=sys.stderr, flush=True)
    server_cpu, own_cpu = cpu_seconds(pid), time.process_time()
    # The instrument's own collector pauses are not the server's latency: off while measuring.
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        await asyncio.gather(*tasks)
    finally:
        gc.enable()
    elapsed = time.monotonic() - start
    server_cpu, own_cpu = cpu_seconds(pid) - server_cpu, time.process_time() - own_cpu
    for client in clients:
        with contextlib.suppress(Exception):
            await client.close()
    lat = sorted(bench.latencies)
    if not lat:
        raise SystemExit("no action completed")
    return {
        "tables": args.tables,
        "clients": len(clients),
        "seconds": round(elapsed, 1),
        "actions": bench.actions,
        "actions_per_second": round(bench.actions / elapsed, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 2),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2),
        "max_ms": round(1000 * lat[-1], 2),
        "ping_p50_ms": round(1000 * percentile(rtts, 0.5), 2),
        "ping_p99_ms": round(1000 * percentile(rtts, 0.99), 2),
        "p99_over_ping_p99": round(percentile(lat, 0.99) / percentile(rtts, 0.99), 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, bench.actions), 2),
        "clients_cpu_share": round(own_cpu / elapsed, 2),
        "unanswered": len(bench.pending),
        "dropped_clients": bench.dropped,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=3, help="websocket bots per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think-min", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=0.6)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--hand-factory", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    # Another hand factory (module:function) only while developing without the engine.
    factory = ("--hand-factory", args.hand_factory) if args.hand_factory else ()
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(
            url, Path(folder),
            extra_args=("--no-default-tables", "--pause", "0.5", "--turn-seconds", "30",
                        "--signups", "1e9", *factory),  # every guest from one address
            env={"PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        ).start()  # fmt: skip
        try:
            # The clients' own loop is uvloop too (it comes with uvicorn[standard]), so the
            # instrument adds as little of its own delay as the server's loop does.
            result = uvloop.run(main_async(args, server))
        finally:
            server.stop()
    print(json.dumps(result))
    ok = result["p99_ms"] < 100
    print(
        f"{result['tables']} tables, {result['clients']} websocket clients: "
        f"{result['actions_per_second']} actions/s, action->every client p50 "
        f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms ({'under' if ok else 'OVER'} 100 ms); "
        f"anchor: a bare ping's round trip p50 {result['ping_p50_ms']} ms, p99 "
        f"{result['ping_p99_ms']} ms (action p99 = {result['p99_over_ping_p99']} x ping p99); "
        f"server CPU {result['server_cpu_ms_per_action']} ms per action "
        f"({result['server_cpu_share']} of a core)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
