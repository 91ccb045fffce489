"""The order ``make test`` hands its tests out in, so that every worker starts with its part
of the long ones.

xdist's ``load`` schedule sends each of W workers a first share of N // W // 4 tests, taken
in order from the front of the list, then refills whichever worker runs low, again from
the front. With the long tests sorted first, every one of them fell in the first worker's
share and ran one after another while the other workers had long finished. Here the front
of the list is dealt into W shares instead: the heaviest unit first, each to the lightest
share with room for it (a module's tests that share a server stay together, so a worker
starts that server once). Each share is then filled with light tests to exactly its size,
so the shares line up with what xdist sends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def first_share(count: int, workers: int) -> int:
    """How many tests xdist's ``load`` schedule sends each worker first (pytest-xdist 3)."""
    return max(2, count // workers // 4)


def deal(
    units: Sequence[Sequence[T]],
    weight: Callable[[T], float],
    workers: int,
    waits: Callable[[T], bool] = lambda _test: False,
) -> list[T]:
    """``units`` (heaviest first) in the order to hand them out to ``workers`` workers.

    ``waits(test)``: the test spends its time on servers' clocks and processes rather than
    its own CPU. Every other share starts with the tests that do not, so that at the start
    half the workers run servers and half compute, not all of them servers at once.
    """
    count = sum(len(unit) for unit in units)
    share = first_share(count, workers)
    if workers < 2 or count <= share * workers:
        return [test for unit in units for test in unit]
    shares: list[list[Sequence[T]]] = [[] for _ in range(workers)]
    sizes = [0] * workers
    loads = [0.0] * workers
    rest: list[T] = []
    for unit in units:
        fits = [i for i in range(workers) if sizes[i] + len(unit) <= share]
        if not fits:
            rest.extend(unit)
            continue
        lightest = min(fits, key=lambda i: loads[i])
        shares[lightest].append(unit)
        sizes[lightest] += len(unit)
        loads[lightest] += sum(weight(test) for test in unit)
    ordered: list[T] = []
    for number, dealt in enumerate(shares):
        if number % 2:
            dealt.sort(key=lambda unit: waits(unit[0]))  # stable: heaviest first in each kind
        tests = [test for unit in dealt for test in unit]
        # Filled to its size with the lightest tests left (the end of the list).
        while len(tests) < share:
            tests.append(rest.pop())
        ordered.extend(tests)
    return ordered + rest
