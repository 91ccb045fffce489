"""A hand's durable write on PostgreSQL, timed through the room's writer, tree against tree.

What a hand-ending action waits for before its events leave: the hand's end (its pot's
ledger rows, its record, the fence's check) written by the database writer thread and
committed. Each ``src/`` tree given runs the same writes in a process of its own, on a
fresh database of its own, one write at a time (as a quiet writer takes them), the
trees taking turns for ``--rounds`` rounds so they meet the machine's other work at
about the same moments. It prints, per tree, the time from submitting a write to its
future resolving (committed) for the hand's start and its end, p50/p90/p99, and the
ratios of each tree to the first; with the load average, as wall-clock figures on a
shared machine need. ``--loop-share`` adds a thread that works in Python that share of
the time in 2 ms turns, as the server's event loop does beside the writer: after each
reply it waits for, the writer must take the interpreter's lock back from it.

    python bench/bench_durable_write.py --trees OLD/src NEW/src   # about a minute
    python bench/bench_durable_write.py --trees OLD/src NEW/src --loop-share 0.4

Needs ``STUD_TEST_DATABASE_URL`` (a PostgreSQL it may create databases in).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FINISH = "finish"
START = "start"
LOOP_TURN = 0.002
"""How long the stand-in event loop works at a time (``--loop-share``)."""


def busy_loop(stop: threading.Event, busy: float, idle: float) -> None:
    """Stand-in for the server's event loop: Python work ``busy`` seconds at a time (holding
    the interpreter's lock the writer needs after each reply), then ``idle`` waiting."""
    while not stop.is_set():
        until = time.perf_counter() + busy
        while time.perf_counter() < until:
            sum(range(200))
        time.sleep(idle)


def worker(writes: int, loop_share: float = 0.0) -> dict[str, list[float]]:
    """Run in the tree under test: ``writes`` hands started and ended, one write at a time;
    beside them a thread busy ``loop_share`` of the time in 2 ms turns, if not 0."""
    from stud.server.storage import Database, TableSpec, fences
    from stud.testing.server import fresh_database

    spec = TableSpec(
        name="t", game="stud", ante=1, bring_in=2, small_bet=5, big_bet=10, seats=6, bots=0,
        min_buy_in=50, max_buy_in=5000,
    )  # fmt: skip
    times: dict[str, list[float]] = {START: [], FINISH: []}
    with tempfile.TemporaryDirectory() as folder, fresh_database("postgres", Path(folder)) as url:
        db = Database(url)
        db.start()
        tokens: dict[int, int] = {}
        db.store.fence = fences.TokenFence(tokens)
        store = db.store
        try:
            table = db.write_sync(lambda c: store.create_table(c, spec, None)).id
            tokens[table] = 1
            db.write_sync(lambda c: fences.claim(c, store, table, 1, "a", time.time()))

            def seat(conn: Any, name: str) -> int:
                account = store.create_account(conn, name, "user").id
                store.grant(conn, account, 10**9)
                store.buy_in(conn, account, table, 10**8)
                return account

            one = db.write_sync(lambda c: seat(c, "a"))
            two = db.write_sync(lambda c: seat(c, "b"))
            players = [{"seat": 0, "account_id": one}, {"seat": 1, "account_id": two}]
            summary = {"results": [{"seat": 0, "won": 20}], "board": ["As", "Kd"] * 20}
            played = "x" * 2000  # a hand as played is stored with its end (a few kB)
            stop = threading.Event()
            if loop_share > 0:
                idle = LOOP_TURN * (1 - loop_share) / loop_share
                args = (stop, LOOP_TURN, idle)
                threading.Thread(target=busy_loop, args=args, daemon=True).start()
            for number in range(1, writes + 1):

                def begin(conn: Any, number: int = number) -> int:
                    return store.start_hand(conn, table, number, "stud", players)

                began = time.perf_counter()
                hand = db.submit(begin).result()
                times[START].append(time.perf_counter() - began)

                def finish(conn: Any, hand: int = hand) -> None:
                    store.finish_hand(
                        conn, table, hand, {one: 20}, 0, summary, played,
                        committed={one: 10, two: 10},
                    )  # fmt: skip

                began = time.perf_counter()
                db.submit(finish).result()
                times[FINISH].append(time.perf_counter() - began)
            stop.set()
        finally:
            db.close()
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", required=True, metavar="SRC")
    parser.add_argument("--writes", type=int, default=200, help="hands per tree per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--loop-share", type=float, default=0.0,
        help="a thread beside the writer busy this share of the time in Python, as the event "
        "loop is: each reply the writer waits for, it must then take the interpreter's lock back",
    )  # fmt: skip
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.loop_share)))
        return 0
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
          f"a stand-in event loop busy {args.loop_share:.0%} of the time")  # fmt: skip
    times: dict[str, dict[str, list[float]]] = {t: {START: [], FINISH: []} for t in args.trees}
    for round_ in range(args.rounds):
        for tree in args.trees:
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run(
                [sys.executable, __file__, "--trees", tree, "--worker", str(args.writes),
                 "--loop-share", str(args.loop_share)],
                env=env, check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            got = json.loads(out.strip().splitlines()[-1])
            for kind in (START, FINISH):
                times[tree][kind] += got[kind]
            median = 1000 * percentile(got[FINISH], 0.5)
            print(f"  round {round_ + 1}, {tree}: a hand's end, p50 {median:.2f} ms", flush=True)
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    first = args.trees[0]
    for kind, label in ((FINISH, "a hand's end"), (START, "a hand's start")):
        print(f"{label}, submitted to committed ({len(times[first][kind])} writes per tree):")
        for tree in args.trees:
            row = []
            for share in (0.5, 0.9, 0.99):
                value = percentile(times[tree][kind], share)
                ratio = value / percentile(times[first][kind], share)
                row.append(f"p{round(share * 100)} {1000 * value:.2f} ms (x{ratio:.2f})")
            print(f"  {tree}: " + ", ".join(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
