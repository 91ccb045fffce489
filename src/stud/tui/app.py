"""``stud play``: one person and some bots at a table in the terminal (Textual).

The person's seat sees exactly what the engine's view of that seat holds;
bots get their own views through the one bot interface. Legal actions are
keys (shown in the footer and the prompt); each hand ends with the showdown
explained line by line and the hand's PokerStars history, written from what
the person could see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, RichLog, Static

from stud.bots import Bot, make_bot
from stud.cards import Deck
from stud.game import Action, Hand, TableConfig, variant, visible_events
from stud.history.from_engine import record_from_events
from stud.history.pokerstars_write import write_pokerstars_hand
from stud.tui.render import action_label, cards_row, describe_event, seat_panel

KEYS: dict[str, str] = {
    "fold": "f",
    "check": "k",
    "call": "c",
    "bring-in": "b",
    "wager": "r",
    "big": "g",
}
"""The key of each kind of move: ``wager`` is complete, bet or raise (the small one)."""


@dataclass
class PlaySettings:
    """The table the person sits at."""

    game: str = "stud8"
    bots: tuple[str, ...] = ("strong", "strong", "strong")
    name: str = "You"
    ante: int = 2
    bring_in: int = 5
    small_bet: int = 20
    big_bet: int = 40
    stack_big_bets: int = 50
    seed: int | None = None
    delay: float = 0.6
    """Seconds a bot 'thinks' before acting, so a person can follow; 0 in tests."""
    history_file: Path | None = None
    """Append each hand's PokerStars history here too, if set."""

    def __post_init__(self) -> None:
        # The engine's own check, before the table opens: a table it refuses could never deal.
        stacks = (self.stack_big_bets * self.big_bet,) * (len(self.bots) + 1)
        TableConfig(
            game=self.game, ante=self.ante, bring_in=self.bring_in, small_bet=self.small_bet,
            big_bet=self.big_bet, stacks=stacks,
        )  # fmt: skip


def move_of(action: Action) -> str:
    """Which key-move plays ``action``: fold, check, call, bring-in or wager."""
    if action.kind.is_wager:
        return "wager"
    return action.kind.value


