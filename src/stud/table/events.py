"""What a table step says: events for the players, effects for the server to store.

Two event classes of the same shape, kept apart on purpose: a hand's
:class:`HandEvent` keys its private parts by *table seat* (all a hand knows),
a table's :class:`Event` by *account* (who was dealt the cards). The table
turns one into the other as the hand emits it (:meth:`stud.table.Table`'s
``_owners``), and only an :class:`Event` can be shown (:meth:`Event.for_account`):
as two types, the type checker refuses a seat-keyed private part anywhere a
watcher could be sent it, so a player who takes a seat later never reads the
cards of the one before. Compiled with the table (see :mod:`stud.game.compiled`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NEW_HAND = "new_hand"
"""The table's event for a hand being dealt (the engine's own ``hand_started`` follows it)."""
SHUFFLE = "shuffle"
"""The table's event publishing the next hand's commitment (docs/fairness.md)."""


@dataclass(slots=True, init=False)
class HandEvent:
    """Something that happened in a hand: ``data`` for everyone, ``private`` per *table seat*.

    A player's private part (their own down cards) is merged into the event for
    that player's eyes alone; nobody else ever sees it. Not shown as it is: the
    table keys the private parts by account first (an :class:`Event`; the module
    docstring says why these are two classes).
    """

    kind: str
    data: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def __init__(
        self, kind: str, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        # Written out, so mypyc compiles it (as Event's): three or so a step.
        self.kind = kind
        self.data = data
        self.private = {} if private is None else private


@dataclass(slots=True, init=False)
class Event:
    """A table event: ``data`` for everyone, ``private[account]`` merged in for that account only.

    A private part (down cards, the legal actions of a turn) belongs to the
    account it was dealt to, never to the seat: whoever takes the seat later
    does not inherit it, in a replay of old events or anywhere else (hence a
    class apart from the seat-keyed :class:`HandEvent`; see the module docstring).
    """

    kind: str
    data: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def __init__(
        self, kind: str, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        # Written out, so mypyc compiles it: the dataclass's own __init__ is interpreted code,
        # called for each of the four or so events of every action (docs/performance.md).
        self.kind = kind
        self.data = data
        self.private = {} if private is None else private

    def for_account(self, account: int | None) -> dict[str, Any]:
        """The event as ``account`` (None: a spectator) may see it."""
        out = {"type": self.kind, **self.data}
        if account is not None and account in self.private:
            out.update(self.private[account])
        return out


@dataclass(slots=True, init=False)
class Effect:
    """Something the server must store: hand_started, commit, hand_finished or cash_out."""

    kind: str
    data: dict[str, Any]

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind  # a compiled __init__, as Event's
        self.data = data


Out = Event | Effect
