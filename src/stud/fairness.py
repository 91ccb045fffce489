"""A shuffle anyone can check: a committed server seed, the players' seeds, one hand id.

Before a hand the table publishes ``commitment = SHA-256(server seed)``; each
seated player may add a seed of their own; the deck is then a fixed function
of the three (docs/fairness.md spells it out so it can be redone by hand)::

    key     = the server seed's 32 bytes (64 lowercase hex digits)
    context = "stud-shuffle-v1|" + hand id + "|" + the players' seeds joined by ","
    stream  = HMAC-SHA256(key, context + "|0") + HMAC-SHA256(key, context + "|1") + ...
    deck    = 0..51 (2c 2d 2h 2s 3c ... As); for i = 51 down to 1: draw 4 bytes of
              the stream as a big-endian number r, redraw while r >= 2**32 - 2**32 % (i + 1)
              (no modulo bias), swap deck[i] and deck[r % (i + 1)]

The table deals ``deck[0]`` first. When the hand ends the server seed is
published and the commitment, the seeds and every card can be checked
(:mod:`stud.history.verify`, ``stud verify``). Pure: no I/O; a fresh server
seed comes from the operating system's CSPRNG unless a test asks for a
reproducible one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from stud.cards import DECK_SIZE

SCHEME: Final = "stud-shuffle-v1"
"""The name of the recipe above; a record naming another one is refused, not guessed at."""

SERVER_SEED_BYTES: Final = 32
MAX_PLAYER_SEED: Final = 64
"""A player's seed is 1 to 64 lowercase hex digits (the browser sends 32 random bytes)."""

_SERVER_SEED = re.compile(r"[0-9a-f]{64}")
_PLAYER_SEED = re.compile(r"[0-9a-f]{1,64}")
_HAND_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class FairnessError(ValueError):
    """A seed, hand id or commitment that is not of the documented form."""


def new_server_seed(test_seed: int | None = None, number: int = 0) -> str:
    """A fresh server seed: 32 bytes from the OS CSPRNG, as hex.

    ``test_seed`` makes it reproducible (tests, ``stud serve --seed``): it is then
    derived from that number and ``number``, so anyone who knows them knows the
    seed, and the commitment proves nothing.
    """
    if test_seed is None:
        return secrets.token_hex(SERVER_SEED_BYTES)
    return hashlib.sha256(f"stud-test-seed|{test_seed}|{number}".encode()).hexdigest()


def commitment_of(server_seed: str) -> str:
    """SHA-256 of the server seed's bytes, as hex: what the table publishes before the deal."""
    return hashlib.sha256(bytes.fromhex(check_server_seed(server_seed))).hexdigest()


def check_server_seed(text: str) -> str:
    if not isinstance(text, str) or not _SERVER_SEED.fullmatch(text):
        raise FairnessError("a server seed is 64 lowercase hex digits")
    return text


def check_commitment(text: str) -> str:
    if not isinstance(text, str) or not _DIGEST.fullmatch(text):
        raise FairnessError("a commitment is 64 lowercase hex digits (a SHA-256)")
    return text


def check_player_seed(text: str) -> str:
    """A player's seed, or FairnessError saying what one must be."""
    if not isinstance(text, str) or not _PLAYER_SEED.fullmatch(text):
        raise FairnessError(f"a player's seed is 1 to {MAX_PLAYER_SEED} lowercase hex digits")
    return text


def check_hand_id(text: str) -> str:
    if not isinstance(text, str) or not _HAND_ID.fullmatch(text):
        raise FairnessError("a hand id is 1 to 64 letters, digits or . _ : -")
    return text


_WORDS = struct.Struct(">8I")
"""A SHA-256 digest as eight 4-byte big-endian numbers."""


def _stream(key: bytes, context: bytes) -> Iterator[int]:
    """The HMAC-SHA256 stream as 4-byte big-endian numbers.

    ``hmac.digest`` is the one-shot C path (an ``hmac.HMAC`` object per block is
    interpreted code): the same bytes, a table deals every hand from them.
    """
    block = 0
    while True:
        yield from _WORDS.unpack(hmac.digest(key, context + b"|%d" % block, "sha256"))
        block += 1


