"""A position to solve, with every hand known, and the rules tables the solvers search with.

Every rule comes from ``phatlog.rules``, never a copy of it: the trick winner from ``trick.STRENGTH``
(the table of the engine's hot loop), which cards may be played from ``trick.may_play`` (asked once per
case and kept as a small table), the counters from the game's ``counters``, the card points of the muck
and the game from ``all_fours.GAME_POINTS``, and the end-of-deal awards (Phat's muck, Don's game, high,
low and jack) from the game's own ``awards``, asked once for every outcome the search can reach.

A position is the dynamic part (the cards each seat holds, the trick being played, its leader, and what
the end-of-deal awards will depend on: the card points side 0 has taken, and which side took the jack or
the low) over a :class:`Tables` (the static part: seats, trump, follow rule, the tables above, and what a
leaf is worth). The value of a position is what side 0 gains over side 1 from here to the end of the deal;
side 0 maximises it, side 1 minimises it. In Oh Hell the sides are one seat (side 0) against the rest,
and the "points" are that seat's objective (see :mod:`phatlog.solver.values`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from phatlog.rules.all_fours import GAME_POINTS, AllFoursGame, DealCards, deal_cards
from phatlog.rules.cards import CARD_TEXT, DECK, Card, Rank, Suit
from phatlog.rules.trick import STRENGTH, FollowRule, may_play

FULL = (1 << 52) - 1
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
NO_TRUMP = 4
FOLLOW_INDEX = {FollowRule.MUST_FOLLOW: 0, FollowRule.FOLLOW_OR_TRUMP: 1, FollowRule.MUST_TRUMP: 2}
#: The leaf-table bits: side 0 took the jack of trumps (1), side 0 took the low trump (2).
JACK_BIT, LOW_BIT = 1, 2


@dataclass(frozen=True, slots=True)
class Tables:
    """The static part of a search: the rules of one deal with its trump known.

    ``strength[led * 52 + card]``: the engine's trick strength (``tricks.STRENGTH[trump][led]``).
    ``allow[case]``: which cards may be played to a lead, by case ``led_is_trump * 4 + holds_led * 2 +
    holds_trump``: bit 1 the suit led, 2 trumps, 4 the other suits (from ``tricks.may_play``).
    ``counter``: the points a card pegs for the side that wins it (side 0 +, side 1 -). ``gpts``: what a
    card adds to side 0's count when side 0 takes it, and ``trick_g`` what every trick side 0 takes adds
    (Oh Hell: 1, the count is then the seat's tricks). ``flag``: the leaf bits a card sets when side 0
    takes it. ``leaf[g * 4 + flags]``: what the end of the deal adds, by side 0's count and those bits.
    ``side``: 0 or 1 by seat. ``trick_points``: what each trick is worth to the side that takes it,
    besides its counters (Oh Hell's most and fewest tricks: the count then stays out of the positions)."""

    seats: int
    trump: int
    strength: tuple[int, ...]
    allow: tuple[int, ...]
    counter: tuple[int, ...]
    gpts: tuple[int, ...]
    flag: tuple[int, ...]
    trick_g: int
    leaf: tuple[int, ...]
    side: tuple[int, ...]
    trick_points: int = 0  # what every trick is worth besides its counters (Oh Hell's trick counts)

    @property
    def gmax(self) -> int:
        return len(self.leaf) // 4 - 1


@dataclass(frozen=True, slots=True)
class Node:
    """The dynamic part: each seat's cards (bit ``card`` set), the trick so far from ``leader``, side 0's
    count ``g`` and leaf ``flags``."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    g: int
    flags: int

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def cards_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)


def mask(cards: Any) -> int:
    """The bit mask of some cards."""
    out = 0
    for card in cards:
        out |= 1 << int(card)
    return out


@cache
def allow_table(follow: FollowRule, trump: int) -> tuple[int, ...]:
    """Which suits may be played to a lead, case by case, by asking the engine's ``may_play`` about a
    hand that holds one card of each kind the case says (the rules are only ever about suits)."""
    suit = None if trump == NO_TRUMP else Suit(trump)
    table = [0] * 8
    for led_is_trump in (0, 1):
        if led_is_trump and suit is None:
            continue
        led = Suit(trump) if led_is_trump else Suit((trump + 1) % 4 if suit is not None else 0)
        other = next(s for s in Suit if s != led and s != suit)
        for holds_led in (0, 1):
            for holds_trump in (0, 1):
                if suit is None and holds_trump:
                    continue
                if led_is_trump and holds_led != holds_trump:
                    continue
                led_card = DECK[led * 13]
                trump_card = None if suit is None else DECK[suit * 13 + 1]
                other_card = DECK[other * 13 + 2]
                hand = [other_card]
                if holds_led:
                    hand.append(led_card)
                if holds_trump and trump_card is not None and not led_is_trump:
                    hand.append(trump_card)
                bits = 0
                if holds_led and may_play(led_card, hand, led, suit, follow):
                    bits |= 1
                if trump_card is not None and trump_card in hand and may_play(trump_card, hand, led, suit, follow):
                    bits |= 2
                if may_play(other_card, hand, led, suit, follow):
                    bits |= 4
                table[led_is_trump * 4 + holds_led * 2 + holds_trump] = bits
    return tuple(table)


def legal(hand: int, trick: tuple[int, ...], tables: Tables) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (a mask)."""
    if not trick:
        return hand
    led = trick[0] // 13
    led_mask = SUIT_MASK[led]
    trump_mask = SUIT_MASK[tables.trump] if tables.trump != NO_TRUMP else 0
    case = (4 if led == tables.trump else 0) + (2 if hand & led_mask else 0) + (1 if hand & trump_mask else 0)
    bits = tables.allow[case]
    allowed = 0
    if bits & 1:
        allowed |= led_mask
    if bits & 2:
        allowed |= trump_mask
    if bits & 4:
        allowed |= FULL & ~(led_mask | trump_mask)
    return hand & allowed


def strength_row(trump: int) -> tuple[int, ...]:
    """``tricks.STRENGTH[trump]`` flattened: ``[led * 52 + card]``."""
    return tuple(v for led in range(4) for v in STRENGTH[trump][led])


# ---------------------------------------------------------------------------- the All Fours family


def pitch_tables(
    rules_of: AllFoursGame,
    trump: int,
    dealt: list[set[str]],
    carry: int,
    pitcher: int,
) -> Tables:
    """The tables of a deal of Phat, Nine-card Don or Irish Don under ``trump``: the counters from the
    game's ``counters``, and the end-of-deal awards from the game's ``awards``, asked for every count
    side 0 may end with and every owner of the jack and the low (``dealt``: the hands as dealt, texts;
    ``carry``: Phat's muck 8s carried in; ``pitcher``: whose side pegs first on a shared award)."""
    all_dealt = [c for hand in dealt for c in hand]
    gmax = sum(GAME_POINTS[c] for c in all_dealt)
    jack = CARD_TEXT[DECK[trump * 13 + Rank.JACK]]
    # The tables read of the hands as dealt only the highest and lowest trump (and who held each), whether
    # the jack was dealt and the count there is: deals that agree on those (a single-dummy analysis's
    # layouts, most of them) share one set of tables.
    dealt_trumps = deal_cards(((), ()), dealt, trump)
    low = None if dealt_trumps.low is None else CARD_TEXT[dealt_trumps.low[0]]
    jack_dealt = jack if jack in all_dealt else None
    key = (rules_of, trump, carry, pitcher, gmax, jack_dealt, dealt_trumps.high, dealt_trumps.low)
    known = _PITCH_TABLES.get(key)
    if known is not None:
        return known
    flag = [0] * 52
    if jack_dealt is not None:
        flag[Card.parse(jack_dealt)] |= JACK_BIT
    if low is not None:
        flag[Card.parse(low)] |= LOW_BIT
    by_flags = [
        _bonus_diffs(rules_of, dealt_trumps, trump, carry, pitcher, gmax, flags, jack_dealt, low) for flags in range(4)
    ]
    raw: list[int | None] = [by_flags[flags][g] for g in range(gmax + 1) for flags in range(4)]
    leaf, flag, gpts = _simplify(raw, flag, tuple(GAME_POINTS[CARD_TEXT[c]] for c in DECK))
    tables = Tables(
        seats=4,
        trump=trump,
        strength=strength_row(trump),
        allow=allow_table(rules_of.follow, trump),
        counter=tuple(rules_of.counters(Suit(trump))),
        gpts=gpts,
        flag=tuple(flag),
        trick_g=0,
        leaf=leaf,
        side=(0, 1, 0, 1),
    )
    if len(_PITCH_TABLES) >= 1024:  # a bound, for a process that analyses deal after deal
        _PITCH_TABLES.clear()
    _PITCH_TABLES[key] = tables
    return tables


def _simplify(
    raw: list[int | None], flag: list[int], gpts: tuple[int, ...]
) -> tuple[tuple[int, ...], list[int], tuple[int, ...]]:
    """Drop from the search what the awards do not depend on (a flag bit, or the count itself: Irish Don
    has no award, Phat's muck no jack), so that more positions are the same one; unreachable entries
    (None) are filled from a reachable neighbour."""
    gmax = len(raw) // 4 - 1
    for bit in (JACK_BIT, LOW_BIT):
        pairs = [(raw[i], raw[i | bit]) for i in range(len(raw)) if not i & bit]
        if all(a is None or b is None or a == b for a, b in pairs):
            # The bit is never set again: the entry without it takes the value, from either (where one
            # of the two cannot be reached, as a count of 80 with the jack on the other side).
            flag = [f & ~bit for f in flag]
            for i in range(len(raw)):
                if not i & bit:
                    merged = raw[i] if raw[i] is not None else raw[i | bit]
                    raw[i] = raw[i | bit] = merged
    by_flags = [[v for g in range(gmax + 1) if (v := raw[g * 4 + f]) is not None] for f in range(4)]
    if all(len(set(values)) <= 1 for values in by_flags):
        first = [values[0] if values else 0 for values in by_flags]
        return tuple(first), flag, (0,) * 52
    # an unreachable entry takes the value of the nearest reachable count below it with the same bits (or
    # above it, at the low end), so that the leaf keeps rising with the count wherever the awards do
    # (the search's ranges of counts rely on it)
    filled = [0] * len(raw)
    for f in range(4):
        last = next((v for g in range(gmax + 1) if (v := raw[g * 4 + f]) is not None), 0)
        for g in range(gmax + 1):
            v = raw[g * 4 + f]
            if v is not None:
                last = v
            filled[g * 4 + f] = last if v is None else v
    return tuple(filled), flag, gpts


#: ``pitch_tables``' tables, by what they depend on (see there).
_PITCH_TABLES: dict[tuple[object, ...], Tables] = {}


def _bonus_diffs(
    rules_of: AllFoursGame,
    dealt_trumps: DealCards,
    trump: int,
    carry: int,
    pitcher: int,
    gmax: int,
    flags: int,
    jack: str | None,
    low: str | None,
) -> list[int | None]:
    """Side 0's end-of-deal awards less side 1's, by the game's ``awards``, for each count ``g`` side 0
    may end with (0 to ``gmax``; None where it cannot be reached), ``flags`` saying who took the jack
    (None: not dealt) and the low: what ``awards`` reads of the cards (``DealCards``) is made up to match,
    the highest and lowest trump as dealt (``dealt_trumps``), the flagged cards where they went and each
    side's game count ``g`` and the rest. Worked out for every count at once: a single-dummy analysis
    builds these for each layout it draws."""
    flagged: dict[str, int] = {}
    if jack is not None:
        flagged[jack] = 0 if flags & JACK_BIT else 1
    if low is not None:
        owner = 0 if flags & LOW_BIT else 1
        if low in flagged and flagged[low] != owner:
            return [None] * (gmax + 1)  # the jack is the low: bits that disagree cannot be reached
        flagged[low] = owner
    # each side's count is at least the game points of the flagged cards it took
    least = [0, 0]
    for card, side in flagged.items():
        least[side] += GAME_POINTS[card]
    low_side = None if low is None else flagged[low]
    jack_side = None if jack is None else flagged[jack]
    out: list[int | None] = []
    for g in range(gmax + 1):
        if g < least[0] or gmax - g < least[1]:
            out.append(None)  # not reachable
            continue
        # the game count of each side is (g, gmax - g) whatever one-point cards make it up
        cards = DealCards((g, gmax - g), dealt_trumps.high, dealt_trumps.low, low_side, jack_side)
        bonuses = rules_of.awards(cards, trump, pitcher, carry, reasons=False).bonuses
        out.append(sum(b.points if b.side == 0 else -b.points for b in bonuses if b.side is not None))
    return out


def pitch_node(hands: list[set[Card]], trick: list[Card], leader: int, captured0: list[str], tables: Tables) -> Node:
    """The node of an All Fours deal in play: side 0's count and flags from the cards it has taken."""
    g = 0
    flags = 0
    for text in captured0:
        card = Card.parse(text)
        g += tables.gpts[card]
        flags |= tables.flag[card]
    return Node(tuple(mask(h) for h in hands), tuple(int(c) for c in trick), leader, g, flags)


# ---------------------------------------------------------------------------- Oh Hell


def oh_hell_tables(
    seats: int, trump: int, follow: FollowRule, seat: int, leaf: tuple[int, ...], trick_points: int = 0
) -> Tables:
    """Oh Hell for one seat against the rest: the count is the seat's tricks, ``leaf[t * 4]`` what ending
    with ``t`` tricks is worth to it; or, with ``trick_points`` (1 or -1) and a leaf of 0, each trick is
    worth that to the side that takes it (the seat's tricks less the others', or the reverse)."""
    sides = tuple(0 if s == seat else 1 for s in range(seats))
    return tricks_only_tables(seats, trump, follow, sides, leaf, trick_points)


def tricks_only_tables(
    seats: int, trump: int, follow: FollowRule, sides: tuple[int, ...], leaf: tuple[int, ...], trick_points: int
) -> Tables:
    """A game where only tricks count (Oh Hell; a claim, in every game): ``sides[seat]`` is 0 for side 0;
    no card is worth anything; side 0's count is its tricks (``leaf`` values the end), or, with
    ``trick_points``, each trick is worth that to the side that takes it."""
    return Tables(
        seats=seats,
        trump=trump,
        strength=strength_row(trump),
        allow=allow_table(follow, trump),
        counter=(0,) * 52,
        gpts=(0,) * 52,
        flag=(0,) * 52,
        trick_g=0 if trick_points else 1,
        leaf=leaf,
        side=sides,
        trick_points=trick_points,
    )
