"""The capacity bench's load generator against a real room: it plays, parks and wakes tables.

bench/lean_socket.py is a websocket client of the bench's own and
bench/table_load.py decides from the room's messages; if the protocol moved
under them the bench would measure nothing (or an idle room) without saying
so. Here they play real hands on a real ``stud serve``: every measured action
is answered at all three clients, a parked table holds its action and moves
again once woken, and a bare ping comes back. Nothing is timed.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import uvloop

from stud.testing.server import ServerSpec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_cluster import SERVER_ARGS
from stud.testing import wait
from stud.testing.server import ServerProcess
from table_load import Pinger, TableLoad


async def until(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    """Wait until ``condition()`` holds (the timeout bounds a hang)."""
    await wait.until(condition, "condition not reached", timeout, 0.05)


async def play(base: str) -> None:
    load = TableLoad(players=3, think=(0.0, 0.02))
    pinger = Pinger(every=0.02)
    try:
        await load.open(2, [base])
        await pinger.open(base)
        first, second = load.tables
        assert [len(t.players) for t in load.tables] == [3, 3]
        load.set_busy(1)
        load.meter.measuring = True
        pinger.start()
        await until(lambda: load.meter.actions >= 20 and len(pinger.round_trips) >= 5)
        assert all(latency >= 0 for latency in load.meter.latencies)
        assert all(rtt > 0 for rtt in pinger.round_trips)
        # The parked table dealt its first hand and holds the action of the seat to act.
        await until(lambda: len(second.parked) == 1)
        holder, n, _ = second.parked[0]
        held = holder.last_turn
        await asyncio.sleep(0.5)  # the busy table plays on meanwhile; this one must not
        assert second.parked == [(holder, n, second.parked[0][2])]
        assert max(p.last_turn for p in second.players) == held, "a parked table moved"
        load.set_busy(2)
        assert not second.parked
        await until(lambda: max(p.last_turn for p in second.players) > held + 2)
        load.meter.measuring = False
        pinger.stop()
        await until(lambda: not load.meter.pending)
        assert load.dropped == 0
        assert first.busy and second.busy
    finally:
        load.close()
        pinger.close()
        await asyncio.sleep(0.1)


SERVER = ServerSpec(SERVER_ARGS, fresh=True)


def test_the_load_generator_plays_parks_and_wakes_tables_on_a_real_room(
    server: ServerProcess,
) -> None:
    uvloop.run(play(server.base))
