"""The limits an input is read under: today one, the largest record read (``--max-bytes``). (The limits
of the record format itself, on lists and free text, are the schema's: :mod:`phatlog.record.model`.)

A :class:`ReadLimits` is made once, at the top (a command from its options, an API call from its
keywords), and travels with what is read under it: a batch of an archive (``archive.check.Batch``), a
part of one on a cluster (``archive.cluster.Part``, ``Piece``). Whatever reads a record takes the limit
from there; no function hands it on to the next. It is a small frozen value, so it pickles to worker
processes and Dask workers with the work it belongs to. The reading primitives below it
(:mod:`phatlog.record.reader`, the notations' ``load``) take the number of bytes itself.
"""

from __future__ import annotations

import sys
from typing import Final, NamedTuple

#: The largest document read by default, in bytes. A game of a thousand deals is about a megabyte.
DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024
#: The largest limit that means anything (a read size must fit a C ``ssize_t``); larger limits are this.
MAX_LIMIT: Final = sys.maxsize - 1


def limit(max_bytes: int) -> int:
    """``max_bytes`` as a usable limit: at least 1, at most :data:`MAX_LIMIT` (no read size overflows)."""
    return max(1, min(max_bytes, MAX_LIMIT))


class _Limits(NamedTuple):
    max_bytes: int


class ReadLimits(_Limits):
    """What one record may be: ``max_bytes``, the most bytes of a record (a file of one record, a line of
    an archive, a game of a text file), made a usable limit (:func:`limit`) as the value is made. (A named
    tuple: a frozen dataclass cost a millisecond of every command's start.)"""

    __slots__ = ()

    def __new__(cls, max_bytes: int = DEFAULT_MAX_BYTES) -> ReadLimits:
        return super().__new__(cls, limit(max_bytes))


#: The limits of a read that sets none.
DEFAULT_READ_LIMITS: Final = ReadLimits()
