"""What the table needs from one hand: the narrow face of ``stud.game.Hand`` it uses.

The table runs hands through this protocol only, so the one module that knows
the engine's own types is :mod:`stud.table.engine`. Players in a hand are
numbered 0..n-1 from the dealer's left (the ``player`` arguments); everything a
hand emits (events, views, summaries) names the table's seats instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from stud.fairness import Shuffle
from stud.table.events import HandEvent
from stud.table.heading import Heading


@dataclass(frozen=True, slots=True)
class Legal:
    """One legal action with its exact amount, as a client may send it back."""

    action: str  # fold, check, call, bring-in, complete, bet, raise
    to: int = 0
    """The player's total wager on the street after the action (PHH's ``cbr`` amount)."""

    def public(self) -> dict[str, Any]:
        return {"action": self.action, "to": self.to}


class HandPort(Protocol):
    """One hand in progress, as the table drives it."""

    @property
    def actor(self) -> int | None:
        """The player index to act, or None when the hand is over."""

    @property
    def over(self) -> bool: ...

    def legal(self) -> list[Legal]:
        """The actor's legal actions with exact amounts."""

    def act(self, player: int, action: str, to: int) -> list[HandEvent]:
        """Apply one action; ValueError when it is not legal (the hand is unchanged)."""

    def committed(self) -> list[int]:
        """Chips each player has put into the pot so far (antes, bets, calls)."""

    def payouts(self) -> list[int]:
        """When over: chips each player takes from the pot (uncalled bets included)."""

    def rake(self) -> int:
        """When over: chips the house took from the pot."""

    def view(self, player: int | None, *, events: bool = False) -> dict[str, Any]:
        """The hand as ``player`` (None: a spectator) may see it: no foreign down card.

        With ``events`` the view carries the hand's event log too (for a resync).
        """

    def view_json(self, player: int | None) -> bytes:
        """``view(player)`` (without the log) as compact JSON: byte for byte what
        ``orjson.dumps(view(player))`` makes (the states a step sends every watcher); a
        hand may build it from pieces it keeps between steps."""

    def words(self, player: int | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The hand in words (:mod:`stud.table.readout`): ``player``'s own readout (None for
        a spectator) and every seat's board, as ``own_readout(view(player), seat)`` and
        ``board_readouts(view(None))`` read them."""

    def summary(self) -> dict[str, Any]:
        """When over: the public result (who showed what, who won which pot)."""

    def histories(self, heading: Heading) -> tuple[str, str]:
        """When over: the hand's PHH and PokerStars text, every card in them (the house's copy).

        A ``heading`` with a tournament's tag (id, buy-in, level) writes a tournament
        hand's header.
        """

    def played(self, heading: Heading) -> str:
        """When over: the hand as stored, from which its :meth:`histories` are made when asked
        for (:func:`stud.history.played.load_played`); a tenth of the cost of writing them."""


class HandFactory(Protocol):
    """Starts a hand: game, stakes, stacks and table seats from the dealer's left, a seed.

    The table passes the hand's committed ``shuffle`` (:class:`stud.fairness.Shuffle`)
    by keyword: a hand dealt from it reports it in its summary (``shuffle``) and
    histories once over; a hand dealt otherwise (a test's stacked deck) does not.
    A table that takes a rake also passes ``rake_percent`` and ``rake_cap`` by keyword,
    and a hand with a player who shows losing hands ``muck_losing_hands`` (a choice per
    player of the hand, in its order).
    """

    def __call__(
        self,
        game: str,
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        stacks: list[int],
        seats: list[int],
        seed: int | None,
        *,
        shuffle: Shuffle | None = None,
    ) -> tuple[HandPort, list[HandEvent]]: ...
