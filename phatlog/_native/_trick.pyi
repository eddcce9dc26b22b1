"""The optional C trick kernel of every game (phatlog/_native/_trick.c): mechanics only, every rule given
as a table compiled by ``phatlog._native.tables`` (its opening gives the layout, word by word: strength
by trump and suit led, which cards may be played by what the player holds, counters by trump and card,
card points, the end-of-deal awards in their order, the target and the peg-out, Oh Hell's score by bid
and tricks taken and its schedule). A table that is not one (its size, its head or a word out of range)
raises ValueError.

The per-deal entry points return success, a tuple whose first item is 0 followed by what the referee
uses, or a fault ``(kind, trick, position)``: ``kind`` > 0 indexes ``FAULTS``, ``trick`` counts from 0 and
``position`` is the card's place in the trick (-1 where none applies). A fault means the kernel declines
the deal: the Python engine replays it and words what is wrong ("unusual" also covers what is merely
outside the clean, common case, such as a deal cut short). The whole-record entry points return None to
decline.
"""

from collections.abc import Sequence
from typing import Final, Literal

from phatlog.record.view import OhHellDealView, PitchDealView, TrickView

#: The names of the fault kinds, by kind: "none" (0, success), "unusual", "hands", "leader", "not_held",
#: "revoke", "trump", "winner", "tricks".
FAULTS: Final[tuple[str, ...]]

#: A fault: kind (> 0), trick (-1: none), position in the trick (-1: none).
Fault = tuple[int, int, int]

#: A clean deal of the All Fours family: 0, trump, total 0, total 1, the trick the game ended at (-1: none),
#: the side that won then (-1); what the end-of-deal awards read of the cards (``pitch.DealCards``): the
#: count of the table's card points each side took (two ints), the highest trump dealt and its seat, the
#: lowest and its seat (card ids, -1: none), the side that took the lowest trump and the side that took the
#: table's jack (-1: nobody); and the hands as dealt where they were inferred from the tricks and
#: ``want_hands`` asked for them (else None).
PitchDeal = tuple[
    Literal[0], int, int, int, int, int, int, int, int, int, int, int, int, int, tuple[list[str], ...] | None
]

#: A clean hand of Oh Hell: 0, and the tricks each seat took.
OhHellDone = tuple[Literal[0], list[int]]

def play(
    hands: Sequence[Sequence[str | None]] | None,
    tricks: Sequence[TrickView],
    undealt: Sequence[str] | None,
    pitcher: int,
    table: bytes,
    total0: int,
    total1: int,
    want_hands: bool,
    /,
) -> PitchDeal | Fault:
    """One deal of the All Fours family (``table``: ``tables.pitch_table``, which gives the seats, the hand
    size, the counters, the target and the peg-out; the pitcher's first lead names trump)."""

def oh_hell(
    hands: Sequence[Sequence[str | None]] | None,
    tricks: Sequence[TrickView],
    turnup: str | None,
    leader: int,
    seats: int,
    hand_size: int,
    trump: int,
    table: bytes,
    /,
) -> OhHellDone | Fault:
    """One hand of Oh Hell (``trump`` -1 for none; ``turnup`` a card nobody may hold; ``table`` any table
    of ``tables``, whose trick part is read: ``tables.trick_table``)."""

#: A clean record of the All Fours family, as ``pitch.Findings`` keeps it: the totals, the winner ([side], or
#: None), and the deal and the trick the game ended at (the trick None where it ended after the deal's
#: tricks; None where it did not end).
RecordDone = tuple[list[int], list[int] | None, tuple[int, int | None] | None]

def pitch_record(
    deals: Sequence[PitchDealView], table: bytes, deals_out: bytearray = ..., tricks_out: bytearray = ..., /
) -> RecordDone | None:
    """A whole record of the All Fours family where every deal is clean (played without a fault, the dealer
    the rotation's, no ruling, the score recorded as the table's rules give it, no deal after the end);
    None, having decided nothing, for anything else (junk deals included, and a table whose awards are not
    tabled): the Python referee then replays the record. ``table``: ``tables.pitch_table``.

    With ``deals_out`` and ``tricks_out`` (both or neither), the kernel tells what it decided, appending
    native-endian 32-bit words to them (left as they were given where it declines): for each deal played,
    ``DEAL_WORDS`` words: the deal's index, the dealer, trump (a suit's index), the tricks played, the
    trick whose peg ended the game (-1: none), the totals as the deal began (two), the totals once its
    counters are pegged, before the end-of-deal awards (two), and what the awards read of the cards
    (``pitch.DealCards``, as ``play`` returns them: the count each side took, two; the highest trump dealt
    and its seat, the lowest and its seat, the side that took the lowest trump and the side that took the
    table's jack; -1: none, and all -1 with a count of 0 where the game ended in the deal's play); then for
    each of its tricks ``TRICK_WORDS`` + seats words: the deal's index, the trick's, the leader, the
    winner, and the cards' ids in the order played (``rules.cards``' order)."""

#: The words ``pitch_record`` tells of a deal, and of a trick before its cards.
DEAL_WORDS: Final[int]
TRICK_WORDS: Final[int]

#: A clean Oh Hell record: the final totals, and each hand's (bids, tricks taken by each seat).
OhHellRecordDone = tuple[list[int], list[tuple[list[int], list[int]]]]

def oh_hell_record(deals: Sequence[OhHellDealView], table: bytes, /) -> OhHellRecordDone | None:
    """Every hand of an Oh Hell record in the clean, common case (no rulings, the dealer passing left,
    every hand of the table's schedule played out legally, a turned-up card exactly where the hand has a
    trump, the bids within its score table and not the one its hook table forbids, the tricks taken as
    won, each hand's points and running totals the table's); None declines anything else, junk deals
    included, and the Python referee does the record. ``table``: ``tables.oh_hell_table``."""
