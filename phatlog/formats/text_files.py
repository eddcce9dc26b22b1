"""A file in the text notation read for ``verify`` and ``validate``, a game at a time.

A file holds one game, or many ended by ``%%`` lines. Each game is read by the fast path
(:func:`phatlog.formats.text_fast.wire_record`: the structs ``verify`` checks, no pydantic); a game it
declines is read by the full reader (:mod:`phatlog.formats.text`, loaded only then), which gives every
diagnostic. The games, lines and read diagnostics are those ``formats.games.load`` gives (``convert``), but
streamed: where a game too large or a line not UTF-8 ends the reading, the games before it have been
given already.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, Final

import msgspec

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import text_fast
from phatlog.record.reader import Loaded, read_bytes, unreadable_input
from phatlog.record.streams import compression, decompressed, open_input


def read_games(path: str, max_bytes: int) -> Iterator[tuple[int | None, Loaded]]:
    """Every game of a text file, read for ``verify``: (the line it starts on, None for the only game of a
    file; the game as the JSON reader gives a record). The games, lines and read diagnostics that
    ``formats.games.load`` gives (``convert``), none larger than ``max_bytes``; but streamed: where a game
    too large or a line not UTF-8 ends the reading, the games before it have been given already."""
    try:
        f = open_input(path)  # decompressed where the name says so (games.txt.gz)
    except OSError as exc:
        yield None, Loaded(path, None, [unreadable_input(path, exc)])
        return
    with f:
        yield from _games_until_failure(_chunks(f, max_bytes), path)


def games_of(data: bytes, source: str, max_bytes: int) -> Iterator[tuple[int | None, Loaded]]:
    """The games of a text file's bytes already read (a cluster's worker reads them through fsspec), as
    :func:`read_games` gives them."""
    kind = compression(source)
    f: BinaryIO = io.BytesIO(data) if kind is None else decompressed(io.BytesIO(data), kind)
    yield from _games_until_failure(_chunks(f, max_bytes), source)


def _games_until_failure(
    chunks: Iterator[tuple[int, bytes | Loaded]], source: str
) -> Iterator[tuple[int | None, Loaded]]:
    """:func:`_games`, with a read that fails (compressed data that does not decompress) as its diagnostic."""
    try:
        yield from _games(chunks, source)
    except OSError as exc:
        yield None, Loaded(source, None, [unreadable_input(source, exc)])


def _games(chunks: Iterator[tuple[int, bytes | Loaded]], source: str) -> Iterator[tuple[int | None, Loaded]]:
    """The games of a file in the text notation, from its :func:`_chunks` (see :func:`read_games`). Reading
    stops at a game too large or a line not UTF-8 (the games before it are checked, as they are read)."""
    first = next(chunks)
    second = next(chunks, None)
    if second is None:  # one game: its lines are its own
        yield None, _game(first[1], source, None)
        return
    for start, data in itertools.chain((first, second), chunks):
        if isinstance(data, Loaded):  # the reading stops: its diagnostic has its line
            yield None, Loaded(source, None, data.diagnostics)
            return
        if not data.decode("utf-8").strip():  # as formats.games reads: str space, not only ASCII
            if start == 1:
                continue  # a separator before the first game
            message = "no game here: two separators (%%) with nothing between them"
            yield (
                start,
                Loaded(source, None, [diag("PL701", f"{message} (line {start}, column 1)", line=start, column=1)]),
            )
            continue
        yield start, _game(data, source, start)


#: A separator line, found in a block of a file's bytes (``formats.games``: spaces around ``%%`` allowed).
_SEPARATOR_LINE: Final = re.compile(rb"^[ \t]*%%[ \t]*\r?$", re.M)
#: How much of a file is read at a time.
BLOCK: Final = 1 << 20


def _chunks(f: BinaryIO, max_bytes: int) -> Iterator[tuple[int, bytes | Loaded]]:
    """(first line, the game's bytes) for every game of the file, or a :class:`Loaded` with the
    diagnostic that ends the reading (a line not UTF-8, a game too large). Read a block at a time: the
    separators found with one pattern, no Python a line; at most a game and a block are held."""
    start, buf, first = 1, b"", True
    while True:
        block = f.read(BLOCK)
        if first:
            block, first = block.removeprefix(b"\xef\xbb\xbf"), False
        buf += block
        done = buf.rfind(b"\n") + 1 if block else len(buf)  # complete lines (at the end: all)
        pos = 0
        for m in _SEPARATOR_LINE.finditer(buf, 0, done):
            game = buf[pos : m.start()]
            if len(game) > max_bytes:
                yield start, _too_large(game, start, max_bytes)
                return
            yield start, _held(game, start)
            start += game.count(b"\n") + 1
            pos = m.end() + 1
        buf = buf[pos:]
        if len(buf) > max_bytes:
            yield start, _too_large(buf, start, max_bytes)
            return
        if not block:
            yield start, _held(buf, start)
            return


def _too_large(game: bytes, start: int, max_bytes: int) -> Loaded:
    """A game larger than the limit: the PL003 of the line that goes past it, or the PL002 of a line
    before it that is not UTF-8 (as ``formats.games.load`` reads, a line at a time)."""
    line = start + game.count(b"\n", 0, max_bytes)
    before = _held(game[: game.rfind(b"\n", 0, max_bytes) + 1], start)
    if isinstance(before, Loaded):
        return before
    return Loaded("", None, [diag("PL003", f"the game that reaches line {line} is larger than {max_bytes:,} bytes")])


def _held(data: bytes, start: int) -> bytes | Loaded:
    """A game's bytes, or the PL002 of its first line that is not UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        for number, raw in enumerate(data.split(b"\n"), start=start):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as err:
                message = f"line {number} is not UTF-8 text (byte {err.start} of the line)"
                return Loaded("", None, [diag("PL002", message, line=number)])
        raise  # not reached: some line does not decode
    return data


@dataclass(slots=True)
class TextGame(Loaded):
    """A game of a text file read for ``verify``, with its text and the line it starts on (None: the only
    game of its file), so that what the referee finds can be placed on the file's lines (:meth:`place`)."""

    text: str = ""
    start: int | None = None

    def place(self, found: list[Diagnostic]) -> list[Diagnostic]:
        """``found`` (about this game's record) with the line and column of the part of the text each
        concerns, on the file's lines; one about the whole record, on the line the game starts on."""
        from phatlog.formats.text import locate  # the full reader: only for a game with problems

        out = []
        for before, after in zip(found, locate(self.text, found), strict=True):
            if before.line is None and self.start is not None:
                line = self.start if after.line is None else after.line + self.start - 1
                after = replace(after, line=line)
            out.append(after)
        return out


def _game(data: bytes | Loaded, source: str, start: int | None) -> Loaded:
    """One game: the fast path's record, or the full reader's (loaded only now), placed on the file's lines."""
    if isinstance(data, Loaded):
        return Loaded(source, None, data.diagnostics)
    text = data.decode("utf-8")
    struct = text_fast.wire_record(text)
    if struct is not None:
        return TextGame(source, struct, [], text, start)
    from phatlog.formats import games
    from phatlog.formats.text import full_parse  # the full reader: only for a game the fast path declined

    parsed = full_parse(text)
    if start is not None:
        parsed = games.placed(parsed, start)
    if parsed.record is None:
        return Loaded(source, None, parsed.diagnostics)
    loaded = read_bytes(msgspec.json.encode(parsed.record), source)
    return TextGame(source, loaded.record, loaded.diagnostics, text, start)
