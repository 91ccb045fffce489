"""Train a tiny NumPy policy network to beat the random bot at heads-up Razz, and chart it.

The agent is a two-layer network (the flat observation, 32 tanh units, five
action logits; illegal actions masked out) trained by REINFORCE with a
running baseline and Adam, all in NumPy. Each hand is one episode of
:class:`stud.env.SingleSeatEnv`; the reward is the hand's result in big bets.
The chart shows its win rate (big bets per 100 hands, with 95% intervals)
over stretches of the hands it played while learning, beside break-even and
the calling station's rate against the same bot.

    python examples/train_razz.py                       # about three minutes
    python examples/train_razz.py --seconds 20 --chart /tmp/razz.png
    python examples/train_razz.py --save razz-policy.npz   # then seat it: razz_policy_bot.py
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from stud.env import SIZE, SingleSeatEnv

Array = npt.NDArray[np.float64]
ACTIONS = 5
HIDDEN = 32


@dataclass
class Adam:
    """Adam steps for a list of parameter arrays (gradient ascent)."""

    params: list[Array]
    rate: float = 3e-3
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    first: list[Array] = field(default_factory=list)
    second: list[Array] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.first = [np.zeros_like(p) for p in self.params]
        self.second = [np.zeros_like(p) for p in self.params]

    def ascend(self, grads: list[Array]) -> None:
        self.steps += 1
        fix1 = 1 - self.beta1**self.steps
        fix2 = 1 - self.beta2**self.steps
        for p, g, m, v in zip(self.params, grads, self.first, self.second, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p += self.rate * (m / fix1) / (np.sqrt(v / fix2) + 1e-8)


class Policy:
    """Observation -> 32 tanh units -> masked softmax over the five actions."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0, 1 / np.sqrt(SIZE), (SIZE, HIDDEN))
        self.b1 = np.zeros(HIDDEN)
        self.w2 = rng.normal(0, 0.01, (HIDDEN, ACTIONS))
        self.b2 = np.zeros(ACTIONS)
        self.params = [self.w1, self.b1, self.w2, self.b2]

    def save(self, path: Path) -> None:
        """The weights in an ``.npz`` file (what ``examples/razz_policy_bot.py`` loads)."""
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

    def forward(self, x: Array, mask: npt.NDArray[np.int8]) -> tuple[Array, Array]:
        """The hidden layer and the action probabilities (zero where illegal)."""
        hidden = np.tanh(x @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        logits = np.where(mask > 0, logits, -np.inf)
        exp = np.exp(logits - logits.max())
        return hidden, exp / exp.sum()

    def gradients(
        self, steps: list[tuple[Array, Array, Array, int]], advantage: float
    ) -> list[Array]:
        """advantage * d log pi(a|x) / d params, summed over one hand's decisions."""
        grads = [np.zeros_like(p) for p in self.params]
        for x, hidden, probs, action in steps:
            dlogits = -probs
            dlogits[action] += 1.0
            dlogits *= advantage
            grads[2] += np.outer(hidden, dlogits)
            grads[3] += dlogits
            dhidden = (self.w2 @ dlogits) * (1 - hidden * hidden)
            grads[0] += np.outer(x, dhidden)
            grads[1] += dhidden
        return grads


def train(
    seconds: float, max_hands: int | None, seed: int, rate: float = 1e-3
) -> tuple[Policy, list[float]]:
    """Play and learn until the time or hand budget runs out; every hand's result in big bets."""
    rng = np.random.default_rng(seed)
    env = SingleSeatEnv("razz", ["random"], observation="flat")
    policy = Policy(rng)
    adam = Adam(policy.params, rate=rate)
    baseline, spread = 0.0, 1.0
    results: list[float] = []
    deadline = time.monotonic() + seconds
    observation, _ = env.reset(seed=seed)
    while time.monotonic() < deadline and (max_hands is None or len(results) < max_hands):
        steps: list[tuple[Array, Array, Array, int]] = []
        while True:
            x = observation["observation"].astype(np.float64)
            hidden, probs = policy.forward(x, observation["action_mask"])
            action = int(rng.choice(ACTIONS, p=probs))
            steps.append((x, hidden, probs, action))
            observation, reward, terminated, _, _ = env.step(action)
            if terminated:
                break
        results.append(float(reward))
        advantage = (reward - baseline) / spread
        baseline += 0.01 * (reward - baseline)
        spread += 0.01 * (abs(reward - baseline) - spread)
        adam.ascend(policy.gradients(steps, float(np.clip(advantage, -5, 5))))
        observation, _ = env.reset()
    return policy, results


@dataclass(frozen=True)
class Point:
    """The win rate over one stretch of hands, with its 95% confidence half-width."""

    hands: int
    """Hands played when the stretch ends."""
    bb_per_100: float
    ci95: float


def win_rates(results: list[float], first: int = 25, growth: float = 1.5) -> list[Point]:
    """Win rates over stretches that grow geometrically (the early learning stays visible)."""
    points = []
    start, size = 0, first
    while start + size <= len(results):
        part = np.asarray(results[start : start + size])
        ci = 1.96 * float(part.std(ddof=1)) / np.sqrt(len(part))
        points.append(Point(start + size, 100 * float(part.mean()), 100 * ci))
        start += size
        size = int(size * growth)
    return points


def station_rate(hands: int, seed: int) -> float:
    """The calling station's win rate against the random bot (never folds, never raises)."""
    from stud.sim import SimConfig, player_rates, simulate

    result = simulate(SimConfig("razz", ("station", "random"), hands=hands, seed=seed))
    return player_rates(result)[0].bb_per_100


def chart(points: list[Point], station: float, path: Path) -> Path:
    """Win rate against hands played (log scale), beside the station's and break-even."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = [p.hands for p in points]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    axes.errorbar(
        hands,
        [p.bb_per_100 for p in points],
        yerr=[p.ci95 for p in points],
        color="#1f4e79",
        marker="o",
        markersize=4,
        capsize=3,
        label="learner (95% interval)",
    )
    axes.axhline(station, color="#c0504d", linestyle="--", label="calling station vs random")
    axes.axhline(0, color="grey", linewidth=0.8, label="break-even (random vs random)")
    axes.set_xscale("log")
    axes.set_xlabel("hands played while learning")
    axes.set_ylabel("big bets won per 100 hands")
    axes.set_title("Heads-up Razz: a 32-unit NumPy policy learning against the random bot")
    axes.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--chart", type=Path, default=Path("docs/rl-razz-training.png"))
    parser.add_argument(
        "--reference-hands", type=int, default=2000, help="hands of station vs random"
    )
    parser.add_argument("--save", type=Path, default=None, help="keep the weights (.npz)")
    args = parser.parse_args(argv)
    policy, results = train(args.seconds, args.hands, args.seed, args.rate)
    if args.save is not None:
        policy.save(args.save)
    points = win_rates(results)
    if len(points) < 2:
        print(f"{len(results)} hands are too few for a chart: train longer")
        return 1
    station = station_rate(args.reference_hands, args.seed)
    chart(points, station, args.chart)
    print(
        f"{len(results)} hands: {points[0].bb_per_100:+.0f} bb/100 over the first "
        f"{points[0].hands}, {points[-1].bb_per_100:+.0f} ± {points[-1].ci95:.0f} over the last "
        f"{points[-1].hands - points[-2].hands} (the calling station makes {station:+.0f}); "
        f"chart in {args.chart}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
