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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import msgspec
from pydantic import ValidationError

from phatlog import wire
from phatlog.cards import CARD_TEXT
from phatlog.diagnostics import Diagnostic, diag, pointer
from phatlog.model import FORMAT_VERSION, GAMES, RECORD_ADAPTER
from phatlog.schema import published_schema

#: The largest document read, in bytes. A game of a thousand deals is about a megabyte.
DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024
MAX_DEPTH: Final = 64
UNREADABLE_CODES: Final = frozenset({"PL001", "PL002", "PL003", "PL004", "PL006"})
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


def read_path(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> Loaded:
    """Read one file holding one JSON record. Never raises for bad input."""
    source = str(path)
    p = Path(path)
    try:
        if p.is_dir():
            return Loaded(source, None, [diag("PL001", f"{source} is a directory, not a record file")])
        size = p.stat().st_size
        if size > max_bytes:
            return Loaded(
                source,
                None,
                [diag("PL003", f"{source} is {size:,} bytes; the limit for one record is {max_bytes:,} (see --max-bytes)")],
            )
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        return Loaded(source, None, [diag("PL001", f"{source}: no such file")])
    except PermissionError:
        return Loaded(source, None, [diag("PL001", f"{source}: permission denied")])
    except OSError as exc:
        return Loaded(source, None, [diag("PL001", f"{source}: {exc.strerror or exc}")])
    if len(data) > max_bytes:
        return Loaded(source, None, [diag("PL003", f"{source} is larger than the limit of {max_bytes:,} bytes")])
    return read_bytes(data, source)


def read_bytes(data: bytes, source: str = "<input>") -> Loaded:
    """Read one JSON record from bytes. Never raises for bad input."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return Loaded(source, wire.decode(data))
    except (msgspec.DecodeError, RecursionError, ValueError):
        pass
    return Loaded(source, *_slow(data))


def _slow(data: bytes) -> tuple[Any | None, list[Diagnostic]]:
    if not data.strip():
        return None, [diag("PL006", "the input is empty: a record is one JSON object")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [diag("PL002", f"the input is not UTF-8 text (byte {exc.start}): a record is a JSON file")]
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        what = "the JSON ends too soon (truncated?)" if exc.pos >= len(text.rstrip()) else "the input is not valid JSON"
        return None, [diag("PL002", f"{what}: {exc.msg} at line {exc.lineno} column {exc.colno}", line=exc.lineno, column=exc.colno)]
    except RecursionError:
        return None, [diag("PL004", "the JSON is nested too deeply to be a record")]
    if _depth(obj) > MAX_DEPTH:
        return None, [diag("PL004", f"the JSON is nested more than {MAX_DEPTH} levels deep; no record is")]
    version = _check_version(obj)
    if version:
        return None, version
    try:
        model = RECORD_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        return None, [_translate(e, obj) for e in exc.errors(include_url=False)]
    return wire.convert(model.model_dump(exclude_unset=True)), []


def _depth(obj: Any) -> int:
    deepest, stack = 0, [(obj, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        if isinstance(node, dict):
            stack.extend((v, level + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, level + 1) for v in node)
    return deepest


def _check_version(obj: Any) -> list[Diagnostic]:
    if not isinstance(obj, dict):
        return [diag("PL103", f"a record is a JSON object, not {_json_type(obj)}")]
    version = obj.get("phatlog")
    if version is None:
        if "phatlog" not in obj:
            return [diag("PL101", 'the key "phatlog" (the format version, "1.0") is missing', "/phatlog")]
        return []
    if not isinstance(version, str):
        return [diag("PL103", f'"phatlog" is the format version as a string, "1.0", not {_json_type(version)}', "/phatlog")]
    major, dot, minor = version.partition(".")
    if not (dot and major.isdigit() and minor.isdigit()):
        return [diag("PL005", f'"{version}" is not a format version ("MAJOR.MINOR", e.g. "1.0")', "/phatlog")]
    if major != FORMAT_VERSION.split(".")[0]:
        return [diag("PL005", f"format version {version} is not one this phatlog reads (it reads {FORMAT_VERSION})", "/phatlog")]
    if version != FORMAT_VERSION:
        return [diag("PL005", f"format version {version} is newer than this phatlog, which reads {FORMAT_VERSION}: upgrade phatlog", "/phatlog")]
    return []


def _json_type(value: Any) -> str:
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


def _loc(error: dict[str, Any], obj: Any) -> tuple[list[str | int], str | None]:
    """The error's path in the document (without pydantic's union tags) and the record's game."""
    loc = list(error["loc"])
    game = obj.get("game") if isinstance(obj, dict) else None
    if loc and loc[0] in GAMES and loc[0] == game:
        loc = loc[1:]
    clean: list[str | int] = []
    node = obj
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            clean.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int):
            clean.append(part)
            node = node[part] if 0 <= part < len(node) else None
        elif isinstance(part, str) and not isinstance(node, (dict, list)):
            continue  # a union branch's name, not a place
        elif isinstance(part, str) and isinstance(node, dict):
            clean.append(part)  # a missing key
            node = None
        else:
            continue
    return clean, game if isinstance(game, str) else None


