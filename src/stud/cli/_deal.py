"""One hand with random actions, told street by street: the work behind ``stud deal``.

Kept apart from :mod:`stud.cli.deal` so that building the ``stud`` parser
imports neither the engine nor Rich.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from stud.cards import Card, Deck
from stud.game import (
    Acted,
    ActionKind,
    ActorTrusted,
    BettingCapped,
    CardBurned,
    CardsDealt,
    CommunityCard,
    DoubleBetAllowed,
    Event,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    NoLowHand,
    PotAwarded,
    PotsFormed,
    ShowdownOrder,
    StreetStarted,
    TableConfig,
    UncalledBetReturned,
    visible_events,
)

STREETS = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}


def play(config: TableConfig, seed: int) -> Hand:
    """One hand on a deck and a choice of actions both seeded by ``seed``."""
    rng = random.Random(seed)
    hand = Hand(config, deck=Deck(seed=seed))
    while not hand.is_over:
        legal = hand.legal_actions()
        free_check = any(a.kind is ActionKind.CHECK for a in legal)
        by_kind: dict[str, Any] = {}
        for action in legal:
            if action.kind is ActionKind.FOLD and free_check:
                continue
            group = "wager" if action.kind.is_wager else action.kind.value
            by_kind.setdefault(group, [])
            by_kind[group].append(action)
        group = rng.choice(sorted(by_kind))
        hand.act(rng.choice(by_kind[group]))
    return hand


def _cards(cards: Sequence[int | None]) -> str:
    return " ".join("??" if c is None else Card(c).pretty() for c in cards)


def _name(seat: int) -> str:
    return f"p{seat + 1}"


def _describe(event: Event) -> str | None:
    """One line for an event, as a table talks; None for events shown otherwise."""
    if isinstance(event, Acted):
        who = _name(event.seat)
        tail = " and is all-in" if event.all_in else ""
        kind = event.kind
        if kind is ActionKind.FOLD:
            return f"{who} folds"
        if kind is ActionKind.CHECK:
            return f"{who} checks"
        if kind is ActionKind.CALL:
            return f"{who} calls {event.amount}{tail}"
        if kind is ActionKind.BRING_IN:
            return f"{who} brings in for {event.amount}{tail}"
        if kind is ActionKind.BET:
            return f"{who} bets {event.to}{tail}"
        verb = "completes" if kind is ActionKind.COMPLETE else "raises"
        return f"{who} {verb} to {event.to}{tail}"
    if isinstance(event, DoubleBetAllowed):
        return "Pair on board - a double bet is allowed"
    if isinstance(event, BettingCapped):
        return "Betting is capped"
    if isinstance(event, UncalledBetReturned):
        return f"Uncalled bet ({event.amount}) returned to {_name(event.seat)}"
    if isinstance(event, CommunityCard):
        return f"Too few cards for everyone: community card {_cards([event.card])}"
    if isinstance(event, CardBurned):
        return f"Burn {_cards([event.card])}" if event.card is not None else None
    if isinstance(event, PotsFormed):
        names = ["main pot"] + [f"side pot {i}" for i in range(1, len(event.pots))]
        parts = [
            f"{name} {pot.amount}" + (f" (rake {pot.rake})" if pot.rake else "")
            for name, pot in zip(names, event.pots, strict=False)
        ]
        return "Pots: " + ", ".join(parts)
    if isinstance(event, ShowdownOrder):
        return "Showdown: " + ", ".join(_name(s) for s in event.seats)
    if isinstance(event, HandShown):
        words = "; ".join(w for w in (event.high, f"low {event.low}" if event.low else None) if w)
        return f"{_name(event.seat)} shows {_cards(event.cards)} ({words})"
    if isinstance(event, HandMucked):
        return f"{_name(event.seat)} mucks"
    if isinstance(event, NoLowHand):
        return f"No low hand qualified for pot {event.pot + 1}"
    if isinstance(event, PotAwarded):
        pot = "the main pot" if event.pot == 0 else f"side pot {event.pot}"
        share = {"high": "the high half of ", "low": "the low half of "}.get(event.share, "")
        hand = f" with {event.hand}" if event.hand else ""
        return f"{_name(event.seat)} wins {event.amount} from {share}{pot}{hand}"
    if isinstance(event, ActorTrusted):
        return f"{_name(event.seat)} acts as recorded ({event.reason})"
    return None


def print_hand(hand: Hand, console: Console, *, open_cards: bool, seed: int) -> None:
    """Street by street: the cards each player shows, then every action; then the showdown."""
    config = hand.config
    console.print(
        f"[bold]{config.game.name}[/bold] — ante {config.ante}, bring-in {config.bring_in}, "
        f"{config.small_bet}/{config.big_bet}, {config.seats} players, seed {seed}"
    )
    events = list(hand.events) if open_cards else visible_events(hand.events, None)
    cards: dict[int, list[int | None]] = {s: [] for s in range(config.seats)}
    ups: dict[int, list[int | None]] = {s: [] for s in range(config.seats)}
    folded: set[int] = set()
    pending = False
    street = 3

    def board() -> None:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("player")
        table.add_column("cards" if open_cards else "shows")
        for seat in range(config.seats):
            if seat in folded:
                continue
            shown = cards[seat] if open_cards else ups[seat]
            table.add_row(_name(seat), _cards(shown))
        console.print(table)

    for event in events:
        if isinstance(event, CardsDealt):
            cards[event.seat].extend(event.down + event.up if event.street != 7 else event.down)
            ups[event.seat].extend(event.up)
            pending = True
            continue
        if pending:
            board()
            pending = False
        if isinstance(event, StreetStarted):
            street = event.street
            console.rule(STREETS[street])
            continue
        if isinstance(event, Acted) and event.kind is ActionKind.FOLD:
            folded.add(event.seat)
        if isinstance(event, ShowdownOrder | PotsFormed) and street:
            console.rule("showdown" if isinstance(event, ShowdownOrder) else "pots")
            street = 0
        if isinstance(event, HandEnded):
            continue
        line = _describe(event)
        if line:
            console.print(line)
    result = hand.result
    assert result is not None
    console.rule("result")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for title in ("player", "stack", "net"):
        table.add_column(title, justify="right" if title != "player" else "left")
    for seat, (stack, net) in enumerate(zip(result.stacks, result.net, strict=True)):
        table.add_row(_name(seat), str(stack), f"{net:+d}")
    console.print(table)
