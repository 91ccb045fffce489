"""Token buckets: per connection (a flood is slowed first, then disconnected), and per key.

:class:`KeyedBuckets` counts events (failed logins, new accounts) per name or
client address, remembering a bounded number of keys. The login and signup
throttles reach them through :class:`Buckets`: this process's own
(:class:`LocalBuckets`), or one count for every process of a shared room
(stud.server.cluster.limits, in Redis).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Throttled(Exception):
    """Too many of something for now: the caller may try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


@dataclass(slots=True)
class TokenBucket:
    """``rate`` messages a second on average, bursts up to ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0
    strikes: int = 0

    def take(self, now: float) -> float:
        """Spend one token; return 0.0 if allowed, else the seconds until one is due."""
        if self.tokens < 0 and self.stamp == 0.0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        self.strikes += 1
        return (1.0 - self.tokens) / self.rate


class KeyedBuckets:
    """A bucket per key: ``burst`` events at once, one more every ``refill_seconds``.

    Only the ``limit`` most recently used keys are remembered, so a flood of new
    keys costs bounded memory (a forgotten key starts with a full bucket).
    """

    def __init__(self, burst: float, refill_seconds: float, limit: int = 100_000) -> None:
        self.burst = burst
        self.rate = 1.0 / refill_seconds
        self.limit = limit
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may have another event (0.0: now)."""
        bucket = self.buckets.get(key)
        if bucket is None:
            return 0.0
        tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def spend(self, key: str, now: float) -> None:
        """Count one event against ``key``."""
        bucket = self.buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        bucket.take(now)
        self.buckets[key] = bucket
        while len(self.buckets) > self.limit:
            self.buckets.popitem(last=False)


class Buckets(Protocol):
    """Events counted per key, by this process alone or by every process of a room."""

    async def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may have another event (0.0: now)."""
        ...

    async def spend(self, key: str, now: float | None = None) -> None:
        """Count one event against ``key``."""
        ...


BucketsFactory = Callable[[str, float, float, int], Buckets]
"""Makes the :class:`Buckets` named so, with a burst, refill seconds and a key limit."""


class LocalBuckets:
    """:class:`KeyedBuckets` of this process, on its monotonic clock (or the ``now`` given)."""

    def __init__(self, burst: float, refill_seconds: float, limit: int = 100_000) -> None:
        self.buckets = KeyedBuckets(burst, refill_seconds, limit)

    async def wait(self, key: str, now: float | None = None) -> float:
        return self.buckets.wait(key, time.monotonic() if now is None else now)

    async def spend(self, key: str, now: float | None = None) -> None:
        self.buckets.spend(key, time.monotonic() if now is None else now)


def local_buckets(_name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
    """The factory of a room of one process."""
    return LocalBuckets(burst, refill_seconds, limit)
