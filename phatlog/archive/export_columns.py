"""The export's fast path: the tables of a clean All Fours record, from what the C kernel tells.

A record the C whole-record check accepts (``referee.games.referee_told``) is refereed by one call, which
also tells, as 32-bit words (their layout in ``_native/_trick.pyi``), what the engine decided: each deal's
dealer, trump, totals and what its awards read of the cards, and each trick's leader, winner and cards.
From these the rows the listener of :mod:`phatlog.archive.export` would gather are made, the same rows in
the same order (``tests/test_export_paths.py`` holds the two paths to it):

- a deal's row and its scores, and its end-of-deal awards, in Python, a deal at a time: the awards are the
  game's rules (``AllFoursGame.awards``, pegged by ``rules.all_fours.peg_bonuses``, as the State pegs them);
- the tricks, the plays and the counters, as columns (numpy) over a whole batch: a trick's winning
  position, side and counters from the rules' tables (``rules.table.side_of``, the game's ``counters``),
  and its ``why`` from ``rules.trick.explain_winner``, asked once for each kind of trick.

Needs numpy (the ``export`` extra); without it, or without the C kernel, every record takes the listener's
path.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Final

from phatlog._native import kernel_module
from phatlog.referee.games import referee_told
from phatlog.referee.pitch import AllFoursReferee, Findings
from phatlog.rules.all_fours import Bonus, DealCards, peg_bonuses
from phatlog.rules.cards import CARD_TEXT, DECK, Suit
from phatlog.rules.table import SEATS, pitcher, side_of
from phatlog.rules.trick import FollowRule, explain_winner

if TYPE_CHECKING:
    from phatlog.record.view import AnyRecordView

try:
    import numpy as np
except ImportError:  # the export extra is not installed: every record takes the listener's path
    np = None  # type: ignore[assignment]

_KERNEL: Final = kernel_module("_trick")
#: Whether the fast path can run here (the C kernel built, numpy installed).
AVAILABLE: Final = _KERNEL is not None and np is not None
DEAL_WORDS: Final[int] = getattr(_KERNEL, "DEAL_WORDS", 0)
TRICK_WORDS: Final[int] = getattr(_KERNEL, "TRICK_WORDS", 0) + SEATS
_DEAL: Final = struct.Struct(f"={DEAL_WORDS}i") if DEAL_WORDS else None
_SUIT_TEXT: Final = tuple("CDHS")
_MEMO_SIZE: Final = 1 << 16

Row = tuple[object, ...]


@dataclass(slots=True)
class Column:
    """One column of a table: integers (with None where ``valid`` is False), booleans, or texts as ids into
    ``texts`` (an entry None for a null)."""

    kind: str  # "int", "bool", "text"
    values: Any  # a numpy array
    valid: Any = None  # a numpy bool array, or None: every value is there
    texts: list[str | None] | None = None

    def to_list(self) -> list[object]:
        """The column as Python values (for SQLite)."""
        if self.kind == "text":
            assert self.texts is not None
            texts = self.texts
            return [texts[i] for i in self.values.tolist()]
        values: list[object] = self.values.tolist()
        if self.valid is not None:
            return [v if ok else None for v, ok in zip(values, self.valid.tolist(), strict=True)]
        return values

    def to_arrow(self, type_: Any) -> Any:
        """The column as an Arrow array of ``type_``."""
        if self.kind == "text":
            assert self.texts is not None
            return _texts_of(self.texts, self.values)
        valid = None if self.valid is None else bytes(np.packbits(self.valid, bitorder="little"))
        nulls = 0 if self.valid is None else len(self.valid) - int(np.count_nonzero(self.valid))
        if self.kind == "bool":
            return bool_array(bytes(np.packbits(self.values, bitorder="little")), len(self.values), valid, nulls)
        return int_array(self.values, valid, nulls)


def dictionary_of(column: Column) -> Any:
    """A text column as an Arrow dictionary array (int32 ids into its texts, each text once, a null id
    where the text is None): what Parquet writes as it is, with no text to hash."""
    import pyarrow as pa

    assert column.kind == "text" and column.texts is not None
    unique: dict[str, int] = {}
    remap = np.array([-1 if t is None else unique.setdefault(t, len(unique)) for t in column.texts], dtype=np.int32)
    ids = remap[column.values]
    if None not in column.texts:  # (no null)
        indices = pa.Array.from_buffers(pa.int32(), len(ids), [None, pa.py_buffer(ids)], null_count=0)
        return pa.DictionaryArray.from_arrays(indices, text_array(list(unique)))
    valid = ids >= 0
    nulls = len(ids) - int(np.count_nonzero(valid))
    bitmap_ = None if not nulls else pa.py_buffer(bytes(np.packbits(valid, bitorder="little")))
    indices = pa.Array.from_buffers(
        pa.int32(), len(ids), [bitmap_, pa.py_buffer(np.where(valid, ids, 0).astype(np.int32))], null_count=nulls
    )
    return pa.DictionaryArray.from_arrays(indices, text_array(list(unique)))


def _texts_of(texts: list[str | None], ids: Any) -> Any:
    """The Arrow string array of ``texts[i]`` for each id ``i``; where every text is there and of the same
    length in bytes (a card, a suit, a rank), its bytes and offsets made at once by numpy."""
    import pyarrow as pa

    encoded = [None if t is None else t.encode() for t in texts]
    width = len(encoded[0] or b"")
    if width == 0 or any(e is None or len(e) != width for e in encoded):
        return text_array(texts).take(int_array(ids))
    table = np.frombuffer(b"".join(e or b"" for e in encoded), dtype=np.uint8).reshape(-1, width)
    data = table[ids].tobytes()
    offsets = np.arange(0, (len(ids) + 1) * width, width, dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), len(ids), [None, pa.py_buffer(offsets), pa.py_buffer(data)])


# Arrow arrays are made from their buffers here, never by ``pyarrow.array``: that asks of anything it is
# given whether it is a pandas object, importing pandas (half a second) to ask.


def int_array(values: Any, valid: bytes | None = None, nulls: int = 0) -> Any:
    """An Arrow int64 array of ``values`` (a numpy array, or ``array("q")``), null where the bit of ``valid``
    (little-endian bits, one a value) is 0."""
    import pyarrow as pa

    if np is not None and isinstance(values, np.ndarray):
        values = np.ascontiguousarray(values, dtype=np.int64)
    n = len(values)
    return pa.Array.from_buffers(
        pa.int64(), n, [None if valid is None else pa.py_buffer(valid), pa.py_buffer(values)], null_count=nulls
    )


def bool_array(bits: bytes, n: int, valid: bytes | None = None, nulls: int = 0) -> Any:
    """An Arrow boolean array of the ``n`` little-endian ``bits``, null where the bit of ``valid`` is 0."""
    import pyarrow as pa

    return pa.Array.from_buffers(
        pa.bool_(), n, [None if valid is None else pa.py_buffer(valid), pa.py_buffer(bits)], null_count=nulls
    )


def text_array(texts: Sequence[object]) -> Any:
    """An Arrow string array of ``texts`` (None a null, anything but a string as ``str`` spells it)."""
    import pyarrow as pa

    present = ["" if t is None else t if type(t) is str else str(t) for t in texts]
    joined = "".join(present)
    if joined.isascii():  # (a character a byte)
        data, lengths = joined.encode(), map(len, present)
    else:
        encoded = [t.encode() for t in present]
        data, lengths = b"".join(encoded), map(len, encoded)
    offsets = array("i", accumulate(lengths, initial=0))
    nulls = texts.count(None)
    valid = bitmap([t is not None for t in texts]) if nulls else None
    buffers = [None if valid is None else pa.py_buffer(valid), pa.py_buffer(offsets), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.string(), len(texts), buffers, null_count=nulls)


def bitmap(bits: Sequence[bool]) -> bytes:
    """``bits`` as Arrow has them: little-endian, eight a byte."""
    if np is not None:
        return bytes(np.packbits(np.fromiter(bits, dtype=bool, count=len(bits)), bitorder="little"))
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


Columns = dict[str, Column]


def rows_of(columns: Columns) -> list[Row]:
    """The columns as rows (for SQLite)."""
    return list(zip(*(c.to_list() for c in columns.values()), strict=True))


def length(columns: Columns | None) -> int:
    """The rows the columns hold."""
    return 0 if not columns else len(next(iter(columns.values())).values)


#: An end-of-deal award as a row of ``pegs`` holds it: the side (None: nobody scored it), the points, the
#: label and the reason.
Pegged = tuple[int | None, int, str, str]
#: A deal's awards, by what they read: their number (``Memo.bonuses``), the carry after them, and as they
#: peg where none can end the game: the rows (their numbers in ``Memo.kinds``) and the points to each side;
#: then, for each side, the total below which it cannot reach the target in them (``Memo.awarded``).
Awarded = tuple[int, int, tuple[int, ...], int, int, int, int]
#: A total no side reaches: under ``peg_out: end_of_deal`` no award ends the game.
_NEVER: Final = 1 << 62


@dataclass(slots=True)
class Memo:
    """What the awards of a deal come to, by what they read (pure functions of the rules, asked again and
    again), kept from batch to batch: each game's awards by what they read of a deal (``Awarded``), and,
    where one of them may end the game, how they peg from each pair of totals; each award row pegged,
    numbered (``Told.award_kind`` holds the numbers)."""

    awards: dict[AllFoursReferee, dict[tuple[int, ...], Awarded]] = field(default_factory=dict)
    bonuses: list[tuple[Bonus, ...]] = field(default_factory=list)
    bonus_ids: dict[tuple[Bonus, ...], int] = field(default_factory=dict)
    pegged: dict[AllFoursReferee, dict[tuple[int, int, int], tuple[tuple[int, ...], int, int]]] = field(
        default_factory=dict
    )
    size: int = 0
    kinds: list[Pegged] = field(default_factory=list)
    kind_ids: dict[Pegged, int] = field(default_factory=dict)

    def bonus_id(self, bonuses: Sequence[Bonus]) -> int:
        key = tuple(bonuses)
        at = self.bonus_ids.get(key)
        if at is None:
            at = self.bonus_ids[key] = len(self.bonuses)
            self.bonuses.append(key)
        return at

    def kind_id(self, row: Pegged) -> int:
        at = self.kind_ids.get(row)
        if at is None:
            at = self.kind_ids[row] = len(self.kinds)
            self.kinds.append(row)
        return at

    def awarded(self, game: AllFoursReferee, bonuses: Sequence[Bonus], carry: int) -> Awarded:
        """``Awarded`` of the awards ``bonuses`` (the carry after them ``carry``), as ``peg_bonuses`` pegs
        them where no total reaches the target: each in order, to its side where it scores."""
        rules = game.game_rules
        rows, points = [], [0, 0]
        for award in bonuses:
            scored = award.side is not None and award.points > 0
            if scored and award.side is not None:
                points[award.side] += award.points
            rows.append(
                self.kind_id((award.side if scored else None, award.points if scored else 0, award.label, award.reason))
            )
        below = [rules.target - p if rules.immediate and p else _NEVER for p in points]
        return (self.bonus_id(bonuses), carry, tuple(rows), points[0], points[1], below[0], below[1])

    def of(
        self, game: AllFoursReferee
    ) -> tuple[dict[tuple[int, ...], Awarded], dict[tuple[int, int, int], tuple[tuple[int, ...], int, int]]]:
        """The game's awards by what they read, and how they peg by (awards, totals)."""
        awards = self.awards.get(game)
        if awards is None:
            awards = self.awards[game] = {}
            self.pegged[game] = {}
        return awards, self.pegged[game]

    def peg(self, game: AllFoursReferee, key: tuple[int, int, int]) -> tuple[tuple[int, ...], int, int]:
        """The award rows pegged (their numbers) and the totals after them, of the awards numbered
        ``key[0]`` pegged from the totals ``key[1:]`` (``rules.all_fours.peg_bonuses``); remembered."""
        done = self.pegged[game].get(key)
        if done is None:
            rules = game.game_rules
            bonus, *after = key
            self.size += 1
            rows = []
            for award, scored, ends in peg_bonuses(self.bonuses[bonus], after, rules.target, rules.immediate):
                rows.append(
                    self.kind_id(
                        (award.side if scored else None, award.points if scored else 0, award.label, award.reason)
                    )
                )
                if ends:
                    break
            done = self.pegged[game][key] = (tuple(rows), after[0], after[1])
        return done

    def renewed(self) -> Memo:
        """This memo, or a new one once it has grown large (between batches: the numbers of a batch's
        award rows stay good)."""
        if self.size >= _MEMO_SIZE:
            return Memo()
        return self


