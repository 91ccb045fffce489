"""The small game (python_razz_small): the engine's small-game options, CFR+ on its tree, its bot.

Also the information-state tensor's street of each up card (docs/rl.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from stud.cards import Deck, parse_cards
from stud.game import Hand, ScriptedCards, TableConfig

SMALL = {
    "game": "razz",
    "ante": 1,
    "bring_in": 1,
    "small_bet": 2,
    "big_bet": 4,
    "stacks": (6, 6),
    "down_cards": 1,
    "last_street": 4,
    "deck_cards": "Ac 2c 3c 4c 5c 6c 7c",
}


def test_the_full_game_is_the_default() -> None:
    config = TableConfig(game="razz", ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(9, 9))
    assert (config.down_cards, config.last_street, config.deck_cards) == (2, 7, None)
    assert (config.cards_per_seat, config.deck_size) == (7, 52)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"down_cards": 3}, "down_cards must be 1 or 2"),
        ({"down_cards": True}, "down_cards must be 1 or 2"),
        ({"last_street": 8}, "last_street must be a street from 3 to 7"),
        ({"last_street": 2}, "last_street must be a street from 3 to 7"),
        ({"deck_cards": "Ac 2c 3c 4c 5c"}, "deck_cards holds 5 cards; 2 seats need at least 6"),
        ({"deck_cards": "Ac Ac 2c 3c 4c 5c"}, "deck_cards must be distinct cards"),
        ({"deck_cards": "Ac Xx"}, "deck_cards must be distinct cards"),
    ],
)
def test_impossible_small_games_are_refused_by_name(change: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        TableConfig(**{**SMALL, **change})  # type: ignore[arg-type]


def test_a_short_deck_deals_only_its_cards_and_keeps_every_chip() -> None:
    config = TableConfig(**SMALL)  # type: ignore[arg-type]
    allowed = set(config.deck_cards or ())
    rng = np.random.default_rng(4)
    for seed in range(200):
        hand = Hand(config, deck=Deck(seed))
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act(legal[int(rng.integers(len(legal)))])
        assert hand.result is not None and sum(hand.result.stacks) == 12
        for seat in range(2):
            cards = hand.cards(seat)
            assert set(cards) <= allowed
            assert len(cards) in (2, 3)  # a fold on 3rd street ends it after two
    hand = Hand(config, deck=Deck(7))
    clone = hand.copy()  # a short deck's place is copied too: both deal the same cards
    for played in (hand, clone):
        while not played.is_over:
            played.act(played.legal_actions()[1])
    assert hand.events == clone.events
    with pytest.raises(ValueError, match="the table's 7 deck_cards"):
        Hand(config, deck=list(range(52)))


def test_a_three_card_razz_showdown_is_the_low_of_the_three_cards() -> None:
    config = TableConfig(**SMALL)  # type: ignore[arg-type]
    # seat 0: 6 down, 2 up, then 3 (6-3-2); seat 1: A down, 7 up, then 5 (7-5-A)
    hand = Hand(config, cards=ScriptedCards(["6c 2c 3c", "Ac 7c 5c"]))
    assert hand.to_act == 1  # the 7 is the highest door card: it brings in
    while not hand.is_over:
        hand.act(hand.legal_actions()[1])  # complete, then call and check down
    result = hand.result
    assert result is not None
    [award] = result.awards
    assert (award.seat, award.hand) == (0, "6,3,2")
    assert [str(c) for c in award.cards] == ["6c", "3c", "2c"]
    assert result.net == (3, -3)


def test_stud_on_fewer_than_five_cards_plays_pairs_and_no_low() -> None:
    config = TableConfig(
        game="stud8", ante=1, bring_in=1, small_bet=2, big_bet=4, stacks=(20, 20), last_street=4
    )
    seat0 = [int(c) for c in parse_cards("Kc Kd 2c 3c")]  # a pair of Kings, and a low draw
    seat1 = [int(c) for c in parse_cards("Ac Qd 4c 5c")]
    hand = Hand(config, cards=ScriptedCards([seat0, seat1]))
    while not hand.is_over:
        hand.act(hand.legal_actions()[1])
    assert hand.result is not None
    [award] = hand.result.awards
    assert (award.seat, award.hand, award.share) == (0, "a pair of Kings", "all")


pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is NOT installed: pip install -e '.[openspiel]'"
)

from open_spiel.python.algorithms import exploitability  # noqa: E402

from stud.bots import make_bot, play_hand  # noqa: E402
from stud.spiel import policy_bot  # noqa: E402
from stud.spiel.solve import SolvedPolicy, cfr_plus, game_tree  # noqa: E402

TINY = {"last_street": 3, "deck": "Ac 2c 3c 4c"}
"""python_razz_small cut to 3rd street and four cards: a tree of a few hundred nodes."""


def test_the_small_game_passes_open_spiels_simulation_and_serialisation() -> None:
    game = pyspiel.load_game("python_razz_small")
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert sorted(c for c, _ in state.chance_outcomes()) == sorted(game.config.deck_cards)


@pytest.mark.slow
def test_cfr_plus_on_the_exported_tree_is_measured_as_on_the_python_game() -> None:
    """The EFG tree is the engine's game: the same policy is as exploitable in both."""
    game = pyspiel.load_game("python_razz_small", TINY)
    tree = game_tree(game)
    steps = list(cfr_plus(tree, [1, 20]))
    first, (last, policy) = steps[0][0], steps[-1]
    assert last.exploitability < first.exploitability
    solved = SolvedPolicy.of(tree, policy)

    class OnTheGame:  # what OpenSpiel's Python exploitability asks of a policy
        def action_probabilities(
            self, state: object, player_id: int | None = None
        ) -> dict[int, float]:
            return solved.action_probabilities(state, player_id)

    measured = exploitability.exploitability(game, OnTheGame())
    assert measured == pytest.approx(last.exploitability, abs=1e-9)


