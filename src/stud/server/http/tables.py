"""REST for the lobby's cash tables: the list, opening a table, closing one you opened,
and one table's entry with what a spectator sees now."""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from stud.game import variant
from stud.server.actors.bots import BOT_KINDS
from stud.server.actors.mailbox import Command
from stud.server.errors import Refusal
from stud.server.http.deps import LoggedIn, RoomDep
from stud.server.http.errors import RestError, retry_after
from stud.server.storage import TableSpec
from stud.server.trust.names import table_name
from stud.table import TableError

router = APIRouter(tags=["lobby"])


class NewTable(BaseModel):
    """A table to open. Game, stakes, size and rake are checked by the engine's own rules
    (``stud.game.TableConfig``), whose words a refusal (422) carries; the bounds here only
    keep numbers sane."""

    name: str = Field(max_length=200, description="1-40 printable characters, no line break")
    game: str = Field(max_length=16, examples=["stud", "stud8", "razz"])
    ante: int = Field(le=10**6)
    bring_in: int = Field(le=10**6)
    small_bet: int = Field(le=10**6)
    big_bet: int = Field(le=10**6)
    seats: int = Field(default=8, le=100)
    bots: int = Field(default=0, ge=0, le=8)
    min_buy_in: int | None = Field(default=None, ge=1, le=10**9)
    max_buy_in: int | None = Field(default=None, ge=1, le=10**9)
    rake_percent: float = Field(default=0.0, description="house cut of each pot")
    rake_cap: int | None = Field(default=None, le=10**9, description="at most this rake per hand")
    bot_kind: str = Field(default="strong", max_length=16, examples=["strong"])


def table_spec(body: NewTable) -> TableSpec:
    """The table ``body`` asks for, its name, game and bots checked (else 422); buy-ins
    default to 10 and 100 small bets."""
    try:
        name = table_name(body.name)
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    try:
        variant(body.game)
    except ValueError as error:
        raise RestError("unknown_game", str(error)) from None
    if body.bot_kind not in BOT_KINDS:
        raise RestError("unknown_bot_kind", f"no bots of kind {body.bot_kind!r}")
    return TableSpec(
        name=name,
        game=body.game,
        ante=body.ante,
        bring_in=body.bring_in,
        small_bet=body.small_bet,
        big_bet=body.big_bet,
        seats=body.seats,
        bots=max(0, min(body.bots, body.seats)),
        min_buy_in=body.min_buy_in or body.small_bet * 10,
        max_buy_in=body.max_buy_in or body.small_bet * 100,
        rake_percent=body.rake_percent,
        rake_cap=body.rake_cap,
        bot_kind=body.bot_kind,
    )


@router.get("/api/tables")
async def tables(room: RoomDep, game: str | None = None) -> list[dict[str, Any]]:
    """The lobby: every table with its game, stakes, seats taken, average pot, hands/hour."""
    return [t for t in await room.lobby_all() if game is None or t["game"] == game]


@router.post("/api/tables", status_code=201)
async def create_table(body: NewTable, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Open a table (a few per account: docs/rest.md); a 422 says what is wrong."""
    spec = table_spec(body)
    try:
        actor = await room.create_table(spec, account)
    except Refusal as refusal:  # over the account's quota
        raise RestError.of(refusal) from None
    except ValueError as error:  # the engine's words on stakes, size or rake
        raise RestError("bad_table_settings", str(error)) from None
    return actor.lobby()


@router.delete("/api/tables/{table_id}")
async def close_table(table_id: int, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Close a table you opened: no new hand or player; everyone is cashed out now, or
    when the hand in progress ends; then it leaves the lobby."""
    handle, spec = room.table(table_id), room.spec(table_id)
    if handle is None or spec is None:
        raise RestError("no_table", "no such table")
    if spec.created_by != account.id:
        raise RestError("not_table_owner", "only the account that opened a table may close it")
    try:
        result = await handle.call(Command("close", account.id))
    except TableError as error:  # a shared room's table between two processes
        raise RestError("unavailable", str(error), headers=retry_after(1)) from None
    return {"ok": True, "table": table_id, "closing": bool(result["closing"])}


@router.get("/api/tables/{table_id}")
async def table(table_id: int, room: RoomDep) -> dict[str, Any]:
    """One table's lobby entry and what a spectator sees now."""
    try:
        entry = await room.table_entry(table_id)
    except TableError as error:  # a shared room's table between two processes
        raise RestError("unavailable", str(error), headers=retry_after(1)) from None
    if entry is None:
        raise RestError("no_table", "no such table")
    return entry
