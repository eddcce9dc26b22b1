"""The one way the command line prints text for people: :class:`Say`.

Every piece of text (a file name, a pointer, a message, a rules key) goes through
:func:`~phatlog.diagnostics.printable.printable` on its way in, and is never read as rich markup, so nothing from a
record,
a file name or an argument can reach the terminal as a control sequence or restyle the output. Styles
are given apart from the text, as ``(text, style)`` pairs. JSON for programs does not come here: it is
written by :meth:`Say.data`, exactly as given.

Two writers, one output. On a terminal (or where ``FORCE_COLOR``/``TTY_COMPATIBLE`` ask rich for one)
lines go through rich, which colours them. Anywhere else rich would print the plain text of the pieces
and a newline, so :class:`Say` writes exactly that itself, without loading rich: a line costs about a
microsecond instead of a few hundred, and ``phatlog verify`` starts without importing rich (issue 16).
Tables (the closing summary) always go through rich, which lays them out.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Final, TextIO, Union

from phatlog.diagnostics import Severity
from phatlog.diagnostics.printable import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

#: A piece of a line: plain text, or text and the rich style to show it in.
Piece = Union[str, tuple[str, str]]

STYLE: Final = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def line(*pieces: Piece) -> Text:
    """One line for people from its pieces, each made printable; styles apply to whole pieces."""
    from rich.text import Text

    text = Text()
    for piece in pieces:
        if isinstance(piece, str):
            text.append(printable(piece))
        else:
            text.append(printable(piece[0]), style=piece[1])
    return text


def plain(*pieces: Piece) -> str:
    """The text of a line, without its styles: what :func:`line` shows where there are no colours."""
    return "".join(printable(piece) if isinstance(piece, str) else printable(piece[0]) for piece in pieces)


def table(columns: list[str], rows: list[list[str]], right: frozenset[str] = frozenset()) -> Table:
    """A borderless table whose every cell is made printable; columns named in ``right`` align right."""
    from rich.table import Table

    out = Table(box=None, pad_edge=False, show_edge=False)
    for column in columns:
        out.add_column(line(column), justify="right" if column in right else "left")
    for row in rows:
        out.add_row(*(line(cell) for cell in row))
    return out


def styled(stream: TextIO) -> bool:
    """Whether rich would treat ``stream`` as a terminal (and so may colour it), as rich decides: the
    ``TTY_COMPATIBLE`` and ``FORCE_COLOR`` variables, then ``isatty()``. Where in doubt, True (rich writes)."""
    if "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ:
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is None or bool(isatty())
    except (OSError, ValueError):
        return True


class Say:
    """A stream for people (standard output or standard error) that prints only printable text."""

    def __init__(self, *, stderr: bool = False) -> None:
        self.stderr = stderr
        self._console: Console | None = None
        self._plain: bool | None = None

    @property
    def stream(self) -> TextIO:
        """The stream written to: the process's standard output or error at the time of writing."""
        return sys.stderr if self.stderr else sys.stdout

    @property
    def console(self) -> Console:
        """The rich console on the same stream (made on first use: rich is loaded only when needed)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self.stderr, highlight=False, soft_wrap=True)
        return self._console

    def __call__(self, *pieces: Piece) -> None:
        """Print one line made of ``pieces`` (see :func:`line`)."""
        if self._plain is None:
            self._plain = not styled(self.stream)
        if self._plain:
            self.stream.write(plain(*pieces) + "\n")
        else:
            self.show(line(*pieces))

    def show(self, thing: Text | Table) -> None:
        """Print a line or a table built by :func:`line` or :func:`table` (already printable)."""
        self.console.print(thing)

    def error(self, message: str) -> None:
        """A usage error or an unwritable output: ``error: message``."""
        self(("error:", "bold red"), " ", message)

    def data(self, text: str) -> None:
        """Exact text for programs (JSON): written unchanged, never styled or escaped."""
        self.stream.write(text)
