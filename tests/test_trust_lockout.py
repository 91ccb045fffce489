"""Issue 35, finding 1: wrong passwords never lock the owner out, and guessing stays slow.

Against a real server behind a trusted proxy (``--forwarded-allow-ips 127.0.0.1``, each
client named by ``X-Forwarded-For``): an attacker hammers a name from one address, then
from 20; each time the owner, from an address with no failures, logs in at once. In
process, on a simulated clock: how many guesses an hour one name yields to 1 and to 20
attacking addresses under the room's default throttle (printed, and bounded by what
stud.server.trust.logins and docs/rest.md state: 50 + 60 + one per address the first hour).
"""

from __future__ import annotations

import asyncio

import httpx

from stud.server.trust.logins import LoginConfig, PasswordGuard
from stud.server.trust.ratelimit import Throttled
from stud.testing.server import ServerProcess, ServerSpec

# Small buckets that never refill within the test: few Argon2 hashes, and no refill races.
SERVER = ServerSpec(
    (
        "--no-default-tables", "--forwarded-allow-ips", "127.0.0.1",
        "--login-failures", "1000", "3", "--login-refill", "600", "600",
        "--login-name-wide", "10", "600", "--signups", "1000",
    ),
    fresh=True,
)  # fmt: skip
OWNER = {"name": "target", "password": "owner-knows-this"}


def login(server: ServerProcess, address: str, password: str) -> int:
    answer = httpx.post(
        server.base + "/api/login",
        json={"name": OWNER["name"], "password": password},
        headers={"X-Forwarded-For": address},
        timeout=60,
    )
    return answer.status_code


def hammer(server: ServerProcess, address: str) -> list[int]:
    """Wrong passwords from ``address`` until it is refused (429); the answers."""
    codes: list[int] = []
    while not codes or codes[-1] != 429:
        codes.append(login(server, address, f"guess-{len(codes)}"))
        assert len(codes) <= 10, codes
    return codes


def test_the_owner_logs_in_from_a_clean_address_while_the_name_is_hammered(
    server: ServerProcess,
) -> None:
    made = httpx.post(server.base + "/api/register", json=OWNER, timeout=60)
    assert made.status_code == 200, made.text
    # One attacking address: braked at this name after 3 failures ...
    assert hammer(server, "203.0.113.1") == [401, 401, 401, 429]
    assert login(server, "203.0.113.1", OWNER["password"]) == 429  # even the right password
    # ... while the owner, elsewhere, is not.
    assert login(server, "198.51.100.7", OWNER["password"]) == 200
    # Twenty attacking addresses: the name-wide step (10) is spent, then each address has
    # its one try as a clean client and no more.
    answers = [hammer(server, f"203.0.113.{host}") for host in range(10, 30)]
    assert all(codes[-1] == 429 for codes in answers)
    failures = sum(codes.count(401) for codes in answers)
    assert failures <= 7 + 20 * 1 + 2, answers  # name-wide left + one each (+ at most 2 early)
    assert answers[-1] == [401, 429]  # a late address: one clean try, then refused
    # The owner from a clean address: at once, as before the attack.
    assert login(server, "198.51.100.8", OWNER["password"]) == 200
    assert login(server, "198.51.100.7", OWNER["password"]) == 200


def guesses_in_an_hour(addresses: int, config: LoginConfig) -> tuple[int, int]:
    """Guesses at one name an attacker with ``addresses`` gets in its first and its second
    hour of trying faster than any bucket refills (a try every 5 s from each address);
    the owner, from an address with no failures, must be admitted throughout."""

    async def run() -> tuple[int, int]:
        guard = PasswordGuard(config)
        hours = [0, 0]
        try:
            for second in range(0, 2 * 3600, 5):
                now = float(second)
                for host in range(addresses):
                    address = f"10.0.{host // 250}.{host % 250}"
                    try:
                        await guard.admit("victim", address, now)
                    except Throttled:
                        continue
                    hours[second // 3600] += 1
                    await guard.failed("victim", address, now)
                if second % 600 == 0:  # the owner, from an address with no failures
                    await guard.admit("victim", f"192.0.2.{second // 600}", now)
        finally:
            guard.close()
        return hours[0], hours[1]

    return asyncio.run(run())


def test_guesses_per_hour_per_name_stay_few_from_one_address_or_twenty() -> None:
    config = LoginConfig()
    one = guesses_in_an_hour(1, config)
    twenty = guesses_in_an_hour(20, config)
    print(f"\nguesses at one name, first hour / second: 1 address {one}, 20 addresses {twenty}")
    wide, per_hour = config.failures_name_wide, 3600 / config.name_wide_refill_seconds
    assert one[0] <= wide + per_hour + 1 and one[1] <= per_hour + 1
    assert twenty[0] <= wide + per_hour + 20 and twenty[1] <= per_hour + 20
    assert twenty[1] > 0  # the throttle slows guessing; it does not stop the name for good
