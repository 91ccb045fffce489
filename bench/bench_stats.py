"""One player's stats over 100,000 stored hands: the time of GET /api/players/{id}/stats's
queries on SQLite and PostgreSQL (issue 38 asks for under 200 ms).

It stores the facts rows (stud.server.storage.facts) of ``--hands`` hands of six seats
the way the room stores them as hands end, the hero in every hand and the other seats
drawn from ``--players`` accounts; each hand's rows are those of a real hand (tests/data/
stats, read by stud.history, replayed with other accounts). Then it times, ``--runs``
times each, the hero's own stats and results (by game and session) and another player's
stats as the hero sees them (over the hands they shared), and prints the median and
the worst, with each one's ratio to the 200 ms asked for.

    python bench/bench_stats.py                      # SQLite in a temporary folder
    python bench/bench_stats.py --backend postgres   # needs STUD_TEST_DATABASE_URL
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stud.history import read_phh_file
from stud.server.storage import Database
from stud.server.storage.facts import hand_facts
from stud.server.storage.stats import SESSION_GAP, own_stats, player_stats, store_facts
from stud.testing.server import fresh_database

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "data" / "stats"
GOAL_MS = 200.0
HERO = 1
BATCH = 2_000


def store(db: Database, hands: int, players: int, seed: int) -> float:
    """Store ``hands`` hands' facts; seconds taken."""
    rng = random.Random(seed)
    records = [read_phh_file(path).hands[0] for path in sorted(FIXTURES.glob("*.phh"))]
    # Each fixture's rows once, by seat; each hand stored is one of them with its own
    # accounts, id and time (the same rows hand_facts gives for those accounts).
    templates = [hand_facts(r, list(range(len(r.seats))), hand_id=0, at=0.0) for r in records]
    at = 1_700_000_000.0
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for hand_id in range(1, hands + 1):
        template = templates[hand_id % len(templates)]
        others = rng.sample(range(2, players + 2), len(template) - 1)
        accounts = [HERO, *others]
        rng.shuffle(accounts)
        at += SESSION_GAP * 2 if rng.random() < 0.002 else rng.uniform(20, 60)
        for row in template:
            rows.append({**row, "account_id": accounts[row["seat"]], "hand_id": hand_id, "at": at})
        if len(rows) >= BATCH or hand_id == hands:
            batch, rows = rows, []
            db.write_sync(lambda conn, batch=batch: store_facts(conn, batch))  # type: ignore[misc]
    return time.perf_counter() - started


def timed(db: Database, query: Callable[[Any], Any], runs: int) -> tuple[list[float], list[float]]:
    """Each run's wall-clock and this process's CPU time, in ms (on a busy machine the
    CPU time is the work itself; SQLite does all of it in this process)."""
    walls, cpus = [], []
    for _ in range(runs):
        started, cpu = time.perf_counter(), time.process_time()
        db.read_sync(query)
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=60, help="accounts the hero meets")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=38)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, fresh_database(args.backend, Path(folder)) as url:
        db = Database(url)
        db.create_schema()
        try:
            seconds = store(db, args.hands, args.players, args.seed)
            if args.backend == "postgres":  # as autovacuum would, before a room's reads
                db.write_sync(lambda conn: conn.exec_driver_sql("ANALYZE"))
            print(f"{args.backend}: stored {args.hands:,} hands' facts in {seconds:.1f} s")
            queries = {
                "own stats + results": lambda c: own_stats(c, HERO),
                "another's stats (shared hands)": lambda c: player_stats(c, 2, HERO),
                "the hero seen by another": lambda c: player_stats(c, HERO, 2),
            }
            hands = db.read_sync(lambda c: player_stats(c, HERO, HERO))["hands"]
            print(f"the hero's hands: {hands:,}")
            print(f"load average before the queries: {os.getloadavg()[0]:.1f}")
            for name, query in queries.items():
                walls, cpus = timed(db, query, args.runs)
                median, worst = statistics.median(walls), max(walls)
                print(
                    f"  {name:32} median {median:7.1f} ms ({median / GOAL_MS:.2f} of 200 ms)"
                    f"  worst {worst:7.1f} ms ({worst / GOAL_MS:.2f})"
                    f"  cpu median {statistics.median(cpus):6.1f} ms"
                )
        finally:
            db.close()


if __name__ == "__main__":
    main()
