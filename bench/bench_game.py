"""Hands per second: our engine against PokerKit on the same random workload.

Both engines play complete hands in which every decision picks uniformly
among the kinds of action legal at that moment — fold, check/call,
bring-in, complete/bet/raise (the smallest amount) — with folding offered
only when there is a bet to call, as PokerKit allows. Ours deals with burn
cards on, as PokerKit does. Both shuffle with NumPy permutations made in
blocks (unbiased, far quicker than random.shuffle): PokerKit
through its shuffle, ours by taking the 52 shuffled card ints as its deck
(``Hand(config, deck=order)``), so the shuffle, which is neither engine's
work, weighs the same on both. Time is this process's CPU time, and runs
alternate in short slices, so that load from other processes hits both
alike. Prints hands/s and our ratio for Stud, Stud8 and Razz, 2-handed and
8-handed; the target is ratio >= 20 everywhere.

    python bench/bench_game.py [--seconds 2.0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Callable, MutableSequence, Sequence
from operator import itemgetter
from typing import Any

import numpy as np

from stud.game import RAZZ, STUD, STUD8, ActionKind, Hand, TableConfig, Variant

ANTE, BRING_IN, SMALL, BIG, STACK = 1, 2, 4, 8, 200
TARGET = 20.0

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK


class NumpyShuffle(random.Random):
    """A ``random.Random`` whose shuffles are NumPy permutations (PCG64), made in blocks.

    One call of ``Generator.permuted`` shuffles a block of decks at once, so a
    shuffle costs well under a microsecond for either engine; each engine
    takes its own decks from its own generator.
    """

    BLOCK = 4096

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._generator = np.random.default_rng(seed)
        self._block: list[tuple[int, ...]] = []

    def _next_permutation(self) -> tuple[int, ...]:
        if not self._block:
            decks = np.tile(np.arange(52, dtype=np.int8), (self.BLOCK, 1))
            # Tuples: the garbage collector soon stops tracking them, as it would not
            # 4,096 lists, which every collection would walk until they are used up.
            self._block = list(map(tuple, self._generator.permuted(decks, axis=1).tolist()))
        return self._block.pop()

    def shuffle(self, x: MutableSequence[Any]) -> None:
        items = list(x)
        x.clear()
        x.extend(itemgetter(*self._next_permutation())(items))

    def deck(self) -> tuple[int, ...]:
        """The 52 cards in a shuffled dealing order (the same permutations as shuffle)."""
        return self._next_permutation()

    def pick(self, options: Sequence[Any]) -> Any:
        """One of ``options``, uniformly (cheaper than ``choice``)."""
        return options[int(self.random() * len(options))]


def ours(game: Variant, players: int, rng: NumpyShuffle) -> Callable[[], None]:
    """One complete hand of ours per call."""
    config = TableConfig(
        game=game,
        ante=ANTE,
        bring_in=BRING_IN,
        small_bet=SMALL,
        big_bet=BIG,
        stacks=(STACK,) * players,
        burn_cards=True,
    )
    choice = rng.pick
    deck = rng.deck

    def play() -> None:
        hand = Hand(config, deck=deck())
        legal_actions = hand.legal_actions
        act = hand.act
        while not hand.is_over:
            # legal_actions() lists fold, check or call, then wagers smallest first
            # (or, to open 3rd street, bring-in then complete): one of each kind.
            legal = legal_actions()
            first = legal[0].kind
            if first is _FOLD:
                act(choice(legal[1:3] if legal[1].kind is _CHECK else legal[:3]))
            else:
                act(choice(legal[:2]))

    return play


def pokerkit(game: Variant, players: int, rng: NumpyShuffle) -> Callable[[], None] | None:
    """One complete hand of PokerKit's per call, or None if PokerKit is missing."""
    try:
        import pokerkit as pk
    except ImportError:
        return None
    automations = (
        pk.Automation.ANTE_POSTING,
        pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING,
        pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING,
        pk.Automation.BOARD_DEALING,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
        pk.Automation.CHIPS_PULLING,
    )
    create_state = {
        "stud": pk.FixedLimitSevenCardStud.create_state,
        "stud8": pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state,
        "razz": pk.FixedLimitRazz.create_state,
    }[game.code]
    choice = rng.pick
    # PokerKit shuffles with random.shuffle imported into its state module.
    pk.state.shuffle = NumpyShuffle(rng.randrange(2**32)).shuffle  # type: ignore[attr-defined]

    def play() -> None:
        state = create_state(
            automations, True, ANTE, BRING_IN, SMALL, BIG, (STACK,) * players, players
        )
        while state.status:
            options: list[Callable[[], object]] = []
            if state.can_fold():
                options.append(state.fold)
            if state.can_check_or_call():
                options.append(state.check_or_call)
            if state.can_post_bring_in():
                options.append(state.post_bring_in)
            if state.can_complete_bet_or_raise_to():
                options.append(state.complete_bet_or_raise_to)
            choice(options)()

    return play


def rate(play: Callable[[], None], seconds: float) -> tuple[int, float]:
    """Hands played and time taken in one slice of about ``seconds``."""
    count = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        play()
        count += 1
        if count % 8 == 0 and clock() >= deadline:
            return count, clock() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per engine per case")
    parser.add_argument("--slices", type=int, default=4, help="alternating slices per case")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rng = NumpyShuffle(2024)
    worst = float("inf")
    print(f"{'game':6} {'seats':>5} {'ours hands/s':>13} {'PokerKit hands/s':>17} {'ratio':>7}")
    for game in (STUD, STUD8, RAZZ):
        for players in (2, 8):
            mine = ours(game, players, rng)
            theirs = pokerkit(game, players, rng)
            totals = [[0, 0.0], [0, 0.0]]
            piece = args.seconds / args.slices
            for _ in range(args.slices):
                for index, play in enumerate((mine, theirs)):
                    if play is None:
                        continue
                    count, spent = rate(play, piece)
                    totals[index][0] += count
                    totals[index][1] += spent
            our_rate = totals[0][0] / totals[0][1]
            if theirs is None:
                print(f"{game.code:6} {players:>5} {our_rate:>13,.0f} {'(no PokerKit)':>17}")
                continue
            their_rate = totals[1][0] / totals[1][1]
            ratio = our_rate / their_rate
            worst = min(worst, ratio)
            print(
                f"{game.code:6} {players:>5} {our_rate:>13,.0f} {their_rate:>17,.0f} {ratio:>6.1f}x"
            )
    if worst != float("inf"):
        verdict = "meets" if worst >= TARGET else "misses"
        print(f"worst ratio {worst:.1f}x {verdict} the {TARGET:.0f}x target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
