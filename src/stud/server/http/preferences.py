"""``GET``/``PUT /api/me/preferences``: how an account plays, kept with the account so it
follows the player to any browser: for now, whether a hand that cannot win at the showdown
is mucked (the default) or shown.

The tables are told by the client (the ``sit`` and ``muck_losing_hands`` messages,
docs/protocol.md), which reads the kept choice here; a hand already dealt keeps the
choice it was dealt with.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from fastapi import APIRouter
from pydantic import BaseModel, Field, StrictBool

from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn, require
from stud.server.storage.accounts import mucks_losing_hands, set_mucks_losing_hands

router = APIRouter(tags=["accounts"])


class Preferences(BaseModel):
    muck_losing_hands: StrictBool = Field(
        description="true (the default): muck a hand that cannot win at the showdown; "
        "false: show it",
        examples=[True],
    )


@router.get("/api/me/preferences")
async def get_preferences(account: LoggedIn, db: DatabaseDep) -> Preferences:
    """The account's kept choices (the room's defaults until it changes one)."""
    muck = await db.read(lambda c: mucks_losing_hands(c, account.id))
    return Preferences(muck_losing_hands=muck)


@router.put("/api/me/preferences")
async def put_preferences(
    body: Preferences, session: CurrentAccount, db: DatabaseDep
) -> Preferences:
    """Keep the account's choices: ``muck_losing_hands`` true or false (else 422)."""
    account = require(session)  # after the body's check: a malformed body is a 422 anyway
    await db.write(lambda c: set_mucks_losing_hands(c, account.id, body.muck_losing_hands))
    return body
