"""What every format module shares: the interface, canonical records, diagnostics and small parsers.

A *record* here is a plain JSON-ready ``dict`` in canonical form (:func:`canonical`): the form that
``phatlog`` writes as JSON. Every format module has the same functions:

``loads(data, source)`` / ``load(fp, source)``
    Read text (``str`` or UTF-8 ``bytes``; ``load`` takes a binary file) and yield one :class:`Parsed`
    a record: the canonical record, or ``None`` with diagnostics that say why not. Never raises for bad
    input. Formats that hold one game (``MANY`` false) yield exactly one item.
``losses(record)``
    What writing the record in this format would drop (PL702 diagnostics, one an occurrence, each with a
    JSON Pointer into the record) or cannot write at all (PL703).
``dumps(record, *, lossy=False)`` / ``dump(records, fp, *, lossy=False)``
    Write a record (``dump``: records, to a text stream). Raise :class:`ConversionError` when the format
    cannot represent the record (PL703), or would drop something and ``lossy`` is false (PL702).
``render(rec)``
    The work under ``dumps``: a record already canonical to its text and the list of what was dropped
    (raises :class:`ConversionError` only for what cannot be written at all).

Records are accepted as any mapping or pydantic model that validates as a record; they are made
canonical first, so a caller may pass a record in any valid spelling.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import IO, Any, BinaryIO, Final, NoReturn, Protocol, TypeAlias

import msgspec
from pydantic import BaseModel, ValidationError

from phatlog.diagnostics import Diagnostic, Severity, diag, pointer_parts
from phatlog.record.model import RECORD_ADAPTER, in_key_order
from phatlog.record.reader import DEFAULT_MAX_BYTES, read_bytes, unpaired_surrogate

Record: TypeAlias = dict[str, Any]

_BOM: Final = "\ufeff"


# ---------------------------------------------------------------------------------------- the interface


@dataclass(slots=True)
class Parsed:
    """One record read from some format: the record (None if it could not be made) and what was found."""

    record: Record | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    line: int | None = None
    """Where the record starts in its source (archives: the line; else None)."""

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def losses(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.code == "PL702"]


class ConversionError(ValueError):
    """A record that cannot be written as asked: what stops it, as diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("; ".join(f"{d.code} {d.pointer or '/'}: {d.message}" for d in diagnostics))


