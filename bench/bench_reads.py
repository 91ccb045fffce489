"""How well the strong bot's reads keep up: a player who changes gear, and the first hands.

Heads-up duplicate matches (:mod:`stud.sim.duplicate`), luck-adjusted, big bets
per 100 hands per seat with 95% intervals, every match on the same deals
(the same ``--seed``):

- **against each opponent**: the bot's rate over the whole match, over the
  first ``--early`` deals of each session (a fresh opponent: the bots of a
  session start knowing nothing) and over the rest, and the first's share of
  the second's;
- **against the gear-changer** (``shifter``, :class:`stud.bots.gears.GearBot`)
  beside **the average of its styles alone**: the shifter's schedule is
  replayed from its seed (which style it played each hand in), and each of
  its deals is set against the same deal played by the bot against that
  style alone, so the difference is paired deal by deal and weighted exactly
  as the shifter spent its hands (it needs the matches against ``loose``,
  ``stealer``, ``prober``, ``nit`` and ``tag``).

Each session's per-deal results are kept in ``--cache`` as it ends (one
``.npz`` per game, bot, opponent, seed and session), sessions taken in turn
across the matches: an interrupted run keeps whole sessions of every match,
the same command resumes it, and ``--report`` tables what the cache holds
(the sessions every match has played, so the deals are the same).

    python bench/bench_reads.py --game razz --deals 20000 --seed 401 --jobs 2
    python bench/bench_reads.py --game razz --opponents stealer --deals 20000 --seed 401
    python bench/bench_reads.py --game razz --bot strong-own-view --opponents tag
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import numpy.typing as npt

from stud.bots.gears import GearBot
from stud.sim.duplicate import PLAYS, MatchConfig, MatchResult, SessionPlay, play_match_session
from stud.sim.run import session_seeds
from stud.sim.workers import run_tasks

Deals = npt.NDArray[np.float64]
"""A side's luck-adjusted big bets per hand per seat: shape (deals, plays)."""

SHIFTER = "shifter"
STYLES = ("loose", "stealer", "prober", "nit", "tag")
"""The styles the shifter plays (:data:`stud.bots.gears.LOOSE_STYLES`, ``TIGHT_STYLES``)."""


def _per_play(result: MatchResult) -> Deals:
    """The hero's luck-adjusted big bets per hand per seat it holds, each deal and play."""
    assert result.luck is not None
    chips = result.net.astype(np.float64) - result.luck
    per_play: Deals = chips[:, :, 0::2].mean(axis=2) / result.config.stakes.big_bet
    return per_play


def _name(config: MatchConfig, start: int) -> str:
    return f"{config.game}-{config.hero}-{config.villain}-{config.seed}-{start}.npz"


def _play(configs: list[MatchConfig], jobs: int, cache: Path) -> None:
    """Play every session not in the cache yet, session by session across the matches (so
    an interrupted run leaves whole sessions of every match), saving each as it ends."""
    cache.mkdir(parents=True, exist_ok=True)
    tasks = [
        (config, start, count)
        for start, count in configs[0].sessions()
        for config in configs
        if not (cache / _name(config, start)).exists()
    ]

    def save(i: int, session: SessionPlay) -> None:
        config, start, _ = tasks[i]
        result = MatchResult(config, session.net, session.luck)
        np.savez(cache / _name(config, start), hero=_per_play(result))

    run_tasks(play_match_session, tasks, jobs, done=save)


def _load(config: MatchConfig, cache: Path, starts: list[int]) -> Deals:
    """The hero's per-deal, per-play results over the sessions ``starts``."""
    parts = [np.load(cache / _name(config, start))["hero"] for start in starts]
    return np.concatenate(parts) if parts else np.zeros((0, PLAYS))


def _cell(values: Deals) -> str:
    """Mean per 100 hands with its 95% interval, ``*`` where it excludes zero."""
    n = len(values)
    mean = 100.0 * float(values.mean())
    half = 100.0 * 1.96 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return f"{mean:+7.2f} ± {half:5.2f}{'*' if abs(mean) > half else ' '}"


