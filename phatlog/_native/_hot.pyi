"""The optional C trick kernel of every game (phatlog/_native/_hot.c).

One contract for both entry points: each returns success, a tuple whose first item is 0 followed by what
the referee uses, or a fault ``(kind, trick, position)``: ``kind`` > 0 indexes ``FAULTS``, ``trick`` counts
from 0 and ``position`` is the card's place in the trick (-1 where none applies). A fault means the kernel
declines the deal: the Python engine replays it and words what is wrong ("unusual" also covers what is
merely outside the clean, common case, such as a deal cut short). ``follow`` is 0 (must follow), 1 (follow
or trump: a trump will do instead) or 2 (must trump: a player who cannot follow must trump if able).
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
#: game count of the cards each side took (two ints), the highest trump dealt and its seat, the lowest and
#: its seat (card ids, -1: none), the side that took the lowest trump and the side that took the jack of
#: trumps (-1: nobody); and the hands as dealt where they were inferred from the tricks and ``want_hands``
#: asked for them (else None).
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
    hand_size: int,
    counters: bytes,
    follow: int,
    total0: int,
    total1: int,
    target: int,
    immediate: bool,
    want_hands: bool,
    /,
) -> PitchDeal | Fault:
    """One deal of the All Fours family (4 seats; the pitcher's first lead names trump)."""

def oh_hell(
    hands: Sequence[Sequence[str | None]] | None,
    tricks: Sequence[TrickView],
    turnup: str | None,
    leader: int,
    seats: int,
    hand_size: int,
    trump: int,
    follow: int,
    /,
) -> OhHellDone | Fault:
    """One hand of Oh Hell (3 to 7 seats; ``trump`` -1 for none; ``turnup`` a card nobody may hold)."""

#: The rules of an All Fours game for ``pitch_record`` (``PitchGame._hot_rules``): game (0 Phat, 1 Nine-card
#: Don, 2 Irish Don), hand size, counters (as for ``play``), follow, target, immediate (0/1), undealt (0/1: the
#: deals may list the cards left undealt), muck_tie (0 none, 1 carry, 2 both), bonus (0 game_8, 1
#: six_high_jack, 2 five_high_low_jack), low_to capturer (0/1).
RecordParams = tuple[int, int, bytes, int, int, int, int, int, int, int]

#: A clean record of the All Fours family, as ``pitch.Verdict`` keeps it: the totals, the winner ([side], or
#: None), and the deal and the trick the game ended at (the trick None where it ended after the deal's
#: tricks; None where it did not end).
RecordDone = tuple[list[int], list[int] | None, tuple[int, int | None] | None]

def pitch_record(deals: Sequence[PitchDealView], params: RecordParams, /) -> RecordDone | None:
    """A whole record of the All Fours family where every deal is clean (played without a fault, the dealer
    the rotation's, no ruling, the score recorded as the rules give it, no deal after the end); None, having
    decided nothing, for anything else (junk included): the Python referee then replays the record."""

def maybe_duplicate_keys(data: bytes, /) -> bool:
    """Whether an object of this (valid) JSON document may hold a key twice: False for certainly not."""

def deal_keys(deals: Sequence[object], /) -> list[tuple[int, int]] | None:
    """``(index, key)`` of every deal that records its hands (``phatlog.record.canonical.deal_key``); None where a
    deal is not of the common shape."""

def record_stream(
    record: object, classes: dict[type, tuple[int, object, int | None, int | None]], keys: bool = ..., /
) -> bytes | tuple[bytes | None, list[tuple[int, int]] | None] | None:
    """``phatlog.record.canonical.record_stream``'s bytes (None: declined); with ``keys``, a pair: the bytes and the
    deals' keys (``deal_keys``; None where a deal is not of the common shape)."""

# ---------------------------------------------------------------- Oh Hell, a whole record (h-ohrec)

#: A clean Oh Hell record: the final totals, and each hand's (bids, tricks taken by each seat).
OhHellRecordDone = tuple[list[int], list[tuple[list[int], list[int]]]]

def oh_hell_record(deals: Sequence[OhHellDealView], params: bytes, /) -> OhHellRecordDone | None:
    """Every hand of an Oh Hell record in the clean, common case (no rulings, the dealer passing left,
    every hand of the schedule played out legally, a turned-up card exactly where there is trump, the bids
    0 to the hand size and allowed by the hook, the tricks taken as won, each hand's points and running
    totals the rules'); None declines anything else, junk included, and the Python referee does the
    record. ``params`` (``oh_hell._plan``): seats, follow rule, hook (sequential), no trump in the last
    hand, miss (0 zero, 1 tricks, 2 minus_diff), zero bid (0 standard, 1 five_plus_cards), a byte each,
    then each hand's size; ValueError for others."""

class DealTable:
    """The deals seen in a run, by key (``phatlog.archive.duplicates``): 56 bytes an entry."""

    def seen(self, blob: bytes, here: int, /) -> list[tuple[int, int]] | None:
        """Add a record's deals (``phatlog.record.canonical.deal_blob``), each first seen at ``here`` + its index;
        ``(index, where it was first seen)`` for those seen before, or None."""

    def __len__(self) -> int: ...
