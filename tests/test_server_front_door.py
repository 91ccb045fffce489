"""Issue 35, findings 2 to 5, against a real server: the room's front door.

Fair share: an account and an address hold at most so many websockets (``too_many_sockets``)
and their sockets share one message budget; a client slow to send its headers is dropped.
Headers: every page, file, API answer and refusal carries the Content-Security-Policy,
``X-Frame-Options``, ``nosniff`` and ``Referrer-Policy``. Sessions: the cookie is
``Secure`` over HTTPS (as a listed proxy says), every login and registration in place
gets a new token and ends the old one, "log out everywhere" ends them all and closes the
account's sockets. Proxies: ``X-Forwarded-*`` only from a listed address; the Origin
check compares scheme, host and port. (Lockout: tests/test_trust_lockout.py.)
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from stud.server.http.deps import session_account
from stud.server.http.headers import DOCS_POLICY, ROOM_POLICY
from stud.server.room.config import RoomConfig
from stud.server.storage import Database
from stud.testing.server import ServerProcess, ServerSpec

SERVER = ServerSpec(
    (
        "--no-default-tables", "--forwarded-allow-ips", "127.0.0.1", "--sockets", "2", "3",
        "--message-rate", "0.5", "1000", "--header-timeout", "1", "--signups", "1000",
    ),
)  # fmt: skip
PLAIN = ServerSpec(("--no-default-tables",))
"""A room that lists no proxy (the default)."""


def guest(server: ServerProcess, address: str = "198.51.100.1") -> httpx.Client:
    http = httpx.Client(base_url=server.base, timeout=30, headers={"X-Forwarded-For": address})
    assert http.post("/api/guest").status_code == 200
    return http


def cookie_of(http: httpx.Client) -> str:
    token = http.cookies.get("stud_session")
    assert token
    return str(token)


async def open_socket(server: ServerProcess, token: str | None, address: str) -> Any:
    headers = {"X-Forwarded-For": address}
    if token:
        headers["Cookie"] = f"stud_session={token}"
    return await websockets.connect(server.ws_url, additional_headers=headers)


async def first_message(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return message


async def closed(ws: Any) -> bool:
    """Whether the server closes ``ws`` (reading what it still sends), within 30 s."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    except websockets.ConnectionClosed:
        return True


async def welcomed(server: ServerProcess, token: str, address: str) -> Any:
    """A socket the server welcomes, tried until it does (a closed socket's place is freed
    once the server has read its close), within 30 s."""
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        ws = await open_socket(server, token, address)
        if (await first_message(ws))["type"] == "welcome":
            return ws
        await ws.close()
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("the closed socket's place was never freed")


# -- fair share ----------------------------------------------------------------------------


def test_sockets_are_capped_per_account_and_per_address(server: ServerProcess) -> None:
    one = cookie_of(guest(server, "198.51.100.20"))
    two = cookie_of(guest(server, "198.51.100.20"))

    async def run() -> None:
        mine = [await open_socket(server, one, "198.51.100.20") for _ in range(2)]
        for ws in mine:
            assert (await first_message(ws))["type"] == "welcome"
        third = await open_socket(server, one, "198.51.100.21")  # the account's cap: 2
        refusal = await first_message(third)
        assert refusal["type"] == "error" and refusal["code"] == "too_many_sockets"
        assert await closed(third)
        other = await open_socket(server, two, "198.51.100.20")  # the address's third: fine
        assert (await first_message(other))["type"] == "welcome"
        fourth = await open_socket(server, None, "198.51.100.20")  # the address's cap: 3
        assert (await first_message(fourth))["code"] == "too_many_sockets"
        elsewhere = await open_socket(server, None, "198.51.100.22")
        assert (await first_message(elsewhere))["type"] == "welcome"
        await mine[0].close()  # a socket closes: its place is free again
        again = await welcomed(server, one, "198.51.100.23")
        for ws in (mine[1], other, elsewhere, again):
            await ws.close()

    asyncio.run(run())


def test_an_accounts_sockets_share_one_message_budget(server: ServerProcess) -> None:
    """0.5 messages a second, bursts of 1: the second socket's ping finds the budget spent
    by the first's (each socket alone would have had its own)."""
    token = cookie_of(guest(server, "198.51.100.30"))

    async def run() -> None:
        first = await open_socket(server, token, "198.51.100.30")
        second = await open_socket(server, token, "198.51.100.30")
        for ws in (first, second):
            await first_message(ws)
        await first.send(json.dumps({"type": "ping", "id": 1}))
        assert (await first_message(first))["type"] == "pong"
        await second.send(json.dumps({"type": "ping", "id": 2}))
        answer = await first_message(second)
        assert answer["type"] == "error" and answer["code"] == "rate_limited", answer
        await first.close()
        await second.close()

    asyncio.run(run())


def test_a_client_slow_to_send_its_headers_is_dropped(server: ServerProcess) -> None:
    """50 connections each send half a request and wait: with ``--header-timeout 1`` the
    server closes every one (uvicorn alone held them open for as long as they liked)."""
    held = []
    for _ in range(50):
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(conn)
    dropped = 0
    for conn in held:
        try:
            dropped += conn.recv(1024) == b""  # the server's end closed (no answer)
        finally:
            conn.close()
    print(f"\nhalf-sent requests dropped: {dropped} of {len(held)}")
    assert dropped == len(held)
    assert httpx.get(server.base + "/api/health", timeout=30).status_code == 200


