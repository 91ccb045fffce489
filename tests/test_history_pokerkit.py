"""PHH both ways with PokerKit: our records load there, and its records replay here.

The tables are set up where both follow the same rules (issue 3 lists where
they differ by design): burn cards on, betting reopened only by a full raise,
no open-pair big bet, at most seven players (PokerKit reshuffles the muck
instead of dealing a community card).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

import pytest

pokerkit = pytest.importorskip("pokerkit")

from stud.cards import Deck  # noqa: E402
from stud.game import Hand, TableConfig, variant  # noqa: E402
from stud.history.from_engine import record_from_hand  # noqa: E402
from stud.history.model import Game  # noqa: E402
from stud.history.phh import read_phh, write_phh  # noqa: E402
from stud.history.replay import replay  # noqa: E402
from stud.history.samples import play_randomly  # noqa: E402

GAMES: tuple[Game, ...] = ("stud", "stud8", "razz")
HANDS_PER_GAME = 80


def _pokerkit_final_stacks(text: str) -> tuple[int, ...]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit 0.7.7 warns about fields it does not know
        history = pokerkit.HandHistory.loads(text)
        *_, final = iter(history)
    return tuple(final.stacks)


@pytest.mark.parametrize("game", GAMES)
def test_records_we_write_load_in_pokerkit_with_the_same_stacks(game: Game) -> None:
    for seed in range(HANDS_PER_GAME):
        rng = random.Random(seed)
        players = 2 + seed % 6
        config = TableConfig(
            game=variant(game),
            ante=1,
            bring_in=2,
            small_bet=4,
            big_bet=8,
            stacks=tuple(rng.randrange(20, 400) for _ in range(players)),
            burn_cards=True,
            short_all_in_rule=False,
        )
        hand = play_randomly(Hand(config, deck=Deck(seed=seed)), rng, smallest=True)
        record = record_from_hand(hand, names=[f"P{i}" for i in range(players)])
        text = write_phh(record)
        assert _pokerkit_final_stacks(text) == record.finishing_stacks, text


def _pokerkit_hand(game_type: type, seed: int) -> tuple[str, tuple[int, ...]]:
    """A hand PokerKit plays with random legal actions, as PHH, and its final stacks."""
    random.seed(seed)  # PokerKit shuffles with the random module
    rng = random.Random(seed)
    players = 2 + seed % 6
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_DEALING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    game = game_type(automations, False, 1, 2, 4, 8, mode=pokerkit.Mode.CASH_GAME)
    state = game([rng.randrange(20, 400) for _ in range(players)], players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "there is no reason for this player to fold"
        while state.status:
            moves: list[Callable[[], object]] = []
            if state.can_post_bring_in():
                moves.append(state.post_bring_in)
            if state.can_fold():
                moves.append(state.fold)
            if state.can_check_or_call():
                moves.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                moves.append(state.complete_bet_or_raise_to)
            rng.choice(moves)()
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    return text, tuple(state.stacks)


@pytest.mark.parametrize(
    "game_type",
    [
        pokerkit.FixedLimitSevenCardStud,
        pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
        pokerkit.FixedLimitRazz,
    ],
)
def test_records_pokerkit_writes_replay_here_with_the_same_stacks(game_type: type) -> None:
    for seed in range(HANDS_PER_GAME):
        text, stacks = _pokerkit_hand(game_type, seed)
        record = read_phh(text, f"pokerkit-{seed}.phh")
        report = replay(record)
        assert report.ok, (report.problems, text)
        assert report.stacks == stacks, text
