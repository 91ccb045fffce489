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
    "server_busy": (
        503,
        "too many passwords being checked, uploads read or equities counted at once; Retry-After",
    ),
    "unknown_language": (422, "not one of the client's languages"),
    "free_chips_not_low": (409, "the account's chips are not below the free top-up's threshold"),
    "free_chips_too_soon": (429, "one free top-up per period: params next_at; Retry-After"),
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
    # the operator's desk (docs/admin.md)
    "staff_only": (403, "only a moderator or an admin may do this"),
    "admin_only": (403, "only an admin may do this"),
    "account_banned": (403, "the account is banned; params: until (a UTC time, or 'forever')"),
    "chat_muted": (403, "the account may not chat until params.until (websocket chat)"),
    "no_account": (404, "no account of that name"),
    "bad_role": (422, "a role is player, moderator or admin"),
    "bad_grant": (422, "a grant is a non-zero whole number of chips, within bounds"),
    "below_zero": (409, "the deduction would take the balance below zero; params: balance"),
    "bad_until": (422, "a ban's or mute's end is not a time in the future"),
    "no_reason": (422, "an action of the desk needs a reason"),
    "no_report": (404, "no open report with that id"),
    "nothing_to_report": (422, "report a player at a table you are at"),
    "records_unavailable": (503, "the room is reconnecting to its records (the database)"),
    # hands
    "no_hand": (404, "no finished hand with that id"),
    "void_hand": (404, "the hand was void: it has no history"),
    "replay_failed": (409, "the stored history cannot be replayed"),
    # imported hands (POST /api/me/imports): the upload as a whole ...
    "not_multipart": (422, "an upload is sent as multipart/form-data"),
    "no_files": (422, "the upload holds no file"),
    "upload_too_large": (413, "an upload is at most max bytes; params: max"),
    "too_many_files": (413, "an upload holds at most max files; params: max, count"),
    "too_many_hands": (413, "an upload holds at most max hands; params: max, count"),
    # ... and each file or hand refused in the import's answer (``refused``: its code)
    "import_encoding": (422, "a file is not UTF-8 text"),
    "import_not_pokerstars": (422, "a file holds no PokerStars hand"),
    "import_wrong_game": (422, "a hand is not of Stud, Stud Hi/Lo or Razz"),
    "import_unreadable": (422, "a hand cannot be read; detail and line say where"),
    "import_not_replayable": (422, "a hand breaks the rules when replayed; detail says how"),
    "import_duplicate": (409, "a hand already among the account's imported hands"),
    "import_quota": (403, "the account keeps as many imported hands as it may"),
    "import_time_limit": (503, "the upload's reading time was up before this hand: send it again"),
    # players: notes and stats
    "no_player": (404, "no player with that account id"),
    "note_too_long": (422, "a note is at most max characters"),
    "unknown_color": (422, "not one of the note's colour tags"),
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
