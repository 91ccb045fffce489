"""What one seat did in one hand, as the numbers a player's stats add up (issue 38).

A finished hand gives a row per seat with an account (:func:`hand_facts`), from its
:class:`~stud.history.HandRecord`: the room's hands (read back from the hand as
played) and imported ones (a PokerStars file read by :mod:`stud.history`) alike.
Each flag is 0 or 1, so a player's stats are sums over rows (stud.server.storage.stats).

The definitions (docs/rest.md, "Player stats"):

- ``vpip``: put chips in voluntarily on 3rd street (a call, completion or raise;
  the bring-in, forced, does not count).
- ``raised``: completed or raised on 3rd street.
- ``steal_chance``/``stole``: the seat's first decision on 3rd street came with
  nobody in but the bring-in (everyone before it folded), it is not the bring-in,
  and at most :data:`STEAL_BEHIND` players who can still act were left to act
  behind it before the bring-in; ``stole``: it completed there.
- ``fold4_chance``/``folded4``: faced a bet on 4th street before putting a chip in
  on it; ``folded4``: folded to it.
- ``saw4``: was still in when 4th street was dealt.
- ``showdown``/``won_showdown``: was in at the showdown (two or more players left);
  took chips from a pot there.
- ``net``: chips won less chips put in (ante included), after rake.

An imported hand (:func:`imported_facts`) gives its importer's row alone: its other seats
are names on another site, which the room never takes for its own accounts (anyone here
may have any name there), so an import changes no other account's stats. Its ``net`` is
in the file's money (:func:`money_unit`), kept apart from the room's chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from stud.history import HandRecord, Kind
from stud.history.clock import posix_time
from stud.history.played import load_played

STEAL_BEHIND: Final = 2
"""A completion is a steal when at most this many players are left to act behind it."""
FLAGS: Final = (
    "vpip",
    "raised",
    "steal_chance",
    "stole",
    "fold4_chance",
    "folded4",
    "saw4",
    "showdown",
    "won_showdown",
)
"""The 0/1 columns of a facts row, in the order stats report them."""
ROOM_UNIT: Final = "chips"
"""What the room's hands count ``net`` in (:func:`money_unit` gives an imported hand's)."""
_VOLUNTARY: Final = frozenset({Kind.CALL, Kind.COMPLETE, Kind.BET, Kind.RAISE})
_AGGRESSIVE: Final = frozenset({Kind.COMPLETE, Kind.BET, Kind.RAISE})


def hand_facts(
    record: HandRecord,
    accounts: Sequence[int | None],
    *,
    hand_id: int,
    at: float,
    source: str = "room",
) -> list[dict[str, Any]]:
    """A facts row for each seat of ``record`` with an account (``accounts[seat]``; None: a
    seat nobody here plays, as an imported file's opponents)."""
    if len(accounts) != len(record.seats):
        raise ValueError(f"{len(accounts)} accounts for a hand of {len(record.seats)} seats")
    flags = [dict.fromkeys(FLAGS, 0) for _ in record.seats]
    _third_street(record, flags)
    _fourth_street(record, flags)
    showdown = record.showdown
    live = set(record.live_at_end())
    collected = record.collected_by_seat() if record.collected is None else record.collected
    put_in = _put_in(record)
    rows: list[dict[str, Any]] = []
    for seat, account in enumerate(accounts):
        if account is None:
            continue
        row = flags[seat]
        row["saw4"] = int(seat in record.seats_dealt(4) and record.folded_on().get(seat) != 3)
        row["showdown"] = int(showdown and seat in live)
        row["won_showdown"] = int(showdown and seat in live and collected[seat] > 0)
        rows.append(
            {
                "account_id": account,
                "source": source,
                "hand_id": hand_id,
                "game": record.game,
                "at": at,
                "seat": seat,
                **row,
                "net": collected[seat] - put_in[seat],
            }
        )
    return rows


def _can_act(record: HandRecord, seat: int) -> bool:
    """Whether the seat had chips left after its ante (an all-in ante cannot act)."""
    return record.seats[seat].stack > record.stakes.ante


def _third_street(record: HandRecord, flags: list[dict[str, int]]) -> None:
    actions = list(record.actions_on(3))
    bring_in = next((a.seat for a in actions if a.kind is Kind.BRING_IN), None)
    acted: set[int] = set() if bring_in is None else {bring_in}
    folded: set[int] = set()
    opened = False  # someone besides the bring-in put chips in
    for action in actions:
        seat = action.seat
        if action.kind in (Kind.BRING_IN, Kind.RETURN):
            continue
        first = seat not in acted
        if first and not opened and seat != bring_in and bring_in is not None:
            behind = [
                s
                for s in record.seats_dealt(3)
                if s not in acted and s not in folded and s != seat and _can_act(record, s)
            ]
            if len(behind) <= STEAL_BEHIND:
                flags[seat]["steal_chance"] = 1
                flags[seat]["stole"] = int(action.kind is Kind.COMPLETE)
        acted.add(seat)
        if action.kind is Kind.FOLD:
            folded.add(seat)
        if action.kind in _VOLUNTARY:
            flags[seat]["vpip"] = 1
            opened = True
        if action.kind in _AGGRESSIVE:
            flags[seat]["raised"] = 1


def _fourth_street(record: HandRecord, flags: list[dict[str, int]]) -> None:
    bet_by: int | None = None
    decided: set[int] = set()  # seats that put chips in on 4th, or already faced its bet
    for action in record.actions_on(4):
        seat = action.seat
        if action.kind is Kind.RETURN:
            continue
        if bet_by is not None and seat != bet_by and seat not in decided:
            flags[seat]["fold4_chance"] = 1
            flags[seat]["folded4"] = int(action.kind is Kind.FOLD)
        if action.kind in _VOLUNTARY or bet_by is not None:
            decided.add(seat)
        if action.kind in _AGGRESSIVE and bet_by is None:
            bet_by = seat


def _put_in(record: HandRecord) -> list[int]:
    """Chips each seat put in: its ante, its wagers, less any uncalled part given back."""
    put = [min(record.stakes.ante, seat.stack) for seat in record.seats]
    for action in record.actions:
        put[action.seat] += -action.amount if action.kind is Kind.RETURN else action.amount
    return put


def played_facts(
    played: str, accounts: Sequence[int | None], *, hand_id: int, at: float
) -> list[dict[str, Any]]:
    """The facts rows of a room hand stored as played (:mod:`stud.history.played`); its
    seats are the hand's players in order, ``accounts`` theirs."""
    return hand_facts(load_played(played), accounts, hand_id=hand_id, at=at)


def money_unit(record: HandRecord) -> str:
    """What an imported hand's amounts count: its currency (in cents) for a cash game,
    ``tourney`` chips, or ``play`` money."""
    if record.tournament is not None:
        return "tourney"
    return record.currency if record.currency and record.decimals else "play"


def imported_facts(record: HandRecord, imported_at: float) -> dict[str, Any] | None:
    """The importer's facts row of a hand read from a file, with its ``unit``, less the
    account and the hand's id (given when it is stored); None when the file names no hero.
    ``at`` is when the file says the hand was played (``imported_at`` if it does not)."""
    if record.hero is None:
        return None
    accounts: list[int | None] = [None] * len(record.seats)
    accounts[record.hero] = 0
    at = posix_time(record.time, record.time_zone, record.time_et)
    (row,) = hand_facts(
        record, accounts, hand_id=0, at=imported_at if at is None else at, source="import"
    )
    del row["account_id"], row["hand_id"]
    return {**row, "unit": money_unit(record)}
