"""Helpers for the server's tests and bench: fresh databases and a real server process.

They live in the package (like ``starlette.testclient``) so the test modules and
``bench/`` share one way to start a room: a real ``stud serve`` process on a
loopback port, its database on SQLite or on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from stud.server.storage.database import resolve_url
from stud.testing.wait import wait_until

TEST_URL_VARIABLE = "STUD_TEST_DATABASE_URL"
HAND_FACTORY_VARIABLE = "STUD_TEST_HAND_FACTORY"


def postgres_admin_url() -> str | None:
    """The PostgreSQL URL the tests may create databases through, if one is set."""
    return os.environ.get(TEST_URL_VARIABLE) or None


@contextlib.contextmanager
def fresh_database(backend: str, folder: Path) -> Iterator[str]:
    """A new, empty database URL on ``backend`` ('sqlite' or 'postgres'), dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{(folder / 'stud.sqlite3').resolve()}"
        return
    admin = postgres_admin_url()
    if admin is None:
        raise RuntimeError(f"{TEST_URL_VARIABLE} is not set")
    admin_url = make_url(resolve_url(admin))
    name = "stud_t_" + uuid.uuid4().hex[:12]
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        try:
            wait_until(lambda: _dropped(engine, name), f"database {name} dropped", 60.0,
                       interval=0.5, retry=(DBAPIError,))  # fmt: skip
        finally:
            engine.dispose()


def _dropped(engine: Engine, name: str) -> bool:
    """Drop a test's database, ending its sessions. A role that is not a superuser may not end
    an autovacuum worker's session (PostgreSQL 15 refuses it), so the caller tries again
    until that worker is done."""
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    return True


def require(what: str, present: bool) -> None:
    """Skip the test, loudly, when a service it needs is missing; fail in CI (.ci/run starts
    every one)."""
    import pytest

    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} must be available in CI (.ci/run starts it)")
    pytest.skip(f"not run: {what} is not available")


def require_backend(backend: str) -> None:
    """Skip a PostgreSQL variant, loudly, when no test server is set; fail in CI (it sets one)."""
    if backend == "postgres":
        require(TEST_URL_VARIABLE, postgres_admin_url() is not None)


def hand_factory_args(fallback: str) -> tuple[str, ...]:
    """``stud serve`` arguments choosing a test server's hands.

    The factory named by ``$STUD_TEST_HAND_FACTORY`` when it is set; else none
    (the real engine) when :mod:`stud.table.engine` imports; else ``fallback``,
    a test double as ``module:function``, for checks that are the server's own.
    """
    factory = os.environ.get(HAND_FACTORY_VARIABLE)
    if factory is None:
        try:
            import stud.table.engine  # noqa: F401
        except ImportError:
            factory = fallback
    return () if factory is None else ("--hand-factory", factory)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CROWD = {"STUD_SOCKETS": "8 100000", "STUD_MESSAGE_RATE": "20 1000000"}
"""A test's or bench's hundreds of clients all come from 127.0.0.1: its servers lift the caps
per client address (a test of them passes ``--sockets``/``--message-rate``); each account
keeps the room's own."""


