"""The shuffle recipe of docs/fairness.md: commitment, HMAC-SHA256 stream, Fisher-Yates, no bias."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Iterator

import pytest

import stud.fairness as fairness
from stud.fairness import (
    SCHEME,
    FairnessError,
    Shuffle,
    commitment_of,
    deck_order,
    new_server_seed,
)

SEED = "00" * 31 + "2a"


def test_the_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment_of(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_server_seeds_are_fresh_unless_a_test_asks() -> None:
    seeds = {new_server_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 64 and int(s, 16) >= 0 for s in seeds)
    assert new_server_seed(7, 3) == new_server_seed(7, 3) != new_server_seed(7, 4)


def test_a_deck_is_a_permutation_fixed_by_every_input() -> None:
    deck = deck_order(SEED, ["ab", ""], "1-1")
    assert sorted(deck) == list(range(52))
    assert deck == deck_order(SEED, ["ab", ""], "1-1")
    others = [
        deck_order(SEED, ["ac", ""], "1-1"),  # another player's seed
        deck_order(SEED, ["", "ab"], "1-1"),  # the same seed from another player
        deck_order(SEED, ["ab", ""], "1-2"),  # another hand
        deck_order(new_server_seed(1), ["ab", ""], "1-1"),  # another server seed
    ]
    assert all(other != deck for other in others)


def test_the_first_draws_follow_the_recipe_by_hand() -> None:
    """Position 51 takes card r0 % 52, position 50 the card then at r1 % 51 (no rejection)."""
    context = f"{SCHEME}|7-3|ff,".encode()
    block = hmac.new(bytes.fromhex(SEED), context + b"|0", hashlib.sha256).digest()
    r0, r1 = int.from_bytes(block[0:4], "big"), int.from_bytes(block[4:8], "big")
    assert r0 < 2**32 - 2**32 % 52 and r1 < 2**32 - 2**32 % 51  # true for this seed
    start = list(range(52))
    j0 = r0 % 52
    start[51], start[j0] = start[j0], start[51]
    j1 = r1 % 51
    deck = deck_order(SEED, ["ff", ""], "7-3")
    assert deck[51] == j0
    assert deck[50] == start[j1]


def test_a_draw_past_the_last_whole_span_is_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejection sampling: 2**32 - 1 is past the last multiple of 52, so it is thrown away."""
    draws: list[int] = []

    def stream(_key: bytes, _context: bytes) -> Iterator[int]:
        yield 2**32 - 1
        while True:
            draws.append(0)
            yield 0

    monkeypatch.setattr(fairness, "_stream", stream)
    deck = deck_order(SEED, [], "1")
    # Every kept draw is 0: each position i swaps with position 0.
    expected = list(range(52))
    for i in range(51, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert deck == expected and len(draws) == 51


def test_every_card_lands_everywhere_about_equally() -> None:
    """Card 0's place over 5,200 shuffles: a chi-square test at the 0.1% level (51 dof)."""
    places = Counter(deck_order(SEED, [f"{i:x}"], "t").index(0) for i in range(5200))
    expected = 5200 / 52
    chi2 = sum((places[p] - expected) ** 2 / expected for p in range(52))
    assert chi2 < 87.97, chi2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"server_seed": "xyz"}, "server seed"),
        ({"player_seeds": ["NOT-HEX"]}, "player's seed"),
        ({"player_seeds": ["a" * 65]}, "player's seed"),
        ({"hand_id": "a b"}, "hand id"),
    ],
)
def test_malformed_inputs_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"server_seed": SEED, "player_seeds": [], "hand_id": "1", **kwargs}
    with pytest.raises(FairnessError, match=message):
        deck_order(**args)  # type: ignore[arg-type]


def test_a_shuffle_states_its_problems() -> None:
    shuffle = Shuffle.deal("4-2", SEED, ["ab", ""])
    assert shuffle.problems() == []
    assert shuffle.public() == {"scheme": SCHEME, "hand": "4-2", "commitment": commitment_of(SEED)}
    assert "server_seed" not in shuffle.public() and SEED not in str(shuffle.public())
    assert Shuffle.from_dict(shuffle.revealed()) == shuffle
    other = new_server_seed(5)
    forged = Shuffle.from_dict({**shuffle.revealed(), "server_seed": other})
    (problem,) = forged.problems()
    assert "does not match the commitment" in problem and commitment_of(other) in problem
    assert "unknown shuffle scheme" in Shuffle("1", "a" * 64, SEED, (), "v0").problems()[0]
    with pytest.raises(FairnessError, match="needs 'server_seed'"):
        Shuffle.from_dict({"hand": "1", "commitment": "a" * 64})
    assert "bad seed of player 2" in Shuffle("1", "a" * 64, SEED, ("", "Z")).problems()[0]
