"""The next hand's committed shuffle at one table, and the seeds its players add to it.

Between hands the table holds one :class:`NextShuffle`: a fresh server seed,
whose SHA-256 it has published, and the seed each seated account has sent
since. At the deal the seeds of the accounts dealt in, in dealing order, make
the hand's :class:`stud.fairness.Shuffle`; the others are dropped. Seeds
belong to accounts, not seats. See docs/fairness.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stud.fairness import SCHEME, Shuffle, check_player_seed, commitment_of, new_server_seed


@dataclass(slots=True)
class NextShuffle:
    """The committed server seed for hand ``number`` and the seeds sent for it so far."""

    number: int
    hand_id: str
    server_seed: str
    commitment: str
    seeds: dict[int, str] = field(default_factory=dict)

    @classmethod
    def fresh(cls, number: int, label: str | None, test_seed: int | None) -> NextShuffle:
        """A new commitment for hand ``number`` (from the CSPRNG unless ``test_seed``)."""
        seed = new_server_seed(test_seed, number)
        hand_id = f"{label}-{number}" if label else str(number)
        return cls(number, hand_id, seed, commitment_of(seed))

    def add(self, account: int, seed: str) -> None:
        """Take ``account``'s seed (the last one sent before the deal counts); ValueError if bad."""
        self.seeds[account] = check_player_seed(seed)

    def shuffle(self, accounts: Sequence[int]) -> Shuffle:
        """The hand's shuffle for the accounts dealt in, in dealing order."""
        return Shuffle.deal(
            self.hand_id, self.server_seed, [self.seeds.get(a, "") for a in accounts]
        )

    def public(self) -> dict[str, Any]:
        """What every watcher sees: the number, id and commitment; never a seed."""
        return {
            "scheme": SCHEME,
            "number": self.number,
            "hand": self.hand_id,
            "commitment": self.commitment,
        }
