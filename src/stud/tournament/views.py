"""What a tournament shows: its lobby line and page, and a table's view with the level clock.

Each view reads a :class:`~stud.tournament.state.TournamentState` at ``now``;
:class:`~stud.tournament.Tournament`'s ``summary``, ``view`` and ``table_view``
are these.
"""

from __future__ import annotations

from typing import Any

from stud.tournament.settings import TournamentError
from stud.tournament.state import REGISTERING, RUNNING, TournamentState


def level_info(t: TournamentState, now: float) -> dict[str, Any]:
    """The level in play, the next one and when this one ends (the ``level`` event's data)."""
    number = t.level_number(now)
    structure = t.settings.structure
    return {
        "level": structure.level(number).public(),
        "next": structure.level(number + 1).public(),
        "ends_at": t.level_ends_at(now),
    }


def table_view(
    t: TournamentState, table_id: int, account_id: int | None, now: float
) -> dict[str, Any]:
    """A tournament table as ``account_id`` (None: a spectator) may see it, with the level
    clock (this level, the next, when it ends) and the player's standing.

    The account's own down cards appear only if that account sits at this table.
    """
    table = t.tables.get(table_id)
    if table is None:
        raise TournamentError("no_table", f"table {table_id} is not running")
    seat = None if account_id is None else table.seat_of(account_id)
    view = table.view(seat)
    view["tournament"] = {
        "id": t.settings.id,
        "name": t.settings.name,
        "table": table_id,
        "state": t.state,
        "level": level_info(t, now) if t.started_at is not None else None,
        "players_left": len(t.alive()),
        "entrants": len(t.entrants),
        "final_table": t.final_table,
    }
    return view


def summary(t: TournamentState, now: float) -> dict[str, Any]:
    """The tournament's line in the lobby: game, buy-in + fee, chips, level length,
    entrants and seats, state (``late_registration`` while it runs and still takes
    entrants), the level in play and the players left."""
    s = t.settings
    state = "late_registration" if t.late_registration else t.state
    return {
        "id": s.id,
        "name": s.name,
        "game": s.game,
        "kind": s.kind,
        "buy_in": s.buy_in,
        "fee": s.fee,
        "starting_chips": s.structure.starting_chips,
        "level_seconds": s.structure.level_seconds,
        "table_seats": s.table_seats,
        "entrants": len(t.entrants),
        "capacity": s.capacity,
        "start_at": s.start_at,
        "state": state,
        "level": t.level_number(now) if t.state == RUNNING else None,
        "players_left": len(t.alive()) if t.state != REGISTERING else None,
        "prize_pool": t.pool,
    }


def page(t: TournamentState, now: float) -> dict[str, Any]:
    """The tournament's lobby page: settings, state, level, payouts, entrants, tables."""
    places = {f.account_id: f for f in t.finishes()}
    entrants: list[dict[str, Any]] = []
    for entrant in t.entrants.values():
        finish = places.get(entrant.id)
        entrants.append(
            {
                "id": entrant.id,
                "name": entrant.name,
                "bot": entrant.bot,
                "chips": t.chips(entrant.id),
                "table": t.table_of(entrant.id),
                "place": None if finish is None else finish.place,
                "prize": None if finish is None else finish.prize,
            }
        )
    # Players still in by chips, then the placed ones by place.
    entrants.sort(key=lambda e: (e["place"] is not None, e["place"] or 0, -e["chips"], e["name"]))
    return {
        "settings": t.settings.public(),
        "state": t.state,
        "late_registration": t.late_registration,
        "registration_open": t.registration_open and t.state in (REGISTERING, RUNNING),
        "registration_closes_at": t.registration_closes_at(),
        "started_at": t.started_at,
        "finished_at": t.finished_at,
        "entrants": entrants,
        "players_left": len(t.alive()) if t.state != REGISTERING else len(t.entrants),
        "prize_pool": t.pool,
        "payouts": t.payouts(),
        "level": level_info(t, now) if t.state == RUNNING else None,
        "tables": [
            {"id": t, "players": len(table.players()), "hand_number": table.hand_number}
            for t, table in sorted(t.tables.items())
        ],
        "final_table": t.final_table,
    }