def _early(config: MatchConfig, deals: int, early: int) -> npt.NDArray[np.bool_]:
    """Which of ``deals`` (whole sessions) are among the first ``early`` of their session."""
    index = np.arange(deals)
    return (index % config.session) < early


def _ratio(early: Deals, later: Deals) -> str:
    """The early rate as a share of the later one, with a delta-method 95% interval."""
    if len(early) < 2 or len(later) < 2:
        return "n/a"
    a, b = float(early.mean()), float(later.mean())
    if b <= 0:
        return "n/a"
    va = float(early.var(ddof=1)) / len(early)
    vb = float(later.var(ddof=1)) / len(later)
    r = a / b
    half = 1.96 * math.sqrt(va / b**2 + vb * a**2 / b**4)
    return f"{100 * r:5.1f}% ± {100 * half:4.1f}"


def shifter_styles(config: MatchConfig, starts: list[int]) -> npt.NDArray[np.str_]:
    """The style the shifter played each hand of the sessions ``starts`` in, shape (deals,
    plays).

    The hero is player 0 and the shifter player 1 of every session; each session's
    shifter is seeded from the run's seed and the session alone, and counts every
    hand it is dealt, so its schedule replays from the seed.
    """
    out = []
    for start, count in config.sessions():
        if start not in starts:
            continue
        _, seeds = session_seeds(config.seed, start, config.seats)
        shifter = GearBot(seeds[1])
        for _ in range(count * PLAYS):
            shifter.next_hand()
            out.append(shifter.style)
    return np.array(out, dtype="<U8").reshape(-1, PLAYS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="razz")
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--opponents", default=",".join((SHIFTER, *STYLES)))
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=401)
    parser.add_argument("--early", type=int, default=250, help="deals of a session counted early")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=Path("bench-reads"))
    parser.add_argument("--report", action="store_true", help="only report what the cache holds")
    args = parser.parse_args()
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    configs = [MatchConfig(args.game, args.bot, o, args.deals, 2, args.seed) for o in opponents]
    if not args.report:
        _play(configs, args.jobs, args.cache)
    # Whole sessions every match has played: the same deals for each.
    starts = [
        start
        for start, _ in configs[0].sessions()
        if all((args.cache / _name(c, start)).exists() for c in configs)
    ]
    results = {c.villain: (c, _load(c, args.cache, starts)) for c in configs}
    deals = sum(count for start, count in configs[0].sessions() if start in starts)
    print(f"{args.game}: {args.bot}, heads-up duplicate, {deals:,} deals (x2 hands) a match, "
          f"seed {args.seed}; luck-adjusted bb/100 per seat, 95% CI, * significant")  # fmt: skip
    print(f"{'opponent':10} {'all':>16}  {f'first {args.early} deals':>18}  "
          f"{'later':>16}  {'first / later':>15}")  # fmt: skip
    if not starts:
        return
    for name, (config, per_play) in results.items():
        per_deal = per_play.mean(axis=1)
        early = _early(config, len(per_deal), args.early)
        first, rest = per_deal[early], per_deal[~early]
        print(f"{name:10} {_cell(per_deal)}  {_cell(first):>18}  "
              f"{_cell(rest)}  {_ratio(first, rest):>15}")  # fmt: skip
    if SHIFTER in results and all(s in results for s in STYLES):
        config, shifted = results[SHIFTER]
        styles = shifter_styles(config, starts)
        alone = np.zeros_like(shifted)
        for style in STYLES:
            alone = np.where(styles == style, results[style][1], alone)
        diff = (shifted - alone).mean(axis=1)
        print()
        print(f"against the shifter {_cell(shifted.mean(axis=1))}; against its styles alone, "
              f"as it played them, {_cell(alone.mean(axis=1))}")  # fmt: skip
        print(f"the shifter costs it {_cell(diff)} (paired deal by deal; target: at least -2)")
        for style in STYLES:
            mask = styles == style
            share = float(mask.mean())
            if share:
                gap = (shifted - alone)[mask]
                print(f"  in its {style:8} stretches ({100 * share:4.1f}% of hands): "
                      f"{_cell(gap)}")  # fmt: skip


if __name__ == "__main__":
    main()