class ServerProcess:
    """A real ``stud serve`` child process on a loopback port; ``kill()`` is kill -9."""

    def __init__(
        self,
        database_url: str,
        data_dir: Path,
        *,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.extra_args = extra_args
        self.env = env or {}
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 180.0) -> ServerProcess:
        """Launch the process and return once it answers."""
        return self.launch().wait_up(timeout)

    def launch(self) -> ServerProcess:
        """Launch the process without waiting for it (several can start side by side)."""
        # A test's stop lets the hands in progress finish for a moment only (a drain test
        # sets its own bound): a hand waiting on a closed socket's clock would hold it up.
        env = {**CROWD, **os.environ, "STUD_DRAIN_SECONDS": "1", **self.env,
               "STUD_DATABASE_URL": self.database_url}  # fmt: skip
        env.pop("STUD_DATA_DIR", None)
        cmd = [
            sys.executable,
            "-m",
            "stud",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            *self.extra_args,
        ]
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        return self

    def wait_up(self, timeout: float = 180.0) -> ServerProcess:
        """Until the launched process answers its health check (killed if it never does)."""
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log()}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not come up: {self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to tidy up, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class Client:
    """A websocket client that records every message it receives (for the tests and bench)."""

    def __init__(self, server_base: str, cookie: str | None = None) -> None:
        self.base = server_base
        self.ws_url = server_base.replace("http://", "ws://") + "/ws?batch=1"
        self.cookie = cookie
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self._unread: deque[tuple[str, dict[str, Any]]] = deque()
        """Messages of a frame already read, not yet returned by :meth:`recv`."""
        self.ws: Any = None
        self.account: dict[str, Any] | None = None

    @classmethod
    def guest(cls, server_base: str) -> Client:
        response = httpx.post(server_base + "/api/guest", timeout=10)
        response.raise_for_status()
        client = cls(server_base, response.cookies.get("stud_session"))
        client.account = response.json()
        return client

    async def connect(self) -> dict[str, Any]:
        import websockets

        headers = {"Cookie": f"stud_session={self.cookie}"} if self.cookie else {}
        self.ws = await websockets.connect(self.ws_url, additional_headers=headers, max_size=2**22)
        return await self.recv()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 60.0) -> dict[str, Any]:
        """The next message: a frame holds one, or an array of several sent together."""
        if not self._unread:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
            frame = json.loads(text)
            if isinstance(frame, list):
                # Each message's own text, for checks that search the texts message by message.
                self._unread.extend((orjson.dumps(m).decode(), m) for m in frame)
            else:
                self._unread.append((text, frame))
        text, message = self._unread.popleft()
        self.texts.append(text)
        self.messages.append(message)
        return message

    def last_event(self, table: int | None = None) -> int:
        """The number of the last event received (of ``table``, if given); 0 before any."""
        numbers = [
            m["n"] for m in self.messages
            if m["type"] == "event" and (table is None or m.get("table") == table)
        ]  # fmt: skip
        return max(numbers, default=0)

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 60.0
    ) -> dict[str, Any]:
        """Read messages until one satisfies ``predicate``; TimeoutError after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError("no matching message")
            message = await self.recv(left)
            if predicate(message):
                return message


def check_no_foreign_down_cards(client: Client, own_seat: int | None) -> int:
    """No down card of another seat in ``client``'s messages unless that seat showed it.

    Returns how many down cards of other seats the check saw hidden (as null).
    """
    hidden = 0
    shown: set[int] = set()
    for message in client.messages:
        if message["type"] == "event":
            event = message["event"]
            if event["type"] == "new_hand":
                shown = set()
            elif event["type"] == "show":
                shown.add(event["seat"])
            elif event["type"] == "dealt" and event["seat"] != own_seat:
                assert all(card is None for card in event["down"]), message
                hidden += len(event["down"])
        elif message["type"] == "state":
            hand = message["state"]["hand"]
            if hand is None:
                continue
            for seat in hand["seats"]:
                if seat["seat"] != own_seat and seat["seat"] not in shown and not seat["shown"]:
                    assert all(card is None for card in seat["down"]), message
                    hidden += len(seat["down"])
            for event in hand.get("events", []):
                if event["type"] == "dealt" and event["seat"] != own_seat:
                    assert all(card is None for card in event["down"]), message
    return hidden


async def play_room_tournament(
    db: Any,
    config: Any,
    template: Any,
    players: int,
    observer: Callable[[Any, list[Any]], None] | None = None,
    timeout: float = 900.0,
) -> Any:
    """Run a tournament of ``players`` of the room's bots through a real, in-process room
    (its tournament actor, storage and bots) to its end; the finished actor.

    ``db`` is a :class:`~stud.server.storage.Database` (started here), ``config`` a
    ``RoomConfig``, ``template`` a ``TourneyTemplate``; ``observer(actor, outs)`` sees
    every stored step (the test checks chips and balance there, the bench counts).
    """
    from stud.server.actors.mailbox import Command
    from stud.server.room.room import Room
    from stud.table.engine import start_engine_hand

    over = asyncio.Event()

    def watch(actor: Any, outs: list[Any]) -> None:
        if observer is not None:
            observer(actor, outs)
        if actor.over:
            over.set()

    db.start()
    room = Room(db=db, config=config, hand_factory=start_engine_hand)
    await room.start()
    try:
        desk = room.tournaments
        actor = await desk.create(desk.settings(template, time.time()))
        actor.observers.append(watch)
        await actor.call(Command("add_bots", args={"count": players}))
        await asyncio.wait_for(over.wait(), timeout)
        return actor
    finally:
        await room.stop()


@contextlib.contextmanager
def sqlite_server(
    folder: Path, extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[ServerProcess]:
    """A ``stud serve`` on a fresh SQLite database in ``folder``, stopped at the end."""
    with (
        fresh_database("sqlite", folder) as url,
        ServerProcess(url, folder, extra_args=extra_args, env=env) as proc,
    ):
        yield proc


REPOSITORY = Path(__file__).resolve().parents[3]
"""The checkout's root, on a test server's ``PYTHONPATH`` (for test doubles as ``tests.module``)."""


TEST_HOUSE_BOTS = "tag"
"""The house's bots in a test's room (``stud serve --house-bots``): a style bot plays whole
hands as a person would (bets, raises, folds) at about 1/25 of the strong bot's CPU, which
would otherwise be most of a server test's. A test of the strong bot in the room asks for it
(``ServerSpec(house_bots="strong")``); a table made with a kind of its own keeps it."""


@dataclass(frozen=True, eq=False)
class ServerSpec:
    """How a test's ``stud serve`` runs: its arguments, its environment, the hands it deals.

    ``decks`` are :mod:`stud.testing.web`'s stacked hands; ``setup(server)`` runs once the
    server answers (tables it should start with); ``clean_log`` asks that no traceback is
    logged while a test uses it; ``fresh`` gives each test a server of its own (it kills it,
    or counts what only it may have done). Specs with equal settings share a server.
    """

    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    decks: Mapping[str, Any] | None = None
    setup: Callable[[ServerProcess], None] | None = None
    clean_log: bool = False
    fresh: bool = False
    backend: str = "sqlite"
    house_bots: str = TEST_HOUSE_BOTS

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two specs the same server."""
        env = json.dumps(self.environment(), sort_keys=True)
        return (self.args, env, self.setup, self.clean_log, self.backend)

    def environment(self) -> dict[str, str]:
        """The variables the process gets beside the test run's own."""
        path = os.pathsep.join(p for p in (str(REPOSITORY), os.environ.get("PYTHONPATH")) if p)
        env = {"PYTHONPATH": path, "STUD_HOUSE_BOTS": self.house_bots, **self.env}
        if self.decks is not None:
            env["STUD_WEB_TEST_DECKS"] = json.dumps(self.decks)
        return env


