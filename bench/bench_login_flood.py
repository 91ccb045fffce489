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
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from stud.testing.server import Client, ServerProcess, fresh_database

ARGS = (
    "--no-default-tables", "--pause", "0.05", "--bot-delay", "0.01", "0.02",
    "--turn-seconds", "20", "--seed", "1",
)  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def measure(table: int, me: Client, actions: int, seconds: float) -> Phase:
    """Seconds from each of the person's actions to its event coming back, for at most
    ``seconds``; turns the person lost to the clock are counted (and it sits back in)."""
    phase = Phase()
    acted: set[int] = set()
    sent: dict[int, float] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while len(phase.latencies) < actions and loop.time() < deadline:
        try:
            message = await me.recv(timeout=max(0.1, deadline - loop.time()))
        except TimeoutError:
            break
        if message["type"] == "event":
            event = message["event"]
            if event["type"] == "timeout" and event["seat"] in sent:
                phase.timeouts += 1
                sent.pop(event["seat"])
            elif event["type"] == "action" and event["seat"] in sent:
                phase.latencies.append(time.perf_counter() - sent.pop(event["seat"]))
            continue
        if message["type"] != "state":
            continue
        state = message["state"]
        mine = state["you"]
        if mine is not None and state["seats"][mine]["sitting_out"]:
            await me.send({"type": "sit_in", "table": table})
        turn = state["turn"]
        if turn and mine == turn["seat"] and state["legal"] and turn["turn"] not in acted:
            acted.add(turn["turn"])
            legal = state["legal"]
            passive = [a for a in legal if a["action"] in ("check", "call", "bring-in")]
            choice = (passive or legal)[0]
            sent[mine] = time.perf_counter()
            await me.send({"type": "act", "table": table, "action": choice["action"],
                           "to": choice["to"], "turn": turn["turn"]})  # fmt: skip
    return phase


@dataclass
class Phase:
    """One phase's action latencies (seconds) and turns lost to the clock."""

    latencies: list[float] = field(default_factory=list)
    timeouts: int = 0

    def line(self, label: str, anchor: Phase | None = None) -> str:
        if not self.latencies:
            return f"{label} no action came back; {self.timeouts} turns lost to the clock"
        p50, p99 = (percentile(self.latencies, q) * 1000 for q in (50, 99))
        text = f"{label} action p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  ({len(self.latencies)})"
        if anchor is not None and anchor.latencies:
            a50, a99 = (percentile(anchor.latencies, q) * 1000 for q in (50, 99))
            text += f"   x{p50 / a50:.1f} / x{p99 / a99:.1f} the anchor"
        return text + (f"; {self.timeouts} turns lost to the clock" if self.timeouts else "")


def flood(base: str, stop: threading.Event, counts: dict[int, int]) -> None:
    """One client looping on a wrong password, as fast as the server answers."""
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            try:
                code = http.post("/api/login", json={"name": "victim", "password": "guess-123"})
            except httpx.HTTPError:
                continue
            counts[code.status_code] = counts.get(code.status_code, 0) + 1


async def seated_at_busy_table(server: ServerProcess, seconds: float) -> tuple[int, Client]:
    """A guest seated at a new 4-seat stud table with three bots, warmed up: whose actions
    the floods' benches time."""
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
    await measure(table, guest, 5, seconds)  # warm up
    return table, guest


async def run(server: ServerProcess, actions: int, flooders: int, seconds: float) -> dict[str, Any]:
    victim = {"name": "victim", "password": "right-password"}
    httpx.post(server.base + "/api/register", json=victim, timeout=30).raise_for_status()
    table, guest = await seated_at_busy_table(server, seconds)
    quiet = await measure(table, guest, actions, seconds)
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
    loud = await measure(table, guest, actions, seconds)
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
    parser.add_argument("--seconds", type=float, default=120, help="longest phase (seconds)")
    parser.add_argument("--server-src", default=None, help="run the server from this src/ tree")
    parser.add_argument("--no-throttle", action="store_true", help="lift the login throttle")
    args = parser.parse_args()
    # Killed (a time limit, ^C from a wrapper): still stop the server through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = {"PYTHONPATH": args.server_src} if args.server_src else {}
    extra = ARGS + (("--login-failures", "1e9", "1e9") if args.no_throttle else ())
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(url, Path(folder), extra_args=extra, env=env).start()
        try:
            result = asyncio.run(run(server, args.actions, args.flooders, args.seconds))
        finally:
            server.stop()
    quiet, loud = result["quiet"], result["flood"]
    where = args.server_src or "this tree"
    throttle = "throttle lifted" if args.no_throttle else "throttle on"
    print(f"server: {where} ({throttle}); {args.flooders} login flooders; cpus {os.cpu_count()}")
    print(quiet.line("no flood (anchor):"))
    print(loud.line("login flood:      ", quiet))
    rate = sum(result["logins"].values()) / max(result["seconds"], 1e-9)
    print(f"login answers during the flood: {dict(sorted(result['logins'].items()))} "
          f"({rate:.0f}/s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
