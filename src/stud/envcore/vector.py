"""A vector environment: N independent hands stepped with one call, arrays in and out.

``VectorEnv("razz", players=2, count=1024)`` holds 1,024 hands of one table;
``reset(seed=...)`` deals them all and :meth:`VectorEnv.step` takes one
action index per hand (the five of docs/rl.md) and returns every hand's next
observation, mask and seat to act, with the rewards and terminations of the
hands that ended; a hand that ends is replaced at once by a new one (auto-reset),
so every hand always has a seat to act. The work is :class:`~stud.envcore.batch.BatchCore`'s,
one compiled loop; this module checks the table and the actions and hands
out NumPy arrays.

It plays the tables where no seat can run out of chips (stacks deep enough
for every bet of the hand, no rake, no burn cards, no lifted cap, at most
seven seats, so no community card): those rules are the engine's hot path
and the batched core follows them exactly (``tests/test_env_vector.py``);
any other table is refused with the reason, to be played by :class:`~stud.envcore.Core`
or :mod:`stud.env`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.envcore.batch import BatchCore, draws_per_hand, observation_size
from stud.envcore.offsets import ACTION_COUNT
from stud.game import MAX_SEATS, IllegalActionError, TableConfig
from stud.game.config import RAISE_CAP
from stud.game.variants import variant

MAX_VECTOR_SEATS = MAX_SEATS - 1
"""Eight seats may need R12's community card on 7th street, which the batched core does not deal."""
_DRAW_HANDS = 4096
"""Hands' worth of shuffle draws made at a time."""
_BITS = np.arange(ACTION_COUNT, dtype=np.int64)

IntArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float32]


def deepest_hand(config: TableConfig) -> int:
    """The most chips one seat can put into a hand at this table: ante and every capped street."""
    streets = 2 * config.small_bet + 3 * config.big_bet
    if config.game.open_pair_double_bet:  # R7: 4th street may be played for big bets
        streets = config.small_bet + 4 * config.big_bet
    return config.ante + RAISE_CAP * streets


def check_vector_table(config: TableConfig) -> None:
    """ValueError naming what the batched core does not play at this table; None if it plays it."""
    problems: list[str] = []
    if config.seats > MAX_VECTOR_SEATS:
        problems.append(
            f"{config.seats} seats (at most {MAX_VECTOR_SEATS}: eight may need a community card)"
        )
    need = deepest_hand(config)
    short = [s for s, stack in enumerate(config.stacks) if stack < need]
    if short:
        problems.append(
            f"stacks below {need} chips at seats {short} (every stack must cover the ante and "
            "every capped street, so nobody can be all-in)"
        )
    if config.rake_percent:
        problems.append("rake")
    if config.burn_cards:
        problems.append("burn cards")
    if config.lift_cap_heads_up:
        problems.append("the lifted heads-up cap (raises without limit reach all-ins)")
    if problems:
        raise ValueError(
            "the vector environment plays tables where nobody can run out of chips; this one has "
            + "; ".join(problems)
            + ". Play it with stud.envcore.Core or stud.env instead"
        )


@dataclass(frozen=True, slots=True)
class Batch:
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return: one row per hand.

    Every array is new (the caller may keep it). ``rewards``, ``net`` and
    ``terminated`` describe the hands that ended in this step; ``observation``,
    ``mask`` and ``to_act`` are already those of the hand that replaced them.
    """

    observation: IntArray
    """(count, observation_size) int64: each hand seen by its seat to act (docs/rl.md)."""
    mask: MaskArray
    """(count, 5) int8: 1 where an action index is legal for that seat."""
    to_act: IntArray
    """(count,) the seat to act in each hand."""
    rewards: FloatArray
    """(count, seats) float32: where ``terminated``, each seat's chips won or lost in big bets."""
    net: IntArray
    """(count, seats) int64: the same in chips."""
    terminated: npt.NDArray[np.bool_]
    """(count,) True where a hand ended in this step (and a new one was dealt)."""


