"""Monte Carlo equity: reproducible from a seed, unbiased against exact enumeration."""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest

from stud.equity import equity, sample
from stud.equity.deal import make_deal
from stud.equity.sample import partial_shuffle, plan


def test_seed_reproduces_and_workers_agree() -> None:
    players = ["As 2d | 3c", "?? | Kh"]
    one = equity("razz", players, dead="7c 8d", samples=150_000, seed=7)
    again = equity("razz", players, dead="7c 8d", samples=150_000, seed=7)
    two = equity("razz", players, dead="7c 8d", samples=150_000, seed=7, workers=2)
    other = equity("razz", players, dead="7c 8d", samples=150_000, seed=8)
    assert one.method == "sampled" and one.seed == 7 and one.runouts == 150_000
    assert one == again == two
    assert one != other
    assert one.total_runouts == comb(46, 4) * comb(42, 6)


def test_seed_is_reported_when_not_given() -> None:
    players = ["As 2d | 3c", "?? | Kh"]
    result = equity("razz", players, samples=1_000, method="sample")
    assert result.seed is not None
    assert equity("razz", players, samples=1_000, method="sample", seed=result.seed) == result


@pytest.mark.parametrize(
    ("game", "players", "dead"),
    [
        ("stud", ["As Ks | Qs Jd 9c", "2c 2d | 7h 8h 9h"], None),
        ("razz", ["As 2d | 3c 4h Ks 9d", "?? ?? | 6d 7c 8s Qd"], "Kd Kc"),
        ("stud8", ["As 2s | 3s 4d 9c Th", "Kc Kd | 5h 6h 7h Td", "?? 5c | 8c 8d 2c Jd"], "Qs Jh"),
    ],
)
def test_sampling_within_standard_errors_of_exact(
    game: str, players: list[str], dead: str | None
) -> None:
    exact = equity(game, players, dead=dead, method="exact")
    sampled = equity(game, players, dead=dead, method="sample", samples=200_000, seed=3)
    assert exact.method == "exact" and sampled.method == "sampled"
    for e, s in zip(exact, sampled, strict=True):
        assert s.stderr is not None and 0 < s.stderr < 0.005
        assert abs(s.equity - e.equity) <= 4.5 * s.stderr
        assert abs(s.win - e.win) < 4.5 * np.sqrt(e.win * (1 - e.win) / s.runouts) + 1e-9
        if game == "stud8":
            assert s.scoop is not None and e.scoop is not None
            assert abs(s.scoop - e.scoop) < 4.5 * np.sqrt(e.scoop * (1 - e.scoop) / s.runouts)
    assert sum(p.equity for p in sampled) == pytest.approx(1.0)


def test_table_look_up_equals_direct_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    # Shuffling, the same seed draws the same cards: valued by table (rank of the card
    # set) or by the evaluator per run-out, the tally is the same.
    deal = make_deal("stud8", ["As 2d | 3c 4h", "?? ?? | Kh 5d", "6c ?? | 7c 8h"], "Qs")
    batch = plan(20_000)[0]
    sample.tables.cache_clear()
    assert sample.by_rejection(deal, sample.tables(deal, 10**9))
    monkeypatch.setattr(sample, "MIN_ACCEPTANCE", 2.0)  # no redrawing: shuffle
    assert not sample.by_rejection(deal, sample.tables(deal, 10**9))
    by_table = sample.run(deal, 11, batch, table_limit=10**9)
    direct = sample.run(deal, 11, batch, table_limit=0)
    assert all(t is None for t in sample.tables(deal, 0))
    assert by_table.runouts == direct.runouts == 20_000
    for name in ("wins", "ties", "scoops", "units", "units_sq", "high_units", "low_units"):
        assert (getattr(by_table, name) == getattr(direct, name)).all(), name


@pytest.mark.parametrize("shuffle", [False, True])
def test_both_draws_agree_with_exact(monkeypatch: pytest.MonkeyPatch, shuffle: bool) -> None:
    players = ["As 2d | 3c 4h Ks 9d", "?? 2c | 6d 7c 8s Qd", "Tc ?? | Th 5c 5d Jh"]
    dead = "Kc Kd Kh Qc Qh Qs Jc Jd Js Td"
    exact = equity("razz", players, dead=dead, method="exact")
    assert exact.runouts == 26 * 300 * 253
    if shuffle:
        monkeypatch.setattr(sample, "MIN_ACCEPTANCE", 2.0)
    sample.tables.cache_clear()
    sampled = equity("razz", players, dead=dead, method="sample", samples=150_000, seed=21)
    sample.tables.cache_clear()
    for e, s in zip(exact, sampled, strict=True):
        assert s.stderr is not None
        assert abs(s.equity - e.equity) <= 4.5 * s.stderr


def test_sampled_community_card() -> None:
    # Seven players, four dead: R12 deals a community card; sampled against exact.
    hands = [f"?? ?? | {r}c {r}d {x}h {x}s" for r, x in zip("234567", "89TJQK", strict=True)]
    hands.append("?? ?? | Ac Ad 2h 3h")
    dead = "?? ?? ?? ??"
    sampled = equity("stud", hands, dead=dead, samples=40_000, seed=5)
    assert sampled.r12 and sampled.method == "sampled"
    # Against a run with fewer unknowns whose exact answer is small enough to enumerate,
    # the sampler must agree too.
    known = [h.replace("?? ??", f"{a} {b}") for h, (a, b) in zip(hands, _downs(), strict=True)]
    exact = equity("stud", known, dead="Kc Kd Qc Qd", method="exact")
    again = equity("stud", known, dead="Kc Kd Qc Qd", method="sample", samples=60_000, seed=2)
    assert exact.r12 and exact.runouts == 52 - 42 - 4
    for e, s in zip(exact, again, strict=True):
        assert s.stderr is not None
        assert abs(s.equity - e.equity) < 4.5 * s.stderr + 1e-12
    assert sum(p.equity for p in sampled) == pytest.approx(1.0)


def _downs() -> list[tuple[str, str]]:
    return [
        ("4s", "5s"),
        ("6s", "7s"),
        ("8c", "8d"),
        ("9c", "9d"),
        ("Tc", "Td"),
        ("Jc", "Jd"),
        ("As", "Ah"),
    ]


def test_partial_shuffle_is_uniform() -> None:
    rng = np.random.default_rng(0)
    drawn = partial_shuffle(rng, 60_000, 5, 2)
    assert (drawn[:, 0] != drawn[:, 1]).all()
    counts = Counter(map(tuple, drawn.tolist()))
    assert len(counts) == 20
    expected = 60_000 / 20
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 50  # 19 degrees of freedom: p < 1e-4 of failing by chance


def test_batches_cover_the_samples() -> None:
    tasks = plan(200_000, batch=65_536)
    assert sum(t.size for t in tasks) == 200_000
    assert [t.index for t in tasks] == list(range(len(tasks)))
    with pytest.raises(ValueError, match="at least 1"):
        plan(0)
