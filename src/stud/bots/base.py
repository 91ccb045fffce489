"""The one bot interface, and the loop that lets bots play a hand of the engine.

A bot is anything with ``choose(view, legal) -> action``: it gets its own
seat's :class:`~stud.game.HandView` (its down cards, every up card, the
betting so far, never another seat's hidden card) and the legal actions, and
returns one of them. The engine, the table, the card room
(:mod:`stud.bots.room`) and the simulator all call bots through this alone.

A bot that learns about its opponents also offers ``observe(view, players)``
(:class:`Observer`): the table shows it its seat's view when a hand is dealt
and once more when the hand is over, so it sees every action, the folds that
end a hand included, not only those before its own turns; ``players`` names who
sits in each seat, so what it learns follows a player from seat to seat and
from hand to hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from stud.game import Action, Event, Hand, HandView


@runtime_checkable
class Bot(Protocol):
    """A player: picks one of ``legal`` from what its seat may see."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (the very object, or an equal one)."""
        ...


@runtime_checkable
class Observer(Protocol):
    """A bot that watches the table between its decisions (optional for a bot)."""

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        """Take in ``view`` (its seat's, as in ``choose``); ``players``: who sits in each seat.

        Called when a hand is dealt and when it is over (the final view holds
        every event of the hand), and may be called more often: an observer
        counts each event once however often it sees it. ``players`` (one
        identity per seat, by seat) is None where the table does not tell.
        """
        ...


def observe(bot: object, view: HandView, players: Sequence[Hashable] | None = None) -> None:
    """Show ``view`` to ``bot`` if it observes (see :class:`Observer`); else do nothing."""
    if isinstance(bot, Observer):
        bot.observe(view, players)


class BotError(ValueError):
    """A bot answered with something that is not one of its legal actions."""


def ask(bot: Bot, hand: Hand, seat: int | None = None) -> Action:
    """The action ``bot`` picks for ``seat`` (default: the seat to act), checked to be legal.

    The bot gets ``hand.view(seat)`` only: the seat's own view, built by the
    engine, so no hidden card of another seat can reach it.
    """
    if seat is None:
        seat = hand.to_act
    if seat is None:
        raise ValueError("no seat is to act")
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action now")
    choice = bot.choose(hand.view(seat), tuple(legal))
    if choice not in legal:
        raise BotError(f"{type(bot).__name__} chose {choice}, not one of {legal}")
    return choice


def play_hand(
    hand: Hand,
    bots: Sequence[Bot] | Mapping[int, Bot],
    players: Sequence[Hashable] | None = None,
) -> list[Event]:
    """Let ``bots`` (one per seat, by seat) act until the hand is over; return the events.

    Observing bots see their seat's view as the hand is dealt and when it is
    over; ``players`` (one identity per seat) tells them who sits where.
    """
    seats = range(len(hand.config.stacks))
    for viewer in seats:
        observe(bots[viewer], hand.view(viewer), players)
    events: list[Event] = []
    while not hand.is_over:
        seat = hand.to_act
        if seat is None:
            raise ValueError("the hand waits on an unknown card: bots cannot replay it")
        events.extend(hand.act(ask(bots[seat], hand, seat)))
    for viewer in seats:
        observe(bots[viewer], hand.view(viewer), players)
    return events