class VectorEnv:
    """``count`` independent hands of one table (the engine's keyword options, or ``config=``).

    ``reset(seed)`` then ``step(actions)`` over and over; see the module
    docstring and docs/rl.md (*Batched hands*).
    """

    def __init__(
        self,
        game: str = "razz",
        players: int = 2,
        count: int = 1024,
        *,
        ante: int = 2,
        bring_in: int = 5,
        small_bet: int = 20,
        big_bet: int = 40,
        stacks: int = 4000,
        config: TableConfig | None = None,
    ) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"count must be a whole number of hands, at least 1, not {count!r}")
        if config is None:
            if isinstance(players, bool) or not isinstance(players, int):
                raise ValueError(f"players must be a whole number, not {players!r}")
            config = TableConfig(
                game=variant(game),
                ante=ante,
                bring_in=bring_in,
                small_bet=small_bet,
                big_bet=big_bet,
                stacks=(stacks,) * players,
            )
        check_vector_table(config)
        self.config = config
        self.count = count
        self.seats = config.seats
        self.observation_size = observation_size(config.seats)
        self._rng = np.random.default_rng()
        self._highs = 52 - np.arange(draws_per_hand(config.seats), dtype=np.int64)
        self._core: BatchCore | None = None

    def _draw(self) -> bytes:
        """Shuffle draws for the next hands: exact Fisher-Yates steps from the seeded generator."""
        highs = np.broadcast_to(self._highs, (_DRAW_HANDS, self._highs.size))
        return self._rng.integers(0, highs, dtype=np.uint8).tobytes()

    def reset(self, seed: int | None = None) -> Batch:
        """Deal a new hand everywhere; ``seed`` makes every later deck reproducible."""
        self._rng = np.random.default_rng(seed)
        self._core = BatchCore(
            self.config.game,
            self.count,
            self.config.ante,
            self.config.bring_in,
            self.config.small_bet,
            self.config.big_bet,
            list(self.config.stacks),
            self._draw,
        )
        self._core.reset()
        return self._batch()

    def step(self, actions: npt.ArrayLike) -> Batch:
        """Play one action index in each hand (an illegal one: IllegalActionError, none played)."""
        core = self._core
        if core is None:
            raise IllegalActionError("no hands are dealt: call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.count,):
            raise IllegalActionError(
                f"step takes one action index per hand: an array of shape ({self.count},), "
                f"not {chosen.shape}"
            )
        if chosen.dtype.kind not in "iu":
            raise IllegalActionError(f"action indices must be integers, not {chosen.dtype} values")
        out = (chosen < 0) | (chosen >= ACTION_COUNT)
        if out.any():
            hand = int(np.argmax(out))
            raise IllegalActionError(
                f"hand {hand}: action {int(chosen[hand])} is not an index 0 to {ACTION_COUNT - 1}"
            )
        packed = chosen.astype(np.uint8).tobytes()
        hand = core.illegal(packed)
        if hand >= 0:
            legal = [int(a) for a in _BITS if (core.bits[hand] >> a) & 1]
            raise IllegalActionError(
                f"hand {hand}: action {int(chosen[hand])} is not legal for seat "
                f"{core.to_act[hand]} now; legal: {legal}"
            )
        core.step(packed)
        return self._batch()

    def _dealt(self) -> BatchCore:
        if self._core is None:
            raise ValueError("no hands are dealt: call reset() first")
        return self._core

    def decks(self) -> IntArray:
        """(count, 52) each hand's deck in dealing order (a copy; every card, so not for agents)."""
        return (
            np.frombuffer(memoryview(self._dealt().decks), dtype=np.int64)
            .reshape(self.count, 52)
            .copy()
        )

    def _batch(self) -> Batch:
        core = self._dealt()
        to_act = np.frombuffer(memoryview(core.to_act), dtype=np.int64).copy()
        bits = np.frombuffer(memoryview(core.bits), dtype=np.int64)
        mask = ((bits[:, None] >> _BITS) & 1).astype(np.int8)
        observation = (
            np.frombuffer(memoryview(core.obs), dtype=np.int64).reshape(self.count, -1).copy()
        )
        if core.ended:
            net = np.frombuffer(memoryview(core.net), dtype=np.int64).reshape(self.count, -1).copy()
            terminated = np.frombuffer(memoryview(core.done), dtype=np.int64) != 0
        else:
            net = np.zeros((self.count, self.seats), dtype=np.int64)
            terminated = np.zeros(self.count, dtype=np.bool_)
        rewards = (net / self.config.big_bet).astype(np.float32)
        return Batch(observation, mask, to_act, rewards, net, terminated)
