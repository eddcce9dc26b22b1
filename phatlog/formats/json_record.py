"""One game as one JSON document (``.json``): the record format itself, written canonically.

Reading goes through :mod:`phatlog.record.reader`, so a document that is not a valid record gets exactly the
diagnostics that ``phatlog validate`` gives it. Writing is canonical (:func:`phatlog.formats.base.canonical`)
and laid out for people: an object or array that fits on a line of 100 characters and nests at most
two deep (a trick, a hand, a score) is written on one line, anything larger one item a line, indented by
two spaces. Nothing is ever lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, BinaryIO, Final

import msgspec
from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import base
from phatlog.formats.base import ConversionError, Parsed, Record
from phatlog.record import decoder as wire
from phatlog.record.constants import version_for
from phatlog.record.reader import read_bytes

NAME: Final = "json"
SUFFIXES: Final = (".json",)
MANY: Final = False
WIDTH: Final = 100


def parse_bytes(raw: bytes, source: str = "<input>") -> Parsed:
    """One JSON record: canonical, or None with the reader's diagnostics."""
    fast = wire.canonical_record(raw.removeprefix(b"\xef\xbb\xbf"))  # no model built unless needed
    if fast is not None and not _newer_than_it_says(fast):
        return Parsed(fast)
    try:
        obj = msgspec.json.decode(raw.removeprefix(b"\xef\xbb\xbf"))
        record = base.canonical(obj)
        if not _newer_than_it_says(record):
            return Parsed(record)
    except (msgspec.DecodeError, RecursionError, ConversionError):
        pass
    found = read_bytes(raw, source).diagnostics
    return Parsed(None, found or [diag("PL100", "the document is not a valid record")])


def _newer_than_it_says(record: Record) -> bool:
    """A record that says it is format 1.0 but uses what only 1.1 has: the reader refuses it, saying why
    (PL102, as ``verify`` does), rather than pass it on to be written as something it is not."""
    return record.get("phatlog") == "1.0" and version_for(record) != "1.0"


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read one JSON record."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as err:
            yield Parsed(None, [diag("PL002", f"the input is not Unicode text (character {err.start})")])
            return
    yield parse_bytes(data, source)


def load(fp: BinaryIO, source: str = "<input>") -> Iterator[Parsed]:
    """Read one JSON record from a binary file."""
    return base.load_whole(loads, fp, source)


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record as a JSON document (nothing is lost)."""
    return pretty(rec) + "\n", []


def losses(record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """JSON carries every record whole: nothing is ever lost."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str:
    """A record as a canonical JSON document."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write one record as a canonical JSON document."""
    return base.dump_all(dumps, MANY, NAME, records, fp, lossy)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def pretty(value: object, level: int = 0) -> str:
    """JSON for people: small containers on one line, larger ones one item a line."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value:
        return flat
    if _depth(value) <= 2 and len(flat) + 2 * level <= WIDTH:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    rows = [pad + pretty(v, level + 1) for v in value]
    return "[\n" + ",\n".join(rows) + "\n" + "  " * level + "]"
