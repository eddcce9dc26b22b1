"""Text for people: nothing from a record, a file name or an argument reaches a terminal as a control.

Every line phatlog prints for people (diagnostics, summaries, replays, error messages) passes through
:func:`printable`, so that a player name, a key, a rule or a file name holding ESC, a carriage return
or a bidirectional override cannot move the cursor, recolour or clear the screen, or reorder what the
reader sees. Such characters are shown as Python-style escapes (``\\x1b``, ``\\u202e``), which say what
is there without doing it. Lone surrogates and the noncharacters U+FFFE and U+FFFF are escaped too: no
terminal encoding can write the first, and neither may stand in XML, so text made printable is also
text that an SVG or HTML page may hold (:func:`markup_text`). JSON output is never passed through here:
it stays exact JSON.
"""

from __future__ import annotations

import re
from typing import Final

#: C0 controls but tab and newline, DEL, C1 controls, the Unicode line separators and bidirectional
#: embeddings, overrides and isolates, lone surrogates, and U+FFFE and U+FFFF (not characters in XML).
UNSAFE_CHARS: Final = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff\ufffe\uffff"
)
_UNSAFE: Final = re.compile(f"[{UNSAFE_CHARS}]")
_UNSAFE_LINE: Final = re.compile(_UNSAFE.pattern[:-1] + "\t\n]")


_NAMED: Final = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """``text`` with every control character shown as an escape; ``multiline`` keeps newlines and tabs.

    >>> printable("x\\x1b[2J.json")
    'x\\\\x1b[2J.json'
    >>> printable("two\\nlines", multiline=True)
    'two\\nlines'
    >>> printable("two\\nlines")
    'two\\\\nlines'
    """
    pattern = _UNSAFE if multiline else _UNSAFE_LINE
    return pattern.sub(_escape, text) if pattern.search(text) else text


def markup_text(text: str, *, quote: bool = False) -> str:
    """``text`` made printable and escaped for an XML or HTML text node (``quote``: for a quoted attribute
    too): what every text from a record becomes in an SVG picture or an HTML page, well-formed and never
    markup.

    >>> markup_text('<b>\\ufffe')
    '&lt;b&gt;\\\\ufffe'
    """
    import html  # here, not at the top: html.entities is large, and a verify prints no markup

    return html.escape(printable(text), quote=quote)
