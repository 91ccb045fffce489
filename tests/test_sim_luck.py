"""The luck of the cards (stud.sim.luck): V on small cases, its exact expectation, unbiasedness."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stud.bots import make_bot, play_hand
from stud.cards import Card, Deck, parse_cards
from stud.equity import equity
from stud.evaluate import eight_low_value, high_value, razz_value
from stud.game import CardsDealt, CommunityCard, Hand
from stud.sim import luck as luck_module
from stud.sim.duplicate import MatchConfig, play_match
from stud.sim.luck import EXACT, FIRST_STREET, SAMPLES, hand_luck, runout_indices, shares_after
from stud.sim.run import DEFAULT_STAKES


def brute_share(game: str, hands: list[list[int]]) -> list[float]:
    """Each player's pot share at a showdown of complete 7-card hands, one hand at a time."""
    n = len(hands)

    def split(values: list[int]) -> list[float]:
        best = max(values)
        winners = [v == best for v in values]
        return [w / sum(winners) for w in winners]

    if game == "stud":
        return split([high_value(h) for h in hands])
    if game == "razz":
        return split([razz_value(h) for h in hands])
    high = split([high_value(h) for h in hands])
    lows = [eight_low_value(h) for h in hands]
    if max(lows) == 0:
        return high
    low = split(lows)
    return [(high[p] + low[p]) / 2 for p in range(n)]


def _text(hand: list[int]) -> str:
    return " ".join(str(Card(c)) for c in hand)


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_the_last_cards_are_valued_exactly_against_a_brute_force(game: str) -> None:
    """7th street, the first player's river card: V averages the other's every river card."""
    hands = [cards("Ah 2h 3d 5c 8s Kd"), cards("4c 4d 6h 7h Js Qc")]
    taken = {c for h in hands for c in h}
    pool = np.array([c for c in range(52) if c not in taken])
    shares = shares_after(game, hands, [0], pool, pool)
    assert shares.shape == (2, len(pool))
    for j, x in enumerate(pool.tolist()):
        rest = [c for c in pool.tolist() if c != x]
        want = np.mean([brute_share(game, [[*hands[0], x], [*hands[1], y]]) for y in rest], axis=0)
        assert shares[:, j] == pytest.approx(want, abs=1e-12)
    assert shares.sum(axis=0) == pytest.approx(np.ones(len(pool)))


def test_a_three_way_split_and_a_folded_hand_out_of_the_pool() -> None:
    """Three stud hands that all play the board's straight split the pot in thirds."""
    hands = [cards("9c Tc Jd Qh Ks 2c 3d"), cards("9d Td Jh Qs Kc 2d 3h"), cards("9h Th")]
    hands[2] += cards("Jc Qd Kh 2h")
    taken = {c for h in hands for c in h}
    pool = np.array([c for c in range(52) if c not in taken])
    # Player 2 gets its river: every candidate card keeps the three-way split or improves it.
    shares = shares_after("stud", [h[:7] for h in hands[:2]] + [hands[2][:6]], [2], pool, pool)
    for j, x in enumerate(pool.tolist()):
        want = brute_share("stud", [hands[0], hands[1], [*hands[2][:6], x]])
        assert shares[:, j] == pytest.approx(want, abs=1e-12)
    assert any(math.isclose(s, 1 / 3) for s in shares[0])


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_the_mean_over_candidates_is_the_exact_equity_before_the_card(game: str) -> None:
    """Tower property: with exact V, E[V(after) | before] is the equity before the card."""
    players = ["Ah 2h | 3d 5c 8s Kd", "4c 4d | 6h 7h Js Qc"]
    hands = [cards(p.replace("|", "")) for p in players]
    taken = {c for h in hands for c in h}
    pool = np.array([c for c in range(52) if c not in taken])
    shares = shares_after(game, hands, [0], pool, pool)  # after: one card left, exact
    before = equity(game, players, method="exact")
    assert shares.mean(axis=1) == pytest.approx([p.equity for p in before], abs=1e-12)


