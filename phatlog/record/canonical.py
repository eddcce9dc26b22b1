"""The canonical form of a record and its fingerprints (docs/archives.md, "Canonical form").

The canonical form is RFC 8785 (JSON Canonicalization Scheme) applied to the record as phatlog reads
it: every key of the format is written, sorted (by UTF-16 code units, as RFC 8785 says), with no
insignificant white space; numbers are spelt as ECMAScript spells them (``3``, never ``3.0``); strings
are escaped minimally. Rules defaults are made explicit: a rules parameter left out is written with its
default value; an optional value left out, or ``null``, is left out (so that a field a later format
version adds leaves the canonical form of every older record as it was); so ``{"rules": {}}`` and
``{"rules": {"target": 181}}`` (Phat's default) are one canonical form. An ``event``, ``result`` or
deal ``score`` object that says nothing beyond the defaults is the same as none (left out). Arrays keep
their order: the cards of a hand are written as recorded (the deal fingerprint, below, is the one that
ignores their order).

The *record fingerprint* is the SHA-256 of the canonical form; the *deal fingerprint* is the SHA-256
of ``{"dealer":D,"hands":[...]}`` in canonical form, each hand's cards sorted: the same cards dealt to
the same seats by the same dealer, however each hand was listed.

The fast path encodes the record read by :mod:`phatlog.record.decoder` (a msgspec struct) in C, with its fields
sorted: for the fields of the format (integers, strings, cards, ASCII keys) msgspec's output is already
RFC 8785. Only extension objects may hold what it spells otherwise (floats, non-ASCII keys); a record
with one goes through :func:`jcs`, the reference implementation in Python. Where the C kernel is built,
its ``canonical_json`` writes the same bytes in one walk over the record (the empty objects and the
nulls left out on the way), and declines, for the steps above to decide, any record with extension data
or a string that JSON escapes (``tests/test_canonical_json.py`` holds the two together).
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from collections.abc import Iterator
from functools import cache
from typing import Any, Final

import msgspec

from phatlog._native import kernel
from phatlog.record import decoder as wire
from phatlog.rules.cards import CARD_TEXT

_ENCODER: Final = msgspec.json.Encoder(order="sorted")
#: An extension object in the fast path's output: then the record goes the reference way.
_EXT_OBJECT: Final = b'"ext":{'


def jcs(value: object) -> bytes:
    """RFC 8785: a JSON value (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``) in
    canonical form, as UTF-8 bytes.

    One deviation, documented: an integer is written with all its digits (RFC 8785 would round one
    beyond 2**53 to a double); records hold no such integer outside extension objects.
    """
    return "".join(_jcs(value)).encode("utf-8")


def _jcs(value: object) -> Iterator[str]:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, int):
        yield str(value)
    elif isinstance(value, float):
        yield es_number(value)
    elif isinstance(value, str):
        yield _string(value)
    elif isinstance(value, dict):
        yield "{"
        for i, key in enumerate(sorted(value, key=_utf16)):
            if i:
                yield ","
            yield _string(key)
            yield ":"
            yield from _jcs(value[key])
        yield "}"
    elif isinstance(value, (list, tuple)):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ","
            yield from _jcs(item)
        yield "]"
    else:
        raise TypeError(f"not JSON data: {type(value).__name__}")


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", errors="surrogatepass")


_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _string(text: str) -> str:
    """A string as RFC 8785 writes it: ``"`` and ``\\`` escaped, control characters as ``\\b \\f \\n \\r \\t``
    or ``\\u00xx`` (lowercase hex), everything else as it is."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " ":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def es_number(value: float) -> str:
    """A double as ECMAScript's ``Number.prototype.toString`` spells it (RFC 8785, section 3.2.2.3):
    ``3.0`` is ``3``, ``1e16`` is ``10000000000000000``, ``1e-7`` is ``1e-7``, ``-0.0`` is ``0``."""
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a JSON number")
    if value == 0:
        return "0"
    from decimal import Decimal  # here: few records hold a float, and the import costs start-up time

    sign = "-" if value < 0 else ""
    exact = Decimal(repr(abs(value))).normalize()  # repr: the shortest digits that read back the same
    _, digit_tuple, exponent = exact.as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple))
    k, n = len(digits), exponent + len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * -n + digits
    else:
        e = n - 1
        body = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return sign + body


# ---------------------------------------------------------------------------------------- records


@cache
def _struct_infos() -> dict[type, msgspec.inspect.StructType]:
    """Every struct class a record read by :mod:`phatlog.record.decoder` may hold, with msgspec's account of
    it, in the order a walk of the record type from the top first meets them."""
    infos: dict[type, msgspec.inspect.StructType] = {}

    def walk(info: msgspec.inspect.Type | None) -> None:
        if isinstance(info, msgspec.inspect.UnionType):
            for member in info.types:
                walk(member)
        elif isinstance(info, (msgspec.inspect.ListType, msgspec.inspect.TupleType)):
            walk(getattr(info, "item_type", None))
        elif isinstance(info, msgspec.inspect.StructType) and info.cls not in infos:
            infos[info.cls] = info
            for f in info.fields:
                walk(f.type)

    walk(msgspec.inspect.type_info(wire.record_type()))
    return infos


@cache
def _empty_objects() -> tuple[tuple[bytes, bytes], ...]:
    """``(b'"event":{...all defaults...}', b'"event":null')`` for every optional object of the format that
    can be written with nothing in it (``event``, ``result``, a deal's ``score``): the same as none.

    Found from the compiled record type, so that a field added to the format is covered."""
    pairs: set[tuple[bytes, bytes]] = set()
    for info in _struct_infos().values():
        for f in info.fields:
            union = f.type
            if not isinstance(union, msgspec.inspect.UnionType) or not union.includes_none:
                continue
            for member in union.types:
                if isinstance(member, msgspec.inspect.StructType) and all(not g.required for g in member.fields):
                    key = _ENCODER.encode(f.encode_name)
                    pairs.add((key + b":" + _ENCODER.encode(member.cls()), key + b":null"))
    return tuple(sorted(pairs))


#: A member whose value is null, after a comma (``,"k":null``) or first in its object (``{"k":null,``,
#: ``{"k":null}``). A quote inside a string is always escaped (``\"``), so ``,"`` and ``{"`` begin a key.
_NULL_AFTER: Final = re.compile(rb',"(?:[^"\\]|\\.)*":null(?=[,}])')
_NULL_FIRST: Final = re.compile(rb'\{"(?:[^"\\]|\\.)*":null(?:,|(?=\}))')


#: The same where the text holds no backslash, so that no string holds a quote: a key is a run of anything
#: but quotes (a simpler pattern, which the regular expression engine scans three times as fast).
_PLAIN_NULL_AFTER: Final = re.compile(rb',"[^"]*":null(?=[,}])')
_PLAIN_NULL_FIRST: Final = re.compile(rb'\{"[^"]*":null(?:,|(?=\}))')
#: The C kernel's one pass (``_bytes.drop_nulls``: the same bytes, a text with no backslash), or None.
_C_DROP_NULLS: Final = kernel("drop_nulls")


def _drop_nulls(out: bytes) -> bytes:
    """Leave out every member whose value is null: an optional value not given is absent, not ``null``,
    so a field that a later format version adds does not change the canonical form of older records."""
    if b":null" not in out:
        return out
    if _C_DROP_NULLS is not None:
        dropped: bytes | None = _C_DROP_NULLS(out)
        if dropped is not None:
            return dropped
    return _drop_nulls_reference(out)


def _drop_nulls_reference(out: bytes) -> bytes:
    """``_drop_nulls`` by regular expressions (the reference, and where the C kernel is not built)."""
    if b"\\" not in out:
        return _PLAIN_NULL_FIRST.sub(b"{", _PLAIN_NULL_AFTER.sub(b"", out))
    return _NULL_FIRST.sub(b"{", _NULL_AFTER.sub(b"", out))


#: A struct class's members for the C kernel's ``canonical_json``, in the order msgspec writes them (sorted):
#: the key as written (``b'"name":'``) with the field's index in ``__struct_fields__`` and whether it must
#: be null (``ext``: extension data goes the reference way), or, for a union's tag, the whole member
#: (``b'"game":"phat"'``) with the index -1.
JsonMember = tuple[bytes, int, bool]
#: Where an instance of the class is an empty optional object: the key it is under (``b'"event":'``) and
#: its text, null members left out, when it holds nothing but the defaults (an ``_empty_objects`` pair).
JsonDrop = tuple[bytes, bytes]


