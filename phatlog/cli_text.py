"""The one way the command line prints text for people: :class:`Say`.

Every piece of text (a file name, a pointer, a message, a rules key) goes through
:func:`phatlog.safe.printable` on its way in, and is never read as rich markup, so nothing from a record,
a file name or an argument can reach the terminal as a control sequence or restyle the output. Styles
are given apart from the text, as ``(text, style)`` pairs. JSON for programs does not come here: it is
written by :meth:`Say.data`, exactly as given.
"""

from __future__ import annotations

from typing import Final, Union

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from phatlog.diagnostics import Severity
from phatlog.safe import printable

#: A piece of a line: plain text, or text and the rich style to show it in.
Piece = Union[str, tuple[str, str]]

STYLE: Final = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def line(*pieces: Piece) -> Text:
    """One line for people from its pieces, each made printable; styles apply to whole pieces."""
    text = Text()
    for piece in pieces:
        if isinstance(piece, str):
            text.append(printable(piece))
        else:
            text.append(printable(piece[0]), style=piece[1])
    return text


def table(columns: list[str], rows: list[list[str]], right: frozenset[str] = frozenset()) -> Table:
    """A borderless table whose every cell is made printable; columns named in ``right`` align right."""
    out = Table(box=None, pad_edge=False, show_edge=False)
    for column in columns:
        out.add_column(printable(column), justify="right" if column in right else "left")
    for row in rows:
        out.add_row(*(line(cell) for cell in row))
    return out


class Say:
    """A stream for people (standard output or standard error) that prints only printable text."""

    def __init__(self, *, stderr: bool = False) -> None:
        self.console = Console(stderr=stderr, highlight=False, soft_wrap=True)

    def __call__(self, *pieces: Piece) -> None:
        """Print one line made of ``pieces`` (see :func:`line`)."""
        self.show(line(*pieces))

    def show(self, thing: Text | Table) -> None:
        """Print a line or a table built by :func:`line` or :func:`table` (already printable)."""
        renderable: RenderableType = thing
        self.console.print(renderable)

    def error(self, message: str) -> None:
        """A usage error or an unwritable output: ``error: message``."""
        self(("error:", "bold red"), " ", message)

    def data(self, text: str) -> None:
        """Exact text for programs (JSON): written unchanged, never styled or escaped."""
        self.console.file.write(text)