class Servers:
    """Starts ``stud serve`` processes, each on a fresh database in a folder of its own from
    ``folders(name)``, and stops them all (and drops their databases) at :meth:`close`.

    ``shared`` keeps at most that many servers running, one per spec, for whoever asks for the
    same spec again (the least recently asked for is stopped first).
    """

    def __init__(self, folders: Callable[[str], Path], shared: int = 0) -> None:
        self.folders = folders
        self.shared = shared
        self.running: OrderedDict[object, tuple[ServerProcess, contextlib.ExitStack]] = (
            OrderedDict()
        )
        self.count = 0

    def start(
        self, spec: ServerSpec, database_url: str | None = None, data_dir: Path | None = None
    ) -> ServerProcess:
        """A new server for ``spec``: on ``database_url`` and in ``data_dir`` if given (a
        restart of an earlier one), else on a fresh database in a folder of its own."""
        self.count += 1
        stack = contextlib.ExitStack()
        try:
            folder = data_dir or self.folders(f"server{self.count}")
            url = database_url or stack.enter_context(fresh_database(spec.backend, folder))
            server = ServerProcess(url, folder, extra_args=spec.args, env=spec.environment())
            stack.callback(server.stop)
            server.start()
            if spec.setup is not None:
                spec.setup(server)
        except BaseException:
            stack.close()
            raise
        self.running[self.count] = (server, stack)
        return server

    def get(self, spec: ServerSpec) -> ServerProcess:
        """The running server for ``spec``, started the first time it is asked for."""
        if spec.key in self.running:
            self.running.move_to_end(spec.key)
            return self.running[spec.key][0]
        while self.running and len(self.running) >= self.shared:
            _key, (_server, stack) = self.running.popitem(last=False)
            stack.close()
        server = self.start(spec)
        self.running[spec.key] = self.running.pop(self.count)
        return server

    def close(self) -> None:
        while self.running:
            _key, (_server, stack) = self.running.popitem()
            stack.close()


def check_log(server: ServerProcess) -> None:
    """No traceback in the server's log: no table fault, no step that failed. A failure
    shows each traceback with the lines logged just before it (a CI run prints only the
    end of a long message, so the end of the log would hide the cause)."""
    text = server.log_path.read_text(errors="replace")
    assert "Traceback" not in text, tracebacks(text)


def tracebacks(log: str, before: int = 3, limit: int = 3) -> str:
    """The first ``limit`` tracebacks in ``log``, each with ``before`` lines logged before it
    and its own lines up to the next log line."""
    lines = log.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith("Traceback")]
    parts = []
    for start in starts[:limit]:
        end = start + 1
        while end < len(lines) and not lines[end][:4].isdigit():  # up to the next dated line
            end += 1
        parts.append("\n".join(lines[max(0, start - before) : end]))
    shown = f"{len(starts)} traceback(s) in the log; the first {len(parts)}:\n"
    return shown + "\n---\n".join(parts)
