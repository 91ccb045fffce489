"""Action latency at a busy table while accounts import large PokerStars files (issue 38).

Starts a real server on loopback with one fast table (a person and three bots acting
within 10-20 ms) and measures, from the person's socket, the time from sending an action
to receiving its event: first with no import (the anchor), then while ``--uploaders``
clients loop on ``POST /api/me/imports`` with a file of ``--hands`` hands each (the
project's own PokerStars text; after the first upload every hand is read and replayed
again, then refused as already imported). The upload is read in a worker process, so the
table's p50/p99 should stay near the anchor's; the ratios are printed side by side.

    python bench/bench_imports.py                      # this tree
    python bench/bench_imports.py --in-thread          # the same work in a server thread
    python bench/bench_imports.py --server-src /tmp/main/src   # another tree
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench_login_flood import ARGS, Phase, measure
from stud.history.describe import pokerstars_description
from stud.history.pokerstars_write import write_pokerstars
from stud.history.samples import sample_hand
from stud.server.http.offload import IN_THREAD
from stud.testing.server import Client, ServerProcess, fresh_database


def big_file(hands: int, seed: int) -> bytes:
    """``hands`` hands of the three games as one PokerStars file, as a player's client
    writes them."""
    games = ("stud", "stud8", "razz")
    records = [
        sample_hand(games[n % 3], 2 + n % 7, seed + n)  # type: ignore[arg-type]
        for n in range(hands)
    ]
    return write_pokerstars(records, describe=pokerstars_description).encode()


def uploader(
    base: str, data: bytes, stop: threading.Event, counts: dict[str, int], lock: threading.Lock
) -> None:
    """One account uploading the file again and again, as fast as the server answers."""
    with httpx.Client(base_url=base, timeout=300) as http:
        http.post("/api/guest").raise_for_status()
        while not stop.is_set():
            started = time.perf_counter()
            try:
                answer = http.post("/api/me/imports", files=[("files", ("big.txt", data))])
            except httpx.HTTPError:
                continue
            body = answer.json() if answer.status_code == 200 else {}
            with lock:
                counts["uploads"] = counts.get("uploads", 0) + 1
                counts["hands_read"] = (
                    counts.get("hands_read", 0) + body.get("imported", 0)
                    + len(body.get("refused", []))
                )  # fmt: skip
                counts[f"status_{answer.status_code}"] = (
                    counts.get(f"status_{answer.status_code}", 0) + 1
                )
                counts["upload_ms_total"] = counts.get("upload_ms_total", 0) + int(
                    1000 * (time.perf_counter() - started)
                )


async def run(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    guest = Client.guest(server.base)
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "busy", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 4, "bots": 3, "max_buy_in": 8000},
        cookies={"stud_session": guest.cookie or ""}, timeout=30,
    )  # fmt: skip
    table = int(response.json()["id"])
    await guest.connect()
    # Chips for both phases: the person calls down every hand.
    await guest.send({"type": "sit", "table": table, "buy_in": 8000})
    data = big_file(args.hands, 1000)
    await measure(table, guest, 5, args.seconds)  # warm up
    quiet = await measure(table, guest, args.actions, args.seconds)
    stop = threading.Event()
    lock = threading.Lock()
    counts: dict[str, int] = {}
    threads = [
        threading.Thread(target=uploader, args=(server.base, data, stop, counts, lock), daemon=True)
        for _ in range(args.uploaders)
    ]
    for thread in threads:
        thread.start()
    await asyncio.sleep(1.0)
    started = time.perf_counter()
    loud = await measure(table, guest, args.actions, args.seconds)
    seconds = time.perf_counter() - started
    stop.set()
    for thread in threads:
        thread.join(timeout=300)
    await guest.close()
    return {"quiet": quiet, "import": loud, "counts": counts, "seconds": seconds,
            "bytes": len(data)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200, help="actions measured per phase")
    parser.add_argument("--uploaders", type=int, default=2)
    parser.add_argument("--hands", type=int, default=2000, help="hands in each upload")
    parser.add_argument("--seconds", type=float, default=120, help="longest phase (seconds)")
    parser.add_argument("--server-src", default=None, help="run the server from this src/ tree")
    parser.add_argument(
        "--in-thread", action="store_true", help="read uploads in a server thread, not a process"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = {"PYTHONPATH": args.server_src} if args.server_src else {}
    if args.in_thread:
        env[IN_THREAD] = "1"
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(url, Path(folder), extra_args=ARGS, env=env).start()
        try:
            result = asyncio.run(run(server, args))
        finally:
            server.stop()
    quiet: Phase = result["quiet"]
    loud: Phase = result["import"]
    counts = result["counts"]
    size = result["bytes"] / 1e6
    where = "a server thread" if args.in_thread else "a worker process"
    print(f"server: {args.server_src or 'this tree'}, uploads read in {where}; "
          f"{args.uploaders} uploaders of "
          f"{args.hands} hands ({size:.1f} MB) each; cpus {os.cpu_count()}")  # fmt: skip
    print(quiet.line("no import (anchor):"))
    print(loud.line("during imports:    ", quiet))
    uploads = max(1, counts.get("uploads", 0))
    rate = counts.get("hands_read", 0) / max(result["seconds"], 1e-9)
    print(f"uploads answered: {counts.get('uploads', 0)} "
          f"({', '.join(f'{k[7:]}: {v}' for k, v in counts.items() if k.startswith('status_'))}), "
          f"{rate:.0f} hands read/s, {counts.get('upload_ms_total', 0) / uploads / 1000:.1f} s "
          "an upload")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
