"""Token buckets: a rate with a burst, and how long to wait when empty (for ``Retry-After``)."""

from __future__ import annotations

import time
from collections import OrderedDict


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; each request takes one."""

    __slots__ = ("burst", "rate", "tokens", "updated")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.tokens = self.burst
        self.updated = time.monotonic()

    def take(self, now: float | None = None) -> float:
        """0.0 if a token was taken, else the seconds until one will be there."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.updated) * self.rate >= self.burst


class BucketsByClient:
    """One bucket per client key; buckets that have filled up again are forgotten (memory stays bounded
    by the clients seen in the last ``burst / rate`` seconds, and never above ``max_clients``)."""

    def __init__(self, rate: float, burst: float, max_clients: int = 100_000) -> None:
        self.rate, self.burst, self.max_clients = rate, burst, max_clients
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, client: str) -> float:
        now = time.monotonic()
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = TokenBucket(self.rate, self.burst)
        self.buckets.move_to_end(client)
        wait = bucket.take(now)
        self._forget(now)
        return wait

    def _forget(self, now: float) -> None:
        # least recently used first: stop at the first one still in use
        while self.buckets:
            key, oldest = next(iter(self.buckets.items()))
            if len(self.buckets) <= self.max_clients and not oldest.full(now):
                break
            del self.buckets[key]
