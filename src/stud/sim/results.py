"""A duplicate session summed up, and the results file that keeps one per line.

A long gauntlet (100,000 hands a match) does not fit one sitting on a
shared machine, so every session played is summed up as a
:class:`SessionRecord` (the hero's per-deal moments, raw and luck-adjusted,
the chips, the CPU time) and appended to a JSON-lines file as soon as it
ends. A run that finds its sessions already in the file reuses them: an
interrupted run resumes where it stopped, a run with more ``--deals`` plays
only the new sessions, and runs with other seeds add independent deals that
the report pools. Sessions are seeded by (seed, first deal), so a record is
the same whoever played it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from stud.sim.duplicate import PLAYS, MatchConfig, play_match_session
from stud.sim.stats import Moments, Rate
from stud.sim.workers import Progress

VERSION = 1
LUCK_MODEL = "allin-v1"
"""Names the value function of :mod:`stud.sim.luck`; records of another one do not mix."""

MatchKey = tuple[str, str, str, int, int, str, int, int, str, str]
"""game, hero, villain, seats, seed, stakes, stack, session size, luck model ('' for none), code."""

_PLAY = ("bots", "game", "evaluate", "sim/luck.py")
"""What decides a record's numbers: the bots, the rules engine, the evaluators, V."""


@cache
def code_version() -> str:
    """A fingerprint of the code that plays and measures (:data:`_PLAY`): 12 hex digits.

    Records of other code (a bot changed since, say) are neither reused nor
    pooled with these: they measured something else.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for part in _PLAY:
        path = root / part
        for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(source.relative_to(root).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One session of one duplicate match, summed up from the hero's side."""

    game: str
    hero: str
    villain: str
    seats: int
    seed: int
    stakes: str
    stack: int
    session: int
    start: int
    deals: int
    luck: str
    """The luck model measured (:data:`LUCK_MODEL`), or '' when luck was not measured."""
    raw: Moments
    """The hero's big bets per hand per seat, one draw per deal."""
    adjusted: Moments | None
    chips: int
    """Every player's net chips added up: 0 when chips were conserved."""
    cpu: float = 0.0
    """CPU seconds the session took where it was played."""
    code: str = ""
    """The :func:`code_version` that played it."""

    @property
    def match(self) -> MatchKey:
        return (self.game, self.hero, self.villain, self.seats, self.seed,
                self.stakes, self.stack, self.session, self.luck, self.code)  # fmt: skip

    @property
    def hands(self) -> int:
        return self.deals * PLAYS

    def to_json(self) -> str:
        data: dict[str, Any] = {"v": VERSION}
        for name in ("game", "hero", "villain", "seats", "seed", "stakes", "stack", "session"):
            data[name] = getattr(self, name)
        data |= {"start": self.start, "deals": self.deals, "luck": self.luck,
                 "raw": self.raw.to_list(), "chips": self.chips, "cpu": round(self.cpu, 3),
                 "code": self.code,
                 "adjusted": self.adjusted.to_list() if self.adjusted else None}  # fmt: skip
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> SessionRecord:
        """Parse one line; ValueError naming what is wrong."""
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON: {error.msg}") from None
        if not isinstance(data, dict):
            raise ValueError("a record is a JSON object")
        if data.get("v") != VERSION:
            raise ValueError(f"unknown record version {data.get('v')!r} (this reads {VERSION})")
        text = {k: _field(data, k, str) for k in ("game", "hero", "villain", "stakes", "luck")}
        text["code"] = _field(data | {"code": data.get("code", "")}, "code", str)
        whole = {k: _field(data, k, int) for k in ("seats", "seed", "stack", "session", "start",
                                                   "deals", "chips")}  # fmt: skip
        raw = Moments.from_list(data.get("raw"))
        adjusted = None if data.get("adjusted") is None else Moments.from_list(data["adjusted"])
        cpu = data.get("cpu", 0.0)
        if not isinstance(cpu, int | float) or cpu < 0:
            raise ValueError(f"cpu must be seconds >= 0, not {cpu!r}")
        if raw.count != whole["deals"] or (adjusted and adjusted.count != whole["deals"]):
            raise ValueError("the moments do not count the session's deals")
        if (adjusted is None) != (text["luck"] == ""):
            raise ValueError("a record has adjusted moments exactly when it names a luck model")
        return cls(**text, **whole, raw=raw, adjusted=adjusted, cpu=float(cpu))


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"field {name!r} must be {kind.__name__}, not {value!r}")
    return value


