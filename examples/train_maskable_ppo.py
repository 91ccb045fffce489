"""Train sb3-contrib's MaskablePPO on heads-up Razz against the random bot, and save it.

The learner is :class:`stud.env.SingleSeatEnv` with the flat observation; the
mask comes from the environment's ``action_masks()``, so the policy never
tries an illegal action. PyTorch and sb3-contrib are not dependencies of Stud:

    pip install torch sb3-contrib
    python examples/train_maskable_ppo.py --seconds 240 --save razz-ppo.zip
    STUD_PPO=razz-ppo.zip PYTHONPATH=examples stud gauntlet razz --bot ppo_razz_bot:bot \\
        --seats 2 --deals 2000
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]
from stable_baselines3.common.callbacks import BaseCallback  # type: ignore[import-not-found]

from stud.env import SingleSeatEnv


class Clock(BaseCallback):  # type: ignore[misc]
    """Stops the training after ``seconds`` of wall time; counts the hands and their rewards."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.rewards: list[float] = []

    def _on_step(self) -> bool:
        for done, reward in zip(self.locals["dones"], self.locals["rewards"], strict=True):
            if done:
                self.rewards.append(float(reward))
        return time.monotonic() < self.deadline


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default="razz-ppo.zip")
    args = parser.parse_args(argv)
    env = SingleSeatEnv("razz", [args.opponent], observation="flat")
    model: Any = MaskablePPO("MultiInputPolicy", env, seed=args.seed, verbose=0)
    clock = Clock(args.seconds)
    model.learn(total_timesteps=10**9, callback=clock)
    model.save(args.save)
    last = clock.rewards[-2000:]
    rate = 100 * sum(last) / max(1, len(last))
    print(f"{len(clock.rewards)} hands in {args.seconds:.0f} s; the last {len(last)} against "
          f"{args.opponent}: {rate:+.1f} bb/100 (while learning); saved {args.save}")  # fmt: skip


if __name__ == "__main__":
    main()
