"""``GET``/``PUT /api/me/language``: the language an account chose for the browser client.

The client keeps the choice in the browser too; this makes it follow the account to
another browser (docs/i18n.md). The languages are the client's message catalogs
(``web/static/i18n/LANG.json``): a catalog added there is a language accepted here.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from pydantic import BaseModel, Field

from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn, require
from stud.server.http.errors import RestError
from stud.server.storage.accounts import account_language, set_account_language

router = APIRouter(tags=["accounts"])

CATALOGS = Path(__file__).resolve().parent.parent.parent / "web" / "static" / "i18n"


@cache
def languages() -> frozenset[str]:
    """The languages the client has a catalog for: ``en``, ``zh-Hant``, ``zh-Hans``."""
    return frozenset(path.stem for path in CATALOGS.glob("*.json"))


class LanguageChoice(BaseModel):
    language: str = Field(max_length=16, examples=["zh-Hant"])


class LanguageOut(BaseModel):
    language: str | None = Field(description="null: the account has not chosen one")


@router.get("/api/me/language")
async def get_language(account: LoggedIn, db: DatabaseDep) -> LanguageOut:
    """The language the account chose, or null."""
    return LanguageOut(language=await db.read(lambda c: account_language(c, account.id)))


@router.put("/api/me/language")
async def put_language(
    body: LanguageChoice, session: CurrentAccount, db: DatabaseDep
) -> LanguageOut:
    """Remember the account's language: one of the client's catalogs, else 422."""
    account = require(session)  # after the body's check: a malformed body is a 422 anyway
    if body.language not in languages():
        known = ", ".join(sorted(languages()))
        raise RestError(
            "unknown_language", f"unknown language {body.language!r}; the room speaks {known}"
        )
    await db.write(lambda c: set_account_language(c, account.id, body.language))
    return LanguageOut(language=body.language)
