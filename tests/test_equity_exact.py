"""Exact equity against brute force: plain loops over every run-out, one-hand evaluators."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import pytest

from stud.cards import Card, parse_cards
from stud.equity import EquityResult, equity
from stud.evaluate import eight_low_value, high_value, razz_value


@dataclass
class Brute:
    """Per-player totals over every run-out, the rules applied by hand."""

    runouts: int = 0
    share: list[Fraction] = field(default_factory=list)
    high: list[Fraction] = field(default_factory=list)
    low: list[Fraction] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    scoops: list[int] = field(default_factory=list)


def _assignments(pool: list[int], needs: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not needs:
        yield []
        return
    for mine in combinations(pool, needs[0]):
        rest = [c for c in pool if c not in mine]
        for others in _assignments(rest, needs[1:]):
            yield [mine, *others]


def _winners(values: list[int]) -> list[int]:
    best = max(values)
    return [i for i, v in enumerate(values) if v == best]


def brute(game: str, known: list[str], dead: str = "", r12: bool = False) -> Brute:
    """Every distinct run-out: each player's known cards plus their share of the pool."""
    hands = [[int(c) for c in parse_cards(k)] for k in known]
    out = [int(c) for c in parse_cards(dead)] + [c for h in hands for c in h]
    pool = [c for c in range(52) if c not in out]
    n = len(hands)
    own = 6 if r12 else 7
    result = Brute(
        share=[Fraction(0)] * n,
        high=[Fraction(0)] * n,
        low=[Fraction(0)] * n,
        wins=[0] * n,
        ties=[0] * n,
        scoops=[0] * n,
    )
    boards: list[tuple[int, ...]] = [(c,) for c in pool] if r12 else [()]
    for board in boards:
        rest = [c for c in pool if c not in board]
        for got in _assignments(rest, [own - len(h) for h in hands]):
            full = [h + list(g) + list(board) for h, g in zip(hands, got, strict=True)]
            result.runouts += 1
            share = [Fraction(0)] * n
            alone = [False] * n
            high = [Fraction(0)] * n
            low = [Fraction(0)] * n
            if game == "stud8":
                hw = _winners([high_value(h) for h in full])
                lows = [eight_low_value(h) for h in full]
                lw = _winners(lows) if max(lows) > 0 else []
                high_pot = Fraction(1, 2) if lw else Fraction(1)
                for i in hw:
                    high[i] += high_pot / len(hw)
                    alone[i] |= len(hw) == 1
                for i in lw:
                    low[i] += Fraction(1, 2) / len(lw)
                    alone[i] |= len(lw) == 1
                share = [a + b for a, b in zip(high, low, strict=True)]
            else:
                value = high_value if game == "stud" else razz_value
                w = _winners([value(h) for h in full])
                for i in w:
                    share[i] = Fraction(1, len(w))
                    alone[i] = len(w) == 1
            for i in range(n):
                result.share[i] += share[i]
                result.high[i] += high[i]
                result.low[i] += low[i]
                result.wins[i] += alone[i]
                result.ties[i] += share[i] > 0 and not alone[i]
                result.scoops[i] += share[i] == 1
    return result


def assert_same(result: EquityResult, expected: Brute) -> None:
    assert result.method == "exact"
    assert result.runouts == result.total_runouts == expected.runouts
    for i, player in enumerate(result):
        assert player.share == expected.share[i], f"player {i + 1}"
        assert player.wins == expected.wins[i], f"player {i + 1}"
        assert player.ties == expected.ties[i], f"player {i + 1}"
        if result.game == "stud8":
            assert player.high_share == expected.high[i]
            assert player.low_share == expected.low[i]
            assert player.scoops == expected.scoops[i]
    assert sum(p.share for p in result) == result.runouts


# Most of the deck dead keeps every brute force to some thousands of run-outs.
DEAD_MOST = "Ks Kh Kd Kc Qs Qh Qd Jc Jd Js Ts Td Tc Th 9s 9d 9c 9h 7d 7h 7s 6d 5h 5s 8h 8s 2c"


