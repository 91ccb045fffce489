"""Stacked hands for the browser tests: ``stud serve --hand-factory stud.testing.web:stacked_hand``.

The end-to-end tests must meet situations a shuffle rarely deals: an open pair on
4th street in Stud, a Stud8 pot split between a high and a low hand. The
environment variable ``STUD_WEB_TEST_DECKS`` names, per game, each player's
seven cards from the dealer's left, in the order dealt (down, down, up, up, up,
up, down)::

    {"stud": ["Ah Kh 9c 9d 2s 3s 4c", "Qc Qd 5h 5s 6h 7h 8c"]}

A hand of that game with n players deals the first n of them (folds do not shift
anyone's cards); other games, or more players than listed, shuffle as usual.
A game may instead name its hands and the R12 community card, dealt when eight
players reach 7th street (each then lists six cards)::

    {"razz": {"hands": ["Ac 2c 3c 4c 5c Qc", "..."], "community": "Kc"}}
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING

from stud.fairness import Shuffle
from stud.game import ScriptedCards
from stud.table.engine import start_engine_hand
from stud.table.events import HandEvent
from stud.table.port import HandPort

if TYPE_CHECKING:
    from playwright.sync_api import Page

VARIABLE = "STUD_WEB_TEST_DECKS"


@cache
def stacked_decks() -> dict[str, tuple[list[list[str]], str | None]]:
    """The stacked hands and community card (or None) per game from the environment (read once)."""
    raw = os.environ.get(VARIABLE, "")
    data = json.loads(raw) if raw else {}
    decks: dict[str, tuple[list[list[str]], str | None]] = {}
    for game, deck in data.items():
        hands, community = (
            (deck["hands"], deck.get("community")) if isinstance(deck, dict) else (deck, None)
        )
        decks[game] = ([hand.split() for hand in hands], community)
    return decks


def stacked_hands() -> dict[str, list[list[str]]]:
    """The stacked hands per game from the environment."""
    return {game: hands for game, (hands, _community) in stacked_decks().items()}


def stacked_hand(
    game: str,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    stacks: list[int],
    seats: list[int],
    seed: int | None,
    *,
    rake_percent: float = 0.0,
    rake_cap: int | None = None,
    shuffle: Shuffle | None = None,
) -> tuple[HandPort, list[HandEvent]]:
    """The table's hand factory, dealing the stacked cards of ``game`` when there are enough.

    A stacked hand is not dealt from the table's ``shuffle`` and says so (no proof).
    """
    hands, community = stacked_decks().get(game, ([], None))
    cards = None
    if len(hands) >= len(stacks):
        cards = ScriptedCards([list(hand) for hand in hands[: len(stacks)]], community)
    return start_engine_hand(
        game, ante, bring_in, small_bet, big_bet, stacks, seats, seed,
        rake_percent=rake_percent, rake_cap=rake_cap, cards=cards, shuffle=shuffle,
    )  # fmt: skip


FINISH_ANIMATIONS = """() => { for (const a of document.getAnimations()) {
  if (a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity) a.finish();
} }"""
"""Fast-forwards every animation with an end (cards dealt, bets sliding in) to its last frame."""


def settle(page: Page) -> None:
    """Shows the page as it is once its finite animations end (before a screenshot).

    The animations are fast-forwarded, not waited for: at a lively table new ones start
    all the time, so waiting for a moment without any may never end.
    """
    page.evaluate(FINISH_ANIMATIONS)


FLUSH = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))"
"""Resolves once the page has run the tasks already queued and drawn the next frame."""


def flush(page: Page) -> None:
    """Until what a key press or click already set off in the page (its handlers, their
    promises, the next frame) has happened: a barrier, not a guess at a duration."""
    page.evaluate(FLUSH)


ROUND_TRIP = """() => new Promise((done) => {
  const socket = window.studApp.socket;
  const id = `barrier-${Date.now()}-${Math.random()}`;
  const heard = (e) => {
    if (e.detail.type !== 'pong' || e.detail.id !== id) return;
    socket.removeEventListener('message', heard);
    done();
  };
  socket.addEventListener('message', heard);
  socket.send({ type: 'ping', id });
})"""
"""Pings the room on the page's socket and resolves on the answer."""


def round_trip(page: Page) -> None:
    """Until the room answers a ping on the page's socket, and the page has drawn it: every
    message the room had queued for this page before has arrived (one socket keeps its order)."""
    page.evaluate(ROUND_TRIP)
    flush(page)
