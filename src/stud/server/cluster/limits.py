"""Login and signup throttles shared by every process of a room: token buckets in Redis.

A guesser behind a load balancer reaches every process; counted per process,
the room would allow as many failed logins per name as it has processes. Here
each bucket is one Redis hash (tokens, stamp) updated by a Lua script on
Redis's own clock, so the processes' clocks need not agree; it expires once
it would be full again, so Redis keeps only the keys that failed lately.
"""

from __future__ import annotations

from typing import Any, Protocol


class Keys(Protocol):
    """Where the buckets are kept: the Redis client and the room's key prefix, read at each
    use (it is known once the database is open, after the throttles are made)."""

    @property
    def redis(self) -> Any: ...

    @property
    def prefix(self) -> str: ...


# KEYS[1]: the bucket. ARGV: burst, refill rate per second, 1 to spend one (else only look).
# Returns the seconds to wait (as text: Lua numbers come back as integers otherwise).
BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1]) or burst
local stamp = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
if ARGV[3] == '1' then
  if tokens >= 1 then tokens = tokens - 1 end
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
  return '0'
end
if tokens >= 1 then return '0' end
return tostring((1 - tokens) / rate)
"""


class SharedBuckets:
    """One name's buckets (``login-name``, ``signups``…) for the whole room."""

    def __init__(self, keys: Keys, name: str, burst: float, refill_seconds: float) -> None:
        self.keys = keys
        self.name = name
        self.burst = burst
        self.rate = 1.0 / refill_seconds
        self._script = keys.redis.register_script(BUCKET)

    def _key(self, key: str) -> str:
        return f"{self.keys.prefix}limit:{self.name}:{key}"

    async def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may have another event (Redis's clock; ``now`` is ignored)."""
        result = await self._script(keys=[self._key(key)], args=[self.burst, self.rate, 0])
        return float(result)

    async def spend(self, key: str, now: float | None = None) -> None:
        await self._script(keys=[self._key(key)], args=[self.burst, self.rate, 1])
