"""Every observation is the engine's per-seat view, encoded: no foreign down card, ever.

Thousands of hands of all three games, 2 to 8 players, short and deep stacks:
at every step each agent's observation must equal, bit for bit, an encoding
made here, independently, from ``Hand.view(seat)`` (the engine's view for
that seat), and no card another seat holds face down may appear anywhere in it.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from stud.env import SIZE, StudEnv, unflatten
from stud.envcore.offsets import BETTING_FEATURES
from stud.game import (
    Acted,
    ActionKind,
    BettingCapped,
    DoubleBetAllowed,
    HandView,
    StreetStarted,
    TableConfig,
    variant,
)

pytestmark = pytest.mark.slow

_COLUMN = {
    ActionKind.BRING_IN: "bring_in",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.COMPLETE: "wager",
    ActionKind.BET: "wager",
    ActionKind.RAISE: "wager",
    ActionKind.FOLD: "fold",
}


def reference(view: HandView, big_bet: int) -> npt.NDArray[np.float32]:
    """The observation of ``view.viewer``, built from the engine's view alone."""
    seat = view.viewer
    assert seat is not None
    n = len(view.seats)
    flat = np.zeros(SIZE, dtype=np.float32)
    parts = unflatten(flat)
    me = view.seats[seat]
    for card in me.down:
        assert card is not None
        parts["down"][card] = 1
    parts["position"][seat] = 1
    if view.to_act == seat and view.legal_actions:
        parts["to_call"][0] = min(view.level - me.bet, me.stack) / big_bet
        wager = 3
        for action in view.legal_actions:
            if action.kind.is_wager:
                index, wager = wager, 4
            else:
                index = {"fold": 0, "check": 1, "call": 1, "bring-in": 2}[action.kind.value]
            parts["amounts"][index] = action.to / big_bet
    street = 3
    aggressor = None
    wagers = 0
    capped = double = False
    for event in view.events:
        if isinstance(event, StreetStarted):
            street, aggressor, wagers, capped, double = event.street, None, 0, False, False
        elif isinstance(event, Acted):
            row = (event.seat - seat) % n
            column = BETTING_FEATURES.index(_COLUMN[event.kind])
            parts["betting"][row, street - 3, column] += 1
            if event.kind.is_wager:
                aggressor = event.seat
                wagers += 1
        elif isinstance(event, BettingCapped):
            capped = True
        elif isinstance(event, DoubleBetAllowed):
            double = True
    for row in range(n):
        other = view.seats[(seat + row) % n]
        for card in other.up:
            assert card is not None
            parts["up"][row, card] = 1
        parts["players"][row] = (
            1,
            other.live,
            other.all_in,
            other.stack / big_bet,
            other.bet / big_bet,
            other.committed / big_bet,
            other.seat == aggressor,
        )
    if view.community is not None:
        parts["community"][view.community] = 1
    parts["street"][view.street - 3] = 1
    parts["table"][:] = (view.pot / big_bet, view.level / big_bet, wagers, capped, double)
    return flat


def _configs() -> list[TableConfig]:
    rng = random.Random(5)
    configs = []
    for game in ("stud", "stud8", "razz"):
        for players in (2, 3, 5, 8):
            configs.append(
                TableConfig(
                    game=variant(game), ante=1, bring_in=2, small_bet=4, big_bet=8,
                    stacks=tuple(rng.choice((3, 12, 30, 90, 400)) for _ in range(players)),
                )
            )  # fmt: skip
            configs.append(
                TableConfig(
                    game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40,
                    stacks=(4000,) * players, burn_cards=players == 8,
                    lift_cap_heads_up=players == 2,
                )
            )  # fmt: skip
    return configs


@pytest.mark.parametrize("config", _configs(), ids=lambda c: f"{c.game}-{c.seats}-{c.stacks[0]}")
def test_every_observation_is_the_seat_view_encoded(config: TableConfig) -> None:
    env = StudEnv(config=config, observation="flat")
    rng = random.Random(config.seats * 31 + config.stacks[0])
    env.reset(seed=config.seats)
    hands = 90
    rivers_shared = 0
    for _ in range(hands):
        env.reset()
        hand = env.hand
        assert hand is not None
        for agent in env.agent_iter():
            for other in env.agents:  # every agent, not only the one to act
                seat = int(other.split("_")[1])
                observation = env.observe(other)["observation"]
                expected = reference(hand.view(seat), config.big_bet)
                np.testing.assert_array_equal(  # bit for bit
                    observation.view(np.uint32), expected.view(np.uint32), err_msg=f"{other}"
                )
                visible = {int(c) for c in np.flatnonzero(unflatten(observation)["down"])}
                assert visible == set(hand.down_cards(seat))
                cards = {
                    int(c) % 52
                    for c in np.flatnonzero(
                        np.concatenate(
                            [unflatten(observation)[k].ravel() for k in ("up", "community")]
                        )
                    )
                }
                for foreign in range(config.seats):
                    if foreign != seat:
                        hidden = set(hand.down_cards(foreign))
                        assert not hidden & (cards | visible), f"{other} sees {hidden}"
            _, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            legal = np.flatnonzero(mask)
            passive = [i for i in legal if i in (1, 2)]
            choice = passive[0] if passive and rng.random() < 0.6 else rng.choice(list(legal))
            env.step(int(choice))
        rivers_shared += hand.has_community
    if config.seats == 8 and config.stacks[0] == 4000:
        assert rivers_shared, "no hand reached the shared 7th-street card"
