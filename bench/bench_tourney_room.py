"""How fast the card room runs a whole bot tournament, against the bare tournament core.

The figure: a multi-table tournament of the room's random bots (100 by default)
played through the room's own layers, in process: the tournament actor, its
bots acting in worker threads, every step stored (hands, histories, snapshot,
ledger) in SQLite, on a quick clock (5-second levels, no pause between hands, no
think time). The anchor, measured in the same run: the same field in the pure
tournament core offline (``stud tourney``'s runner: real tables and hands, no
storage, no actor, a made-up clock). Both are given in hands per CPU second of
this process (the room's writer and bot threads included) and in wall time; the
ratio is what the room costs per hand over the core.

The machine may be shared: the load average is printed beside the figures.

    python bench/bench_tourney_room.py [--players 100] [--game stud] [--seed 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from stud.server.room.desk import TourneyTemplate
from stud.server.room.room import RoomConfig
from stud.server.storage import Database
from stud.table import Effect
from stud.testing.server import play_room_tournament
from stud.tournament import TableOut
from stud.tournament.offline import offline_settings, run_offline


def room_run(game: str, players: int, seed: int) -> tuple[int, float, float]:
    """(hands, wall seconds, CPU seconds) of one tournament through the room."""
    hands = 0

    def count(_actor: Any, outs: list[Any]) -> None:
        nonlocal hands
        hands += sum(
            1
            for o in outs
            if isinstance(o, TableOut)
            and isinstance(o.item, Effect)
            and o.item.kind == "hand_finished"
        )

    config = RoomConfig(
        turn_seconds=5.0, time_bank=1.0, pause_between_hands=0.0, bot_delay=(0.0, 0.0),
        bot_kind="random", default_tables=(), default_tournaments=(), seed=seed,
    )  # fmt: skip
    template = TourneyTemplate(
        "bench", "Bench", game, kind="mtt", seats=8, level_seconds=5.0, lead=0.5
    )
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        wall, cpu = time.perf_counter(), time.process_time()
        asyncio.run(play_room_tournament(db, config, template, players, count))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        db.close()
    return hands, wall, cpu


def core_run(game: str, players: int, seed: int) -> tuple[int, float, float]:
    """(hands, wall seconds, CPU seconds) of the same field in the core, offline."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run_offline(offline_settings(game, players), ["random"], players, seed=seed)
    return result.hands, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--game", default="stud")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    hands, wall, cpu = room_run(args.game, args.players, args.seed)
    print(
        f"room: {args.players} players, {hands} hands in {wall:.1f} s wall, {cpu:.1f} s CPU: "
        f"{hands / cpu:,.0f} hands per CPU second"
    )
    core_hands, core_wall, core_cpu = core_run(args.game, args.players, args.seed)
    print(
        f"core (anchor): {core_hands} hands in {core_wall:.1f} s wall, {core_cpu:.1f} s CPU: "
        f"{core_hands / core_cpu:,.0f} hands per CPU second"
    )
    ratio = (cpu / hands) / (core_cpu / core_hands)
    print(f"the room costs x{ratio:.1f} the core's CPU per hand")
    print(f"load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
