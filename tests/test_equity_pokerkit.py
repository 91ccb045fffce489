"""Exact equity against PokerKit's ``calculate_equities`` (a sampler), within its error.

PokerKit has no dead cards, so each case hands it a fixed deck: the 52 cards
less every known and dead card. Its answer is a mean of per-sample shares, so
the check allows 4.5 standard errors of that mean.
"""

from __future__ import annotations

import random
from math import sqrt

import pytest

pokerkit = pytest.importorskip("pokerkit")

from stud.cards import Card as StudCard  # noqa: E402
from stud.cards import parse_cards  # noqa: E402
from stud.equity import EquityResult, equity  # noqa: E402

SAMPLES = 1_200


def _pk_cards(text: str) -> list[object]:
    return list(pokerkit.Card.parse(text)) if text.strip() else []


def pokerkit_equities(
    known: list[str], dead: str, hand_types: tuple[type, ...], seed: int
) -> list[float]:
    """PokerKit's sampled equities, each player dealt to 7 cards from the fixed deck."""
    out = {int(c) for text in [*known, dead] for c in parse_cards(text)}
    deck = [_pk_cards(str(StudCard(c)))[0] for c in range(52) if c not in out]
    random.seed(seed)  # calculate_equities draws with the random module
    result: list[float] = pokerkit.calculate_equities(
        [[_pk_cards(k)] for k in known],
        [],
        7,
        0,
        deck,
        hand_types,
        sample_count=SAMPLES,
    )
    return result


def _per_sample_stderr(result: EquityResult) -> list[float]:
    """Standard error of a mean of SAMPLES per-run-out shares, from the exact distribution."""
    out = []
    for player in result:
        # Var(share) <= E[share] - E[share]^2 since shares lie in [0, 1].
        p = player.equity
        out.append(sqrt(max(p - p * p, 1e-4) / SAMPLES))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "known", "dead"),
    [
        (
            ["As Ks | Qs Jd 9c 9s", "2c 2d | 7h 8h 9h Th"],
            ["As Ks Qs Jd 9c 9s", "2c 2d 7h 8h 9h Th"],
            "",
        ),
        (
            ["Ac Kc | Qc Jc", "Td Tc | 2h 2s", "5d 6d | 7d 8c"],
            ["Ac Kc Qc Jc", "Td Tc 2h 2s", "5d 6d 7d 8c"],
            "Ts 9d",
        ),
        (
            ["Ah Ad | 4c 5c 6s", "Kh Kd | Ks 3c 3d"],
            ["Ah Ad 4c 5c 6s", "Kh Kd Ks 3c 3d"],
            "As 7c 7d",
        ),
    ],
)
def test_stud_high_against_pokerkit(players: list[str], known: list[str], dead: str) -> None:
    ours = equity("stud", players, dead=dead or None, samples=400_000, seed=1)
    theirs = pokerkit_equities(known, dead, (pokerkit.StandardHighHand,), seed=2)
    for player, their, error in zip(ours, theirs, _per_sample_stderr(ours), strict=True):
        allowed = 4.5 * error + 4.5 * (player.stderr or 0.0)
        assert abs(player.equity - their) < allowed, (player.hand, player.equity, their)


def test_razz_against_pokerkit_regular_low() -> None:
    players = ["As 2d | 3c 5h 9s", "4c 4d | 6h 7s 8d"]
    known = ["As 2d 3c 5h 9s", "4c 4d 6h 7s 8d"]
    ours = equity("razz", players, dead="Kc", method="exact")
    theirs = pokerkit_equities(known, "Kc", (pokerkit.RegularLowHand,), seed=3)
    for player, their, error in zip(ours, theirs, _per_sample_stderr(ours), strict=True):
        assert abs(player.equity - their) < 4.5 * error


@pytest.mark.slow
def test_stud8_against_pokerkit() -> None:
    # PokerKit 0.7.7 gives the high hand the whole pot when no low qualifies, as we do.
    players = ["As 2s | 3d Kc Kd", "Qc Qd | Qh 7s 8s"]
    known = ["As 2s 3d Kc Kd", "Qc Qd Qh 7s 8s"]
    ours = equity("stud8", players, method="exact")
    theirs = pokerkit_equities(
        known, "", (pokerkit.StandardHighHand, pokerkit.EightOrBetterLowHand), seed=4
    )
    assert ours.low_rate is not None and 0 < ours.low_rate < 1
    for player, their, error in zip(ours, theirs, _per_sample_stderr(ours), strict=True):
        assert abs(player.equity - their) < 4.5 * error
