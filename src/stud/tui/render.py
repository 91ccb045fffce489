"""Cards, seats and what happened, as Rich text for the terminal table.

Pure functions of a seat's :class:`~stud.game.HandView` and its events: what
one player may see, drawn; nothing here knows another seat's hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from stud.cards import RANKS, SUIT_SYMBOLS
from stud.game import (
    Acted,
    Action,
    ActionKind,
    AntePosted,
    BettingCapped,
    CommunityCard,
    DoubleBetAllowed,
    Event,
    HandMucked,
    HandShown,
    HandView,
    NoLowHand,
    PotAwarded,
    PotsFormed,
    SeatView,
    ShowdownOrder,
    StreetStarted,
    UncalledBetReturned,
)

SUIT_STYLES = ("green", "blue", "red", "bold")
"""Four-colour deck: clubs green, diamonds blue, hearts red, spades plain."""

STREETS = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "the river"}

VERBS = {
    ActionKind.FOLD: "folds",
    ActionKind.CHECK: "checks",
    ActionKind.CALL: "calls",
    ActionKind.BRING_IN: "brings in for",
    ActionKind.COMPLETE: "completes to",
    ActionKind.BET: "bets",
    ActionKind.RAISE: "raises to",
}


def card_label(card: int) -> str:
    """``A♠``: rank and suit symbol."""
    return RANKS[card >> 2] + SUIT_SYMBOLS[card & 3]


def cards_row(cards: Sequence[tuple[int | None, bool]]) -> Text:
    """Cards drawn as small boxes on three lines; each is (card or None if hidden, face up)."""
    top, middle, bottom = Text(), Text(), Text()
    for card, up in cards:
        border = "white" if up else "grey50"
        top.append("╭──╮", style=border)
        bottom.append("╰──╯", style=border)
        middle.append("│", style=border)
        if card is None:
            middle.append("░░", style="grey50")
        else:
            style = SUIT_STYLES[card & 3] + ("" if up else " italic")
            middle.append(card_label(card), style=style)
        middle.append("│", style=border)
    return Text("\n").join([top, middle, bottom])


def seat_cards(seat: SeatView) -> list[tuple[int | None, bool]]:
    """A seat's cards in dealing order (down, down, up..., river down), flagged face up or not."""
    down = list(seat.down)
    return (
        [(c, False) for c in down[:2]]
        + [(c, True) for c in seat.up]
        + [(c, False) for c in down[2:]]
    )


def seat_panel(view: HandView, seat: SeatView, name: str, chips_at_start: int) -> Text:
    """One seat: name, chips, this street's bet, state, and its cards as the viewer sees them."""
    head = Text(name, style="bold cyan" if seat.seat == view.viewer else "bold")
    head.append(f"   chips {seat.stack:,}")
    if seat.bet:
        head.append(f"   bet {seat.bet:,}", style="yellow")
    if not seat.live:
        head.append("   folded", style="grey50")
    elif seat.all_in:
        head.append("   all-in", style="magenta")
    if view.to_act == seat.seat and not view.is_over:
        head.append("   ◀ to act", style="bold yellow")
    if view.is_over:
        net = seat.stack - chips_at_start
        head.append(f"   {net:+,}", style="green" if net > 0 else "red" if net < 0 else "")
    return Text("\n").join([head, cards_row(seat_cards(seat))])


def action_label(action: Action) -> str:
    """``call 20``, ``raise to 40``, ``fold``: how the prompt names a legal action."""
    kind = action.kind
    if kind in (ActionKind.FOLD, ActionKind.CHECK):
        return kind.value
    if kind is ActionKind.CALL:
        return f"call to {action.to:,}"
    if kind is ActionKind.BRING_IN:
        return f"bring in for {action.to:,}"
    return f"{kind.value} to {action.to:,}"


def _verb(verb: str, second_person: bool) -> str:
    """``calls`` for others, ``call`` for you; ``brings in``: ``bring in``; ``is``: ``are``."""
    if not second_person:
        return verb
    words = verb.split(" ")
    head = words[0]
    head = "are" if head == "is" else head[:-1] if head.endswith("s") else head
    return " ".join([head, *words[1:]])


def describe_event(event: Event, names: Sequence[str], you: int | None = None) -> str | None:
    """One line for the table's log, from the viewer's events (None: nothing worth a line).

    ``you`` is the viewer's seat, spoken to in the second person.
    """
    if isinstance(event, StreetStarted):
        return f"── {STREETS[event.street]} ──"
    if isinstance(event, AntePosted):
        return None
    seat = getattr(event, "seat", None)
    second = seat is not None and seat == you

    def said(verb: str) -> str:
        return _verb(verb, second)

    if isinstance(event, Acted):
        who = names[event.seat]
        tail = f" and {said('is')} all-in" if event.all_in else ""
        verb = said(VERBS[event.kind])
        if event.kind in (ActionKind.FOLD, ActionKind.CHECK):
            return f"{who} {verb}"
        if event.kind is ActionKind.CALL:
            return f"{who} {verb} {event.amount:,}{tail}"
        return f"{who} {verb} {event.to:,}{tail}"
    if isinstance(event, DoubleBetAllowed):
        return "Pair on board: a double bet is allowed"
    if isinstance(event, BettingCapped):
        return "Betting is capped"
    if isinstance(event, CommunityCard):
        card = "??" if event.card is None else card_label(event.card)
        return f"Too few cards left: {card} is dealt face up for everyone"
    if isinstance(event, UncalledBetReturned):
        return f"Uncalled bet of {event.amount:,} returned to {names[event.seat]}"
    if isinstance(event, PotsFormed):
        if len(event.pots) == 1:
            return None
        parts = [
            f"{'main' if i == 0 else f'side {i}'} {p.amount:,}" for i, p in enumerate(event.pots)
        ]
        return "Pots: " + ", ".join(parts)
    if isinstance(event, ShowdownOrder):
        return "── showdown ── (" + ", then ".join(names[s] for s in event.seats) + ")"
    if isinstance(event, HandShown):
        cards = " ".join("??" if c is None else card_label(c) for c in event.cards)
        hands = "; ".join(
            part
            for part in (
                f"high: {event.high}" if event.high else "",
                f"low: {event.low}" if event.low else "",
            )
            if part
        )
        return f"{names[event.seat]} {said('shows')} {cards}" + (f" — {hands}" if hands else "")
    if isinstance(event, HandMucked):
        return f"{names[event.seat]} {said('mucks')}"
    if isinstance(event, NoLowHand):
        return "No low hand qualified: the high hand takes the whole pot"
    if isinstance(event, PotAwarded):
        pot = "the pot" if event.pot == 0 else f"side pot {event.pot}"
        share = {"high": "the high half of ", "low": "the low half of "}.get(event.share, "")
        how = f" with {event.hand}" if event.hand else ""
        used = (
            " (" + " ".join(card_label(c) for c in event.cards if c is not None) + ")"
            if event.cards
            else ""
        )
        return f"{names[event.seat]} {said('wins')} {event.amount:,}: {share}{pot}{how}{used}"
    return None