@dataclass(slots=True)
class Told:
    """What the kernel told of the clean records of a batch: its words, each deal's record and rules, and
    the end-of-deal awards pegged (rows of ``pegs`` but for their order among the counters: how many each
    deal of the batch pegged, and each one's number in ``memo.kinds``)."""

    deals: bytearray = field(default_factory=bytearray)
    tricks: bytearray = field(default_factory=bytearray)
    deal_record: array[int] = field(default_factory=lambda: array("q"))
    deal_rules: array[int] = field(default_factory=lambda: array("i"))
    award_count: array[int] = field(default_factory=lambda: array("q"))  # each deal's awards pegged
    award_kind: array[int] = field(default_factory=lambda: array("q"))
    totals: array[int] = field(default_factory=lambda: array("q"))  # each deal's, once scored (two a deal)
    rules: list[AllFoursReferee] = field(default_factory=list)
    memo: Memo = field(default_factory=Memo)
    _rules_index: dict[int, int] = field(default_factory=dict)

    def rules_of(self, game: AllFoursReferee) -> int:
        """The index of ``game``'s rules among those of the batch."""
        key = id(game)
        at = self._rules_index.get(key)
        if at is None:
            at = self._rules_index[key] = len(self.rules)
            self.rules.append(game)
        return at

    def __len__(self) -> int:
        return len(self.deal_record)


