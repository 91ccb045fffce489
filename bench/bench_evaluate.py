"""Evaluator speed: ours beside PokerKit, eval7, treys and phevaluator on the same hands.

All contenders value the same random 7-card hands (cards converted to each
library's own form beforehand, outside the timing). Timing alternates in
short slices between the contenders so that load from other processes hits
them alike; each rate is hands over total time. The libraries' answers are
checked against ours: the same order on every pair of hands.

    python bench/bench_evaluate.py [--quick]

Targets (2-core machine): one-hand 7-card high >= 1.5 M/s, razz and
eight-or-better >= 2 M/s; batch >= 25 M/s for each of the three.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from stud.cards import format_cards
from stud.evaluate import (
    eight_low_value,
    eight_low_values,
    high_value,
    high_values,
    razz_value,
    razz_values,
)

ONE_HAND_TARGETS = {"high": 1_500_000, "razz": 2_000_000, "eight": 2_000_000}
BATCH_TARGET = 25_000_000


def deal(count: int, seed: int) -> np.ndarray:
    """``count`` random 7-card hands as an (N, 7) int8 array."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, 7), dtype=np.int8)
    for start in range(0, count, 1 << 18):
        n = min(1 << 18, count - start)
        out[start : start + n] = np.argsort(rng.random((n, 52)), axis=1)[:, :7]
    return out


class Contender:
    """One evaluator on prepared inputs: ``run(lo, hi)`` values inputs[lo:hi]."""

    def __init__(
        self,
        name: str,
        game: str,
        inputs: Sequence[Any],
        evaluate: Callable[[Any], Any],
        better: int = 1,
        batch: bool = False,
    ) -> None:
        self.name, self.game, self.inputs, self.evaluate = name, game, inputs, evaluate
        self.better = better  # +1: bigger is better, -1: smaller is better
        self.batch = batch
        self.seconds = 0.0
        self.hands = 0

    def run(self, lo: int, hi: int) -> None:
        part = self.inputs[lo:hi]
        evaluate = self.evaluate
        start = time.perf_counter()
        if self.batch:
            evaluate(part)
        else:
            for hand in part:
                evaluate(hand)
        self.seconds += time.perf_counter() - start
        self.hands += hi - lo

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    def values(self) -> list[Any]:
        if self.batch:
            return [int(v) for v in self.evaluate(self.inputs)]
        return [self.evaluate(h) for h in self.inputs]


def same_order(ours: Sequence[int], theirs: Sequence[int], better: int) -> bool:
    """True when ``theirs`` orders every pair of hands as ``ours`` does (ties included)."""
    pairs = sorted({(o, better * t) for o, t in zip(ours, theirs, strict=True)})
    their_side = [t for _, t in pairs]
    return len({o for o, _ in pairs}) == len(pairs) and all(a < b for a, b in pairwise(their_side))


def pokerkit_contenders(hands: list[list[int]]) -> list[Contender]:
    import pokerkit

    text = [format_cards(h, "") for h in hands]

    def maker(kind: Any) -> Callable[[str], Any]:
        def value(cards: str) -> Any:
            try:
                return kind.from_game(cards)
            except ValueError:  # no qualifying eight-or-better low
                return None

        return value

    return [
        Contender("pokerkit", "high", text, maker(pokerkit.StandardHighHand)),
        Contender("pokerkit", "razz", text, maker(pokerkit.RegularLowHand)),
        Contender("pokerkit", "eight", text, maker(pokerkit.EightOrBetterLowHand)),
    ]


def library_contenders(hands: list[list[int]]) -> list[Contender]:
    out: list[Contender] = []
    try:
        import eval7

        cards = [eval7.Card(str(c)) for c in (format_cards(range(52)).split())]
        out.append(
            Contender("eval7", "high", [[cards[c] for c in h] for h in hands], eval7.evaluate)
        )
    except ImportError:
        print("eval7 not installed: skipped")
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        cards = [TreysCard.new(t) for t in format_cards(range(52)).split()]
        out.append(
            Contender(
                "treys",
                "high",
                [[cards[c] for c in h] for h in hands],
                lambda h: evaluator.evaluate(h[:2], h[2:]),
                better=-1,
            )
        )
    except ImportError:
        print("treys not installed: skipped")
    try:
        from phevaluator import evaluate_cards

        # phevaluator numbers cards as we do: rank * 4 + suit, clubs first.
        out.append(Contender("phevaluator", "high", hands, lambda h: evaluate_cards(*h), -1))
    except ImportError:
        print("phevaluator not installed: skipped")
    return out


