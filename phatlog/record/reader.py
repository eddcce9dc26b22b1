"""Reading records: from bytes to a checked record, or to diagnostics that say what is wrong.

The fast path parses and checks a record in one pass (``wire``). Anything it refuses goes the slow way:
the JSON is parsed on its own (so that a syntax error gets its line and column), the format version is
looked at (a reader refuses a major version it does not know), and the pydantic models list every
problem with its JSON Pointer. Both ways give the same verdict; only the slow one explains it.

Input that is not a JSON document at all (missing, a directory, not JSON, too large, too deep) is
*unreadable* and the CLI exits 2 for it; a JSON document that is not a valid record is a record with
problems (exit 1).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Final, NoReturn

import msgspec

from phatlog.diagnostics import Diagnostic, diag, pointer
from phatlog.record import decoder as wire
from phatlog.record.constants import FORMAT_VERSION, GAMES, READ_VERSIONS, STATUSES_1_1
from phatlog.record.read_limits import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from phatlog.record.read_limits import limit
from phatlog.record.schema import published_schema
from phatlog.record.streams import CorruptInput, compression, decompressed, open_input
from phatlog.rules.cards import CARD_TEXT

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

# The pydantic models are imported only by the slow path (``_slow``), which explains a record the fast
# path refused: a clean record is read without loading pydantic at all (start-up time, issue 16).

UNREADABLE_CODES: Final = frozenset({"PL001", "PL002", "PL003", "PL004", "PL006", "PL007"})
_BOM: Final = b"\xef\xbb\xbf"


@dataclass(slots=True)
class Loaded:
    """One document read: the record (None if it is not a valid one) and what was found."""

    source: str
    record: Any | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def unreadable(self) -> bool:
        return any(d.code in UNREADABLE_CODES for d in self.diagnostics)

    @property
    def names(self) -> list[str]:
        if self.record is None:
            return []
        return [p.name for p in self.record.players]


#: How much is read at a time from a stream or a file of unknown size: memory is never taken from the limit.
CHUNK: Final = 1 << 20


def read_limited(stream: BinaryIO, max_bytes: int, hint: int = CHUNK) -> bytes | None:
    """Everything ``stream`` holds, or None as soon as it holds more than ``max_bytes``.

    Read ``hint`` bytes first (a regular file's size), then a chunk at a time: what is allocated follows
    what is there, never the limit, and reading stops one chunk past the limit.
    """
    max_bytes = limit(max_bytes)
    chunks: list[bytes] = []
    total = 0
    want = max(1, min(hint, CHUNK * 64)) + 1
    while True:
        block = stream.read(min(want, max_bytes + 1 - total))
        if not block:
            return b"".join(chunks)
        chunks.append(block)
        total += len(block)
        if total > max_bytes:
            return None
        want = CHUNK


def read_lines(stream: BinaryIO, max_bytes: int) -> Iterator[tuple[int, bytes | None, int]]:
    """The lines of a stream as (number from 1, the line without its ``\\n``, bytes it took up).

    A line longer than ``max_bytes`` comes as None: it is skipped a chunk at a time, never held whole,
    and the next line is counted as the next line. The one way every line-wise input is read (files,
    standard input, pipes), so that they all agree on line numbers and on what is too long.
    """
    max_bytes = limit(max_bytes)
    number = 0
    while True:
        raw = stream.readline(max_bytes + 1)
        if not raw:
            return
        number += 1
        if raw.endswith(b"\n"):
            yield number, raw[:-1], len(raw)
        elif len(raw) <= max_bytes:  # the last line, with no newline
            yield number, raw, len(raw)
        else:  # over the limit: skip to its end without keeping it
            size = len(raw)
            del raw
            while True:
                more = stream.readline(CHUNK)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield number, None, size


def read_path(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> Loaded:
    """Read one file holding one JSON record. Never raises for bad input.

    Whatever the path is (a file, a pipe, a device), it is read up to the limit and no further: a
    regular file's size is taken from the file, any other is read as a stream.
    """
    source = str(path)
    try:
        if os.path.isdir(path):
            return Loaded(source, None, [diag("PL001", f"{source} is a directory, not a record file")])
        if compression(source) is not None:
            return _read_compressed(source, max_bytes)
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            regular = stat.S_ISREG(st.st_mode)
            if regular and st.st_size > max_bytes:
                return Loaded(
                    source,
                    None,
                    [_too_large(f"{source} is {st.st_size:,} bytes; the limit for one record is {max_bytes:,}")],
                )
            data = read_limited(f, max_bytes, st.st_size if regular else CHUNK)
    except FileNotFoundError:
        return Loaded(source, None, [diag("PL001", f"{source}: no such file")])
    except PermissionError:
        return Loaded(source, None, [diag("PL001", f"{source}: permission denied")])
    except OSError as exc:
        return Loaded(source, None, [unreadable_input(source, exc)])
    if data is None:
        return Loaded(source, None, [_too_large(f"{source} is larger than the limit of {max_bytes:,} bytes")])
    return read_bytes(data, source)


def _read_compressed(source: str, max_bytes: int) -> Loaded:
    """One record in a compressed file, decompressed up to the limit and no further."""
    try:
        with open_input(source) as f:
            data = read_limited(f, max_bytes)
    except OSError as exc:
        return Loaded(source, None, [unreadable_input(source, exc)])
    if data is None:
        return Loaded(source, None, [_too_large(f"{source} holds more than the limit of {max_bytes:,} bytes")])
    return read_bytes(data, source)


def read_bytes_compressed(data: bytes, source: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Loaded:
    """One record from a compressed file's bytes, read already (a cluster's worker reads them), decompressed
    up to the limit."""
    import io

    kind = compression(source)
    assert kind is not None
    try:
        with decompressed(io.BytesIO(data), kind) as f:
            inner = read_limited(f, max_bytes)
    except OSError as exc:
        return Loaded(source, None, [unreadable_input(source, exc)])
    if inner is None:
        return Loaded(source, None, [_too_large(f"{source} holds more than the limit of {max_bytes:,} bytes")])
    return read_bytes(inner, source)


def unreadable_input(source: str, exc: OSError) -> Diagnostic:
    """Why a file cannot be opened or read, as a diagnostic: PL002 for compressed data that does not
    decompress, PL001 for anything else (missing, no permission, no decompressor)."""
    if isinstance(exc, CorruptInput):
        return diag("PL002", f"{source}: {exc}")
    if isinstance(exc, FileNotFoundError):
        return diag("PL001", f"{source}: no such file")
    if isinstance(exc, PermissionError):
        return diag("PL001", f"{source}: permission denied")
    if isinstance(exc, IsADirectoryError):
        return diag("PL001", f"{source} is a directory, not a record file")
    return diag("PL001", f"{source}: {exc.strerror or exc}")


def _too_large(message: str) -> Diagnostic:
    return diag("PL003", f"{message} (see --max-bytes)")


def read_bytes(data: bytes, source: str = "<input>") -> Loaded:
    """Read one JSON record from bytes. Never raises for bad input."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    record = read_plain(data)
    if record is not None:
        return Loaded(source, record)
    return Loaded(source, *_slow(data))


