"""Action latency at a busy table while clients flood ``POST /api/login`` (issue 13, defect 2).

Starts a real server on loopback with one fast table (a person and three bots
acting within 10-20 ms) and measures, from the person's socket, the time from
sending an action to receiving its event. First with no flood (the anchor),
then while 8 clients loop on ``POST /api/login`` with wrong passwords. With
``--no-throttle`` the failed-login throttle is lifted (as for a flood from many
addresses), so only hashing off the event loop protects the table.

    python bench/bench_login_flood.py                         # this tree
    python bench/bench_login_flood.py --server-src /tmp/main/src   # another tree (before)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from stud.server.testing import Client, ServerProcess, fresh_database

ARGS = (
    "--no-default-tables", "--pause", "0.05", "--bot-delay", "0.01", "0.02",
    "--turn-seconds", "20", "--seed", "1",
)  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def measure(server: ServerProcess, table: int, me: Client, actions: int) -> list[float]:
    """Seconds from each of the person's actions to its event coming back."""
    latencies: list[float] = []
    acted: set[int] = set()
    sent: dict[int, float] = {}
    while len(latencies) < actions:
        message = await me.recv(timeout=60)
        if message["type"] == "event":
            event = message["event"]
            if event["type"] == "action" and sent and event["seat"] in sent:
                latencies.append(time.perf_counter() - sent.pop(event["seat"]))
            continue
        if message["type"] != "state":
            continue
        state = message["state"]
        turn = state["turn"]
        if turn and state["you"] == turn["seat"] and state["legal"] and turn["turn"] not in acted:
            acted.add(turn["turn"])
            legal = state["legal"]
            passive = [a for a in legal if a["action"] in ("check", "call", "bring-in")]
            choice = (passive or legal)[0]
            sent[state["you"]] = time.perf_counter()
            await me.send({"type": "act", "table": table, "action": choice["action"],
                           "to": choice["to"], "turn": turn["turn"]})  # fmt: skip
    return latencies


def flood(base: str, stop: threading.Event, counts: dict[int, int]) -> None:
    """One client looping on a wrong password, as fast as the server answers."""
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            try:
                code = http.post("/api/login", json={"name": "victim", "password": "guess-123"})
            except httpx.HTTPError:
                continue
            counts[code.status_code] = counts.get(code.status_code, 0) + 1


async def run(server: ServerProcess, actions: int, flooders: int) -> dict[str, Any]:
    victim = {"name": "victim", "password": "right-password"}
    httpx.post(server.base + "/api/register", json=victim, timeout=30).raise_for_status()
    guest = Client.guest(server.base)
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "busy", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 4, "bots": 3},
        cookies={"stud_session": guest.cookie or ""}, timeout=30,
    )  # fmt: skip
    table = int(response.json()["id"])
    await guest.connect()
    await guest.send({"type": "sit", "table": table, "buy_in": 400})
    await measure(server, table, guest, 5)  # warm up
    quiet = await measure(server, table, guest, actions)
    stop = threading.Event()
    counts: dict[int, int] = {}
    threads = [
        threading.Thread(target=flood, args=(server.base, stop, counts), daemon=True)
        for _ in range(flooders)
    ]
    for thread in threads:
        thread.start()
    await asyncio.sleep(1.0)
    started = time.perf_counter()
    loud = await measure(server, table, guest, actions)
    seconds = time.perf_counter() - started
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    await guest.close()
    return {"quiet": quiet, "flood": loud, "logins": counts, "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=150, help="actions measured per phase")
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--server-src", default=None, help="run the server from this src/ tree")
    parser.add_argument("--no-throttle", action="store_true", help="lift the login throttle")
    args = parser.parse_args()
    env = {"PYTHONPATH": args.server_src} if args.server_src else {}
    extra = ARGS + (("--login-failures", "1e9", "1e9") if args.no_throttle else ())
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(url, Path(folder), extra_args=extra, env=env).start()
        try:
            result = asyncio.run(run(server, args.actions, args.flooders))
        finally:
            server.stop()
    quiet, loud = result["quiet"], result["flood"]
    q50, q99 = percentile(quiet, 50) * 1000, percentile(quiet, 99) * 1000
    f50, f99 = percentile(loud, 50) * 1000, percentile(loud, 99) * 1000
    where = args.server_src or "this tree"
    throttle = "throttle lifted" if args.no_throttle else "throttle on"
    print(f"server: {where} ({throttle}); {args.flooders} login flooders; cpus {os.cpu_count()}")
    print(f"no flood (anchor): action p50 {q50:7.1f} ms  p99 {q99:7.1f} ms")
    print(f"login flood:       action p50 {f50:7.1f} ms  p99 {f99:7.1f} ms"
          f"   (x{f50 / q50:.1f} / x{f99 / q99:.1f} the anchor)")  # fmt: skip
    rate = sum(result["logins"].values()) / max(result["seconds"], 1e-9)
    print(f"login answers during the flood: {dict(sorted(result['logins'].items()))} "
          f"({rate:.0f}/s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
