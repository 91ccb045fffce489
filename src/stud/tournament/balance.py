"""Breaking and balancing tables, planned on head counts alone (pure, no players in it).

The rules (docs/tournaments.md):

* **Breaking.** When the players left fit at fewer tables, that many tables
  break: those with the fewest players (of equal ones, the highest-numbered
  first). A table breaks only between its hands; one in a hand breaks after
  it, and no table is balanced until it has. Its players go one at a time,
  each to the table that then has the fewest players (of equal ones, the
  lowest-numbered) among those that stay, so nobody moves twice at once.
* **Balancing.** While the largest table has two players more than the
  smallest, one player moves from the largest table that is between hands (of
  equal ones, the lowest-numbered) to the smallest table (of equal ones, the
  lowest-numbered), which may be in a hand: the player is dealt in from its
  next hand.

So once every table has finished its hand, tables differ by at most one player.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Move:
    """One player from table ``source`` to table ``target``; ``breaking`` if the source closes."""

    source: int
    target: int
    breaking: bool = False


def tables_to_break(counts: Mapping[int, int], seats: int) -> list[int]:
    """The tables that should break now, first to break first (busy or not).

    As many tables break as the players left need fewer tables: those with
    the fewest players, the highest-numbered among equals.
    """
    needed = max(1, -(-sum(counts.values()) // seats))
    surplus = len(counts) - needed
    if surplus <= 0:
        return []
    return sorted(counts, key=lambda t: (counts[t], -t))[:surplus]


def table_to_break(counts: Mapping[int, int], seats: int) -> int | None:
    """The first table that should break now (whether or not it is in a hand), or None."""
    breaking = tables_to_break(counts, seats)
    return breaking[0] if breaking else None


def plan(counts: Mapping[int, int], seats: int, busy: Set[int] = frozenset()) -> list[Move]:
    """The moves that break and balance tables with these head counts.

    ``busy`` are the tables in a hand: none of their players moves, and a busy
    table does not break (it breaks after its hand), but a busy table may take
    players into its free seats. A player who moves goes to a table that stays.
    """
    if any(not 0 <= n <= seats for n in counts.values()):
        raise ValueError(f"a table holds 0 to {seats} players")
    left = dict(counts)
    moves: list[Move] = []
    breaking = tables_to_break(left, seats)
    staying = [t for t in left if t not in breaking]
    for source in breaking:
        if source in busy:
            continue
        for _ in range(left[source]):
            target = min((t for t in staying if left[t] < seats), key=lambda t: (left[t], t))
            left[target] += 1
            moves.append(Move(source, target, breaking=True))
        del left[source]
    if any(t in busy for t in breaking):
        return moves  # a table to break is in a hand: balance after it breaks
    while left:
        smallest = min(left, key=lambda t: (left[t], t))
        donors = [t for t in left if t not in busy and left[t] >= left[smallest] + 2]
        if not donors:
            break
        source = min(donors, key=lambda t: (-left[t], t))
        left[source] -= 1
        left[smallest] += 1
        moves.append(Move(source, smallest))
    return moves


def balanced(counts: Mapping[int, int], seats: int) -> bool:
    """Whether these tables need no break and differ by at most one player."""
    if table_to_break(counts, seats) is not None:
        return False
    return not counts or max(counts.values()) - min(counts.values()) <= 1