def dead_but(live: str, *hands: str) -> str:
    """Every card except the live ones and the players' cards."""
    keep = {
        int(c)
        for text in (live, *hands)
        for c in parse_cards(text.replace("|", " ").replace("??", ""))
    }
    return " ".join(str(Card(c)) for c in range(52) if c not in keep)


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_sixth_street_heads_up(game: str) -> None:
    a, b = "As 2d 3c 4h 5s 6d", "Ac 2c 7c 8c 9h Jh"
    result = equity(game, ["As 2d | 3c 4h 5s 6d", "Ac 2c | 7c 8c 9h Jh"])
    assert result.total_runouts == 40 * 39
    assert_same(result, brute(game, [a, b]))


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_unknown_down_cards_three_way(game: str) -> None:
    players = ["?? ?? | Ah 2h 3h 5d", "4c ?? | 5c 6c 8d 7c", "Ad 3d | 4d 2s 8c 6s"]
    known = ["Ah 2h 3h 5d", "4c 5c 6c 8d 7c", "Ad 3d 4d 2s 8c 6s"]
    result = equity(game, players, dead=DEAD_MOST)
    assert_same(result, brute(game, known, DEAD_MOST))


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_seventh_street_unknown_river_and_down(game: str) -> None:
    players = ["?? ?? | 3s 4s 5d 6h | ??", "As Qc | 2h 8d Jh Ah | ??"]
    known = ["3s 4s 5d 6h", "As Qc 2h 8d Jh Ah"]
    dead = DEAD_MOST + " 4c 3c 3h"
    assert_same(equity(game, players, dead=dead), brute(game, known, dead))


def test_quartered_low_counted_exactly() -> None:
    # Players 1 and 2 both hold the wheel (a straight and the best low); player 3 a full house.
    players = ["Ac 2c | 3d 4d 5h Kh | Ks", "Ad 2d | 3c 4c 5s Qh | Qs", "Kc Kd | 9c 9d 9h Jc | Jd"]
    result = equity("stud8", players)
    assert result.runouts == 1
    assert [p.exact_equity for p in result] == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    assert [p.low_share for p in result] == [Fraction(1, 4), Fraction(1, 4), 0]
    assert [p.wins for p in result] == [0, 0, 1]
    assert [p.ties for p in result] == [1, 1, 0]
    assert [p.scoops for p in result] == [0, 0, 0]
    # Player 1's six-high straight takes the high half and ties for low: three quarters.
    players = ["Ac 2c | 3d 4d 5h 6s | 9s", "Ad 2d | 3c 4c 5s Qh | Qs", "Kc Kd | Ks 9d 7h Jc | Td"]
    result = equity("stud8", players)
    assert [p.exact_equity for p in result] == [Fraction(3, 4), Fraction(1, 4), Fraction(0)]
    assert [p.high_share for p in result] == [Fraction(1, 2), 0, 0]
    assert [p.wins for p in result] == [1, 0, 0] and [p.ties for p in result] == [0, 1, 0]


def test_no_qualifying_low_high_hand_scoops() -> None:
    # Nobody has five ranks of eight or lower: the high hand takes the whole pot (R15).
    players = ["Kc Kd | Ks 9c 9d Tc | Jc", "Qc Qd | Qs Th Jh 9h | 2h"]
    result = equity("stud8", players)
    assert result.low_runouts == 0
    one, two = result
    assert one.exact_equity == 1 and one.high == 1 and one.low == 0 and one.scoop == 1
    assert two.exact_equity == 0 and two.scoop == 0


def test_no_qualifying_low_on_a_run_out() -> None:
    # Player 2 makes a low with a 5, 6, 7 or 8; on the other rivers the high hand scoops.
    players = ["Kc Kd | Ks 9c 9d Tc", "Ac 2d | 3h 4s Qh Qd"]
    known = ["Kc Kd Ks 9c 9d Tc", "Ac 2d 3h 4s Qh Qd"]
    result = equity("stud8", players)
    assert_same(result, brute("stud8", known))
    assert 0 < result.low_runouts < result.runouts
    assert result[0].low_share == 0 and result[0].scoops > 0


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_identical_hands_tie(game: str) -> None:
    players = ["As Ks | Qs Jd 9c 3c | 2d", "Ah Kh | Qh Jc 9d 3d | 2c"]
    one, two = equity(game, players)
    assert one.exact_equity == two.exact_equity == Fraction(1, 2)
    assert (one.wins, one.ties, two.wins, two.ties) == (0, 1, 0, 1)