def told_record(told: Told, record: AnyRecordView, number: int) -> Findings | None:
    """Record ``number`` refereed by the kernel, telling: what its deals, scores, tricks, plays and pegs
    hold kept in ``told`` for :func:`columns` (its awards pegged here, a deal at a time). None, nothing
    kept, where the kernel declines it (or the fast path cannot run): the listener's path then does the
    record."""
    if not AVAILABLE:
        return None
    deals_at = len(told.deals)
    done = referee_told(record, told.deals, told.tricks)
    if done is None:
        return None
    findings, game = done
    assert _DEAL is not None
    rules = game.game_rules
    keeps_hands = game.keeps_hands
    read = _READ_HANDS if keeps_hands else _READ_MUCK  # (the words of the cards the awards read)
    index = told.rules_of(game)
    carry = 0
    heads = memoryview(told.deals)[deals_at:]
    at = len(told.deal_record)
    first = at
    award_count, award_kind, scored_totals = told.award_count, told.award_kind, told.totals
    memo = told.memo
    known, pegged = memo.of(game)
    for head in _DEAL.iter_unpack(heads):
        if head[4] >= 0:  # the game ended at a counter's peg: no awards
            scored_totals.extend(head[7:9])
            award_count.append(0)
            at += 1
            continue
        asked = (carry, head[1], head[2], *head[read])  # what the awards read: the dealer, trump, the cards
        awarded = known.get(asked)
        if awarded is None:
            dealer, trump = head[1], head[2]
            bonuses, after, _ = rules.awards(_cards(head, keeps_hands), trump, pitcher(dealer), carry, True)
            awarded = known[asked] = memo.awarded(game, bonuses, after)
            memo.size += 1
        bonus, carry, kinds, points0, points1, below0, below1 = awarded
        total0, total1 = head[7], head[8]
        if total0 < below0 and total1 < below1:  # no award can end the game: every one pegged
            total0 += points0
            total1 += points1
        else:
            key = (bonus, total0, total1)
            hit = pegged.get(key)
            kinds, total0, total1 = memo.peg(game, key) if hit is None else hit
        award_kind.extend(kinds)
        award_count.append(len(kinds))
        scored_totals.append(total0)
        scored_totals.append(total1)
        at += 1
    heads.release()
    told.deal_record.extend([number] * (at - first))
    told.deal_rules.extend([index] * (at - first))
    return findings


