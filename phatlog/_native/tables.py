"""The rules compiled to tables for the C trick kernel (``phatlog/_native/_trick.c``).

Every value comes from ``phatlog.rules``, the one place each rule is written.

The C code holds mechanics only: it reads cards, plays tricks, adds up what tables say and compares
totals. Every rule reaches it from here, as a table built from the Python rules, once per rules (cached):
which card wins a trick (``rules.trick.STRENGTH``), which cards may be played (``rules.trick.may_play``,
asked case by case), what each card pegs (the game's ``counters``), what it adds to the muck or game
count (``GAME_POINTS``), the end-of-deal awards as data (what each reads, its points, its order, a tie's
fate), the target and when it is looked at, and Oh Hell's score by bid and tricks taken and its schedule.
An award that no table here can say makes the tables decline the whole-record path (``awards`` -1):
the Python referee then pegs. tests/test_native_tables.py holds every table equal to the rules functions,
case by case, and tests/test_trick_kernel.py the C mechanics equal to the Python trick machine on them.

**The layout.** A table is one ``bytes`` of 32-bit signed words in the machine's byte order
(``array('i')``); word ``i`` below is at byte ``4 * i``. The C code checks every size and word it relies
on (a ValueError, never a crash, for anything else).

  0  MAGIC                 ``MAGIC`` (a table of another layout is refused)
  1  kind                  ``TRICK`` 1, ``ALL_FOURS`` 2, ``OH_HELL`` 3
  2  words                 the number of words (``len(table) // 4``)
  3  strength[5][4][52]    ``STRENGTH[trump][led][card]`` (trump 4: none): the higher wins the trick
  1043 allow[5][8]         which cards may be played, by trump and case ``led_is_trump * 4 + holds_led *
                           2 + holds_trump`` (what the player holds, the card played included): bit 1 a card
                           of the suit led, 2 a trump (not of the suit led), 4 any other card

Every kind starts so (``TRICK`` is only that: the per-hand Oh Hell play). ``ALL_FOURS`` goes on at
``GAME`` (1083), offsets from there:

  +0  seats   +1 hand size   +2 target   +3 peg-out (``IMMEDIATE`` 0: the target is looked at after
  every peg, the game ends at the peg that reaches it; ``END_OF_DEAL`` 1: after the deal's awards, the
  higher total wins once one reaches the target, equal totals play on)   +4 the deals may list the cards
  left undealt (0/1)   +5 the card whose holder pitches first in the first deal (-1: none)   +6 the
  number of awards (-1: not tabled, the record path declines)   +7 side[7] (by seat)   +14 jack[4] (the
  card, by trump, whose taker the awards' ``CAPTURED`` reads: -1 none)   +18 counters[4][52] (by trump,
  then card)   +226 card points[52] (the muck or game count)   +278 the awards, 3 words each, in the
  order they are pegged: what it reads (``COUNT`` 1: the side with the greater count of card points
  taken, Phat's "more than 40 of the 80" where the whole pack is played; ``HIGH_DEALT`` 2: the side
  dealt the highest trump; ``LOW_DEALT`` 3: the side dealt the lowest;
  ``LOW_CAPTURED`` 4: the side that took the lowest; ``CAPTURED`` 5: the side that took ``jack[trump]``,
  nobody where nobody did), its points, and for ``COUNT`` a tie's fate (``TIE_NONE`` 0: nobody pegs;
  ``TIE_CARRY`` 1: the points are carried to the next count won, and add up while ties repeat;
  ``TIE_BOTH`` 2: each side pegs them, the pitcher's side first).

``OH_HELL`` goes on at ``GAME``: +0 seats, +1 hands (the schedule's length), +2 hook (0/1), then each
hand of the schedule, 4 words: its size, whether it has a trump (0: no card may be turned up), where
its score table starts (``score[bid][took]``, ``(size + 1) ** 2`` words: a bid beyond it is declined)
and where its hook table starts (-1: no hook; else the bid the hook forbids the dealer by the sum of the
other bids, ``(seats - 1) * size + 1`` words, -1 none); the tables follow.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple

from phatlog.rules import table as seating
from phatlog.rules.all_fours import GAME_POINTS
from phatlog.rules.cards import CARD_TEXT, DECK, Rank, Suit
from phatlog.rules.irish_don import FIRST_PITCH_CARD
from phatlog.rules.nine_card_don import GAME_VALUE, POINT_AWARD, SCHEME_AWARDS
from phatlog.rules.oh_hell import fits_pack, follow_rule, forbidden_bid, hand_score, has_trump, hook_applies
from phatlog.rules.phat import MUCK_BONUS
from phatlog.rules.trick import STRENGTH, FollowRule, may_play

if TYPE_CHECKING:
    from phatlog.record.view import OhHellRulesView
    from phatlog.referee.pitch import AllFoursReferee

MAGIC: Final = 0x50484154  # "PHAT"
TRICK, ALL_FOURS, OH_HELL = 1, 2, 3
STRENGTH_AT: Final = 3
ALLOW_AT: Final = STRENGTH_AT + 5 * 4 * 52
GAME: Final = ALLOW_AT + 5 * 8
NO_TRUMP: Final = 4
MAX_SEATS: Final = 7

# ALL_FOURS, from GAME
SEATS, HAND_SIZE, TARGET, PEG_OUT, UNDEALT, FIRST_PITCH, AWARDS = range(7)
SIDE: Final = 7
JACK: Final = SIDE + MAX_SEATS
COUNTERS: Final = JACK + 4
CARD_POINTS: Final = COUNTERS + 4 * 52
AWARD_LIST: Final = CARD_POINTS + 52
IMMEDIATE, END_OF_DEAL = 0, 1
COUNT, HIGH_DEALT, LOW_DEALT, LOW_CAPTURED, CAPTURED = 1, 2, 3, 4, 5
TIE_NONE, TIE_CARRY, TIE_BOTH = 0, 1, 2

# OH_HELL, from GAME
OH_SEATS, OH_HANDS, OH_HOOK, OH_HAND = range(4)

#: The classes of a card played to a trick, as ``allow`` has them: bit 1, 2 or 4.
LED_BIT, TRUMP_BIT, OTHER_BIT = 1, 2, 4


def _words(values: Iterable[int]) -> bytes:
    return array("i", values).tobytes()


def words_of(table: bytes) -> array[int]:
    """A table's words (for tests and for reading it back)."""
    out = array("i")
    out.frombytes(table)
    return out


