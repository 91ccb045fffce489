"""The operator's desk in storage: roles, bans and mutes, grants, the audit log, players'
reports and the queue through which ``stud admin`` reaches a running room.

Every action of the desk writes one :func:`record` row in the same transaction as what it
changes (who, what, to whom, why, when); a grant moves chips through the ledger from or to
the house, so the ledger still sums to zero.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update

from stud.server.errors import Refusal
from stud.server.storage import schema as s
from stud.server.storage.ledger import Entry, Ledger, LedgerError
from stud.server.trust.names import check_text, name_key

ROLES: Final = ("player", "moderator", "admin")
"""An account's roles, each allowed what the one before it is and more (docs/admin.md)."""
STAFF: Final = frozenset({"moderator", "admin"})
GRANT_LIMIT: Final = 10**12
"""The largest amount one grant moves (either way)."""


def until_words(until: float | None) -> str:
    """When a ban or mute ends, as a refusal's ``until`` says it: a UTC time, or ``forever``."""
    if until is None:
        return "forever"
    return datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True, slots=True)
class Member:
    """An account as the desk sees it."""

    id: int
    name: str
    kind: str
    role: str
    banned_reason: str | None
    banned_until: float | None
    muted_until: float | None

    def banned(self, now: float) -> bool:
        return self.banned_reason is not None and (
            self.banned_until is None or self.banned_until > now
        )

    def muted(self, now: float) -> bool:
        return self.muted_until is not None and self.muted_until > now

    def public(self, now: float) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "role": self.role,
            "banned": self.banned(now),
            "banned_reason": self.banned_reason if self.banned(now) else None,
            "banned_until": self.banned_until if self.banned(now) else None,
            "muted_until": self.muted_until if self.muted(now) else None,
        }


_MEMBER_COLUMNS = (
    s.accounts.c.id,
    s.accounts.c.name,
    s.accounts.c.kind,
    s.accounts.c.role,
    s.accounts.c.banned_reason,
    s.accounts.c.banned_until,
    s.accounts.c.muted_until,
)


def _member(row: Any) -> Member:
    return Member(
        id=int(row.id),
        name=str(row.name),
        kind=str(row.kind),
        role=str(row.role or "player"),
        banned_reason=row.banned_reason,
        banned_until=None if row.banned_until is None else float(row.banned_until),
        muted_until=None if row.muted_until is None else float(row.muted_until),
    )


def member(conn: Connection, account_id: int) -> Member | None:
    row = conn.execute(select(*_MEMBER_COLUMNS).where(s.accounts.c.id == account_id)).first()
    return None if row is None else _member(row)


def member_by_name(conn: Connection, name: str) -> Member | None:
    """The account of that name (its key: case, width and look-alikes aside), exact first."""
    row = conn.execute(
        select(*_MEMBER_COLUMNS)
        .where(s.accounts.c.name_key == name_key(name))
        .order_by((s.accounts.c.name == name).desc(), s.accounts.c.id)
    ).first()
    return None if row is None else _member(row)


def search(conn: Connection, text: str, limit: int = 50) -> list[dict[str, Any]]:
    """People's accounts whose name holds ``text`` (or its key), with balance and chips at
    tables; the newest first."""
    pattern = f"%{text.strip().lower()}%"
    key = f"%{name_key(text)}%" if text.strip() else "%"
    rows = conn.execute(
        select(*_MEMBER_COLUMNS)
        .where(
            and_(
                s.accounts.c.kind.in_(("user", "guest")),
                or_(func.lower(s.accounts.c.name).like(pattern), s.accounts.c.name_key.like(key)),
            )
        )
        .order_by(s.accounts.c.id.desc())
        .limit(limit)
    ).all()
    members = [_member(r) for r in rows]
    if not members:
        return []
    sums = conn.execute(
        select(s.ledger.c.account_id, s.ledger.c.wallet, func.sum(s.ledger.c.amount))
        .where(s.ledger.c.account_id.in_([m.id for m in members]))
        .group_by(s.ledger.c.account_id, s.ledger.c.wallet)
    ).all()
    wallets: dict[tuple[int, str], int] = {(int(a), str(w)): int(v) for a, w, v in sums}
    now = time.time()
    return [
        {
            **m.public(now),
            "balance": wallets.get((m.id, "cash"), 0),
            "at_tables": wallets.get((m.id, "table"), 0),
        }
        for m in members
    ]