def deck_order(server_seed: str, player_seeds: Sequence[str], hand_id: str) -> list[int]:
    """The 52 card ints in dealing order that these seeds give (the module docstring's recipe)."""
    key = bytes.fromhex(check_server_seed(server_seed))
    seeds = [check_player_seed(s) if s else "" for s in player_seeds]
    context = f"{SCHEME}|{check_hand_id(hand_id)}|{','.join(seeds)}".encode()
    draws = _stream(key, context)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        span = i + 1
        limit = 2**32 - 2**32 % span
        draw = next(draws)
        while draw >= limit:
            draw = next(draws)
        j = draw % span
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One hand's shuffle: its id, the commitment, the server seed, each player's seed.

    ``player_seeds`` follow the hand's players in dealing order, ``""`` for a
    player who sent none; ``seats`` names those players' seat numbers when a
    record lists its seats in another order (PokerStars text lists them by
    number; empty: the record's own order is the dealing order). The table makes one with
    :meth:`deal`; a record read back states one, checked by :meth:`problems`.
    The server seed is secret until the hand ends: :meth:`public` is what may
    be shown before then, :meth:`revealed` what is published after.
    """

    hand_id: str
    commitment: str
    server_seed: str
    player_seeds: tuple[str, ...] = ()
    scheme: str = SCHEME
    seats: tuple[int, ...] = ()

    @classmethod
    def deal(cls, hand_id: str, server_seed: str, player_seeds: Sequence[str] = ()) -> Shuffle:
        """The table's shuffle for a hand (FairnessError on a malformed seed or id)."""
        for seed in player_seeds:
            if seed:
                check_player_seed(seed)
        return cls(
            check_hand_id(hand_id), commitment_of(server_seed), server_seed, tuple(player_seeds)
        )

    @classmethod
    def from_dict(cls, data: Any) -> Shuffle:
        """A shuffle from its JSON form (:meth:`revealed`); FairnessError if malformed."""
        if not isinstance(data, dict):
            raise FairnessError("a shuffle record is a JSON object")
        seeds = data.get("player_seeds") or []
        seats = data.get("seats") or []
        if not isinstance(seeds, list):
            raise FairnessError("player_seeds must be a list")
        if not (isinstance(seats, list) and all(type(n) is int for n in seats)):
            raise FairnessError("seats must be a list of seat numbers")
        try:
            return cls(
                str(data["hand"]),
                str(data["commitment"]),
                str(data["server_seed"]),
                tuple(str(s) for s in seeds),
                str(data.get("scheme", SCHEME)),
                tuple(seats),
            )
        except KeyError as error:
            raise FairnessError(f"a shuffle record needs {error}") from None

    def public(self) -> dict[str, Any]:
        """What the table shows before and during the hand: no seed at all."""
        return {"scheme": self.scheme, "hand": self.hand_id, "commitment": self.commitment}

    def revealed(self) -> dict[str, Any]:
        """What is published with the finished hand: everything needed to redo the deck."""
        seats = {"seats": list(self.seats)} if self.seats else {}
        return {
            **self.public(),
            "server_seed": self.server_seed,
            "player_seeds": list(self.player_seeds),
            **seats,
        }

    def problems(self) -> list[str]:
        """What is wrong with the shuffle itself (form, scheme, commitment), before any card."""
        if self.scheme != SCHEME:
            return [f"unknown shuffle scheme {self.scheme[:80]!r} (this is {SCHEME})"]
        out: list[str] = []
        for what, check, value in (
            ("hand id", check_hand_id, self.hand_id),
            ("commitment", check_commitment, self.commitment),
            ("server seed", check_server_seed, self.server_seed),
        ):
            try:
                check(value)
            except FairnessError as error:
                out.append(f"bad {what} {value[:80]!r}: {error}")
        if self.seats and len(self.seats) != len(self.player_seeds):
            out.append(f"{len(self.seats)} seats for {len(self.player_seeds)} player seeds")
        for place, seed in enumerate(self.player_seeds, start=1):
            if seed:
                try:
                    check_player_seed(seed)
                except FairnessError as error:
                    out.append(f"bad seed of player {place} {seed[:80]!r}: {error}")
        if out:
            return out
        actual = commitment_of(self.server_seed)
        if actual != self.commitment:
            out.append(
                f"the server seed does not match the commitment: SHA-256 of the seed is "
                f"{actual}, the commitment published before the deal is {self.commitment}"
            )
        return out

    def deck(self) -> list[int]:
        """The 52 card ints in dealing order (FairnessError on an unknown scheme or bad seed)."""
        if self.scheme != SCHEME:
            raise FairnessError(f"unknown shuffle scheme {self.scheme[:80]!r} (this is {SCHEME})")
        return deck_order(self.server_seed, self.player_seeds, self.hand_id)
