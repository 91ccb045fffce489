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
import numpy.typing as npt

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
SLICE = 5_000  # one-hand calls per contender per slice
BATCH_SLICE = 500_000  # batch rows per contender per slice


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
        inputs: Sequence[Any] | npt.NDArray[Any],
        evaluate: Callable[[Any], Any],
        better: int = 1,
        batch: bool = False,
        per_slice: int = 5_000,
    ) -> None:
        self.name, self.game, self.inputs, self.evaluate = name, game, inputs, evaluate
        self.better = better  # +1: bigger is better, -1: smaller is better
        self.batch = batch
        self.per_slice = per_slice
        self.seconds = 0.0
        self.hands = 0
        self._values: list[Any] | None = None

    def run_slice(self) -> None:
        """Value the next ``per_slice`` inputs (cycling through them)."""
        lo = self.hands % len(self.inputs)
        self.run(lo, min(len(self.inputs), lo + self.per_slice))

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
        """Every input's value (computed once)."""
        if self._values is None:
            if self.batch:
                self._values = [int(v) for v in self.evaluate(self.inputs)]
            else:
                self._values = [self.evaluate(h) for h in self.inputs]
        return self._values


def same_order(ours: Sequence[int], theirs: Sequence[int], better: int) -> bool:
    """True when ``theirs`` orders every pair of hands as ``ours`` does (ties included)."""
    pairs = sorted({(o, better * t) for o, t in zip(ours, theirs, strict=True)})
    their_side = [t for _, t in pairs]
    return len({o for o, _ in pairs}) == len(pairs) and all(a < b for a, b in pairwise(their_side))


def pokerkit_contenders(hands: list[list[int]], per_slice: int) -> list[Contender]:
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
        Contender("pokerkit", game, text, maker(kind), per_slice=per_slice)
        for game, kind in (
            ("high", pokerkit.StandardHighHand),
            ("razz", pokerkit.RegularLowHand),
            ("eight", pokerkit.EightOrBetterLowHand),
        )
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


def race(contenders: list[Contender], rounds: int) -> None:
    """Alternate short slices between the contenders, so that load hits them alike."""
    for _ in range(rounds):
        for c in contenders:
            c.run_slice()


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
    batch_count = 2_000_000 if args.quick else 10_000_000
    kit_count = 300 if args.quick else 2_000

    array = deal(one_count, seed=1)
    hands = array.tolist()
    ours = {
        "high": Contender("ours", "high", hands, high_value),
        "razz": Contender("ours", "razz", hands, razz_value),
        "eight": Contender("ours", "eight", hands, eight_low_value),
    }
    libraries = library_contenders(hands)
    # PokerKit is thousands of times slower: a few of the same hands per slice.
    kit = pokerkit_contenders(hands[:kit_count], per_slice=max(1, kit_count * SLICE // one_count))
    print(f"one hand at a time: {one_count:,} random 7-card hands ({kit_count:,} for PokerKit)")
    race([*ours.values(), *libraries, *kit], one_count // SLICE)

    met = True
    for game, mine in ours.items():
        target = ONE_HAND_TARGETS[game]
        met &= mine.rate >= target
        print(f"  ours {game:<5} {mine.rate:>13,.0f}/s  (target {target:,})")
        for other in [*libraries, *kit]:
            if other.game == game:
                print(
                    f"  {other.name:>11} {other.rate:>13,.0f}/s  ours/{other.name} = "
                    f"{mine.rate / other.rate:,.1f}"
                )

    print(f"batch (NumPy): {batch_count:,} random 7-card hands")
    big = deal(batch_count, seed=2)
    batches = [
        Contender(name, game, big, f, batch=True, per_slice=BATCH_SLICE)
        for name, game, f in (
            ("ours", "high", high_values),
            ("ours", "razz", razz_values),
            ("ours", "eight", eight_low_values),
            ("unchecked", "high", lambda h: high_values(h, check=False)),
            ("unchecked", "razz", lambda h: razz_values(h, check=False)),
            ("unchecked", "eight", lambda h: eight_low_values(h, check=False)),
        )
    ]
    race(batches, batch_count // BATCH_SLICE)
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
    if not check(ours, libraries, one_count) or not check(ours, kit, kit_count):
        return 1
    print("targets met" if met else "some targets missed (the machine may be busy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
