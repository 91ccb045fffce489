"""Helpers for the shared room's tests and bench: a Redis to use, and N real processes.

``STUD_TEST_REDIS_URL`` names a Redis the tests may use (.ci/redis.sh starts
one in CI); without it a throwaway ``redis-server`` is started on a free
loopback port when the binary is installed. Every room keeps its keys under
its own prefix (:func:`stud.server.storage.fences.room_prefix`), so tests on
fresh databases can share one Redis.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from stud.testing.server import ServerProcess, free_port

REDIS_URL_VARIABLE = "STUD_TEST_REDIS_URL"


class NoRedis(RuntimeError):
    """Neither ``STUD_TEST_REDIS_URL`` nor a ``redis-server`` binary."""


@contextlib.contextmanager
def redis_for_tests(folder: Path) -> Iterator[str]:
    """A Redis URL: ``$STUD_TEST_REDIS_URL``, else a ``redis-server`` started here, then stopped."""
    url = os.environ.get(REDIS_URL_VARIABLE)
    if url:
        yield url
        return
    with PrivateRedis(folder) as redis:
        yield redis.url


class PrivateRedis:
    """A ``redis-server`` of the caller's own on a free loopback port, keeping nothing on disk:
    :meth:`restart` stops it and starts it again empty on the same port."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise NoRedis(f"{REDIS_URL_VARIABLE} is not set and redis-server is not installed")
        self.binary, self.folder, self.port = binary, folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port)
        deadline = time.monotonic() + 20
        try:
            while True:
                try:
                    client.ping()
                    return self
                except redis.ConnectionError:
                    if time.monotonic() > deadline or self.proc.poll() is not None:
                        raise
                    time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        """Stopped, then started again with nothing in it (as after a crash, with no dump)."""
        self.stop()
        self.start()

    def __enter__(self) -> PrivateRedis:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class Cluster:
    """Several ``stud serve`` processes sharing one room (one database, one Redis)."""

    def __init__(
        self,
        database_url: str,
        redis_url: str,
        folder: Path,
        *,
        extra_args: tuple[str, ...] = (),
        lease_seconds: float = 3.0,
        env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.folder = folder
        self.extra_args = extra_args
        self.env = {
            "STUD_REDIS_URL": redis_url,
            "STUD_LEASE_SECONDS": str(lease_seconds),
            **(env or {}),
        }
        self.servers: list[ServerProcess] = []

    def add(self) -> ServerProcess:
        """Start one more process of the room (returns once it answers)."""
        return self.add_together(1)[0]

    def add_together(self, count: int) -> list[ServerProcess]:
        """Start ``count`` more processes side by side (returns once all answer): which one
        opens the room's default tournaments is then a race, as in a real deployment."""
        servers = [
            ServerProcess(self.database_url, self.folder, extra_args=self.extra_args, env=self.env)
            for _ in range(count)
        ]
        for server in servers:
            self.servers.append(server.launch())
        return [server.wait_up() for server in servers]

    def live(self) -> list[ServerProcess]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is None]

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def health(server: ServerProcess) -> dict[str, Any]:
    response = httpx.get(server.base + "/api/health", timeout=10)
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


def runs(server: ServerProcess) -> set[int]:
    """The tables ``server`` runs now."""
    return set(health(server)["runs"])


def wait_until_run(servers: list[ServerProcess], tables: set[int], timeout: float = 60.0) -> None:
    """Until every table in ``tables`` is run by one of ``servers`` (the timeout bounds a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        held = set().union(*(runs(s) for s in servers))
        if tables <= held:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"tables {sorted(tables - held)} are run by none of the processes")
        time.sleep(0.1)
