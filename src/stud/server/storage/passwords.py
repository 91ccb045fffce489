"""Password hashing with Argon2id (argon2-cffi), the standard memory-hard KDF."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """An encoded Argon2id hash carrying its own salt and parameters."""
    return _hasher.hash(password)


def verify_password(encoded: str, password: str) -> bool:
    """True when ``password`` matches; never raises on a wrong or malformed hash."""
    try:
        return _hasher.verify(encoded, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
