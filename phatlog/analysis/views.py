"""What one player could know at a point of a deal, and the layouts of the cards it could not see.

A player sees its own hand, every card played so far (the tricks and the trick being played), and Oh
Hell's turned-up card. It also sees **voids**: a player who plays a card that the follow rule allows only
to a hand without the suit led holds none of that suit from then on:

- ``must_follow``: a card of another suit than the one led shows a void in the suit led;
- ``follow_or_trump`` (the Don games): a trump may always be played instead of following, so only a
  card of neither the suit led nor trump shows a void in the suit led;
- ``must_trump``: a card of another suit shows a void in the suit led, and if it is not a trump either,
  a void in trump too.

The cards it did not see are every card of the pack but those. They lie in the other players' hands
(each holding as many as it has left) and, where the deal leaves cards out (Nine-card Don's 16 undealt
cards, Oh Hell's pack below the turn-up), in the undealt stock, which nobody sees. A **layout** gives
each unseen card its place; it is *consistent* with the view when every hand has its size and no hand
holds a card of a suit it showed void in.

:func:`layouts` samples consistent layouts uniformly (each consistent layout equally likely) and
deterministically (by ``seed``): it counts them exactly, suit by suit (how many cards of each suit go to
each place, times the ways to choose them), and draws a layout by those counts, so no sample is
rejected and voids cost nothing.

Oh Hell's **bids** say something of the hands too, but how much depends on the bidder. By default they are
not used: every consistent layout counts the same. On request (``bid_likelihood``, ``single_dummy(...,
bids=True)``, ``analyse --single-dummy --bids``) they are soft evidence: a layout counts in proportion to
how likely it makes the bids the other players made, by a plain model of bidding. A hand as dealt (what
the seat holds and what it has played this hand) is expected to take ``sum(TRICK_CHANCE)`` tricks: a
trump by its rank, a card of another suit by its rank when the hand holds few enough of the suit that it
may win before it is trumped; the bid is that expectation give or take a normal spread
(``BID_SPREAD`` tricks, plus a tenth of the hand size). It is one reasonable bidder, not the one at the
table, which is why it is a choice and off by default.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from math import comb, factorial

from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.state import Phase, State
from phatlog.rules.cards import DECK, Card
from phatlog.rules.trick import FollowRule

__all__ = [
    "Layout",
    "View",
    "bid_likelihood",
    "bid_weigher",
    "count_layouts",
    "expected_tricks",
    "layouts",
    "place",
    "played_by_seat",
    "view_of",
]

#: The place of the undealt stock in a layout (the seats are 0..seats-1).
STOCK = -1


@dataclass(frozen=True, slots=True)
class View:
    """What ``seat`` knows: its own ``hand``; the ``unseen`` cards; for every other place (each other
    seat, and ``STOCK`` for the undealt cards) how many unseen cards it holds (``sizes``) and the suits it
    is known to hold none of (``voids``)."""

    seat: int
    hand: frozenset[Card]
    unseen: tuple[Card, ...]
    sizes: dict[int, int]
    voids: dict[int, frozenset[int]]

    @property
    def places(self) -> list[int]:
        return sorted(self.sizes)


#: A layout of the unseen cards: for each place (seat, or ``STOCK``), the cards it holds.
Layout = dict[int, frozenset[Card]]


def shown_voids(state: State) -> dict[int, set[int]]:
    """The suits each seat has shown it holds none of, by the cards played so far this deal."""
    voids: dict[int, set[int]] = {s: set() for s in range(state.seats)}
    tricks = [(t.leader, list(t.cards)) for t in state.tricks]
    if state.trick:
        tricks.append((state.leader, list(state.trick)))
    trump = None if state.trump is None else int(state.trump)
    for leader, cards in tricks:
        led = cards[0] // 13
        for position in range(1, len(cards)):
            seat = (leader + position) % state.seats
            suit = cards[position] // 13
            if suit == led:
                continue
            if state.follow is FollowRule.FOLLOW_OR_TRUMP and suit == trump:
                continue
            voids[seat].add(led)
            if state.follow is FollowRule.MUST_TRUMP and trump is not None and suit != trump:
                voids[seat].add(trump)
    return voids


def view_of(state: State, seat: int | None = None) -> View:
    """``seat``'s view (the player to act by default) of ``state``, a deal in play with every hand known to
    the state (from ``phatlog.start`` or ``phatlog.states``)."""
    if state.phase is not Phase.PLAY:
        raise ValueError(f"a view is of a deal in play; this game's phase is {state.phase.value}")
    if seat is None:
        seat = state.current_seat
        assert seat is not None
    hand = frozenset(state.held[seat])
    seen = set(hand)
    for t in state.tricks:
        seen.update(t.cards)
    seen.update(state.trick)
    if isinstance(state, OhHellState) and state.turnup is not None:
        seen.add(state.turnup)
    unseen = tuple(c for c in DECK if c not in seen)
    sizes = {s: len(state.held[s]) for s in range(state.seats) if s != seat}
    stock = len(unseen) - sum(sizes.values())
    if stock:
        sizes[STOCK] = stock
    shown = shown_voids(state)
    voids = {p: frozenset(shown.get(p, ())) for p in sizes}
    return View(seat, hand, unseen, sizes, voids)


def _by_suit(view: View) -> tuple[int, ...]:
    return tuple(sum(1 for c in view.unseen if c // 13 == s) for s in range(4))


class _Counter:
    """Counts the consistent layouts place by place over the places shown void in some suit:
    ``ways(i, left)`` is the number of ways to deal the unseen cards still to place (``left``: how many of
    each suit) to those places ``i``.. and then the others, each holding its size and no card of a suit it
    is void in. The ways of one step are the ways to choose its cards of each suit among those left
    (binomials) times the ways of the rest; the places void in nothing take what is left in any way (a
    multinomial: ``rest``), whatever its suits."""

    def __init__(self, sizes: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...], free: tuple[int, ...]) -> None:
        self.sizes = sizes
        self.free = sum(free)
        self.rest = factorial(self.free)
        for n in free:
            self.rest //= factorial(n)
        self.allowed = allowed
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def _takes(self, i: int, left: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every count of each suit place ``i`` may take from ``left``, with the ways to choose the cards."""
        out: list[tuple[tuple[int, ...], int]] = []
        allowed = self.allowed[i]

        def go(s: int, room: int, taken: tuple[int, ...], ways: int) -> None:
            if s == 4:
                if room == 0:
                    out.append((taken, ways))
                return
            top = min(room, left[s]) if allowed[s] else 0
            for k in range(top + 1):
                go(s + 1, room - k, (*taken, k), ways * comb(left[s], k))

        go(0, self.sizes[i], (), 1)
        return out

    def ways(self, i: int, left: tuple[int, ...]) -> int:
        key = (i, left)
        found = self._ways.get(key)
        if found is not None:
            return found
        if i == len(self.sizes):  # the places void in nothing share what is left, any way
            total = self.rest if sum(left) == self.free else 0
        else:
            total = 0
            for take, w in self._takes(i, left):
                total += w * self.ways(i + 1, tuple(a - k for a, k in zip(left, take, strict=True)))
        self._ways[key] = total
        return total

    def choices(self, i: int, left: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """Place ``i``'s possible takes from ``left`` and their cumulative weights (for drawing one)."""
        key = (i, left)
        found = self._choices.get(key)
        if found is None:
            takes: list[tuple[int, ...]] = []
            cumulative: list[int] = []
            total = 0
            for take, w in self._takes(i, left):
                weight = w * self.ways(i + 1, tuple(a - k for a, k in zip(left, take, strict=True)))
                if weight:
                    total += weight
                    takes.append(take)
                    cumulative.append(total)
            found = self._choices[key] = (takes, cumulative)
        return found


def _split_places(view: View) -> tuple[list[int], list[int]]:
    """The places shown void in some suit, and the others."""
    places = view.places
    return [p for p in places if view.voids[p]], [p for p in places if not view.voids[p]]


def _counter(view: View) -> _Counter:
    voided, free = _split_places(view)
    return _Counter(
        tuple(view.sizes[p] for p in voided),
        tuple(tuple(s not in view.voids[p] for s in range(4)) for p in voided),
        tuple(view.sizes[p] for p in free),
    )


def count_layouts(view: View) -> int:
    """How many layouts of the unseen cards are consistent with ``view`` (exactly)."""
    if not view.sizes:
        return 1
    return _counter(view).ways(0, _by_suit(view))


def layouts(view: View, samples: int, seed: int = 0) -> list[Layout]:
    """``samples`` layouts of the unseen cards drawn uniformly from those consistent with ``view``
    (independently, so one may repeat), the same for the same ``seed``. ValueError if there is none (the
    view contradicts itself)."""
    places = view.places
    if not places:
        return [{} for _ in range(samples)]
    counter = _counter(view)
    first = _by_suit(view)
    if counter.ways(0, first) == 0:
        raise ValueError("no layout of the unseen cards fits this view")
    rng = random.Random(seed)
    cards_of = [[c for c in view.unseen if c // 13 == s] for s in range(4)]
    out: list[Layout] = []
    voided, free = _split_places(view)
    for _ in range(samples):
        left = first
        got: dict[int, list[Card]] = {p: [] for p in places}
        counts: list[tuple[int, ...]] = []
        for i in range(len(voided)):
            takes, cumulative = counter.choices(i, left)
            take = takes[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            counts.append(take)
            left = tuple(a - k for a, k in zip(left, take, strict=True))
        rest: list[Card] = []
        for s in range(4):
            cards = list(cards_of[s])
            rng.shuffle(cards)
            at = 0
            for p, take in zip(voided, counts, strict=True):
                got[p] += cards[at : at + take[s]]
                at += take[s]
            rest += cards[at:]
        rng.shuffle(rest)
        at = 0
        for p in free:
            got[p] = rest[at : at + view.sizes[p]]
            at += view.sizes[p]
        out.append({p: frozenset(cs) for p, cs in got.items()})
    return out


#: The chance that a card takes a trick, by rank from the ace down (the A, the K, ...), for a trump and for a
#: card of another suit (held with at most two others of its suit: longer, the lower honours are ruffed).
TRICK_CHANCE: dict[bool, tuple[float, ...]] = {
    True: (0.95, 0.85, 0.7, 0.55, 0.45, 0.35, 0.3, 0.25, 0.2, 0.15, 0.15, 0.1, 0.1),
    False: (0.85, 0.55, 0.25, 0.1, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
}
#: The spread (a standard deviation, in tricks) of a bid around the tricks a hand is expected to take, and
#: how it grows with the hand size.
BID_SPREAD = 0.75
BID_SPREAD_A_CARD = 0.1


def expected_tricks(hand: Iterable[Card], trump: int | None) -> float:
    """The tricks a hand as dealt is expected to take, by :data:`TRICK_CHANCE`."""
    cards = list(hand)
    length = [0, 0, 0, 0]
    for c in cards:
        length[c // 13] += 1
    total = 0.0
    for c in cards:
        suit, from_ace = c // 13, 12 - c % 13
        if suit == trump:
            total += TRICK_CHANCE[True][from_ace]
        elif from_ace == 0 or length[suit] <= 3:
            total += TRICK_CHANCE[False][from_ace]
    return total


def bid_likelihood(state: State, layout: Layout, seat: int) -> float:
    """How likely ``layout`` makes the bids of the players other than ``seat`` (Oh Hell; 1.0 for a game
    without bids, or before they are made), relative to other layouts: the product of each bid's normal
    density around what the hand it was made on is expected to take (:func:`expected_tricks`)."""
    return bid_weigher(state, seat)(layout)


def bid_weigher(state: State, seat: int) -> Callable[[Layout], float]:
    """:func:`bid_likelihood` for ``state`` and ``seat``, with what every layout shares (the bids, the cards
    played, the trump, the spread) worked out once, for the many layouts of one decision."""
    if not isinstance(state, OhHellState) or not state.bids:
        return lambda layout: 1.0
    played = played_by_seat(state)
    trump = None if state.trump is None else int(state.trump)
    spread = BID_SPREAD + BID_SPREAD_A_CARD * state.hand_size()
    bids = [(other, bid) for other, bid in enumerate(state.bids) if other != seat and bid is not None]
    held = state.held

    def weigh(layout: Layout) -> float:
        weight = 1.0
        for other, bid in bids:
            hand = [*(layout[other] if other in layout else held[other]), *played[other]]
            gap = (bid - expected_tricks(hand, trump)) / spread
            weight *= math.exp(-0.5 * gap * gap)
        return weight

    return weigh


def played_by_seat(state: State) -> dict[int, list[Card]]:
    """The cards each seat has played this deal (the tricks, then the trick in progress)."""
    played: dict[int, list[Card]] = {s: [] for s in range(state.seats)}
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            played[(t.leader + i) % state.seats].append(c)
    for i, c in enumerate(state.trick):
        played[(state.leader + i) % state.seats].append(c)
    return played


def place(state: State, layout: Layout, seat: int) -> State:
    """A copy of ``state`` with the unseen cards laid out as ``layout`` (``seat``'s own hand and every card
    played kept), ready to be solved double dummy: the hands held, and what each seat was dealt (its hand
    and the cards it played this deal, which the end-of-deal awards read: who held the high and the low,
    whether the jack was dealt)."""
    out = state.copy()
    played = played_by_seat(state)
    held = out._play_of_deal.held
    dealt = list(out._dealt)
    for p, cards in layout.items():
        if p == STOCK:
            continue
        held[p].clear()
        held[p].update(cards)
        if dealt:
            dealt[p] = tuple(sorted([*cards, *played[p]]))
    out._dealt = dealt
    if STOCK in layout and out._undealt is not None:
        out._undealt = tuple(sorted(layout[STOCK]))
    out._legal = None
    return out
