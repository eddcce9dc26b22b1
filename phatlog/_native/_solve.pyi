"""The double-dummy solver's kernel in C (phatlog/_native/_solve.c): ``search.PySearch`` in C.

``tables`` is ``search._pack(Tables)``: 32-bit integers, the header (seats, trump, trick_g, gmax, trick_points), the
strength table (4 x 52), the follow table (8), counters, card points and leaf bits (52 each), the side of
each of 8 seats, then the leaf values ((gmax + 1) x 4). ``techniques``: bit 1 the transposition table,
2 touching cards, 4 move ordering, 8 bounds, 16 relative ranks in the table's key, 32 ranges of counts, 64
the counters' game, bits 8 to 13 the cards in play from which it is searched (0: 12) (``search.Techniques``).
``horizon`` (0: the exact search): a trick that starts with that many cards a hand or fewer is estimated,
not searched (iterative deepening: ``search.deepened``); such entries give an exact search only their best
lead. The table keeps the entries of the last 16 tables searched (by generation: a deal's trumps and their
counters' games); ``clear`` forgets them all. Returns side 0's value (exact inside (alpha, beta), else a
bound) and the nodes searched; ``limit`` (> 0): None where that many nodes did not finish the search (the
table is then forgotten, as after an interrupt).
"""

from typing import overload

@overload
def search(
    tables: bytes,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    g: int,
    flags: int,
    alpha: int,
    beta: int,
    techniques: int,
    horizon: int = 0,
    /,
) -> tuple[int, int]: ...
@overload
def search(
    tables: bytes,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    g: int,
    flags: int,
    alpha: int,
    beta: int,
    techniques: int,
    horizon: int,
    limit: int,
    /,
) -> tuple[int, int] | None: ...
def clear() -> None:
    """Forget the table and every table searched, and give the table's memory back."""

def table_bytes() -> int:
    """The bytes the transposition table holds now (0: none)."""

def tricks(
    hands: tuple[int, ...], trick: tuple[int, ...], leader: int, trump: int, every: bool, limit: int, /
) -> tuple[int, tuple[tuple[int, int], ...], int] | None:
    """The tricks kernel: four seats in partnerships (0 and 2 against 1 and 3), must follow suit, ``trump``
    0..3 or 4 (none). ``hands`` four masks of 52 bits, ``trick`` the cards of the trick in progress (led
    by ``leader``). Returns the tricks the side of the player to act can make sure of (the trick in
    progress included), with ``every`` each legal card's (card, tricks), and the nodes searched; None where
    ``limit`` (> 0) nodes did not finish it. The table's memory is taken for the call and given back."""

def points(
    tables: bytes,
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    g: int,
    flags: int,
    alpha: int,
    beta: int,
    limit: int,
    /,
) -> tuple[int, int] | None:
    """The points kernel: ``search``'s value (side 0's, exact inside (alpha, beta), else a bound outside it,
    fail-soft) by the tricks kernel's target searches, for tables of four seats in partnerships bound to
    follow suit under the engine's trick strength (``search.points_fit``). Its table is kept across calls
    (by the tables' generation) until ``clear``. Returns the value and the nodes searched; None where
    ``limit`` (> 0) nodes did not finish it."""