# -- headers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path",
    [("GET", "/"), ("GET", "/js/main.js"), ("GET", "/api/health"), ("GET", "/api/me"),
     ("GET", "/no/such/page"), ("POST", "/api/guest")],
)  # fmt: skip
def test_every_answer_carries_the_security_headers(
    server: ServerProcess, method: str, path: str
) -> None:
    headers = {"Origin": "https://evil.example"} if method == "POST" else {}
    answer = httpx.request(method, server.base + path, headers=headers, timeout=30)
    assert answer.headers["content-security-policy"] == ROOM_POLICY
    assert "frame-ancestors 'none'" in ROOM_POLICY and "unsafe-inline" not in ROOM_POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"


def test_the_api_documentation_may_load_its_viewer_but_not_be_framed(
    server: ServerProcess,
) -> None:
    answer = httpx.get(server.base + "/docs", timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-security-policy"] == DOCS_POLICY
    assert "frame-ancestors 'none'" in DOCS_POLICY
    assert answer.headers["x-frame-options"] == "DENY"


# -- sessions --------------------------------------------------------------------------------


def session_cookie_header(answer: httpx.Response) -> str:
    found = [v for k, v in answer.headers.multi_items() if k == "set-cookie"]
    assert found and found[0].startswith("stud_session="), found
    return found[0].lower()


def test_the_cookie_is_secure_over_https_as_a_listed_proxy_says(
    server: ServerProcess, shared_server: Callable[[ServerSpec], ServerProcess]
) -> None:
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.40"}
    behind = httpx.post(server.base + "/api/guest", headers=https, timeout=30)
    assert "; secure" in session_cookie_header(behind)
    plain = httpx.post(server.base + "/api/guest", timeout=30)
    assert "; secure" not in session_cookie_header(plain)
    # A room that lists no proxy believes no header: not https, and the address is the peer's.
    unlisted = shared_server(PLAIN)
    spoofed = httpx.post(unlisted.base + "/api/guest", headers=https, timeout=30)
    assert "; secure" not in session_cookie_header(spoofed)


def test_a_login_and_a_registration_in_place_end_the_old_token(server: ServerProcess) -> None:
    http = guest(server, "198.51.100.50")
    guest_token = cookie_of(http)
    upgraded = http.post("/api/register-guest", json={"name": "rotor", "password": "spins-round-9"})
    assert upgraded.status_code == 200, upgraded.text
    registered_token = cookie_of(http)
    assert registered_token != guest_token
    stale = httpx.get(server.base + "/api/me", cookies={"stud_session": guest_token}, timeout=30)
    assert stale.status_code == 401
    again = http.post("/api/login", json={"name": "rotor", "password": "spins-round-9"})
    assert again.status_code == 200
    assert cookie_of(http) != registered_token
    old = httpx.get(server.base + "/api/me", cookies={"stud_session": registered_token}, timeout=30)
    assert old.status_code == 401
    assert http.get("/api/me").json()["name"] == "rotor"


def test_logging_out_everywhere_ends_every_session_and_socket(server: ServerProcess) -> None:
    credentials = {"name": "roamer", "password": "many-devices-7"}
    laptop = httpx.Client(base_url=server.base, timeout=30)
    assert laptop.post("/api/register", json=credentials).status_code == 200
    phone = httpx.Client(base_url=server.base, timeout=30)
    assert phone.post("/api/login", json=credentials).status_code == 200

    async def run() -> None:
        ws = await open_socket(server, cookie_of(phone), "198.51.100.60")
        assert (await first_message(ws))["type"] == "welcome"
        ended = laptop.post("/api/logout-everywhere")
        assert ended.status_code == 200 and ended.json() == {"sessions": 2}
        told = await first_message(ws)
        assert told["type"] == "error" and told["code"] == "logged_out"
        assert await closed(ws)

    asyncio.run(run())
    assert phone.get("/api/me").status_code == 401
    assert laptop.get("/api/me").status_code == 401
    assert httpx.post(server.base + "/api/logout-everywhere", timeout=30).status_code == 401


# -- origins -----------------------------------------------------------------------------------


def test_the_origin_check_compares_scheme_host_and_port(server: ServerProcess) -> None:
    host = f"127.0.0.1:{server.port}"

    def guest_from(origin: str, **headers: str) -> int:
        answer = httpx.post(
            server.base + "/api/guest", headers={"Origin": origin, **headers}, timeout=30
        )
        return answer.status_code

    assert guest_from(f"http://{host}") == 200
    assert guest_from(f"https://{host}") == 403  # another scheme: another site
    assert guest_from(f"http://127.0.0.1:{server.port + 1}") == 403  # another port
    assert guest_from(f"http://localhost:{server.port}") == 403  # another host
    # Behind a listed proxy that says the page came over https, the https origin is ours.
    assert guest_from(f"https://{host}", **{"X-Forwarded-Proto": "https"}) == 200
    assert guest_from(f"http://{host}", **{"X-Forwarded-Proto": "https"}) == 403


def test_sessions_end_once_idle(tmp_path: Path) -> None:
    """A session unused for the idle time is gone; one in use moves its end on."""
    db = Database(f"sqlite:///{tmp_path}/sessions.sqlite3")
    db.start()
    try:
        house = db.read_sync(db.store.house)
        config = RoomConfig(session_idle_seconds=100.0, session_seconds=1000.0)
        db.write_sync(lambda c: db.store.create_session(c, house, "idle-token", -1.0))
        db.write_sync(lambda c: db.store.create_session(c, house, "busy-token", 5.0))

        async def run() -> None:
            assert await session_account(db, config, "idle-token") is None
            assert (await session_account(db, config, "busy-token")) is not None

        asyncio.run(run())
        found = db.read_sync(lambda c: db.store.session(c, "busy-token"))
        assert found is not None and found[2] > time.time() + 90  # moved on to about now + 100
    finally:
        db.close()
