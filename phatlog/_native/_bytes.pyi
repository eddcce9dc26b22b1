"""The optional C record bytes (phatlog/_native/_bytes.c): the duplicate-key scan, the deals' keys, the
digest stream, the canonical form and the deal table. Each declines (None) what is not of the common shape;
no game rule is here."""

from collections.abc import Sequence

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

def drop_nulls(data: bytes, /) -> bytes | None:
    """The JSON text without its null members, as ``phatlog.record.canonical._drop_nulls`` makes it; None for a
    text that holds a backslash."""

def canonical_json(
    record: object, classes: dict[type, tuple[tuple[tuple[bytes, int, bool], ...], tuple[tuple[bytes, bytes], ...]]], /
) -> bytes | None:
    """The record's canonical form, as ``phatlog.record.canonical.canonical_bytes_reference`` makes it, in one walk;
    None where it holds what the walk does not write (extension data, a string with an escape, a float, a class
    not in ``classes``, which ``phatlog.record.canonical._json_classes`` makes)."""

class DealTable:
    """The deals seen in a run, by key (``phatlog.archive.duplicates``): 56 bytes an entry."""

    def seen(self, blob: bytes, here: int, /) -> list[tuple[int, int]] | None:
        """Add a record's deals (``phatlog.record.canonical.deal_blob``), each first seen at ``here`` + its index;
        ``(index, where it was first seen)`` for those seen before, or None."""

    def __len__(self) -> int: ...