# ---------------------------------------------------------------------------- the trick


def allow_row(follow: FollowRule, trump: int) -> list[int]:
    """``allow[trump]``: for each case (what the player holds), which classes of card ``may_play`` lets
    them play, asked of a hand holding one card of each kind the case says and the card itself."""
    suit = None if trump == NO_TRUMP else Suit(trump)
    row = [0] * 8
    for case in range(8):
        led_is_trump, holds_led, holds_trump = case >> 2, (case >> 1) & 1, case & 1
        if suit is None and (led_is_trump or holds_trump):
            continue  # no such case without trump
        led = suit if led_is_trump and suit is not None else Suit((trump + 1) % 4 if suit is not None else 0)
        other = next(s for s in Suit if s != led and s != suit)
        kinds = [(LED_BIT, led)] + ([(TRUMP_BIT, suit)] if suit is not None and suit != led else [])
        kinds.append((OTHER_BIT, other))
        for bit, kind in kinds:
            card = DECK[kind * 13 + 5]
            hand = {card}
            if holds_led:
                hand.add(DECK[led * 13 + 2])
            if holds_trump and suit is not None:
                hand.add(DECK[suit * 13 + 3])
            if may_play(card, hand, led, suit, follow):
                row[case] |= bit
    return row


@cache
def trick_words(follow: FollowRule) -> tuple[int, ...]:
    """The words every table starts with, after its head: ``strength`` then ``allow``."""
    strength = [v for trump in range(5) for led in range(4) for v in STRENGTH[trump][led]]
    allow = [v for trump in range(5) for v in allow_row(follow, trump)]
    return (*strength, *allow)


def _table(kind: int, body: Sequence[int], follow: FollowRule) -> bytes:
    words = GAME + len(body)
    return _words((MAGIC, kind, words, *trick_words(follow), *body))


@cache
def trick_table(follow: FollowRule) -> bytes:
    """The ``TRICK`` table of a follow rule (Oh Hell's per-hand play)."""
    return _table(TRICK, (), follow)


# ---------------------------------------------------------------------------- the All Fours family


