"""REST for tournaments: the lobby's list, a tournament's page, opening a Sit & Go,
registering and unregistering, and bots to fill a Sit & Go (docs/rest.md).

A refusal carries the tournament's own error code (``already_registered``,
``insufficient_balance``, ``registration_closed``, ``already_started``, ...) with the
status :data:`~stud.server.http.errors.REFUSED_STATUS` gives, and changes nothing.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from stud.server.http.deps import CurrentAccount, LoggedIn, RoomDep
from stud.server.http.errors import RestError
from stud.server.room.desk import TourneyTemplate
from stud.server.room.room import Room
from stud.server.storage import Account
from stud.server.trust.names import table_name
from stud.table import TableError
from stud.tournament import TournamentError

router = APIRouter(tags=["tournaments"])


class NewSitAndGo(BaseModel):
    """A Sit & Go to open: it starts when its seats are full (or a player asks for bots)."""

    game: str = Field(max_length=16, examples=["stud", "stud8", "razz"])
    seats: int = Field(ge=2, le=8, description="2 to 8 seats")
    buy_in: int = Field(ge=0, le=10**7, description="to the prize pool")
    fee: int = Field(ge=0, le=10**6, description="to the house")
    starting_chips: int = Field(default=1500, ge=100, le=10**7)
    level_seconds: float = Field(default=300.0, ge=10.0, le=7200.0)
    name: str | None = Field(default=None, max_length=200)


async def command(room: Room, tournament_id: int, kind: str, account: Account) -> dict[str, Any]:
    """A player's command to a tournament (register, unregister, fill) and its answer."""
    try:
        return await room.tournaments.command(tournament_id, kind, account.id)
    except TableError as error:
        raise RestError.refused(error) from None


@router.get("/api/tournaments")
async def tournaments(room: RoomDep) -> dict[str, Any]:
    """Tournaments registering, in late registration, running and recently finished."""
    return {"tournaments": await room.tournaments.listing_all()}


@router.get("/api/tournaments/{tournament_id}")
async def tournament(tournament_id: int, account: CurrentAccount, room: RoomDep) -> dict[str, Any]:
    """A tournament's page: settings, structure, payouts, entrants, tables, and ``me``."""
    try:
        viewer = None if account is None else account.id
        return await room.tournaments.details(tournament_id, viewer)
    except TableError as error:
        raise RestError.refused(error) from None


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: NewSitAndGo, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Open a Sit & Go (an account may have two waiting to start)."""
    desk = room.tournaments
    try:
        name = table_name(body.name) if body.name else f"{body.game} Sit & Go"
        template = TourneyTemplate(
            key="", name=name, game=body.game, seats=body.seats, buy_in=body.buy_in,
            fee=body.fee, starting_chips=body.starting_chips, level_seconds=body.level_seconds,
        )  # fmt: skip
        proto = desk.settings(template, 0.0)
    except ValueError as error:
        raise RestError.refused(TournamentError("bad_settings", str(error))) from None
    try:
        actor = await desk.create_sng(proto, account)
    except TableError as error:
        raise RestError.refused(error) from None
    summary: dict[str, Any] = actor.summary()
    return summary


@router.post("/api/tournaments/{tournament_id}/register")
async def register(tournament_id: int, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Register: buy-in + fee leave the balance (``insufficient_balance`` if short)."""
    return await command(room, tournament_id, "register", account)


@router.delete("/api/tournaments/{tournament_id}/register")
async def unregister(tournament_id: int, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Unregister before the start: buy-in and fee come back to the balance."""
    return await command(room, tournament_id, "unregister", account)


@router.post("/api/tournaments/{tournament_id}/fill")
async def fill(tournament_id: int, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """A registered player of a Sit & Go: bots take the empty seats and it starts."""
    return await command(room, tournament_id, "fill", account)