def match_key(config: MatchConfig) -> MatchKey:
    return (config.game, config.hero, config.villain, config.seats, config.seed,
            str(config.stakes), config.stack_big_bets, config.session,
            LUCK_MODEL if config.luck else "", code_version())  # fmt: skip


def play_session_record(
    config: MatchConfig, start: int, count: int, progress: Progress | None = None
) -> SessionRecord:
    """Play one session of a match and sum it up (a worker process returns only this)."""
    began = time.process_time()
    played = play_match_session(config, start, count, progress)
    big = config.stakes.big_bet
    raw = played.net[:, :, 0::2].mean(axis=(1, 2)) / big
    adjusted = None
    if played.luck is not None:
        luck = played.luck[:, :, 0::2].mean(axis=(1, 2)) / big
        adjusted = Moments.of(np.asarray(raw - luck, dtype=np.float64))
    game, hero, villain, seats, seed, stakes, stack, session, model, code = match_key(config)
    return SessionRecord(game, hero, villain, seats, seed, stakes, stack, session, start, count,
                         model, Moments.of(raw), adjusted, int(played.net.sum()),
                         time.process_time() - began, code)  # fmt: skip


def load_records(path: Path) -> list[SessionRecord]:
    """Every record in a results file (none if it does not exist); ValueError naming the line.

    A last line without its newline is a write cut short (the run was killed
    while saving): it is skipped, and :func:`append_record` writes over it.
    """
    if not path.exists():
        return []
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    lines = text.split("\n")
    cut = lines.pop()  # "" after a final newline; else a record cut short
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(SessionRecord.from_json(line))
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    whole = _whole(cut)
    if whole is not None:
        out.append(whole)  # only its newline was lost
    return out


def _whole(line: str) -> SessionRecord | None:
    """The record on a line, or None if it is cut short (or empty)."""
    try:
        return SessionRecord.from_json(line) if line.strip() else None
    except ValueError:
        return None


def append_record(path: Path, record: SessionRecord) -> None:
    """Add one record at the end of the file, flushed: a crash after it keeps it.

    A last line cut short by an earlier crash is dropped first (one whose
    newline alone is missing gets it back), so the new record starts a line.
    """
    with path.open("a+b") as out:
        size = out.seek(0, 2)
        out.seek(max(0, size - 65536))
        tail = out.read()
        start = tail.rfind(b"\n") + 1
        if start < len(tail):  # no newline at the end
            if _whole(tail[start:].decode("utf-8", errors="replace")) is None:
                out.truncate(size - len(tail) + start)
            else:
                out.write(b"\n")
        out.seek(0, 2)
        out.write((record.to_json() + "\n").encode("utf-8"))
        out.flush()


def latest(records: Iterable[SessionRecord]) -> dict[tuple[MatchKey, int], SessionRecord]:
    """One record per (match, first deal): the longest, since a shorter one is its prefix."""
    kept: dict[tuple[MatchKey, int], SessionRecord] = {}
    for record in records:
        key = (record.match, record.start)
        if key not in kept or record.deals > kept[key].deals:
            kept[key] = record
    return kept


@dataclass(frozen=True, slots=True)
class Pooled:
    """Sessions of one pairing pooled: the hero's raw and adjusted rates, chips, CPU time."""

    rate: Rate
    adjusted: Rate | None
    chips: int
    cpu: float


def pool(records: Iterable[SessionRecord]) -> Pooled:
    """The records' deals taken together (they must be of one pairing and table size)."""
    items = list(records)
    if not items:
        raise ValueError("nothing to pool")
    if len({(r.game, r.hero, r.villain, r.seats, r.stakes, r.code) for r in items}) != 1:
        raise ValueError("records of different matches do not pool")
    first = items[0]
    raw = sum((r.raw for r in items), Moments())
    hands = sum(r.hands for r in items)
    total_bb = raw.total * PLAYS * first.seats / 2
    rate = raw.rate(first.hero, first.hero, hands, total_bb)
    adjusted = None
    if all(r.adjusted is not None for r in items):
        moments = sum((r.adjusted for r in items if r.adjusted is not None), Moments())
        adjusted = moments.rate(first.hero, first.hero, hands, total_bb)
    return Pooled(rate, adjusted, sum(r.chips for r in items), sum(r.cpu for r in items))
