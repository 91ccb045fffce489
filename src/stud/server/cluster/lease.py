"""Table leases in Redis: which process runs each table, for how long, with which token.

A lease is one key, ``<room>lease:<table>``, set only if absent (``SET NX PX``)
to ``<node>:<token>``, where the token comes from ``INCR <room>fence:<table>``
and so only grows. The owner renews its leases every :attr:`LeaseTimes.renew`
seconds; a process that dies stops renewing and its leases lapse after
:attr:`LeaseTimes.ttl`, when any other process may take the table.

A renewal only counts if the key still holds the owner's value (a Lua script
checks and extends in one step). Locally an owner trusts a lease only until
the moment the last successful renewal was *sent* plus the TTL less a margin:
if the process was paused past it (SIGSTOP, a long pause, a network partition),
it stops running the table before it even hears back from Redis. Its durable
writes are fenced by the token in PostgreSQL as well (:mod:`stud.server.storage.fences`).

If Redis restarts empty, an owner's renewal sets again each lease it still
trusts (its TTL cannot have run out, so Redis lost it), with the token counter
raised to its token; the others hold their claims meanwhile (:mod:`.epoch`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

EVENT_EPOCH = 10**9
"""A table's events are numbered from ``token * EVENT_EPOCH``: a new owner's numbers are
above any its predecessor sent, so a client's ``since`` never hides a new event."""
LEASE_KEY = "{}lease:{}"
FENCE_KEY = "{}fence:{}"

# Take a free lease: the next token (above a floor the caller learned from PostgreSQL).
ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local token = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[2], token)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token
"""

# Extend each lease still held with its value; 1 for each renewed, 0 for each lost. A lease
# whose key is gone while its owner still trusts it (ARGV[1 + 2i] = '1': its TTL cannot have
# run out) was lost by Redis (restarted empty): it is set again, and its token counter raised
# to it, so the next owner's token is above it. KEYS: lease, fence, lease, fence, ...
RENEW = """
local out = {}
for i = 1, #KEYS / 2 do
  local key, value = KEYS[2 * i - 1], ARGV[2 * i]
  local now = redis.call('GET', key)
  if now == value then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  elseif not now and ARGV[2 * i + 1] == '1' then
    redis.call('SET', key, value, 'PX', ARGV[1])
    local token = tonumber(string.match(value, ':(%d+)$'))
    if tonumber(redis.call('GET', KEYS[2 * i]) or '0') < token then
      redis.call('SET', KEYS[2 * i], token)
    end
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# Give a lease up (a clean stop): only if it is still ours.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True, slots=True)
class LeaseTimes:
    """How long a lease lasts, how often it is renewed, how often free tables are looked for."""

    ttl: float = 4.0
    renew: float = 1.0
    scan: float = 0.5
    margin: float = 0.25
    """Seconds before the lease's end (as sent) when the owner stops trusting it."""


def parse_owner(value: bytes | str | None) -> tuple[str, int] | None:
    """``(node, token)`` from a lease key's value."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    node, _, token = text.rpartition(":")
    return (node, int(token)) if node and token.isdigit() else None


@dataclass(slots=True)
class LeaseBook:
    """The leases this process holds: token, and until when (monotonic) it trusts each."""

    node: str
    times: LeaseTimes
    tokens: dict[int, int] = field(default_factory=dict)
    valid_until: dict[int, float] = field(default_factory=dict)

    def value(self, table_id: int) -> str:
        return f"{self.node}:{self.tokens[table_id]}"

    def holds(self, table_id: int, now: float | None = None) -> bool:
        """Whether this process may still run ``table_id`` (its lease surely has not lapsed)."""
        until = self.valid_until.get(table_id)
        return until is not None and (time.monotonic() if now is None else now) < until

    def took(self, table_id: int, token: int, sent_at: float) -> None:
        self.tokens[table_id] = token
        self.renewed([table_id], sent_at)

    def renewed(self, tables: Iterable[int], sent_at: float) -> None:
        until = sent_at + self.times.ttl - self.times.margin
        for table_id in tables:
            self.valid_until[table_id] = until

    def drop(self, table_id: int) -> None:
        self.tokens.pop(table_id, None)
        self.valid_until.pop(table_id, None)


class Leases:
    """The Redis side: take, renew and give up leases (``redis`` is a redis.asyncio client)."""

    def __init__(self, redis: Any, book: LeaseBook, prefix: str) -> None:
        self.redis = redis
        self.book = book
        self.prefix = prefix
        self._acquire = redis.register_script(ACQUIRE)
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    async def acquire(self, table_id: int, floor: int = 0) -> int | None:
        """A new token for ``table_id`` if its lease was free (the book records it), else None."""
        sent = time.monotonic()
        keys = [LEASE_KEY.format(self.prefix, table_id), FENCE_KEY.format(self.prefix, table_id)]
        ttl_ms = int(self.book.times.ttl * 1000)
        token = int(await self._acquire(keys=keys, args=[self.book.node, ttl_ms, floor]))
        if token == 0:
            return None
        self.book.took(table_id, token, sent)
        return token

    async def renew(self) -> list[int]:
        """Renew every lease held (one Redis lost is set again while still trusted here); the
        tables whose lease was lost (dropped from the book)."""
        tables = list(self.book.tokens)
        if not tables:
            return []
        sent = time.monotonic()
        keys: list[str] = []
        args: list[str | int] = [int(self.book.times.ttl * 1000)]
        for table_id in tables:
            prefix = self.prefix
            keys += [LEASE_KEY.format(prefix, table_id), FENCE_KEY.format(prefix, table_id)]
            args += [self.book.value(table_id), "1" if self.book.holds(table_id, sent) else "0"]
        result = await self._renew(keys=keys, args=args)
        kept = [t for t, ok in zip(tables, result, strict=True) if int(ok) == 1]
        lost = [t for t, ok in zip(tables, result, strict=True) if int(ok) != 1]
        self.book.renewed(kept, sent)
        for table_id in lost:
            self.book.drop(table_id)
        return lost

    async def release(self, table_id: int) -> None:
        if table_id in self.book.tokens:
            value = self.book.value(table_id)
            self.book.drop(table_id)
            await self.release_value(table_id, value)

    async def release_value(self, table_id: int, value: str) -> None:
        """Give the lease up if it still holds ``value`` (dropped from the book already)."""
        await self._release(keys=[LEASE_KEY.format(self.prefix, table_id)], args=[value])

    async def owners(self, tables: list[int]) -> dict[int, tuple[str, int] | None]:
        """Who holds each table's lease now (None: nobody)."""
        if not tables:
            return {}
        values = await self.redis.mget([LEASE_KEY.format(self.prefix, t) for t in tables])
        return {t: parse_owner(v) for t, v in zip(tables, values, strict=True)}
