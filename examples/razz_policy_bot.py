"""The policy ``train_razz.py --save`` trained, seated as a bot: ``razz_policy_bot:bot``.

``stud.bots.from_policy`` turns the network (the flat observation of
``stud.env`` in, the most likely legal action out) into a bot, so the
project's tools play it like any other:

    python examples/train_razz.py --save razz-policy.npz
    PYTHONPATH=examples stud gauntlet razz --bot razz_policy_bot:bot --seats 2
    PYTHONPATH=examples stud sim razz --bots razz_policy_bot:bot,random --hands 5000
    PYTHONPATH=examples stud serve --bots razz_policy_bot:bot

The weights are read from ``$STUD_POLICY`` (default ``razz-policy.npz``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from stud.bots import PolicyBot, from_policy


class Greedy:
    """The trained network's most likely legal action (the same choice every time)."""

    def __init__(self, path: str) -> None:
        with np.load(path) as weights:
            self.w1, self.b1 = weights["w1"], weights["b1"]
            self.w2, self.b2 = weights["w2"], weights["b2"]
        self.__name__ = f"razz network {path}"

    def __call__(self, observation: dict[str, Any], mask: np.ndarray) -> int:
        hidden = np.tanh(observation["observation"].astype(np.float64) @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        return int(np.argmax(np.where(mask > 0, logits, -np.inf)))


def bot(seed: int | None = None) -> PolicyBot:
    """The trained policy as a Razz bot (``seed`` is unused: it plays greedily)."""
    path = os.environ.get("STUD_POLICY", "razz-policy.npz")
    return from_policy(Greedy(path), game="razz", observation="flat")
