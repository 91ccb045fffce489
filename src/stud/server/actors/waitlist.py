"""A table's waiting list: people who asked for the next free seat, in order.

Each entry keeps the buy-in the person chose. The table's actor seats the
first one as soon as a seat is free (bots do not take seats owed to people
waiting, and one leaves after a hand when people wait at a full table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class WaitingList:
    """Accounts waiting for a seat at one table, first come first seated."""

    entries: dict[int, tuple[str, int]] = field(default_factory=dict)
    """account -> (name, buy-in), in the order they joined."""

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, account_id: object) -> bool:
        return account_id in self.entries

    def join(self, account_id: int, name: str, buy_in: int) -> int:
        """Add (or update the buy-in of) ``account_id``; its place, from 1."""
        self.entries[account_id] = (name, buy_in)
        return list(self.entries).index(account_id) + 1

    def rename(self, account_id: int, name: str) -> None:
        """A new name for someone waiting (a guest who registered); the place stays."""
        if account_id in self.entries:
            self.entries[account_id] = (name, self.entries[account_id][1])

    def drop(self, account_id: int) -> bool:
        return self.entries.pop(account_id, None) is not None

    def first(self) -> tuple[int, int] | None:
        """(account, buy-in) of the person to seat next."""
        for account_id, (_name, buy_in) in self.entries.items():
            return account_id, buy_in
        return None

    def public(self) -> list[dict[str, Any]]:
        return [{"id": a, "name": name} for a, (name, _buy_in) in self.entries.items()]
