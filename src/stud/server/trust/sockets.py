"""A fair share of the room per client: how many websockets an account and an address may
hold open, and one message budget each that all their sockets draw on.

A budget per socket is no budget: one client opening a hundred sockets, each under its
own limit, sends a hundred times as much and slows every table. So a socket draws each
message from its account's budget (a guest's or a player's; a socket without a session
has none) and from its client address's budget (larger: several players may share an
address), and a socket beyond either cap is refused (``too_many_sockets``). Budgets
outlive their sockets (the most recently used are remembered), so closing and
reopening sockets does not refill them. Counted per process: a room of several
processes allows a client that many per process it reaches.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass

from stud.server.errors import Refusal
from stud.server.trust.ratelimit import TokenBucket


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """Sockets and messages per account and per address; the defaults suit a public room."""

    per_account: int = 8
    """Websockets one account may have open (tabs, tables, a reconnect overlapping)."""
    per_address: int = 32
    """Websockets one client address may have open (several players behind one address)."""
    account_rate: float = 20.0
    """Messages a second one account's sockets may send together, on average ..."""
    account_burst: float = 40.0
    """... in bursts of up to this many."""
    address_rate: float = 60.0
    """Messages a second all the sockets of one address may send together ..."""
    address_burst: float = 120.0
    """... in bursts of up to this many."""
    remembered: int = 100_000
    """Budgets kept at most (the least recently used are forgotten)."""


class Share:
    """What one socket draws on: its account's budget (if it has one) and its address's."""

    __slots__ = ("account_id", "address", "buckets")

    def __init__(self, account_id: int | None, address: str, buckets: list[TokenBucket]) -> None:
        self.account_id = account_id
        self.address = address
        self.buckets = buckets

    def take(self, now: float) -> float:
        """Spend one message from every budget; 0.0 if all allowed it, else the seconds until
        the emptiest has one again."""
        return max(bucket.take(now) for bucket in self.buckets)


class SocketShares:
    """The open sockets and message budgets of this process, per account and per address."""

    def __init__(self, limits: SocketLimits | None = None) -> None:
        self.limits = limits or SocketLimits()
        self.open_by_account: Counter[int] = Counter()
        self.open_by_address: Counter[str] = Counter()
        self._budgets: OrderedDict[tuple[str, object], TokenBucket] = OrderedDict()

    def _budget(self, key: tuple[str, object], rate: float, burst: float) -> TokenBucket:
        bucket = self._budgets.pop(key, None) or TokenBucket(rate, burst)
        self._budgets[key] = bucket
        while len(self._budgets) > self.limits.remembered:
            self._budgets.popitem(last=False)
        return bucket

    def join(self, account_id: int | None, address: str) -> Share:
        """A socket of ``account_id`` (None: no session) from ``address`` opens: its share, or
        Refusal ``too_many_sockets`` when the account or the address holds its cap."""
        limits = self.limits
        if self.open_by_address[address] >= limits.per_address:
            raise Refusal(
                "too_many_sockets",
                f"this address has {limits.per_address} connections open, the most it may",
                {"most": limits.per_address},
            )
        if account_id is not None and self.open_by_account[account_id] >= limits.per_account:
            raise Refusal(
                "too_many_sockets",
                f"this account has {limits.per_account} connections open, the most it may",
                {"most": limits.per_account},
            )
        buckets = [self._budget(("address", address), limits.address_rate, limits.address_burst)]
        if account_id is not None:
            self.open_by_account[account_id] += 1
            buckets.append(
                self._budget(("account", account_id), limits.account_rate, limits.account_burst)
            )
        self.open_by_address[address] += 1
        return Share(account_id, address, buckets)

    def leave(self, share: Share) -> None:
        """The socket of ``share`` closed."""
        self.open_by_address[share.address] -= 1
        if self.open_by_address[share.address] <= 0:
            del self.open_by_address[share.address]
        if share.account_id is not None:
            self.open_by_account[share.account_id] -= 1
            if self.open_by_account[share.account_id] <= 0:
                del self.open_by_account[share.account_id]
