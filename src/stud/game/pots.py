"""Main and side pots, rake, and splitting a pot with its odd chips (rules.md R17, R18).

Pure functions over chip counts: the engine gives each seat's total
contribution to the hand and who is still in it; these say how the chips
divide, so the money rules are in one place and testable on their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from stud.game.events import Pot


def build_pots(committed: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """R17: layer the chips into a main pot and side pots.

    Each distinct total put in by a live seat closes a layer; a layer holds
    every seat's chips up to that total (folded seats' too) and can be won
    only by live seats that put in at least that much. Layers with the same
    winners merge. Chips above the top live total (which only a folded seat
    could have left after uncalled bets are returned) join the last pot.
    """
    # The usual case first: every live seat put in the same, nobody more: one pot.
    top = -1
    even = True
    seats_in: list[int] = []
    for seat, alive in enumerate(live):
        if alive:
            if top < 0:
                top = committed[seat]
            elif committed[seat] != top:
                even = False
            seats_in.append(seat)
    if even and max(committed) <= top:
        return [Pot(sum(committed), tuple(seats_in))]
    levels = sorted({committed[s] for s in seats_in})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = 0
        for c in committed:
            if c > floor:
                amount += (c if c < level else level) - floor
        seats = tuple(s for s, c in enumerate(committed) if live[s] and c >= level)
        if pots and pots[-1].seats == seats:
            pots[-1] = Pot(pots[-1].amount + amount, seats)
        elif amount:
            pots.append(Pot(amount, seats))
        floor = level
    extra = sum(c - floor for c in committed if c > floor)
    if extra:
        if pots:
            pots[-1] = Pot(pots[-1].amount + extra, pots[-1].seats)
        else:
            pots.append(Pot(extra, tuple(s for s, alive in enumerate(live) if alive)))
    return pots


def rake_pots(
    pots: Sequence[Pot],
    percent: Fraction | int,
    cap: int | None,
    forced: int | Sequence[int] | None = None,
) -> list[Pot]:
    """The pots with their rake: ``percent`` of each (rounded down), at most ``cap`` in all.

    A replay passes ``forced``, the rake its record states: a total is taken
    from the main pot first, then the side pots in order; a sequence gives
    each pot's own rake, main pot first (a record that prints its pots after
    rake says how much came out of each, and when different players win them
    only that matches the record to the cent). The cap, too, is reached main
    pot first.
    """
    out: list[Pot] = []
    amounts = [p.amount for p in pots]
    if isinstance(forced, int):
        if forced < 0 or forced > sum(amounts):
            raise ValueError(f"a rake of {forced} does not fit pots of {amounts}")
        left = forced
        for p in pots:
            take = min(left, p.amount)
            left -= take
            out.append(Pot(p.amount, p.seats, take))
        return out
    if forced is not None:
        takes = list(forced)
        if len(takes) != len(pots):
            raise ValueError(
                f"a rake given for {len(takes)} pot(s), but the hand formed {len(pots)}: "
                f"pots of {amounts}"
            )
        for p, take in zip(pots, takes, strict=True):
            if take < 0 or take > p.amount:
                raise ValueError(
                    f"a rake of {take} does not fit a pot of {p.amount} (pots {amounts})"
                )
            out.append(Pot(p.amount, p.seats, take))
        return out
    left_cap = cap
    for p in pots:
        take = int(p.amount * percent / 100)
        if left_cap is not None:
            take = min(take, left_cap)
            left_cap -= take
        out.append(Pot(p.amount, p.seats, take))
    return out


def split(amount: int, winners: Sequence[int], odd_chip_order: Callable[[int], int]) -> list[int]:
    """R18: divide ``amount`` among ``winners``; the result is each winner's share, in order.

    Every winner gets the even share; the chips left over (fewer than the
    winners) go one each to the winners who come first by ``odd_chip_order``
    (smaller key first), so nobody gets more than one odd chip of a split.
    """
    count = len(winners)
    share, odd = divmod(amount, count)
    shares = [share] * count
    if odd:
        ranked = sorted(range(count), key=lambda i: odd_chip_order(winners[i]))
        for i in ranked[:odd]:
            shares[i] += 1
    return shares