#: The words of a deal's head that its awards read of the cards (``_cards``): all of them where the game
#: keeps the hands (high, low, jack), the muck's two counts where it does not (Phat).
_READ_HANDS: Final = slice(9, None)
_READ_MUCK: Final = slice(9, 11)


def _cards(head: tuple[int, ...], keeps_hands: bool) -> DealCards:
    """What the awards read of a deal's cards, from the words the kernel told of it (as ``Driver.kernel_deal``)."""
    game0, game1, high, high_seat, low, low_seat, low_side, jack = head[9:]
    if not keeps_hands:
        return DealCards((game0, game1), None, None, None, None)  # Phat's muck
    return DealCards(
        (game0, game1),
        None if high < 0 else (DECK[high], high_seat),
        None if low < 0 else (DECK[low], low_seat),
        None if low_side < 0 else low_side,
        None if jack < 0 else jack,
    )


def _ints(values: Any) -> Column:
    return Column("int", values.astype(np.int64, copy=False))


def columns(told: Told) -> dict[str, Columns]:
    """The ``deals``, ``scores``, ``tricks``, ``plays`` and ``pegs`` rows of the records told, as columns in
    the listener's order."""
    if not len(told):
        return {}
    heads = np.frombuffer(told.deals, dtype=np.int32).reshape(-1, DEAL_WORDS)
    out = {"deals": _deals(told, heads), "scores": _scores(told, heads)}
    words = np.frombuffer(told.tricks, dtype=np.int32).reshape(-1, TRICK_WORDS)
    per_deal = heads[:, 3]
    record = np.repeat(np.frombuffer(told.deal_record, dtype=np.int64), per_deal)
    rules = np.repeat(np.frombuffer(told.deal_rules, dtype=np.int32), per_deal)
    trump = np.repeat(heads[:, 2], per_deal)
    deal, trick, leader, winner = words[:, 0], words[:, 1], words[:, 2], words[:, 3]
    cards = words[:, TRICK_WORDS - SEATS :]
    n = len(words)
    seat_side = np.array([side_of(s) for s in range(SEATS)], dtype=np.int64)
    position = (winner - leader) % SEATS
    winner_side = seat_side[winner]
    counters = np.array(
        [[game.counters(suit) for suit in Suit] for game in told.rules], dtype=np.int64
    )  # [rules][trump][card]
    values = counters[rules[:, None], trump[:, None], cards]
    points = _sum_across(values)
    why, why_texts = _why(told, rules, trump, cards, position)
    tricks: Columns = {
        "record": _ints(record),
        "deal": _ints(deal),
        "trick": _ints(trick),
        "leader": _ints(leader),
        "winner": _ints(winner),
        "winner_side": _ints(winner_side),
        "position": _ints(position),
        "why": Column("text", why, texts=why_texts),
        "points": _ints(points),
        "scored": Column("bool", np.ones(n, dtype=bool)),
    }
    at = np.arange(SEATS)
    played = cards.ravel()
    plays: Columns = {
        "record": _ints(np.repeat(record, SEATS)),
        "deal": _ints(np.repeat(deal, SEATS)),
        "trick": _ints(np.repeat(trick, SEATS)),
        "position": _ints(np.tile(at, n)),
        "seat": _ints(((leader[:, None] + at) % SEATS).ravel()),
        "card": Column("text", played, texts=list(CARD_TEXT)),
        "suit": Column("text", played, texts=[t[1] for t in CARD_TEXT]),
        "rank": Column("text", played, texts=[t[0] for t in CARD_TEXT]),
        "wins": Column("bool", (position[:, None] == at).ravel()),
    }
    return {
        **out,
        "tricks": tricks,
        "plays": plays,
        "pegs": _pegs(told, record, deal, trick, winner_side, values, points, cards),
    }


def _sum_across(values: Any) -> Any:
    """Each row's sum (a few columns: added column by column, faster than numpy's sum over an axis)."""
    total = values[:, 0].copy()
    for i in range(1, values.shape[1]):
        total += values[:, i]
    return total


def _deals(told: Told, heads: Any) -> Columns:
    """A deal's row: its dealer, the pitcher (on the dealer's left), the hand size, trump."""
    n = len(heads)
    dealer = heads[:, 1]
    pitchers = np.array([pitcher(s) for s in range(SEATS)], dtype=np.int64)
    sizes = np.array([game.hand_size for game in told.rules], dtype=np.int64)
    return {
        "record": _ints(np.frombuffer(told.deal_record, dtype=np.int64)),
        "deal": _ints(heads[:, 0]),
        "dealer": _ints(dealer),
        "pitcher": _ints(pitchers[dealer]),
        "size": _ints(sizes[np.frombuffer(told.deal_rules, dtype=np.int32)]),
        "trump": Column("text", heads[:, 2], texts=list(_SUIT_TEXT)),
        "turnup": Column("text", np.zeros(n, dtype=np.int64), texts=[None]),
        "passed_over": Column("bool", np.zeros(n, dtype=bool)),
        "given_up": Column("bool", np.zeros(n, dtype=bool)),
    }


