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
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from stud.server.testing import Client, ServerProcess, fresh_database


class Seat:
    """One websocket bot: acts on its turn and timestamps every event it receives."""

    def __init__(self, client: Client, table: int, bench: Bench) -> None:
        self.client = client
        self.table = table
        self.bench = bench

    async def run(self, stop: float, think: tuple[float, float]) -> None:
        ws = self.client.ws
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except (TimeoutError, Exception):
                return
            now = time.monotonic()
            message = json.loads(text)
            if message["type"] == "event":
                self.bench.received(self.table, message["n"], now)
            elif message["type"] == "state":
                state = message["state"]
                turn = state["turn"]
                if turn and state["you"] is not None and turn["seat"] == state["you"]:
                    legal = {a["action"]: a["to"] for a in state["legal"]}
                    action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
                    await asyncio.sleep(random.uniform(*think))
                    self.bench.sent(self.table, message["n"] + 1, time.monotonic())
                    act = {"type": "act", "table": self.table, "action": action,
                           "to": legal[action], "turn": turn["turn"]}  # fmt: skip
                    await ws.send(json.dumps(act))


class Bench:
    """Pairs each action (the next event number at its table) with its receipts."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.pending: dict[tuple[int, int], tuple[float, int, float]] = {}
        self.latencies: list[float] = []
        self.actions = 0

    def sent(self, table: int, n: int, at: float) -> None:
        self.pending[(table, n)] = (at, 0, at)

    def received(self, table: int, n: int, at: float) -> None:
        entry = self.pending.get((table, n))
        if entry is None:
            return
        start, count, _ = entry
        count += 1
        if count >= self.players:
            del self.pending[(table, n)]
            self.latencies.append(at - start)
            self.actions += 1
        else:
            self.pending[(table, n)] = (start, count, at)


async def main_async(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    bench = Bench(args.players)
    seats: list[Seat] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        for t in range(args.tables):
            clients = []
            for _ in range(args.players):
                response = await http.post("/api/guest")
                client = Client(server.base, response.cookies.get("stud_session"))
                clients.append(client)
            response = await http.post(
                "/api/tables",
                json={"name": f"bench-{t}", "game": ("stud", "stud8", "razz")[t % 3], "ante": 1,
                      "bring_in": 2, "small_bet": 4, "big_bet": 8, "seats": args.players,
                      "bots": 0},
                cookies={"stud_session": clients[0].cookie or ""},
            )  # fmt: skip
            table = int(response.json()["id"])
            for client in clients:
                await client.connect()
                await client.send({"type": "sit", "table": table, "buy_in": 400})
                seats.append(Seat(client, table, bench))
    start = time.monotonic()
    stop = start + args.seconds
    await asyncio.gather(*(seat.run(stop, (args.think_min, args.think_max)) for seat in seats))
    elapsed = time.monotonic() - start
    for seat in seats:
        await seat.client.close()
    lat = sorted(bench.latencies)
    if not lat:
        raise SystemExit("no action completed")
    return {
        "tables": args.tables,
        "clients": len(seats),
        "seconds": round(elapsed, 1),
        "actions": bench.actions,
        "actions_per_second": round(bench.actions / elapsed, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 2),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=3, help="websocket bots per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think-min", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=0.6)
    parser.add_argument("--hand-factory", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    # Another hand factory (module:function) only while developing without the engine.
    factory = ("--hand-factory", args.hand_factory) if args.hand_factory else ()
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(
            url, Path(folder),
            extra_args=("--no-default-tables", "--pause", "0.5", "--turn-seconds", "30", *factory),
            env={"PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        ).start()  # fmt: skip
        try:
            result = asyncio.run(main_async(args, server))
        finally:
            server.stop()
    print(json.dumps(result))
    ok = result["p99_ms"] < 100
    print(
        f"{result['tables']} tables, {result['clients']} websocket clients: "
        f"{result['actions_per_second']} actions/s, action->every client p50 "
        f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms ({'under' if ok else 'OVER'} 100 ms)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
