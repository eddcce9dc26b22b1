"""The inputs a command is given, as the files to read: the one place every command's file list goes through.

A command takes files, directories and ``-`` (standard input):

- a **directory** stands for every record file under it (``.json``, ``.jsonl``, ``.ndjson``, each also
  compressed: ``.jsonl.gz``, ...), walked
  recursively in a stable order: names sorted by code point, a directory's files before its
  subdirectories; names starting with ``.`` are skipped, and symbolic links to directories are not
  followed (no loops). A directory that holds no record file is reported (PL006).
- a **pattern** (``games/*.json``) that names no file is one the shell passed as it was because it
  matched nothing: it is reported once (PL001), not read as a file of that name. A pattern that does
  match (quoted, or from a shell that does not expand) stands for its matches, sorted.
- ``FILE:N`` (no file of that very name, and ``FILE`` exists) stands for the record of ``FILE`` that
  starts on line N, the line ``verify`` names;
- anything else is passed on as it is: the reader explains a missing file.

No printing here: a problem is a :class:`Unmatched` item in the sequence, in its place.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.streams import inner_name

#: The file names a directory walk takes as records: one record (.json) or one record a line.
#: A file named so is a JSON Lines archive, one record a line (any other name: one record).
JSONL_SUFFIXES: Final = (".jsonl", ".ndjson")
#: A file named so holds games in the text notation (docs/text-notation.md), read a game at a time.
TEXT_SUFFIXES: Final = (".txt", ".phat")
#: What a directory is walked for (text notation files are named, not picked up: a README.txt is no game).
RECORD_SUFFIXES: Final = (".json", *JSONL_SUFFIXES)
_MAGIC: Final = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class Unmatched:
    """An input that stands for no file: a pattern that matched nothing, or a directory without records."""

    path: str
    diagnostic: Diagnostic


def expand(paths: Iterable[str]) -> Iterator[str | Unmatched]:
    """The files ``paths`` stand for, in order (directories walked, patterns matched), with an
    :class:`Unmatched` in place of an input that stands for none. A pattern that matches nothing is
    reported once however often it is given."""
    reported: set[str] = set()
    for path in paths:
        if path == "-":
            yield path
        elif os.path.isdir(path):
            found = False
            for file in walk(path):
                found = True
                yield file
            if not found:
                yield Unmatched(
                    path,
                    diag("PL006", f"{path} is a directory with no record files ({', '.join(RECORD_SUFFIXES)})"),
                )
        elif _MAGIC.intersection(path) and not os.path.lexists(path):
            matches = sorted(glob.glob(path, recursive=True))
            if matches:
                yield from expand(matches)
            elif path not in reported:
                reported.add(path)
                yield Unmatched(path, diag("PL001", f"{path}: no file matches this pattern"))
        else:
            yield path


#: ``FILE:N``: the record of ``FILE`` on line N (an archive's line, or the line a game of a text file starts on).
_ADDRESS: Final = re.compile(r"(.+):([0-9]+)")


def address(path: str) -> tuple[str, int] | None:
    """``games.jsonl:N`` as (``games.jsonl``, N), unless a file has that very name; else None."""
    found = _ADDRESS.fullmatch(path)
    if found is None or os.path.exists(path) or not os.path.exists(found[1]):
        return None
    return found[1], int(found[2])


def walk(directory: str) -> Iterator[str]:
    """The record files under ``directory``, recursively, in a stable order (see the module's note)."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    subdirectories: list[str] = []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            subdirectories.append(entry.path)
        elif inner_name(entry.name).lower().endswith(RECORD_SUFFIXES):
            yield entry.path
    for sub in subdirectories:
        yield from walk(sub)


def files(paths: Iterable[str]) -> Iterator[str]:
    """Only the files (and ``-``) that ``paths`` stand for, the problems left out."""
    return (item for item in expand(paths) if isinstance(item, str))
