"""Bots against bots, many hands: fixed chunks, seeded per chunk, spread over processes.

Hands are cut into chunks of :data:`CHUNK` whose seeds come from the run's seed
and the chunk's number alone, so a run gives the same hands and the same
results whatever the number of workers. Each hand starts from fresh stacks,
and players move one seat to the left every hand, so each sits in every seat
(dealer's left first, ...) equally often: position is fair.
"""

from __future__ import annotations

import importlib
import multiprocessing
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots import Bot, ask, make_bot, parse_bots
from stud.cards import Deck
from stud.game import Hand, TableConfig, variant

CHUNK = 250
"""Hands per task: small enough for a lively progress bar, big enough to amortise a task."""

NetArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Stakes:
    """Ante, bring-in, small bet and big bet, in chips."""

    ante: int = 2
    bring_in: int = 5
    small_bet: int = 20
    big_bet: int = 40

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """``"2/5/20/40"`` (ante/bring-in/small/big); ValueError otherwise."""
        parts = text.replace(",", "/").split("/")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) != 4:
            raise ValueError(f"stakes {text!r}: write ANTE/BRING-IN/SMALL/BIG, e.g. 2/5/20/40")
        return cls(*numbers)

    def __str__(self) -> str:
        return f"{self.ante}/{self.bring_in}/{self.small_bet}/{self.big_bet}"


@dataclass(frozen=True, slots=True)
class SimConfig:
    """One simulation: the game, the bots in their starting seats, how many hands."""

    game: str
    bots: tuple[str, ...]
    hands: int
    seed: int = 0
    stakes: Stakes = Stakes()
    stack_big_bets: int = 100
    """Every player starts every hand with this many big bets (deep: all-ins are rare)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", variant(self.game).code)
        object.__setattr__(self, "bots", tuple(parse_bots(",".join(self.bots))))
        if not 2 <= len(self.bots) <= 8:
            raise ValueError(f"a stud table seats 2 to 8 players, not {len(self.bots)}")
        if self.hands < 1:
            raise ValueError(f"hands must be at least 1, not {self.hands}")
        if self.stack_big_bets < 1:
            raise ValueError("stack_big_bets must be at least 1")
        self.table()  # fail now on impossible stakes, not in a worker

    def table(self) -> TableConfig:
        s = self.stakes
        stack = self.stack_big_bets * s.big_bet
        return TableConfig(
            game=variant(self.game),
            ante=s.ante,
            bring_in=s.bring_in,
            small_bet=s.small_bet,
            big_bet=s.big_bet,
            stacks=(stack,) * len(self.bots),
        )

    def chunks(self) -> list[tuple[int, int]]:
        """(first hand, hand count) of every chunk, in order."""
        return [(start, min(CHUNK, self.hands - start)) for start in range(0, self.hands, CHUNK)]


def chunk_seeds(seed: int, start: int, players: int) -> tuple[int, list[int]]:
    """The deck seed and one seed per player for the chunk starting at hand ``start``."""
    sequence = np.random.SeedSequence([seed, start])
    words = sequence.generate_state(players + 1, dtype=np.uint64)
    return int(words[0]), [int(w) for w in words[1:]]


def play_chunk(config: SimConfig, start: int, count: int) -> NetArray:
    """Play hands ``start`` .. ``start + count - 1``; each player's net chips per hand."""
    players = len(config.bots)
    deck_seed, bot_seeds = chunk_seeds(config.seed, start, players)
    bots: list[Bot] = [
        make_bot(name, seed) for name, seed in zip(config.bots, bot_seeds, strict=True)
    ]
    table = config.table()
    shuffler = random.Random(deck_seed)
    out = np.zeros((count, players), dtype=np.int64)
    for i in range(count):
        shift = (start + i) % players
        # Player p sits in seat (p + shift) % players; seat 0 is the dealer's left.
        by_seat = [bots[(seat - shift) % players] for seat in range(players)]
        hand = Hand(table, deck=Deck(rng=shuffler))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.act(ask(by_seat[seat], hand, seat))
        result = hand.result
        assert result is not None
        net = result.net
        for p in range(players):
            out[i, p] = net[(p + shift) % players]
    return out


@dataclass(frozen=True, slots=True)
class SimResult:
    """Every hand's net result per player (chips), in hand order, with the run's settings."""

    config: SimConfig
    net: NetArray
    """Shape (hands, players): player p's chips won or lost in each hand."""


Progress = Callable[[int], None]
"""Told how many more hands are done."""


def simulate(
    config: SimConfig,
    workers: int = 1,
    progress: Progress | None = None,
    *,
    preload: Sequence[str] = (),
) -> SimResult:
    """Play the whole run, on ``workers`` processes (1: in this one).

    ``preload`` names modules every worker imports first: a module that adds
    its bots to :data:`stud.bots.registry.BOTS` makes them playable there.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    chunks = config.chunks()
    parts: list[NetArray | None] = [None] * len(chunks)
    if workers == 1 or len(chunks) == 1:
        for i, (start, count) in enumerate(chunks):
            parts[i] = play_chunk(config, start, count)
            if progress is not None:
                progress(count)
    else:
        with _pool(min(workers, len(chunks)), tuple(preload)) as pool:
            futures: dict[Future[NetArray], int] = {
                pool.submit(play_chunk, config, start, count): i
                for i, (start, count) in enumerate(chunks)
            }
            _collect(futures, parts, chunks, progress)
    done = [p for p in parts if p is not None]
    return SimResult(config, np.concatenate(done, axis=0))


def _pool(workers: int, preload: tuple[str, ...]) -> ProcessPoolExecutor:
    """Worker processes forked from a fresh server process that has imported the simulator.

    Forking the caller itself would copy the locks its threads hold (a
    progress bar's refresh thread, say) into every worker; a fork server
    starts clean, loads this module once, and forks each worker from there.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        spawn = multiprocessing.get_context("spawn")  # Windows: no fork at all
        return ProcessPoolExecutor(
            max_workers=workers, mp_context=spawn, initializer=_load, initargs=(preload,)
        )
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_load, initargs=(preload,)
    )


def _load(modules: tuple[str, ...]) -> None:
    """Worker start: import the modules that register extra bots."""
    for module in modules:
        importlib.import_module(module)


def _collect(
    futures: dict[Future[NetArray], int],
    parts: list[NetArray | None],
    chunks: Sequence[tuple[int, int]],
    progress: Progress | None,
) -> None:
    from concurrent.futures import as_completed

    try:
        for future in as_completed(futures):
            i = futures[future]
            parts[i] = future.result()
            if progress is not None:
                progress(chunks[i][1])
    except BaseException:
        for future in futures:
            future.cancel()
        raise
