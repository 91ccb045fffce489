"""What bench_cluster reads beside each load to say where a room's wall is.

The capacity of two processes against one is decided by what the slow actions
wait on: a core (the machine's other work), the hand's durable write (its
commit, or the server's turn at its own interpreter between statements), or a
lock. bench/bench_cluster.py reads each of those; its verdict is only as good
as these readings, so here each meets the real thing it names: a PostgreSQL
transaction left waiting for its client, a row lock, this process's own
threads, and the frames a real room sends when a hand ends. Nothing is timed.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_cluster import (
    DISTURBED_CORES,
    WAITS,
    BackendWaits,
    at_loads,
    classify,
    disturbance,
    least_disturbed,
    schedstat,
)
from capacity import Point
from stud.testing.server import fresh_database, require_backend
from stud.testing.wait import wait_until
from table_load import HAND_END, Player, Table, TableLoad


def frame(*events: tuple[int, str]) -> bytes:
    """A frame of several messages, as the room sends a step: its events, then a state."""
    messages: list[object] = [
        {"type": "event", "n": n, "event": {"type": kind}} for n, kind in events
    ]
    messages.append({"type": "state", "n": events[-1][0], "state": {}})
    return orjson.dumps(messages)


def players_at_one_table(count: int = 3) -> tuple[TableLoad, list[Player]]:
    load = TableLoad(players=count, think=(0.0, 0.0))
    table = Table(load, table_id=7, port=0)
    players = [Player(table) for _ in range(count)]
    for player in players:
        player.my_turn = False  # no state here asks anyone to act
    return load, players


def test_an_action_answered_with_the_hands_end_is_counted_apart() -> None:
    load, players = players_at_one_table()
    meter = load.meter
    meter.measuring = True
    meter.sent(7, 20, 1.0)  # an action that ends the hand: its step carries hand_finished
    meter.sent(7, 30, 2.0)  # an ordinary action
    meter.sent(7, 40, 3.0)  # answered alone in its frame
    for player in players:
        player.on_text(frame((20, "action"), (21, "showdown"), (22, HAND_END)), 1.25)
        player.on_text(frame((30, "action"), (31, "turn")), 2.01)
        player.on_text(orjson.dumps({"type": "event", "n": 40, "event": {"type": "action"}}), 3.5)
    assert sorted(meter.latencies) == [pytest.approx(0.01), pytest.approx(0.25), pytest.approx(0.5)]
    assert meter.hand_ends == [pytest.approx(0.25)]


def test_a_hands_end_counts_only_once_every_player_has_it() -> None:
    load, players = players_at_one_table()
    meter = load.meter
    meter.measuring = True
    meter.sent(7, 5, 0.0)
    for player in players[:2]:
        player.on_text(frame((5, "action"), (6, HAND_END)), 0.1)
    assert meter.hand_ends == [] and meter.actions == 0
    players[2].on_text(frame((5, "action"), (6, HAND_END)), 0.3)
    assert meter.hand_ends == [pytest.approx(0.3)] and meter.actions == 1


@pytest.mark.parametrize(
    ("state", "kind", "event", "expected"),
    [
        ("idle in transaction", "Client", "ClientRead", "client"),
        ("idle in transaction (aborted)", None, None, "client"),
        ("active", "Client", "ClientRead", "client"),
        ("active", "IO", "WALSync", "commit"),
        ("active", "LWLock", "WALWrite", "commit"),
        ("active", "Lock", "transactionid", "lock"),
        ("active", "Lock", "tuple", "lock"),
        ("active", None, None, "running"),
        ("active", "IO", "DataFileRead", "running"),
    ],
)
def test_a_backends_wait_is_named(
    state: str, kind: str | None, event: str | None, expected: str
) -> None:
    assert classify(state, kind, event) == expected
    assert expected in WAITS


def test_the_sampler_sees_a_transaction_waiting_for_its_client_and_one_waiting_for_a_lock(
    tmp_path: Path,
) -> None:
    require_backend("postgres")
    with fresh_database("postgres", tmp_path) as url:
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            with engine.begin() as conn:
                conn.execute(text("CREATE TABLE fence (id int PRIMARY KEY)"))
                conn.execute(text("INSERT INTO fence VALUES (1)"))
            sampler = BackendWaits(engine, every=0.01)
            holder, waiter = engine.connect(), engine.connect()
            sampler.start()
            holder.execute(text("SELECT id FROM fence WHERE id = 1 FOR UPDATE"))
            # The holder now waits for its client (this test) inside a transaction; the
            # waiter's statement waits for the holder's row lock.
            blocked = threading.Thread(
                target=lambda: waiter.execute(text("SELECT id FROM fence WHERE id = 1 FOR UPDATE"))
            )
            blocked.start()
            wait_until(
                lambda: sampler.counts["lock"] >= 3 and sampler.counts["client"] >= 3,
                lambda: f"never seen: {sampler.counts}", 60, 0.02,
            )  # fmt: skip
            holder.rollback()
            blocked.join(timeout=60)
            waiter.rollback()
            holder.close()
            waiter.close()
            averages = sampler.stop()
        finally:
            engine.dispose()
    assert set(averages) == set(WAITS)
    assert averages["client"] > 0 and averages["lock"] > 0
    assert all(0 <= v <= 2 for v in averages.values()), "two backends at most were busy"


def test_schedstat_counts_this_process_and_its_first_thread() -> None:
    busy_until = time.process_time() + 0.05
    while time.process_time() < busy_until:  # some CPU on this (the first) thread
        pass
    ran, waited = schedstat(os.getpid())
    first, _ = schedstat(os.getpid(), only=os.getpid())
    assert 0 < first <= ran and waited >= 0
    assert schedstat(2**22 + 12345) == (0.0, 0.0), "a process that is not there used nothing"


def test_loads_measured_without_a_search_give_the_best_within_the_bound() -> None:
    points = [
        Point(100, 230.0, 2.0, 12.0),
        Point(300, 690.0, 3.0, 70.0),
        Point(200, 460.0, 2.5, 40.0),
    ]
    capacity = at_loads(points, 50.0)
    assert capacity.best is not None and capacity.best.tables == 200
    assert capacity.first_over is not None and capacity.first_over.tables == 300
    none = at_loads(points[1:2], 50.0)
    assert none.best is None and none.first_over is points[1]


def test_a_capacity_decided_while_other_programs_ran_says_so() -> None:
    quiet = Point(200, 460.0, 2.0, 20.0, {"outside_cores": 0.05})
    busy = Point(300, 690.0, 3.0, 70.0, {"outside_cores": 1.4})
    assert disturbance(at_loads([quiet], 50.0)) == pytest.approx(0.05)
    assert disturbance(at_loads([quiet, busy], 50.0)) == pytest.approx(1.4)
    assert disturbance(at_loads([], 50.0)) == 0.0
    assert DISTURBED_CORES < 1.4


def test_a_window_disturbed_by_another_program_is_measured_again_and_the_quietest_kept() -> None:
    pings = iter([120.0, 90.0, 8.0, 3.0])
    calls: list[int] = []

    def once(tables: int) -> Point:
        calls.append(tables)
        ping = next(pings)
        return Point(tables, 100.0, 1.0, 10.0 + ping, {"ping_p99_ms": ping})

    kept = least_disturbed(once, 40, ping_limit_ms=25.0, retries=2)
    assert calls == [40, 40, 40], "measured until a window's ping was within, at most 3"
    assert kept.figures == {"ping_p99_ms": 8.0, "windows": 3} and kept.p99_ms == 18.0


def test_retries_are_bounded_and_a_quiet_window_is_measured_once() -> None:
    def loud(tables: int) -> Point:
        return Point(tables, 100.0, 1.0, 300.0, {"ping_p99_ms": 200.0 + len(seen)})

    seen: list[Point] = []

    def counted(tables: int) -> Point:
        point = loud(tables)
        seen.append(point)
        return point

    kept = least_disturbed(counted, 10, ping_limit_ms=25.0, retries=2)
    assert len(seen) == 3 and kept.figures["ping_p99_ms"] == 200.0 and kept.figures["windows"] == 3
    seen.clear()
    never = least_disturbed(counted, 10, ping_limit_ms=25.0, retries=0)
    assert len(seen) == 1 and never.figures["windows"] == 1
    quiet = least_disturbed(
        lambda t: Point(t, 1.0, 1.0, 1.0, {"ping_p99_ms": 2.0}), 5, ping_limit_ms=25.0, retries=2
    )
    assert quiet.figures["windows"] == 1
