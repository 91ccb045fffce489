"""REST for the operator's desk (``/api/admin/...``, docs/admin.md) and players' reports.

Every admin endpoint answers only a moderator's or an admin's session, and only to this
site's own pages, reads included (``cross_site``: a page of another site cannot make a
moderator's browser act or read here); a player or guest gets 403 ``staff_only`` (or
``admin_only`` for what only an admin may do), no session 401. What an admin sees of a
table is what a spectator sees: no hidden card of a hand in progress.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from stud.server.errors import Refusal
from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn, RoomDep, require
from stud.server.http.errors import RestError, retry_after
from stud.server.http.origin import foreign_origin
from stud.server.room.room import Room
from stud.server.storage import Database
from stud.server.storage import moderation as desk_db
from stud.server.storage.moderation import STAFF, Actor, Member
from stud.table import TableError

router = APIRouter(tags=["admin"])


async def staff_member(request: Request, account: CurrentAccount, db: DatabaseDep) -> Member:
    """The moderator or admin behind the session (401 without one, 403 for anyone else or
    a request from another site's page)."""
    origin = foreign_origin(
        {k.lower(): v for k, v in request.headers.items()},
        request.app.state.room.config.allowed_origins,
    )
    if origin is not None:
        raise RestError("cross_site", f"cross-site request refused: {origin} is not this site")
    found = require(account)
    member = await db.read(lambda c: desk_db.member(c, found.id))
    if member is None or member.role not in STAFF or member.banned(time.time()):
        raise RestError("staff_only", "only a moderator or an admin may do this")
    return member


Staff = Annotated[Member, Depends(staff_member)]


async def admin_member(member: Staff) -> Member:
    if member.role != "admin":
        raise RestError("admin_only", "only an admin may do this")
    return member


Admin = Annotated[Member, Depends(admin_member)]


class Reason(BaseModel):
    reason: str = Field(min_length=1, max_length=500, description="written in the audit log")


class RoleChange(Reason):
    role: str = Field(max_length=16, examples=["moderator"])


class Grant(Reason):
    amount: int = Field(description="chips from the house; negative takes them back")


class Ban(Reason):
    minutes: float | None = Field(default=None, gt=0, description="none: for good")


class Mute(Reason):
    minutes: float = Field(default=60.0, ge=0, description="0 lifts the mute")


class Report(BaseModel):
    table: str = Field(max_length=32, description="the table's id: 12, or t7.2 in a tournament")
    account_id: int = Field(description="the player reported")
    line: str | None = Field(default=None, max_length=400, description="the chat line, if one")
    reason: str = Field(default="", max_length=500)


def _who(member: Member) -> Actor:
    return Actor(member.id, member.name)


async def _do(db: Database, op: Any) -> dict[str, Any]:
    """A desk action (stud.server.storage.moderation) on the writer; its refusal as 4xx."""
    try:
        result: dict[str, Any] = await db.write(op)
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    return result


async def _outranks(db: Database, me: Member, name: str) -> None:
    """A moderator may not act on another moderator or an admin."""
    target = await db.read(lambda c: desk_db.member_by_name(c, name))
    if target is not None and target.role in STAFF and me.role != "admin":
        raise RestError("admin_only", "only an admin may act on a moderator or an admin")


# -- what the page shows -----------------------------------------------------------------


@router.get("/api/admin/overview")
async def overview(me: Staff, room: RoomDep) -> dict[str, Any]:
    """The live view: tables (as the lobby shows them), tournaments, who is connected to
    this process, open reports and the latest audit rows."""
    db = room.db
    reports, audit = await db.read(lambda c: (desk_db.open_reports(c), desk_db.audit_log(c, 50)))
    connected = [
        {"id": account_id, "name": await room.account_name(account_id)}
        for account_id in sorted(room.connections)
    ]
    return {
        "me": {"id": me.id, "name": me.name, "role": me.role},
        "tables": await room.lobby_all(),
        "tournaments": await room.tournaments.listing_all(),
        "connected": connected,
        "reports": reports,
        "audit": audit,
    }


@router.get("/api/admin/tables/{table_id}")
async def table(table_id: int, _me: Staff, room: RoomDep) -> dict[str, Any]:
    """One table as a spectator sees it: no hidden card of the hand in progress."""
    try:
        entry = await room.table_entry(table_id)
    except TableError as error:
        raise RestError("unavailable", str(error), headers=retry_after(1)) from None
    if entry is None:
        raise RestError("no_table", "no such table")
    return entry


@router.get("/api/admin/accounts")
async def accounts(_me: Staff, db: DatabaseDep, search: str = "") -> dict[str, Any]:
    """People's accounts whose name holds ``search``: role, ban, mute, balance, at tables."""
    text = search[:64]
    return {"accounts": await db.read(lambda c: desk_db.search(c, text))}


@router.get("/api/admin/accounts/{name}/ledger")
async def ledger(name: str, _me: Staff, db: DatabaseDep) -> dict[str, Any]:
    """An account's latest ledger entries, newest first."""
    found = await db.read(lambda c: desk_db.member_by_name(c, name))
    if found is None:
        raise RestError("no_account", f"no account named {name!r}")
    lines = await db.read(lambda c: desk_db.ledger_lines(c, found.id))
    return {"account": found.name, "ledger": lines}


@router.get("/api/admin/audit")
async def audit(_me: Staff, db: DatabaseDep) -> dict[str, Any]:
    return {"audit": await db.read(lambda c: desk_db.audit_log(c, 200))}


# -- what a moderator may do -------------------------------------------------------------


@router.post("/api/admin/accounts/{name}/ban")
async def ban(name: str, body: Ban, me: Staff, room: RoomDep) -> dict[str, Any]:
    """Ban an account (for ``minutes``, or for good): its sessions end, its seats are given up
    and cashed out at the hand's end."""
    await _outranks(room.db, me, name)
    until = None if body.minutes is None else time.time() + body.minutes * 60
    result = await _do(
        room.db, lambda c: desk_db.ban_account(c, _who(me), name, body.reason, until)
    )
    room.moderation.banned_now(int(result["account_id"]), until)
    return result


@router.post("/api/admin/accounts/{name}/unban")
async def unban(name: str, body: Reason, me: Staff, room: RoomDep) -> dict[str, Any]:
    result = await _do(room.db, lambda c: desk_db.unban_account(c, _who(me), name, body.reason))
    found = await room.db.read(lambda c: desk_db.member_by_name(c, name))
    if found is not None:
        room.moderation.unbanned_now(found.id)
    return result


@router.post("/api/admin/accounts/{name}/mute")
async def mute(name: str, body: Mute, me: Staff, room: RoomDep) -> dict[str, Any]:
    """No chat for ``minutes`` (0 lifts the mute)."""
    await _outranks(room.db, me, name)
    result = await _do(
        room.db, lambda c: desk_db.mute_account(c, _who(me), name, body.minutes, body.reason)
    )
    room.moderation.muted_now(int(result["account_id"]), result["until"])
    return result


@router.post("/api/admin/reports/{report_id}/resolve")
async def resolve(report_id: int, body: Reason, me: Staff, db: DatabaseDep) -> dict[str, Any]:
    def op(c: Any) -> dict[str, Any]:
        if not desk_db.resolve_report(c, report_id):
            raise Refusal("no_report", f"no open report {report_id}")
        desk_db.record(c, actor_id=me.id, actor=me.name, action="resolve_report",
                       target=str(report_id), reason=body.reason)  # fmt: skip
        return {"report": report_id, "resolved": True}

    return await _do(db, op)


# -- what only an admin may do -----------------------------------------------------------


@router.post("/api/admin/accounts/{name}/role")
async def role(name: str, body: RoleChange, me: Admin, db: DatabaseDep) -> dict[str, Any]:
    """Make an account a player, a moderator or an admin."""
    return await _do(db, lambda c: desk_db.change_role(c, _who(me), name, body.role, body.reason))


@router.post("/api/admin/accounts/{name}/grant")
async def grant(name: str, body: Grant, me: Admin, db: DatabaseDep) -> dict[str, Any]:
    """Chips from the house to the balance (negative: back, never below zero)."""
    store = db.store
    return await _do(
        db, lambda c: desk_db.grant_chips(store, c, _who(me), name, body.amount, body.reason)
    )


@router.post("/api/admin/tables/{table_id}/close")
async def close_table(table_id: int, body: Reason, me: Admin, room: RoomDep) -> dict[str, Any]:
    """Close a cash table: everyone is cashed out now, or when the hand in progress ends."""
    return await _live(room, me, "close_table", table_id, body.reason)


@router.post("/api/admin/tournaments/{tournament_id}/cancel")
async def cancel_tournament(
    tournament_id: int, body: Reason, me: Admin, room: RoomDep
) -> dict[str, Any]:
    """Call a tournament off: refunds before the start, a chip chop of the pool once running."""
    return await _live(room, me, "cancel_tournament", tournament_id, body.reason)


async def _live(room: Room, me: Member, action: str, target: int, reason: str) -> dict[str, Any]:
    try:
        if not reason.strip():
            raise Refusal("no_reason", "say why: a reason is written in the audit log")
        moderation = room.moderation
        if action == "close_table":
            outcome = await moderation.close_table(target)
        else:
            outcome = await moderation.cancel_tournament(target)
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    except TableError as error:
        raise RestError.refused(error) from None
    await _do(room.db, lambda c: desk_db.audit_live(c, _who(me), action, target, reason, outcome))
    return outcome


# -- players' reports --------------------------------------------------------------------


@router.post("/api/reports", status_code=201)
async def report(body: Report, account: LoggedIn, room: RoomDep) -> dict[str, Any]:
    """Report a player (or one of their chat lines) at a table you are at: the report
    reaches the moderators with the table's last chat lines."""
    if body.account_id == account.id:
        raise RestError("nothing_to_report", "you cannot report yourself")
    context = _chat_context(room, body.table)
    if context is None:
        raise RestError("nothing_to_report", "report a player at a table you are at")
    reason = body.reason.strip()[:500]

    def op(c: Any) -> int:
        if desk_db.member(c, body.account_id) is None:
            raise Refusal("no_account", "no such account")
        return desk_db.add_report(
            c, reporter_id=account.id, account_id=body.account_id, table_key=body.table,
            line=body.line, reason=reason, context=context,
        )  # fmt: skip

    try:
        report_id = await room.db.write(op)
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    return {"report": report_id}


def _chat_context(room: Room, key: str) -> list[dict[str, Any]] | None:
    """The table's last chat lines, as this process kept them (None: no such table here
    nor elsewhere in the room; [] for a table another process of a shared room runs)."""
    if key.isdigit():
        actor = room.actors.get(int(key))
        if actor is not None:
            lines: list[dict[str, Any]] = actor.chat.context(int(key))
            return lines
        return [] if room.table(int(key)) is not None else None
    if key.startswith("t") and "." in key:
        head, _, _number = key[1:].partition(".")
        if head.isdigit():
            tourney = room.tournaments.actors.get(int(head))
            if tourney is not None:
                kept: list[dict[str, Any]] = tourney.chat.context(key)
                return kept
            return [] if room.tournaments.handle(int(head)) is not None else None
    return None
