"""Writing a file whole or not at all: a temporary file beside the target, renamed into place.

Shared by every command that writes (``simulate -o``, ``convert``): an interrupted or failed write
leaves the old file, or no file, never half of one. ``-`` is standard output, written only once the
whole text is ready.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Final

STDIO: Final = "-"


class Output:
    """A temporary file beside the target, renamed into place only if kept."""

    def __init__(self, stream: IO[str], tmp: str) -> None:
        self.stream = stream
        self.tmp = tmp
        self.keep = False
        self.kept = False


def mode_for(target: str) -> int:
    """The permissions the output gets: those of the file it replaces, else an ordinary new file's."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def output(target: str) -> Iterator[Output]:
    directory = tempfile.gettempdir() if target == STDIO else (str(Path(target).parent) or ".")
    prefix = "phatlog-" if target == STDIO else f".{Path(target).name}."
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=prefix, suffix=".tmp")
    out = Output(os.fdopen(fd, "w", encoding="utf-8", newline=""), tmp)
    try:
        yield out
        out.stream.close()
        if out.keep:
            if target == STDIO:
                with open(tmp, encoding="utf-8", newline="") as f:
                    shutil.copyfileobj(f, sys.stdout)
                sys.stdout.flush()
            else:
                os.chmod(tmp, mode_for(target))
                os.replace(tmp, target)
            out.kept = True
    finally:
        out.stream.close()
        Path(tmp).unlink(missing_ok=True)
