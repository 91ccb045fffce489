"""Tournaments: Sit & Go and scheduled multi-table events, pure like :mod:`stud.table`.

Structures and levels, registration and refunds, seating, table balancing and
breaking, busts and places, payouts and a snapshot to resume from; hands are
played by :class:`stud.table.Table`. See docs/tournaments.md.
"""

from __future__ import annotations

from stud.tournament.balance import Move, balanced, plan, table_to_break, tables_to_break
from stud.tournament.payouts import paid_places, payout_weights, prizes
from stud.tournament.places import Bust, Finish, Standings
from stud.tournament.settings import TournamentError, TournamentSettings, buy_in_text
from stud.tournament.state import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Entrant,
    TableOut,
    TourneyOut,
)
from stud.tournament.structure import Level, Structure, level_from_small_bet
from stud.tournament.tournament import Tournament

__all__ = [
    "CANCELLED",
    "FINISHED",
    "REGISTERING",
    "RUNNING",
    "Bust",
    "Entrant",
    "Finish",
    "Level",
    "Move",
    "Standings",
    "Structure",
    "TableOut",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "TourneyOut",
    "balanced",
    "buy_in_text",
    "level_from_small_bet",
    "paid_places",
    "payout_weights",
    "plan",
    "prizes",
    "table_to_break",
    "tables_to_break",
]
