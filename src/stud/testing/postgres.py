"""A PostgreSQL server of a test's own, which the test may stop and start (an outage).

The room's tests share one PostgreSQL (``STUD_TEST_DATABASE_URL``), which no test may
stop; a test of what an outage does starts this one instead: ``initdb`` into a fresh
folder, ``pg_ctl`` on a free loopback port, run as the ``postgres`` user when the tests
run as root (PostgreSQL refuses to run as root, as in CI). Debian's binaries are found
under ``/usr/lib/postgresql/<version>/bin`` (or on the ``PATH``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from stud.testing.server import free_port

SERVER_USER = "postgres"
"""Who runs the server when the tests run as root."""


class NoPostgres(RuntimeError):
    """PostgreSQL's server binaries (``initdb``, ``pg_ctl``) are not installed."""


def server_binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest, else the ``PATH``'s."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=_version)
    if found:
        return found[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path is None:
        raise NoPostgres("initdb and pg_ctl are not installed (Debian: the postgresql package)")
    return Path(on_path).parent


def _version(path: Path) -> tuple[int, ...]:
    name = path.parents[1].name
    return tuple(int(part) for part in name.split(".") if part.isdigit())


class PrivatePostgres:
    """One PostgreSQL server in a folder of its own: :meth:`start`, :meth:`stop` (a fast
    shutdown: sessions ended, as when an operator or a crash stops it), :meth:`close`."""

    def __init__(self) -> None:
        self.bin = server_binaries()
        self.port = free_port()
        # Outside pytest's own folders, which only root may enter.
        self.folder = Path(tempfile.mkdtemp(prefix="stud-pg-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            entry = pwd.getpwnam(SERVER_USER)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.as_user = ["runuser", "-u", SERVER_USER, "--"]
        self._run("initdb", "-D", str(self.data), "-U", "stud", "--auth=trust", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "stud", "stud")

    @property
    def url(self) -> str:
        return f"postgresql://stud@127.0.0.1:{self.port}/stud"

    def _run(self, tool: str, *args: str) -> None:
        binary = self.bin / tool
        command = [*self.as_user, str(binary if binary.exists() else tool), *args]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed: {result.stdout}{result.stderr}")

    def start(self) -> None:
        """Start the server (again) on its port; returns once it takes connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        """A fast shutdown: every session is ended, open transactions rolled back."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        """Stop the server if it runs and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PrivatePostgres:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