def _translate(error: dict[str, Any], obj: Any) -> Diagnostic:
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
        allowed = _keys_at(loc[:-1], game)
        hint = ""
        close = difflib.get_close_matches(str(last), allowed, n=1)
        if close:
            hint = f"; did you mean {close[0]!r}?"
        elif allowed:
            hint = "; the keys here are " + ", ".join(allowed)
        return diag("PL102", f"unknown key {last!r}{hint} (extension data belongs in an \"ext\" object)", ptr)
    if kind in ("union_tag_invalid",):
        return diag("PL107", f"unknown game {_json_type(game if game is not None else obj.get('game'))}: phatlog knows {', '.join(GAMES)}", "/game")
    if kind == "union_tag_not_found":
        return diag("PL101", f"the key 'game' is required ({', '.join(GAMES)})", "/game")
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        if expected.startswith("'2C'"):
            return diag("PL104", _bad_card(value), ptr)
        return diag("PL108", f"{_json_type(value)} is not allowed for {where}: expected {expected}", ptr)
    if kind in _EXPECTED:
        if kind == "string_type" and _is_card_place(loc) or (kind == "literal_error"):
            return diag("PL104", _bad_card(value), ptr)
        return diag("PL103", f"{where} must be {_EXPECTED[kind]}, not {_json_type(value)}", ptr)
    if kind in ("too_short", "too_long"):
        count = len(value) if isinstance(value, (list, str)) else ctx.get("actual_length")
        lo, hi = ctx.get("min_length"), ctx.get("max_length")
        if kind == "too_short" and lo is not None:
            bound = f"at least {lo}"
        else:
            bound = f"at most {hi}"
        noun = _noun(last)
        return diag("PL105", f"{noun} has {count} item(s); {game or 'a record'} needs {bound} here", ptr)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        limit = ctx.get("ge", ctx.get("le", ctx.get("gt", ctx.get("lt"))))
        word = "at least" if kind.startswith("greater") else "at most"
        return diag("PL106", f"{where} is {value!r}; it must be {word} {limit}", ptr)
    return diag("PL100", f"{where}: {error.get('msg', kind)}", ptr)


def _is_card_place(loc: list[str | int]) -> bool:
    return any(p in ("hands", "cards", "undealt", "turnup", "cut") for p in loc if isinstance(p, str))


def _bad_card(value: Any) -> str:
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
            f"e.g. \"TH\" for the ten of hearts{hint}"
        )
    return f"a card is a string such as \"TH\", not {_json_type(value)}"


def _noun(last: str | int | None) -> str:
    return {
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
    }.get(str(last), "this list") if not isinstance(last, int) else "this hand"


def _keys_at(loc: list[str | int], game: str | None) -> list[str]:
    """The keys the schema allows in the object at ``loc``."""
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
    return sorted(node.get("properties", {}))
