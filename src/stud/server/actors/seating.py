"""Chips and seats around a table's actor: top-ups, automatic rebuys, the waiting list.

Each takes the chips from the account's balance in the ledger first, then gives
them to the table, as sitting down does, so the ledger's total never moves and
a refused request (too many chips, a short balance) changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from stud.server.actors.channel import Watcher
from stud.server.actors.host import Services
from stud.server.actors.waitlist import WaitingList
from stud.server.storage import LedgerError
from stud.table import Out, Table, TableError


class TableActor(Protocol):
    """What these steps use of a table's actor (:class:`stud.server.actors.table.TableActor`)."""

    @property
    def room(self) -> Services: ...

    @property
    def id(self) -> int: ...

    @property
    def table(self) -> Table: ...

    @property
    def waiting(self) -> WaitingList: ...

    @property
    def gone(self) -> dict[int, float]: ...

    @property
    def watchers(self) -> Mapping[Watcher, Any]: ...

    async def apply(self, outs: list[Out]) -> None: ...

    async def sit(self, account: int, args: dict[str, Any], now: float) -> None: ...

    def send_states(self) -> None: ...

    def notify(self, account: int, error: TableError) -> None: ...


async def take_from_balance(actor: TableActor, account: int, amount: int) -> None:
    """Move ``amount`` from the balance to the table (insufficient_balance if short)."""
    store = actor.room.db.store
    try:
        await actor.room.db.write(lambda c: store.buy_in(c, account, actor.id, amount))
    except LedgerError as error:
        raise TableError("insufficient_balance", str(error)) from None


async def top_up(actor: TableActor, account: int, amount: int, now: float) -> None:
    """Add chips to a seated player's stack (after the hand when they are in one)."""
    actor.table.check_top_up(account, amount)
    await take_from_balance(actor, account, amount)
    await actor.apply(actor.table.top_up(account, amount, now))


async def auto_rebuys(actor: TableActor, now: float) -> None:
    """Between hands: top up each player whose automatic rebuy is due, as far as the balance goes.

    A player whose balance cannot pay for any of it has the rebuy turned off,
    and leaves the table if the stack is gone.
    """
    table = actor.table
    for account, wanted in table.rebuy_wanted():
        amount = min(wanted, await balance(actor, account))
        if amount > 0:
            await take_from_balance(actor, account, amount)
            await actor.apply(table.top_up(account, amount, now, rebuy=True))
            continue
        table.set_auto_rebuy(account, False)
        if _stack(actor, account) <= 0:
            await actor.apply(table.leave(account, now))
        else:
            actor.send_states()


async def balance(actor: TableActor, account: int) -> int:
    store = actor.room.db.store
    return int(await actor.room.db.read(lambda c: store.balance(c, account)))


def _stack(actor: TableActor, account: int) -> int:
    seat = actor.table.seat_of(account)
    player = None if seat is None else actor.table.seats[seat]
    return 0 if player is None else player.stack


async def join_waiting_list(actor: TableActor, account: int, buy_in: int) -> int:
    """Put ``account`` on the list for a seat at this full table; its place (from 1)."""
    table = actor.table
    if table.seat_of(account) is not None:
        raise TableError("already_seated", "you are already seated at this table")
    if any(p is None for p in table.seats) and not actor.waiting:
        raise TableError("seat_free", "a seat is free at this table: sit down instead")
    low, high = table.settings.min_buy_in, table.settings.max_buy_in
    if buy_in <= 0 or (low and buy_in < low) or (high and buy_in > high):
        raise TableError("bad_buy_in", f"the buy-in must be between {low} and {high}")
    if await balance(actor, account) < buy_in:
        raise TableError("insufficient_balance", "the balance is too small for that buy-in")
    name = await actor.room.account_name(account)
    place = actor.waiting.join(account, name, buy_in)
    table.waiting = len(actor.waiting)
    actor.send_states()
    return place


def leave_waiting_list(actor: TableActor, account: int) -> None:
    if actor.waiting.drop(account):
        actor.table.waiting = len(actor.waiting)
        actor.send_states()


async def seat_waiters(actor: TableActor, now: float) -> None:
    """Give each free seat to the first person waiting (dropped if they can no longer pay)."""
    table = actor.table
    while actor.waiting and any(p is None for p in table.seats):
        first = actor.waiting.first()
        assert first is not None
        account, buy_in = first
        actor.waiting.drop(account)
        table.waiting = len(actor.waiting)
        try:
            await actor.sit(account, {"buy_in": buy_in}, now)
        except TableError as error:
            actor.notify(account, error)
            actor.send_states()
            continue
        if not any(w.account_id == account for w in actor.watchers):
            # Seated while away: the seat is kept for the grace period, as after a disconnect.
            actor.gone[account] = now + actor.room.config.grace_seconds
