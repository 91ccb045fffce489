"""What a verifiable shuffle costs per hand, beside the shuffle it replaced and a whole hand.

Three figures per run, measured alike (this process's CPU time, best of
several rounds): the committed shuffle (``stud.fairness``: SHA-256 of the
seed, then the HMAC-SHA256 stream driving Fisher-Yates), the CSPRNG shuffle
the table used before (``stud.cards.Deck()``: ``random.SystemRandom`` Fisher-Yates)
as the anchor, and one 8-handed Stud hand played by the engine with passive
players, for scale. Prints each time per deck or hand and the ratios.

    python bench/bench_fairness.py [--rounds 5] [--count 2000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from stud.cards import Deck
from stud.fairness import Shuffle, new_server_seed
from stud.game import STUD, ActionKind, Hand, TableConfig

SEEDS = tuple(f"{i:064x}" for i in range(8))


def best(fn: Callable[[int], object], count: int, rounds: int) -> float:
    """Best CPU seconds per call over ``rounds`` rounds of ``count`` calls."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for i in range(count):
            fn(i)
        times.append((time.process_time() - start) / count)
    return min(times)


def committed(i: int) -> object:
    shuffle = Shuffle.deal(f"1-{i}", new_server_seed(), SEEDS)
    return shuffle.commitment, shuffle.deck()


def anchor(_i: int) -> object:
    return Deck()


def hand(i: int) -> object:
    config = TableConfig(game=STUD, ante=1, bring_in=2, small_bet=5, big_bet=10, stacks=(400,) * 8)
    played = Hand(config, deck=Deck(seed=i))
    passive = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)
    while not played.is_over:
        legal = played.legal_actions()
        played.act(next((a for a in legal if a.kind in passive), legal[0]))
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    ours = best(committed, args.count, args.rounds)
    base = best(anchor, args.count, args.rounds)
    whole = best(hand, max(1, args.count // 10), args.rounds)
    print(f"committed shuffle (8 player seeds): {ours * 1e6:8.1f} us a deck")
    print(
        f"anchor: CSPRNG Deck()             : {base * 1e6:8.1f} us a deck  ratio {ours / base:.2f}x"
    )
    print(f"one 8-handed Stud hand (engine)   : {whole * 1e6:8.1f} us a hand  shuffle is "
          f"{100 * ours / whole:.1f}% of it")  # fmt: skip


if __name__ == "__main__":
    main()
