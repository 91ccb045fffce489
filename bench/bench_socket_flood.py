"""Action latency at a busy table while one attacker holds 100 websockets (issue 35, finding 2).

Starts a real server on loopback with one fast table (a person and three bots acting
within 10-20 ms) and measures, from the person's socket, the time from sending an
action to receiving its event: first with no attacker (the anchor), then while one
attacker (one session, one address: ``X-Forwarded-For`` through the listed proxy
127.0.0.1) opens 100 sockets, each sending ``watch`` at 19 a second, just under the
old per-socket limit. Printed side by side with the attacker's sockets admitted and
the ``rate_limited`` answers it got. The attacker runs in a process of its own.

    python bench/bench_socket_flood.py                                   # this tree
    python bench/bench_socket_flood.py --server-src /tmp/main/src --before   # a tree without caps
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench_login_flood import ARGS, measure, percentile, seated_at_busy_table
from stud.testing.server import ServerProcess, fresh_database

ATTACKER = "203.0.113.9"


async def attack(base: str, cookie: str, table: int, sockets: int, rate: float, stop: Any,
                 counts: Any) -> None:  # fmt: skip
    """``sockets`` sockets on one session, each sending ``watch`` ``rate`` times a second and
    reading what comes back, until ``stop`` is set."""
    url = base.replace("http://", "ws://") + "/ws"
    headers = {"Cookie": f"stud_session={cookie}", "X-Forwarded-For": ATTACKER}

    async def one() -> None:
        try:
            ws = await websockets.connect(url, additional_headers=headers, max_size=2**22)
        except Exception:
            return
        welcome = json.loads(await ws.recv())
        if welcome.get("type") != "welcome":
            with counts.get_lock():
                counts[1] += 1  # refused
            await ws.close()
            return
        with counts.get_lock():
            counts[0] += 1  # admitted

        async def read() -> None:
            async for text in ws:
                if "rate_limited" in text or "flood" in text:
                    with counts.get_lock():
                        counts[2] += 1

        reader = asyncio.create_task(read())
        message = json.dumps({"type": "watch", "table": table})
        try:
            while not stop.is_set() and not reader.done():
                await ws.send(message)
                await asyncio.sleep(1 / rate)
        except websockets.ConnectionClosed:
            pass
        reader.cancel()
        await ws.close()

    await asyncio.gather(*(one() for _ in range(sockets)))


def attacker_process(base: str, cookie: str, table: int, sockets: int, rate: float, stop: Any,
                     counts: Any) -> None:  # fmt: skip
    asyncio.run(attack(base, cookie, table, sockets, rate, stop, counts))


async def run(server: ServerProcess, actions: int, sockets: int, seconds: float) -> dict[str, Any]:
    table, guest = await seated_at_busy_table(server, seconds)
    quiet = await measure(table, guest, actions, seconds)
    attacker = httpx.post(server.base + "/api/guest", headers={"X-Forwarded-For": ATTACKER})
    cookie = attacker.cookies.get("stud_session") or ""
    stop = multiprocessing.Event()
    counts = multiprocessing.Array("i", 3)
    process = multiprocessing.Process(
        target=attacker_process, args=(server.base, cookie, table, sockets, 19.0, stop, counts)
    )
    process.start()
    await asyncio.sleep(2.0)  # the sockets open
    loud = await measure(table, guest, actions, seconds)
    stop.set()
    process.join(timeout=60)
    await guest.close()
    return {"quiet": quiet, "attack": loud, "counts": [counts[i] for i in range(3)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=150, help="actions measured per phase")
    parser.add_argument("--sockets", type=int, default=100, help="the attacker's sockets")
    parser.add_argument("--seconds", type=float, default=120, help="longest phase (seconds)")
    parser.add_argument("--server-src", default=None, help="run the server from this src/ tree")
    parser.add_argument(
        "--before", action="store_true",
        help="a server without --forwarded-allow-ips (it trusted 127.0.0.1's headers anyway)",
    )  # fmt: skip
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = {"PYTHONPATH": args.server_src} if args.server_src else {}
    # The room's default caps, stated: a bench's servers otherwise lift the per-address ones.
    caps = (
        "--forwarded-allow-ips",
        "127.0.0.1",
        "--sockets",
        "8",
        "32",
        "--message-rate",
        "20",
        "60",
    )
    extra = ARGS if args.before else (*ARGS, *caps)
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(url, Path(folder), extra_args=extra, env=env).start()
        try:
            result = asyncio.run(run(server, args.actions, args.sockets, args.seconds))
        finally:
            server.stop()
    quiet, loud = result["quiet"], result["attack"]
    admitted, refused, limited = result["counts"]
    print(f"server: {args.server_src or 'this tree'}; {args.sockets} attacker sockets at 19 "
          f"watch/s each; cpus {os.cpu_count()}")  # fmt: skip
    print(quiet.line("no attacker (anchor):"))
    print(loud.line("100 attacker sockets:", quiet))
    if quiet.latencies and loud.latencies:
        moved = [
            (percentile(loud.latencies, q) - percentile(quiet.latencies, q)) * 1000
            for q in (50, 99)
        ]
        print(
            f"the attacker moved the person's p50 by {moved[0]:+.1f} ms, p99 by {moved[1]:+.1f} ms"
        )
    print(f"attacker sockets admitted {admitted}, refused {refused}; "
          f"rate_limited/flood answers {limited}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
