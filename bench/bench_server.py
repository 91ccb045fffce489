"""Load bench: N tables of websocket bots through the real server stack on loopback.

A real ``stud.server`` process runs with no bots of its own; this process
opens N tables and seats ``--players`` websocket clients at each (guests that
check or call, after a short think time). It reports the actions per second
the room handled, the 50th and 99th percentile of the time from a client
sending an action to the last client at that table receiving its event, and
the server's CPU per action. ``--tables 100 200`` measures each size in turn,
each on a fresh server, in one run. ``--profile DIR`` samples the server with
py-spy while it is measured and prints where its CPU went; ``--server-src``
runs another tree's server (e.g. ``git archive`` of an older commit) to compare.
Loopback only; bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop

from stud.testing.server import Client, ServerProcess, fresh_database

sys.path.insert(0, str(Path(__file__).resolve().parent))
from capacity import Meter, percentile


class Seat:
    """One websocket bot: acts on its turn and timestamps every event it receives.

    It reads from the moment it sits down (a client that does not read its socket
    stalls the server's sends and its own keepalive pings).
    """

    def __init__(self, client: Client, table: int, bench: Bench) -> None:
        self.client = client
        self.table = table
        self.bench = bench

    async def run(self, think: tuple[float, float]) -> None:
        ws = self.client.ws
        acted: set[int] = set()
        while self.bench.reading(time.monotonic()):
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            except Exception:
                self.bench.dropped += 1
                return
            now = time.monotonic()
            frame = orjson.loads(text)  # one message, or several sent together
            for message in frame if isinstance(frame, list) else [frame]:
                if not await self._read(message, now, acted, think):
                    return

    async def _read(
        self, message: dict[str, Any], now: float, acted: set[int], think: tuple[float, float]
    ) -> bool:
        """Take one message: count an event, act on a state that asks; False if the socket
        failed."""
        ws = self.client.ws
        if message["type"] == "event":
            self.bench.received(self.table, message["n"], now)
        elif message["type"] == "state":
            state = message["state"]
            turn = state["turn"]
            mine = turn and state["you"] is not None and turn["seat"] == state["you"]
            if mine and state["legal"] and turn["turn"] not in acted:
                acted.add(turn["turn"])
                legal = {a["action"]: a["to"] for a in state["legal"]}
                action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
                await asyncio.sleep(random.uniform(*think))
                if time.monotonic() >= self.bench.stop:
                    return True  # the window closed while thinking: no new action
                self.bench.sent(self.table, message["n"] + 1, time.monotonic())
                act = {"type": "act", "table": self.table, "action": action,
                       "to": legal[action], "turn": turn["turn"]}  # fmt: skip
                try:
                    await ws.send(json.dumps(act))
                except Exception:
                    self.bench.dropped += 1
                    return False
        return True


class Bench(Meter):
    """Pairs each action (the next event number at its table) with its receipts (a Meter),
    and says how long the clients read.

    Actions are sent only inside the measured window; after it the clients go
    on reading until every action sent in the window is answered, or ``drain``
    seconds pass: an action still pending then is "unanswered" (lost, or later
    than the drain). Before that rule a client that was thinking when the window
    closed still sent its action, counted as pending, while the others at its
    table had stopped reading: about one "unanswered" action per table, none of
    them the server's.
    """

    def __init__(self, players: int, drain: float = 10.0) -> None:
        super().__init__(players)
        self.stop = float("inf")
        self.drain = drain
        self.dropped = 0

    def reading(self, now: float) -> bool:
        """Whether the clients read on: in the window, then until every action is answered."""
        return now < self.stop or (now < self.stop + self.drain and bool(self.pending))


async def post(http: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A set-up request, tried again when the connection drops (a loaded machine's hiccup).

    A guest or a table made twice costs the measurement nothing (an idle table runs no hand).
    """
    for attempt in range(4):
        try:
            return await http.post(path, **kwargs)
        except httpx.TransportError:
            if attempt == 3:
                raise
            await asyncio.sleep(1.0 + attempt)
    raise AssertionError("unreachable")


async def open_table(
    http: httpx.AsyncClient, server: ServerProcess, bench: Bench, t: int, players: int
) -> tuple[int, list[Client]]:
    """A new table (its id) and its ``players`` guests, each seated."""
    clients = []
    for _ in range(players):
        response = await post(http, "/api/guest")
        clients.append(Client(server.base, response.cookies.get("stud_session")))
        http.cookies.clear()  # a sign-up that brings a session along ends it: each keeps its own
    response = await post(
        http,
        "/api/tables",
        json={"name": f"bench-{t}", "game": ("stud", "stud8", "razz")[t % 3], "ante": 1,
              "bring_in": 2, "small_bet": 4, "big_bet": 8, "seats": players, "bots": 0},
        cookies={"stud_session": clients[0].cookie or ""},
    )  # fmt: skip
    table = int(response.json()["id"])
    for client in clients:
        await connect(client)
        await client.send({"type": "sit", "table": table, "buy_in": 400})
    return table, clients


async def connect(client: Client) -> None:
    """Open a client's websocket, tried again when its handshake times out (a loaded machine
    can take more than the client's 10 s to answer hundreds of them at once)."""
    for attempt in range(4):
        try:
            await client.connect()
            return
        except (TimeoutError, OSError):
            if attempt == 3:
                raise
            await asyncio.sleep(1.0 + attempt)


async def probe(server: ServerProcess, bench: Bench, rtts: list[float]) -> None:
    """The anchor: round trips of a bare ping through the same server and event loops.

    No table work is in a ping, so its percentiles show what the machine's load alone
    costs a message; the action figures are read against them.
    """
    client = Client(server.base)
    await client.connect()
    try:
        while time.monotonic() < bench.stop:
            await asyncio.sleep(0.05)
            if not bench.measuring:
                continue
            sent = time.monotonic()
            await client.send({"type": "ping"})
            await client.until(lambda m: m["type"] == "pong", timeout=30)
            rtts.append(time.monotonic() - sent)
    finally:
        await client.close()


def cpu_split(pid: int | None) -> tuple[float, float]:
    """(user, system) CPU seconds a process has used so far (Linux /proc), 0s if unknown."""
    if pid is None:
        return 0.0, 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    """Sample the server with py-spy (if installed) for ``seconds``: collapsed stacks to ``out``.

    ``--gil`` keeps only samples holding the GIL: the Python work that competes
    for the one core the event loop has (waits on the socket or disk are not in it).
    """
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("py-spy is not installed (pip install py-spy): no profile", file=sys.stderr)
        return None
    cmd = [spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "250",
           "--gil", "--nonblocking", "--format", "raw", "--output", str(out)]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def top_functions(collapsed: Path, count: int = 25) -> str:
    """The functions with the most samples, by own time and by cumulative time (in %)."""
    own: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    total = 0
    for line in collapsed.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        samples = int(n)
        total += samples
        frames = [_frame_name(f) for f in stack.split(";")]
        own[frames[-1]] += samples
        for frame in set(frames):
            cumulative[frame] += samples
    lines = [f"{total} samples holding the GIL", "own time:"]
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in own.most_common(count)]
    lines.append("cumulative time:")
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in cumulative.most_common(count)]
    return "\n".join(lines)


