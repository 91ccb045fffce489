"""Issue 13, defect 2: guessing passwords is braked, and costs the tables nothing.

Against a real server: failed logins per name, then per client address, get
429 with ``Retry-After`` (and no hash is computed for them); a right password
still works for another name. In process: an unknown name costs one Argon2
verification, as a wrong password does, and hashing runs off the event loop.
(How fast a busy table stays under a login flood is bench/bench_login_flood.py.)
"""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from stud.server.storage import verify_password
from stud.server.trust import logins
from stud.server.trust.logins import Busy, LoginConfig, PasswordGuard
from stud.server.trust.ratelimit import Throttled
from stud.testing.server import ServerProcess, ServerSpec

# Refills slow enough that no load on the machine lets a bucket fill back mid-test.
ARGS = ("--no-default-tables", "--login-failures", "8", "3", "--login-refill", "600", "600")


SERVER = ServerSpec(ARGS, fresh=True)
"""Fresh for each test: the failed logins of one would count against the next."""


def login(server: ServerProcess, name: str, password: str) -> httpx.Response:
    return httpx.post(
        server.base + "/api/login", json={"name": name, "password": password}, timeout=30
    )


def test_failed_logins_are_throttled_per_name_then_per_address(server: ServerProcess) -> None:
    for name in ("carol", "dave"):
        made = httpx.post(
            server.base + "/api/register", json={"name": name, "password": "right-one"}, timeout=30
        )
        assert made.status_code == 200, made.text
    codes = [login(server, "carol", "wrong-one").status_code for _ in range(3)]
    assert codes == [401, 401, 401]
    throttled = login(server, "carol", "wrong-one")
    assert throttled.status_code == 429, throttled.text
    assert int(throttled.headers["Retry-After"]) >= 1
    assert "this name" in throttled.json()["detail"]
    # Even the right password waits: the name is braked, not the guess.
    assert login(server, "carol", "right-one").status_code == 429
    # Another name still logs in; then this address's own budget (8) runs out too.
    assert login(server, "dave", "right-one").status_code == 200
    for guess in range(12):  # each name new, so only the address's budget can run out
        blocked = login(server, f"nobody{guess}", "wrong-one")
        if blocked.status_code == 429:
            break
        assert blocked.status_code == 401
    assert blocked.status_code == 429 and "this address" in blocked.json()["detail"]
    assert guess >= 5 and int(blocked.headers["Retry-After"]) >= 1


@pytest.mark.slow  # Argon2 verifications, many of them
def test_an_unknown_name_costs_the_same_work_as_a_wrong_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    real = verify_password

    def counting(encoded: str, password: str) -> bool:
        calls.append(threading.current_thread().name)
        return real(encoded, password)

    monkeypatch.setattr(logins, "verify_password", counting)

    async def run() -> None:
        guard = PasswordGuard(LoginConfig(hash_workers=1))
        encoded = await guard.hash("right-one")
        calls.clear()
        assert await guard.verify(encoded, "wrong-one") is False
        assert await guard.verify(None, "wrong-one") is False
        assert await guard.verify(encoded, "right-one") is True
        guard.close()

    asyncio.run(run())
    assert len(calls) == 3, calls  # one Argon2 verification each, the unknown name too
    assert all(name.startswith("stud-argon2") for name in calls), calls


def test_throttle_counts_only_failures_and_forgets_them_in_time() -> None:
    guard = PasswordGuard(LoginConfig(failures_per_name=2, name_refill_seconds=10))

    async def run() -> None:
        await guard.admit("erin", "1.2.3.4", now=100.0)
        await guard.failed("erin", "1.2.3.4", now=100.0)
        await guard.failed("erin", "1.2.3.4", now=100.0)
        with pytest.raises(Throttled) as refused:
            await guard.admit("erin", "1.2.3.4", now=101.0)
        assert refused.value.retry_after == 9
        await guard.admit("frank", "1.2.3.4", now=101.0)  # another name is not braked
        await guard.admit("erin", "1.2.3.4", now=110.0)  # one more try after the refill

    asyncio.run(run())
    guard.close()


@pytest.mark.slow  # a queue of real Argon2 hashes
def test_too_many_waiting_hashes_are_told_to_come_back() -> None:
    async def run() -> None:
        guard = PasswordGuard(LoginConfig(hash_workers=1, hash_queue=1))
        first = asyncio.create_task(guard.hash("one-password"))
        second = asyncio.create_task(guard.hash("two-password"))
        await asyncio.sleep(0)  # both hold a slot now: the worker's and the queue's
        with pytest.raises(Busy):
            await guard.hash("three-password")
        assert all(h.startswith("$argon2id$") for h in await asyncio.gather(first, second))
        guard.close()

    asyncio.run(run())
