"""The committed shuffle's number stream is the documented recipe's, block after block.

``stud.fairness._stream`` reads HMAC-SHA256 through ``hmac.digest`` (the one-shot
C path) and ``struct``; a player who checks a deal follows docs/fairness.md
with an ``hmac.new`` per block and 4-byte big-endian slices. Both must give the
same numbers well past the first block (a deck takes about seven).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random

from stud import fairness


def _recipe(key: bytes, context: bytes, count: int) -> list[int]:
    numbers: list[int] = []
    block = 0
    while len(numbers) < count:
        digest = hmac.new(key, context + b"|%d" % block, hashlib.sha256).digest()
        numbers += [int.from_bytes(digest[at : at + 4], "big") for at in range(0, 32, 4)]
        block += 1
    return numbers[:count]


def test_the_stream_is_the_recipes_over_many_blocks() -> None:
    rng = random.Random(22)
    for size in (0, 1, 31, 32, 33, 64, 200):
        key = rng.randbytes(32)
        context = rng.randbytes(size)
        got = list(itertools.islice(fairness._stream(key, context), 100))  # 13 blocks
        assert got == _recipe(key, context, 100)


def test_a_deck_is_the_one_the_recipe_deals() -> None:
    seed = "ab" * 32
    deck = fairness.deck_order(seed, ["cd", ""], "9-4")
    context = f"{fairness.SCHEME}|9-4|cd,".encode()
    draws = iter(_recipe(bytes.fromhex(seed), context, 500))
    expected = list(range(52))
    for i in range(51, 0, -1):
        span = i + 1
        limit = 2**32 - 2**32 % span
        draw = next(draws)
        while draw >= limit:
            draw = next(draws)
        j = draw % span
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected
