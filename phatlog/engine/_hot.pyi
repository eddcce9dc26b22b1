"""The optional C hot loop of the All Fours family (phatlog/engine/_hot.c)."""

from collections.abc import Sequence
from typing import Any

#: trump, total 0, total 1, trick the game ended at (-1: none), the side that won then (-1), tricks
#: played, the cards each side took (two lists), each side's game points, and the hands as dealt where
#: they were inferred from the tricks (else None).
HotDeal = tuple[int, int, int, int, int, int, list[str], list[str], int, int, tuple[list[str], ...] | None]

def play(
    hands: Sequence[Sequence[str | None]] | None,
    tricks: Sequence[Any],
    undealt: Sequence[str] | None,
    pitcher: int,
    hand_size: int,
    counters: bytes,
    game_points: bytes,
    follow_or_trump: bool,
    total0: int,
    total1: int,
    target: int,
    immediate: bool,
    /,
) -> HotDeal | None: ...
def maybe_duplicate_keys(data: bytes, /) -> bool:
    """Whether an object of this (valid) JSON document may hold a key twice: False for certainly not."""
