"""The fixtures the test modules share, and the markers the fixtures a test uses imply.

Servers: a module describes the ``stud serve`` its tests talk to in ``SERVER``, a
:class:`~stud.testing.server.ServerSpec`; the ``server`` fixture is that server, shared by
every test of the session that asks for an equal spec (``fresh=True``: one per test).
A test that starts its own servers (it kills them, restarts them, or needs two) asks
for ``server_factory``; ``shared_server(spec)`` is the shared one for another spec.

Browser: ``browser`` is one headless Chromium (Debian's, through Playwright) for the
session; ``pages()`` opens pages in contexts of their own, ``page`` is one of them.

Cluster: ``cluster`` is a room of ``stud serve`` processes (the module's ``CLUSTER``
spec) on a fresh PostgreSQL database and the session's Redis; the test adds the
processes. ``pg_url`` and ``redis_url`` are those services alone.

Markers: a test that uses a server, a browser or a cluster (or Redis) is marked
``server``, ``browser`` or ``cluster`` here, so ``make quick`` can leave them out;
one that asks ``sized`` how long to run is marked ``soak`` (``make soak`` runs those at
full length); ``slow`` is written by hand. The markers also order the run and cap its
heavy tests (stud.testing.schedule).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stud.history import HandRecord
from stud.history.samples import sample_hands
from stud.server.storage import Database
from stud.testing.cluster import REDIS_URL_VARIABLE, Cluster, NoRedis, redis_for_tests
from stud.testing.cpu import CpuReport
from stud.testing.schedule import Schedule, start_rank, write_kinds
from stud.testing.server import (
    TEST_URL_VARIABLE,
    ServerProcess,
    Servers,
    ServerSpec,
    check_log,
    fresh_database,
    hand_factory_args,
    postgres_admin_url,
    require,
    require_backend,
)

MARKED_BY = {
    "server": {"server", "server_factory", "shared_server"},
    "browser": {"browser"},
    "cluster": {"cluster", "cluster_factory", "redis_url"},
    "soak": {"sized"},
}
"""Each marker, and the fixtures that imply it."""
SHARED_SERVERS = 3
"""Servers kept running per test process for later tests with the same spec."""
PAGE_TIMEOUT = 30_000
"""A page's default wait for a selector or a function, in milliseconds (a hang's bound)."""
LEASE_SECONDS = 3.0
"""A cluster's lease on a table or tournament."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak", action="store_true", help="run the long sweeps at full length (make soak)"
    )


@pytest.fixture(scope="session")
def sized(request: pytest.FixtureRequest) -> Callable[[int, int], int]:
    """``sized(everyday, soak)``: how many cases a long sweep runs: ``everyday`` in
    ``make test``, ``soak`` under ``make soak`` (``pytest --soak -m soak``), before a release."""
    soak = bool(request.config.getoption("--soak"))
    return lambda everyday, full: full if soak else everyday


def pytest_configure(config: pytest.Config) -> None:
    """``STUD_TEST_CPU=<folder>``: each test's CPU is written there (stud.testing.cpu). With
    workers (``-n``), tests are handed out by :mod:`stud.testing.schedule`."""
    folder = os.environ.get("STUD_TEST_CPU")
    if folder:
        config.pluginmanager.register(CpuReport(Path(folder)), "stud-cpu")
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Schedule(), "stud-schedule")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in MARKED_BY.items():
            if used & fixtures:
                item.add_marker(marker)
    items.sort(key=start_rank)  # stable: a module's tests keep their order
    write_kinds(config, items)


# -- servers -------------------------------------------------------------------------------


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """``start(spec, database_url=None)``: a server of the test's own, stopped at its end."""
    servers = Servers(lambda name: _folder(tmp_path / name))
    yield servers.start
    servers.close()


@pytest.fixture(scope="session")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[ServerSpec], ServerProcess]]:
    """``get(spec)``: the server for ``spec`` that every test of the session shares."""
    servers = Servers(tmp_path_factory.mktemp, shared=SHARED_SERVERS)
    yield servers.get
    servers.close()


@pytest.fixture
def server(
    request: pytest.FixtureRequest,
    shared_server: Callable[[ServerSpec], ServerProcess],
    server_factory: Callable[..., ServerProcess],
) -> Iterator[ServerProcess]:
    """The server the test module's ``SERVER`` spec describes (or the spec the test gives
    through ``parametrize("server", [spec], indirect=True)``)."""
    spec: ServerSpec = getattr(request, "param", None) or request.module.SERVER
    proc = server_factory(spec) if spec.fresh else shared_server(spec)
    yield proc
    if spec.clean_log:
        check_log(proc)


@pytest.fixture
def room(server: ServerProcess) -> Iterator[tuple[ServerProcess, Database]]:
    """The module's server and its database, as the test reads it."""
    db = Database(server.database_url)
    yield server, db
    db.close()


