"""The text notation: a game written by hand, or read in a mail (``.txt``, ``.phat``).

Tag pairs in the manner of PGN carry the metadata, the rules and the players; then come the deals, each a
list of items: the dealer, the hands, the trump card and bids (Oh Hell), the tricks one a line (``1. Ann:
AD 2D 9D 3D``), and the score. Cards may be written in any common spelling (``10H``, ``th``, ``♥T``);
the writer uses the canonical one (``TH``). Comments in braces (``{nice lead}``) or after a semicolon are
kept, as the comment of the game, deal or trick they follow. The grammar, with examples, is in
``docs/text-notation.md``.

A record written in this notation and read back is the same record: every field of the format,
extension objects and comments included, has a place here. Reading never raises: text that does not
parse gives one PL701 diagnostic with its line and column and a message that names what was expected,
and a record that parses but breaks the format's rules gives the reader's diagnostics, placed at the
line and column of the tag or item they concern.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, Final

from pydantic import BaseModel

from phatlog.diagnostics import Diagnostic
from phatlog.formats import base, games, text_fast
from phatlog.formats.base import Parsed, Positions, Record, parse_card
from phatlog.record import constants
from phatlog.record.reader import DEFAULT_MAX_BYTES, unpaired_surrogate
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.rules.table import first_leader, trump_of_pitch
from phatlog.rules.trick import winning_position

NAME: Final = "text"
SUFFIXES: Final = (".txt", ".phat")
MANY: Final = True
#: Between two games of one file (docs/text-notation.md, "Many games in one file").
SEPARATOR: Final = games.SEPARATOR

#: Tags that hold one string, and where it goes: (object, key); one table for both readers.
_STRING_TAGS: Final = text_fast.STRING_TAGS
_TAGS: Final = (
    "Phatlog",
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Table",
    "Board",
    "Scorer",
    "Source",
    "EventExt",
    "Rules",
    "Player",
    "Cut",
    "Comment",
    "Status",
    "Reason",
    "Winner",
    "Total",
    "By",
    "Ext",
)
_RULING_ITEMS: Final = ("ruling", "misdeal", "claim", "revoke", "adjust")
_DEAL_ITEMS: Final = ("dealer", "hands", "undealt", "turnup", "bids", "taken", "points", "total", "ext", "comment")
_BARE_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
_INT: Final = re.compile(r"[+-]?\d+")
_TRICK_NO: Final = re.compile(r"(\d+)\.")
_WORD_END: Final = frozenset(' \t\r\n\f\v[]:/{};"')


# ---------------------------------------------------------------------------------------- reading


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read the games in the text notation (one, or several ended by ``%%`` lines: :mod:`.games`)."""
    return games.loads(parse, data)


def load(fp: BinaryIO, source: str = "<input>", max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Parsed]:
    """Read the games in the text notation from a binary file, a game at a time."""
    return games.load(parse, fp, max_bytes)


def parse(text: str) -> Parsed:
    """One game from its text: the record, or the diagnostics that say why not.

    The fast path (:mod:`phatlog.formats.text_fast`) reads a text laid out as the writer lays it out; whatever it
    declines, or finds not to be a valid record, is read again here, by the full reader (the reference)."""
    record = text_fast.record(text)
    if record is not None:
        return Parsed(record, [])
    return full_parse(text)


def full_parse(text: str) -> Parsed:
    """:func:`parse` by the full reader alone: every layout the grammar allows, every diagnostic."""
    parser = _Parser(text)
    try:
        built = parser.document()
    except _Stop as stop:
        return Parsed(None, [stop.diagnostic])
    except RecursionError:
        return Parsed(None, [base.syntax("the JSON in this text is nested too deeply to read")])
    record, found = base.validate(built)
    if found:  # placed only when something is to be reported: most texts need no line numbers at all
        found = parser.positions().locate(found)
    return Parsed(record, found)


