"""A table's step as the room sends it, alone in one process: instructions and CPU per action.

Runs hands at tables of three seated guests (and ``--spectators`` watchers),
each step's events published and its states sent as :class:`TableActor` does,
into watchers that only keep the texts: no sockets, no database, no other
load. This is the event loop's share of bench_server's work that grows with
what each action shows (docs/performance.md), measured without the
machine's noise. It prints thread CPU time per action, with the cost of
``orjson.dumps`` of one state measured in the same run as an anchor; with
``--callgrind`` it runs itself under valgrind's callgrind (Debian's
``valgrind``), counting only the measured steps, and prints instructions per
action, which do not move with the machine's load.

``--server-src DIR ...`` runs each tree's code in turn (an export of an older
commit with its compiled ``.so`` files), to compare; the first is the anchor
of the ratios.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any


class Watcher:
    """A connection as the actor sees it: it keeps the last text sent."""

    def __init__(self, account: int | None) -> None:
        self.account_id = account
        self.count = 0

    def send(self, text: str) -> None:
        self.count += 1


def build(game: str, spectators: int, seed: int) -> tuple[Any, Any]:
    from stud.server.actors.table import TableActor
    from stud.server.room.room import RoomConfig
    from stud.server.storage import TableSpec
    from stud.table import Table, TableSettings
    from stud.table.engine import start_engine_hand

    settings = TableSettings(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=6,
        pause_between_hands=0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=seed, label=str(seed))
    spec = TableSpec(
        name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=6, bots=0,
        min_buy_in=0, max_buy_in=0, id=seed,
    )  # fmt: skip
    actor = TableActor(types.SimpleNamespace(config=RoomConfig(seed=seed)), spec, table)
    for account in (11, 12, 13):
        actor.watchers[Watcher(account)] = None
        table.sit(account, f"p{account}", 10**9, 0.0)
    for _ in range(spectators):
        actor.watchers[Watcher(None)] = None
    return actor, table


def step(actor: Any, table: Any, now: float) -> int:
    """The table's next step (a deal when due, else check or call), published and sent;
    1 if it was an action."""
    from stud.table import Event

    if table.hand is None:
        outs, acted = table.tick(now), 0
    else:
        seat = table.actor_seat
        player = table.seats[seat]
        legal = {a.action: a.to for a in table.legal()}
        action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
        outs, acted = table.act(player.id, action, legal[action], table.turn_id, now), 1
    events = [out for out in outs if isinstance(out, Event)]
    for event in events:
        actor._publish(event)
    if events:
        actor.send_states()
    return acted


def child(args: argparse.Namespace) -> None:
    """Play the tables from one tree's code; print the actions, their CPU time and the
    anchor (with ``--callgrind``, callgrind counts only the measured steps)."""
    if args.server_src[0]:
        sys.path.insert(0, os.path.abspath(args.server_src[0]))
    games = ("stud", "stud8", "razz")
    tables = [build(games[t % 3], args.spectators, 1000 + t) for t in range(args.tables)]
    now = 1.0
    warm = 0
    while warm < args.warm:  # as a server that has run a while: every cache it fills, filled
        for actor, table in tables:
            warm += step(actor, table, now)
        now += 1.0
    if args.callgrind:
        callgrind("on")
    start = time.thread_time()
    done = 0
    while done < args.actions:
        for actor, table in tables:
            done += step(actor, table, now)
        now += 1.0
    spent = time.thread_time() - start
    if args.callgrind:
        callgrind("off")
    import orjson

    view = tables[0][1].view(None)
    begun = time.thread_time()
    for _ in range(2000):
        orjson.dumps(view)
    anchor = (time.thread_time() - begun) / 2000
    print(f"actions {done} cpu {spent} anchor {anchor}")


def callgrind(state: str) -> None:
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True,
                   capture_output=True)  # fmt: skip


def measure(args: argparse.Namespace, src: str | None) -> tuple[float, float, int]:
    """One tree in a process of its own: (CPU seconds per action, anchor seconds,
    instructions per action or 0 without ``--callgrind``)."""
    argv = [sys.argv[0], "--child", "--actions", str(args.actions), "--tables",
            str(args.tables), "--spectators", str(args.spectators), "--warm",
            str(args.warm)]  # fmt: skip
    argv += ["--server-src", src] if src else []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        prefix = []
        if args.callgrind:
            argv.append("--callgrind")
            prefix = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                      f"--callgrind-out-file={out}"]  # fmt: skip
        done = subprocess.run(
            [*prefix, sys.executable, *argv], capture_output=True, text=True, check=True
        )
        found = re.findall(r"^actions (\d+) cpu (\S+) anchor (\S+)$", done.stdout, re.M)
        actions, cpu, anchor = int(found[-1][0]), float(found[-1][1]), float(found[-1][2])
        total = sum(
            int(m.group(1))
            for path in Path(folder).glob("callgrind.out*")
            if (m := re.search(r"^totals: (\d+)", path.read_text(), re.M))
        )
        return cpu / actions, anchor, total // actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=30, help="tables played in turn (30)")
    parser.add_argument("--spectators", type=int, default=0, help="watchers per table (0)")
    parser.add_argument("--warm", type=int, default=2000, help="actions before measuring")
    parser.add_argument("--server-src", nargs="+", default=[None], metavar="DIR")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    first: tuple[float, int] | None = None
    for src in args.server_src:
        cpu, anchor, count = measure(args, src)
        first = first or (cpu, count)
        line = f"{src or 'src'}: {cpu * 1e6:.1f} us of CPU per action (x{cpu / first[0]:.2f})"
        if count:
            line += f", {count:,} instructions per action (x{count / first[1]:.2f})"
        print(f"{line}; anchor: one state encoded {anchor * 1e6:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
