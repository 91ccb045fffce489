"""Table chat: what a message may say and how often an account may send one.

A chat line is plain text: at most :data:`MAX_CHARS` characters once
whitespace is tidied, control and format characters dropped (a line break
or a tab becomes a space), valid Unicode. It is stored and
sent as text and never as markup (the client writes it with ``textContent``),
so ``<script>`` in a message is shown, not run. Each account may send
:data:`BURST` lines at once and then one every ``1 / RATE`` seconds at each
table; a faster line is refused with ``chat_rate_limited``. An account the room muted
(:class:`ChatGuard`, stud.server.room.moderation) is refused with ``chat_muted`` and told
until when; each table's last :data:`CONTEXT_LINES` lines are kept, the context a player's
report of a line carries to the moderators.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from typing import Any, Protocol

from stud.server.storage.moderation import until_words
from stud.server.trust.names import check_text
from stud.server.trust.ratelimit import TokenBucket
from stud.table import TableError

MAX_CHARS = 200
RATE = 0.5
"""Chat lines per second per account and table, on average (one every two seconds)."""
BURST = 5.0
_SPACES = re.compile(r"\s+")
CONTEXT_LINES = 20
"""The chat lines a table keeps for a report's context."""


class ChatGuard(Protocol):
    """Who may not chat now (the room's moderation)."""

    def muted_until(self, account_id: int) -> float | None:
        """When the account's mute ends (a wall-clock time), or None if it may chat."""
        ...


class Muted(TableError):
    """``chat_muted``: the account may not chat until ``params["until"]`` (UTC)."""

    def __init__(self, until: float) -> None:
        stamp = until_words(until)
        super().__init__("chat_muted", f"you are muted until {stamp}")
        self.params = {"until": stamp}


def clean_text(text: str) -> str:
    """The line as it is kept and shown; TableError naming the problem if it cannot be sent."""
    try:
        check_text(text, "the message")
    except ValueError as error:
        raise TableError("chat_bad_text", str(error)) from None
    spaced = _SPACES.sub(" ", text)
    line = "".join(c for c in spaced if unicodedata.category(c) not in ("Cc", "Cf", "Co")).strip()
    if not line:
        raise TableError("chat_empty", "the message is empty")
    if len(line) > MAX_CHARS:
        raise TableError(
            "chat_too_long", f"a chat message is at most {MAX_CHARS} characters ({len(line)} sent)"
        )
    return line


class ChatLimiter:
    """One token bucket per account at one table."""

    def __init__(
        self, rate: float = RATE, burst: float = BURST, guard: ChatGuard | None = None
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.guard = guard
        self._buckets: dict[int, TokenBucket] = {}
        self._recent: dict[int | str, deque[dict[str, Any]]] = {}

    def admit(self, account_id: int, now: float) -> None:
        """Spend one line of ``account_id``'s budget, or raise ``chat_rate_limited``
        (``chat_muted`` if the room muted the account)."""
        until = None if self.guard is None else self.guard.muted_until(account_id)
        if until is not None:
            raise Muted(until)
        bucket = self._buckets.get(account_id)
        if bucket is None:
            bucket = self._buckets[account_id] = TokenBucket(self.rate, self.burst)
        wait = bucket.take(now)
        if wait > 0:
            raise TableError(
                "chat_rate_limited",
                f"too many chat messages: wait {wait:.1f} s (at most {int(self.burst)} at once, "
                f"then one every {1 / self.rate:g} s)",
            )

    def keep(self, key: int | str, line: dict[str, Any]) -> None:
        """Remember a line said at table ``key`` (its account_id, name, text, at)."""
        recent = self._recent.get(key)
        if recent is None:
            recent = self._recent[key] = deque(maxlen=CONTEXT_LINES)
        recent.append(line)

    def context(self, key: int | str) -> list[dict[str, Any]]:
        """The last lines said at table ``key``, oldest first."""
        return list(self._recent.get(key, ()))