def test_the_solved_policy_plays_legal_moves_as_a_bot(tmp_path: object) -> None:
    game = pyspiel.load_game("python_razz_small", TINY)
    tree = game_tree(game)
    *_, (_, policy) = cfr_plus(tree, [5])
    path = tmp_path / "policy.json"  # type: ignore[operator]
    SolvedPolicy.of(tree, policy).save(path)
    bot = policy_bot(SolvedPolicy.load(path), game, sample=True, seed=1)
    rng = np.random.default_rng(0)
    deck = list(game.config.deck_cards)
    for seed in range(30):
        hand = Hand(game.config, deck=[int(c) for c in rng.permutation(deck)])
        seats = [bot, make_bot("random", seed=seed)]
        play_hand(hand, seats if seed % 2 else seats[::-1])
        assert hand.result is not None and sum(hand.result.net) == 0


def _tensors(first_up: int, second_up: int) -> tuple[list[float], list[float]]:
    """Seat 0's tensors on 4th street after its up cards came in this order."""
    game = pyspiel.load_game("python_razz_small")
    state = game.new_initial_state()
    ace, four, seven, five = (int(c) for c in parse_cards("Ac 4c 7c 5c"))
    for card in (ace, four, first_up, seven):  # down cards, then door cards (7c brings in)
        state.apply_action(card)
    state.apply_action(2)  # seat 1 brings in
    state.apply_action(1)  # seat 0 calls: 4th street
    for card in (second_up, five):
        state.apply_action(card)
    assert state.hand.street == 4 and state.hand.up_cards(0) == (first_up, second_up)
    return state.information_state_tensor(0), state.observation_tensor(0)


def test_the_information_state_tensor_says_on_which_street_each_up_card_came() -> None:
    two, three = (int(c) for c in parse_cards("2c 3c"))
    recall_a, seen_a = _tensors(two, three)
    recall_b, seen_b = _tensors(three, two)
    assert seen_a == seen_b  # the compact observation: the same cards up, the same actions
    assert recall_a != recall_b  # perfect recall: which came on 3rd street and which on 4th
    block = np.asarray(recall_a[-8 * 4 * 52 :]).reshape(8, 4, 52)
    assert block[0, 0, two] == 1 and block[0, 1, three] == 1 and block.sum() == 4
