"""The one way phatlog writes output: decided by what the target path *is*, never destroying it.

Shared by every command that writes (``simulate -o``, ``convert -o``):

- ``-`` (and ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``): the descriptor the
  process already has, written in place (never reopened, so a file the shell opened with ``>>`` is
  appended to, not truncated or replaced).
- A regular file, or a new name: a temporary file beside it, renamed into place only when the whole
  output is ready. An interrupted or failed write leaves the old file, or no file, never half of one.
  A symbolic link is followed: the file it points to is replaced, the link stays a link.
- A character device or a FIFO (``/dev/null``, a named pipe): written through, never replaced. A FIFO
  with no reader waits for one, as any writer to a named pipe does (Ctrl-C ends the wait).
- A directory, a block device or a socket: refused (``IsADirectoryError`` / ``OSError``).

Commands that write a directory of files (``replay -o DIR``, ``select --split-by``, ``standings --format
html -o DIR``) make it with :func:`directory`, which refuses a path that is already something else.

With ``spool`` (the default), nothing reaches a stream until the writer keeps the output: the text waits
in an anonymous temporary file (no name, so nothing is left behind whatever happens) and is copied out
whole. Without it, a stream is written as the text comes (for output of any length, like ``simulate``).

Every named temporary file is listed until it is renamed or removed, so that an interrupt (SIGINT,
SIGTERM) that ends the process can remove it (:func:`cleanup`).
"""

from __future__ import annotations

import errno
import io
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Final

STDIO: Final = "-"

#: Temporary files not yet renamed into place or removed: what an interrupt must clean up.
_PENDING: Final[set[str]] = set()

_INHERITED: Final = re.compile(r"/dev/(?:(stdout)|(stderr)|fd/(\d+))|/proc/self/fd/(\d+)")


