"""The one sanitiser for text meant for people: controls are shown, never obeyed."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

import phatlog.diagnostics.printable
from phatlog.diagnostics.printable import printable


def test_doctests() -> None:
    assert doctest.testmod(phatlog.diagnostics.printable).failed == 0


def test_escape_sequences_are_shown_not_obeyed() -> None:
    assert printable("\x1b[31mevil") == "\\x1b[31mevil"
    assert printable("x\x1b[2J.json") == "x\\x1b[2J.json"
    assert printable("a\u202eb\x9bc\x7f") == "a\\u202eb\\x9bc\\x7f"
    assert printable("Ann \u2665 Ben ♦") == "Ann \u2665 Ben ♦"


@given(st.text())
def test_nothing_unsafe_survives(text: str) -> None:
    out = printable(text)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in out)
    assert printable(out) == out  # already safe text is left alone


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp"))))
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert printable(text) == text