def _scores(told: Told, heads: Any) -> Columns:
    """Each deal's two rows, a side each: the points as scored and the total after them."""
    n = len(heads)
    totals = np.frombuffer(told.totals, dtype=np.int64).reshape(-1, 2)
    start = heads[:, 5:7].astype(np.int64)
    none = np.zeros(2 * n, dtype=bool)
    return {
        "record": _ints(np.repeat(np.frombuffer(told.deal_record, dtype=np.int64), 2)),
        "deal": _ints(np.repeat(heads[:, 0], 2)),
        "side": _ints(np.tile(np.arange(2), n)),
        "points": _ints((totals - start).ravel()),
        "total": _ints(totals.ravel()),
        "bid": Column("int", np.zeros(2 * n, dtype=np.int64), none),
        "taken": Column("int", np.zeros(2 * n, dtype=np.int64), none),
    }


def _why(told: Told, rules: Any, trump: Any, cards: Any, position: Any) -> tuple[Any, list[str | None]]:
    """Each trick's ``why`` as ids into its texts: ``explain_winner`` reads only the trump, the suit led,
    whether the winning card is a trump, whether more than one trump was played and the follow rule (the
    rules'), so it is asked once for each such kind of trick, of the first trick of the kind."""
    suits = cards // 13
    led = suits[:, 0]
    wins_trump = suits[np.arange(len(cards)), position] == trump
    trumps = _sum_across((suits == trump[:, None]).astype(np.int8)) > 1
    kind = (((rules.astype(np.int64) * 4 + trump) * 4 + led) * 2 + wins_trump) * 2 + trumps
    first, which = _first_of_each(kind)
    follow: list[FollowRule] = [game.follow for game in told.rules]
    texts: list[str | None] = [
        explain_winner(tuple(DECK[c] for c in cards[i].tolist()), Suit(int(trump[i])), follow[int(rules[i])])
        for i in first.tolist()
    ]
    return which.ravel(), texts


