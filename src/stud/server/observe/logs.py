"""The operator's log lines: one a line, plain text or JSON lines, each naming the process
and, where one applies, the table, hand and tournament.

Code that logs an event passes its place as ``extra`` (:func:`at`): ``log.info("table
opened", extra=at(table=7))``. Nothing secret is ever passed: no card of a hand, no
password, no session token (tests/test_observe_logs.py greps a run's log for them).
A burst of refusals of one code is one line (:func:`refused`), not one per refusal.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import time
import traceback
from typing import Any, Final

from stud.server.observe.metrics import REFUSALS

PLACES: Final = ("table", "hand", "tournament")
"""The fields a line may name, beside its process."""

PROCESS: Final = f"{socket.gethostname()}:{os.getpid()}"
"""This process, as its lines name it (host and pid)."""

log = logging.getLogger("stud.server")


def at(
    table: int | str | None = None, hand: int | None = None, tournament: int | None = None
) -> dict[str, Any]:
    """A log call's ``extra``: where the event happened (None: not a place it has)."""
    return {"table": table, "hand": hand, "tournament": tournament}


SECRETS: Final = (
    (re.compile(r"(?i)\b(cookie|set-cookie|authorization)(\s*[:=]\s*)\S.*"), r"\1\2<redacted>"),
    (re.compile(r"stud_session=[^;\s\"',]+"), "stud_session=<redacted>"),
)
"""What no line may hold, whoever logs it: a session cookie or credentials in a header
(uvicorn's debug level prints a websocket handshake's headers)."""


def _message(record: logging.LogRecord) -> str:
    """The record's message with any secret blanked (:data:`SECRETS`)."""
    text = record.getMessage()
    for pattern, blank in SECRETS:
        text = pattern.sub(blank, text)
    return text


def _places(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k in PLACES if (v := getattr(record, k, None)) is not None}


class PlainFormatter(logging.Formatter):
    """``2026-01-02 03:04:05,678 INFO stud.server host:123 table=7 hand=42 the message``."""

    def format(self, record: logging.LogRecord) -> str:
        where = " ".join(f"{k}={v}" for k, v in _places(record).items())
        line = (
            f"{self.formatTime(record)} {record.levelname} {record.name} {PROCESS}"
            f"{' ' + where if where else ''} {_message(record)}"
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, process, the places, the message, and the
    traceback of an error (as one string)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "process": PROCESS,
            **_places(record),
            "message": _message(record),
        }
        if record.exc_info:
            line["traceback"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


FORMATS: Final = {"plain": PlainFormatter, "json": JsonFormatter}


def setup_logging(level: str = "warning", log_format: str = "plain") -> None:
    """Log to standard error in ``log_format``: the room's own events (``stud.*``) from INFO
    up, other libraries' (uvicorn's) from ``level`` up."""
    handler = logging.StreamHandler()
    handler.setFormatter(FORMATS[log_format]())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    chosen = getattr(logging, level.upper(), logging.WARNING)
    root.setLevel(chosen)
    logging.getLogger("stud").setLevel(min(chosen, logging.INFO))


BURST: Final = 20
"""Refusals of one code within :data:`BURST_SECONDS` that make a burst worth a line."""
BURST_SECONDS: Final = 60.0


class _Bursts:
    """Refusals by code in the current window: a line when a code reaches :data:`BURST`."""

    def __init__(self) -> None:
        self.window = 0.0
        self.counts: dict[str, int] = {}

    def count(self, code: str, now: float) -> None:
        if now - self.window > BURST_SECONDS:
            self.window, self.counts = now, {}
        seen = self.counts.get(code, 0) + 1
        self.counts[code] = seen
        if seen == BURST:
            log.warning(
                "refusal burst: %s refused %d times within %.0f s", code, seen, BURST_SECONDS
            )


_bursts = _Bursts()


def refused(code: str) -> None:
    """Count a refusal (REST or websocket) by its code: the metric, and the burst's line."""
    REFUSALS.labels(code).inc()
    _bursts.count(code, time.monotonic())
