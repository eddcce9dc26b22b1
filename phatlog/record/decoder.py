"""The fast path: a msgspec decoder compiled from the published schema.

Checking a record with a general JSON Schema validator costs far more than parsing it. This module
compiles the schema (the subset that the models generate: objects with fixed keys, arrays with length
bounds, enums, integer ranges, strings, booleans, nullable values, free extension objects and the
top-level union on ``game``) into msgspec types, so that parsing and checking are one pass in C.

The compiled decoder accepts only what the schema accepts; it may refuse more (``3.0`` for an integer,
an integer beyond 64 bits). The reader treats any refusal as "look closer" and asks the pydantic models
for the full, authoritative list of problems, so the fast path changes the speed, never the verdict.
Tests check the three against each other on every sample and on generated invalid records.

Decoded records are msgspec structs with the models' field names, so the engine reads them exactly as
it reads model instances.

msgspec, like ``json``, keeps the last of a repeated key without a word. A record with a repeated key is
ambiguous (JSON readers differ on which one counts), so the reader refuses it: ``maybe_duplicate_keys``
is the cheap check every record pays (a scan in C where the optional extension is built), and
``duplicate_keys`` finds each repeated key and where it is, for the few records that need it.
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Final, Literal, Optional, Union

import msgspec

from phatlog._native import kernel
from phatlog.record.schema import published_schema


class _Compiler:
    def __init__(self, schema: dict[str, Any], canonical: bool = False, whole_tricks: bool = False) -> None:
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.structs: dict[str, Any] = {}
        self.canonical = canonical  # compile the types of ``canonical_record`` (see there)
        # The fast decoder's tricks are whole: format 1.1 lets the last trick before a claim be partly
        # played, and a short trick is left to the reader's slow path (``reader.short_tricks``).
        self.whole_tricks = whole_tricks

    def type_of(self, node: dict[str, Any], name: str = "Anon", tag: tuple[str, str] | None = None) -> Any:
        if "$ref" in node:
            ref = node["$ref"].rsplit("/", 1)[-1]
            return self.ref(ref, tag)
        if "oneOf" in node:  # the record: a union tagged by ``game``
            prop = node["discriminator"]["propertyName"]
            mapping = node["discriminator"]["mapping"]
            members = [self.ref(target.rsplit("/", 1)[-1], tag=(prop, value)) for value, target in mapping.items()]
            return Union[tuple(members)]
        if "anyOf" in node:
            options = [o for o in node["anyOf"] if o != {"type": "null"}]
            inner = [self.type_of(o, name) for o in options]
            base = Union[tuple(inner)] if len(inner) > 1 else inner[0]
            nullable = len(options) < len(node["anyOf"]) and not self.canonical
            return Optional[base] if nullable else base
        if "enum" in node:
            return Literal[tuple(node["enum"])]
        if "const" in node:
            return Literal[node["const"]]
        kind = node.get("type")
        if kind == "integer":
            return Annotated[int, msgspec.Meta(ge=node.get("minimum"), le=node.get("maximum"))]
        if kind == "string":
            return Annotated[str, msgspec.Meta(min_length=node.get("minLength"), max_length=node.get("maxLength"))]
        if kind == "boolean":
            return bool
        if kind == "array":
            item = self.type_of(node["items"], name)
            return Annotated[list[item], msgspec.Meta(min_length=node.get("minItems"), max_length=node.get("maxItems"))]  # type: ignore[valid-type]
        if kind == "object" and "properties" not in node:
            return dict[str, Any]
        if kind == "object":
            return self.struct(name, node, tag)
        raise ValueError(f"the fast decoder cannot compile schema node {node!r}")

    def ref(self, name: str, tag: tuple[str, str] | None = None) -> Any:
        key = name
        if key not in self.structs:
            self.structs[key] = self.type_of(self.defs[name], name, tag)
        return self.structs[key]

    def struct(self, name: str, node: dict[str, Any], tag: tuple[str, str] | None) -> Any:
        if self.canonical:
            return self.canonical_struct(name, node, tag)
        required = set(node.get("required", ()))
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
        optional: list[tuple[str, Any, Any]] = []
        for key, sub in node["properties"].items():
            if tag is not None and key == tag[0]:
                continue  # the union's tag is read by msgspec itself
            if self.whole_tricks and key == "cards" and name.startswith("Trick"):
                sub = {**sub, "minItems": 4 if name == "Trick4" else 3}
            ftype = self.type_of(sub, f"{name}_{key}")
            if key in required:
                fields.append((key, ftype))
            else:
                optional.append((key, ftype, self.default(ftype, sub.get("default"))))
        if node.get("additionalProperties", True) is not False:
            raise ValueError(f"{name}: the fast decoder needs closed objects")
        # Frozen and made only by decoding, a record's structs hold no reference cycle: the cycle
        # collector need not track them (``gc=False``), which spares it most of what a verify allocates.
        options: dict[str, Any] = {"forbid_unknown_fields": True, "frozen": True, "gc": False}
        if tag is not None:
            options.update(tag_field=tag[0], tag=tag[1])
        return msgspec.defstruct(name, [*fields, *optional], **options)

    def canonical_struct(self, name: str, node: dict[str, Any], tag: tuple[str, str] | None) -> Any:
        """A struct whose fields are in the order phatlog writes them and whose optional fields are
        ``UNSET`` unless given, so that ``msgspec.to_builtins`` gives the canonical form's keys."""
        from phatlog.record.model import KEY_ORDER

        kind = next((k for k, test in _KINDS.items() if test(name)), None)
        first = [k for k in KEY_ORDER[kind] if k in node["properties"]] if kind else []
        order = first + [k for k in node["properties"] if k not in first]
        required = set(node.get("required", ()))
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
        for key in order:
            if tag is not None and key == tag[0]:
                continue
            ftype = self.type_of(node["properties"][key], f"{name}_{key}")
            if (
                key == "tricks" and kind == "deal"
            ):  # an empty list of tricks: dropped by the canonical form, so the models decide
                ftype = Annotated[ftype, msgspec.Meta(min_length=1)]
            fields.append((key, ftype) if key in required else (key, Union[ftype, msgspec.UnsetType], msgspec.UNSET))
        # (untracked by the cycle collector, as the fast decoder's structs are: see ``struct``)
        options: dict[str, Any] = {"forbid_unknown_fields": True, "frozen": True, "kw_only": True, "gc": False}
        if tag is not None:
            options.update(tag_field=tag[0], tag=tag[1])
        return msgspec.defstruct(f"Canonical{name}", fields, **options)

    @staticmethod
    def default(ftype: Any, value: Any) -> Any:
        if isinstance(value, (dict, list)):
            return msgspec.field(default_factory=lambda: msgspec.convert(value, ftype))
        return value


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back (blocked, then delivered) while msgspec builds types and decoders: its
    C code calls back into Python, and an exception raised there by a stop signal's handler is not
    unwound safely (the process hung or crashed). Where signals cannot be blocked, nothing is held."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:
        yield
        return
    before = block(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)