def test_dead_cards_remove_outs() -> None:
    # Trip aces against kings up: only a king or a queen (a full house) can save player 2.
    players = ["Ac Ad | Ah 7c 8d 9h", "Kc Kd | Qh Qs 2c 3d"]
    known = ["Ac Ad Ah 7c 8d 9h", "Kc Kd Qh Qs 2c 3d"]
    live = equity("stud", players)
    assert_same(live, brute("stud", known))
    assert live[1].exact_equity > 0
    dead = equity("stud", players, dead="Kh Ks Qc Qd")
    assert dead[0].exact_equity == 1 and dead[1].exact_equity == 0
    some = equity("stud", players, dead="Kh 4c")
    assert_same(some, brute("stud", known, "Kh 4c"))
    assert 0 < some[1].exact_equity < live[1].exact_equity
    # Unseen dead cards change nothing.
    assert equity("stud", players, dead="?? ?? ??")[1].share == live[1].share


def test_dead_cards_razz_against_brute_force() -> None:
    players = ["As 2d | 3c 5h", "?? ?? | Kh 4d"]
    dead = dead_but("2c 2h 3d 4c 4h 6c 6d 7c 8c 8s 9h", *players)
    result = equity("razz", players, dead=dead)
    assert result.runouts == 165 * 56
    assert_same(result, brute("razz", ["As 2d 3c 5h", "Kh 4d"], dead))
    fewer = equity("razz", players, dead=dead + " 4c 6c")
    assert_same(fewer, brute("razz", ["As 2d 3c 5h", "Kh 4d"], dead + " 4c 6c"))
    assert fewer[0].exact_equity != result[0].exact_equity


def _r12_table(seed: int) -> list[list[str]]:
    """Eight random 6th-street hands, as card names."""
    deck = [str(Card(c)) for c in range(52)]
    random.Random(seed).shuffle(deck)
    return [deck[6 * i : 6 * i + 6] for i in range(8)]


def _notation(cards: list[str]) -> str:
    return f"{' '.join(cards[:2])} | {' '.join(cards[2:])}"


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_community_card_eight_players(game: str) -> None:
    table = _r12_table(11)
    # 48 cards known, 4 left: the community card is one of them, everyone plays it.
    result = equity(game, [_notation(h) for h in table])
    assert result.r12 and result.runouts == 4
    assert_same(result, brute(game, [" ".join(h) for h in table], r12=True))
    left = sorted(set(str(Card(c)) for c in range(52)) - {c for h in table for c in h})
    given = equity(game, [_notation(h) for h in table], community=left[0])
    assert given.runouts == 1 and given.community == left[0]


@pytest.mark.parametrize("game", ["stud", "stud8"])
def test_community_card_with_unknown_down_cards(game: str) -> None:
    table = _r12_table(5)
    # Seven players and four cards out of play: 6 left for 7 players, R12 applies.
    dead = " ".join(table[7][:4])
    players = table[:7]
    players[0] = ["??", *players[0][1:]]
    players[3] = ["??", "??", *players[3][2:]]
    result = equity(game, [_notation(h) for h in players], dead=dead)
    assert result.r12
    known = [" ".join(c for c in h if c != "??") for h in players]
    expected = brute(game, known, dead, r12=True)
    assert expected.runouts == 9 * 8 * 21
    assert_same(result, expected)


def test_workers_give_the_same_exact_answer() -> None:
    players = ["As 2d | 3c 4h 5s", "Kc Kd | 7c 8c 9h"]
    one = equity("stud8", players, workers=1)
    two = equity("stud8", players, workers=2)
    assert one.runouts == 671_580
    assert one == two
