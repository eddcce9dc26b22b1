"""A record from whatever the public API takes: a path, bytes, JSON text, a dict or a model.

``load`` gives what the reader gives (a :class:`~phatlog.record.reader.Loaded`: the record as decoded, or
None, with the read diagnostics), for ``verify`` and ``replay``; ``read`` gives the record as a model, or
raises :class:`ReadError` with the diagnostics ``phatlog validate`` would print.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic
from phatlog.record.model import RECORD_ADAPTER
from phatlog.record.reader import Loaded, read_bytes, read_path

#: What ``read``, ``verify``, ``replay`` and ``states`` take.
Source = str | bytes | os.PathLike[str] | Mapping[str, Any] | BaseModel


class ReadError(ValueError):
    """The input is not a readable, valid record; ``diagnostics`` say why (as ``phatlog validate`` would)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0].message if self.diagnostics else "not a record"
        super().__init__(first if len(self.diagnostics) < 2 else f"{first} (and {len(self.diagnostics) - 1} more)")


def load(source: Source) -> Loaded:
    """``source`` read as the reader reads a file: a model as it is, a dict as its JSON, bytes and text
    that open a JSON document as that document, anything else as a path."""
    if isinstance(source, BaseModel):
        return Loaded("<record>", source)
    if isinstance(source, Mapping):
        return read_bytes(json.dumps(source).encode(), "<dict>")
    if isinstance(source, bytes):
        return read_bytes(source, "<bytes>")
    if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
        return read_bytes(source.encode(), "<text>")
    return read_path(source)


def read(source: Source) -> Any:
    """A record (a ``phatlog.record.model`` record: ``PhatRecord``, ``OhHellRecord``, ...) from a path (str or
    Path), bytes, JSON text, or a dict; ``ReadError`` if it is not one."""
    loaded = load(source)
    if loaded.record is None:
        raise ReadError([d.located(()) for d in loaded.diagnostics])
    return as_model(loaded.record)


def as_model(record: Any) -> Any:
    """A record as read (the fast decoder's struct, or a model) as its model."""
    if not isinstance(record, BaseModel):  # the reader's fast path: the same record as the models
        record = RECORD_ADAPTER.validate_python(msgspec.to_builtins(record))
    return record