@cache
def record_type() -> Any:
    """The msgspec type of a record, compiled from the published schema (every trick whole: see
    ``_Compiler.whole_tricks``)."""
    with _signals_held():
        return _Compiler(published_schema(), whole_tricks=True).type_of(published_schema())


@cache
def _partly_played_type() -> Any:
    """The record type that also holds a trick partly played (format 1.1, the last before a claim)."""
    with _signals_held():
        return _Compiler(published_schema()).type_of(published_schema())


@cache
def decoder() -> msgspec.json.Decoder[Any]:
    kind = record_type()
    with _signals_held():
        return msgspec.json.Decoder(kind)


def decode(data: bytes | str) -> Any:
    """Parse and check one record in one pass; raises ``msgspec.DecodeError`` for anything it refuses."""
    return decoder().decode(data)


def convert(obj: Any) -> Any:
    """A record from Python data (for instance a model dump) as the fast path's structs (the models have
    checked it: a record with a trick partly played before a claim is made of the lenient type's)."""
    try:
        return msgspec.convert(obj, record_type())
    except msgspec.ValidationError:
        return msgspec.convert(obj, _partly_played_type())


# ---------------------------------------------------------------------------- the canonical form, fast

#: The kinds of object whose keys phatlog writes in its own order (``model.KEY_ORDER``), by definition name.
_KINDS: Final[dict[str, Callable[[str], bool]]] = {
    "record": lambda name: name.endswith("Record"),
    "deal": lambda name: name.endswith("Deal"),
    "trick": lambda name: name.startswith("Trick"),
    "score": lambda name: name.startswith("Score"),
    "result": lambda name: name == "Result",
    "ruling": lambda name: name in ("Claim", "Revoke", "Misdeal", "Adjustment"),
}


#: The record's objects that the canonical form leaves out when empty (``formats.base._prune``).
_PRUNED: Final = frozenset({"event", "result", "rules"})


@cache
def _canonical_decoder() -> msgspec.json.Decoder[Any]:
    from phatlog.record.model import KEY_ORDER  # noqa: F401 - imported here, not while signals are held

    with _signals_held():
        return msgspec.json.Decoder(_Compiler(published_schema(), canonical=True).type_of(published_schema()))


