"""Finishing places and prizes, from the order in which players busted.

Players who bust in the same hand are placed by their chips at the start of
that hand, more chips a better place. Players who also started that hand with
equal chips tie: they share the best of the places they fill and split the
prizes of all those places equally; units that do not split go one each to
the tied players in the order they were dealt in (from the button's left).
Places count from the bottom of the field, so a player who busts while late
registration is still open is placed once the field is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stud.tournament.payouts import prizes


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out of the tournament: their chips when the hand began and their deal order."""

    account_id: int
    start_stack: int
    order: int

    def to_list(self) -> list[int]:
        return [self.account_id, self.start_stack, self.order]


@dataclass(frozen=True, slots=True)
class Finish:
    """Where a player finished and what they won."""

    account_id: int
    place: int
    prize: int


class Standings:
    """The busts so far, hand by hand, and the places and prizes they give."""

    def __init__(self, groups: list[list[Bust]] | None = None) -> None:
        self.groups: list[list[Bust]] = [list(g) for g in groups or []]
        self.winner: int | None = None

    @property
    def busted(self) -> int:
        return sum(len(g) for g in self.groups)

    def is_out(self, account_id: int) -> bool:
        return any(b.account_id == account_id for g in self.groups for b in g)

    def add(self, busts: list[Bust]) -> None:
        """The players who busted in one hand."""
        if busts:
            self.groups.append(sorted(busts, key=lambda b: (-b.start_stack, b.order)))

    def finishes(self, entrants: int, pool: int) -> list[Finish]:
        """Every placed player, best first; the winner once there is one."""
        amounts = prizes(pool, entrants)
        out: list[Finish] = []
        if self.winner is not None:
            out.append(Finish(self.winner, 1, amounts[0]))
        busted_before = 0
        for group in self.groups:
            top = entrants - busted_before - len(group) + 1
            i = 0
            while i < len(group):
                tied = [b for b in group[i:] if b.start_stack == group[i].start_stack]
                first = top + i
                share = sum(amounts[first - 1 : first - 1 + len(tied)])
                for k, bust in enumerate(tied):
                    prize = share // len(tied) + (1 if k < share % len(tied) else 0)
                    out.append(Finish(bust.account_id, first, prize))
                i += len(tied)
            busted_before += len(group)
        return sorted(out, key=lambda f: f.place)

    def to_dict(self) -> dict[str, Any]:
        return {"groups": [[b.to_list() for b in g] for g in self.groups], "winner": self.winner}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Standings:
        standings = cls([[Bust(*(int(v) for v in b)) for b in g] for g in data["groups"]])
        winner = data.get("winner")
        standings.winner = None if winner is None else int(winner)
        return standings