class Award(NamedTuple):
    """One end-of-deal award as the C code pegs it: what it reads, its points, a tied count's fate."""

    reads: int
    points: int
    tie: int = TIE_NONE


def pitch_awards(game: AllFoursReferee) -> list[Award] | None:
    """The game's end-of-deal awards in the order they are pegged, from its rule values; None where no
    table says them (a rules value this module does not know: the Python referee pegs)."""
    if game.game == "irish_don":
        return []
    if game.game == "phat":
        tie = {"none": TIE_NONE, "carry": TIE_CARRY, "both": TIE_BOTH}.get(getattr(game.rules, "muck_tie", ""))
        return None if tie is None else [Award(COUNT, MUCK_BONUS, tie)]
    if game.game == "nine_card_don":
        scheme = getattr(game.rules, "bonus", "")
        awards = next((named for name, named in SCHEME_AWARDS.items() if name == scheme), None)
        if awards is None:
            return None
        low = LOW_CAPTURED if getattr(game.rules, "low_to", None) == "capturer" else LOW_DEALT
        reads = {"game": COUNT, "high": HIGH_DEALT, "low": low, "jack": CAPTURED}
        return [Award(reads[award], GAME_VALUE[scheme] if award == "game" else POINT_AWARD) for award in awards]
    return None


def first_pitch_card(game: AllFoursReferee) -> int:
    """The card whose holder pitches the first deal (Irish Don's two of diamonds), or -1."""
    if game.game != "irish_don":
        return -1
    return int(FIRST_PITCH_CARD)


def _pitch_key(game: AllFoursReferee) -> tuple[object, ...]:
    rules = game.rules
    return (
        type(game),
        game.target,
        game.immediate,
        game.follow,
        getattr(rules, "muck_tie", None),
        getattr(rules, "bonus", None),
        getattr(rules, "low_to", None),
    )


_PITCH: dict[tuple[object, ...], bytes] = {}


def pitch_table(game: AllFoursReferee) -> bytes:
    """The ``ALL_FOURS`` table of a game's rules (made once for equal rules)."""
    key = _pitch_key(game)
    table = _PITCH.get(key)
    if table is None:
        if len(_PITCH) >= 256:
            _PITCH.clear()
        table = _PITCH[key] = _make_pitch_table(game)
    return table


def _make_pitch_table(game: AllFoursReferee) -> bytes:
    awards = pitch_awards(game)
    head = [
        seating.SEATS,
        game.hand_size,
        game.target if 0 <= game.target < 1 << 30 else -1,  # (-1: refused by the C code, the Python referee's)
        IMMEDIATE if game.immediate else END_OF_DEAL,
        int(game.undealt),
        first_pitch_card(game),
        -1 if awards is None else len(awards),
    ]
    sides = [seating.side_of(s) if s < seating.SEATS else 0 for s in range(MAX_SEATS)]
    jack = [13 * t + Rank.JACK for t in range(4)]
    counters = [v for suit in Suit for v in game.counters(suit)]
    points = [GAME_POINTS[CARD_TEXT[c]] for c in range(52)]
    listed = [w for a in awards or () for w in (a.reads, a.points, a.tie)]
    return _table(ALL_FOURS, [*head, *sides, *jack, *counters, *points, *listed], game.follow)


# ---------------------------------------------------------------------------- Oh Hell


class OhHellHand(NamedTuple):
    """One hand of the schedule as the C record path reads it."""

    size: int
    has_trump: bool
    score: tuple[tuple[int, ...], ...]  # [bid][took]
    forbidden: tuple[int, ...] | None  # by the sum of the other bids: the dealer's forbidden bid, -1 none


def oh_hell_follow(rules: OhHellRulesView) -> FollowRule:
    """Oh Hell's follow rule: must follow, and under ``must_trump`` trump when void."""
    return follow_rule(rules.must_trump)


def oh_hell_hands(rules: OhHellRulesView, players: int, sizes: Sequence[int]) -> list[OhHellHand]:
    """Each hand of the schedule: its size, trump, score table and hook table, from the rules functions."""
    hook = hook_applies(rules.hook, rules.bidding)
    out = []
    for i, size in enumerate(sizes):
        score = tuple(
            tuple(hand_score(bid, took, size, rules.miss, rules.zero_bid) for took in range(size + 1))
            for bid in range(size + 1)
        )
        forbidden = None
        if hook:
            forbidden = tuple(
                -1 if (f := forbidden_bid(others, size)) is None else f for others in range((players - 1) * size + 1)
            )
        trumped = has_trump(players, size, i == len(sizes) - 1, rules.no_trump)
        out.append(OhHellHand(size, trumped, score, forbidden))
    return out