def _folder(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


# -- browser -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def _chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """The session's Chromium, and the event loop Playwright's sync calls run on."""
    from stud.web.browser import chromium

    with chromium() as launched:
        loop = asyncio.get_running_loop()
        asyncio._set_running_loop(None)
        try:
            yield launched, loop
        finally:
            asyncio._set_running_loop(loop)


@pytest.fixture
def browser(_chromium: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[Any]:
    """The session's headless Chromium (a ``playwright.sync_api.Browser``).

    Playwright marks its event loop running between its calls; the mark is lifted between
    tests, so a later test on this process may run its own loop (``asyncio.run``).
    """
    launched, loop = _chromium
    asyncio._set_running_loop(loop)
    try:
        yield launched
    finally:
        asyncio._set_running_loop(None)


@pytest.fixture
def pages(browser: Any) -> Iterator[Callable[..., Any]]:
    """``open(timeout=PAGE_TIMEOUT, **context options)``: a page in a browser context of its
    own (en-US, 1200x900 unless told); no page may raise a script error; closed at the end."""
    from stud.web.browser import watched_page

    opened: list[tuple[Any, list[str]]] = []

    def open_page(timeout: float = PAGE_TIMEOUT, **options: Any) -> Any:
        options = {"locale": "en-US", "viewport": {"width": 1200, "height": 900}, **options}
        context, page, errors = watched_page(browser, timeout, **options)
        opened.append((context, errors))
        return page

    yield open_page
    for context, _errors in opened:
        context.close()
    errors = [error for _context, errors in opened for error in errors]
    assert not errors, errors


@pytest.fixture
def page(pages: Callable[..., Any]) -> Any:
    """A page of its own (en-US, 1200x900), a ``playwright.sync_api.Page``."""
    return pages()


# -- data ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def samples(request: pytest.FixtureRequest) -> list[HandRecord]:
    """The module's ``SAMPLES = (count, seed)``: that many random hands (stud.history.samples)."""
    count, seed = request.module.SAMPLES
    return list(sample_hands(count, seed=seed))


# -- databases, Redis, cluster ---------------------------------------------------------------


@pytest.fixture
def database_factory(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """``make(backend)``: a fresh, empty database on 'sqlite' or 'postgres', dropped at the end
    (the PostgreSQL variant skipped, loudly, without a test server; failed in CI)."""
    with _Databases(tmp_path) as databases:
        yield databases.make


@pytest.fixture(params=["sqlite", "postgres"])
def db(
    request: pytest.FixtureRequest, database_factory: Callable[[str], str]
) -> Iterator[Database]:
    """A started database of the test's own (its writer thread running), on SQLite and on
    PostgreSQL."""
    database = Database(database_factory(str(request.param)))
    database.start()
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def pg_url(database_factory: Callable[[str], str]) -> str:
    """A fresh PostgreSQL database of the test's own."""
    return database_factory("postgres")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The session's Redis (every room keeps its keys under a prefix of its own)."""
    try:
        with redis_for_tests(tmp_path_factory.mktemp("redis")) as url:
            yield url
    except NoRedis:
        require(f"Redis ({REDIS_URL_VARIABLE} or redis-server)", False)


@pytest.fixture
def cluster_factory(
    tmp_path: Path, redis_url: str, database_factory: Callable[[str], str]
) -> Iterator[Callable[[ServerSpec], Cluster]]:
    """``make(spec)``: a room of processes running ``spec`` (and the test double's hands when
    the engine does not import) on a fresh PostgreSQL database and the session's Redis; no
    process may have logged a traceback when the test ends."""
    rooms: list[Cluster] = []

    def make(spec: ServerSpec) -> Cluster:
        require(TEST_URL_VARIABLE, postgres_admin_url() is not None)
        args = (*spec.args, *hand_factory_args("tests.test_table_double:start_double"))
        room = Cluster(
            database_factory("postgres"),
            redis_url,
            tmp_path,
            extra_args=args,
            lease_seconds=LEASE_SECONDS,
            env=spec.environment(),
        )
        rooms.append(room)
        return room

    try:
        yield make
        for room in rooms:
            for proc in room.servers:
                check_log(proc)
    finally:
        for room in rooms:
            room.stop()


@pytest.fixture
def cluster(
    request: pytest.FixtureRequest, cluster_factory: Callable[[ServerSpec], Cluster]
) -> Cluster:
    """The room of processes the test module's ``CLUSTER`` spec describes (none started yet)."""
    return cluster_factory(request.module.CLUSTER)


class _Databases:
    """Fresh databases made through :func:`fresh_database`, all dropped at the end."""

    def __init__(self, folder: Path) -> None:
        import contextlib

        self.folder = folder
        self.stack = contextlib.ExitStack()
        self.count = 0

    def make(self, backend: str) -> str:
        require_backend(backend)
        self.count += 1
        folder = _folder(self.folder / f"db{self.count}")
        return self.stack.enter_context(fresh_database(backend, folder))

    def __enter__(self) -> _Databases:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stack.close()