def read_plain(data: bytes) -> Any | None:
    """The record of a document that the fast decoder takes at once (no byte order mark, no key twice):
    :func:`read_bytes`' fast path, for a caller that goes on to :func:`read_bytes` where it gives None."""
    try:
        record = wire.decode(data)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return None
    if record.phatlog == "1.0" and _uses_1_1(record):
        return None  # the reader refuses it, saying why (newer_features)
    return None if wire.maybe_duplicate_keys(data) else record


def _uses_1_1(record: Any) -> bool:
    """Whether a decoded record uses what only format 1.1 has (see :func:`newer_features`)."""
    result = record.result
    if result is not None and (result.by is not None or result.status in STATUSES_1_1):
        return True
    if getattr(record.rules, "revoke_penalty", None) is not None:  # (only the All Fours rules have it)
        return True
    for deal in record.deals:  # noqa: SIM110 - a loop, not ``any``: this runs on every 1.0 record read
        if deal.rulings is not None:
            return True
    return False


def _slow(data: bytes) -> tuple[Any | None, list[Diagnostic]]:
    if not data.strip():
        return None, [diag("PL006", "the input is empty: a record is one JSON object")]
    # The same parser as the fast path, so that both agree on what is JSON and how deep it may nest:
    # NaN and Infinity are not JSON, a number must fit a double (an integer 4300 digits), a string
    # must be Unicode (no unpaired surrogate escapes), and nesting is bounded by the interpreter's stack.
    try:
        obj = msgspec.json.decode(data)
    except RecursionError:
        return None, [_too_deep()]
    except msgspec.DecodeError as exc:
        return None, [_not_json(data, exc)]
    # A key held twice is ambiguous: these parsers keep the last one, others keep the first or refuse.
    # Nothing else is judged on one reading of an ambiguous record: the repeated keys are all reported.
    names = _names(obj)
    repeated = _duplicates(data) if wire.maybe_duplicate_keys(data) else []
    if repeated:
        return None, [d.located(names) for d in repeated]
    version = _check_version(obj)
    if version:
        return None, version
    from pydantic import ValidationError

    from phatlog.record.model import RECORD_ADAPTER

    short = short_tricks(obj)  # format 1.1: only the last trick before a claim may be partly played
    try:
        model = RECORD_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        return None, [d.located(names) for d in _explain(exc.errors(include_url=False), obj) + short]
    if short:
        return None, [d.located(names) for d in short]
    return wire.convert(model.model_dump(exclude_unset=True)), []


