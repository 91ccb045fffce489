"""The hand: a pure, deterministic state machine from the antes to the last chip.

:class:`Hand` takes actions, says which are legal, and appends
:mod:`~stud.game.events` as the rules (rules.md R1–R18) play out. It does no
I/O, reads no clock and uses no global random: its cards come from the deck
(or the record) it is given. The betting itself (chips, legal actions,
applying one) is :class:`~stud.game.betting.Betting`'s, which the hand extends
with the dealing, the turn and the showdown. Its state is a handful of ints and
lists, so an action costs a few microseconds.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, cast

from stud.cards import Deck
from stud.game.actions import Action, ActionKind, IllegalActionError
from stud.game.betting import BETTING_FIELDS, Betting
from stud.game.config import TableConfig
from stud.game.ctor import fast_constructor as _fast
from stud.game.ctor import shared_constructor as _shared
from stud.game.dealing import CardSource, DeckCards
from stud.game.events import (
    ActorTrusted,
    AntePosted,
    CardBurned,
    CardsDealt,
    CommunityCard,
    DoubleBetAllowed,
    Event,
    HandEnded,
    HandStarted,
    Pot,
    PotAwarded,
    StreetStarted,
    UncalledBetReturned,
)
from stud.game.order import bring_in_seats, first_to_act_seats, open_pair_seats
from stud.game.showdown import settle
from stud.game.views import HandView, make_view

_ANTE = _shared(AntePosted)
_DEALT = _shared(CardsDealt)
_DEALT_THIRD = _fast(CardsDealt)  # two down cards and a door card rarely repeat
_STREET = _shared(StreetStarted)
_ENDED = _fast(HandEnded)
_STARTED = _shared(HandStarted)
_BURNED = _shared(CardBurned)
_RETURNED = _shared(UncalledBetReturned)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand left the table (immutable: a copy is the result itself)."""

    stacks: tuple[int, ...]
    """Every seat's chips after the hand."""
    net: tuple[int, ...]
    """Each seat's gain (or loss, negative) over the hand."""
    pots: tuple[Pot, ...]
    """The main pot and side pots, with the rake taken from each."""
    awards: tuple[PotAwarded, ...]
    """Who won each pot or half, how much, and with which hand."""
    rake: int
    """Total rake taken."""

    def __copy__(self) -> HandResult:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> HandResult:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (HandResult, (self.stacks, self.net, self.pots, self.awards, self.rake))


_RESULT = _fast(HandResult)

HAND_FIELDS: tuple[str, ...] = (
    "_betting",
    "_community",
    "_dealt",
    "_deal",
    "_down",
    "_forced_rake",
    "_has_community",
    "_over",
    "_possible",
    "_reason",
    "_result",
    "_src",
    "_to_act",
    "_up",
    "game",
)
"""The fields a Hand adds to its :class:`Betting` (its ``__slots__``)."""

_ALL_FIELDS = BETTING_FIELDS + HAND_FIELDS
"""Every field of a Hand: what an action that must be undone saves."""


def _forced_rake(rake: object) -> int | tuple[int, ...]:
    """A record's rake checked: a whole number of chips, or one for each pot."""
    if isinstance(rake, int) and not isinstance(rake, bool):
        if rake < 0:
            raise ValueError(f"a forced rake must be at least 0 chips: {rake!r}")
        return rake
    if isinstance(rake, Sequence) and not isinstance(rake, str):
        takes = tuple(rake)
        if takes and all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in takes):
            return takes
    raise ValueError(
        "a forced rake must be a whole number of chips, or one for each pot "
        f"(main pot first): {rake!r}"
    )


class _Undealt:
    """The card source of a blank hand, whose fields :meth:`Hand.copy` fills: it deals nothing."""

    def for_seat(self, seat: int) -> int | None:
        return None

    def burn(self) -> int | None:
        return None

    def community(self) -> int | None:
        return None


_UNDEALT: Final = _Undealt()


