"""Who may see a private part: the account it was dealt to, and nobody else.

Every path that shows hidden cards asks here, with the *account* asking (None
for a spectator), never a seat or a connection: the live stream and the
events replayed to a client that reconnects or watches ``since`` an old event
(:func:`private_or_public`), the current state (the account's own seat, if it
has one now), and a finished hand's downloads and replay (:func:`hand_player`:
the account's place in that hand's stored list of players). Whoever sits in a
seat later inherits nothing of its earlier occupants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def private_or_public(private: Mapping[int, T], public: T, account: int | None) -> T:
    """``account``'s own version of something (an event's text), else everyone's."""
    if account is None:
        return public
    return private.get(account, public)


def hand_player(players: Sequence[Mapping[str, Any]], account: int | None) -> int | None:
    """``account``'s index in a finished hand's players (its record seat), if it played it."""
    if account is None:
        return None
    return next((i for i, p in enumerate(players) if p["account_id"] == account), None)