#: The fewest cards a whole trick has, by game, as the 1.0 schema had it (Oh Hell: the fewest players).
TRICK_CARDS: Final = {"phat": 4, "nine_card_don": 4, "irish_don": 4, "oh_hell": 3}


def short_tricks(obj: object) -> list[Diagnostic]:
    """PL105 for each trick of a JSON record (decoded, not yet validated) with fewer cards than a whole
    trick, as the 1.0 schema reported it: format 1.1 lets only the last trick of a deal with a claim be
    partly played (read where the fast decoder, which keeps the 1.0 bound, refused)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("deals"), list):
        return []
    game = obj.get("game")
    least = TRICK_CARDS.get(game) if isinstance(game, str) else None
    if least is None:
        return []
    out = []
    for d, deal in enumerate(obj["deals"]):
        tricks = deal.get("tricks") if isinstance(deal, dict) else None
        if not isinstance(tricks, list):
            continue
        found = deal.get("rulings")
        claimed = isinstance(found, list) and any(isinstance(r, dict) and r.get("kind") == "claim" for r in found)
        for t, trick in enumerate(tricks):
            cards = trick.get("cards") if isinstance(trick, dict) else None
            if not isinstance(cards, list) or len(cards) >= least or not cards:
                continue
            if claimed and t == len(tricks) - 1:
                continue
            out.append(
                diag(
                    "PL105",
                    f"the trick has {len(cards)} item(s); {game} needs at least {least} here",
                    f"/deals/{d}/tricks/{t}/cards",
                )
            )
    return out


def _duplicates(data: bytes) -> list[Diagnostic]:
    """A PL109 for every key that one object holds twice or more, with where each occurrence is.

    The diagnostic's line and column are the second occurrence's. A one-line document (an archive's line)
    is placed by column only: the archive's line number is the diagnostic's line."""
    one_line = b"\n" not in data.rstrip()
    out: list[Diagnostic] = []
    for dup in wire.duplicate_keys(data):
        places = [_position(data, offset) for offset in dup.offsets]
        spots = [f"column {col}" if one_line else f"line {line} column {col}" for line, col in places]
        where = " and ".join(spots) if len(spots) == 2 else ", ".join(spots[:-1]) + " and " + spots[-1]
        times = "twice" if len(spots) == 2 else f"{len(spots)} times"
        line, column = places[1]
        out.append(
            diag(
                "PL109",
                f"the key {json.dumps(dup.key)} appears {times} in one object, at {where}: JSON readers differ "
                "on which one counts (most keep the last without a word), so the record is ambiguous; keep one",
                dup.pointer,
                line=line,
                column=column,
            )
        )
    return out


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """The line and column (counting characters, from 1) of a byte offset."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8", errors="replace")) + 1


