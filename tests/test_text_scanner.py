"""The text notation's scanner (issue 16: compiled patterns, not a loop over characters) reads exactly the
tokens, and fails exactly where and how, the character-at-a-time scanner it replaced did (kept here as the
reference); its card runs read what a token at a time read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from hypothesis import given, settings
from hypothesis import strategies as st

from phatlog.formats import text
from phatlog.formats.base import parse_card
from phatlog.formats.text import _Scanner, _Stop, _Token

REPO: Final = Path(__file__).resolve().parent.parent
_WORD_END = frozenset(' \t\r\n\f\v[]:/{};"')


def _reference_next(s: _Scanner) -> _Token:
    """The scanner's ``next`` before issue 16, verbatim but for the names."""
    text_, n = s.text, len(s.text)
    while s.pos < n and text_[s.pos].isspace():
        s.pos += 1
    pos = s.pos
    if pos >= n:
        return _Token("eof", None, pos)
    ch = text_[pos]
    if ch in "[]:/":
        s.pos += 1
        return _Token(ch, ch, pos)
    if text_.startswith("->", pos) or ch == "→":
        s.pos += 1 if ch == "→" else 2
        return _Token("->", "->", pos)
    if ch == "{":
        end = text_.find("}", pos + 1)
        if end < 0:
            raise s.fail("this comment has no closing '}'", pos)
        s.pos = end + 1
        return _Token("brace", text_[pos + 1 : end], pos)
    if ch == ";":
        end = text_.find("\n", pos)
        end = n if end < 0 else end
        s.pos = end
        return _Token("semi", text_[pos + 1 : end].strip(), pos)
    if ch == '"':
        return _Token("string", s.json(pos), pos)
    if ch == "}":
        raise s.fail("found '}' without a '{' before it", pos)
    end = pos
    while end < n and text_[end] not in _WORD_END:
        end += 1
    s.pos = end
    return _Token("word", text_[pos:end], pos)


def _tokens(source: str, step: Any) -> list[Any]:
    s = _Scanner(source)
    out: list[Any] = []
    for _ in range(len(source) + 2):
        try:
            tok = step(s)
        except _Stop as stop:
            out.append(("stop", stop.diagnostic.message, stop.diagnostic.line, stop.diagnostic.column))
            break
        out.append((tok, s.pos))
        if tok.kind == "eof":
            break
    return out


ALPHABET = st.sampled_from(list(' \t\n\r\x0b\x0c\x1c\xa0\u2028[]:/{};"->→}.AaTH10♥2Cx\\é'))


@settings(max_examples=400)
@given(st.lists(ALPHABET, max_size=30).map("".join))
def test_the_scanner_reads_what_the_character_loop_read(source: str) -> None:
    assert _tokens(source, _Scanner.next) == _tokens(source, _reference_next)


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from(["TH", "th", "10♥", "2C", "->", "→", "{x}", "x", " ", "\n", "/", ":", '"a"']), max_size=12)
)
def test_a_run_of_cards_reads_what_peek_and_next_read(words: list[str]) -> None:
    source = " ".join(words)
    fast = text._Parser(source)
    expected: list[str] = []
    s = _Scanner(source)
    while True:
        try:
            tok = s.peek()
        except _Stop:
            break
        card = parse_card(tok.value) if tok.kind == "word" else None
        if card is None:
            break
        s.next()
        expected.append(card)
    assert fast.cards("/x") == expected
    assert fast.s.pos == s.pos


def test_a_parsed_text_places_its_diagnostics() -> None:
    """Positions are worked out only when a diagnostic needs them: a record the models refuse is placed."""
    game = json.loads((REPO / "samples" / "games" / "phat-181.json").read_text(encoding="utf-8"))
    source = text.dumps(game)
    line = source[: source.index("points ")].count("\n") + 1
    parsed = next(iter(text.loads(source.replace("points ", "points 1 ", 1))))
    assert parsed.record is None
    assert [(d.code, d.pointer, d.line, d.column) for d in parsed.diagnostics] == [
        ("PL105", "/deals/0/score/points", line, 3)
    ]