class PlayApp(App[None]):
    """The table: seats with their cards, the log of the hand, your options as keys."""

    TITLE = "Stud"
    CSS = """
    #table { height: auto; }
    #seats { height: auto; }
    .seat { width: 1fr; height: 6; padding: 0 1; border: round $primary-darken-2; }
    #you { height: 6; padding: 0 1; border: round $accent; }
    #info { height: 1; padding: 0 1; }
    #prompt { height: 2; padding: 0 1; color: $warning; }
    #log { height: 1fr; min-height: 6; border: round $primary-darken-3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(KEYS["fold"], "move('fold')", "Fold"),
        Binding(KEYS["check"], "move('check')", "Check"),
        Binding(KEYS["call"], "move('call')", "Call"),
        Binding(KEYS["bring-in"], "move('bring-in')", "Bring in"),
        Binding(KEYS["wager"], "move('wager')", "Complete/Bet/Raise"),
        Binding(KEYS["big"], "move('big')", "Big bet"),
        Binding("n", "next_hand", "Next hand"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, settings: PlaySettings | None = None) -> None:
        super().__init__()
        self.settings = settings or PlaySettings()
        s = self.settings
        self.game = variant(s.game)
        self.names = [s.name] + [f"{b.capitalize()} {i + 1}" for i, b in enumerate(s.bots)]
        seeder = random.Random(s.seed)
        self.bots: list[Bot] = [make_bot(b, seeder.getrandbits(32)) for b in s.bots]
        self.deck_rng = random.Random(seeder.getrandbits(32)) if s.seed is not None else None
        start = s.stack_big_bets * s.big_bet
        self.chips = [start] * len(self.names)
        self.start_stack = start
        self.hand_number = 0
        self.hand: Hand | None = None
        self.order: list[int] = []
        """Player at each engine seat this hand (engine seat 0 is the dealer's left)."""
        self.chips_at_start: list[int] = []
        self.shown_events = 0
        self.histories: list[str] = []
        self.results: list[int] = []
        """Your net chips in each finished hand."""

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="table"):
            with Horizontal(id="seats"):
                for i in range(1, len(self.names)):
                    yield Static(id=f"seat{i}", classes="seat")
            yield Static(id="info")
            yield Static(id="you")
        yield Static(id="prompt")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.game.name} {self.settings.small_bet}/{self.settings.big_bet}"
        self.start_hand()

    # -- the hand --------------------------------------------------------------------------

    @property
    def hero_seat(self) -> int:
        """Your engine seat this hand."""
        return self.order.index(0)

    def start_hand(self) -> None:
        """Deal the next hand: seats turn one to the left each hand; busted players rebuy."""
        s = self.settings
        n = len(self.names)
        self.chips = [c if c > 0 else self.start_stack for c in self.chips]
        shift = self.hand_number % n
        self.order = [(seat - shift) % n for seat in range(n)]  # player p sits at p + shift
        stacks = tuple(self.chips[p] for p in self.order)
        config = TableConfig(
            game=self.game,
            ante=s.ante,
            bring_in=s.bring_in,
            small_bet=s.small_bet,
            big_bet=s.big_bet,
            stacks=stacks,
        )
        self.hand_number += 1
        deck = Deck(rng=self.deck_rng) if self.deck_rng is not None else Deck()
        self.hand = Hand(config, deck=deck)
        self.chips_at_start = list(stacks)
        self.shown_events = 0
        log = self.query_one("#log", RichLog)
        log.write(Text(f"═══ Hand #{self.hand_number} ═══", style="bold"))
        self.advance()

    def seat_names(self) -> list[str]:
        return [self.names[p] for p in self.order]

    def advance(self) -> None:
        """Show what is new, then let bots act until it is your turn or the hand is over."""
        hand = self.hand
        assert hand is not None
        self.refresh_table()
        if hand.is_over:
            self.finish_hand()
            return
        seat = hand.to_act
        assert seat is not None
        if seat != self.hero_seat:
            if self.settings.delay > 0:
                self.set_timer(self.settings.delay, self.bot_step)
            else:
                self.call_later(self.bot_step)
        self.refresh_bindings()

    def bot_step(self) -> None:
        hand = self.hand
        if hand is None or hand.is_over or hand.to_act in (None, self.hero_seat):
            return
        seat = hand.to_act
        assert seat is not None
        bot = self.bots[self.order[seat] - 1]
        legal = hand.legal_actions()
        choice = bot.choose(hand.view(seat), tuple(legal))
        hand.act(choice if choice in legal else legal[0])
        self.advance()

    def legal_moves(self) -> dict[str, Action]:
        """Your legal actions by key-move, when it is your turn."""
        hand = self.hand
        if hand is None or hand.is_over or hand.to_act != self.hero_seat:
            return {}
        moves: dict[str, Action] = {}
        wagers = [a for a in hand.legal_actions() if a.kind.is_wager]
        for action in hand.legal_actions():
            if not action.kind.is_wager:
                moves[move_of(action)] = action
        if wagers:
            moves["wager"] = min(wagers, key=lambda a: a.to)
            if len(wagers) > 1:
                moves["big"] = max(wagers, key=lambda a: a.to)
        return moves

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys of your legal moves (and next hand once a hand is over)."""
        if action == "move":
            return bool(parameters) and parameters[0] in self.legal_moves()
        if action == "next_hand":
            return self.hand is not None and self.hand.is_over
        return True

    def action_move(self, move: str) -> None:
        action = self.legal_moves().get(move)
        if action is None or self.hand is None:
            return
        self.hand.act(action)
        self.advance()

    def action_next_hand(self) -> None:
        if self.hand is not None and self.hand.is_over:
            self.start_hand()

    def finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.result is not None
        for seat, player in enumerate(self.order):
            self.chips[player] = hand.result.stacks[seat]
        hero = self.hero_seat
        self.results.append(hand.result.net[hero])
        names = self.seat_names()
        history = write_pokerstars_hand(
            record_from_events(
                visible_events(hand.events, hero),
                names=names,
                seat_numbers=[p + 1 for p in self.order],
                hand_id=str(self.hand_number),
                table="Terminal",
                hero=hero,
            )
        )
        self.histories.append(history)
        log = self.query_one("#log", RichLog)
        log.write(Text("── hand history (PokerStars) ──", style="bold"))
        log.write(Text(history, style="grey70"))
        if self.settings.history_file is not None:
            with self.settings.history_file.open("a", encoding="utf-8") as out:
                out.write(history + "\n\n\n")
        net = hand.result.net[hero]
        self.query_one("#prompt", Static).update(
            Text.assemble(
                ("Hand over: ", "bold"),
                (f"you {'won' if net > 0 else 'lost' if net < 0 else 'broke even'} "
                 f"{abs(net):,}. ", ""),
                ("[n] next hand  [q] quit", "bold"),
            )
        )  # fmt: skip
        self.refresh_bindings()

    # -- drawing ---------------------------------------------------------------------------

    def refresh_table(self) -> None:
        hand = self.hand
        assert hand is not None
        hero = self.hero_seat
        view = hand.view(hero)
        names = self.seat_names()
        for seat in view.seats:
            player = self.order[seat.seat]
            panel = seat_panel(view, seat, names[seat.seat], self.chips_at_start[seat.seat])
            widget_id = "#you" if player == 0 else f"#seat{player}"
            self.query_one(widget_id, Static).update(panel)
        info = Text.assemble(
            (f"Hand #{self.hand_number}  ", "bold"),
            (f"{self.game.name}  ", ""),
            (f"street {view.street}  ", ""),
            (f"pot {view.pot:,}  ", "bold yellow"),
            (f"to match {view.level:,}", ""),
        )
        if view.community is not None:
            info.append("  community ")
            info.append_text(cards_row([(view.community, True)]))
        self.query_one("#info", Static).update(info)
        log = self.query_one("#log", RichLog)
        for event in view.events[self.shown_events :]:
            line = describe_event(event, names, hero)
            if line is not None:
                log.write(line)
        self.shown_events = len(view.events)
        prompt = self.query_one("#prompt", Static)
        moves = self.legal_moves()
        if moves:
            prompt.update(_prompt(moves, hand.to_call(hero)))
        elif not hand.is_over and hand.to_act is not None:
            prompt.update(Text(f"{names[hand.to_act]} is thinking…", style="grey70"))


def _prompt(moves: dict[str, Action], to_call: int) -> Text:
    text = Text("Your turn" + (f" ({to_call:,} to call): " if to_call else ": "), style="bold")
    for move, action in moves.items():
        text.append(f"[{KEYS[move]}] ", style="bold yellow")
        text.append(action_label(action) + "   ", style="")
    return text


def run_play(settings: PlaySettings) -> Sequence[int]:
    """Run the table until the person quits; return their net result per hand."""
    app = PlayApp(settings)
    app.run()
    return app.results