def locate(text: str, found: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics about the record read from ``text`` (the referee's, say) placed at the line and column of
    the part of the text they concern, as the reader places its own (the full reader reads it again)."""
    parser = _Parser(text)
    try:
        parser.document()
    except (_Stop, RecursionError):
        return found
    return parser.positions().locate(found)


class _Stop(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # word, string, brace, semi, "[", "]", ":", "/", "->", eof
    value: Any
    pos: int

    def shown(self) -> str:
        if self.kind == "eof":
            return "the end of the text"
        if self.kind == "word":
            return json.dumps(self.value, ensure_ascii=False)
        if self.kind == "string":
            return "the string " + json.dumps(self.value, ensure_ascii=False)
        if self.kind in ("brace", "semi"):
            return "a comment"
        return f"'{self.kind}'"


#: Cards as phatlog writes them, which ``parse_card`` returns unchanged: looked up, not parsed.
_CANONICAL: Final = {card: card for card in CARD_TEXT}
_JSON: Final = base.JSON  # numbers bounded as every format reader bounds them


#: Space (what ``str.isspace`` calls space: ``\\s`` in a str pattern is the same test), and a bare word: up
#: to the next space of ``_WORD_END`` or punctuation. Compiled scanners, not a loop over characters.
_SPACE: Final = re.compile(r"\s*")
_WORD: Final = re.compile(r'[^ \t\r\n\f\v\[\]:/{};"]+')


class _Scanner:
    """The tokens of a text, read with compiled patterns. ``peek`` and the look-ahead of the parser read the
    same tokens again and again: the last few tokens read are kept by position, so each is scanned once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.lines = base.Lines(text)
        self._read: dict[int, tuple[_Token, int]] = {}  # position -> (token, position after it)

    def where(self, pos: int) -> tuple[int, int]:
        return self.lines.at(pos)

    def fail(self, message: str, pos: int) -> _Stop:
        line, column = self.where(pos)
        return _Stop(base.syntax(message, line, column))

    def skip_space(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def peek(self) -> _Token:
        saved = self.pos
        tok = self.next()
        self.pos = saved
        return tok

    def next(self) -> _Token:
        start = self.pos
        read = self._read.get(start)
        if read is not None:
            self.pos = read[1]
            return read[0]
        tok = self._scan()
        if len(self._read) >= 8:
            self._read.clear()
        self._read[start] = (tok, self.pos)
        return tok

    def _scan(self) -> _Token:
        text = self.text
        pos = self.pos = _SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
        word = _WORD.match(text, pos)
        if word is not None and text[pos] not in "}→" and not text.startswith("->", pos):
            self.pos = word.end()
            return _Token("word", word.group(), pos)
        if pos >= len(text):
            return _Token("eof", None, pos)
        ch = text[pos]
        if ch in "[]:/":
            self.pos += 1
            return _Token(ch, ch, pos)
        if text.startswith("->", pos) or ch == "→":
            self.pos += 1 if ch == "→" else 2
            return _Token("->", "->", pos)
        if ch == "{":
            end = text.find("}", pos + 1)
            if end < 0:
                raise self.fail("this comment has no closing '}'", pos)
            self.pos = end + 1
            return _Token("brace", text[pos + 1 : end], pos)
        if ch == ";":
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            self.pos = end
            return _Token("semi", text[pos + 1 : end].strip(), pos)
        if ch == '"':
            value = self.json(pos)
            return _Token("string", value, pos)
        raise self.fail("found '}' without a '{' before it", pos)

    def json(self, pos: int | None = None) -> Any:
        """A JSON value starting here (after any space)."""
        if pos is None:
            self.skip_space()
            pos = self.pos
        try:
            value, end = _JSON.raw_decode(self.text, pos)
        except json.JSONDecodeError as err:
            raise self.fail(f"this is not valid JSON: {err.msg}", err.pos) from None
        except base.NumberError as err:
            raise self.fail(str(err), pos) from None
        except RecursionError:
            raise self.fail("this JSON is nested too deeply to read", pos) from None
        except ValueError as err:
            raise self.fail(f"this is not valid JSON: {err}", pos) from None
        if unpaired_surrogate(value):
            raise self.fail(base.UNPAIRED, pos)
        self.pos = end
        return value


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = _Scanner(text)
        self.offsets: dict[str, int] = {}  # JSON Pointer -> where in the text its part begins
        self.record: dict[str, Any] = {}
        self.names: list[str | None] = []
        self.seen_tags: dict[str, int] = {}

    # ------------------------------------------------------------------ helpers

    def positions(self) -> Positions:
        """Where each part of the record was written, as lines and columns."""
        out = Positions()
        for ptr, pos in self.offsets.items():
            out.mark(ptr, *self.s.where(pos))
        return out

    def mark(self, ptr: str, pos: int) -> None:
        self.offsets.setdefault(ptr, pos)

    def expected(self, what: str, tok: _Token) -> _Stop:
        return self.s.fail(f"expected {what}, found {tok.shown()}", tok.pos)

    def who(self, tok: _Token) -> int:
        """A seat written as a number, a bare name or a quoted name."""
        if tok.kind == "word" and _INT.fullmatch(tok.value):
            return self.integer(tok)
        if tok.kind not in ("word", "string"):
            raise self.expected("a player (a name or a seat number)", tok)
        name: str = tok.value
        exact = [i for i, n in enumerate(self.names) if n == name]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise self.s.fail(f"two players are named {name!r}: write the seat number instead", tok.pos)
        folded = [i for i, n in enumerate(self.names) if n is not None and n.casefold() == name.casefold()]
        if len(folded) == 1:
            return folded[0]
        known = ", ".join(repr(n) for n in self.names if n is not None) or "none, as no [Player] tag was given"
        raise self.s.fail(f"no player is named {name!r} (the players are {known}; or write a seat number)", tok.pos)

    def integer(self, tok: _Token, text: str | None = None) -> int:
        """A whole number token (or ``text`` found at it), bounded as every reader bounds numbers."""
        try:
            return base.parse_int(tok.value if text is None else text)
        except base.NumberError as exc:
            raise self.s.fail(str(exc), tok.pos) from None

    def is_label(self) -> bool:
        """Whether the next tokens are ``who :``."""
        saved = self.s.pos
        try:
            first = self.s.next()
            return first.kind in ("word", "string") and self.s.next().kind == ":"
        except _Stop:
            return False
        finally:
            self.s.pos = saved

    def cards(self, ptr: str) -> list[str]:
        """The cards written here, up to the first word that is not a card (or anything not a word): the
        words read straight with the scanner's patterns, as ``next`` reads them, without a token each."""
        s, text, offsets = self.s, self.s.text, self.offsets
        out: list[str] = []
        while True:
            pos = _SPACE.match(text, s.pos).end()  # type: ignore[union-attr]
            word = _WORD.match(text, pos)
            if word is None or text[pos] == "→" or text.startswith("->", pos):
                return out
            value = word.group()
            card = _CANONICAL.get(value) or parse_card(value)
            if card is None:
                return out
            s.pos = word.end()
            offsets.setdefault(f"{ptr}/{len(out)}", pos)
            out.append(card)

    def integers(self, ptr: str) -> list[int]:
        out: list[int] = []
        while True:
            tok = self.s.peek()
            if tok.kind != "word" or not _INT.fullmatch(tok.value):
                return out
            self.s.next()
            self.mark(f"{ptr}/{len(out)}", tok.pos)
            out.append(self.integer(tok))

    # ------------------------------------------------------------------ the document

    def document(self) -> dict[str, Any]:
        rec = self.record
        comments: list[str] = []
        while True:
            tok = self.s.peek()
            if tok.kind == "[":
                self.tag(comments)
            elif tok.kind in ("brace", "semi"):
                self.s.next()
                comments.append(tok.value)
                self.mark("/comment", tok.pos)
            elif tok.kind == "eof" or (tok.kind == "word" and tok.value.lower() == "deal"):
                break
            else:
                raise self.expected("a tag such as [Game \"phat\"], a comment in braces, or 'deal'", tok)
        if comments:
            rec["comment"] = "\n".join(comments)
        rec.setdefault("phatlog", "1.0")
        deals: list[dict[str, Any]] = []
        while self.s.peek().kind != "eof":
            tok = self.s.peek()
            if not deals:
                if "game" not in rec:
                    raise self.s.fail('a [Game "..."] tag must come before the first deal', tok.pos)
                self.mark("/deals", tok.pos)
            deals.append(self.deal(len(deals)))
        rec["deals"] = deals
        if rec["phatlog"] == "1.0":
            rec["phatlog"] = constants.version_for(rec)  # a record that uses a format 1.1 feature is a 1.1 record
        return rec

    def tag(self, comments: list[str]) -> None:
        s = self.s
        start = s.next().pos
        name_tok = s.next()
        if name_tok.kind != "word" or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name_tok.value):
            raise self.expected('a tag name after "[", such as Game or Event', name_tok)
        key = name_tok.value.lower()
        if key not in {t.lower() for t in _TAGS}:
            close = difflib.get_close_matches(name_tok.value, _TAGS, n=1)
            hint = f"; did you mean [{close[0]}]?" if close else f"; the tags are {', '.join(_TAGS)}"
            raise s.fail(f"unknown tag [{name_tok.value}]{hint}", name_tok.pos)
        s.skip_space()
        value_pos = s.pos
        value: Any
        if s.pos < len(s.text) and s.text[s.pos] in '"{[':
            value = s.json()
            is_text = isinstance(value, str)
            s.skip_space()
            if s.pos >= len(s.text) or s.text[s.pos] != "]":
                raise self.expected("']' to close the tag", s.peek())
        else:
            end = s.pos
            while end < len(s.text) and s.text[end] not in "]\n":
                end += 1
            if end >= len(s.text) or s.text[end] != "]":
                raise s.fail(f"the tag [{name_tok.value} ...] has no closing ']' on its line", start)
            value = s.text[s.pos : end].strip()
            is_text = True
            s.pos = end
        s.pos += 1  # the "]"
        repeatable = key in ("player", "cut", "comment", "rules")
        if not repeatable and key in self.seen_tags:
            line, _ = s.where(self.seen_tags[key])
            raise s.fail(f"the tag [{name_tok.value}] is given twice (first on line {line})", start)
        self.seen_tags.setdefault(key, start)
        self.apply_tag(key, name_tok.value, value, is_text, start, value_pos, comments)

    def apply_tag(
        self, key: str, name: str, value: Any, is_text: bool, start: int, value_pos: int, comments: list[str]
    ) -> None:
        s, rec = self.s, self.record
        if key in _STRING_TAGS:
            if not is_text:
                raise s.fail(f'[{name}] takes a string, e.g. [{name} "..."]', value_pos)
            obj, field = _STRING_TAGS[key]
            if key == "game":
                value = re.sub(r"[\s-]+", "_", value.strip().lower())
            target = rec if obj is None else rec.setdefault(obj, {})
            target[field] = value
            self.mark(f"/{field}" if obj is None else f"/{obj}/{field}", start)
            if obj is not None:
                self.mark(f"/{obj}", start)
        elif key in ("eventext", "ext"):
            if not isinstance(value, dict):
                raise s.fail(f'[{name}] takes a JSON object, e.g. [{name} {{"key": 1}}]', value_pos)
            if key == "ext":
                rec["ext"] = value
                self.mark("/ext", start)
            else:
                rec.setdefault("event", {})["ext"] = value
                self.mark("/event/ext", start)
        elif key == "comment":
            if not is_text:
                raise s.fail('[Comment] takes a string, e.g. [Comment "..."]', value_pos)
            comments.append(value)
            self.mark("/comment", start)
        elif key == "rules":
            if isinstance(value, dict):
                items = value
            elif is_text:
                try:
                    items = base.parse_rules(value)
                except ValueError as exc:
                    raise s.fail(f"[Rules]: {exc} (rules are written key=value, e.g. target=121)", value_pos) from None
            else:
                raise s.fail('[Rules] takes key=value items, e.g. [Rules "target=121"], or a JSON object', value_pos)
            rules = rec.setdefault("rules", {})
            self.mark("/rules", start)
            for k, v in items.items():
                if k in rules:
                    raise s.fail(f"the rule {k!r} is given twice", value_pos)
                rules[k] = v
                self.mark(f"/rules/{k}", start)
        elif key == "player":
            players = rec.setdefault("players", [])
            self.mark(f"/players/{len(players)}", start)
            self.mark("/players", start)
            if is_text:
                players.append({"name": value})
                self.names.append(value)
            elif isinstance(value, dict):
                players.append(value)
                self.names.append(value.get("name") if isinstance(value.get("name"), str) else None)
            else:
                raise s.fail('[Player] takes a name, e.g. [Player "Ann"], or a JSON object', value_pos)
        elif key == "cut":
            cuts = rec.setdefault("cut", [])
            self.mark(f"/cut/{len(cuts)}", start)
            self.mark("/cut", start)
            cuts.append(self.cut_round(value, is_text, value_pos))
        elif key == "by":  # format 1.1: the seat that conceded or forfeited
            self.mark("/result/by", start)
            text = value if is_text else str(value)
            if not _INT.fullmatch(text.strip()):
                raise s.fail('[By] takes the seat number of the side that conceded, e.g. [By "1"]', value_pos)
            try:
                rec.setdefault("result", {})["by"] = base.parse_int(text.strip())
            except base.NumberError as exc:
                raise s.fail(f"[By]: {exc}", value_pos) from None
        elif key in ("winner", "total"):
            result = rec.setdefault("result", {})
            self.mark("/result", start)
            self.mark(f"/result/{key}", start)
            if is_text:
                parts = value.replace(",", " ").split()
                if not all(_INT.fullmatch(p) for p in parts):
                    raise s.fail(f'[{name}] takes numbers separated by spaces, e.g. [{name} "0 2"]', value_pos)
                try:
                    result[key] = [base.parse_int(p) for p in parts]
                except base.NumberError as exc:
                    raise s.fail(f"[{name}]: {exc}", value_pos) from None
            else:
                result[key] = value

    def cut_round(self, value: Any, is_text: bool, pos: int) -> Any:
        if not is_text:
            return value
        out: list[str | None] = []
        for part in value.split():
            card = None if part == "-" else parse_card(part)
            if card is None and part != "-":
                raise self.s.fail(f'[Cut] takes a card or "-" for each seat, found {part!r}', pos)
            out.append(card)
        return out

    # ------------------------------------------------------------------ deals

    def deal(self, index: int) -> dict[str, Any]:
        s = self.s
        head = s.next()
        if head.kind != "word" or head.value.lower() != "deal":
            raise self.expected("'deal'", head)
        ptr = f"/deals/{index}"
        self.mark(ptr, head.pos)
        tok = s.peek()
        if tok.kind == "word" and _INT.fullmatch(tok.value) and not self.is_label():
            s.next()
            if self.integer(tok) != index + 1:
                raise s.fail(f"this is deal {index + 1}, but it is numbered {tok.value}", tok.pos)
        deal: dict[str, Any] = {}
        comments: list[str] = []
        tricks: list[dict[str, Any]] = []
        trick_comments: list[list[str]] = []
        seen: dict[str, int] = {}
        last: int | None = None  # the trick that comments and ext just after it belong to
        while True:
            tok = s.peek()
            if tok.kind == "eof" or (tok.kind == "word" and tok.value.lower() == "deal"):
                break
            if tok.kind in ("brace", "semi"):
                s.next()
                if last is None:
                    comments.append(tok.value)
                    self.mark(f"{ptr}/comment", tok.pos)
                else:
                    trick_comments[last].append(tok.value)
                    self.mark(f"{ptr}/tricks/{last}/comment", tok.pos)
                continue
            if tok.kind != "word":
                raise self.expected(self.deal_items(tricks), tok)
            word = tok.value.lower()
            if _TRICK_NO.fullmatch(tok.value):
                tricks.append(self.trick(ptr, len(tricks)))
                trick_comments.append([])
                last = len(tricks) - 1
                continue
            if word in ("ext", "comment"):
                s.next()
                target_ptr = ptr if last is None else f"{ptr}/tricks/{last}"
                self.mark(f"{target_ptr}/{word}", tok.pos)
                if word == "comment":
                    value = s.next()
                    if value.kind != "string":
                        raise self.expected('a quoted comment after "comment", e.g. comment "nice lead"', value)
                    (comments if last is None else trick_comments[last]).append(value.value)
                    continue
                target = deal if last is None else tricks[last]
                if "ext" in target:
                    raise s.fail("an ext object is given twice for the same item", tok.pos)
                s.skip_space()
                obj_pos = s.pos
                obj = s.json()
                if not isinstance(obj, dict):
                    raise s.fail('ext takes a JSON object, e.g. ext {"key": 1}', obj_pos)
                target["ext"] = obj
                continue
            if word in _RULING_ITEMS:  # format 1.1: a director's ruling, one item each (repeatable)
                last = None
                s.next()
                self.mark(f"{ptr}/rulings/{len(deal.get('rulings', ()))}", tok.pos)
                deal.setdefault("rulings", []).append(self.ruling(word, tok))
                continue
            if word not in _DEAL_ITEMS:
                if _looks_like_card(tok.value):
                    raise s.fail(f"{tok.value!r} is not a card: {_CARD_HELP}", tok.pos)
                raise self.expected(self.deal_items(tricks), tok)
            last = None
            if word in seen:
                line, _ = s.where(seen[word])
                raise s.fail(f"deal {index + 1} gives '{word}' twice (first on line {line})", tok.pos)
            seen[word] = tok.pos
            s.next()
            self.deal_item(word, tok, deal, ptr)
        for t, notes in enumerate(trick_comments):
            if notes:
                tricks[t]["comment"] = "\n".join(notes)
        if comments:
            deal["comment"] = "\n".join(comments)
        if tricks:
            self.infer_leaders(deal, tricks, ptr)
            deal["tricks"] = tricks
        return deal

    def ruling(self, word: str, head: _Token) -> dict[str, Any]:
        """A ruling: ``misdeal``, ``claim SEAT N|rest``, ``revoke TRICK SEAT``, ``adjust SIDE POINTS``, or
        ``ruling {JSON object}`` for any ruling (with a penalty, a decision, ``by``, a comment ...)."""
        s = self.s
        if word == "ruling":
            s.skip_space()
            pos = s.pos
            obj = s.json()
            if not isinstance(obj, dict):
                raise s.fail('ruling takes a JSON object, e.g. ruling {"kind": "misdeal"}', pos)
            return obj
        if word == "misdeal":
            return {"kind": "misdeal"}
        if word == "claim":
            seat = self.who(s.next())
            count = s.next()
            if count.kind == "word" and count.value.lower() == "rest":
                return {"kind": "claim", "seat": seat, "tricks": "rest"}
            if count.kind != "word" or not _INT.fullmatch(count.value):
                raise self.expected("the tricks claimed (a number or 'rest'), e.g. claim Ann rest", count)
            return {"kind": "claim", "seat": seat, "tricks": self.integer(count)}
        first, second = s.next(), s.next()
        if word == "revoke":
            if first.kind != "word" or not _INT.fullmatch(first.value):
                raise self.expected("the trick of the revoke, e.g. revoke 4 Dee", first)
            return {"kind": "revoke", "trick": self.integer(first), "seat": self.who(second)}
        for tok in (first, second):
            if tok.kind != "word" or not _INT.fullmatch(tok.value):
                raise self.expected("a side and the points, e.g. adjust 0 -5", tok)
        return {"kind": "adjustment", "side": self.integer(first), "points": self.integer(second)}

    def deal_items(self, tricks: list[dict[str, Any]]) -> str:
        nxt = f'"{len(tricks) + 1}." for trick {len(tricks) + 1}'
        return f"an item of the deal ({nxt}, dealer, hands, turnup, bids, points, total, ...) or 'deal'"

    def deal_item(self, word: str, tok: _Token, deal: dict[str, Any], ptr: str) -> None:
        s = self.s
        at = f"{ptr}/{word}"
        if word == "dealer":
            who_tok = s.next()
            self.mark(at, who_tok.pos)
            deal["dealer"] = self.who(who_tok)
        elif word == "hands":
            self.mark(at, tok.pos)
            deal["hands"] = self.hands(at, tok)
        elif word == "undealt":
            self.mark(at, tok.pos)
            deal["undealt"] = self.cards(at)
        elif word == "turnup":
            card_tok = s.next()
            self.mark(at, card_tok.pos)
            if card_tok.kind == "word" and card_tok.value.lower() == "none":
                return
            card = parse_card(card_tok.value) if card_tok.kind == "word" else None
            if card is None:
                raise self.expected("the turned-up card (e.g. 7S) or 'none'", card_tok)
            deal["turnup"] = card
        elif word in ("bids", "taken"):
            self.mark(at, tok.pos)
            deal[word] = self.integers(at)
        else:  # points, total
            score = deal.setdefault("score", {})
            self.mark(f"{ptr}/score", tok.pos)
            self.mark(f"{ptr}/score/{word}", tok.pos)
            score[word] = self.integers(f"{ptr}/score/{word}")

    def hands(self, ptr: str, head: _Token) -> list[list[str]]:
        s = self.s
        if not self.is_label():
            groups = [self.cards(f"{ptr}/0")]
            while s.peek().kind == "/":
                s.next()
                groups.append(self.cards(f"{ptr}/{len(groups)}"))
            return groups
        by_seat: dict[int, list[str]] = {}
        while self.is_label():
            who_tok = s.next()
            seat = self.who(who_tok)
            s.next()  # the ":"
            if seat in by_seat:
                raise s.fail(f"the hand of seat {seat} is given twice", who_tok.pos)
            self.mark(f"{ptr}/{seat}", who_tok.pos)
            by_seat[seat] = self.cards(f"{ptr}/{seat}")
        missing = [seat for seat in range(max(by_seat) + 1) if seat not in by_seat]
        if missing:
            raise s.fail(f"hands: no hand is given for seat {missing[0]}", head.pos)
        return [by_seat[seat] for seat in range(len(by_seat))]

    def trick(self, ptr: str, t: int) -> dict[str, Any]:
        s = self.s
        number = s.next()
        at = f"{ptr}/tricks/{t}"
        self.mark(at, number.pos)
        if t == 0:
            self.mark(f"{ptr}/tricks", number.pos)
        if self.integer(number, number.value[:-1]) != t + 1:
            raise s.fail(f"expected trick {t + 1}, found trick {number.value[:-1]}", number.pos)
        trick: dict[str, Any] = {"leader": None}
        if self.is_label():
            who_tok = s.next()
            s.next()
            self.mark(f"{at}/leader", who_tok.pos)
            trick["leader"] = self.who(who_tok)
        cards = self.cards(f"{at}/cards")
        if not cards:
            raise self.expected(f"the cards of trick {t + 1} (e.g. {t + 1}. Ann: AD 2D 9D 3D)", s.peek())
        self.mark(f"{at}/cards", number.pos)
        trick["cards"] = cards
        if s.peek().kind == "->":
            s.next()
            who_tok = s.next()
            self.mark(f"{at}/winner", who_tok.pos)
            trick["winner"] = self.who(who_tok)
        return trick

    def infer_leaders(self, deal: dict[str, Any], tricks: list[dict[str, Any]], ptr: str) -> None:
        """Leaders left out: the dealer's left leads first, then each trick's winner."""
        game = self.record.get("game")
        n = 4 if game != "oh_hell" else len(self.names)
        trump: str | None = None
        if game == "oh_hell":
            trump = deal["turnup"][1] if "turnup" in deal else None
        elif tricks[0]["cards"]:
            pitched = CARD_BY_TEXT.get(tricks[0]["cards"][0])  # a card not canonical fails below, as before
            trump = None if pitched is None else trump_of_pitch(pitched).letter
        due: int | None = None
        dealer = deal.get("dealer")
        if isinstance(dealer, int) and n:
            due = first_leader(dealer, n)
        for t, trick in enumerate(tricks):
            if trick["leader"] is None:
                if due is None or not n:
                    line, column = self.s.where(self.offsets[f"{ptr}/tricks/{t}"])
                    why = "give the dealer before the tricks" if t == 0 else "write it"
                    raise _Stop(
                        base.syntax(
                            f"the leader of trick {t + 1} is not written and cannot be worked out: {why} "
                            f"(e.g. {t + 1}. Ann: ...)",
                            line,
                            column,
                        )
                    )
                trick["leader"] = due
            due = (trick["leader"] + _winning_position(trick["cards"], trump)) % n if n else None


_CARD_HELP: Final = "a card is a rank (2-9, T or 10, J, Q, K, A) and a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. TH, 10H or ♥T"


def _looks_like_card(word: str) -> bool:
    """A short word with a rank or suit in it: most likely a card mistyped."""
    has_suit = any(ch in "CDHScdhs♣♦♥♠♧♢♡♤" for ch in word)
    return 2 <= len(word) <= 4 and has_suit and any(ch in "0123456789TJQKAtjqka" for ch in word)


def _winning_position(cards: list[str], trump: str | None) -> int:
    """The engine's trick winner, for card texts and a trump suit letter."""
    return winning_position([Card.parse(c) for c in cards], None if trump is None else Suit.parse(trump))


# ---------------------------------------------------------------------------------------- writing


def losses(record: Mapping[str, object] | BaseModel) -> list[Diagnostic]:
    """The text notation carries every record whole: nothing is ever lost."""
    return base.losses_of(render, record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False) -> str:
    """A record in the text notation."""
    return base.finish(render, record, lossy)


def dump(records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False) -> int:
    """Write records in the text notation, the separator line between two."""
    count = 0
    for record in records:
        fp.write((SEPARATOR if count else "") + dumps(record, lossy=lossy))
        count += 1
    return count


def _quote(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _braceable(comment: str) -> bool:
    return (
        "}" not in comment
        and not any(ord(ch) < 32 and ch not in "\n\t" for ch in comment)
        and not games.holds_separator(comment)
    )


def _comment(comment: str) -> str:
    return "{" + comment + "}" if _braceable(comment) else "comment " + _quote(comment)


def _is_bare(name: str) -> bool:
    """A name written without quotes: a word that reads back as nothing else (not a card such as
    ``C2`` or ``th``, not a word of the notation such as ``dealer``)."""
    return (
        _BARE_NAME.fullmatch(name) is not None
        and parse_card(name) is None
        and name.casefold() not in {*_DEAL_ITEMS, "deal"}
    )


class _Names:
    """How seats are written: by name where names tell the seats apart, else by number."""

    def __init__(self, players: list[dict[str, Any]]) -> None:
        names = [p["name"] for p in players]
        self.names = names if len(set(names)) == len(names) else []

    def __call__(self, seat: int) -> str:
        if seat < len(self.names):
            name = self.names[seat]
            return name if _is_bare(name) else _quote(name)
        return str(seat)


def render(rec: Record) -> tuple[str, list[Diagnostic]]:
    """A canonical record as text, and what was lost (never anything)."""
    out: list[str] = []
    tag = out.append
    tag(f"[Phatlog {_quote(rec['phatlog'])}]")
    tag(f"[Game {_quote(rec['game'])}]")
    event = rec.get("event", {})
    for key, name in (
        ("name", "Event"),
        ("site", "Site"),
        ("date", "Date"),
        ("round", "Round"),
        ("table", "Table"),
        ("board", "Board"),
    ):
        if key in event:
            tag(f"[{name} {_quote(event[key])}]")
    for key, name in (("scorer", "Scorer"), ("source", "Source"), ("ext", "EventExt")):
        if key in event:
            tag(f"[{name} {_quote(event[key])}]")
    if "rules" in rec:
        tag(f"[Rules {_quote(base.format_rules(rec['rules']))}]")
    for player in rec["players"]:
        tag(f"[Player {_quote(player['name'] if list(player) == ['name'] else player)}]")
    for cut in rec.get("cut", ()):
        tag(f"[Cut {_quote(' '.join('-' if c is None else c for c in cut))}]")
    result = rec.get("result", {})
    for key, name in (("status", "Status"), ("reason", "Reason")):
        if key in result:
            tag(f"[{name} {_quote(result[key])}]")
    for key, name in (("winner", "Winner"), ("total", "Total")):
        if key in result:
            tag(f"[{name} {_quote(' '.join(str(x) for x in result[key]))}]")
    if "by" in result:
        tag(f"[By {_quote(str(result['by']))}]")
    if "ext" in rec:
        tag(f"[Ext {_quote(rec['ext'])}]")
    if "comment" in rec:
        tag(f"[Comment {_quote(rec['comment'])}]")
    who = _Names(rec["players"])
    for d, deal in enumerate(rec["deals"]):
        out.append("")
        out.extend(_deal(d, deal, who))
    return "\n".join(out) + "\n", []


def _deal(d: int, deal: Record, who: _Names) -> list[str]:
    lines = [f"deal {d + 1}"]
    item = lines.append
    if "comment" in deal:
        item("  " + _comment(deal["comment"]))
    if "ext" in deal:
        item("  ext " + _quote(deal["ext"]))
    item(f"  dealer {who(deal['dealer'])}")
    if "hands" in deal:
        item("  hands")
        for seat, hand in enumerate(deal["hands"]):
            item(f"    {who(seat)}: {' '.join(hand)}".rstrip())
    if "undealt" in deal:
        item("  undealt " + " ".join(deal["undealt"]))
    if "turnup" in deal:
        item(f"  turnup {deal['turnup']}")
    for key in ("bids",):
        if key in deal:
            item(f"  {key} " + " ".join(str(x) for x in deal[key]))
    for t, trick in enumerate(deal.get("tricks", ())):
        line = f"  {t + 1}. {who(trick['leader'])}: {' '.join(trick['cards'])}"
        if "winner" in trick:
            line += f" -> {who(trick['winner'])}"
        item(line)
        if "comment" in trick:
            item("     " + _comment(trick["comment"]))
        if "ext" in trick:
            item("     ext " + _quote(trick["ext"]))
    if "taken" in deal:
        item("  taken " + " ".join(str(x) for x in deal["taken"]))
    for ruling in deal.get("rulings", ()):
        item("  " + _ruling(ruling, who))
    score = deal.get("score", {})
    for key in ("points", "total"):
        if key in score:
            item(f"  {key} " + " ".join(str(x) for x in score[key]))
    return lines


def _ruling(ruling: Record, who: _Names) -> str:
    """A ruling as a deal item: the short form where it says everything, else ``ruling {JSON}``."""
    kind, keys = ruling.get("kind"), set(ruling)
    if kind == "misdeal" and keys == {"kind"}:
        return "misdeal"
    if kind == "claim" and keys == {"kind", "seat", "tricks"}:
        return f"claim {who(ruling['seat'])} {ruling['tricks']}"
    if kind == "revoke" and keys == {"kind", "trick", "seat"}:
        return f"revoke {ruling['trick']} {who(ruling['seat'])}"
    if kind == "adjustment" and keys == {"kind", "side", "points"}:
        return f"adjust {ruling['side']} {ruling['points']}"
    from phatlog.record import model  # the writer's key order; reading the notation needs no pydantic model

    return "ruling " + _quote(model.in_key_order({"deals": [{"rulings": [ruling]}]})["deals"][0]["rulings"][0])