@cache
def _json_classes() -> dict[type, tuple[tuple[JsonMember, ...], tuple[JsonDrop, ...]]] | None:
    """Every struct class a record read by :mod:`phatlog.record.decoder` may hold, as the C kernel's
    ``canonical_json`` writes it (``JsonMember``, ``JsonDrop``); None where the format holds an empty
    object that one walk cannot tell as :func:`canonical_bytes` does (one whose defaults are not all
    null or plain values, or whose class can hold another struct, which an earlier replacement may
    have made empty): then every record goes the Python way."""
    infos = _struct_infos()
    empties: list[tuple[bytes, list[str], bytes]] = []  # (key, the empty object's keys, its text without nulls)
    for empty, _ in _empty_objects():
        key, _, text = empty.partition(b":")
        shown = msgspec.json.decode(text)
        if not isinstance(shown, dict) or not all(v is None or type(v) in (str, int, bool) for v in shown.values()):
            return None
        empties.append((key + b":", list(shown), _drop_nulls_reference(text)))
    out: dict[type, tuple[tuple[JsonMember, ...], tuple[JsonDrop, ...]]] = {}
    for cls, info in infos.items():
        fields = info.cls.__struct_fields__
        members: list[tuple[str, JsonMember]] = [
            (f.encode_name, (_ENCODER.encode(f.encode_name) + b":", fields.index(f.name), f.encode_name == "ext"))
            for f in info.fields
        ]
        if info.tag_field is not None:
            member = _ENCODER.encode(info.tag_field) + b":" + _ENCODER.encode(info.tag)
            members.append((info.tag_field, (member, -1, False)))
        members.sort(key=lambda m: m[0])
        names = [name for name, _ in members]
        drops = tuple((key, text) for key, keys, text in empties if keys == names)
        if drops and any(_holds_struct(f.type) for f in info.fields):
            return None
        out[cls] = (tuple(m for _, m in members), drops)
    return out


def _holds_struct(info: msgspec.inspect.Type | None) -> bool:
    if isinstance(info, msgspec.inspect.UnionType):
        return any(_holds_struct(member) for member in info.types)
    if isinstance(info, (msgspec.inspect.ListType, msgspec.inspect.TupleType)):
        return _holds_struct(getattr(info, "item_type", None))
    return isinstance(info, msgspec.inspect.StructType)


_C_CANONICAL_JSON: Final = kernel("canonical_json")  # the C kernel's, or None


def canonical_bytes(record: object) -> bytes:
    """The canonical form of a record read by :mod:`phatlog.record.reader` (a :mod:`phatlog.record.decoder` struct):
    the C kernel's one walk where it is built and takes the record, else :func:`canonical_bytes_reference`."""
    if _C_CANONICAL_JSON is not None:
        classes = _json_classes()
        if classes is not None:
            out: bytes | None = _C_CANONICAL_JSON(record, classes)
            if out is not None:
                return out
    return canonical_bytes_reference(record)


def canonical_bytes_reference(record: object) -> bytes:
    """:func:`canonical_bytes` in Python (msgspec's encoding, then the empty objects, the nulls and any
    extension data seen to): the reference, and what a record the C kernel declines takes."""
    out = _ENCODER.encode(record)
    for empty, null in _empty_objects():
        if empty in out:
            out = out.replace(empty, null)
    out = _drop_nulls(out)
    if _EXT_OBJECT in out:  # extension data: numbers and keys as RFC 8785 has them, the reference way
        out = jcs(msgspec.json.decode(out))
    return out


def fingerprint(record: object) -> str:
    """The record fingerprint: SHA-256 of the canonical form, in hex."""
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def record_digest(record: object) -> bytes:
    """The record fingerprint as 32 bytes."""
    return hashlib.sha256(canonical_bytes(record)).digest()


def deal_bytes(dealer: int, hands: list[list[str]]) -> bytes:
    """A deal's canonical form for its fingerprint: the dealer and each hand's cards, sorted."""
    return b'{"dealer":%d,"hands":%s}' % (dealer, _ENCODER.encode([sorted(h) for h in hands]))


def deal_fingerprint(dealer: int, hands: list[list[str]]) -> str:
    """The deal fingerprint: SHA-256 of ``{"dealer":D,"hands":[...]}``, each hand sorted, in hex."""
    return hashlib.sha256(deal_bytes(dealer, hands)).hexdigest()


def deal_digests(record: Any) -> list[tuple[int, bytes]]:
    """``(deal index, 32-byte deal fingerprint)`` for every deal of a record that records its hands."""
    return [
        (i, hashlib.sha256(deal_bytes(d.dealer, d.hands)).digest())
        for i, d in enumerate(record.deals)
        if d.hands is not None
    ]


# ---------------------------------------------------------------------------------------- duplicates

_BIT: Final = {card: 1 << i for i, card in enumerate(CARD_TEXT)}

