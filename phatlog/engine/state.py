"""The game-state engine: one machine for every game, driven a move at a time.

A :class:`State` is a game in progress, in the spirit of OpenSpiel's State and pokerkit's State: it
knows its :class:`Phase`, whose turn it is, the legal actions, and applies one action at a time. The
shared trick mechanics are driven here once: a card is refused unless ``rules.trick.may_play`` allows it,
then ``trickplay.TrickPlay`` plays it from its player's hand, finishes the trick under
``rules.trick.winning_position`` and has the winner lead
next, and :meth:`State._play` tells the visitors of the trick won. Each game supplies only what differs
(``pitch_state`` for Phat, Nine-card Don and Irish Don, ``oh_hell_state`` for Oh Hell): what a trick
won pegs (``_trick_pegs``), what it ends (``_trick_done``), and takes every rule from the rules modules
(``tricks``, ``phat``, ``nine_card_don``, ``irish_don``, ``oh_hell``), never a copy.

Chance nodes (a deal, and Oh Hell's turned-up card) are drawn from a ``random.Random`` when the game is
started with a seed, or given by the caller with :meth:`State.deal`.

As it goes the state tells its visitors what happens: typed, frozen :class:`Event` values (a deal
begins, a bid, a card played, a trick won and why, a peg, a deal scored, the game over).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from phatlog.diagnostics import seat_name
from phatlog.engine.trickplay import TrickPlay
from phatlog.record.constants import version_for
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Suit
from phatlog.rules.table import first_leader, in_turn, next_dealer, trump_of_pitch
from phatlog.rules.trick import (
    STRENGTH,
    FollowRule,
    cards_of_suit,
    explain_winner,
    legal_plays,
    may_play,
    winning_position,
)

SUITS = tuple(Suit)
#: The action id of a bid of 0 tricks (``State.action_id``): the cards are 0 to 51.
ACTION_BID = 52


class Phase(StrEnum):
    """Where a game is: a chance node (``deal``, ``deal_over``), a player's turn (``bid``, ``play``), or over."""

    DEAL = "deal"  # a deal is due (a chance node): before the first deal
    BID = "bid"  # Oh Hell: the players bid in turn from the dealer's left
    PLAY = "play"  # the tricks
    DEAL_OVER = "deal_over"  # the deal is scored; the next deal is due (a chance node)
    GAME_OVER = "game_over"


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the card or bid, the seat and the rule."""

    def __init__(self, message: str, seat: int | None = None, action: int | Card | str | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``deal`` is the deal's index (from 0)."""

    deal: int


@dataclass(frozen=True, slots=True)
class DealBegins(Event):
    """The cards are dealt. ``trump`` is known now in Oh Hell (the turn-up's suit); in the All Fours
    family it is the suit of the pitcher's first lead (see :class:`CardPlayed`). ``no_trump`` says why an
    Oh Hell hand has no trump."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...] | None  # None: not known (the referee: a record's hands not a proper deal)
    size: int
    trump: Suit | None = None
    turnup: Card | None = None
    undealt: tuple[Card, ...] | None = None
    no_trump: str | None = None


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """Oh Hell: ``seat`` bid ``bid`` tricks."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` to trick ``trick`` (from 0); ``trump`` is the deal's trump once known."""

    trick: int
    seat: int
    card: Card
    trump: Suit | None


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """Trick ``trick`` is won by ``seat`` with the card at ``position`` (0 = the lead), ``why`` in words.

    ``counters`` are the cards that pegged and their points (All Fours), ``points`` their sum for the
    winner's side, ``totals`` the scores after it (None where the record does not let them be known: the
    referee, after a deal whose points were neither worked out nor recorded), ``taken`` the tricks each seat
    has won this deal."""

    trick: int
    leader: int
    cards: tuple[Card, ...]
    seat: int
    position: int
    why: str
    counters: tuple[tuple[Card, int], ...]
    points: int
    totals: tuple[int, ...] | None
    taken: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TrickShown(Event):
    """A recorded trick of a deal given up at an illegal play (``states(..., on_fault="pass")``), from the
    faulty trick on: shown as recorded, never scored. ``seat`` would win it with the card at ``position``
    (``tricks.winning_position``, under the deal's trump), ``why`` in words."""

    trick: int
    leader: int
    cards: tuple[Card, ...]
    seat: int
    position: int
    why: str


