"""How fast a whole bot tournament runs offline, against the bare engine playing as many hands.

The figure: a 100-player multi-table tournament (``stud tourney``'s runner:
real tables, balancing, levels, places) of random and station bots, in hands
per CPU second. The anchor, measured in the same run: the same bots playing
the same number of 8-handed hands straight through the engine
(``stud.bots.play_hand``), with no table, no tournament and no events for
players. The ratio is the cost of the table and tournament layers per hand.

The machine may be shared: the load average is printed, and CPU time is given
beside wall time (a loaded machine inflates wall time, less so CPU).

    python bench/bench_tournament.py [--players 100] [--game razz] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import time

from stud.bots import make_bot, play_hand
from stud.cards import Deck
from stud.game import Hand, TableConfig, variant
from stud.tournament.offline import offline_settings, run_offline


def tournament_run(game: str, players: int, seed: int) -> tuple[int, float, float]:
    """(hands, wall seconds, CPU seconds) of one offline tournament."""
    settings = offline_settings(game, players)
    wall, cpu = time.perf_counter(), time.process_time()
    result = run_offline(settings, ["random", "station"], players, seed=seed)
    return result.hands, time.perf_counter() - wall, time.process_time() - cpu


def engine_run(game: str, hands: int, seed: int) -> tuple[float, float]:
    """(wall, CPU seconds) of ``hands`` 8-handed engine hands by the same bots, no table."""
    config = TableConfig(
        game=variant(game), ante=10, bring_in=15, small_bet=50, big_bet=100, stacks=(1500,) * 8
    )
    bots = [make_bot(("random", "station")[k % 2], seed + k) for k in range(8)]
    wall, cpu = time.perf_counter(), time.process_time()
    for n in range(hands):
        play_hand(Hand(config, deck=Deck(seed * 1_000_003 + n)), bots)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--game", default="razz")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    hands, wall, cpu = tournament_run(args.game, args.players, args.seed)
    print(
        f"tournament: {args.players} players, {hands} hands in {wall:.2f} s wall, "
        f"{cpu:.2f} s CPU: {hands / cpu:,.0f} hands per CPU second"
    )
    anchor_wall, anchor_cpu = engine_run(args.game, hands, args.seed)
    print(
        f"anchor, the engine alone: {hands} hands in {anchor_wall:.2f} s wall, "
        f"{anchor_cpu:.2f} s CPU: {hands / anchor_cpu:,.0f} hands per CPU second"
    )
    print(f"ratio: the tournament takes {cpu / anchor_cpu:.2f}x the engine's CPU time per hand")


if __name__ == "__main__":
    main()
