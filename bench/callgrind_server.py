"""The server's CPU instructions per action, counted by valgrind's callgrind, per thread.

Wall-clock CPU per action on a shared machine moves with the machine's load
(docs/performance.md); instructions do not. This runs a real
``stud serve`` under ``valgrind --tool=callgrind`` (counting only while it
measures), drives it with bench_server's websocket seats (``--tables`` tables
of three guests that check or call at once), and prints the instructions per
action of each server thread: the event loop (thread 1: tables, sockets,
encoding) and the others (the database writer, SQLite's checkpointer).

``--server-src A B ...`` measures several trees (each an export of a commit
with its compiled ``.so`` files, or ``src``) *at the same time*, one server
each: work that runs by the clock (keepalive pings, checkpoints) is charged
to the actions that happened meanwhile, so a server that valgrind runs
slowly on a loaded machine shows more of it; trees measured side by side
share the conditions. ``--rooms`` measures each tree in several rooms at once:
on SQLite (the default), on PostgreSQL, and as one process of a shared room
(PostgreSQL and Redis: ``STUD_TEST_DATABASE_URL``, and ``STUD_TEST_REDIS_URL``
or a ``redis-server`` started for it). Needs valgrind (Debian's ``valgrind``);
takes minutes. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import Bench, Seat, open_table
from stud.testing.cluster import redis_for_tests
from stud.testing.server import CROWD, free_port, fresh_database

ROOMS = ("sqlite", "postgres", "shared")


class Served:
    """Where the measured server listens (what ``open_table`` and the seats need of it)."""

    def __init__(self, port: int) -> None:
        self.port = port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def drive(server: Served, pid: int, tables: int, actions: int) -> int:
    """Seat the tables, play until warm, count ``actions`` actions under callgrind."""
    bench = Bench(3, 5.0)
    seats = []
    async with httpx.AsyncClient(base_url=server.base, timeout=600) as http:
        for t in range(tables):
            table, clients = await open_table(http, server, bench, t, 3)  # type: ignore[arg-type]
            for client in clients:
                seats.append(asyncio.create_task(Seat(client, table, bench).run((0.02, 0.05))))
    bench.measuring = True
    while bench.actions < 60:  # warm: every table dealt, the caches filled
        await asyncio.sleep(0.2)
    control(pid, "on")
    start = bench.actions
    while bench.actions - start < actions:
        await asyncio.sleep(0.05)
    control(pid, "off")
    done = bench.actions - start
    bench.stop, bench.drain = time.monotonic(), 0
    for seat in seats:
        seat.cancel()
    return done


def control(pid: int, state: str) -> None:
    subprocess.run(["callgrind_control", "-i", state, str(pid)], capture_output=True, check=False)


def measure(
    src: str, room: str, tables: int, actions: int, keep: Path | None = None
) -> dict[str, int]:
    """Instructions per action by thread (``"1"`` is the event loop) and ``"total"``; with
    ``keep``, callgrind's files are copied there (for ``callgrind_annotate``)."""
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        port = free_port()
        env = {**CROWD, **os.environ, "PYTHONPATH": src,
               "STUD_DATABASE_URL": f"sqlite:///{folder}/stud.sqlite3"}  # fmt: skip
        if room != "sqlite":
            env["STUD_DATABASE_URL"] = stack.enter_context(fresh_database("postgres", Path(folder)))
        if room == "shared":
            env["STUD_REDIS_URL"] = stack.enter_context(redis_for_tests(Path(folder)))
            # Valgrind runs the server some 50 times slower: a lease renewed every 1.25 s
            # could lapse. Renewed every 7.5 s here, so less of that upkeep per action.
            env["STUD_LEASE_SECONDS"] = "30"
        out = f"{folder}/callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
            f"--callgrind-out-file={out}", sys.executable, "-m", "stud", "serve",
            "--host", "127.0.0.1", "--port", str(port), "--data-dir", folder,
            "--no-default-tables", "--no-default-tournaments", "--pause", "0.5",
            "--turn-seconds", "600", "--signups", "1e9",
        ]  # fmt: skip
        with open(f"{folder}/log", "wb") as log:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                wait_healthy(Served(port), proc, Path(folder) / "log")
                done = asyncio.run(drive(Served(port), proc.pid, tables, actions))
            finally:
                proc.send_signal(2)
                proc.wait(300)
        counts = {"actions": done}
        for path in Path(folder).glob("callgrind.out-*"):
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, keep / path.name)
            text = path.read_text()
            thread = re.search(r"^thread: (\d+)", text, re.M)
            total = re.search(r"^totals: (\d+)", text, re.M)
            if thread and total and int(total.group(1)):
                counts[thread.group(1)] = int(total.group(1)) // done
        counts["total"] = sum(v for k, v in counts.items() if k != "actions")
        return counts


def wait_healthy(server: Served, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 600  # valgrind starts Python slowly on a loaded machine
    while True:
        try:
            if httpx.get(server.base + "/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server-src", nargs="+", default=["src"], metavar="DIR")
    parser.add_argument(
        "--rooms", nargs="+", choices=ROOMS, default=["sqlite"],
        help="sqlite (make serve's room), postgres (one process, no Redis) or shared (one "
        "process of a shared room: PostgreSQL and Redis); each tree is measured in each",
    )  # fmt: skip
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=300, help="actions counted (300)")
    parser.add_argument(
        "--keep", type=Path, default=None, metavar="DIR",
        help="keep callgrind's output of each run in DIR/<n>-<room>/ (thread 1: the event "
        "loop), to read with callgrind_annotate --inclusive=yes",
    )  # fmt: skip
    args = parser.parse_args()
    runs = [(str(Path(src).resolve()), room) for src in args.server_src for room in args.rooms]
    with ThreadPoolExecutor(len(runs)) as pool:
        results = list(
            pool.map(
                lambda i: measure(
                    runs[i][0], runs[i][1], args.tables, args.actions,
                    None if args.keep is None else args.keep / f"{i}-{runs[i][1]}",
                ),
                range(len(runs)),
            )
        )  # fmt: skip
    first = results[0]["total"]
    for (src, room), counts in zip(runs, results, strict=True):
        threads = ", ".join(
            f"{'event loop' if k == '1' else 'thread ' + k} {v:,}"
            for k, v in sorted(counts.items())
            if k not in ("total", "actions")
        )
        print(f"{src} ({room}): {counts['total']:,} instructions per action "
              f"(x{counts['total'] / first:.2f} of the first; {threads})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
