"""Stud for reinforcement learning: a PettingZoo AEC environment and a Gymnasium wrapper.

An optional extra (from a checkout, ``pip install -e '.[rl]'``): nothing else in Stud
imports it.

>>> from stud.env import StudEnv
>>> env = StudEnv("razz", players=3)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     action = None if terminated else int(observation["action_mask"].argmax())
...     env.step(action)
>>> env.agents
[]

See docs/rl.md for the spaces and how observations follow the rules.
"""

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "stud.env needs the reinforcement-learning extra: "
        "pip install -e '.[rl]' from a checkout (see docs/rl.md)"
    ) from error

from stud.env.actions import (
    ACTION_NAMES,
    BRING_IN,
    CHECK_CALL,
    DOUBLE_WAGER,
    FOLD,
    WAGER,
)
from stud.env.aec import OBSERVATION_MODES, StudEnv, table_config
from stud.env.layout import SEGMENTS, flatten, unflatten
from stud.env.single import SingleSeatEnv
from stud.envcore.offsets import SIZE

__all__ = [
    "ACTION_NAMES",
    "BRING_IN",
    "CHECK_CALL",
    "DOUBLE_WAGER",
    "FOLD",
    "OBSERVATION_MODES",
    "SEGMENTS",
    "SIZE",
    "WAGER",
    "SingleSeatEnv",
    "StudEnv",
    "env",
    "flatten",
    "raw_env",
    "table_config",
    "unflatten",
]


def raw_env(**options: object) -> StudEnv:
    """The environment itself (PettingZoo's ``raw_env`` convention)."""
    return StudEnv(**options)  # type: ignore[arg-type]


def env(**options: object) -> object:
    """The environment inside PettingZoo's order-enforcing wrapper (``env()`` convention)."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(raw_env(**options))