class Format(Protocol):
    """The interface of every module in :mod:`phatlog.formats`."""

    @property
    def NAME(self) -> str: ...
    @property
    def SUFFIXES(self) -> tuple[str, ...]: ...
    @property
    def MANY(self) -> bool: ...

    def render(self, rec: Record) -> tuple[str, list[Diagnostic]]: ...
    def loads(self, data: str | bytes, source: str = "<input>") -> Iterator[Parsed]: ...
    def load(self, fp: BinaryIO, source: str = "<input>") -> Iterator[Parsed]: ...
    def losses(self, record: Mapping[str, object] | BaseModel) -> list[Diagnostic]: ...
    def dumps(self, record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str: ...
    def dump(self, records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int: ...


Renderer: TypeAlias = Callable[[Record], tuple[str, list[Diagnostic]]]


def finish(render: Renderer, record: Mapping[str, object] | BaseModel, lossy: bool) -> str:
    """Render a record; refuse it if it cannot be written, or if something is lost and ``lossy`` is false."""
    text, lost = render(canonical(record))
    if lost and not lossy:
        raise ConversionError(lost)
    return text


def losses_of(render: Renderer, record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """What rendering a record would drop, or (PL703) why it cannot be rendered."""
    try:
        return render(canonical(record))[1]
    except ConversionError as exc:
        return exc.diagnostics


def dump_all(
    dumps: Callable[..., str],
    many: bool,
    name: str,
    records: Iterable[Mapping[str, object] | BaseModel],
    fp: IO[str],
    lossy: bool,
) -> int:
    """Write records one after the other; a format that holds one game refuses a second."""
    count = 0
    for record in records:
        if count and not many:
            raise ConversionError([refuse("", f"{name} holds one game; this input holds more than one")])
        fp.write(dumps(record, lossy=lossy))
        count += 1
    return count


def read_all(fp: BinaryIO, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes | Diagnostic:
    """The whole of a binary stream, or a diagnostic if it is larger than the limit."""
    data = fp.read(max_bytes + 1)
    if len(data) > max_bytes:
        return diag("PL003", f"the input is larger than the limit of {max_bytes:,} bytes")
    return data


def load_whole(loads: Callable[[str | bytes, str], Iterator[Parsed]], fp: BinaryIO, source: str) -> Iterator[Parsed]:
    """``load`` for a format that reads its input whole: read the file, then ``loads`` it."""
    data = read_all(fp)
    if isinstance(data, Diagnostic):
        yield Parsed(None, [data])
        return
    yield from loads(data, source)


def parse_whole(parse: Callable[[str], Parsed], data: str | bytes) -> Iterator[Parsed]:
    """``loads`` for a format that reads one game from the whole text: decode it, then ``parse`` it."""
    text = decode(data)
    yield Parsed(None, [text]) if isinstance(text, Diagnostic) else parse(text)


def decode(data: str | bytes | Diagnostic) -> str | Diagnostic:
    """Text from UTF-8 bytes (a byte-order mark dropped), or the diagnostic that says it is not."""
    if isinstance(data, Diagnostic):
        return data
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            return diag("PL002", f"the input is not UTF-8 text (byte {err.start})")
    return data.removeprefix(_BOM)


# ---------------------------------------------------------------------------------------- diagnostics


def syntax(message: str, line: int | None = None, column: int | None = None, ptr: str = "") -> Diagnostic:
    """PL701: text that does not parse; the message says what was expected and what was found."""
    where = f" (line {line}, column {column})" if line is not None and column is not None else ""
    return diag("PL701", message + where, ptr, line=line, column=column)


def loss(ptr: str, message: str) -> Diagnostic:
    """PL702: something the target format cannot carry, dropped."""
    return diag("PL702", message, ptr)


def refuse(ptr: str, message: str) -> Diagnostic:
    """PL703: something the other format cannot represent at all."""
    return diag("PL703", message, ptr)


class Lines:
    """Line and column (both from 1) of a character offset in a text."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(self, pos: int) -> tuple[int, int]:
        line = bisect_right(self.starts, pos)
        return line, pos - self.starts[line - 1] + 1


class Positions:
    """Where each part of a record came from in a text: JSON Pointer to (line, column)."""

    def __init__(self) -> None:
        self.places: dict[str, tuple[int, int]] = {}

    def mark(self, ptr: str, line: int, column: int) -> None:
        self.places.setdefault(ptr, (line, column))

    def locate(self, found: Iterable[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics about the record, given the line and column of the nearest part that has one."""
        out = []
        for d in found:
            if d.line is None:
                parts = pointer_parts(d.pointer)
                while parts:
                    ptr = "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)
                    if ptr in self.places:
                        line, column = self.places[ptr]
                        d = replace(d, line=line, column=column)
                        break
                    parts.pop()
            out.append(d)
        return out


# ---------------------------------------------------------------------------------------- records


_DROP_EMPTY_OBJECTS: Final = frozenset({"event", "result", "score", "rules"})


def _prune(node: object) -> object:
    """Drop what says nothing: empty ``event``/``result``/``score``/``rules`` objects and empty trick lists.

    Extension objects (``ext``) are carried as they are, whatever they hold.
    """
    if isinstance(node, list):
        return [_prune(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, object] = {}
    for key, value in node.items():
        if key == "ext":
            out[key] = value
            continue
        value = _prune(value)
        if key in _DROP_EMPTY_OBJECTS and value == {}:
            continue
        if key == "tricks" and value == []:
            continue
        out[key] = value
    return out


def canonical(record: Mapping[str, object] | BaseModel) -> Record:
    """A record in canonical form, or :class:`ConversionError` with the reader's diagnostics.

    Canonical: keys in the order phatlog writes them (``model.KEY_ORDER``), cards in canonical spelling
    (the models admit no other), integers as integers, and nothing that says nothing: no ``null`` for an absent optional
    value, no empty ``event``, ``result``, ``score`` or ``rules`` object, no empty list of tricks. Values
    written explicitly stay, even where they equal the default (``"hook": false``). Extension objects are
    carried unchanged.
    """
    if isinstance(record, BaseModel):
        model: Any = record  # Any: a model handed in is dumped as the record union the adapter holds
    else:
        try:
            model = RECORD_ADAPTER.validate_python(record)
        except ValidationError:
            raise ConversionError(_explain(record)) from None
    dumped = RECORD_ADAPTER.dump_python(model, mode="json", exclude_unset=True, exclude_none=True)
    pruned = _prune(dumped)
    assert isinstance(pruned, dict)
    result: Record = in_key_order(pruned)
    return result


def _explain(obj: object) -> list[Diagnostic]:
    """The reader's diagnostics for a Python object that is not a valid record."""
    try:
        data = msgspec.json.encode(obj)
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError) as exc:
        return [diag("PL100", f"the record is not JSON data: {exc}")]
    found = read_bytes(data).diagnostics
    return [replace(d, line=None, column=None) for d in found] or [diag("PL100", "the record is not valid")]


def validate(
    obj: Mapping[str, object] | BaseModel, positions: Positions | None = None
) -> tuple[Record | None, list[Diagnostic]]:
    """A built record checked by the models: canonical, or None with diagnostics (placed, if known)."""
    try:
        return canonical(obj), []
    except ConversionError as exc:
        found = exc.diagnostics
    return None, positions.locate(found) if positions is not None else found


def group_key(d: Diagnostic) -> tuple[str, str, str]:
    """Diagnostics of one kind: the same code and message at pointers that differ only in their indices."""
    return d.code, re.sub(r"/\d+(?=/|$)", "/*", d.pointer), d.message


# ---------------------------------------------------------------------------------------- cards

_RANKS: Final = {
    **{r: r for r in "23456789TJQKA"},
    **{r.lower(): r for r in "TJQKA"},
    "10": "T",
}
_SUITS: Final = {
    **{s: s for s in "CDHS"},
    **{s.lower(): s for s in "CDHS"},
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "♧": "C",
    "♢": "D",
    "♡": "H",
    "♤": "S",
}


def parse_card(token: str) -> str | None:
    """A card in any spelling people use, in canonical form; None if the token is not a card.

    Rank then suit or suit then rank; the rank 2-9, T or 10, J, Q, K, A; the suit C, D, H, S or a symbol
    (♣ ♦ ♥ ♠, or the white ♧ ♢ ♡ ♤); letters in either case. ``10H``, ``th``, ``TH``, ``♥T``, ``T♥``,
    ``10♥`` and ``HT`` are all the ten of hearts.
    """
    text = token.replace("\ufe0f", "").replace("\ufe0e", "")
    if not 2 <= len(text) <= 3:
        return None
    for rank_first in (True, False):
        rank_text, suit_text = (text[:-1], text[-1]) if rank_first else (text[1:], text[0])
        rank, suit = _RANKS.get(rank_text), _SUITS.get(suit_text)
        if rank is not None and suit is not None:
            return rank + suit
    return None


# ---------------------------------------------------------------------------------------- numbers

#: The largest magnitude of an integer that any format reader accepts: an unsigned 64-bit integer's.
#: It bounds the work of reading a number (Python refuses ``int()`` of more than 4300 digits, and a
#: long number is slow to convert) and keeps every number one that other tools hold exactly.
INT_MAX: Final = 2**64 - 1
_INT_DIGITS: Final = len(str(INT_MAX))
_INTEGER: Final = re.compile(r"([+-]?)0*([0-9]+?)(?:\.0*)?")
_PLAIN_INTEGER: Final = re.compile(r"([+-]?)0*([0-9]+?)")


class NumberError(ValueError):
    """A number that a reader does not accept: not a whole number, or out of range. The message says
    which, showing at most a few digits of what was found; the reader adds where it was."""


def shown(text: str, limit: int = 24) -> str:
    """A token for a message, shortened in the middle if long: ``'99999…99999' (4301 characters)``."""
    if len(text) <= limit:
        return repr(text)
    half = limit // 2
    return f"{text[:half] + '…' + text[-half:]!r} ({len(text):,} characters)"


def parse_int(text: str, *, fraction: bool = False, signed: bool = True) -> int:
    """A whole number written in decimal digits, with no more than :data:`INT_MAX` in magnitude.

    The one integer parser of every format reader. ``fraction`` also admits a zero fraction (``3.0``,
    as spreadsheets write whole numbers), read exactly from its digits, never through a float;
    ``signed`` admits a leading ``+`` or ``-``. Surrounding white space is ignored. Raises
    :class:`NumberError` for anything else, without converting an over-long number.
    """
    m = (_INTEGER if fraction else _PLAIN_INTEGER).fullmatch(text.strip())
    if m is None or (m[1] and not signed):
        what = "a whole number" if signed else "a whole number without a sign"
        raise NumberError(f"expected {what}, found {shown(text.strip())}")
    digits = m[2]
    if len(digits) > _INT_DIGITS or int(digits) > INT_MAX:
        raise NumberError(f"the number {shown(text.strip())} is out of range: at most {INT_MAX:,} in magnitude")
    return -int(digits) if m[1] == "-" else int(digits)


def _json_int(text: str) -> int:
    return parse_int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NumberError(f"the number {shown(text)} is out of range: beyond a double's range")
    return value


def _json_constant(name: str) -> NoReturn:
    raise NumberError(f"{name} is not a JSON number")


def _json_object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object whose keys are each given once: a repeated key is ambiguous, as in a record (PL109)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {twice!r} is given twice in one object")
    return out


#: The JSON decoder of every format reader (ext objects, metadata values, rule values): numbers bounded
#: as :func:`parse_int` bounds them, no NaN or Infinity, no key given twice. Its errors are ``ValueError``.
JSON: Final = json.JSONDecoder(
    parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant, object_pairs_hook=_json_object
)


def json_loads(text: str) -> Any:
    """One JSON value, the whole text, decoded by :data:`JSON`. Raises ``ValueError`` (a
    ``json.JSONDecodeError`` for a syntax error, a :class:`NumberError` for a number out of range) or
    ``RecursionError``. A string with an unpaired surrogate escape is refused, as the record reader refuses it."""
    value = JSON.decode(text)
    if unpaired_surrogate(value):
        raise ValueError(UNPAIRED)
    return value


#: Why a string with an unpaired surrogate escape is refused (every reader says it the same way).
UNPAIRED: Final = "a string holds an unpaired surrogate escape (\\ud800-\\udfff): it is not Unicode text"


# ---------------------------------------------------------------------------------------- values in text


_RULE_ITEM: Final = re.compile(r'\s*([^\s=,]+)\s*=\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|[^\s,]+)\s*,?')


def parse_rules(text: str) -> dict[str, Any]:
    """Rules written ``key=value key=value``: a value is JSON where it is JSON (121, true, [1,2,3]), else text.

    Items are separated by spaces or commas. Raises ``ValueError`` naming what is not ``key=value``, or
    a number out of range.
    """
    rules: dict[str, Any] = {}
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _RULE_ITEM.match(text, pos)
        if m is None:
            rest = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise ValueError(f"expected key=value, found {rest!r}")
        key, value = m[1], m[2]
        if key in rules:
            raise ValueError(f"the rule {key!r} is given twice")
        try:
            rules[key] = json_loads(value)
        except NumberError as exc:
            raise ValueError(f"the rule {key!r}: {exc}") from None
        except (ValueError, RecursionError):
            rules[key] = value
        pos = m.end()
    return rules


def json_or_text(value: str) -> Any:
    """A value in a rules text: JSON where it is JSON (numbers bounded as :func:`parse_int` says), else
    the text itself (a number out of range stays text, for the schema to refuse)."""
    try:
        parsed: Any = json_loads(value)
    except (ValueError, RecursionError):
        return value
    return parsed


def format_rules(rules: Mapping[str, object]) -> str:
    """Rules as ``key=value`` items, the inverse of :func:`parse_rules`."""
    items = []
    for key, value in rules.items():
        shown = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        items.append(f"{key}={shown}")
    return " ".join(items)


def plain_or_json(value: str) -> str:
    """A string for a ``key: value`` line: as it is when that reads back the same, else as a JSON string."""
    if not value or value != value.strip() or value[0] in '"{[' or any(ord(ch) < 32 or ch == "\x7f" for ch in value):
        return json.dumps(value, ensure_ascii=False)
    return value


def read_plain_or_json(value: str) -> Any:
    """The inverse of :func:`plain_or_json` (and of JSON objects and arrays written as they are).

    Raises ``ValueError`` for text that starts like JSON (``"``, ``{``, ``[``) but is not.
    """
    value = value.strip()
    if value[:1] in ('"', "{", "["):
        return json_loads(value)
    return value
