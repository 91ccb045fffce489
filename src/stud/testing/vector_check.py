"""The batched core against the engine: the same decks and actions through both, step by step.

:func:`compare` plays a :class:`~stud.envcore.vector.VectorEnv` with a
random policy and, beside it, one engine :class:`~stud.game.Hand` per hand,
dealt from the very deck the vector env dealt (``VectorEnv.decks()``). At
every decision it checks that both agree on the seat to act, the legal
action indices, and every number of the observation (the seat's own down
cards, every seat's up cards, stacks, wagers, the pot, the street, the
level); each hand's action is played in both; at the end of a hand, the
chips each seat won or lost. ``tests/test_env_vector.py`` runs it on a few
thousand hands per game; the full count runs as a command:

    python -m stud.testing.vector_check [--hands 100000]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.envcore.batch import DOWN_SLOTS, HEAD, NO_CARD, SEAT_FIELDS, UP_SLOTS
from stud.envcore.turns import index_actions
from stud.envcore.vector import VectorEnv, deepest_hand
from stud.game import Hand, TableConfig


@dataclass
class Compared:
    """What :func:`compare` played (hands, decisions, showdowns) and the first difference."""

    hands: int = 0
    decisions: int = 0
    showdowns: int = 0
    difference: str = ""


def expected_row(hand: Hand, width: int) -> list[int | None]:
    """The observation row the vector env must give for ``hand``'s seat to act, from the engine."""
    seat = hand.to_act
    assert seat is not None
    n = hand.config.seats
    wagers = hand._full  # the engine's own count of full wagers this street (R10)
    opening = int(hand._bring_in)  # 3rd street not yet opened
    double = int(len(hand._units) > 1)  # R7's double bet on offer
    row: list[int | None] = [seat, hand.street, hand.level, wagers, opening, double, hand.pot]
    down = hand.down_cards(seat)  # a dealt deck's cards are all known (never None)
    row += [*down, *_NONE[: DOWN_SLOTS - len(down)]]
    live, stacks, bets, committed = hand.live, hand.stacks, hand.bets, hand.committed
    for r in range(n):
        other = (seat + r) % n
        ups = hand.up_cards(other)
        row += [int(live[other]), stacks[other], bets[other], committed[other], *ups]
        row += _NONE[: UP_SLOTS - len(ups)]
    assert len(row) == HEAD + SEAT_FIELDS * n == width
    return row


_NONE: list[int | None] = [NO_CARD] * UP_SLOTS
_WEIGHTS = 1 << np.arange(5)


def _mask_bits(mask: npt.NDArray[np.int8]) -> list[int]:
    """Each row's mask as the bits of its legal indices."""
    bits: list[int] = (mask * _WEIGHTS).sum(axis=1).tolist()
    return bits


def compare(
    config: TableConfig, hands: int, *, count: int = 256, seed: int = 0, fold: float = 0.06
) -> Compared:
    """Play until ``hands`` hands have ended in both; stop at the first difference.

    The policy folds with probability ``fold`` when folding is legal and
    otherwise picks uniformly among the other legal indices, so hands reach
    the showdown (and its ties) often.
    """
    env = VectorEnv(config=config, count=count)
    batch = env.reset(seed=seed)
    rng = np.random.default_rng(seed + 1)
    engine = [Hand(config, deck=deck.tolist()) for deck in env.decks()]
    done = Compared()
    width = env.observation_size
    while done.hands < hands:
        actions = np.zeros(count, dtype=np.int64)
        masks = _mask_bits(batch.mask)
        rows = batch.observation.tolist()
        seats = batch.to_act.tolist()
        for i, hand in enumerate(engine):
            by_index, bits = index_actions(hand.legal_actions())
            if hand.to_act != seats[i] or bits != masks[i]:
                done.difference = (
                    f"hand {i}: engine seat {hand.to_act} bits {bits:05b}, vector seat "
                    f"{batch.to_act[i]} mask {batch.mask[i].tolist()}"
                )
                return done
            row = rows[i]
            expected = expected_row(hand, width)
            if row != expected:
                done.difference = f"hand {i}: observation {row}, engine {expected}"
                return done
            legal = [k for k in range(len(by_index)) if by_index[k] is not None]
            others = [k for k in legal if k != 0]
            if 0 in legal and (not others or rng.random() < fold):
                choice = 0
            else:
                choice = others[int(rng.integers(len(others)))]
            actions[i] = choice
            action = by_index[choice]
            assert action is not None
            hand.act(action)
            done.decisions += 1
        batch = env.step(actions)
        decks = env.decks()
        for i, hand in enumerate(engine):
            if bool(batch.terminated[i]) != hand.is_over:
                done.difference = f"hand {i}: engine over {hand.is_over}, vector not"
                return done
            if not hand.is_over:
                continue
            assert hand.result is not None
            if list(hand.result.net) != batch.net[i].tolist():
                done.difference = (
                    f"hand {i}: engine net {hand.result.net}, vector {batch.net[i].tolist()}"
                )
                return done
            done.hands += 1
            done.showdowns += sum(hand.live) > 1
            engine[i] = Hand(config, deck=decks[i].tolist())
    return done


def tables(game: str) -> list[TableConfig]:
    """The tables checked for a game: heads-up, three and seven seats, and four with stacks just
    deep enough for every capped street (the deepest stacks the core refuses to go below)."""
    deep = [VectorEnv(game, players=p, count=1).config for p in (2, 3, 7)]
    small = TableConfig(game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(1,) * 4)
    return [*deep, small.with_stacks((deepest_hand(small),) * 4)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per game")
    parser.add_argument("--games", default="stud,stud8,razz")
    args = parser.parse_args(argv)
    failed = False
    for game in args.games.split(","):
        configs = tables(game)
        total = Compared()
        for index, config in enumerate(configs):
            share = args.hands // len(configs) + (index < args.hands % len(configs))
            result = compare(config, share, seed=index)
            total.hands += result.hands
            total.decisions += result.decisions
            total.showdowns += result.showdowns
            if result.difference:
                print(f"{game} {config.seats} seats: {result.difference}")
                failed = True
        print(
            f"{game}: {total.hands:,} hands, {total.decisions:,} decisions, "
            f"{total.showdowns:,} showdowns: {'DIFFERENT' if failed else 'identical'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