def _first_of_each(kind: Any) -> tuple[Any, Any]:
    """For small integers ``kind`` (0 and up): where each value present is first seen, in the values' order,
    and each item's value as its place among those present (what ``np.unique`` gives, without a sort)."""
    n = len(kind)
    first_at = np.full(int(kind.max()) + 1 if n else 0, n, dtype=np.int64)
    np.minimum.at(first_at, kind, np.arange(n, dtype=np.int64))
    present = first_at < n
    number = np.cumsum(present) - 1
    return first_at[present], number[kind]


def _after_counters(counters: Any, awards: Any) -> Any:
    """The order of the rows of ``pegs``, counters first, then the awards: each deal's counters, then its
    awards, ``counters`` and ``awards`` the deal (its index in the batch) of each, both in order."""
    k, a = len(counters), len(awards)
    order = np.empty(k + a, dtype=np.int64)
    order[np.arange(k) + np.searchsorted(awards, counters, side="left")] = np.arange(k)
    order[np.arange(a) + np.searchsorted(counters, awards, side="right")] = np.arange(k, k + a)
    return order


def _pegs(told: Told, record: Any, deal: Any, trick: Any, side: Any, values: Any, points: Any, cards: Any) -> Columns:
    """The counters (each trick's cards that peg, in the order played, where the trick pegs) and the
    end-of-deal awards of each deal after them."""
    scored = (values != 0) & (points != 0)[:, None]
    t, i = np.nonzero(scored)
    k = len(t)
    at = np.repeat(np.arange(len(told.award_count)), np.frombuffer(told.award_count, dtype=np.int64))
    kind_of = np.frombuffer(told.award_kind, dtype=np.int64)
    a = len(at)
    heads = np.frombuffer(told.deals, dtype=np.int32).reshape(-1, DEAL_WORDS)
    rec = np.concatenate([record[t], np.frombuffer(told.deal_record, dtype=np.int64)[at]])
    dl = np.concatenate([deal[t].astype(np.int64), heads[at, 0].astype(np.int64)])
    order = _after_counters(np.repeat(np.arange(len(heads)), heads[:, 3])[t], at)
    kinds = told.memo.kinds
    kind_side = np.array([-1 if w[0] is None else w[0] for w in kinds], dtype=np.int64)
    kind_scored = np.array([w[0] is not None for w in kinds], dtype=bool)
    kind_points = np.array([w[1] for w in kinds], dtype=np.int64)
    sides = np.concatenate([side[t], kind_side[kind_of]])
    side_valid = np.concatenate([np.ones(k, dtype=bool), kind_scored[kind_of]])
    pts = np.concatenate([values[t, i], kind_points[kind_of]])
    labels: list[str | None] = ["counter", *(w[2] for w in kinds)]
    label_ids = np.concatenate([np.zeros(k, dtype=np.int64), kind_of + 1])
    card_texts: list[str | None] = [*CARD_TEXT, None]
    card_ids = np.concatenate([cards[t, i].astype(np.int64), np.full(a, len(CARD_TEXT), dtype=np.int64)])
    reasons: list[str | None] = [None, *(w[3] for w in kinds)]
    trick_col = np.concatenate([trick[t].astype(np.int64), np.zeros(a, dtype=np.int64)])
    trick_valid = np.concatenate([np.ones(k, dtype=bool), np.zeros(a, dtype=bool)])
    return {
        "record": _ints(rec[order]),
        "deal": _ints(dl[order]),
        "trick": Column("int", trick_col[order], trick_valid[order]),
        "side": Column("int", sides[order], side_valid[order]),
        "points": _ints(pts[order]),
        "label": Column("text", label_ids[order], texts=labels),
        "card": Column("text", card_ids[order], texts=card_texts),
        "reason": Column("text", label_ids[order], texts=reasons),
    }
