"""Token buckets: per connection (a flood is slowed first, then disconnected), and per key.

:class:`KeyedBuckets` counts events (failed logins, new accounts) per name or
client address, remembering a bounded number of keys.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass


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