def _names(obj: object) -> list[str]:
    """The players' names in a record that did not pass the schema, where they can be read."""
    players = obj.get("players") if isinstance(obj, dict) else None
    if not isinstance(players, list):
        return []
    from phatlog.record.model import NAME_MAX

    names = [p["name"] if isinstance(p, dict) and isinstance(p.get("name"), str) else "" for p in players]
    return [n if len(n) <= NAME_MAX else n[:20] + "…" for n in names]  # an over-long name is not echoed whole


def _too_deep() -> Diagnostic:
    return diag("PL004", "the JSON is nested too deeply to read; a record is a few levels deep")


class _Constant(ValueError):
    pass


def _refuse_constant(name: str) -> NoReturn:
    raise _Constant(name)


def _not_json(data: bytes, exc: msgspec.DecodeError) -> Diagnostic:
    """Why the input is not JSON: the standard parser explains syntax errors with a line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return diag("PL002", f"the input is not UTF-8 text (byte {err.start}): a record is a JSON file")
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        # A string that never closes runs to the end of the input: the error names where it started.
        truncated = err.pos >= len(text.rstrip()) or err.msg.startswith("Unterminated string")
        what = "the JSON ends too soon (truncated?)" if truncated else "the input is not valid JSON"
        where = f"at line {err.lineno} column {err.colno}"
        return diag("PL002", f"{what}: {err.msg.removesuffix(' at')} {where}", line=err.lineno, column=err.colno)
    except RecursionError:
        return _too_deep()
    except _Constant as err:
        return _at(data, exc, f"the input is not valid JSON: {err} is not a JSON number")
    except ValueError:
        return _at(data, exc, "the input holds an integer too long to read (more than 4300 digits)")
    if unpaired_surrogate(value):
        return diag(
            "PL002", "the input is not Unicode text: a string holds an unpaired surrogate escape (\\ud800-\\udfff)"
        )
    if "out of range" in str(exc):
        return _at(data, exc, "the input holds a number too large to read (beyond a double's range)")
    return _at(data, exc, f"the input is not valid JSON: {exc}")


def unpaired_surrogate(value: object) -> bool:
    """Whether a decoded JSON value holds a string with an unpaired surrogate (``\\ud800``): not Unicode text."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and any("\ud800" <= ch <= "\udfff" for ch in node):
            return True
    return False


def _at(data: bytes, exc: msgspec.DecodeError, message: str) -> Diagnostic:
    """A PL002 diagnostic, with the line and column where msgspec names the byte it stopped at."""
    found = re.search(r"\(byte (\d+)\)", str(exc))
    if found is None:
        return diag("PL002", message)
    before = data[: int(found.group(1))].decode("utf-8", errors="replace")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    return diag("PL002", f"{message} at line {line} column {column}", line=line, column=column)


