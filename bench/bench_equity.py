"""Equity benchmark: run-outs evaluated per second, against PokerKit in the same run.

Both sides are timed best of a few runs (the machine may be shared). A
run-out is one complete deal of the missing cards with every player's hand
valued and the pot shared (ours values each player's distinct hands once
with the batch evaluator and looks them up per run-out: that is the method,
see docs/equity.md). Spots: heads-up on 5th street (671,580 run-outs,
enumerated exactly) and three-way on 4th street (sampled), in Stud, and the
heads-up spot in Stud8 (two evaluators). PokerKit's ``calculate_equities``
samples the same spots from the same fixed deck; the ratio is ours over its.

    python bench/bench_equity.py [--quick] [--workers N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stud.cards import Card
from stud.cards import parse_cards as stud_cards
from stud.equity import combos, equity
from stud.equity import enumerate as exact
from stud.equity import sample as sampling

TARGET = 1_000


@dataclass(frozen=True)
class Spot:
    name: str
    game: str
    players: tuple[str, ...]
    method: str

    def known(self) -> list[str]:
        return [p.replace("|", " ") for p in self.players]


SPOTS = (
    Spot("stud heads-up 5th street", "stud", ("As Ks | Qs Jd 9c", "2c 2d | 7h 8h 9h"), "exact"),
    Spot(
        "stud three-way 4th street",
        "stud",
        ("Ac Kc | Qc Jd", "Td Tc | 2h 2s", "5d 6d | 7d 8c"),
        "sample",
    ),
    Spot("stud8 heads-up 5th street", "stud8", ("As 2s | 3d Kc 9c", "8c 8d | 7h 6h 5s"), "exact"),
)


def _cold() -> None:
    """Forget every cached table, so each timed run evaluates its hands afresh."""
    exact.tables.cache_clear()
    sampling.tables.cache_clear()
    combos._subsets.cache_clear()


def ours(spot: Spot, samples: int, workers: int, repeat: int) -> tuple[float, int]:
    """Best of ``repeat`` runs: (seconds, run-outs)."""
    best = float("inf")
    runouts = 0
    for _ in range(repeat):
        _cold()
        start = time.perf_counter()
        result = equity(
            spot.game,
            list(spot.players),
            method="exact" if spot.method == "exact" else "sample",
            samples=samples,
            seed=1,
            workers=workers,
        )
        best = min(best, time.perf_counter() - start)
        runouts = result.runouts
    return best, runouts


def pokerkit_rate(spot: Spot, samples: int, repeat: int) -> float | None:
    """PokerKit's ``calculate_equities`` samples per second on the spot (best of ``repeat``)."""
    try:
        import pokerkit
    except ImportError:
        return None

    def cards(text: str) -> list[Any]:
        return list(pokerkit.Card.parse(text))

    known = spot.known()
    out = {int(c) for k in known for c in stud_cards(k)}
    deck: Any = [cards(str(Card(c)))[0] for c in range(52) if c not in out]
    types: tuple[type, ...] = (pokerkit.StandardHighHand,)
    if spot.game == "stud8":
        types = (pokerkit.StandardHighHand, pokerkit.EightOrBetterLowHand)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        pokerkit.calculate_equities(
            [[cards(k)] for k in known], [], 7, 0, deck, types, sample_count=samples
        )
        best = min(best, time.perf_counter() - start)
    return samples / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples and repeats")
    parser.add_argument("--workers", type=int, default=1, help="processes for our runs")
    args = parser.parse_args()
    samples = 500_000 if args.quick else 2_000_000
    pk_samples = 300 if args.quick else 1_000
    repeat = 2 if args.quick else 3
    warm: Callable[[], object] = lambda: equity("stud", list(SPOTS[0].players))  # noqa: E731
    warm()  # import and build the evaluator's own tables outside the timings
    print(
        f"{'spot':28} {'method':>7} {'run-outs':>11} {'seconds':>8} {'ours/s':>12} "
        f"{'PokerKit/s':>11} {'ratio':>9}"
    )
    ratios = []
    for spot in SPOTS:
        seconds, runouts = ours(spot, samples, args.workers, repeat)
        rate = runouts / seconds
        theirs = pokerkit_rate(spot, pk_samples, repeat)
        ratio = rate / theirs if theirs else float("nan")
        if theirs:
            ratios.append(ratio)
        print(
            f"{spot.name:28} {spot.method:>7} {runouts:>11,} {seconds:>8.3f} {rate:>12,.0f} "
            f"{(theirs or 0):>11,.0f} {ratio:>8,.0f}x"
        )
    if ratios:
        verdict = "meets" if min(ratios) >= TARGET else "misses"
        print(f"lowest ratio {min(ratios):,.0f}x: {verdict} the {TARGET:,}x target")


if __name__ == "__main__":
    main()
