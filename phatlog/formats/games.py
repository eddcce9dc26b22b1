"""Many games in one text file, one after the other, each ended by a separator line (the text notation).

A line holding only ``%%`` (spaces around it allowed) ends a game; the next game starts on the line after.
The writer puts it between games, with a blank line on either side, and never writes a comment that
holds such a line in braces (it writes that comment as a JSON string), so a file it writes always splits
back into the games it wrote. A file with no separator is one game, as before. Reading is a game at a
time (a text archive of any size is read in constant memory); each game's diagnostics carry the lines of
the whole file, and its :class:`~phatlog.formats.base.Parsed` the line it starts on (None for the only game
of a file).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO, Final

from phatlog.diagnostics import diag
from phatlog.formats import base
from phatlog.formats.base import Parsed

#: The line between two games.
SEPARATOR_LINE: Final = "%%"
#: What the writer puts between two games: a blank line, the separator, a blank line.
SEPARATOR: Final = "\n" + SEPARATOR_LINE + "\n\n"
_SEPARATOR: Final = re.compile(r"^[ \t]*%%[ \t]*\r?$", re.M)


def holds_separator(text: str) -> bool:
    """Whether a text (a comment) holds a line that would read as the separator."""
    return _SEPARATOR.search(text) is not None


def _chunks(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The games of a text given a line at a time (with their line ends): (first line, text)."""
    start, number, held = 1, 0, list[str]()
    for number, line in enumerate(lines, start=1):
        if "%%" in line and _SEPARATOR.fullmatch(line.rstrip("\n")):
            yield start, "".join(held)
            start, held = number + 1, []
        else:
            held.append(line)
    yield start, "".join(held)


def read(parse: Callable[[str], Parsed], lines: Iterable[str]) -> Iterator[Parsed]:
    """Every game of a text (a line at a time), parsed; lines and places are the file's."""
    chunks = _chunks(lines)
    first = next(chunks)
    second = next(chunks, None)
    if second is None:  # one game: as it always was
        yield parse(first[1])
        return
    for start, text in (first, second, *chunks):
        if not text.strip():
            if start == 1:
                continue  # a separator before the first game
            yield Parsed(
                None, [base.syntax("no game here: two separators (%%) with nothing between them", start, 1)], start
            )
            continue
        yield placed(parse(text), start)


def placed(parsed: Parsed, start: int) -> Parsed:
    """A game of a file that holds several, read from its own text (whose line 1 is the file's line
    ``start``): its line and its diagnostics' lines made the file's."""
    parsed.line = start
    parsed.diagnostics = [
        replace(d, line=d.line + start - 1, message=_moved(d.message, d.line, start)) if d.line is not None else d
        for d in parsed.diagnostics
    ]
    return parsed


def _moved(message: str, line: int | None, start: int) -> str:
    """A message that names its line (``(line 3, column 5)``) with the file's line instead."""
    if line is None or start == 1:
        return message
    return message.replace(f"(line {line}, column", f"(line {line + start - 1}, column")


def loads(parse: Callable[[str], Parsed], data: str | bytes) -> Iterator[Parsed]:
    """``loads`` of a format that holds games one after the other."""
    text = base.decode(data)
    if not isinstance(text, str):
        yield Parsed(None, [text])
        return
    if "%%" not in text:  # one game (no separator line can be there): as ``read`` would, without the lines
        yield parse(text)
        return
    yield from read(parse, text.splitlines(keepends=True))


def load(parse: Callable[[str], Parsed], fp: BinaryIO, max_bytes: int) -> Iterator[Parsed]:
    """``load``: the games of a binary file, a game at a time, none larger than ``max_bytes``."""

    def lines() -> Iterator[str]:
        size = 0
        for number, raw in enumerate(fp, start=1):
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            separator = b"%%" in raw and _SEPARATOR.fullmatch(raw.decode("utf-8", "replace").rstrip("\n"))
            size = 0 if separator else size + len(raw)
            if size > max_bytes:
                raise _TooLarge(number)
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise _NotText(number, err.start) from None

    try:
        yield from read(parse, lines())
    except _TooLarge as exc:
        yield Parsed(None, [diag("PL003", f"the game that reaches line {exc.line} is larger than {max_bytes:,} bytes")])
    except _NotText as exc:
        yield Parsed(
            None, [diag("PL002", f"line {exc.line} is not UTF-8 text (byte {exc.byte} of the line)", line=exc.line)]
        )


class _TooLarge(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


class _NotText(Exception):
    def __init__(self, line: int, byte: int) -> None:
        self.line, self.byte = line, byte