def _frame_name(frame: str) -> str:
    """``function (path:line)`` as ``function (module file)``: lines apart count as one."""
    name, _, where = frame.partition(" (")
    path = where.rsplit(":", 1)[0]
    for marker in ("site-packages/", "/src/", "/lib/python"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{name} ({path})"


def io_counts(pid: int | None) -> tuple[int, int]:
    """(write system calls, bytes written) a process has made so far (Linux /proc), 0s if unknown.

    On loopback each ``write(2)`` to a socket carries the kernel's whole delivery to
    the reader, charged to the server: the count per action shows what it pays.
    """
    if pid is None:
        return 0, 0
    try:
        fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    except OSError:
        return 0, 0
    return int(fields["syscw"]), int(fields["wchar"])


async def main_async(
    args: argparse.Namespace, server: ServerProcess, tables: int, profile_to: Path | None
) -> dict[str, Any]:
    bench = Bench(args.players, args.drain)
    think = (args.think_min, args.think_max)
    tasks: list[asyncio.Task[None]] = []
    clients: list[Client] = []
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            for first in range(0, tables, 10):
                batch = await asyncio.gather(
                    *(open_table(http, server, bench, t, args.players)
                      for t in range(first, min(first + 10, tables)))
                )  # fmt: skip
                for table, table_clients in batch:
                    for client in table_clients:
                        seat = Seat(client, table, bench)
                        tasks.append(asyncio.create_task(seat.run(think)))
                        clients.append(client)
        rtts: list[float] = []
        tasks.append(asyncio.create_task(probe(server, bench, rtts)))
        await asyncio.sleep(args.warmup)
        start = time.monotonic()
        bench.stop = start + args.seconds
        bench.measuring = True
        pid = server.proc.pid if server.proc else None
        print(f"{tables} tables: measuring for {args.seconds} s (server pid {pid})",
              file=sys.stderr, flush=True)  # fmt: skip
        spy = None if pid is None or profile_to is None else profile(pid, args.seconds, profile_to)
        (user, system), own_cpu = cpu_split(pid), time.process_time()
        writes, written = io_counts(pid)
        # The instrument's own collector pauses are not the server's latency: off while measuring.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            # The window's CPU is read when it closes; the drain after it only collects receipts.
            await asyncio.sleep(max(0.0, bench.stop - time.monotonic()))
            elapsed = time.monotonic() - start
            user_now, system_now = cpu_split(pid)
            user, system = user_now - user, system_now - system
            server_cpu, own_cpu = user + system, time.process_time() - own_cpu
            writes_now, written_now = io_counts(pid)
            writes, written = writes_now - writes, written_now - written
            await asyncio.gather(*tasks)
        finally:
            gc.enable()
            gc.unfreeze()
        if spy is not None:
            spy.wait(timeout=60)
    finally:
        # Also on a failure (a set-up that timed out on a loaded machine): every loop ends.
        bench.stop, bench.drain = min(bench.stop, time.monotonic()), 0.0
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        for task in tasks:
            task.cancel()
        for client in clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 5)
    lat = sorted(bench.latencies)
    if not lat:
        raise SystemExit("no action completed")
    return {
        "tables": tables,
        "clients": len(clients),
        "seconds": round(elapsed, 1),
        "actions": bench.actions,
        "actions_per_second": round(bench.actions / elapsed, 1),
        "p50_ms": round(1000 * percentile(lat, 0.5), 2),
        "p99_ms": round(1000 * percentile(lat, 0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2),
        "max_ms": round(1000 * lat[-1], 2),
        "ping_p50_ms": round(1000 * percentile(rtts, 0.5), 2),
        "ping_p99_ms": round(1000 * percentile(rtts, 0.99), 2),
        "p99_over_ping_p99": round(percentile(lat, 0.99) / percentile(rtts, 0.99), 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, bench.actions), 2),
        "server_system_ms_per_action": round(1000 * system / max(1, bench.actions), 2),
        "clients_cpu_share": round(own_cpu / elapsed, 2),
        "server_writes_per_action": round(writes / max(1, bench.actions), 2),
        "server_bytes_per_action": round(written / max(1, bench.actions)),
        "unanswered": len(bench.pending),
        "dropped_clients": bench.dropped,
    }