@dataclass(frozen=True, slots=True)
class Pegged(Event):
    """An end-of-deal award (Phat's muck; Don's game, high, low, jack): ``side`` None when nobody scores it;
    ``totals`` after it (None where not known, as in :class:`TrickWon`)."""

    side: int | None
    points: int
    label: str
    reason: str
    totals: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The deal's points and the running totals after it.

    ``passed_over``: the points are taken as recorded, not worked out by the rules (a score-sheet deal, or
    one the rules cannot score); ``given_up``: a deal whose play went wrong (an illegal play, a faulty deal,
    tricks that are not a whole deal), passed over as its recorded points; ``captured``: Phat's muck or
    Nine-card Don's game count of the cards each side took, once pegged; ``taken``: Oh Hell, the tricks
    each player took as scored (won in play, or as a score sheet records them). The referee gives
    ``points`` None where they are neither worked out nor recorded, and ``totals`` None where the running
    totals cannot be known; a State always knows both."""

    points: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    passed_over: bool = False
    given_up: bool = False
    captured: tuple[int, ...] | None = None
    taken: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is won: ``winner`` are sides (All Fours) or seats (Oh Hell; equal totals share the win)."""

    winner: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ruled(Event):
    """Format 1.1: a director's ruling as the referee applies it (``kind``: claim, revoke, misdeal,
    adjustment). ``trick``: the trick it concerns (from 0; a claim: the first unplayed trick), or None;
    ``seat``/``side``: the claimer or revoker, the side pegging; ``points`` what it pegs; ``totals`` after
    it (None where not known); ``text`` the ruling in words."""

    kind: str
    text: str
    trick: int | None = None
    seat: int | None = None
    side: int | None = None
    points: int = 0
    totals: tuple[int, ...] | None = None


class Visitor(Protocol):
    """Anything called with each event as it happens (a function will do)."""

    def __call__(self, event: Event, /) -> None: ...


class Ending(NamedTuple):
    """What an ending is given besides its hands (``State.deal_ending``): the All Fours games' ``trump`` and
    ``won`` (by side, the cards the tricks before took), Oh Hell's ``turnup`` and ``taken`` (by seat)."""

    trump: Suit | str | None
    turnup: Card | str | None
    won: Sequence[Iterable[Card | str]] | None
    taken: Sequence[int] | None


