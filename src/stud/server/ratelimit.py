"""A token bucket per connection: a flood is slowed first, then disconnected."""

from __future__ import annotations

from dataclasses import dataclass


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
