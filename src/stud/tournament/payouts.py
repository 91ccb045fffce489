"""Who is paid and how much, by the number of entrants (docs/tournaments.md has the table).

Small fields pay as PokerStars' Sit & Gos do: heads-up and three-handed the
winner takes all, four to six entrants pay 65/35, seven to ten pay 50/30/20.
From eleven entrants on about the top 15% are paid (at least three places),
place ``k`` weighted ``1 / k**0.9``: the winner takes about a quarter of the
pool in a field of a hundred, and the last paid place about twice its buy-in.
Prizes are whole units; what rounding leaves goes one unit at a time to the
top places, so the prizes always add up to the pool exactly.
"""

from __future__ import annotations

from typing import Final

SMALL_FIELDS: Final = (
    (3, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
)
"""(Most entrants, percentages by place) for the small fields."""

PAID_SHARE: Final = 0.15
"""About this share of a large field is paid."""

WEIGHT_POWER: Final = 0.9
"""Place ``k`` of a large field is weighted ``1 / k**WEIGHT_POWER``."""


def paid_places(entrants: int) -> int:
    """How many places are paid in a field of ``entrants``."""
    if entrants < 1:
        raise ValueError("a tournament needs entrants")
    for most, shares in SMALL_FIELDS:
        if entrants <= most:
            return min(len(shares), entrants)
    return max(3, round(entrants * PAID_SHARE))


def payout_weights(entrants: int) -> list[float]:
    """Each paid place's share of the pool, the winner's first (they add up to 1)."""
    places = paid_places(entrants)
    for most, shares in SMALL_FIELDS:
        if entrants <= most:
            weights = [float(s) for s in shares[:places]]
            break
    else:
        weights = [1 / (k**WEIGHT_POWER) for k in range(1, places + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def prizes(pool: int, entrants: int) -> list[int]:
    """The prize of each paid place (first place first), adding up to ``pool`` exactly."""
    if pool < 0:
        raise ValueError("the prize pool cannot be negative")
    weights = payout_weights(entrants)
    amounts = [int(pool * w) for w in weights]
    for k in range(pool - sum(amounts)):
        amounts[k % len(amounts)] += 1
    return amounts