#: The tags of :func:`record_stream`'s encoding (``_native/_bytes.c`` writes the same).
_S_NONE, _S_FALSE, _S_TRUE, _S_BYTE, _S_INT, _S_STR8, _S_STR, _S_LIST8, _S_LIST, _S_STRUCT, _S_CARD = range(11)
#: A card text's id (:data:`phatlog.rules.cards.CARD_TEXT`'s order, as the C kernel's ``card_id``).
_CARD_ID: Final = {text: i for i, text in enumerate(CARD_TEXT)}


@cache
def _classes() -> dict[type, tuple[int, Any, int | None, int | None]]:
    """Every struct class a record read by :mod:`phatlog.record.decoder` may hold, with its number (by name, so
    the same in every process); where its fields are all optional, its all-defaults instance (such an
    object, an ``event``, ``result`` or ``score`` that says nothing, is the same as none); and for a
    deal's class, where its ``dealer`` and ``hands`` fields are (for :func:`record_keys`)."""
    found: dict[str, msgspec.inspect.StructType] = {}
    for cls, info in _struct_infos().items():
        found.setdefault(cls.__name__, info)
    if len(found) > 256:
        raise ValueError("record_stream numbers a struct class in one byte")
    out: dict[type, tuple[int, Any, int | None, int | None]] = {}
    for number, (_, info) in enumerate(sorted(found.items())):
        fields = info.cls.__struct_fields__
        empty = info.cls() if all(not f.required for f in info.fields) else None
        deal = "dealer" in fields and "hands" in fields  # a deal: the C kernel makes its key on the way
        out[info.cls] = (
            number,
            empty,
            fields.index("dealer") if deal else None,
            fields.index("hands") if deal else None,
        )
    return out


class _Declined(Exception):
    """A value :func:`record_stream` does not write (an extension object, a float)."""


def record_stream(record: object) -> bytes | None:
    """The record's content as a stream of tagged values, the input of :func:`dedupe_key`; None where it
    holds an extension object or anything else but structs, lists, strings, integers, booleans and None.

    A value is a tag byte and then: nothing (None, False, True); one byte (an integer 0 to 255, or a card
    text's id); eight bytes little-endian (any other 64-bit integer); a length (one byte below 256, else
    four) and the UTF-8 bytes (any other string) or the items (a list); the class's number
    (:func:`_classes`) and every field in the class's order (a struct). A struct that holds nothing but its
    defaults is written as None, as the canonical form leaves it out. The encoding is prefix-free and a
    struct's fields are fixed by its class, so two records have the same stream exactly when they hold the
    same values, defaults explicit: when they have the same canonical form. This is the reference; the C
    kernel's ``record_stream`` writes the same bytes, faster (tests/test_canonical.py holds the two
    together)."""
    out = bytearray()
    try:
        _write(out, record, _classes(), 0)
    except _Declined:
        return None
    return bytes(out)


def _write(
    out: bytearray, value: Any, classes: dict[type, tuple[int, Any, int | None, int | None]], depth: int
) -> None:
    if depth > 32:
        raise _Declined
    if value is None:
        out.append(_S_NONE)
    elif value is False or value is True:
        out.append(_S_TRUE if value else _S_FALSE)
    elif type(value) is str:
        card = _CARD_ID.get(value)
        if card is not None:
            out += bytes((_S_CARD, card))
            return
        data = value.encode("utf-8")
        out += bytes((_S_STR8, len(data))) if len(data) < 256 else struct.pack("<BI", _S_STR, len(data))
        out += data
    elif type(value) is int:
        if 0 <= value < 256:
            out += bytes((_S_BYTE, value))
        elif -(1 << 63) <= value < 1 << 63:
            out += struct.pack("<Bq", _S_INT, value)
        else:
            raise _Declined
    elif type(value) is list or type(value) is tuple:
        out += bytes((_S_LIST8, len(value))) if len(value) < 256 else struct.pack("<BI", _S_LIST, len(value))
        for item in value:
            _write(out, item, classes, depth + 1)
    elif type(value) in classes:
        cls = type(value)
        number, empty, _, _ = classes[cls]
        if empty is not None and value == empty:
            out.append(_S_NONE)
            return
        out += bytes((_S_STRUCT, number))
        for field in cls.__struct_fields__:
            _write(out, getattr(value, field), classes, depth + 1)
    else:
        raise _Declined


_C_RECORD_STREAM: Final = kernel("record_stream")  # the C kernel's, or None


