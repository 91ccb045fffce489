"""REST for tournaments: the lobby's list, a tournament's page, opening a Sit & Go,
registering and unregistering, and bots to fill a Sit & Go (docs/protocol.md).

A refusal is ``{"detail": ..., "code": ...}`` with the tournament's own error
code (``already_registered``, ``insufficient_balance``, ``registration_closed``,
``already_started``, ...), and changes nothing.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from stud.server.room.desk import TourneyTemplate
from stud.server.room.room import Room
from stud.server.storage import Account
from stud.server.trust.names import table_name
from stud.table import TableError

STATUS = {
    "no_tournament": 404,
    "no_table": 404,
    "login_required": 401,
    "bad_settings": 422,
    "bad_name": 422,
    "tournament_limit": 403,
    "internal": 500,
    "unavailable": 503,
}
"""HTTP status of a refusal by its code; any other refusal is a 409 (the state forbids it)."""


class TournamentRefused(Exception):
    """A refused request, answered as ``{"detail", "code"}``."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class NewSitAndGo(BaseModel):
    """A Sit & Go to open: it starts when its seats are full (or a player asks for bots)."""

    game: str = Field(max_length=16, examples=["stud", "stud8", "razz"])
    seats: int = Field(ge=2, le=8, description="2 to 8 seats")
    buy_in: int = Field(ge=0, le=10**7, description="to the prize pool")
    fee: int = Field(ge=0, le=10**6, description="to the house")
    starting_chips: int = Field(default=1500, ge=100, le=10**7)
    level_seconds: float = Field(default=300.0, ge=10.0, le=7200.0)
    name: str | None = Field(default=None, max_length=200)


async def refused_response(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, TournamentRefused)
    status = STATUS.get(error.code, 409)
    return JSONResponse({"detail": error.detail, "code": error.code}, status_code=status)


def add_tournament_routes(
    app: FastAPI,
    room: Room,
    current: Callable[..., Coroutine[Any, Any, Account | None]],
) -> None:
    """The ``/api/tournaments`` routes, on ``app``."""
    desk = room.tournaments
    app.add_exception_handler(TournamentRefused, refused_response)

    async def required(account: Annotated[Account | None, Depends(current)]) -> Account:
        if account is None:
            raise TournamentRefused("login_required", "log in or play as a guest first")
        return account

    async def command(tournament_id: int, kind: str, account: Account) -> dict[str, Any]:
        try:
            return await desk.command(tournament_id, kind, account.id)
        except TableError as error:
            raise TournamentRefused(error.code, str(error)) from None

    @app.get("/api/tournaments", tags=["tournaments"])
    async def tournaments() -> dict[str, Any]:
        """Tournaments registering, in late registration, running and recently finished."""
        return {"tournaments": await desk.listing_all()}

    @app.get("/api/tournaments/{tournament_id}", tags=["tournaments"])
    async def tournament(
        tournament_id: int, account: Annotated[Account | None, Depends(current)]
    ) -> dict[str, Any]:
        """A tournament's page: settings, structure, payouts, entrants, tables, and ``me``."""
        try:
            return await desk.details(tournament_id, None if account is None else account.id)
        except TableError as error:
            raise TournamentRefused(error.code, str(error)) from None

    @app.post("/api/tournaments", tags=["tournaments"], status_code=201)
    async def create_tournament(
        body: NewSitAndGo, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """Open a Sit & Go (an account may have two waiting to start)."""
        try:
            name = table_name(body.name) if body.name else f"{body.game} Sit & Go"
            template = TourneyTemplate(
                key="", name=name, game=body.game, seats=body.seats, buy_in=body.buy_in,
                fee=body.fee, starting_chips=body.starting_chips, level_seconds=body.level_seconds,
            )  # fmt: skip
            proto = desk.settings(template, 0.0)
        except ValueError as error:
            raise TournamentRefused("bad_settings", str(error)) from None
        try:
            actor = await desk.create_sng(proto, account)
        except TableError as error:
            raise TournamentRefused(error.code, str(error)) from None
        summary: dict[str, Any] = actor.summary()
        return summary

    @app.post("/api/tournaments/{tournament_id}/register", tags=["tournaments"])
    async def register(
        tournament_id: int, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """Register: buy-in + fee leave the balance (``insufficient_balance`` if short)."""
        return await command(tournament_id, "register", account)

    @app.delete("/api/tournaments/{tournament_id}/register", tags=["tournaments"])
    async def unregister(
        tournament_id: int, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """Unregister before the start: buy-in and fee come back to the balance."""
        return await command(tournament_id, "unregister", account)

    @app.post("/api/tournaments/{tournament_id}/fill", tags=["tournaments"])
    async def fill(
        tournament_id: int, account: Annotated[Account, Depends(required)]
    ) -> dict[str, Any]:
        """A registered player of a Sit & Go: bots take the empty seats and it starts."""
        return await command(tournament_id, "fill", account)