class Output:
    """Where the writer writes (``stream``), and whether it keeps what it wrote (``keep``)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
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


def inherited_fd(target: str) -> int | None:
    """The descriptor a target names (``-``: 1; ``/dev/stdout``, ``/dev/fd/N``, ...), else None."""
    if target == STDIO:
        return 1
    found = _INHERITED.fullmatch(target)
    if found is None:
        return None
    stdout, stderr, fd, proc_fd = found.groups()
    return 1 if stdout else 2 if stderr else int(fd or proc_fd)


def directory(path: str) -> None:
    """Make ``path`` (and its parents) a directory to write files into; one already there is used as it is.
    A file, device or FIFO at ``path`` is refused with ``NotADirectoryError`` ("exists and is not a
    directory"), never replaced."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", path)
    os.makedirs(path, exist_ok=True)


def cleanup() -> None:
    """Remove every temporary file still pending (after an interrupt; harmless otherwise)."""
    for tmp in list(_PENDING):
        with suppress(OSError):
            os.unlink(tmp)
        _PENDING.discard(tmp)


@contextmanager
def output(target: str, *, spool: bool = True) -> Iterator[Output]:
    """Write ``target`` as what it is (see the module): set ``out.keep`` to keep what was written."""
    fd = inherited_fd(target)
    if fd is not None:
        with _to_stream(fd if fd <= 2 else os.dup(fd), spool) as out:
            yield out
        return
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None  # a new file (or a dangling link: the file it names is made)
    if st is None or stat.S_ISREG(st.st_mode):
        with _replacing(os.path.realpath(target)) as out:
            yield out
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory", target)
    if not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        kind = "a block device" if stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "special"
        raise OSError(f"it is {kind}: phatlog writes regular files, character devices and FIFOs only")
    if not spool:  # opening a FIFO waits for a reader: open it only when there is something to write
        with _to_stream(os.open(target, os.O_WRONLY), spool=False) as out:
            yield out
        return
    with _spooled() as out:
        yield out
        if out.keep:
            with open(target, "wb") as dest:  # a device or FIFO: O_TRUNC is harmless; never replaced
                _copy_out(out, dest)


@contextmanager
def _replacing(target: str) -> Iterator[Output]:
    """A regular file: a temporary file beside it, renamed over it only if kept."""
    directory = str(Path(target).parent) or "."
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{Path(target).name}.", suffix=".tmp")
    _PENDING.add(tmp)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            out = Output(stream)
            yield out
        if out.keep:
            os.chmod(tmp, mode_for(target))
            os.replace(tmp, target)
            out.kept = True
    finally:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        _PENDING.discard(tmp)


@contextmanager
def _spooled() -> Iterator[Output]:
    """An anonymous temporary file (removed by the system however the process ends)."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as stream:
        out = Output(stream)
        yield out


def _copy_out(out: Output, dest: IO[bytes]) -> None:
    out.stream.flush()
    out.stream.seek(0)
    shutil.copyfileobj(out.stream.buffer, dest)  # type: ignore[attr-defined]
    dest.flush()
    out.kept = True


@contextmanager
def _to_stream(fd: int, spool: bool) -> Iterator[Output]:
    """A descriptor (standard output, a device, a FIFO): spooled and copied if kept, or written through.

    Standard output (fd 1) is written through ``sys.stdout``, so that what was printed before comes
    before, and a caller that has replaced ``sys.stdout`` gets the text. Any other descriptor is
    duplicated: the process's own stays open.
    """
    if fd == 1 and sys.stdout is not None:
        sys.stdout.flush()
        dest: IO[bytes] = sys.stdout.buffer
        owned = False
    else:
        dest = open(os.dup(fd) if fd <= 2 else fd, "wb")  # noqa: SIM115 - closed below
        owned = True
    try:
        if spool:
            with _spooled() as out:
                yield out
                if out.keep:
                    _copy_out(out, dest)
            return
        stream = io.TextIOWrapper(dest, encoding="utf-8", newline="")
        out = Output(stream)
        try:
            yield out
        finally:
            stream.flush()
            stream.detach()
        out.kept = out.keep
    finally:
        if owned:
            dest.close()
        else:
            dest.flush()


class Files:
    """Several regular files written whole or not at all, together (``select --split-by``).

    Each file is written to a temporary file beside it; :meth:`commit` renames every one into place,
    and leaving the ``with`` block without committing removes them all. At most ``open_max`` are open
    at a time (the others are closed and reopened to append), so any number of files can be written.
    """

    def __init__(self, open_max: int = 64) -> None:
        self.open_max = open_max
        self._tmp: dict[str, str] = {}
        self._open: dict[str, IO[str]] = {}

    def __enter__(self) -> Files:
        return self

    def write(self, target: str, text: str) -> None:
        """Append ``text`` to the file that will be ``target``."""
        stream = self._open.pop(target, None)
        if stream is None:
            tmp = self._tmp.get(target)
            if tmp is None:
                if os.path.isdir(target):
                    raise IsADirectoryError(21, "Is a directory", target)
                fd, tmp = tempfile.mkstemp(
                    dir=os.path.dirname(target) or ".", prefix=f".{Path(target).name}.", suffix=".tmp"
                )
                _PENDING.add(tmp)
                self._tmp[target] = tmp
                stream = os.fdopen(fd, "w", encoding="utf-8", newline="")
            else:
                stream = open(tmp, "a", encoding="utf-8", newline="")  # noqa: SIM115 - closed in _close_all
            if len(self._open) >= self.open_max:
                oldest = next(iter(self._open))
                self._open.pop(oldest).close()
        self._open[target] = stream  # the most recently used last
        stream.write(text)

    def discard(self, target: str) -> None:
        """Drop the file that would have been ``target``: it is not written."""
        stream = self._open.pop(target, None)
        if stream is not None:
            stream.close()
        tmp = self._tmp.pop(target, None)
        if tmp is not None:
            with suppress(FileNotFoundError):
                os.unlink(tmp)
            _PENDING.discard(tmp)

    def _close_all(self) -> None:
        while self._open:
            self._open.popitem()[1].close()

    def commit(self) -> None:
        """Rename every file into place (with the permissions of the file it replaces)."""
        self._close_all()
        for target, tmp in self._tmp.items():
            os.chmod(tmp, mode_for(target))
            os.replace(tmp, target)
            _PENDING.discard(tmp)
        self._tmp.clear()

    def __exit__(self, *exc: object) -> None:
        self._close_all()
        for tmp in self._tmp.values():
            with suppress(FileNotFoundError):
                os.unlink(tmp)
            _PENDING.discard(tmp)
        self._tmp.clear()
