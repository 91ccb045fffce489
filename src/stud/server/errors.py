"""The room's refusal codes: each a stable machine ``code`` with its HTTP status and words.

Every error a REST endpoint answers is ``{"detail": "...", "code": "...", "params": {...}}``
(``params`` only when the words need values). The browser client words the ``code`` in
the page's language from its message catalogs (``error.<code>``, docs/i18n.md) and never
shows the server's English, which stays in ``detail`` for people calling the API by hand
and for logs. The codes share one namespace with the websocket's errors
(``TableError``/``ProtocolError``): ``login_required`` and ``no_table`` mean the same on
both. :data:`CODES` lists them all with their status (docs/rest.md, "REST errors").

:class:`Refusal` carries a code out of code that knows nothing of HTTP (a name's rules,
an account's quota); :class:`stud.server.http.errors.RestError` is the HTTP answer. A code
not in :data:`CODES` is a programming error, caught by the constructors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# code -> (HTTP status, what it means)
CODES: Final[dict[str, tuple[int, str]]] = {
    # the request itself
    "invalid_input": (
        422,
        "the body or a parameter is not of the documented shape; detail lists the fields",
    ),
    "bad_unicode": (422, "a text is not valid Unicode (a lone surrogate)"),
    "control_character": (422, "a name contains a line break or another control character"),
    "cross_site": (403, "a state-changing request from a page of another site"),
    "not_found": (404, "no such address"),
    "method_not_allowed": (405, "the address does not take this method"),
    "http_error": (400, "any other refusal of the HTTP layer"),
    "internal": (500, "something went wrong on the server; the error is logged"),
    # accounts
    "login_required": (401, "log in or play as a guest first"),
    "wrong_password": (401, "wrong name or password"),
    "name_length": (422, "an account name is min to max characters long"),
    "name_characters": (
        422,
        "an account name uses letters of any script, digits, '-', '_', '.' and single spaces",
    ),
    "name_invisible": (422, "an account name holds an invisible character (zero-width, bidi)"),
    "name_mixed_script": (422, "an account name mixes scripts, as look-alikes do; params: scripts"),
    "name_reserved": (422, "the name, or its start (Bot, Guest), is the room's own, in any script"),
    "name_taken": (409, "another account has that name (case, width and look-alikes aside)"),
    "not_a_guest": (409, "only a guest account can be registered in place"),
    "too_many_logins": (
        429,
        "too many failed logins from this client, at this name or at all; Retry-After",
    ),
    "common_password": (422, "the new password is a common one, or the account's name"),
    "too_many_sockets": (429, "the account or address has as many websockets open as it may"),
    "logged_out": (401, "the account logged out everywhere: its websockets are closed"),
    "too_many_signups": (429, "too many new accounts from this address; Retry-After"),
    "server_busy": (503, "too many passwords being checked at once; Retry-After"),
    "unknown_language": (422, "not one of the client's languages"),
    # tables
    "table_name_length": (422, "a table name is 1 to max characters long"),
    "unknown_game": (422, "the game is not stud, stud8 or razz"),
    "unknown_bot_kind": (422, "no bots of that kind"),
    "bad_table_settings": (422, "stakes or size the engine refuses; detail says which"),
    "table_limit": (403, "the account has as many open tables as it may"),
    "bot_limit": (403, "the account's tables would hold more bots than it may keep"),
    "no_table": (404, "no such table"),
    "not_table_owner": (403, "only the account that opened a table may close it"),
    "unavailable": (503, "a shared room's table is moving between processes; Retry-After"),
    # hands
    "no_hand": (404, "no finished hand with that id"),
    "void_hand": (404, "the hand was void: it has no history"),
    "replay_failed": (409, "the stored history cannot be replayed"),
}

Params = Mapping[str, int | str]


class Refusal(ValueError):
    """A request refused for a reason with a code (a name's rules, a quota): the message is
    the English words, ``params`` the values a client's words need (``{"max": 20}``)."""

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        if code not in CODES:
            raise KeyError(f"unknown error code {code!r}: add it to stud.server.errors.CODES")
        super().__init__(message)
        self.code = code
        self.params: dict[str, int | str] = dict(params or {})


def error_body(code: str, detail: object, params: Params | None = None) -> dict[str, object]:
    """The JSON of an error answer."""
    body: dict[str, object] = {"detail": detail, "code": code}
    if params:
        body["params"] = dict(params)
    return body