def dedupe_key(record: object) -> bytes:
    """A 32-byte digest that two records share exactly when their fingerprints are equal, cheaper to make.

    The SHA-256 of :func:`record_stream` (the record's values, defaults explicit, an empty object as none,
    so the same stream exactly when the same canonical form); a record that holds extension data takes its
    fingerprint instead (:func:`record_digest`: there ``3.0`` is ``3``, and keys sort as RFC 8785 has
    them): whether a record holds some is part of its meaning, so two records that mean the same take the
    same way, and the two ways never meet (a stream begins with a struct's tag, canonical JSON with ``{``).
    For ``verify`` and ``select --dedupe``, where the fingerprint's JSON costs far more."""
    stream = None
    if _C_RECORD_STREAM is not None:
        stream = _C_RECORD_STREAM(record, _classes())
    if stream is None:
        stream = record_stream(record)  # the reference; also where the C declines
        if stream is None:
            return record_digest(record)
    return hashlib.sha256(stream).digest()


def record_keys(record: Any, deals: bool) -> tuple[bytes, bytes]:
    """``verify``'s duplicate check of one record: its :func:`dedupe_key` and (``deals``) its
    :func:`deal_keys` as :func:`deal_blob` writes them, both from one walk over the record where the C
    kernel is built (the same bytes as those functions make: tests/test_canonical.py)."""
    if _C_RECORD_STREAM is not None:
        stream, keys = _C_RECORD_STREAM(record, _classes(), deals)
        if stream is not None:
            digest = hashlib.sha256(stream).digest()
            if not deals:
                return digest, b""
            return digest, deal_blob(deal_keys(record)) if keys is None else keys
    return dedupe_key(record), deal_blob(deal_keys(record)) if deals else b""


#: The bytes of a deal key in :func:`deal_blob` (big-endian): every key, common or not, is below 2**384.
DEAL_KEY_BYTES: Final = 48
#: A deal key outside the common shape (:func:`deal_key`) has this bit set, beyond any common key's bits
#: (seven hands: 6 + 7 x 52 = 370 bits).
_UNUSUAL_KEY: Final = 1 << 376
DEAL_INDEX: Final = struct.Struct("<I")


def deal_blob(keys: list[tuple[int, int]]) -> bytes:
    """Deal keys as the duplicate tracker keeps them (``duplicates``, and the C kernel's ``DealTable``):
    for each deal, its index (4 bytes, little-endian) and its key (``DEAL_KEY_BYTES``, big-endian)."""
    return b"".join(DEAL_INDEX.pack(index) + key.to_bytes(DEAL_KEY_BYTES, "big") for index, key in keys)


def deal_key(dealer: int, hands: list[list[str]]) -> int:
    """A deal's key for ``verify``'s duplicate check: equal for two deals exactly when their deal
    fingerprints are equal, cheaper to make and to keep.

    The common shape (1 to 7 hands, a dealer 0 to 7, no card twice in a hand) is the number of hands
    (3 bits), the dealer (3 bits), then each hand's cards as a set (52 bits a hand), as one integer: the
    hands' count fixes its length, so no two such deals share one. Anything else (a card held twice in a
    hand, which a set cannot tell) is the first 16 bytes of the deal fingerprint's SHA-256 with
    ``_UNUSUAL_KEY`` set, so never a common deal's key. The C kernel makes the common keys the same way."""
    n = len(hands)
    if 0 <= dealer < 8 and 0 < n <= 7:
        key = n << 3 | dealer
        for hand in hands:
            try:
                mask = sum(map(_BIT.__getitem__, hand))
            except (KeyError, TypeError):
                break
            if mask.bit_count() != len(hand):  # a card twice: the sum carried
                break
            key = (key << 52) | mask
        else:
            return key
    digest = hashlib.sha256(deal_bytes(dealer, hands)).digest()[:16]
    return _UNUSUAL_KEY | int.from_bytes(digest, "big")


_C_DEAL_KEYS: Final = kernel("deal_keys")  # the C kernel's, or None


def deal_keys(record: Any) -> list[tuple[int, int]]:
    """``(deal index, key)`` for every deal that records its hands (:func:`deal_key`). For ``verify``."""
    if _C_DEAL_KEYS is not None:
        found: list[tuple[int, int]] | None = _C_DEAL_KEYS(record.deals)
        if found is not None:
            return found
    return [(i, deal_key(d.dealer, d.hands)) for i, d in enumerate(record.deals) if d.hands is not None]