def test_sampled_run_outs_are_fixed_and_every_candidate_uses_the_same_indices() -> None:
    """Far from the river V is a mean over SAMPLES fixed run-outs: the same on every call."""
    assert math.perm(40, 5) > EXACT
    first = runout_indices(40, 5)
    runout_indices.cache_clear()
    np.random.seed(99)  # the global generator has no say
    again = runout_indices(40, 5)
    assert first.shape == (SAMPLES, 5) and np.array_equal(first, again)
    assert all(len(set(row)) == 5 for row in first.tolist())
    assert first.max() < 40
    exact = runout_indices(30, 1)
    assert sorted(exact[:, 0].tolist()) == list(range(30))
    assert len({tuple(r) for r in runout_indices(12, 2).tolist()}) == math.perm(12, 2)
    with pytest.raises(ValueError, match="pool"):
        runout_indices(3, 4)


def test_sampled_v_is_the_mean_over_its_run_outs() -> None:
    """On 5th street (sampled), each candidate's share is the brute-force mean of its run-outs."""
    hands = [cards("Ah 2h 3d 5c"), cards("4c 4d 6h 7h Js")]  # player 0 gets its 5th card
    taken = {c for h in hands for c in h}
    pool = np.array([c for c in range(52) if c not in taken])
    shares = shares_after("razz", hands, [0], pool, pool[:3])
    again = shares_after("razz", hands, [0], pool, pool[:3])
    assert np.array_equal(shares, again)
    indices = runout_indices(len(pool) - 1, 4)
    assert len(indices) == SAMPLES
    for j, x in enumerate(pool[:3].tolist()):
        reduced = [c for c in pool.tolist() if c != x]
        total = np.zeros(2)
        for row in indices.tolist():
            drawn = [reduced[i] for i in row]
            total += brute_share("razz", [[*hands[0], x, *drawn[:2]], [*hands[1], *drawn[2:]]])
        assert shares[:, j] == pytest.approx(total / len(indices), abs=1e-12)


def test_bad_input_is_refused() -> None:
    pool = np.arange(40)
    with pytest.raises(ValueError, match="7 cards"):
        shares_after("stud", [list(range(40, 47)), list(range(47, 52))], [0], pool, pool)
    with pytest.raises(ValueError, match="in the pool"):
        shares_after("stud", [[40, 41, 42], [43, 44, 45]], [0], pool[1:], pool[:3])
    with pytest.raises(ValueError, match="HandStarted"):
        hand_luck("stud", [])


def _hands(game: str, seats: int, count: int, bots: tuple[str, ...]) -> list[Hand]:
    table = DEFAULT_STAKES.table(game, 100, seats)
    players = [make_bot(bots[s % len(bots)], seed=s + 1) for s in range(seats)]
    out = []
    for i in range(count):
        hand = Hand(table, deck=Deck(seed=1000 + i))
        play_hand(hand, players)
        out.append(hand)
    return out


@pytest.mark.parametrize(("game", "seats"), [("stud", 2), ("stud8", 3), ("razz", 6)])
def test_a_hands_luck_sums_to_zero_and_spares_who_folded_before_the_cards(
    game: str, seats: int
) -> None:
    for hand in _hands(game, seats, 12, ("random", "station")):
        luck = hand_luck(game, hand.events)
        assert luck.shape == (seats,)
        assert abs(luck.sum()) < 1e-9
        last = max(e.street for e in hand.events if isinstance(e, CardsDealt))
        if last < FIRST_STREET:
            assert np.all(luck == 0)


