"""What a new password may not be: one of the passwords people use most, or the name itself.

A guesser tries the common passwords first (``12345678``, ``password1``, ``qwerty``): the
throttle on failed logins slows it, but a password on that list falls within its first
tries. The list is zxcvbn's (the ~30,000 passwords most found in leaks, as the package
ships it; nothing is fetched), compared without case; a password that is the account's
own name is refused too. Refused with ``common_password`` (HTTP 422).
"""

from __future__ import annotations

from typing import Final

from zxcvbn.frequency_lists import FREQUENCY_LISTS

from stud.server.errors import Refusal

COMMON_PASSWORDS: Final = frozenset(word.casefold() for word in FREQUENCY_LISTS["passwords"])
"""The common passwords without case, made when the app is (a fifth of a second), not when
a request is on the event loop."""


def check_new_password(password: str, name: str) -> str:
    """``password`` if an account named ``name`` may take it; else Refusal ``common_password``."""
    folded = password.casefold()
    if folded in COMMON_PASSWORDS or folded == name.casefold():
        raise Refusal(
            "common_password",
            "that password is one of the most common ones (or your name), the first a "
            "guesser tries: choose another",
        )
    return password
