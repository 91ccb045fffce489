"""Passwords without stalling the tables, and a brake on guessing them.

Argon2 is slow on purpose (tens of milliseconds of CPU and 64 MiB a hash): run
on the event loop, a few clients looping on ``POST /api/login`` stall every
table's clock. So hashing runs on a small pool of its own threads (argon2
releases the GIL) at the lowest CPU priority, at most
:attr:`LoginConfig.hash_workers` at once, and when too many wait the caller
is told to come back (:class:`Busy`) rather than queued without end.

Failed logins are counted in token buckets (:mod:`stud.server.trust.ratelimit`; in a
room of several processes one count in Redis for all of them, so a guesser gains
nothing by spreading its tries over the processes behind a load balancer), so that
wrong passwords slow a guesser but never lock the owner out:

- per name *from one client address* (5, then one every 20 s) and per address over
  all names (20, then one every 3 s): a client that guesses is braked, and only it;
- per name over all addresses, a softer step (50, then one a minute): when it is spent,
  only a *clean* client may still try that name: one that has not failed at it for
  an hour. The owner, at an address with no failures, logs in at once however
  many addresses hammer the name; each attacking address gets one more guess an
  hour. So a name yields about ``50 + 60 + A`` guesses the first hour to ``A``
  addresses, ``60 + A`` an hour after (tests/test_trust_lockout.py measures it).

An empty bucket answers :class:`Throttled` with the seconds to wait (HTTP 429
with ``Retry-After``) before any hash is computed. A name that does not exist
costs a verification against a dummy hash, the same time as a wrong password,
so timing tells no one which names exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from stud.server.storage import hash_password, verify_password
from stud.server.trust.ratelimit import BucketsFactory, Throttled, local_buckets

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LoginConfig:
    """How hard password guessing is braked; the room's defaults suit a public server."""

    hash_workers: int = 1
    """Hashes computed at once (each takes a core for its duration)."""
    hash_queue: int = 32
    """Hashes allowed to wait for a worker; beyond, the caller gets Busy."""
    failures_per_name: float = 5
    """Failed logins at one name from one client address in a burst ..."""
    name_refill_seconds: float = 20.0
    """... and one more every this many seconds."""
    failures_per_address: float = 20
    """Failed logins one client address may have (over all names) in a burst ..."""
    address_refill_seconds: float = 3.0
    """... and one more every this many seconds."""
    failures_name_wide: float = 50
    """Failed logins at one name from all addresses in a burst ...; when spent, only a
    client that has not failed at the name for :attr:`clean_seconds` may try it ..."""
    name_wide_refill_seconds: float = 60.0
    """... and one more every this many seconds."""
    clean_seconds: float = 3600.0
    """How long a failure at a name marks the client for that name."""
    tracked: int = 100_000
    """Names and addresses remembered at most (the least recently failed are forgotten)."""


class Busy(Exception):
    """Too many passwords waiting to be hashed: the server asks the caller to come back."""

    retry_after = 1


def _yield_to_the_tables() -> None:
    """Run this hashing thread (and the lane threads Argon2 starts from it) at the lowest
    CPU priority: on a busy machine the event loop that runs the tables goes first."""
    with contextlib.suppress(AttributeError, OSError):  # Linux: a thread's own nice value
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


class PasswordGuard:
    """Hashes and checks passwords off the event loop, and throttles failed logins."""

    def __init__(
        self, config: LoginConfig | None = None, buckets: BucketsFactory = local_buckets
    ) -> None:
        self.config = config or LoginConfig()
        c = self.config
        self._pool = ThreadPoolExecutor(
            c.hash_workers, thread_name_prefix="stud-argon2", initializer=_yield_to_the_tables
        )
        self._slots = asyncio.Semaphore(c.hash_workers + c.hash_queue)
        self._names = buckets("login-name", c.failures_per_name, c.name_refill_seconds, c.tracked)
        self._addresses = buckets(
            "login-address", c.failures_per_address, c.address_refill_seconds, c.tracked
        )
        self._name_wide = buckets(
            "login-name-wide", c.failures_name_wide, c.name_wide_refill_seconds, c.tracked
        )
        self._marked = buckets("login-marked", 1, c.clean_seconds, c.tracked)
        """A client failed at a name within ``clean_seconds``: its pass is spent."""
        self._dummy: str | None = None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._slots.locked():
            raise Busy("the server is busy checking passwords: try again in a moment")
        async with self._slots:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def hash(self, password: str) -> str:
        """An Argon2id hash of ``password``, computed off the event loop."""
        return await self._run(hash_password, password)

    async def verify(self, encoded: str | None, password: str) -> bool:
        """Whether ``password`` matches ``encoded``; with no hash (no such name) always False,
        after the same work as a wrong password."""
        if encoded is None:
            if self._dummy is None:
                self._dummy = await self.hash("no account has this password")
            await self._run(verify_password, self._dummy, password)
            return False
        return await self._run(verify_password, encoded, password)

    async def admit(self, name_key: str, address: str, now: float | None = None) -> None:
        """Throttled if this client failed too often lately, at this name or at all, or if
        the name failed too often from everywhere and this client is not clean for it;
        checked before hashing."""
        pair = client_at_name(name_key, address)
        checks = ((self._addresses, address, "address"), (self._names, pair, "name"))
        for buckets, key, what in checks:
            wait = await buckets.wait(key, now)
            if wait > 0:
                raise Throttled(wait, f"too many failed logins for this {what}: try again later")
        wide = await self._name_wide.wait(name_key, now)
        if wide > 0 and await self._marked.wait(pair, now) > 0:
            raise Throttled(wide, "too many failed logins for this name: try again later")

    async def failed(self, name_key: str, address: str, now: float | None = None) -> None:
        """Count one failed login against the client at the name, the address and the name."""
        pair = client_at_name(name_key, address)
        await self._names.spend(pair, now)
        await self._addresses.spend(address, now)
        await self._name_wide.spend(name_key, now)
        await self._marked.spend(pair, now)


def client_at_name(name_key: str, address: str) -> str:
    """The key of one client address trying one name (unambiguous: the address's length first)."""
    return f"{len(address)}:{address}{name_key}"
