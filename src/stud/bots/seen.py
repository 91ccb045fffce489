"""What a seat's view tells a bot, boiled down: cards, who is live, and who did what.

Built from a :class:`~stud.game.HandView` only, so a bot reasoning from it
knows exactly what its seat may know: its own cards, every up card (folded
seats' too: those are dead), the cards shown, and the betting.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stud.game import Acted, ActionKind, HandView, StreetStarted


@dataclass(slots=True)
class Line:
    """One seat's betting so far: aggressive actions and calls, per street (3..7)."""

    aggressive: list[int] = field(default_factory=lambda: [0] * 8)
    calls: list[int] = field(default_factory=lambda: [0] * 8)
    checks: list[int] = field(default_factory=lambda: [0] * 8)
    called_wager: list[int] = field(default_factory=lambda: [0] * 8)
    """Calls of a complete, bet or raise (calling only the bring-in is not one)."""
    brought_in: bool = False
    had_bring_in: bool = False
    """Had the bring-in: 3rd street's first action was its own (posting it or completing)."""
    opened: list[bool] = field(default_factory=lambda: [False] * 8)
    """Made the street's first wager (completed or bet first); its other wagers are raises."""

    def late_aggression(self) -> int:
        """Bets and raises from 4th street on."""
        return sum(self.aggressive[4:])

    def late_calls(self) -> int:
        return sum(self.calls[4:])


@dataclass(slots=True)
class Opponent:
    """A live opponent: its seat, its up cards, how many down cards it holds, its line."""

    seat: int
    up: list[int]
    down_known: list[int]
    down_count: int
    line: Line
    all_in: bool


@dataclass(slots=True)
class Seen:
    """The view of one seat, in the shape the strong bot reasons with."""

    game: str
    me: int
    street: int
    mine_down: list[int]
    mine_up: list[int]
    opponents: list[Opponent]
    dead: list[int]
    """Every card seen that no live opponent holds: folded up cards, shown cards."""
    community: int | None
    pot: int
    to_call: int
    unit: int
    wagers: int
    """Completes, bets and raises on this street so far (the bring-in is not one)."""
    my_line: Line
    lines: dict[int, Line]
    seats: int

    @property
    def mine(self) -> list[int]:
        """My cards, down and up."""
        return self.mine_down + self.mine_up

    @property
    def known(self) -> set[int]:
        """Every card whose place I know: mine, all up cards, the dead, the community card."""
        out = set(self.mine_down) | set(self.mine_up) | set(self.dead)
        for opp in self.opponents:
            out.update(opp.up)
            out.update(opp.down_known)
        if self.community is not None:
            out.add(self.community)
        return out


def read_view(view: HandView) -> Seen:
    """Boil ``view`` down for a bot; ValueError for a spectator's view (it has no seat)."""
    me = view.viewer
    if me is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    lines: dict[int, Line] = {s.seat: Line() for s in view.seats}
    street = 3
    wagers = 0
    bring_in_seen = False
    for event in view.events:
        if isinstance(event, StreetStarted):
            street = event.street
            wagers = 0
        elif isinstance(event, Acted):
            line = lines[event.seat]
            kind = event.kind
            if not bring_in_seen:
                line.had_bring_in = bring_in_seen = True
            if kind.is_wager:
                line.aggressive[street] += 1
                line.opened[street] |= wagers == 0
                wagers += 1
            elif kind is ActionKind.CALL:
                line.calls[street] += 1
                if wagers:
                    line.called_wager[street] += 1
            elif kind is ActionKind.CHECK:
                line.checks[street] += 1
            elif kind is ActionKind.BRING_IN:
                line.brought_in = True
    mine = view.seats[me]
    opponents: list[Opponent] = []
    dead: list[int] = []
    for s in view.seats:
        if s.seat == me:
            continue
        up = [c for c in s.up if c is not None]
        down = [c for c in s.down if c is not None]
        if s.live:
            opponents.append(Opponent(s.seat, up, down, len(s.down), lines[s.seat], s.all_in))
        else:
            dead.extend(up)
            dead.extend(down)
    unit = view.small_bet if view.street <= 4 else view.big_bet
    # A view without its events (the room may send none) still shows the level to match.
    wagers = max(wagers, view.level // unit)
    to_call = max(0, min(view.level - mine.bet, mine.stack))
    return Seen(
        game=view.game,
        me=me,
        street=view.street,
        mine_down=[c for c in mine.down if c is not None],
        mine_up=[c for c in mine.up if c is not None],
        opponents=opponents,
        dead=dead,
        community=view.community,
        pot=view.pot,
        to_call=to_call,
        unit=unit,
        wagers=wagers,
        my_line=lines[me],
        lines=lines,
        seats=len(view.seats),
    )
