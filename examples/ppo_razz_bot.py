"""The MaskablePPO model ``train_maskable_ppo.py`` saved, seated as a bot: ``ppo_razz_bot:bot``.

    STUD_PPO=razz-ppo.zip PYTHONPATH=examples stud gauntlet razz --bot ppo_razz_bot:bot --seats 2

The model is read from ``$STUD_PPO`` (default ``razz-ppo.zip``); it plays its
most likely legal action, the mask passed to ``predict`` by
``stud.bots.sb3_policy``.
"""

from __future__ import annotations

import os

from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]

from stud.bots import PolicyBot, from_policy, sb3_policy


def bot(seed: int | None = None) -> PolicyBot:
    """The trained model as a Razz bot (``seed`` is unused: it plays greedily)."""
    model = MaskablePPO.load(os.environ.get("STUD_PPO", "razz-ppo.zip"), device="cpu")
    return from_policy(sb3_policy(model), game="razz", observation="flat")