def race(contenders: list[Contender], total: int, slice_size: int) -> None:
    """Alternate short slices of the same hands between the contenders."""
    for lo in range(0, total, slice_size):
        for c in contenders:
            c.run(lo, min(total, lo + slice_size))


def check(ours: dict[str, Contender], others: list[Contender], count: int) -> bool:
    ok = True
    for other in others:
        mine = ours[other.game]
        if other.name == "pokerkit":
            agree = pokerkit_agrees(mine.values()[:count], other.values()[:count])
        else:
            agree = same_order(mine.values()[:count], other.values()[:count], other.better)
        ok &= agree
        print(f"  {other.name:>12} {other.game:<5} agrees with ours: {'yes' if agree else 'NO'}")
    return ok


def pokerkit_agrees(ours: Sequence[int], theirs: Sequence[Any]) -> bool:
    """PokerKit hands compare with < and ==; None (no low) is below every hand."""
    order = sorted(range(len(ours)), key=lambda i: ours[i])
    for a, b in pairwise(order):
        ta, tb = theirs[a], theirs[b]
        if ta is None or tb is None:
            if (ta is None) != (ours[a] == 0) or (tb is None) != (ours[b] == 0):
                return False
            continue
        if (ours[a] == ours[b]) != (ta == tb) or (ours[a] < ours[b]) != (ta < tb):
            return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args(argv)
    one_count = 60_000 if args.quick else 400_000
    batch_count = 2_000_000 if args.quick else 20_000_000
    kit_count = 600 if args.quick else 3_000

    array = deal(one_count, seed=1)
    hands = array.tolist()
    ours = {
        "high": Contender("ours", "high", hands, high_value),
        "razz": Contender("ours", "razz", hands, razz_value),
        "eight": Contender("ours", "eight", hands, eight_low_value),
    }
    libraries = library_contenders(hands)
    print(f"one hand at a time: {one_count:,} random 7-card hands")
    race([*ours.values(), *libraries], one_count, 5_000)
    kit = pokerkit_contenders(hands[:kit_count])
    kit_ours = {g: Contender("ours", g, hands[:kit_count], c.evaluate) for g, c in ours.items()}
    race([*kit_ours.values(), *kit], kit_count, 100)

    met = True
    for game, mine in ours.items():
        target = ONE_HAND_TARGETS[game]
        met &= mine.rate >= target
        print(f"  ours {game:<5} {mine.rate:>13,.0f}/s  (target {target:,})")
        for other in [*libraries, *kit]:
            if other.game == game:
                # Against PokerKit, ours was timed on the same short list in the same slices.
                base = kit_ours[game] if other.name == "pokerkit" else mine
                print(
                    f"  {other.name:>11} {other.rate:>13,.0f}/s  ours/{other.name} = "
                    f"{base.rate / other.rate:,.1f}"
                )

    print(f"batch (NumPy): {batch_count:,} random 7-card hands")
    big = deal(batch_count, seed=2)
    batches = [
        Contender("ours", "high", big, high_values, batch=True),
        Contender("ours", "razz", big, razz_values, batch=True),
        Contender("ours", "eight", big, eight_low_values, batch=True),
        Contender("unchecked", "high", big, lambda h: high_values(h, check=False), batch=True),
        Contender("unchecked", "razz", big, lambda h: razz_values(h, check=False), batch=True),
        Contender(
            "unchecked", "eight", big, lambda h: eight_low_values(h, check=False), batch=True
        ),
    ]
    race(batches, batch_count, 1_000_000)
    for b in batches:
        label = "ours" if b.name == "ours" else "ours, check=False"
        if b.name == "ours":
            met &= b.rate >= BATCH_TARGET
        best_lib = max((c.rate for c in libraries if c.game == b.game), default=0.0)
        versus = f"  ours/best library = {b.rate / best_lib:,.0f}" if best_lib else ""
        print(f"  {label:<17} {b.game:<5} {b.rate:>13,.0f}/s  (target {BATCH_TARGET:,}){versus}")
    batch_hands = array[:one_count]
    for game, f in (("high", high_values), ("razz", razz_values), ("eight", eight_low_values)):
        if f(batch_hands).tolist() != ours[game].values():
            print(f"  batch {game} differs from the one-hand values")
            return 1

    print("agreement (same order on every pair of hands):")
    if not check(ours, libraries, one_count) or not check(kit_ours, kit, kit_count):
        return 1
    print("targets met" if met else "some targets missed (the machine may be busy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