def set_role(conn: Connection, account_id: int, role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
    conn.execute(update(s.accounts).where(s.accounts.c.id == account_id).values(role=role))


def ban(conn: Connection, account_id: int, reason: str, until: float | None) -> None:
    """Ban the account (``until`` None: for good) and end every session it has."""
    conn.execute(
        update(s.accounts)
        .where(s.accounts.c.id == account_id)
        .values(banned_reason=reason, banned_until=until)
    )
    conn.execute(delete(s.sessions).where(s.sessions.c.account_id == account_id))


def unban(conn: Connection, account_id: int) -> None:
    conn.execute(
        update(s.accounts)
        .where(s.accounts.c.id == account_id)
        .values(banned_reason=None, banned_until=None)
    )


def mute(conn: Connection, account_id: int, until: float | None) -> None:
    """No chat from the account until ``until`` (None: it may chat again)."""
    conn.execute(update(s.accounts).where(s.accounts.c.id == account_id).values(muted_until=until))


def restrictions(conn: Connection, now: float) -> tuple[dict[int, float | None], dict[int, float]]:
    """The accounts banned now (id: until, None for good) and muted now (id: until)."""
    banned = {
        int(r.id): None if r.banned_until is None else float(r.banned_until)
        for r in conn.execute(
            select(s.accounts.c.id, s.accounts.c.banned_until).where(
                and_(
                    s.accounts.c.banned_reason.is_not(None),
                    or_(s.accounts.c.banned_until.is_(None), s.accounts.c.banned_until > now),
                )
            )
        )
    }
    muted = {
        int(r.id): float(r.muted_until)
        for r in conn.execute(
            select(s.accounts.c.id, s.accounts.c.muted_until).where(s.accounts.c.muted_until > now)
        )
    }
    return banned, muted


def grant(store: Ledger, conn: Connection, account_id: int, amount: int) -> int:
    """Chips from the house to the account's balance (negative: back to the house, never
    below zero: LedgerError). Returns the new balance."""
    if amount == 0 or abs(amount) > GRANT_LIMIT:
        raise LedgerError(f"a grant is a non-zero amount of at most {GRANT_LIMIT} either way")
    store.lock_account(conn, account_id)
    balance = store.balance(conn, account_id)
    if balance + amount < 0:
        raise LedgerError(f"the balance is {balance}: a deduction of {-amount} would go below zero")
    house = store.house(conn)
    store.post(
        conn, "admin_grant", [Entry(house, "cash", -amount), Entry(account_id, "cash", amount)]
    )
    return balance + amount


def ledger_lines(conn: Connection, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The account's latest ledger entries, newest first."""
    rows = conn.execute(
        select(s.ledger)
        .where(s.ledger.c.account_id == account_id)
        .order_by(s.ledger.c.id.desc())
        .limit(limit)
    ).all()
    return [
        {
            "id": int(r.id),
            "at": float(r.at),
            "kind": str(r.kind),
            "wallet": str(r.wallet),
            "amount": int(r.amount),
            "table_id": r.table_id,
            "hand_id": r.hand_id,
            "tournament_id": r.tournament_id,
        }
        for r in rows
    ]


# -- the audit log ---------------------------------------------------------------------------


def record(
    conn: Connection,
    *,
    actor_id: int | None,
    actor: str,
    action: str,
    target: str,
    reason: str,
    detail: dict[str, Any] | None = None,
) -> int:
    """One row of the audit log: who did what to whom, why, and now."""
    result = conn.execute(
        insert(s.audit)
        .values(
            at=time.time(),
            actor_id=actor_id,
            actor=actor,
            action=action,
            target=target,
            reason=reason,
            detail=None if detail is None else json.dumps(detail),
        )
        .returning(s.audit.c.id)
    )
    return int(result.scalar_one())


def audit_log(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    rows = conn.execute(select(s.audit).order_by(s.audit.c.id.desc()).limit(limit)).all()
    return [
        {
            "id": int(r.id),
            "at": float(r.at),
            "actor": str(r.actor),
            "action": str(r.action),
            "target": str(r.target),
            "reason": str(r.reason),
            "detail": None if r.detail is None else json.loads(r.detail),
        }
        for r in rows
    ]


# -- players' reports ------------------------------------------------------------------------


def add_report(
    conn: Connection,
    *,
    reporter_id: int,
    account_id: int,
    table_key: str,
    line: str | None,
    reason: str,
    context: list[dict[str, Any]],
) -> int:
    result = conn.execute(
        insert(s.reports)
        .values(
            at=time.time(),
            reporter_id=reporter_id,
            account_id=account_id,
            table_key=table_key,
            line=line,
            reason=reason,
            context=json.dumps(context),
        )
        .returning(s.reports.c.id)
    )
    return int(result.scalar_one())


def open_reports(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    """Reports not yet dealt with, oldest first, with both accounts' names."""
    reporter = s.accounts.alias("reporter")
    reported = s.accounts.alias("reported")
    rows = conn.execute(
        select(s.reports, reporter.c.name.label("reporter"), reported.c.name.label("reported"))
        .join(reporter, reporter.c.id == s.reports.c.reporter_id)
        .join(reported, reported.c.id == s.reports.c.account_id)
        .where(s.reports.c.resolved_at.is_(None))
        .order_by(s.reports.c.id)
        .limit(limit)
    ).all()
    return [
        {
            "id": int(r.id),
            "at": float(r.at),
            "reporter": str(r.reporter),
            "account_id": int(r.account_id),
            "account": str(r.reported),
            "table": str(r.table_key),
            "line": r.line,
            "reason": str(r.reason),
            "context": json.loads(r.context),
        }
        for r in rows
    ]


def resolve_report(conn: Connection, report_id: int) -> bool:
    """Mark a report dealt with; False if there is no such open report."""
    done = conn.execute(
        update(s.reports)
        .where(and_(s.reports.c.id == report_id, s.reports.c.resolved_at.is_(None)))
        .values(resolved_at=time.time())
        .returning(s.reports.c.id)
    ).first()
    return done is not None


# -- the queue from the console to a running room --------------------------------------------


def enqueue(conn: Connection, action: str, target: int, audit_id: int | None) -> int:
    result = conn.execute(
        insert(s.admin_queue)
        .values(at=time.time(), action=action, target=target, audit_id=audit_id)
        .returning(s.admin_queue.c.id)
    )
    return int(result.scalar_one())


def pending(conn: Connection) -> list[tuple[int, str, int]]:
    """Queued requests not yet done: (id, action, target), oldest first."""
    rows = conn.execute(
        select(s.admin_queue.c.id, s.admin_queue.c.action, s.admin_queue.c.target)
        .where(s.admin_queue.c.done_at.is_(None))
        .order_by(s.admin_queue.c.id)
    ).all()
    return [(int(r.id), str(r.action), int(r.target)) for r in rows]


def claim(conn: Connection, request_id: int) -> bool:
    """Take a queued request (one process of a shared room does it): False if taken."""
    taken = conn.execute(
        update(s.admin_queue)
        .where(and_(s.admin_queue.c.id == request_id, s.admin_queue.c.done_at.is_(None)))
        .values(done_at=time.time(), result=json.dumps({"running": True}))
        .returning(s.admin_queue.c.id)
    ).first()
    return taken is not None


def done(conn: Connection, request_id: int, result: dict[str, Any]) -> None:
    conn.execute(
        update(s.admin_queue)
        .where(s.admin_queue.c.id == request_id)
        .values(done_at=time.time(), result=json.dumps(result))
    )


def request_result(conn: Connection, request_id: int) -> dict[str, Any] | None:
    """What the room did with a queued request (None: not taken yet)."""
    row = conn.execute(
        select(s.admin_queue.c.done_at, s.admin_queue.c.result).where(
            s.admin_queue.c.id == request_id
        )
    ).first()
    if row is None or row.done_at is None:
        return None
    result: dict[str, Any] = json.loads(row.result or "{}")
    return result


# -- the desk's actions: each change with its audit row, in one transaction ------------------


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: an account on the admin page, or the console (``id`` None)."""

    id: int | None
    name: str


def _target(conn: Connection, name: str) -> Member:
    found = member_by_name(conn, name)
    if found is None or found.kind not in ("user", "guest"):
        raise Refusal("no_account", f"no account named {name!r}")
    return found


def _reason(reason: str) -> str:
    text = check_text(reason, "the reason").strip()
    if not text:
        raise Refusal("no_reason", "say why: a reason is written in the audit log")
    return text[:500]


def change_role(conn: Connection, who: Actor, name: str, role: str, reason: str) -> dict[str, Any]:
    if role not in ROLES:
        raise Refusal("bad_role", f"a role is one of {', '.join(ROLES)}, not {role!r}")
    target = _target(conn, name)
    why = _reason(reason)
    set_role(conn, target.id, role)
    record(conn, actor_id=who.id, actor=who.name, action="role", target=target.name,
           reason=why, detail={"role": role, "was": target.role})  # fmt: skip
    return {"account": target.name, "role": role}


def grant_chips(
    store: Ledger, conn: Connection, who: Actor, name: str, amount: int, reason: str
) -> dict[str, Any]:
    """Chips from the house (negative: back to it, never below zero), audited."""
    target = _target(conn, name)
    why = _reason(reason)
    if amount == 0 or abs(amount) > GRANT_LIMIT:
        raise Refusal("bad_grant", f"a grant is a non-zero amount of at most {GRANT_LIMIT}")
    try:
        balance = grant(store, conn, target.id, amount)
    except LedgerError as error:
        current = store.balance(conn, target.id)
        raise Refusal("below_zero", str(error), {"balance": current}) from None
    record(conn, actor_id=who.id, actor=who.name, action="grant", target=target.name,
           reason=why, detail={"amount": amount, "balance": balance})  # fmt: skip
    return {"account": target.name, "amount": amount, "balance": balance}


def ban_account(
    conn: Connection, who: Actor, name: str, reason: str, until: float | None
) -> dict[str, Any]:
    """Ban (``until`` None: for good); its sessions end. The room vacates its seats."""
    target = _target(conn, name)
    why = _reason(reason)
    if until is not None and until <= time.time():
        raise Refusal("bad_until", "a ban ends in the future (or never)")
    ban(conn, target.id, why, until)
    record(conn, actor_id=who.id, actor=who.name, action="ban", target=target.name,
           reason=why, detail={"until": until})  # fmt: skip
    return {"account": target.name, "account_id": target.id, "until": until}


def unban_account(conn: Connection, who: Actor, name: str, reason: str) -> dict[str, Any]:
    target = _target(conn, name)
    why = _reason(reason)
    unban(conn, target.id)
    record(conn, actor_id=who.id, actor=who.name, action="unban", target=target.name, reason=why)
    return {"account": target.name}


def mute_account(
    conn: Connection, who: Actor, name: str, minutes: float, reason: str
) -> dict[str, Any]:
    """No chat for ``minutes`` (0: the mute is lifted)."""
    target = _target(conn, name)
    why = _reason(reason)
    if not 0 <= minutes <= 60 * 24 * 365:
        raise Refusal("bad_until", "a mute lasts 0 (lifted) to 525,600 minutes")
    until = time.time() + minutes * 60 if minutes else None
    mute(conn, target.id, until)
    action = "mute" if until else "unmute"
    record(conn, actor_id=who.id, actor=who.name, action=action, target=target.name,
           reason=why, detail={"until": until})  # fmt: skip
    return {"account": target.name, "account_id": target.id, "until": until}


def audit_live(
    conn: Connection, who: Actor, action: str, target: int, reason: str, outcome: dict[str, Any]
) -> int:
    """The audit row of an action the room carried out (close a table, call a tournament off)."""
    return record(conn, actor_id=who.id, actor=who.name, action=action, target=str(target),
                  reason=_reason(reason), detail=outcome)  # fmt: skip


def queue_live(conn: Connection, who: Actor, action: str, target: int, reason: str) -> int:
    """The console's request to the running room (polled: stud.server.room.moderation), with
    its audit row; returns the request's id."""
    audit_id = record(conn, actor_id=who.id, actor=who.name, action=action, target=str(target),
                      reason=_reason(reason), detail={"queued": True})  # fmt: skip
    return enqueue(conn, action, target, audit_id)