def _check_version(obj: object) -> list[Diagnostic]:
    if not isinstance(obj, dict):
        return [diag("PL103", f"a record is a JSON object, not {_json_type(obj)}")]
    version = obj.get("phatlog")
    if version is None:
        if "phatlog" not in obj:
            return [diag("PL101", 'the key "phatlog" (the format version, "1.0") is missing', "/phatlog")]
        return []
    if not isinstance(version, str):
        return [
            diag("PL103", f'"phatlog" is the format version as a string, "1.0", not {_json_type(version)}', "/phatlog")
        ]
    major, dot, minor = version.partition(".")
    if not (dot and _number(major) and _number(minor)):
        return [diag("PL005", f'"{version}" is not a format version ("MAJOR.MINOR", e.g. "1.0")', "/phatlog")]
    known_major, _, known_minor = FORMAT_VERSION.partition(".")
    if int(major) != int(known_major):
        message = f"format version {version} is not one this phatlog reads (it reads {FORMAT_VERSION})"
        return [diag("PL005", message, "/phatlog")]
    if int(minor) > int(known_minor):
        message = f"format version {version} is newer than this phatlog, which reads {FORMAT_VERSION}: upgrade phatlog"
        return [diag("PL005", message, "/phatlog")]
    if version not in READ_VERSIONS:
        written = f"{int(major)}.{int(minor)}"
        return [diag("PL005", f'format version "{version}" is written "{written}"', "/phatlog")]
    if version == "1.0":
        return newer_features(obj)
    return []


def newer_features(obj: dict[str, Any]) -> list[Diagnostic]:
    """What a record that says it is format 1.0 holds of format 1.1 (a deal's ``rulings``, a result's ``by``
    or 1.1 status, a set ``revoke_penalty``), each refused as a 1.0 reader refuses it: an unknown key
    (PL102) or a value not allowed (PL108), saying to write ``"phatlog": "1.1"``. Accepted, such a record
    would change its meaning (and its fingerprint) when a writer gives it its true version."""
    fix = 'it is format 1.1: write "phatlog": "1.1"'
    out: list[Diagnostic] = []
    rules = obj.get("rules")
    if isinstance(rules, dict) and rules.get("revoke_penalty") is not None:
        out.append(diag("PL102", f"a format 1.0 record has no key 'revoke_penalty' ({fix})", "/rules/revoke_penalty"))
    result = obj.get("result")
    if isinstance(result, dict):
        if result.get("by") is not None:
            out.append(diag("PL102", f"a format 1.0 record has no key 'by' in its result ({fix})", "/result/by"))
        status = result.get("status")
        if isinstance(status, str) and status in STATUSES_1_1:
            out.append(diag("PL108", f"a format 1.0 result is never {status!r} ({fix})", "/result/status"))
    deals = obj.get("deals")
    for d, deal in enumerate(deals if isinstance(deals, list) else ()):
        if isinstance(deal, dict) and deal.get("rulings") is not None:
            out.append(diag("PL102", f"a format 1.0 deal has no key 'rulings' ({fix})", f"/deals/{d}/rulings"))
    return out


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) < 10


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)}"
    if isinstance(value, list):
        return "an array"
    return "an object"


# ---------------------------------------------------------------------------- explaining schema errors


_EXPECTED: Final = {
    "int_type": "an integer",
    "int_from_float": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "none_required": "null",
}


def _loc(error: ErrorDetails, obj: Any) -> tuple[list[str | int], str | None]:
    """The error's path in the document (without pydantic's union tags) and the record's game."""
    loc = list(error["loc"])
    game = obj.get("game") if isinstance(obj, dict) else None
    if loc and loc[0] in GAMES and loc[0] == game:
        loc = loc[1:]
    clean: list[str | int] = []
    node = obj
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part not in node and node.get("kind") == part:
            continue  # a ruling's kind: the tag of its union, not a place
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            clean.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int):
            clean.append(part)
            node = node[part] if 0 <= part < len(node) else None
        elif isinstance(part, str) and (not isinstance(node, (dict, list)) or _is_branch(part)):
            continue  # a union branch's name, not a place
        elif isinstance(part, str) and isinstance(node, dict):
            clean.append(part)  # a missing key
            node = None
        else:
            continue
    return clean, game if isinstance(game, str) else None


def _is_branch(part: str) -> bool:
    """Pydantic names the branch of a union in the error's location: ``list[...]``, ``literal[...]``, or a
    model's class (``Penalty``: no key of the format starts with a capital)."""
    return "[" in part or part in ("int", "str", "bool", "list", "dict", "none") or part[:1].isupper()


