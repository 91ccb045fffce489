"""The websocket protocol's client messages: size limit, JSON, and a strict shape per type.

Every client message is one JSON object with a ``type``; the fields each type
takes are listed in :data:`FIELDS` (docs/protocol.md has an example of each).
Anything else is refused with a :class:`ProtocolError` whose ``code`` goes back
to the client in an ``error`` message; nothing is changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from stud.server.trust.names import check_text

MAX_MESSAGE_BYTES: Final = 4096
"""Longer messages are refused with ``too_large`` (the transport closes at 64 KiB)."""
MAX_FRAME_BYTES: Final = 65536

MAX_TEXT_CHARS: Final = 1000
"""A ``text`` field's longest value here; chat's own, shorter cap gives a clearer error."""

# type -> {field: (kind, required)}; kind is 'int', 'str' (at most 32 characters), 'text'
# (at most MAX_TEXT_CHARS), 'bool', 'int?' (an int or null) or
# 'hex' (1 to 64 lowercase hex digits: a commitment or a player's seed), 'table' (a cash
# table's number, or a tournament table's id such as "t7.2").
FIELDS: Final[dict[str, dict[str, tuple[str, bool]]]] = {
    "ping": {},
    "watch": {"table": ("table", True), "since": ("int?", False)},
    "unwatch": {"table": ("table", True)},
    "sit": {
        "table": ("table", True),
        "seat": ("int?", False),
        "buy_in": ("int", True),
        "auto_rebuy": ("bool", False),
        "muck_losing_hands": ("bool", False),
    },
    "leave": {"table": ("table", True)},
    "sit_out": {"table": ("table", True)},
    "sit_in": {"table": ("table", True)},
    "act": {
        "table": ("table", True),
        "action": ("str", True),
        "to": ("int", False),
        "turn": ("int", True),
    },
    "top_up": {"table": ("table", True), "amount": ("int", True)},
    "auto_rebuy": {"table": ("table", True), "on": ("bool", True)},
    "muck_losing_hands": {"table": ("table", True), "on": ("bool", True)},
    "sit_out_bring_in": {"table": ("table", True), "on": ("bool", True)},
    "chat": {"table": ("table", True), "text": ("text", True)},
    "wait": {"table": ("table", True), "buy_in": ("int", True)},
    "unwait": {"table": ("table", True)},
    "seed": {"table": ("table", True), "commitment": ("hex", True), "seed": ("hex", True)},
    "watch_tournament": {"tournament": ("int", True)},
    "unwatch_tournament": {"tournament": ("int", True)},
}
ACTIONS: Final = frozenset({"fold", "check", "call", "bring-in", "complete", "bet", "raise"})
"""The engine's action kinds (``stud.game.ActionKind``), as the table's legal actions name them."""


class ProtocolError(ValueError):
    """A message refused before it reached a table; ``code`` names the reason."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref


@dataclass(frozen=True, slots=True)
class Message:
    """A well-formed client message: its type, fields and the client's optional ``id``."""

    type: str
    fields: dict[str, Any]
    ref: str | int | None = None


_HEX: Final = re.compile(r"[0-9a-f]{1,64}")
TOURNAMENT_TABLE: Final = re.compile(r"t([0-9]{1,15})\.([0-9]{1,6})")
"""A tournament table's id: ``t<tournament>.<table>``."""
KINDS: Final = {
    "int": "int",
    "int?": "int?",
    "str": "str",
    "hex": "1 to 64 lowercase hex digits",
    "text": f"a string of at most {MAX_TEXT_CHARS} characters",
    "bool": "true or false",
    "table": 'a table number or a tournament table id such as "t7.2"',
}
"""How an error message names each kind of field."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def parse(text: str | bytes) -> Message:
    """Check one client message; ProtocolError (too_large, bad_json, bad_message, ...) if wrong."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "send JSON text frames, not binary")
    # A character is at most 4 bytes of UTF-8 (a lone surrogate, replaced, is 1): a message of
    # at most a quarter of the limit in characters is not encoded to be measured.
    if (
        len(text) * 4 > MAX_MESSAGE_BYTES
        and len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES
    ):
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = _loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    if not text.isascii() or "\\u" in text:  # else no lone surrogate can be in it
        _check_unicode(data)
    ref = data.get("id")
    if ref is not None and not (
        (isinstance(ref, str) and len(ref) <= 64) or (_is_int(ref) and not isinstance(ref, bool))
    ):
        raise ProtocolError("bad_message", "id must be a short string or an integer")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string 'type'", ref)
    spec = FIELDS.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}", ref)
    fields: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("type", "id"):
            continue
        want = spec.get(name)
        if want is None:
            raise ProtocolError("bad_message", f"{kind}: unknown field {name[:40]!r}", ref)
        if not _CHECKS[want[0]](value):
            raise ProtocolError("bad_message", f"{kind}: {name} must be {KINDS[want[0]]}", ref)
        fields[name] = value
    required = _REQUIRED[kind]
    if not required.issubset(fields):
        missing = [name for name, (_, needed) in spec.items() if needed and name not in fields]
        raise ProtocolError("bad_message", f"{kind}: missing {', '.join(missing)}", ref)
    if kind == "act":
        fields.setdefault("to", 0)
        if fields["action"] not in ACTIONS:
            raise ProtocolError("illegal_action", f"unknown action {fields['action']!r}", ref)
    return Message(kind, fields, ref)


def _loads(text: str) -> Any:
    """JSON text's value, as :func:`json.loads` reads it but for integers past 64 bits.

    orjson reads a message several times faster; what it refuses (``NaN``, a lone
    surrogate's escape, deep nesting, bad JSON) goes to :func:`json.loads`, which takes a
    superset of what orjson takes, so it is read or refused with the same words as
    before. The one difference: orjson reads an integer past 64 bits as a float; no
    field takes a float or an integer past 2**53, so such a message is refused the same.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _is_int_or_null(value: Any) -> bool:
    return value is None or _is_int(value)


def _is_short(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 32


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT_CHARS


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_hex(value: Any) -> bool:
    return isinstance(value, str) and _HEX.fullmatch(value) is not None


def _is_table(value: Any) -> bool:
    return _is_int(value) or tournament_table(value) is not None


_CHECKS: Final[dict[str, Callable[[Any], bool]]] = {
    "int": _is_int,
    "int?": _is_int_or_null,
    "str": _is_short,
    "text": _is_text,
    "bool": _is_bool,
    "hex": _is_hex,
    "table": _is_table,
}
"""Each field kind's check (the kinds of :data:`FIELDS`)."""
_REQUIRED: Final = {
    kind: frozenset(name for name, (_, needed) in spec.items() if needed)
    for kind, spec in FIELDS.items()
}


def tournament_table(value: Any) -> tuple[int, int] | None:
    """(tournament, table) of a tournament table's id such as ``"t7.2"``; None if it is not one."""
    if not isinstance(value, str):
        return None
    match = TOURNAMENT_TABLE.fullmatch(value)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def _check_unicode(data: dict[str, Any]) -> None:
    """ProtocolError if a field name or text value is not valid Unicode (a lone surrogate).

    JSON's ``"\\ud800"`` decodes to a string no encoder can write back: refused
    here, before anything could echo it. (Nested values are refused by their
    field's type anyway, and never echoed.)
    """
    for key, value in data.items():
        where = f"field {key!r}" if key.isascii() else "a field name"
        try:
            check_text(key, "a field name")
            if isinstance(value, str):
                check_text(value, where)
        except ValueError as error:
            raise ProtocolError("bad_message", str(error)) from None