class Trick(NamedTuple):
    """A finished trick of the deal being played (a named tuple: made once a trick, so made cheaply)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


Action = int | Card | str


# ---------------------------------------------------------------------------- the shared machine


class State(ABC):
    """A game being played. Made by :func:`phatlog.start`; see docs/api.md."""

    game: str
    follow: FollowRule

    def __init__(
        self,
        rules: Any,
        names: Sequence[str],
        rng: random.Random | None,
        dealer: int | None,
        visitors: Iterable[Visitor] = (),
    ) -> None:
        self.rules = rules
        self.names = list(names)
        self.seats = len(self.names)
        self._rng = rng
        self._visitors: list[Visitor] = list(visitors)
        if dealer is None:
            dealer = rng.randrange(self.seats) if rng is not None else 0
        if not 0 <= dealer < self.seats:
            raise ValueError(f"the dealer is a seat 0..{self.seats - 1}, not {dealer}")
        self.dealer = dealer
        self.phase = Phase.DEAL
        self.deal_index = -1  # the deal being played (from 0); -1 before the first
        self.totals: list[int] = [0] * self.sides
        self.winner: tuple[int, ...] | None = None
        self.trump: Suit | None = None
        self._dealt: list[tuple[Card, ...]] = []
        self._undealt: tuple[Card, ...] | None = None
        self.tricks: list[Trick] = []
        self._legal: list[Card] | None = None  # the legal cards of the player to act, once asked
        self._play_of_deal: TrickPlay[Card] = TrickPlay([], 0)  # the hands, the trick, its leader, taken
        self._start_totals: list[int] = [0] * self.sides
        self._deals: list[dict[str, Any]] = []  # the finished deals, as record data

    # ------------------------------------------------------------------ what each game supplies

    @property
    @abstractmethod
    def sides(self) -> int:
        """How many scores there are: 2 partnerships, or one a player."""

    @abstractmethod
    def hand_size(self) -> int:
        """The cards each player is dealt in the deal about to be dealt (or being played)."""

    @abstractmethod
    def _begin(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        """Start the deal once its cards are known: settle the dealer, the trump and the phase."""

    def _no_trump_why(self) -> str | None:
        """Why the deal being dealt has no trump by the rules (Oh Hell), for ``DealBegins``."""
        return None

    def _trick_pegs(self, trick: Trick) -> tuple[tuple[tuple[Card, int], ...], int, bool]:
        """What a trick won pegs at once: (the counters in it and their points, their sum, whether that
        peg ends the game). Oh Hell pegs nothing trick by trick."""
        return (), 0, False

    @abstractmethod
    def _trick_done(self, ends: bool) -> None:
        """After a trick won (and told): end the deal or the game if it does (``ends``: at its peg)."""

    #: Where a peg ended the game mid-deal or after its tricks, (deal, trick or None), in the All Fours
    #: family; None otherwise (Oh Hell's game ends after its last hand).
    ended_at: tuple[int, int | None] | None = None

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the trick being played."""
        return self._play_of_deal.leader

    @property
    def trick(self) -> list[Card]:
        """The trick being played, from its leader."""
        return self._play_of_deal.trick

    @property
    def taken(self) -> list[int]:
        """The tricks each seat has taken this deal."""
        return self._play_of_deal.taken

    @property
    def _held(self) -> list[set[Card]]:
        """The hands as they are played down."""
        return self._play_of_deal.held

    @property
    def held(self) -> list[set[Card]]:
        """The hands as they are played down, by seat (the live sets: read them, never change them)."""
        return self._play_of_deal.held

    @abstractmethod
    def _draw(self, rng: random.Random) -> tuple[list[list[Card]], Card | None, list[Card] | None]:
        """Draw the deal about to be dealt: (hands, turn-up, undealt)."""

    def _deal_data(self) -> dict[str, Any]:
        """The deal being played, as record data so far (hands, undealt, turnup, bids, tricks)."""
        deal: dict[str, Any] = {"dealer": self.dealer, "hands": [sorted_text(h) for h in self._dealt]}
        if self._undealt is not None:
            deal["undealt"] = sorted_text(self._undealt)
        deal.update(self._deal_extra())
        if self.tricks or not self._dealt_only():
            deal["tricks"] = [{"leader": t.leader, "cards": [CARD_TEXT[c] for c in t.cards]} for t in self.tricks]
        return deal

    def _deal_extra(self) -> dict[str, Any]:
        """What a game records of a deal between its cards and its tricks (Oh Hell: the turn-up and bids)."""
        return {}

    def _dealt_only(self) -> bool:
        """True while nothing of the deal but its cards can be recorded (Oh Hell: the bidding)."""
        return False

    def _bid(self, bid: int) -> None:
        raise IllegalAction(f"{self.game} has no bidding", self.current_seat, bid)

    def legal_bids(self) -> list[int]:
        return []

    def _view_extra(self, seat: int) -> dict[str, Any]:
        return {}

    # ------------------------------------------------------------------ the public face

    def copy(self) -> State:
        """An independent copy of the game as it stands (to search from, or to keep a step), without the
        visitors; a seeded game's copy goes on to draw the same deals as the original would.

        Only what changes as the game goes is copied (the hands, the trick, the tricks, the totals, the
        finished deals' list); the rules, the names and what is replaced rather than changed are shared.
        The random generator is shared until one of them draws a deal, which copies it first."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["_visitors"] = []
        d["_history"] = []
        d["totals"] = self.totals[:]
        d["_start_totals"] = self._start_totals[:]
        d["tricks"] = self.tricks[:]
        d["_deals"] = self._deals[:]
        d["_play_of_deal"] = self._play_of_deal.copy()
        if self._rng is not None:
            self._rng_shared = d["_rng_shared"] = True
        self._copy_changing(d)
        new.__dict__ = d
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """``copy.deepcopy(state)`` is ``state.copy()`` (what OpenSpiel's ``clone`` of a Python state asks)."""
        return self.copy()

    def _copy_changing(self, d: dict[str, Any]) -> None:  # noqa: B027 - a hook: nothing more by default
        """What a game changes in place besides the shared machine's, copied into the copy's ``d``."""

    _rng_shared = False  # the generator is shared with a copy: copy it before drawing (``copy``)
    _history: list[State] = []  # noqa: RUF012 - replaced, never changed: the positions ``push`` saved

    def push(self, action: Action) -> None:
        """Apply ``action`` (as ``apply``, ``IllegalAction`` if not allowed) so that ``undo`` can take it
        back: python-chess's ``push`` and ``pop``. The visitors hear the action; ``undo`` tells them nothing."""
        saved = self.copy()
        self.apply(action)
        if not self._history:
            self._history = []
        self._history.append(saved)

    def undo(self) -> None:
        """Take back the last action ``push`` applied (``IllegalAction`` if there is none)."""
        if not self._history:
            raise IllegalAction("nothing to undo: only an action applied with push() can be undone")
        history, visitors = self._history, self._visitors
        saved = history.pop()
        self.__dict__ = saved.__dict__
        self._history, self._visitors = history, visitors

    @property
    def pushed(self) -> int:
        """How many actions ``undo`` can take back."""
        return len(self._history)

    # ------------------------------------------------------------------ integer action ids

    def action_id(self, action: Action) -> int:
        """An action as an integer: a card its number, 0 to 51 (``int(Card("QH"))``), a bid of ``b`` tricks
        ``52 + b`` (``ACTION_BID``); the same numbering as ``phatlog.openspiel``'s games."""
        if isinstance(action, Card):
            return int(action)
        if isinstance(action, str):
            return int(self.card_of(action))
        return ACTION_BID + action

    def action_of(self, action_id: int) -> int | Card:
        """The action an integer names (``action_id`` the other way): a :class:`Card`, or a bid (an int)."""
        if not 0 <= action_id < ACTION_BID + 18:
            raise IllegalAction(f"an action id is 0 to 51 (a card) or 52 and up (a bid), not {action_id}")
        return DECK[action_id] if action_id < ACTION_BID else action_id - ACTION_BID

    def legal_action_ids(self) -> list[int]:
        """The legal actions as integers (``action_id``), low to high."""
        if self.phase is Phase.BID:
            return [ACTION_BID + b for b in self.legal_bids()]
        return [int(card) for card in self.legal_actions()]

    def apply_id(self, action_id: int) -> None:
        """Apply the action an integer names (``action_of``)."""
        self.apply(self.action_of(action_id))

    # ------------------------------------------------------------------ the table in text

    def __repr__(self) -> str:
        turn = self.current_seat
        who = "" if turn is None else f", {self._who(turn)} to act"
        trump = "" if self.trump is None else f", trump {self.trump.letter}"
        totals = "-".join(map(str, self.totals))
        where = f"{self.game} deal {self.deal_index + 1} {self.phase.value}"
        return f"<{type(self).__name__} {where}{who}{trump}, totals {totals}>"

    def __str__(self) -> str:
        """The table in text: each player's hand, the trick on the table, the trump and the totals."""
        lines = [
            f"{self.game}, deal {self.deal_index + 1}, {self.phase.value}; dealer {self._who(self.dealer)}"
            + ("" if self.trump is None else f", trump {self.trump.name.lower()}")
        ]
        turn = self.current_seat
        width = max(len(n) for n in self.names)
        for seat, name in enumerate(self.names):
            mark = "*" if seat == turn else " "
            held = " ".join(CARD_TEXT[c] for c in self.hand(seat)) or "-"
            taken = f"  ({self.taken[seat]} taken)" if self.taken else ""
            lines.append(f"{mark} {name:<{width}}  {held}{taken}")
        if self.trick:
            played = ", ".join(
                f"{self._who(in_turn(self.leader, i, self.seats))} {CARD_TEXT[c]}" for i, c in enumerate(self.trick)
            )
            lines.append(f"  trick {len(self.tricks) + 1}: {played}")
        lines.append(f"  totals: {' '.join(map(str, self.totals))}")
        return "\n".join(lines)

    def listen(self, visitor: Visitor) -> None:
        """Call ``visitor`` with every event from now on."""
        self._visitors.append(visitor)

    def _emit(self, event: Event) -> None:
        for visitor in self._visitors:
            visitor(event)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def is_chance(self) -> bool:
        """True when a deal is due: ``deal()`` it (a seeded game draws it by itself)."""
        return self.phase in (Phase.DEAL, Phase.DEAL_OVER)

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is (None at a chance node or when the game is over)."""
        if self.phase is Phase.PLAY:
            return self._play_of_deal.turn
        if self.phase is Phase.BID:
            return self._bidder()
        return None

    def _bidder(self) -> int | None:
        return None

    def _repr_svg_(self) -> str:
        """The table as a notebook shows it (``phatlog.record.diagram``): each hand by suit around the table,
        the trick being played in the middle, the trump and the totals."""
        from phatlog.record.diagram import Diagram, table_svg

        names = [seat_name(s, self.names) for s in range(self.seats)]
        sides = names if self.sides == self.seats else [f"{names[s]} & {names[s + 2]}" for s in range(self.sides)]
        started = self.deal_index >= 0 and bool(self._held)
        return table_svg(
            Diagram(
                names=names,
                hands=[[CARD_TEXT[c] for c in reversed(self.hand(s))] for s in range(self.seats)] if started else None,
                trick=[((self.leader + i) % self.seats, CARD_TEXT[c]) for i, c in enumerate(self.trick)],
                dealer=self.dealer,
                to_play=self.current_seat,
                trump=None if self.trump is None else self.trump.letter,
                score=list(zip(sides, self.totals, strict=True)),
                title=f"{self.game}: deal {self.deal_index + 1}" if self.deal_index >= 0 else str(self.game),
                subtitle=f"{self.phase.value}"
                + ("" if self.current_seat is None else f", {names[self.current_seat]} to act"),
            )
        )

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, low to high."""
        return sorted(self._held[seat]) if self._held else []

    def legal_actions(self) -> list[Any]:
        """The bids (ints) or cards (:class:`Card`) the player to act may choose, sorted; [] at a chance node."""
        if self.phase is Phase.BID:
            return self.legal_bids()
        if self.phase is not Phase.PLAY:
            return []
        if self._legal is None:
            play = self._play_of_deal
            led = SUITS[play.trick[0] // 13] if play.trick else None
            self._legal = legal_plays(play.held[play.turn], led, self.trump, self.follow)
        return list(self._legal)

    def may_play(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may play ``card`` now: it is their turn, they hold it, and it follows the rules
        (the same test as ``card in legal_actions()``, without listing every legal card)."""
        play = self._play_of_deal
        if self.phase is not Phase.PLAY or seat != play.turn:
            return False
        hand = play.held[seat]
        if card not in hand:
            return False
        led = SUITS[play.trick[0] // 13] if play.trick else None
        return may_play(card, hand, led, self.trump, self.follow)

    def apply(self, action: Action) -> None:
        """Play a card (a :class:`Card` or its text, "QH") or make a bid (an int); ``IllegalAction`` if not allowed."""
        if self.phase is Phase.BID:
            if isinstance(action, Card) or not isinstance(action, int) or isinstance(action, bool):
                raise IllegalAction(
                    f"it is {self._who(self.current_seat)}'s bid (a number of tricks), not {action!r}",
                    self.current_seat,
                    action,
                )
            self._bid(action)
            return
        if self.phase is not Phase.PLAY:
            why = "the game is over" if self.is_over else "a deal is due: call deal(hands=...)"
            raise IllegalAction(f"no card can be played now: {why}", None, action)
        self._play(self.card_of(action))

    def card_of(self, action: Action) -> Card:
        """The card ``action`` names (a :class:`Card`, or its text: "QH", "10H"), as ``apply`` reads it;
        ``IllegalAction`` for text that is not a card, or a bid. Whether it may be played is ``may_play``."""
        if isinstance(action, Card):
            return action
        if isinstance(action, str):
            try:
                return Card.parse(action)
            except ValueError as exc:
                raise IllegalAction(str(exc), self.current_seat, action) from None
        raise IllegalAction(
            f"it is {self._who(self.current_seat)}'s turn to play a card, not to bid {action!r}",
            self.current_seat,
            action,
        )

    def _who(self, seat: int | None) -> str:
        return "nobody" if seat is None else seat_name(seat, self.names)

    def _play(self, card: Card) -> None:
        """Play ``card`` for the seat to play, if the rules allow it (else ``IllegalAction``), and when it
        completes the trick, finish the trick: the winner leads next, the game pegs what it pegs, the
        visitors hear of it, and the deal or the game may end."""
        play = self._play_of_deal
        seat = play.turn
        hand = play.held[seat]
        led = SUITS[play.trick[0] // 13] if play.trick else None
        if self._legal is not None and card in self._legal:
            pass  # already known to be legal
        elif card not in hand:
            raise IllegalAction(f"{self._who(seat)} does not hold {card}", seat, card)
        elif not may_play(card, hand, led, self.trump, self.follow):
            who = self._who(seat)
            assert led is not None
            following = cards_of_suit(hand, led)
            if following:
                holding = " ".join(CARD_TEXT[c] for c in following)
                raise IllegalAction(
                    f"{who} may not play {card} to a {led.name.lower()[:-1]} lead while holding {holding}: "
                    "players must follow suit if able",
                    seat,
                    card,
                )
            assert self.trump is not None
            holding = " ".join(CARD_TEXT[c] for c in cards_of_suit(hand, self.trump))
            raise IllegalAction(
                f"{who} may not play {card}: unable to follow, they hold the trump(s) {holding}, and under "
                "must_trump (La Podrida) a player who cannot follow must trump",
                seat,
                card,
            )
        ends = self._lay(card)
        if ends is not None:
            self._trick_done(ends)

    def play_judged(self, cards: Sequence[Card]) -> Trick | None:
        """Play a trick's ``cards`` from its lead, each held by the seat to play, without asking the follow
        rule: a referee driving the State over a record has judged them already (a revoke a director's
        ruling lets stand, format 1.1). The last trick before a claim may be partly played. Returns the
        trick once complete (its winner by the rules), else None. A referee's visitors hear whole tricks,
        not the cards one by one."""
        play = self._play_of_deal
        self._legal = None
        if self.trump is None and cards and self._trump_from_lead():
            self.trump = trump_of_pitch(cards[0])
        if len(cards) < self.seats or play.trick:
            play.play_cards(cards)
            if len(play.trick) < self.seats:
                return None
            self._judged_trick(self._finish_trick())
        else:  # a whole trick from its lead (the common case): laid and taken at once
            play.lay(cards)
            self._judged_trick(self._finish_trick(tuple(cards)))
        return self.tricks[-1]

    def _judged_trick(self, ends: bool) -> None:
        """After a trick a driver played (``play_judged``): what it ends, as for a trick played by ``apply``."""
        self._trick_done(ends)

    def _lay(self, card: Card, told: bool = True) -> bool | None:
        """Lay ``card`` for the seat to play (its legality already judged) and, when it completes the trick,
        finish the trick (``_finish_trick``; the visitors hear of the card too, unless not ``told``: a
        referee's visitors hear the tricks). Returns None while the trick goes on, else whether its peg
        ends the game."""
        play = self._play_of_deal
        seat = play.turn
        self._legal = None
        if self.trump is None and self._trump_from_lead():
            self.trump = trump_of_pitch(card)
        complete = play.play(card)
        if told and self._visitors:
            self._emit(CardPlayed(self.deal_index, len(self.tricks), seat, card, self.trump))
        if not complete:
            return None
        return self._finish_trick()

    def _finish_trick(self, cards: tuple[Card, ...] | None = None) -> bool:
        """The trick is complete: the winner takes it and leads next, the game pegs what it pegs, the
        visitors hear of it. Returns whether its peg ends the game. ``cards``: the trick's cards, where
        they were laid at once (``play_judged``) rather than one by one onto the trick."""
        play = self._play_of_deal
        if cards is None:
            cards = tuple(play.trick)
        leader = play.leader
        strength = STRENGTH[4 if self.trump is None else self.trump][cards[0] // 13]  # ``winning_position``
        keys = [strength[c] for c in cards]
        position = keys.index(max(keys))
        trick = Trick(leader, cards, play.close(position))
        self.tricks.append(trick)
        counters, points, ends = self._trick_pegs(trick)
        if self._visitors:
            why = explain_winner(cards, self.trump, self.follow)
            taken = tuple(play.taken)
            index = len(self.tricks) - 1
            totals = self.known_totals()
            self._emit(
                TrickWon(
                    self.deal_index, index, leader, cards, trick.winner, position, why, counters, points, totals, taken
                )
            )
        return ends

    def _trump_from_lead(self) -> bool:
        """All Fours: the first card led makes trump."""
        return False

    # ------------------------------------------------------------------ chance

    def deal(
        self,
        hands: Sequence[Iterable[Card | str]],
        turnup: Card | str | None = None,
        undealt: Iterable[Card | str] | None = None,
        dealer: int | None = None,
    ) -> None:
        """Give the next deal (a chance node): the hands by seat, Oh Hell's turned-up card, Nine-card Don's
        undealt cards if known. ``dealer`` overrides the dealer due by rotation (a record's own dealer)."""
        if not self.is_chance:
            raise IllegalAction(f"no deal is due now (the phase is {self.phase.value})")
        parsed = [[parse_card(c) for c in h] for h in hands]
        up = None if turnup is None else parse_card(turnup)
        rest = None if undealt is None else [parse_card(c) for c in undealt]
        if dealer is not None:
            if not 0 <= dealer < self.seats:
                raise IllegalAction(f"the dealer is a seat 0..{self.seats - 1}, not {dealer}")
            self.dealer = dealer
        self._check_deal(parsed, up, rest)
        self._open(parsed, up, rest)

    def deal_ending(
        self,
        hands: Sequence[Iterable[Card | str]],
        *,
        leader: int | None = None,
        trump: Suit | str | None = None,
        turnup: Card | str | None = None,
        won: Sequence[Iterable[Card | str]] | None = None,
        taken: Sequence[int] | None = None,
    ) -> None:
        """Give the next deal as an ending, a position set by its cards alone (as a problem is set): ``hands``
        what each seat still holds, the same number of cards each, fewer than the deal gives (or as many);
        the tricks before are not replayed and hold no cards here. ``leader`` leads the next trick (the
        dealer's left if not given). The All Fours games: ``trump``, the suit the pitcher's first lead made
        trump, and ``won``, by side, the cards each side took in the tricks before (four a trick), which
        the end-of-deal awards count. Oh Hell: ``turnup`` as for ``deal``, and ``taken``, the tricks each
        seat took before. A game set up from an ending has no whole record (``record`` refuses)."""
        if not self.is_chance:
            raise IllegalAction(f"no deal is due now (the phase is {self.phase.value})")
        parsed = [[parse_card(c) for c in h] for h in hands]
        if len(parsed) != self.seats:
            raise IllegalAction(f"a deal has {self.seats} hands, one a player, not {len(parsed)}")
        size = self.hand_size()
        left = len(parsed[0]) if parsed else 0
        if not 0 < left <= size or any(len(h) != left for h in parsed):
            raise IllegalAction(
                f"an ending gives each player the same number of cards, 1 to {size}, not {[len(h) for h in parsed]}"
            )
        if leader is not None and not 0 <= leader < self.seats:
            raise IllegalAction(f"the leader is a seat 0..{self.seats - 1}, not {leader}")
        seen: set[Card] = set()
        for card in (c for h in parsed for c in h):
            if card in seen:
                raise IllegalAction(f"{card} is dealt twice")
            seen.add(card)
        winners = self._open_ending(parsed, size - left, seen, Ending(trump, turnup, won, taken))
        play = self._play_of_deal
        if leader is not None:
            play.leader = leader
        # The tricks before the ending, without their cards: each counts for its winner (``taken``).
        self.tricks = [Trick(play.leader, (), w) for w in winners]
        for w in winners:
            play.taken[w] += 1
        play.played = len(winners)
        self._from_ending = True

    def _open_ending(self, hands: list[list[Card]], before: int, seen: set[Card], given: Ending) -> list[int]:
        """Each game's part of ``deal_ending``: check what it is ``given``, open the deal on ``hands`` and
        return the winners of the ``before`` tricks played before the ending (``seen``: the cards held)."""
        raise IllegalAction(f"{self.game} sets up no ending")

    _from_ending = False  # the game began from an ending (``deal_ending``): it has no whole record

    def _check_deal(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        if len(hands) != self.seats:
            raise IllegalAction(f"a deal has {self.seats} hands, one a player, not {len(hands)}")
        size = self.hand_size()
        seen: set[Card] = set()
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise IllegalAction(f"{self._who(seat)} is dealt {len(hand)} cards; this deal gives {size} each")
            for card in hand:
                if card in seen:
                    raise IllegalAction(f"{card} is dealt twice")
                seen.add(card)
        for card in undealt or ():
            if card in seen:
                raise IllegalAction(f"{card} is listed as undealt, but it is dealt")
            seen.add(card)

    def _open(self, hands: list[list[Card]], turnup: Card | None, undealt: list[Card] | None) -> None:
        self.deal_index += 1
        # The dealer's left leads first (the pitcher, in the All Fours family), once ``_begin`` has settled
        # who deals (Irish Don's first deal).
        self._play_of_deal = TrickPlay([set(h) for h in hands], 0)
        self._dealt = [tuple(h) for h in hands]  # as given: each reader sorts or sets them
        self._undealt = None if undealt is None else tuple(sorted(undealt))
        self._legal = None
        self.tricks = []
        self._start_totals = list(self.totals)
        self.trump = None
        self._begin(hands, turnup, undealt)
        self._play_of_deal.leader = first_leader(self.dealer, self.seats)
        if not self._visitors:
            return
        self._emit(
            DealBegins(
                self.deal_index,
                self.dealer,
                tuple(tuple(sorted(h)) for h in hands),
                self.hand_size(),
                self.trump,
                turnup,
                None if undealt is None else tuple(sorted(undealt)),
                self._no_trump_why(),
            )
        )

    def _next_deal(self) -> None:
        """After a deal is scored: the deal passes to the left, and a seeded game draws the next one."""
        self.dealer = next_dealer(self.dealer, self.seats)
        self.phase = Phase.DEAL_OVER
        self._draw_if_seeded()

    def seed_later(self, rng: random.Random | None) -> None:
        """Draw the deals from now on from ``rng`` (None: each is given with ``deal``)."""
        self._rng, self._rng_shared = rng, False

    def _draw_if_seeded(self) -> None:
        if self._rng is not None and self.is_chance:
            if self._rng_shared:  # shared with a copy (``copy``): draw from a copy of it
                rng = random.Random()
                rng.setstate(self._rng.getstate())
                self._rng, self._rng_shared = rng, False
            hands, turnup, undealt = self._draw(self._rng)
            self._open(hands, turnup, undealt)

    def _shuffled(self, rng: random.Random) -> list[Card]:
        pack = list(DECK)
        rng.shuffle(pack)
        return pack

    def _dealt_from(self, pack: Sequence[Card], size: int) -> list[list[Card]]:
        """One card at a time to each player, from the dealer's left."""
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        for k in range(size * self.seats):
            hands[in_turn(first_leader(self.dealer, self.seats), k, self.seats)].append(pack[k])
        return hands

    # ------------------------------------------------------------------ scoring shared

    def _score_deal(self, passed_over: bool = False) -> tuple[int, ...]:
        points = tuple(self.totals[s] - self._start_totals[s] for s in range(self.sides))
        if self._visitors:
            captured = None if passed_over else self._captured_count()
            taken = None if passed_over else self._scored_taken()
            self._emit(
                DealScored(self.deal_index, points, self.known_totals(), passed_over, self._giving_up, captured, taken)
            )
        return points

    def known_totals(self) -> tuple[int, ...] | None:
        """The totals as the events tell them: None where they are not known (``totals_known``)."""
        return tuple(self.totals) if self.totals_known else None

    def _captured_count(self) -> tuple[int, ...] | None:
        """The count of the cards each side took that a bonus was pegged on this deal, if any."""
        return None

    def _scored_taken(self) -> tuple[int, ...] | None:
        """Oh Hell: the tricks each player took, as the deal is scored."""
        return None

    _giving_up = False  # True while a deal whose play went wrong is passed over

    #: Whether the running totals are known: a State driven over a record (the referee) is told they are
    #: not after a deal whose points the record neither lets be worked out nor records; its events then
    #: carry None for them, until a recorded total anchors them again.
    totals_known = True

    def _finish_deal_data(self, points: Sequence[int]) -> None:
        deal = self._deal_data()
        deal["score"] = {"points": list(points), "total": list(self.totals)}
        self._deals.append(deal)

    def _game_over(self, winner: Sequence[int]) -> None:
        self.winner = tuple(winner)
        self.phase = Phase.GAME_OVER
        self._emit(GameOver(self.deal_index, self.winner, tuple(self.totals)))

    # ------------------------------------------------------------------ views and records

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows, as JSON data: its own hand, every card played this deal, the bids, trump
        and turn-up, the scores and whose turn it is; never another player's unplayed card."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"a seat is 0..{self.seats - 1}, not {seat}")
        current = self.current_seat
        out: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "players": list(self.names),
            "phase": self.phase.value,
            "deal": self.deal_index,
            "dealer": self.dealer,
            "hand": sorted_text(self._held[seat]) if self._held else [],
            "trump": None if self.trump is None else self.trump.letter,
            "tricks": [  # (an ending's tricks before it hold no cards: ``deal_ending``)
                {"leader": t.leader, "cards": [CARD_TEXT[c] for c in t.cards], "winner": t.winner} for t in self.tricks
            ],
            "trick": {"leader": self.leader, "cards": [CARD_TEXT[c] for c in self.trick]},
            "taken": list(self.taken),
            "totals": list(self.totals),
            "current_seat": current,
            "winner": None if self.winner is None else list(self.winner),
        }
        out.update(self._view_extra(seat))
        if current == seat:
            out["legal_actions"] = [
                a if isinstance(a, int) and not isinstance(a, Card) else str(a) for a in self.legal_actions()
            ]
        return out

    def record(self) -> dict[str, Any]:
        """The game so far as a phatlog record (JSON data, keys in ``phatlog.record.model.KEY_ORDER``).

        A finished game's record verifies clean; a game in progress is recorded with its finished
        deals, the deal being played up to its last whole trick, and ``result.status: unfinished``."""
        if self._from_ending:
            raise ValueError("a game set up from an ending has no whole record: the tricks before it are not known")
        deals = list(self._deals)
        if not self.is_over and self.deal_index >= 0 and not self.is_chance:
            deals.append(self._deal_data())
        result: dict[str, Any] = {"status": "unfinished"}
        if self.winner is not None:
            result = {"winner": list(self.winner), "total": list(self.totals)}
        # Built in the order phatlog writes (model.KEY_ORDER); the version is 1.0 unless a 1.1 feature is used.
        record: dict[str, Any] = {
            "phatlog": "1.0",
            "game": self.game,
            "rules": self.rules.model_dump(exclude_defaults=True),
            "players": [{"name": n} for n in self.names],
            "deals": deals,
            "result": result,
        }
        record["phatlog"] = version_for(record)
        return record

    # ------------------------------------------------------------------ deals taken as recorded

    def pass_over(self, points: Sequence[int], dealer: int | None = None) -> None:
        """Take the deal due as recorded without its cards (a score sheet): its ``points`` by side (Oh Hell:
        by seat) as recorded, dealt by ``dealer`` (the dealer due if None); ``IllegalAction`` if no deal is
        due. Its ``DealScored`` has ``passed_over`` True; the game may end on it."""
        if not self.is_chance:
            raise IllegalAction(f"no deal is due now (the phase is {self.phase.value})")
        if dealer is not None:
            self.dealer = dealer
        self.deal_index += 1
        self._dealt, self._undealt = [], None
        self._play_of_deal = TrickPlay([set() for _ in range(self.seats)], 0)
        self.tricks, self.trump = [], None
        self._start_totals = list(self.totals)
        self._passed(points)

    def give_up(self, points: Sequence[int], dealer: int | None = None) -> None:
        """Give up the deal being played, or due, whose play went wrong (or cannot be dealt): undo what its
        tricks pegged and pass it over as a score-sheet deal of ``points`` (the points recorded), as the
        referee scores it. Its ``DealScored`` has ``passed_over`` and ``given_up`` True."""
        if self.phase in (Phase.BID, Phase.PLAY):
            dealer = self.dealer
            self.totals[:] = self._start_totals
            self.deal_index -= 1
            self.phase = Phase.DEAL_OVER
        elif not self.is_chance:
            raise IllegalAction(f"no deal is being played (the phase is {self.phase.value})")
        self._giving_up = True
        try:
            self.pass_over(points, dealer)
        finally:
            self._giving_up = False

    def show_unscored(self, tricks: Sequence[tuple[int, Sequence[Card]]]) -> None:
        """Before a deal is given up at an illegal play: tell the visitors of its recorded tricks (leader,
        cards) from the faulty one on, each with the card that would win it, none scored. All Fours' trump
        is the suit of the first card led, even where that card was the illegal one."""
        trump = self.trump
        if trump is None and self._trump_from_lead() and tricks and tricks[0][1]:
            trump = trump_of_pitch(tricks[0][1][0])
        for event in shown_tricks(self.deal_index, len(self.tricks), tricks, trump, self.seats, self.follow):
            self._emit(event)

    @abstractmethod
    def _passed(self, points: Sequence[int]) -> None:
        """Score a passed-over deal and move on (the game may end)."""


def shown_tricks(
    deal: int,
    first: int,
    tricks: Sequence[tuple[int, Sequence[Card]]],
    trump: Suit | None,
    seats: int,
    rule: FollowRule,
) -> list[TrickShown]:
    """The recorded tricks (leader, cards) of a deal given up at an illegal play, from trick ``first`` on,
    each with the card that would win it under ``trump`` and why: shown, never scored (the State's
    ``show_unscored`` and the referees')."""
    out: list[TrickShown] = []
    for i, (leader, cards) in enumerate(tricks):
        if not cards:
            continue
        shown = tuple(cards)
        position = winning_position(shown, trump)
        why = explain_winner(shown, trump, rule)
        out.append(TrickShown(deal, first + i, leader, shown, (leader + position) % seats, position, why))
    return out


def sorted_text(cards: Iterable[Card]) -> list[str]:
    return [CARD_TEXT[c] for c in sorted(cards)]


def parse_card(value: Card | str) -> Card:
    """A card, or its text ("QH", "10H") parsed; ``IllegalAction`` for text that is not a card."""
    if isinstance(value, Card):
        return value
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


VisitorLike = Visitor | Callable[[Event], None]