def run_one(args: argparse.Namespace, tables: int) -> dict[str, Any]:
    """One measurement: a fresh server on a fresh SQLite database, ``tables`` tables."""
    # Another hand factory (module:function) only while developing without the engine.
    factory = ("--hand-factory", args.hand_factory) if args.hand_factory else ()
    with tempfile.TemporaryDirectory() as folder, fresh_database("sqlite", Path(folder)) as url:
        server = ServerProcess(
            url, Path(folder),
            extra_args=("--no-default-tables", "--no-default-tournaments", "--pause", "0.5",
                        "--turn-seconds", "30",
                        "--signups", "1e9", *factory),  # every guest from one address
            env={"PYTHONPATH": args.server_src or str(Path(__file__).resolve().parent.parent)},
        ).start()  # fmt: skip
        profile_to = None
        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
            profile_to = args.profile / f"server-{tables}-tables.txt"
        try:
            # The clients' own loop is uvloop too (it comes with uvicorn[standard]), so the
            # instrument adds as little of its own delay as the server's loop does.
            result = uvloop.run(main_async(args, server, tables, profile_to))
        finally:
            server.stop()
    if profile_to is not None and profile_to.exists():
        print(f"profile of the server at {tables} tables ({profile_to}):")
        print(top_functions(profile_to))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--tables", type=int, nargs="+", default=[100, 200],
        help="table counts to measure in turn, each on a fresh server (100 200)",
    )  # fmt: skip
    parser.add_argument("--players", type=int, default=3, help="websocket bots per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think-min", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=0.6)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument(
        "--drain", type=float, default=10.0,
        help="seconds at most the clients read on after the window, for late receipts (10)",
    )  # fmt: skip
    parser.add_argument(
        "--p99-bound", type=float, default=50.0,
        help="the p99 (ms) each size must stay under for success (50)",
    )  # fmt: skip
    parser.add_argument(
        "--profile", type=Path, default=None, metavar="DIR",
        help="sample the server with py-spy while measuring; stacks to DIR",
    )  # fmt: skip
    parser.add_argument(
        "--server-src", default=None, metavar="DIR",
        help="run the server from this src/ tree (an export of an older commit, to compare)",
    )  # fmt: skip
    parser.add_argument("--hand-factory", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    results = []
    for tables in args.tables:
        result = run_one(args, tables)
        print(json.dumps(result), flush=True)
        results.append(result)
    ok = True
    for result in results:
        under = result["p99_ms"] < args.p99_bound
        ok = ok and under
        print(
            f"{result['tables']} tables, {result['clients']} websocket clients: "
            f"{result['actions_per_second']} actions/s, action->every client p50 "
            f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms "
            f"({'under' if under else 'OVER'} {args.p99_bound:g} ms); "
            f"anchor: a bare ping's round trip p50 {result['ping_p50_ms']} ms, p99 "
            f"{result['ping_p99_ms']} ms (action p99 = {result['p99_over_ping_p99']} x ping p99); "
            f"server CPU {result['server_cpu_ms_per_action']} ms per action "
            f"({result['server_cpu_share']} of a core); "
            f"{result['unanswered']} actions unanswered"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