def test_the_rivers_luck_is_the_pot_times_the_showdown_share_less_the_equity_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted from 7th street only, the two river cards' luck telescopes to one surprise.

    Two stations check the hand down: the pot at the river is the final pot,
    and each seat's luck is that pot times (its showdown share - its exact
    equity once 6th street was dealt), the equity from :mod:`stud.equity`.
    """
    monkeypatch.setattr(luck_module, "FIRST_STREET", 7)
    table = DEFAULT_STAKES.table("stud", 100, 2)
    for seed in range(3):
        hand = Hand(table, deck=Deck(seed=seed))
        play_hand(hand, [make_bot("station"), make_bot("station")])
        luck = hand_luck("stud", hand.events)
        dealt = [e for e in hand.events if isinstance(e, CardsDealt)]
        held = [[int(c) for e in dealt if e.seat == s for c in (*e.down, *e.up) if c is not None]
                for s in range(2)]  # fmt: skip
        assert [len(h) for h in held] == [7, 7]
        text = [f"{_text(h[:2])} | {_text(h[2:6])}" for h in held]
        before = equity("stud", text, method="exact")
        actual = brute_share("stud", held)
        pot = sum(hand.committed)
        want = [pot * (actual[s] - before[s].equity) for s in range(2)]
        assert luck == pytest.approx(want, abs=1e-9)


def test_a_duplicate_match_measures_luck_beside_the_result() -> None:
    config = MatchConfig("razz", "random", "station", deals=6, seats=2, seed=4)
    result = play_match(config)
    assert result.luck is not None and result.luck.shape == result.net.shape
    assert np.allclose(result.luck.sum(axis=2), 0)
    raw, adjusted = result.hero_rate(), result.hero_adjusted()
    assert raw.hands == adjusted.hands == 12
    luck_bb = result.luck[:, :, 0::2].mean(axis=(1, 2)) / config.stakes.big_bet
    assert adjusted.bb_per_100 == pytest.approx(raw.bb_per_100 - 100 * luck_bb.mean())
    plain = play_match(
        MatchConfig("razz", "random", "station", deals=6, seats=2, seed=4, luck=False)
    )
    assert np.array_equal(plain.net, result.net) and plain.luck is None
    with pytest.raises(ValueError, match="without measuring luck"):
        plain.hero_adjusted()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_luck_has_mean_zero_and_the_adjusted_mean_agrees_with_the_raw_one(game: str) -> None:
    """(a) the correction's mean is zero within its interval; (b) adjusted and raw agree.

    Random against a station: cheap bots that reach the river often. Fixed
    seeds, so the outcome is fixed; the bounds are 3 standard errors.
    """
    config = MatchConfig(game, "random", "station", deals=400, seats=2, seed=11)
    result = play_match(config)
    assert result.luck is not None
    luck = result.luck[:, :, 0::2].mean(axis=(1, 2)) / config.stakes.big_bet
    assert abs(luck.mean()) < 3 * luck.std(ddof=1) / math.sqrt(len(luck))
    raw, adjusted = result.hero_rate(), result.hero_adjusted()
    assert abs(raw.bb_per_100 - adjusted.bb_per_100) < 1.5 * math.hypot(raw.ci95, adjusted.ci95)
    assert adjusted.ci95 < raw.ci95  # the luck taken out is real


def test_eight_stations_reach_the_community_card_and_its_luck_is_counted() -> None:
    """R12: eight players to the river leave too few cards; the community card is a node too.

    Eight stations check every hand down, so the luck before the river is 0
    (V is 0 where the deck cannot give everyone their cards) and the
    community card's node is the whole luck, checked by brute force.
    """
    table = DEFAULT_STAKES.table("razz", 100, 8)
    lucky = 0
    for seed in range(4):
        hand = Hand(table, deck=Deck(seed=seed))
        play_hand(hand, [make_bot("station") for _ in range(8)])
        community = [e.card for e in hand.events if isinstance(e, CommunityCard)]
        assert len(community) == 1 and community[0] is not None
        luck = hand_luck("razz", hand.events)
        dealt = [e for e in hand.events if isinstance(e, CardsDealt)]
        held = [[int(c) for e in dealt if e.seat == s for c in (*e.down, *e.up) if c is not None]
                for s in range(8)]  # fmt: skip
        pool = [c for c in range(52) if all(c not in h for h in held)]
        mean = np.mean([brute_share("razz", [[*h, x] for h in held]) for x in pool], axis=0)
        actual = brute_share("razz", [[*h, int(community[0])] for h in held])
        assert luck == pytest.approx(sum(hand.committed) * (np.array(actual) - mean), abs=1e-9)
        lucky += bool(np.any(luck != 0))
    assert lucky
