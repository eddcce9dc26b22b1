"""Records written in the notation their output's name says: what ``select`` and ``simulate`` write.

A name ending in ``.jsonl``/``.ndjson`` (and standard output, a device, a FIFO: anything that is not a
file by its name) gets JSON Lines, one record a line; ``.txt``/``.phat`` the text notation, games
separated by ``%%`` lines; ``.csv`` the long table (a row a deal a side: the score sheet of many records,
read back without loss); ``.json`` one indented record, and ``.openspiel`` one OpenSpiel hand, each for
one record only. Any other name is refused with the names known (:class:`OutputRefused`), and so is a
record the notation cannot carry whole: a file phatlog writes is always one it reads back as it was.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from typing import IO, Any, Final

from phatlog.archive.atomic import STDIO, inherited_fd
from phatlog.record.streams import NOTATIONS, compression

#: The notations records can be written in, with their suffixes.
WRITTEN: Final = dict(NOTATIONS)


class OutputRefused(ValueError):
    """An output phatlog will not write: a name it does not know, or a record its notation cannot carry."""


def known_names() -> str:
    """The output names phatlog knows, for a message."""
    return ", ".join(s for suffixes in WRITTEN.values() for s in suffixes)


def notation_of_output(path: str) -> str:
    """The notation an output's name says (``jsonl`` for standard output and anything that is not a file);
    ``OutputRefused`` for a name phatlog does not know, or a compressed one."""
    if path == STDIO or _stream(path):
        return "jsonl"
    if compression(path) is not None:
        raise OutputRefused(f"{path}: phatlog does not write compressed files; write it uncompressed and compress it")
    lower = path.lower()
    for kind, suffixes in WRITTEN.items():
        if lower.endswith(suffixes):
            return kind
    raise OutputRefused(f"{path}: the notation cannot be told from the name; phatlog writes {known_names()}")


def _stream(path: str) -> bool:
    """Whether ``path`` is something written through rather than a file (a device, a FIFO, /dev/stdout)."""
    if inherited_fd(path) is not None:
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return path.startswith("/dev/")
    return not stat.S_ISREG(mode)  # a directory too: the writer refuses it (atomic.output)


class RecordWriter:
    """Records written one at a time to ``stream`` in ``kind`` (a value :func:`notation_of_output` gives)."""

    def __init__(self, kind: str, stream: IO[str], name: str) -> None:
        self.kind, self.stream, self.name = kind, stream, name
        self.written = 0

    def write_line(self, raw: bytes) -> None:
        """A record given as its JSON (one line of an archive, as it was read)."""
        if self.kind == "jsonl":
            self.stream.write(raw.decode("utf-8") + "\n")
            self.written += 1
            return
        self.write(json.loads(raw))

    def write(self, record: Mapping[str, Any]) -> None:
        """A record given as JSON data; ``OutputRefused`` if the notation cannot carry it whole."""
        from phatlog.formats import json_record, jsonl, openspiel, table, text
        from phatlog.formats.base import ConversionError, canonical

        fmt = {"jsonl": jsonl, "text": text, "csv": table, "json": json_record, "openspiel": openspiel}[self.kind]
        if self.written and not fmt.MANY:
            what = "one JSON record" if self.kind == "json" else "one OpenSpiel hand"
            raise OutputRefused(f"{self.name} holds {what}, and more than one record is written: write .jsonl")
        rec = canonical(record)
        try:
            body, lost = table.render_at(rec, line=self.written + 1) if fmt is table else fmt.render(rec)
        except ConversionError as exc:
            raise OutputRefused(f"{self.name}: {exc.diagnostics[0].message}") from None
        if lost:
            raise OutputRefused(
                f"{self.name} cannot carry everything in the record ({lost[0].message}); write .jsonl, or use "
                "phatlog convert --lossy"
            )
        if self.written:
            self.stream.write(getattr(fmt, "SEPARATOR", ""))
        else:
            self.stream.write(getattr(fmt, "HEAD", ""))
        self.stream.write(body)
        self.written += 1
