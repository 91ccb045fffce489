"""REST for free play chips: where the account stands (``GET /api/me/top-up``) and the
top-up itself (``POST /api/me/top-up``), to the starting balance from the house.

The rules (threshold, period, guests' period) are the room's
(:class:`stud.server.storage.topups.TopUpRules`); the ledger is the truth, so a
shared room's processes agree, and two top-ups at once give one.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
import logging
import math
import time

from fastapi import APIRouter
from pydantic import BaseModel, Field

from stud.server.http.deps import ConfigDep, DatabaseDep, LoggedIn
from stud.server.http.errors import RestError, retry_after
from stud.server.observe.logs import at
from stud.server.observe.metrics import TOP_UPS
from stud.server.storage.topups import TopUpState, top_up, top_up_state

router = APIRouter(tags=["accounts"])
log = logging.getLogger("stud.server")


class TopUpOut(BaseModel):
    available: bool = Field(description="whether a top-up is possible now")
    held: int = Field(description="the account's chips: balance plus chips at tables")
    threshold: int = Field(description="below this, the account may top up")
    to: int = Field(description="what a top-up brings the account's chips to")
    amount: int = Field(description="what a top-up now would give (0: not low)")
    next_at: float | None = Field(
        description="when the next top-up is possible (Unix time), if not now; null: no wait"
    )


class TopUpDone(TopUpOut):
    given: int = Field(description="the chips this top-up gave")


def top_up_out(state: TopUpState, now: float) -> TopUpOut:
    return TopUpOut.model_validate(state.public(now))


@router.get("/api/me/top-up")
async def top_up_status(account: LoggedIn, db: DatabaseDep, config: ConfigDep) -> TopUpOut:
    """Whether the account may get free chips now, and if not, when."""
    state = await db.read(lambda c: top_up_state(c, account.id, account.kind, config.top_ups))
    return top_up_out(state, time.time())


@router.post("/api/me/top-up")
async def top_up_now(account: LoggedIn, db: DatabaseDep, config: ConfigDep) -> TopUpDone:
    """Free play chips up to the starting balance, for an account below the threshold, at
    most once per period: 409 ``free_chips_not_low``, 429 ``free_chips_too_soon`` (Retry-After)."""
    store = db.store
    result = await db.write(lambda c: top_up(store, c, account.id, account.kind, config.top_ups))
    now = time.time()
    state = result.state
    if result.refusal == "free_chips_not_low":
        raise RestError(
            "free_chips_not_low",
            f"you hold {state.held} chips, not below {state.threshold}: no top-up needed",
            {"held": state.held, "threshold": state.threshold},
        )
    if result.refusal == "free_chips_too_soon":
        wait = (state.next_at or now) - now
        raise RestError(
            "free_chips_too_soon",
            "one top-up per period: the next is possible later",
            {"next_at": math.ceil(state.next_at or now)},
            headers=retry_after(wait),
        )
    TOP_UPS.labels(account.kind).inc()
    log.info("account %s topped up with %d free chips", account.id, result.amount, extra=at())
    return TopUpDone.model_validate({"given": result.amount, **state.public(now)})