def _value_at(obj: Any, loc: list[str | int]) -> Any:
    """The document's value at ``loc`` (None where there is none)."""
    node = obj
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def _explain(errors: list[ErrorDetails], obj: Any) -> list[Diagnostic]:
    """One diagnostic a problem: the branches of a union that all failed at one place make one."""
    found: dict[str, list[Diagnostic]] = {}
    for error in errors:
        d = _translate(error, obj)
        found.setdefault(d.pointer, []).append(d)
    out: list[Diagnostic] = []
    for ptr, group in found.items():
        codes = {d.code for d in group}
        if len(group) > 1 and codes <= {"PL103", "PL108", "PL106", "PL105"} and ptr:
            messages = "; or ".join(d.message for d in group)
            out.append(diag("PL108", f"this value fits none of the allowed forms: {messages}", ptr))
        else:
            out.extend(group)
    return out


def _translate(error: ErrorDetails, obj: Any) -> Diagnostic:
    loc, game = _loc(error, obj)
    ptr = pointer(*loc)
    kind: str = error["type"]
    value = error.get("input")
    last = loc[-1] if loc else None
    where = f"{last!r}" if isinstance(last, str) else "this item"
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return diag("PL101", f"the key {last!r} is required here and is missing", ptr)
    if kind == "extra_forbidden":
        allowed = _keys_at(loc[:-1], game, _value_at(obj, loc[:-1]))
        hint = ""
        close = difflib.get_close_matches(str(last), allowed, n=1)
        if close:
            hint = f"; did you mean {close[0]!r}?"
        elif allowed:
            hint = "; the keys here are " + ", ".join(allowed)
        return diag("PL102", f'unknown key {last!r}{hint} (extension data belongs in an "ext" object)', ptr)
    if kind in ("union_tag_invalid", "union_tag_not_found") and loc:
        return _ruling_kind(kind, ctx, loc, value)
    if kind in ("union_tag_invalid",):
        given = game if game is not None else obj.get("game")
        named = json.dumps(given, ensure_ascii=False) if isinstance(given, str) else _json_type(given)
        close = difflib.get_close_matches(str(given), GAMES, n=1) if isinstance(given, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return diag("PL107", f"unknown game {named}{hint}: phatlog knows {', '.join(GAMES)}", "/game")
    if kind == "union_tag_not_found":
        return diag("PL101", f"the key 'game' is required ({', '.join(GAMES)})", "/game")
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        if expected.startswith("'2C'"):
            return diag("PL104", _bad_card(value), ptr)
        return diag("PL108", f"{_json_type(value)} is not allowed for {where}: expected {expected}", ptr)
    if kind in _EXPECTED:
        if kind == "string_type" and _is_card_place(loc):
            return diag("PL104", _bad_card(value), ptr)
        return diag("PL103", f"{where} must be {_EXPECTED[kind]}, not {_json_type(value)}", ptr)
    if kind in ("too_short", "too_long"):
        count = len(value) if isinstance(value, (list, str)) else ctx.get("actual_length")
        lo, hi = ctx.get("min_length"), ctx.get("max_length")
        bound = f"at least {lo}" if kind == "too_short" and lo is not None else f"at most {hi}"
        noun = _noun(last)
        return diag("PL105", f"{noun} has {count} item(s); {game or 'a record'} needs {bound} here", ptr)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        limit = ctx.get("ge", ctx.get("le", ctx.get("gt", ctx.get("lt"))))
        word = "at least" if kind.startswith("greater") else "at most"
        return diag("PL106", f"{where} is {value!r}; it must be {word} {limit}", ptr)
    return diag("PL100", f"{where}: {error.get('msg', kind)}", ptr)


def _ruling_kind(kind: str, ctx: dict[str, Any], loc: list[str | int], value: object) -> Diagnostic:
    """A union tagged below the record (a ruling's ``kind``): an unknown or missing kind, at the ruling's
    ``kind``, in the ruling's words, listing the kinds."""
    key = str(ctx.get("discriminator", "'kind'")).strip("'")
    tags = ", ".join(_ruling_kinds()) or str(ctx.get("expected_tags", "")).replace("'", "")
    ptr = pointer(*loc, key)
    if kind == "union_tag_not_found":
        return diag("PL101", f"the key {key!r} is required: a ruling is one of {tags}", ptr)
    given = value.get(key) if isinstance(value, dict) else ctx.get("tag")
    named = json.dumps(given, ensure_ascii=False) if isinstance(given, str) else _json_type(given)
    close = difflib.get_close_matches(str(given), tags.split(", "), n=1) if isinstance(given, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return diag("PL108", f"unknown ruling kind {named}{hint}: a ruling is one of {tags}", ptr)


def _ruling_kinds() -> list[str]:
    """The kinds of ruling, as the schema names them."""
    for node in published_schema()["$defs"].values():
        for prop in node.get("properties", {}).values():
            for branch in prop.get("anyOf", [prop]):
                found = branch.get("items", {}).get("discriminator", {})
                if found.get("propertyName") == "kind":
                    return list(found["mapping"])
    return []


def _is_card_place(loc: list[str | int]) -> bool:
    return any(p in ("hands", "cards", "undealt", "turnup", "cut") for p in loc if isinstance(p, str))


def _bad_card(value: object) -> str:
    if isinstance(value, str):
        hint = ""
        up = value.strip().upper()
        if up.startswith("10") and len(up) == 3:
            hint = f"; write the ten as T: {'T' + up[2]!r}"
        elif up in CARD_TEXT and up != value:
            hint = f"; write it {up!r}"
        elif len(up) == 2 and up[::-1] in CARD_TEXT:
            hint = f"; rank comes first: {up[::-1]!r}"
        return (
            f"{json.dumps(value)} is not a card: a card is a rank in 23456789TJQKA then a suit in CDHS, "
            f'e.g. "TH" for the ten of hearts{hint}'
        )
    return f'a card is a string such as "TH", not {_json_type(value)}'


def _noun(last: str | int | None) -> str:
    return (
        {
            "hands": "the list of hands",
            "cards": "the trick",
            "players": "the list of players",
            "points": "the points",
            "total": "the totals",
            "deals": "the list of deals",
            "tricks": "the list of tricks",
            "undealt": "the undealt cards",
            "bids": "the bids",
            "taken": "the tricks taken",
        }.get(str(last), "this list")
        if not isinstance(last, int)
        else "this hand"
    )


def _keys_at(loc: list[str | int], game: str | None, here: object = None) -> list[str]:
    """The keys the schema allows in the object at ``loc`` (``here``, the object itself, picks a tagged
    union's branch: a ruling's kind)."""
    schema = published_schema()
    defs = schema["$defs"]

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        return node

    mapping = schema["discriminator"]["mapping"]
    if game not in mapping:
        return []
    node = resolve({"$ref": mapping[game]})
    for part in loc:
        if "anyOf" in node:
            branch = [o for o in node["anyOf"] if o.get("type") != "null"]
            node = resolve(branch[0]) if branch else node
        node = resolve(node)
        if isinstance(part, int):
            node = resolve(node.get("items", {}))
        else:
            node = resolve(node.get("properties", {}).get(part, {}))
    if "anyOf" in node:
        branch = [o for o in node["anyOf"] if o.get("type") != "null"]
        node = resolve(branch[0]) if branch else node
    tagged = node.get("discriminator", {})
    if tagged and isinstance(here, dict) and here.get(tagged.get("propertyName")) in tagged.get("mapping", {}):
        node = resolve({"$ref": tagged["mapping"][here[tagged["propertyName"]]]})  # a ruling: its kind's keys
    return sorted(node.get("properties", {}))