class Hand(Betting):
    """One hand of Stud, Stud8 or Razz, played from a :class:`TableConfig`.

    ``Hand(config)`` shuffles with the CSPRNG; ``Hand(config, deck=Deck(7))``
    is reproducible; ``deck=`` may also be all 52 card ints in dealing order
    (a simulation's own shuffle). ``Hand(config, cards=ScriptedCards(...))``
    deals the cards a record states (``None`` where hidden) and ``rake=``
    takes the record's rake: a total (main pot first) or a sequence with each
    pot's rake, in the order of ``PotsFormed.pots``; a sequence that does not
    fit the pots formed raises ValueError at the end of the hand, which then
    stays unsettled. The hand starts at once: antes, 3rd street, the
    bring-in seat to act.
    """

    __slots__ = HAND_FIELDS

    def __init__(
        self,
        config: TableConfig,
        deck: Deck | Sequence[int] | None = None,
        *,
        cards: CardSource | None = None,
        rake: int | Sequence[int] | None = None,
    ) -> None:
        if deck is not None and cards is not None:
            raise ValueError("give the hand a deck or its cards, not both")
        if rake is not None:
            rake = _forced_rake(rake)
        super().__init__(config)
        self.game = config.game
        n = self._n
        if cards is not None:
            self._src: CardSource = cards
            self._deal: Callable[[], int] | None = None
            self._dealt = 0
        else:
            source = DeckCards(Deck() if deck is None else deck, config.deck_cards)
            self._src = source
            self._deal = source.next_card  # the hot path deals straight off the deck
            self._dealt = config.deck_size - source.remaining
        self._forced_rake = rake
        self._down: list[list[int | None]] = [[] for _ in range(n)]
        self._up: list[list[int | None]] = [[] for _ in range(n)]
        self._community: int | None = None
        self._has_community = False
        self._betting = False
        self._to_act: int | None = None
        self._possible: tuple[int, ...] = ()
        self._reason = ""
        self._over = False
        self._result: HandResult | None = None
        if cards is not _UNDEALT:  # a blank hand for copy(), which sets every field
            self._start()

    # ------------------------------------------------------------------ reading

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, with every card (the omniscient record; see :meth:`view`)."""
        return tuple(self._events)

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is; None when the hand is over or the turn is unknown."""
        return self._to_act

    @property
    def possible_actors(self) -> tuple[int, ...]:
        """Replay hook: the seats that may be to act when an unknown card hides whose turn it is.

        Empty unless :attr:`to_act` is None on a hand that is not over; then
        :meth:`act` takes the record's action with ``seat=`` one of these.
        """
        return self._possible

    @property
    def is_over(self) -> bool:
        """Whether every chip has been awarded."""
        return self._over

    @property
    def result(self) -> HandResult | None:
        """Final stacks, pots and awards; None until the hand is over."""
        return self._result

    @property
    def street(self) -> int:
        """The street being played: 3 (third street) to 7 (the river)."""
        return self._street

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips each seat has behind (not yet wagered)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's wager on the current street."""
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        """Each seat's chips put in over the whole hand, antes included."""
        return tuple(self._committed)

    @property
    def pot(self) -> int:
        """All chips put in so far, current street included."""
        return sum(self._committed)

    @property
    def level(self) -> int:
        """The wager to match on this street."""
        return self._level

    @property
    def live(self) -> tuple[bool, ...]:
        """Which seats are still in the hand (have not folded)."""
        return tuple(self._live)

    @property
    def community(self) -> int | None:
        """R12's community card, if one was dealt (None also when unknown in a replay)."""
        return self._community

    @property
    def has_community(self) -> bool:
        """Whether 7th street was dealt as one community card (R12)."""
        return self._has_community

    def down_cards(self, seat: int) -> tuple[int | None, ...]:
        """The seat's down cards (None where unknown). Not for showing to other players."""
        return tuple(self._down[seat])

    def up_cards(self, seat: int) -> tuple[int | None, ...]:
        """The seat's up cards, in the order dealt."""
        return tuple(self._up[seat])

    def cards(self, seat: int) -> tuple[int | None, ...]:
        """All the seat's own cards in dealing order: down, down, up, up, up, up, down."""
        down, up = self._down[seat], self._up[seat]
        first = self.config.down_cards  # 3rd street's down cards come first, 7th's last
        return tuple(down[:first] + up + down[first:])

    def to_call(self, seat: int) -> int:
        """Chips the seat needs to call the current level (capped by its stack)."""
        return min(self._level - self._bets[seat], self._stacks[seat])

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the seat to act may take now, with exact amounts; [] if none.

        In order: fold, then check or call, then wagers smallest first — or,
        to open 3rd street, the bring-in then the completion. ``seat``
        defaults to :attr:`to_act`; in a replay where the turn is unknown it
        may name one of :attr:`possible_actors`.
        """
        if seat is None:
            seat = self._to_act
        if seat is None or self._over or (seat != self._to_act and seat not in self._possible):
            return []
        return list(self._legal(seat))

    def view(self, seat: int | None = None) -> HandView:
        """What ``seat`` may see (its own down cards, all up cards); None for a spectator."""
        return make_view(self, seat)

    # ------------------------------------------------------------------ cloning

    def copy(self) -> Hand:
        """An independent clone: acting on either changes nothing in the other.

        What tree search and counterfactual walks need (docs/rl.md, *Cloning*):
        the lists a hand changes are copied, its immutable values (the
        config, events, legal actions, result) shared, and its card source
        copied at the same place, so both deal the same next cards.
        ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give the same clone.
        """
        clone = Hand(self.config, cards=_UNDEALT)  # a compiled class: no bare __new__
        clone._n = self._n
        clone._stacks = self._stacks[:]
        clone._committed = self._committed[:]
        clone._bets = self._bets[:]
        clone._live = self._live[:]
        clone._live_count = self._live_count
        clone._street = self._street
        clone._events = self._events[:]
        clone._acted = self._acted[:]
        clone._level = self._level
        clone._last_full = self._last_full
        clone._small_units = self._small_units
        clone._big_units = self._big_units
        clone._units = self._units
        clone._full = self._full
        clone._capped = self._capped
        clone._bring_in = self._bring_in
        clone._aggressor = self._aggressor
        clone._cursor = self._cursor
        clone._legal_seat = self._legal_seat
        clone._legal_list = self._legal_list[:]
        clone.game = self.game
        source = self._src
        clone._src = source.copy() if type(source) is DeckCards else copy.deepcopy(source)
        clone._deal = None if self._deal is None else clone._src.next_card  # type: ignore[attr-defined]
        clone._dealt = self._dealt
        clone._forced_rake = self._forced_rake
        clone._down = [cards[:] for cards in self._down]
        clone._up = [cards[:] for cards in self._up]
        clone._community = self._community
        clone._has_community = self._has_community
        clone._betting = self._betting
        clone._to_act = self._to_act
        clone._possible = self._possible
        clone._reason = self._reason
        clone._over = self._over
        clone._result = self._result
        return clone

    def __copy__(self) -> Hand:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        clone = self.copy()
        memo[id(self)] = clone
        return clone

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle as the fields of a :meth:`copy` (a compiled class has no default way)."""
        clone = self.copy()
        fields = {name: getattr(clone, name) for name in _ALL_FIELDS if name != "_deal"}
        fields["_legal_seat"] = -1  # the unpickled hand lists its legal actions afresh
        fields["_legal_list"] = []
        return (_unpickled_hand, (fields, self._deal is not None))

    # ------------------------------------------------------------------ acting

    def act(
        self,
        action: Action | ActionKind | str,
        to: int | None = None,
        *,
        seat: int | None = None,
    ) -> list[Event]:
        """Apply one action and return the events it caused (dealing, showdown, ...).

        ``action`` is an :class:`Action` (as from :meth:`legal_actions`) or a
        kind (``"call"``, ``ActionKind.RAISE``) with ``to`` when the kind has
        more than one legal amount. ``seat`` defaults to the seat to act.
        Anything the rules do not allow raises :class:`IllegalActionError`
        and changes nothing.
        """
        if self._forced_rake is not None:
            return self._act_undoing_on_error(action, to, seat)
        return self._act(action, to, seat)

    def _act_undoing_on_error(
        self, action: Action | ActionKind | str, to: int | None, seat: int | None
    ) -> list[Event]:
        """:meth:`act` for a hand with a record's rake, which may not fit the pots formed.

        The pots are known only when the last action is applied, so a rake that
        does not fit them is found after the action changed the hand: undo it.
        """
        keep: dict[int, object] = {id(self.config): self.config, id(self.game): self.game}
        keep.update((id(event), event) for event in self._events)  # immutable values
        keep.update((id(action), action) for action in self._legal_list)  # shared values
        saved = copy.deepcopy({name: getattr(self, name) for name in _ALL_FIELDS}, keep)
        try:
            return self._act(action, to, seat)
        except ValueError as error:
            if isinstance(error, IllegalActionError):
                raise
            for name, value in saved.items():
                object.__setattr__(self, name, value)
            raise

    def _act(
        self, action: Action | ActionKind | str, to: int | None, seat: int | None
    ) -> list[Event]:
        actor = self._to_act
        if actor is not None and actor == self._legal_seat and to is None and seat is None:
            for legal in self._legal_list:
                if legal is action:
                    # Fast path: an Action taken from legal_actions() for the seat to act.
                    mark = len(self._events)
                    self._apply(actor, legal.kind, legal.to)
                    self._advance()
                    return self._events[mark:]
        if isinstance(action, Action):
            kind = action.kind
            if action.to:
                if to is not None and to != action.to:
                    raise IllegalActionError(f"two amounts given: {action.to} and {to}")
                to = action.to
            if action.seat is not None:
                if seat is not None and seat != action.seat:
                    raise IllegalActionError(f"two seats given: {action.seat} and {seat}")
                seat = action.seat
        else:
            try:
                kind = ActionKind(action)
            except ValueError:
                known = ", ".join(k.value for k in ActionKind)
                raise IllegalActionError(f"unknown action {action!r}: use one of {known}") from None
        actor = self._check_actor(seat)
        to = self._check_action(actor, kind, to)
        mark = len(self._events)
        if self._to_act is None:
            self._events.append(ActorTrusted(actor, self._reason))
            self._possible = ()
        self._apply(actor, kind, to)
        self._advance()
        return self._events[mark:]

    def _check_actor(self, seat: int | None) -> int:
        if self._over:
            raise IllegalActionError("the hand is over")
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
                raise IllegalActionError(
                    f"seat {seat!r} does not exist: this table has seats 0 to {self._n - 1}"
                )
            if not self._live[seat]:
                raise IllegalActionError(f"seat {seat} is not in the hand: it folded")
            if self._stacks[seat] == 0:
                raise IllegalActionError(f"seat {seat} is all-in and has no more actions")
        actor = self._to_act
        if actor is None:
            if not self._possible:
                raise IllegalActionError("no seat is to act")
            if seat is None:
                raise IllegalActionError(
                    f"whose turn it is depends on an unknown card ({self._reason}): "
                    f"name the seat, one of {list(self._possible)}"
                )
            if seat not in self._possible:
                raise IllegalActionError(
                    f"seat {seat} cannot be to act: {self._reason}, so it is one of "
                    f"{list(self._possible)}"
                )
            return seat
        if seat is not None and seat != actor:
            raise IllegalActionError(f"it is seat {actor}'s turn, not seat {seat}'s")
        return actor

    # ------------------------------------------------------------------ flow

    def _start(self) -> None:
        config = self.config
        events = self._events
        events.append(
            _STARTED(
                config.game.code,
                config.ante,
                config.bring_in,
                config.small_bet,
                config.big_bet,
                config.stacks,
            )
        )
        ante = config.ante
        if ante:
            stacks = self._stacks
            for s in range(self._n):
                paid = ante if ante < stacks[s] else stacks[s]
                stacks[s] -= paid
                self._committed[s] = paid
                events.append(_ANTE(s, paid, stacks[s] == 0))
        events.append(_STREET(3))
        seats = range(self._n)
        if config.down_cards == 1:  # the small game's one down card
            self._deal_third_one_down()
        else:
            self._deal_third(seats)
        self._open_round()
        self._advance()

    def _deal_third(self, seats: range) -> None:
        """3rd street: two down cards and the door card, each round of the table in turn."""
        events = self._events
        if self._deal is not None:
            deal = self._deal
            first: list[int | None] = [deal() for _ in seats]
            second: list[int | None] = [deal() for _ in seats]
            door: list[int | None] = [deal() for _ in seats]
        else:
            for_seat = self._src.for_seat
            first = [for_seat(s) for s in seats]
            second = [for_seat(s) for s in seats]
            door = [for_seat(s) for s in seats]
        self._dealt += 3 * self._n
        for s in seats:
            self._down[s] = [first[s], second[s]]
            self._up[s] = [door[s]]
            events.append(_DEALT_THIRD(s, 3, (first[s], second[s]), (door[s],)))

    def _deal_third_one_down(self) -> None:
        """3rd street with one down card and the door card (``TableConfig.down_cards=1``)."""
        seats = range(self._n)
        deal = self._deal
        for_seat = self._src.for_seat
        first = [for_seat(s) if deal is None else deal() for s in seats]
        door = [for_seat(s) if deal is None else deal() for s in seats]
        self._dealt += 2 * self._n
        for s in seats:
            self._down[s] = [first[s]]
            self._up[s] = [door[s]]
            self._events.append(_DEALT_THIRD(s, 3, (first[s],), (door[s],)))
        self._open_round()
        self._advance()

    def _deal_street(self, street: int) -> None:
        self._street = street
        events = self._events
        events.append(_STREET(street))
        src = self._src
        live = self._live
        seats = [s for s in range(self._n) if live[s]]
        burn = self.config.burn_cards
        if street == 7:
            left = self.config.deck_size - self._dealt
            if left < len(seats):
                # R12: too few cards for everyone: one card face up for all.
                if burn and left >= 2:
                    events.append(_BURNED(7, src.burn()))
                    self._dealt += 1
                card = src.community()
                self._community = card
                self._has_community = True
                self._dealt += 1
                events.append(CommunityCard(card))
                return
            if left == len(seats):
                burn = False  # no card to spare for a burn: everyone gets one instead
        deal = self._deal
        if burn:
            events.append(_BURNED(street, src.burn() if deal is None else deal()))
            self._dealt += 1
        self._dealt += len(seats)
        hands = self._up if street < 7 else self._down
        for s in seats:
            card = src.for_seat(s) if deal is None else deal()
            hands[s].append(card)
            if street < 7:
                events.append(_DEALT(s, street, (), (card,)))
            else:
                events.append(_DEALT(s, 7, (card,), ()))

    def _open_round(self) -> None:
        """Reset the betting for a new street and find who acts first (R3–R7)."""
        n = self._n
        config = self.config
        street = self._street
        self._level = 0
        self._last_full = 0
        self._full = 0
        self._capped = False
        self._aggressor = None
        self._acted = [-1] * n
        self._units = self._small_units if street <= 4 else self._big_units
        live = self._live
        stacks = self._stacks
        with_chips = 0
        for s in range(n):
            if live[s] and stacks[s]:
                with_chips += 1
        if with_chips < 2:
            self._betting = False  # nobody to bet against: deal on (R5, all-in)
            return
        self._betting = True
        if street == 3:
            self._bring_in = True
            candidates = bring_in_seats(self.game, [up[0] for up in self._up])
            reason = "the bring-in depends on an unknown door card"
        else:
            if street == 4 and self.game.open_pair_double_bet:
                pairs = open_pair_seats(self._up, live)
                if pairs:
                    self._units = (config.small_bet, config.big_bet)
                    self._events.append(DoubleBetAllowed(pairs))
            candidates = first_to_act_seats(self.game, self._up, live)
            reason = "who acts first depends on an unknown up card"
        if len(candidates) == 1:
            first = candidates[0]
            self._cursor = first if live[first] and stacks[first] else self._first_with_chips(first)
            return
        actors = sorted({self._first_with_chips(c) for c in candidates})
        if len(actors) == 1:
            self._cursor = actors[0]
            self._possible = ()
        else:
            self._possible = tuple(actors)
            self._reason = reason

    def _first_with_chips(self, start: int) -> int:
        """R5/R6: the turn passes clockwise past seats that are all-in or out."""
        n = self._n
        for i in range(n):
            s = (start + i) % n
            if self._live[s] and self._stacks[s]:
                return s
        return start

    def _advance(self) -> None:
        """Find the next seat to act, or close rounds and deal streets until one is found."""
        while True:
            if self._live_count == 1:
                self._close_round()
                self._finish()
                return
            if self._betting:
                if self._possible:
                    self._to_act = None
                    return
                s = self._next_actor()
                if s is not None:
                    self._to_act = s
                    return
            self._close_round()
            if self._street == self.config.last_street:
                self._finish()
                return
            self._deal_street(self._street + 1)
            self._open_round()

    def _next_actor(self) -> int | None:
        """The next seat owing a decision, or None when the street's betting is over.

        A seat with chips owes a decision when it faces a wager, or has not acted yet and
        someone else with chips could still bet against it (R5, R17): the last player with
        chips against all-in players has nothing to decide unless facing a bet.
        """
        n = self._n
        live = self._live
        stacks = self._stacks
        acted = self._acted
        bets = self._bets
        level = self._level
        s = self._cursor
        for _ in range(n):
            if live[s] and stacks[s]:
                if bets[s] < level:
                    return s
                if acted[s] < 0 and self._anyone_else_with_chips(s):
                    return s
            s += 1
            if s == n:
                s = 0
        return None

    def _anyone_else_with_chips(self, s: int) -> bool:
        """Whether a live seat other than ``s`` still has chips to bet with."""
        live = self._live
        stacks = self._stacks
        return any(j != s and live[j] and stacks[j] for j in range(self._n))

    def _close_round(self) -> None:
        """R17: return the part of the top wager nobody called; clear the street's bets."""
        self._to_act = None
        self._betting = False
        bets = self._bets
        top = 0
        second = 0
        seat = -1
        for s, bet in enumerate(bets):
            if bet > top:
                top, second, seat = bet, top, s
            elif bet > second:
                second = bet
        if not top:
            return
        if top > second:
            back = top - second
            self._stacks[seat] += back
            self._committed[seat] -= back
            self._events.append(_RETURNED(seat, back))
        self._bets = [0] * self._n

    def _finish(self) -> None:
        config = self.config
        raked = self._street > 3 or config.rake_third_street
        n = self._n
        settlement = settle(
            self.game,
            self._committed,
            self._live,
            [self.cards(s) for s in range(n)] if self._live_count > 1 else [],
            (self._community,) if self._has_community else (),
            self._aggressor if self._street == config.last_street else None,
            rake_percent=config.rake_percent if raked else 0,
            rake_cap=config.rake_cap,
            forced_rake=self._forced_rake,
            muck_losing_hands=config.muck_losing_hands,
        )
        events = self._events
        events.extend(settlement.events)
        stacks = self._stacks
        won = settlement.won
        start = config.stacks
        net = []
        for s in range(n):
            stack = stacks[s] + won[s]
            stacks[s] = stack
            net.append(stack - start[s])
        final = tuple(stacks)
        events.append(_ENDED(final))
        self._over = True
        self._to_act = None
        self._possible = ()
        pots = settlement.pots
        rake = 0
        for pot in pots:
            rake += pot.rake
        self._result = _RESULT(final, tuple(net), pots, settlement.awards, rake)


def _unpickled_hand(fields: dict[str, object], deals: bool) -> Hand:
    """The hand :meth:`Hand.__reduce__` pickled: its fields set on a blank hand."""
    hand = Hand(cast(TableConfig, fields["config"]), cards=_UNDEALT)
    for name, value in fields.items():
        setattr(hand, name, value)
    hand._deal = cast(DeckCards, fields["_src"]).next_card if deals else None
    return hand


def play_out(hand: Hand, actions: Sequence[Action | ActionKind | str]) -> list[Event]:
    """Apply actions in turn (a convenience for tests and scripts); return all their events."""
    out: list[Event] = []
    for action in actions:
        out.extend(hand.act(action))
    return out
