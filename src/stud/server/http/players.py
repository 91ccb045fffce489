"""REST for what an account keeps about other players (issue 38): a private note and colour
tag on any player, and a player's stats from the hands stored.

Notes are the caller's own: no request reads or writes another account's. Stats of
another player count only hands the caller was dealt into (stud.server.storage.stats);
the caller's own add its results by game and by session.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
import unicodedata
from typing import Any, Final

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import Connection, select

from stud.server.errors import Refusal
from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn, require
from stud.server.http.errors import RestError
from stud.server.storage import notes as stored_notes
from stud.server.storage import schema as s
from stud.server.storage.stats import own_stats, player_stats
from stud.server.trust.names import check_text

router = APIRouter(tags=["players"])

MAX_NOTE_CHARS: Final = 500
COLORS: Final = ("", "red", "orange", "yellow", "green", "blue", "purple", "gray")
"""A note's colour tags; ``""`` is none."""
RATES: Final = {
    "vpip": ("vpip", "hands"),
    "raised": ("raised", "hands"),
    "steal": ("stole", "steal_chance"),
    "fold_to_4th_bet": ("folded4", "fold4_chance"),
    "went_to_showdown": ("showdown", "saw4"),
    "won_at_showdown": ("won_showdown", "showdown"),
}
"""Each rate a player's stats give: its count over its chances (null with no chance)."""


class NoteIn(BaseModel):
    text: str = Field(default="", max_length=4 * MAX_NOTE_CHARS, examples=["raises light late"])
    color: str = Field(default="", max_length=16, examples=["red"])


class NoteOut(BaseModel):
    account_id: int
    text: str
    color: str = Field(description=f"one of {', '.join(repr(c) for c in COLORS)}")


def clean_note(text: str) -> str:
    """The note as kept: valid Unicode, line breaks kept, other control and format characters
    (bidi overrides among them) dropped, trimmed; a Refusal past :data:`MAX_NOTE_CHARS`."""
    try:
        check_text(text, "the note")
    except Refusal as refusal:
        raise RestError.of(refusal) from None
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    kept = "".join(
        c for c in lines if c == "\n" or unicodedata.category(c) not in ("Cc", "Cf", "Co")
    ).strip()
    if len(kept) > MAX_NOTE_CHARS:
        raise RestError(
            "note_too_long",
            f"a note is at most {MAX_NOTE_CHARS} characters ({len(kept)} sent)",
            {"max": MAX_NOTE_CHARS},
        )
    return kept


def _player_name(conn: Connection, account_id: int) -> str | None:
    """The name of a player (any account but the house's), or None."""
    a = s.accounts.c
    row = conn.execute(select(a.name).where(a.id == account_id, a.kind != "house")).first()
    return None if row is None else str(row.name)


def _no_player(account_id: int) -> RestError:
    return RestError("no_player", f"no player with the id {account_id}")


@router.get("/api/me/notes")
async def my_notes(account: LoggedIn, db: DatabaseDep) -> list[dict[str, Any]]:
    """Every note the caller keeps: ``account_id``, ``name``, ``text``, ``color``."""
    rows = await db.read(lambda c: stored_notes.notes(c, account.id))
    return [{k: r[k] for k in ("account_id", "name", "text", "color")} for r in rows]


@router.get("/api/players/{account_id}/note")
async def get_note(account_id: int, account: LoggedIn, db: DatabaseDep) -> NoteOut:
    """The caller's note on the player (empty text and colour when it keeps none)."""

    def read(conn: Connection) -> dict[str, Any] | None:
        if _player_name(conn, account_id) is None:
            return None
        return stored_notes.note(conn, account.id, account_id) or {"text": "", "color": ""}

    kept = await db.read(read)
    if kept is None:
        raise _no_player(account_id)
    return NoteOut(account_id=account_id, text=kept["text"], color=kept["color"])


@router.put("/api/players/{account_id}/note")
async def put_note(
    account_id: int, body: NoteIn, session: CurrentAccount, db: DatabaseDep
) -> NoteOut:
    """Keep the caller's note on the player: plain text of at most 500 characters and a
    colour tag; an empty text with no colour removes it."""
    account = require(session)
    text = clean_note(body.text)
    if body.color not in COLORS:
        known = ", ".join(c for c in COLORS if c)
        raise RestError("unknown_color", f"unknown colour {body.color!r}; the tags are {known}")

    def write(conn: Connection) -> bool:
        if _player_name(conn, account_id) is None:
            return False
        stored_notes.set_note(conn, account.id, account_id, text, body.color)
        return True

    if not await db.write(write):
        raise _no_player(account_id)
    return NoteOut(account_id=account_id, text=text, color=body.color)


def rates(counts: dict[str, int]) -> dict[str, float | None]:
    """Each of :data:`RATES` as a fraction (None where the player never had the chance)."""
    return {
        name: (counts[top] / counts[bottom] if counts[bottom] else None)
        for name, (top, bottom) in RATES.items()
    }


@router.get("/api/players/{account_id}/stats")
async def stats(account_id: int, account: LoggedIn, db: DatabaseDep) -> dict[str, Any]:
    """The player's stats: counts (``hands`` together, and each of vpip, raised,
    steal_chance, stole, fold4_chance, folded4, saw4, showdown, won_showdown) and
    ``rates``; for another player over the hands the caller was dealt into, for the
    caller itself over all of its own, with ``results`` by game and by session."""
    own = account_id == account.id

    def read(conn: Connection) -> dict[str, Any] | None:
        name = _player_name(conn, account_id)
        if name is None:
            return None
        if own:
            counts, results = own_stats(conn, account_id)
        else:
            counts, results = player_stats(conn, account_id, account.id), None
        out: dict[str, Any] = {"account_id": account_id, "name": name, "own": own, **counts}
        out["rates"] = rates(counts)
        if results is not None:
            out["results"] = results
        return out

    data = await db.read(read)
    if data is None:
        raise _no_player(account_id)
    return data