def canonical_record(data: bytes) -> dict[str, Any] | None:
    """The canonical form of the record in ``data`` (``formats.base.canonical`` of it), without the models;
    None where anything might differ, for the models to decide.

    Taken: what the fast path accepts (so the models do), with no repeated key, no ``null`` (the models'
    dump drops it), no integral fraction such as ``3.0`` (they make it ``3``) and no empty
    list of tricks. Then the canonical form is the given data, keys in phatlog's order (which these
    structs hold), less an empty ``event``, ``result``, ``rules`` or ``score`` (issue 16: convert without
    building a model). ``tests/test_convert_fast.py`` holds it to the models.
    """
    try:
        struct = _canonical_decoder().decode(data)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return None
    if maybe_duplicate_keys(data):
        return None
    body = msgspec.to_builtins(struct)
    for deal in body["deals"]:
        if deal.get("score") == {}:
            del deal["score"]
    from phatlog.record.model import KEY_ORDER

    # The tag came first: put it in its place; an empty event, result or rules says nothing: dropped.
    head = {key: body[key] for key in KEY_ORDER["record"] if key in body and not (key in _PRUNED and body[key] == {})}
    head.update((key, value) for key, value in body.items() if key not in KEY_ORDER["record"])
    return head


# ---------------------------------------------------------------------------- repeated keys


_C_SCAN: Final = kernel("maybe_duplicate_keys")  # the C scan for repeated keys, or None


class _Repeated(Exception):
    pass


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1 and len({k for k, _ in pairs}) != len(pairs):
        raise _Repeated
    # None: the object itself is not needed, only whether any object repeats a key.


def maybe_duplicate_keys(data: bytes) -> bool:
    """Whether some object of this JSON document (one a parser accepted) may hold a key twice: False for
    certainly not. The C scan costs a few percent of a parse; without it, the standard parser is run again."""
    if _C_SCAN is not None:
        return bool(_C_SCAN(data))
    try:
        json.loads(data, object_pairs_hook=_refuse_repeats)
    except (_Repeated, ValueError, RecursionError):
        return True  # repeated, or this parser cannot tell: ``duplicate_keys`` decides
    return False


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    """A key that one object holds more than once: the JSON Pointer of the member, and the byte offset of
    each occurrence of the key (its opening quote), in order."""

    pointer: str
    key: str
    offsets: tuple[int, ...]


_WS: Final = re.compile(rb"[ \t\r\n]*")
_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR: Final = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")


def duplicate_keys(data: bytes) -> list[DuplicateKey]:
    """Every key held twice or more by one object of this JSON document (which a parser has accepted), in
    the order of their first occurrence. Keys are compared as decoded, so ``"a"`` and ``"\\u0061"`` are
    one key. No recursion: nesting is as deep as the parser allowed."""
    from phatlog.diagnostics import pointer

    found: list[DuplicateKey] = []
    path: list[str | int] = []  # where the value being read is
    frames: list[dict[str, list[int]] | None] = []  # an object's keys and their offsets; None: an array
    i = 0
    expect = "value"
    n = len(data)
    while True:
        i = _WS.match(data, i).end()  # type: ignore[union-attr]
        if i >= n:
            break
        c = data[i : i + 1]
        if expect == "key":
            m = _STRING.match(data, i)
            if m is None:
                break
            key: str = json.loads(m.group().decode("utf-8", errors="surrogateescape"))
            seen = frames[-1]
            assert seen is not None
            seen.setdefault(key, []).append(i)
            path.append(key)
            i = _WS.match(data, m.end()).end()  # type: ignore[union-attr]
            i += 1  # the colon
            expect = "value"
            continue
        if expect == "value":
            if c == b"{":
                frames.append({})
                i = _WS.match(data, i + 1).end()  # type: ignore[union-attr]
                if data[i : i + 1] == b"}":
                    frames.pop()
                    i += 1
                    expect = "after"
                else:
                    expect = "key"
                continue
            if c == b"[":
                frames.append(None)
                i = _WS.match(data, i + 1).end()  # type: ignore[union-attr]
                if data[i : i + 1] == b"]":
                    frames.pop()
                    i += 1
                    expect = "after"
                else:
                    path.append(0)
                continue
            m = _STRING.match(data, i) if c == b'"' else _SCALAR.match(data, i)
            if m is None:
                break
            i = m.end()
            expect = "after"
            continue
        # After a value: a comma or the end of its object or array.
        if not frames:
            break
        top = frames[-1]
        last = path.pop()
        if c == b",":
            i += 1
            if top is None:
                assert isinstance(last, int)
                path.append(last + 1)
                expect = "value"
            else:
                expect = "key"
            continue
        frames.pop()
        i += 1
        if top is not None:
            for name, offsets in top.items():
                if len(offsets) > 1:
                    found.append(DuplicateKey(pointer(*path, name), name, tuple(offsets)))
        expect = "after"
    return sorted(found, key=lambda d: d.offsets[0])
