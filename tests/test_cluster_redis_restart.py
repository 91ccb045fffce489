"""A shared room whose Redis restarts empty while bot tables play (issue 34).

The test starts a Redis of its own (never the shared one) and restarts it with
nothing in it, three times. Each time every table has its players again within
10 s, no bot name is given twice, no table has two owners, and every chip is
where it was.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from stud.server.storage import Database
from stud.testing.cluster import Cluster, PrivateRedis, runs, wait_until_run
from stud.testing.server import Client, ServerProcess, hand_factory_args, require
from stud.testing.wait import wait_until
from test_cluster_room import ARGS, ledger, open_table

RECOVER_SECONDS = 10.0
"""The bound the issue sets: every table has its players again within it."""
BOTS = 3


def seated(server: ServerProcess, tables: set[int]) -> dict[int, int]:
    """Each table's players, from the lobby ``server`` serves."""
    entries = httpx.get(server.base + "/api/tables", timeout=30).json()
    return {int(t["id"]): int(t["seats_taken"]) for t in entries if int(t["id"]) in tables}


def until(predicate: Callable[[], bool], timeout: float, what: str) -> float:
    """Poll ``predicate``; the seconds it took (the timeout bounds a hang)."""
    start = time.monotonic()
    # A process answering nothing for a moment (Redis gone) is asked again.
    wait_until(predicate, what, timeout, 0.1, retry=(httpx.HTTPError,))
    return time.monotonic() - start


def test_redis_restarted_empty_the_room_rebuilds_what_it_kept_there(
    tmp_path: Path, database_factory: Callable[[str], str]
) -> None:
    require("redis-server", shutil.which("redis-server") is not None)
    folder = tmp_path / "redis"
    folder.mkdir()
    with PrivateRedis(folder) as redis_server:
        room = Cluster(
            database_factory("postgres"), redis_server.url, tmp_path,
            extra_args=(*ARGS, *hand_factory_args("tests.test_table_double:start_double")),
        )  # fmt: skip
        db = Database(room.database_url)
        db.start()
        try:
            a, b = room.add(), room.add()
            tables = {
                open_table(s, Client.guest(s.base), bots=BOTS) for s in (a, b) for _ in (1, 2)
            }
            everyone = {t: BOTS for t in tables}
            until(lambda: seated(a, tables) == everyone, 60, "the bots never sat down")
            recoveries: list[float] = []
            for _ in range(3):
                voided_before = sum(1 for *_, st in ledger(db)["hands"].values() if st == "void")
                redis_server.restart()
                restarted = time.monotonic()
                for server in (a, b):

                    def back(s: ServerProcess = server) -> bool:
                        return seated(s, tables) == everyone

                    until(back, RECOVER_SECONDS,
                          "a table lacks its players 10 s after Redis restarted empty")  # fmt: skip
                recoveries.append(time.monotonic() - restarted)
                wait_until_run([a, b], tables, 30)
                assert not runs(a) & runs(b), "a table with two owners"
                books = ledger(db)
                assert books["total"] == 0 and books["holdings"]["pot"] >= 0
                voided = sum(1 for *_, st in books["hands"].values() if st == "void")
                print(f"Redis restarted empty: players back in {recoveries[-1]:.1f} s, "
                      f"{voided - voided_before} hands voided")  # fmt: skip
            # Hands go on being dealt everywhere, and no bot name was given twice.
            hands = len(ledger(db)["hands"])
            until(lambda: len(ledger(db)["hands"]) > hands + 8, 60, "no more hands dealt")
        finally:
            room.stop()
            db.close()
        for server in room.servers:
            log = server.log_path.read_text(errors="replace")
            assert "is taken" not in log, server.log()
            assert "timer step failed" not in log, server.log()


pytestmark = pytest.mark.cluster
