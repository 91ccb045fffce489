"""The strong bot's Monte Carlo: paths of the next street, tempered weights, percentiles, reads.

What the look-ahead rests on: the run-outs grouped by the next street's
cards are still valid deals (no card twice, only unseen cards), each group
shares its next cards; the range weights never collapse onto a handful of
run-outs; a hand's percentile within a weighted range is what it should be;
the bring-in's choice is read apart from a steal; a betting line that
shows strength makes the read fold rate shrink for the range it narrowed;
and down cards dealt from a 3rd-street range give what weighing uniform
deals by it gives, with every run-out counting.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots.estimate import MIN_EFFECTIVE, Estimator, _place, _share_next, _tempered
from stud.bots.players import PlayerReads
from stud.bots.ranges import Range, _percentile
from stud.bots.seen import read_view
from stud.bots.shares import Paths
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView, TableConfig, variant


def test_grouped_run_outs_stay_valid_deals_and_share_their_next_cards() -> None:
    rng = np.random.default_rng(5)
    live = np.array(sorted(rng.choice(52, size=40, replace=False)), dtype=np.int64)
    groups, per = 8, 32
    drawn = np.stack([rng.permutation(live)[:20] for _ in range(groups * per)])
    columns = [0, 7, 13]
    _share_next(drawn, columns, groups)
    for row in drawn:
        assert len(set(row.tolist())) == len(row)  # no card twice
        assert set(row.tolist()) <= set(live.tolist())  # only unseen cards
    blocks = drawn.reshape(groups, per, -1)
    for block in blocks:
        assert (block[:, columns] == block[0, columns]).all()
    # The other cards still vary within a block: the groups are not copies.
    assert len({tuple(r) for r in blocks[0][:, 1:7].tolist()}) > per // 2


def test_tempering_keeps_a_share_of_the_run_outs_effective() -> None:
    logw = np.linspace(0.0, 60.0, 256)  # a likelihood that would leave about one run-out
    raw = np.exp(logw - logw.max())
    assert raw.sum() ** 2 / (raw @ raw) < 10
    weights = _tempered(logw, MIN_EFFECTIVE)
    effective = weights.sum() ** 2 / (weights @ weights)
    assert effective >= MIN_EFFECTIVE * 256
    assert np.all(np.diff(weights) >= 0)  # the order of the likelihood is kept
    flat = np.zeros(64)
    assert np.array_equal(_tempered(flat, MIN_EFFECTIVE), np.ones(64))
    assert np.array_equal(_tempered(logw, 0.0), raw)  # off unless asked for (strong-v1)


def test_percentiles_within_a_weighted_range() -> None:
    values = np.array([0.1, 0.2, 0.2, 0.9])
    even = _percentile(values, np.ones(4))
    assert even.tolist() == pytest.approx([0.125, 0.5, 0.5, 0.875])
    heavy_top = _percentile(values, np.array([1.0, 1.0, 1.0, 5.0]))
    assert heavy_top[3] == pytest.approx(1 - 2.5 / 8)  # most of the range is the top hand
    assert heavy_top[0] < even[0]


def test_placed_down_cards_keep_valid_deals_and_the_kept_columns() -> None:
    rng = np.random.default_rng(3)
    live = np.array(sorted(rng.choice(52, size=40, replace=False)), dtype=np.int64)
    drawn = np.stack([rng.permutation(live)[:20] for _ in range(512)])
    kept_before = drawn[:, [0, 9]].copy()
    cards = np.stack([rng.choice(live, size=2, replace=False) for _ in range(512)])
    _place(drawn, [4, 5], cards, [0, 9])
    assert (drawn[:, [0, 9]] == kept_before).all()  # the kept columns never move
    for row in drawn:
        assert len(set(row.tolist())) == len(row)
        assert set(row.tolist()) <= set(live.tolist())
    clash = (kept_before[:, :, None] == cards[:, None, :]).any(axis=(1, 2))
    assert 0 < clash.sum() < 512 // 4
    assert (drawn[~clash][:, [4, 5]] == cards[~clash]).all()


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_down_cards_dealt_from_the_range_match_weighing_by_it(game: str) -> None:
    for seed in range(3):
        hand = Hand(_config(game, 3), deck=Deck(seed=seed))
        seen = read_view(hand.view(hand.to_act))
        ranges = [Range(opp, 6.0, 0.0) for opp in seen.opponents]
        weighed = Estimator(game, np.random.default_rng(seed), 4096)
        dealt = Estimator(game, np.random.default_rng(seed), 4096, sample_starts=True)
        by_weight = weighed.against(seen, ranges, paths=8).now
        by_deal = dealt.against(seen, ranges, paths=8).now
        assert by_deal.effective == pytest.approx(4096)  # every run-out counts
        assert by_weight.effective < 4096 / 3
        # Within a few standard errors of the weighted estimate (its effective size).
        error = 0.5 / np.sqrt(by_weight.effective)
        assert abs(by_deal.share - by_weight.share) < 4 * error
        wider = dealt.against(seen, [Range(opp, 0.0, 0.0) for opp in seen.opponents]).now
        assert by_deal.share < wider.share  # the narrow ranges are really narrower


def _config(game: str, seats: int) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * seats
    )


def _first(legal: Sequence[Action], *kinds: ActionKind) -> Action:
    for kind in kinds:
        for action in legal:
            if action.kind is kind:
                return action
    return legal[0]


def test_the_bring_ins_completion_is_read_apart_from_a_steal() -> None:
    reads = PlayerReads()
    for seed in range(6):
        hand = Hand(_config("stud", 3), deck=Deck(seed=seed))
        bring_in = hand.to_act
        assert bring_in is not None
        viewer = (bring_in + 1) % 3
        players = ["a", "b", "c"]
        # The bring-in completes; everybody else folds.
        hand.act(_first(hand.legal_actions(), ActionKind.COMPLETE))
        while not hand.is_over:
            hand.act(_first(hand.legal_actions(), ActionKind.FOLD, ActionKind.CHECK))
        reads.update(hand.view(viewer), players)
        stats = reads.players[players[bring_in]]
        assert stats.bring_in_completes == stats.bring_ins >= 1
    assert sum(s.bring_ins for s in reads.players.values()) == 6  # one per hand
    steals = sum(s.steals for s in reads.players.values())
    assert steals == 0  # nobody but the bring-in wagered first


def _bettor_range(view: HandView, later: float) -> Range:
    seen = read_view(view)
    (opp,) = seen.opponents
    return Range(opp, 0.0, 0.0, fold=0.4, raises=0.1, hindsight=0.0, later=later)


def test_a_strong_line_lowers_the_fold_rate_of_the_range_it_narrowed() -> None:
    hand = Hand(_config("stud", 2), deck=Deck(seed=11))
    while hand.street < 5 and not hand.is_over:
        hand.act(
            _first(hand.legal_actions(), ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)
        )
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    estimator = Estimator("stud", np.random.default_rng(3), 256, min_effective=MIN_EFFECTIVE)
    seen = read_view(view)
    loose = estimator.against(seen, [_bettor_range(view, 0.0)], paths=8)
    strong = estimator.against(seen, [_bettor_range(view, 8.0)], paths=8)
    # A range narrowed to strong hands folds less than its player's average, and beats me more.
    assert strong.fold < loose.fold
    assert strong.now.share < loose.now.share
    assert loose.now_paths is not None and len(loose.now_paths.share) == 8


def _to_street(game: str, seed: int, street: int) -> HandView:
    """A heads-up hand checked and called along to ``street``, seen by the player to act."""
    hand = Hand(_config(game, 2), deck=Deck(seed=seed))
    while not hand.is_over and hand.street < street:
        hand.act(
            _first(hand.legal_actions(), ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)
        )
    assert hand.to_act is not None and hand.street == street
    return hand.view(hand.to_act)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_later_streets_dealt_from_the_range_match_weighing_by_it(game: str) -> None:
    """A 5th-street range narrowed by betting is dealt from its weights: the same estimate as
    weighing uniform deals, every run-out counting, and narrower than its 3rd street alone."""
    for seed in (0, 1, 3):
        seen = read_view(_to_street(game, seed, 5))
        ranges = [Range(opp, 2.0, 0.0, later=8.0) for opp in seen.opponents]
        weighed = Estimator(game, np.random.default_rng(seed), 4096)
        dealt = Estimator(game, np.random.default_rng(seed), 4096, sample_starts=True)
        by_weight = weighed.against(seen, ranges, paths=8).now
        by_deal = dealt.against(seen, ranges, paths=8).now
        assert by_deal.effective == pytest.approx(4096)
        assert by_weight.effective < 4096 / 2
        error = 0.5 / np.sqrt(by_weight.effective)
        assert abs(by_deal.share - by_weight.share) < 4 * error
        start_only = [Range(opp, 2.0, 0.0) for opp in seen.opponents]
        wider = dealt.against(seen, start_only, paths=8).now
        assert by_deal.share < wider.share - 2 * error  # the bets really narrow it


def test_paths_against_the_top_of_a_range_and_the_rest_average_back() -> None:
    """A bet I have not seen yet comes from the strong part of a range: my shares against
    that part are lower, against the rest higher, and the two average back to the whole."""
    rng = np.random.default_rng(2)
    whole = Paths(
        rng.random(8), np.ones(8), rng.random(8), rng.random(8), rng.random(8),
        rng.random(8), rng.random(8),
    )  # fmt: skip
    for q in (0.0, 0.25, 0.6, 1.0):
        top, rest = whole.against_top(q), whole.against_top(q, rest=True)
        for name in ("share", "called", "bet_share", "quiet_share"):
            mine, low, high = getattr(whole, name), getattr(top, name), getattr(rest, name)
            assert np.all(low <= mine + 1e-12) and np.all(high >= mine - 1e-12)
            assert np.all((low >= 0) & (high <= 1))
            assert np.allclose(q * low + (1 - q) * high, mine)
        assert np.array_equal(top.fold, whole.fold) and np.array_equal(top.weight, whole.weight)
