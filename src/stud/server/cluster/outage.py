"""Which failures of a shared room's background work mean "out of reach for now".

A PostgreSQL or SQLite outage (:func:`stud.server.storage.outage.unavailable`), and a
Redis connection refused, cut, timed out or closed: by a Redis restart, or by this
process closing its own client as it stops while a command was on the wire. These
are expected in operation and logged in one line; anything else is a fault and keeps
its traceback.
"""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeout

from stud.server.storage.outage import unavailable


def redis_away(error: BaseException) -> bool:
    """Whether ``error`` means Redis cannot be reached now (refused, cut, timed out, closed)."""
    return isinstance(error, RedisConnectionError | RedisTimeout)


def out_of_reach(error: BaseException) -> bool:
    """Whether ``error`` means the database or Redis cannot be reached now (and may be later)."""
    return unavailable(error) or redis_away(error)


def first_line(error: BaseException) -> str:
    """The error in one line (its type's name when it has no message)."""
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def log_failure(log: logging.Logger, error: BaseException, what: str, *args: object) -> None:
    """``what`` failed with ``error``: one warning line if it is out of reach, else the
    error with its traceback."""
    if out_of_reach(error):
        log.warning(what + ": %s", *args, first_line(error))
    else:
        log.error(what, *args, exc_info=error)