def oh_hell_table(rules: OhHellRulesView, players: int, sizes: Sequence[int]) -> bytes | None:
    """The ``OH_HELL`` table of the rules for ``players`` (None where the C record path cannot take the
    schedule: a hand the pack cannot deal, or beyond the kernel's bounds). The caller caches it."""
    if not 3 <= players <= MAX_SEATS or not sizes or not all(1 <= s <= 17 and fits_pack(players, s) for s in sizes):
        return None
    hands = oh_hell_hands(rules, players, sizes)
    head = [players, len(hands), int(any(h.forbidden is not None for h in hands))]
    at = GAME + len(head) + 4 * len(hands)
    index: list[int] = []
    pool: list[int] = []
    scores: dict[tuple[tuple[int, ...], ...], int] = {}
    for hand in hands:
        where = scores.get(hand.score)
        if where is None:
            where = scores[hand.score] = at + len(pool)
            pool.extend(v for row in hand.score for v in row)
        hook_at = -1
        if hand.forbidden is not None:
            hook_at = at + len(pool)
            pool.extend(hand.forbidden)
        index.extend((hand.size, int(hand.has_trump), where, hook_at))
    return _table(OH_HELL, [*head, *index, *pool], oh_hell_follow(rules))


# ---------------------------------------------------------------------------- the tables read back


def table_may_play(table: bytes, card: int, hand: Iterable[int], led: int | None, trump: int | None) -> bool:
    """``may_play`` as the C code reads it from ``table`` (for tests: the same answer, case by case)."""
    if led is None:
        return True
    w = words_of(table)
    held = set(hand) | {card}
    t = NO_TRUMP if trump is None else trump
    holds_led = any(c // 13 == led for c in held)
    holds_trump = trump is not None and any(c // 13 == trump for c in held)
    case = (4 if led == trump else 0) + 2 * holds_led + holds_trump
    suit = card // 13
    bit = LED_BIT if suit == led else TRUMP_BIT if suit == trump else OTHER_BIT
    return bool(w[ALLOW_AT + 8 * t + case] & bit)


def table_strength(table: bytes, trump: int | None, led: int, card: int) -> int:
    w = words_of(table)
    return w[STRENGTH_AT + 208 * (NO_TRUMP if trump is None else trump) + 52 * led + card]


class Cards(NamedTuple):
    """What the awards read of a played deal (``pitch.DealCards`` in the C code's terms)."""

    game: tuple[int, int]
    high_side: int
    low_side_dealt: int
    low_side_taken: int  # -1: nobody
    jack_side: int  # -1: nobody


def peg_table_awards(table: bytes, cards: Cards, pitcher_side: int, carry: int) -> tuple[list[tuple[int, int]], int]:
    """The awards of ``table`` as the C code pegs them: ``(side, points)`` in order (nothing pegged
    left out), and the carry after; the reference for tests against each game's ``bonuses``."""
    w = words_of(table)
    n = w[GAME + AWARDS]
    out: list[tuple[int, int]] = []
    for a in range(n):
        reads, points, tie = w[GAME + AWARD_LIST + 3 * a : GAME + AWARD_LIST + 3 * a + 3]
        side = -1
        if reads == COUNT:
            g0, g1 = cards.game
            if g0 != g1:
                side, points, carry = (0 if g0 > g1 else 1), points + carry, 0
            elif tie == TIE_BOTH:
                out.extend([(pitcher_side, points), (1 - pitcher_side, points)])
                continue
            elif tie == TIE_CARRY:
                carry += points
        elif reads == HIGH_DEALT:
            side = cards.high_side
        elif reads == LOW_DEALT:
            side = cards.low_side_dealt
        elif reads == LOW_CAPTURED:
            side = cards.low_side_taken
        elif reads == CAPTURED:
            side = cards.jack_side
        if side >= 0 and points > 0:
            out.append((side, points))
    return out, carry
