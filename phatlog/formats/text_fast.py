"""The text notation's fast path: a line at a time, straight to the plain data of a record (issue 16).

The full reader (:mod:`phatlog.formats.text`) reads any text the grammar allows and explains every
mistake; it makes a token at a time and checks the record with the models. Most texts are laid out as the
writer lays them out: tags one a line (or several), then each deal's items one a line. This module reads
exactly that layout with ``str.split`` and a few compiled patterns over whole lines, and builds the very
dict the full reader builds before it checks it. Anything it does not recognise with certainty (a layout
the writer does not use, JSON across lines or with a fraction, a leader left out, a name that could be
read two ways, any mistake) makes it **decline** (return None): the caller then asks the full reader, which stays the
reference and gives every diagnostic as before. So the fast path changes the speed, never the result;
``tests/test_text_fast.py`` holds the two together.

No pydantic here (``verify`` of a text archive starts without it): :func:`record` makes the canonical
form with the schema's compiled decoder (``wire.canonical_record``, no model built) and :func:`wire_record`
the structs ``verify`` checks (:mod:`phatlog.formats.text_files` reads a file's games with it). This module
imports neither the full reader nor the files' reader: a caller falls back on the full reader itself.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, NoReturn

import msgspec

from phatlog.record import constants
from phatlog.record import decoder as wire

# ---------------------------------------------------------------------------------------- cards

#: Every spelling of a card that ``formats.base.parse_card`` reads, without variation selectors: rank then
#: suit, or suit then rank (rank first wins, as there). Built once; tests hold it to ``parse_card``.
_RANKS: Final = {**{r: r for r in "23456789TJQKA"}, **{r.lower(): r for r in "TJQKA"}, "10": "T"}
_SUITS: Final = {
    **{s: s for s in "CDHS"},
    **{s.lower(): s for s in "CDHS"},
    **dict(zip("♣♦♥♠♧♢♡♤", "CDHSCDHS", strict=True)),
}
CARDS: Final[dict[str, str]] = {
    **{s + r: rank + suit for r, rank in _RANKS.items() for s, suit in _SUITS.items()},
    **{r + s: rank + suit for r, rank in _RANKS.items() for s, suit in _SUITS.items()},
}

# ---------------------------------------------------------------------------------------- patterns

#: White space the full scanner treats otherwise than ``str.split`` (its words end only at ASCII space),
#: and surrogates (not Unicode text): a text holding any is left to the full reader.
_ODD_SPACE: Final = re.compile(
    "[\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ud800-\udfff]"
)
#: One tag: a name and a JSON string without escapes or control characters, or plain text.
_TAG: Final = re.compile(
    r'[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)(?:[ \t]*"([^"\\\x00-\x1f\x7f]*)"[ \t]*|[ \t]+((?![\s"{\[])[^\]\n]*))\]'
)
_BLANK: Final = re.compile(r"[ \t\r]*")
#: A bare name (as the writer writes one) and a seat number.
_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")
_DIGITS: Final = re.compile(r"[0-9]{1,18}")
_INTEGER: Final = re.compile(r"[+-]?[0-9]{1,18}")
_INTEGERS: Final = re.compile(r"(?:[+-]?[0-9]{1,18}(?: [+-]?[0-9]{1,18})*)?")
#: How the writer numbers tricks: "1." to "61." (more tricks than any game has; past them, declined).
_TRICK_NUMBERS: Final = tuple(f"{n}." for n in range(1, 62))
#: A comment as a JSON string (``comment "..."``): no escapes, no control characters.
_QUOTED: Final = re.compile(r'[ \t]*comment[ \t]*"([^"\\\x00-\x1f\x7f]*)"[ \t\r]*', re.I)
#: One ``key=value`` rule whose value is a plain word, a whole number, true/false or a list of whole numbers.
_RULE: Final = re.compile(r"([^\s=,\[\]\"]+)=(\S+)")
_RULE_WORD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_JSON_INT: Final = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_INT_LIST: Final = re.compile(r"\[(?:-?(?:0|[1-9][0-9]{0,17})(?:,-?(?:0|[1-9][0-9]{0,17}))*)?\]")

#: A deal item whose value is a JSON object on the rest of its line, and a tag whose value is one.
_JSON_ITEM: Final = re.compile(r"[ \t]*(ruling|ext)[ \t]*(\{.*\})[ \t\r]*", re.I)
_JSON_TAG: Final = re.compile(r"[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*(\{.*\})[ \t]*\][ \t\r]*")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def _no(_: str) -> NoReturn:
    raise _Decline  # a fraction, NaN or Infinity: the full reader decides


def _bounded(digits: str) -> int:
    if len(digits.lstrip("-")) > 18:
        raise _Decline  # perhaps beyond the bound of every reader: the full reader decides
    return int(digits)


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Decline  # a key twice: the full reader says so
    return out


#: JSON as the full reader's decoder (``formats.base.JSON``) reads it where the two agree, else declined.
_JSON: Final = json.JSONDecoder(parse_int=_bounded, parse_float=_no, parse_constant=_no, object_pairs_hook=_pairs)


def _object(source: str) -> dict[str, Any]:
    """A JSON object that is the whole of ``source``."""
    if _SURROGATE_ESCAPE.search(source):
        raise _Decline
    value = _JSON.decode(source)
    if not isinstance(value, dict):
        raise _Decline
    return value


#: Tags that hold one string, and where it goes: (object, key); the full reader (``formats.text``) reads
#: the same table.
STRING_TAGS: Final = {
    "phatlog": (None, "phatlog"),
    "game": (None, "game"),
    "event": ("event", "name"),
    "site": ("event", "site"),
    "date": ("event", "date"),
    "round": ("event", "round"),
    "table": ("event", "table"),
    "board": ("event", "board"),
    "scorer": ("event", "scorer"),
    "source": ("event", "source"),
    "status": ("result", "status"),
    "reason": ("result", "reason"),
}
_REPEATABLE: Final = frozenset({"player", "cut", "comment", "rules"})
_SIMPLE_ITEMS: Final = frozenset({"dealer", "hands", "undealt", "turnup", "bids", "taken", "points", "total"})


class _Decline(Exception):
    """Not read here: the full reader decides."""


def _int(token: str) -> int:
    if _INTEGER.fullmatch(token) is None:
        raise _Decline
    return int(token)


def _ints(tokens: list[str]) -> list[int]:
    """Whole numbers, each as ``_int`` reads it, with one test for them all."""
    if _INTEGERS.fullmatch(" ".join(tokens)) is None:
        raise _Decline
    return [int(t) for t in tokens]


def _cards(tokens: list[str]) -> list[str]:
    try:
        return [CARDS[t] for t in tokens]
    except KeyError:
        raise _Decline from None


class _Seats:
    """Seats written as numbers or as players' names, looked up as the full reader's ``who`` does: a
    number is a seat number; else a name held by one player exactly, else by one player ignoring case."""

    def __init__(self, names: list[str | None]) -> None:
        self.exact: dict[str, int | None] = {}
        self.folded: dict[str, int | None] = {}
        for seat, name in enumerate(names):
            if name is None:
                continue  # a player given as a JSON object without a name
            self.exact[name] = None if name in self.exact else seat
            key = name.casefold()
            self.folded[key] = None if key in self.folded else seat
        #: What most seats are written as, looked up at once: seat numbers, and names held by one player.
        self.known: dict[str, int] = {str(n): n for n in range(10)}
        for name, held in self.exact.items():
            if held is not None and _NAME.fullmatch(name):
                self.known[name] = held
        #: The same as labels (``Ann:``), as a trick's leader is written.
        self.labels: dict[str, int] = {f"{key}:": seat for key, seat in self.known.items()}

    def __call__(self, token: str) -> int:
        seat = self.known.get(token)
        if seat is not None:
            return seat
        if _DIGITS.fullmatch(token):
            return int(token)
        if _NAME.fullmatch(token) is None or token in self.exact:
            raise _Decline  # not a seat as the writer writes one, or two players of that name
        folded = self.folded.get(token.casefold())
        if folded is None:
            raise _Decline  # no player of that name, or two: the full reader says so
        return folded


def _rules(value: str) -> dict[str, Any]:
    """``key=value`` items separated by single spaces, each value a word, a number, a flag or a list."""
    rules: dict[str, Any] = {}
    for item in value.split():
        m = _RULE.fullmatch(item)
        if m is None:
            raise _Decline
        key, text = m[1], m[2]
        if key in rules:
            raise _Decline
        parsed: Any
        if _JSON_INT.fullmatch(text):  # JSON where it is JSON: not ``+1`` or ``007``, which stay text
            parsed = int(text)
        elif text in ("true", "false"):
            parsed = text == "true"
        elif _INT_LIST.fullmatch(text):
            parsed = [int(x) for x in text[1:-1].split(",")] if text != "[]" else []
        elif _RULE_WORD.fullmatch(text) and text not in ("null", "NaN", "Infinity"):
            parsed = text
        else:
            raise _Decline
        rules[key] = parsed
    return rules


# ---------------------------------------------------------------------------------------- reading


def build(text: str) -> dict[str, Any] | None:
    """The dict the full reader builds from ``text`` before it checks it, or None (declined)."""
    if _ODD_SPACE.search(text) is not None:
        return None
    try:
        return _Reader(text).document()
    except Exception:  # _Decline, or anything unforeseen: the full reader decides, and explains
        return None


def record(text: str) -> dict[str, Any] | None:
    """The canonical record of ``text`` (what the full reader gives for a valid one), or None: read it
    with the full reader (not recognised here, or not a valid record, whose diagnostics it gives)."""
    built = build(text)
    if built is None:
        return None
    cut = built.get("cut")
    if not cut or all(None not in r for r in cut if isinstance(r, list)):
        return wire.canonical_record(msgspec.json.encode(built))
    # A seat that did not cut is a null, which the canonical decoder leaves to the models. The record is
    # valid if the checking decoder takes it whole; the canonical form is then the rest's, with the cut
    # (nothing in it to drop or reorder) in its place.
    try:
        wire.decode(msgspec.json.encode(built))
    except (msgspec.DecodeError, ValueError, RecursionError):
        return None
    rest = wire.canonical_record(msgspec.json.encode({k: v for k, v in built.items() if k != "cut"}))
    if rest is None:
        return None
    from phatlog.record.model import KEY_ORDER  # loaded already where this is called (``formats.text``)

    merged = {**rest, "cut": cut}
    head = {key: merged[key] for key in KEY_ORDER["record"] if key in merged}
    head.update((key, value) for key, value in merged.items() if key not in head)
    return head


def wire_record(text: str) -> Any | None:
    """The record of ``text`` as the structs ``verify`` checks (``wire.decode``), or None: the full reader."""
    built = build(text)
    if built is None:
        return None
    try:
        return wire.decode(msgspec.json.encode(built))
    except (msgspec.DecodeError, ValueError, RecursionError):
        return None


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.at = 0  # the next line's index
        self.record: dict[str, Any] = {}
        self.seats = _Seats([])

    def brace(self, line: str, start: int) -> str:
        """The comment in braces that opens at ``start`` of ``line`` (the line just read), however many
        lines it spans; the rest of its last line must be blank."""
        end = line.find("}", start + 1)
        if end >= 0:
            if _BLANK.fullmatch(line, end + 1) is None:
                raise _Decline
            return line[start + 1 : end]
        parts = [line[start + 1 :]]
        lines = self.lines
        while self.at < len(lines):
            more = lines[self.at]
            self.at += 1
            end = more.find("}")
            if end >= 0:
                if _BLANK.fullmatch(more, end + 1) is None:
                    raise _Decline
                parts.append(more[:end])
                return "\n".join(parts)
            parts.append(more)
        raise _Decline  # no closing brace

    def split_comment(self, line: str) -> tuple[str, str | None]:
        """A line without quotes as its items and the comment that ends it (``{...}`` or ``; ...``), if any."""
        brace, semi = line.find("{"), line.find(";")
        if brace < 0 and semi < 0:
            if "}" in line:
                raise _Decline
            return line, None
        if brace >= 0 and (semi < 0 or brace < semi):
            items = line[:brace]
            if "}" in items:
                raise _Decline
            return items, self.brace(line, brace)
        items = line[:semi]
        if "}" in items:
            raise _Decline
        return items, line[semi + 1 :].strip()

    # ------------------------------------------------------------------ the header

    def document(self) -> dict[str, Any]:
        rec = self.record
        comments: list[str] = []
        seen: set[str] = set()
        names: list[str | None] = []
        lines = self.lines
        deals: list[dict[str, Any]] = []
        while self.at < len(lines):
            line = lines[self.at]
            stripped = line.strip()
            if not stripped:
                self.at += 1
                continue
            if stripped[0] == "[":
                self.at += 1
                self.tags(line, comments, seen, names)
                continue
            if stripped[0] in "{;":
                self.at += 1
                items, comment = self.split_comment(line)
                if items.strip() or comment is None:
                    raise _Decline
                comments.append(comment)
                continue
            break
        if comments:
            rec["comment"] = "\n".join(comments)
        rec.setdefault("phatlog", "1.0")
        self.seats = _Seats(names)
        if self.at < len(lines):
            if "game" not in rec:
                raise _Decline
            line = lines[self.at]
            self.at += 1
            head: tuple[list[str], str | None] | None = self.head(line)
            while head is not None:
                head = self.deal(*head, len(deals), deals)
        rec["deals"] = deals
        if rec["phatlog"] == "1.0":
            rec["phatlog"] = constants.version_for(rec)
        return rec

    def tags(self, line: str, comments: list[str], seen: set[str], names: list[str | None]) -> None:
        if "{" in line:  # one tag whose value is a JSON object
            m = _JSON_TAG.fullmatch(line)
            if m is None:
                raise _Decline
            key = m[1].lower()
            if key not in _REPEATABLE:
                if key in seen:
                    raise _Decline
                seen.add(key)
            self.json_tag(key, _object(m[2]), names)
            return
        pos = 0
        while pos < len(line):
            m = _TAG.match(line, pos)
            if m is None:
                if _BLANK.fullmatch(line, pos) is None:
                    raise _Decline
                return
            pos = m.end()
            key = m[1].lower()
            value = m[2] if m[2] is not None else m[3].strip()
            if key not in _REPEATABLE:
                if key in seen:
                    raise _Decline
                seen.add(key)
            self.tag(key, value, comments, names)

    def json_tag(self, key: str, value: dict[str, Any], names: list[str | None]) -> None:
        rec = self.record
        if key == "ext":
            rec["ext"] = value
        elif key == "eventext":
            rec.setdefault("event", {})["ext"] = value
        elif key == "rules":
            rules = rec.setdefault("rules", {})
            for k, v in value.items():
                if k in rules:
                    raise _Decline
                rules[k] = v
        elif key == "player":
            rec.setdefault("players", []).append(value)
            name = value.get("name")
            names.append(name if isinstance(name, str) else None)
        else:  # a tag that takes text, or none the full reader knows
            raise _Decline

    def tag(self, key: str, value: str, comments: list[str], names: list[str | None]) -> None:
        rec = self.record
        if key in STRING_TAGS:
            obj, field = STRING_TAGS[key]
            if key == "game":
                value = re.sub(r"[\s-]+", "_", value.strip().lower())
            target = rec if obj is None else rec.setdefault(obj, {})
            target[field] = value
        elif key == "comment":
            comments.append(value)
        elif key == "rules":
            rules = rec.setdefault("rules", {})
            for k, v in _rules(value).items():
                if k in rules:
                    raise _Decline
                rules[k] = v
        elif key == "player":
            rec.setdefault("players", []).append({"name": value})
            names.append(value)
        elif key == "cut":
            cut: list[str | None] = []
            for part in value.split():
                cut.append(None if part == "-" else CARDS[part])
            rec.setdefault("cut", []).append(cut)
        elif key == "by":
            rec.setdefault("result", {})["by"] = _int(value.strip())
        elif key in ("winner", "total"):
            rec.setdefault("result", {})[key] = [_int(p) for p in value.replace(",", " ").split()]
        else:  # ext, eventext (JSON objects), or a tag the full reader refuses
            raise _Decline

    # ------------------------------------------------------------------ deals

    def head(self, line: str) -> tuple[list[str], str | None]:
        """A deal's first line: its words (``deal`` and the number, if given) and its comment."""
        items, comment = self.split_comment(line)
        return items.split(), comment

    def deal(
        self, words: list[str], comment: str | None, index: int, deals: list[dict[str, Any]]
    ) -> tuple[list[str], str | None] | None:
        """Read one deal into ``deals``; the next deal's first line (:meth:`head`), or None at the end."""
        if not words or words[0].lower() != "deal" or len(words) > 2:
            raise _Decline
        if len(words) == 2 and (_DIGITS.fullmatch(words[1]) is None or int(words[1]) != index + 1):
            raise _Decline
        deal: dict[str, Any] = {}
        comments: list[str] = [] if comment is None else [comment]
        tricks: list[dict[str, Any]] = []
        trick_comments: dict[int, list[str]] = {}
        seen: set[str] = set()
        last: int | None = None  # the trick that a comment just after it belongs to
        seats, lines, cards = self.seats, self.lines, CARDS
        hand_lines = False  # the lines after ``hands``: one hand a line, labelled
        hands: dict[int, list[str]] = {}
        labels = seats.labels
        expect = _TRICK_NUMBERS[0]
        at, end = self.at, len(lines)  # self.at kept up to date where a comment may span lines, and on leaving
        while at < end:
            line = lines[at]
            at += 1
            comment = None
            if '"' in line or "{" in line or ";" in line or "}" in line:  # JSON, a quoted comment, a comment
                m = _JSON_ITEM.fullmatch(line) if "{" in line else None
                if m is not None:
                    if hand_lines:
                        deal["hands"], hand_lines = self.hands_done(hands), False
                    value = _object(m[2])
                    if m[1].lower() == "ruling":
                        last = None
                        deal.setdefault("rulings", []).append(value)
                    else:
                        target = deal if last is None else tricks[last]
                        if "ext" in target:
                            raise _Decline
                        target["ext"] = value
                    continue
                if '"' in line:
                    m = _QUOTED.fullmatch(line)
                    if m is None:
                        raise _Decline
                    if hand_lines:
                        deal["hands"], hand_lines = self.hands_done(hands), False
                    (comments if last is None else trick_comments.setdefault(last, [])).append(m[1])
                    continue
                self.at = at
                line, comment = self.split_comment(line)
                at = self.at
            words = line.split()
            if not words and comment is None:
                continue  # a blank line: nothing ends here
            first = words[0] if words else ""
            if first == expect:  # a trick, most lines, numbered as the writer numbers the next one
                if len(words) < 3:
                    raise _Decline
                if hand_lines:
                    deal["hands"], hand_lines = self.hands_done(hands), False
                leader = labels.get(words[1])
                if leader is None:
                    label = words[1]
                    if label[-1] != ":" or len(label) < 2:
                        raise _Decline  # the leader left out (worked out by the full reader), or written otherwise
                    leader = seats(label[:-1])
                try:
                    if words[-2] == "->":
                        played = [cards[w] for w in words[2:-2]]
                        trick = {"leader": leader, "cards": played, "winner": seats(words[-1])}
                    else:
                        played = [cards[w] for w in words[2:]]
                        trick = {"leader": leader, "cards": played}
                except KeyError:
                    raise _Decline from None
                if not played:
                    raise _Decline
                last = len(tricks)
                tricks.append(trick)
                expect = _TRICK_NUMBERS[last + 1]
                if comment is not None:
                    trick_comments.setdefault(last, []).append(comment)
                continue
            if first[-1:] == ".":
                raise _Decline  # a trick numbered otherwise (the full reader says if that is wrong), or not a trick
            if hand_lines and first[-1:] == ":" and len(first) > 1:
                label = first[:-1]
                if label in cards:
                    raise _Decline  # a hand whose cards run on into this word: the full reader decides
                seat = seats(label)
                if seat in hands:
                    raise _Decline
                hands[seat] = _cards(words[1:])
                if comment is not None:  # ends the hands: the full reader reads no label after it
                    deal["hands"], hand_lines = self.hands_done(hands), False
                    comments.append(comment)
                continue
            if hand_lines:
                deal["hands"], hand_lines = self.hands_done(hands), False
            if not words:
                if comment is not None:
                    (comments if last is None else trick_comments.setdefault(last, [])).append(comment)
                continue
            word = first.lower()
            if word == "deal":
                self.at = at
                self.finish(deal, tricks, trick_comments, comments, hand_lines, hands)
                deals.append(deal)
                return words, comment
            if word in _SIMPLE_ITEMS:
                if word in seen:
                    raise _Decline
                seen.add(word)
                last = None
                if word == "hands":
                    if len(words) != 1 or comment is not None:
                        raise _Decline  # hands on this line, or none (a comment ends them): the full reader
                    hand_lines = True
                else:
                    self.item(word, words, deal)
            elif word in ("misdeal", "claim", "revoke", "adjust"):
                last = None
                deal.setdefault("rulings", []).append(self.ruling(word, words))
            else:  # ext and ruling (JSON objects), a card mistyped, anything else
                raise _Decline
            if comment is not None:
                comments.append(comment)
        self.at = at
        self.finish(deal, tricks, trick_comments, comments, hand_lines, hands)
        deals.append(deal)
        return None

    def finish(
        self,
        deal: dict[str, Any],
        tricks: list[dict[str, Any]],
        trick_comments: dict[int, list[str]],
        comments: list[str],
        hand_lines: bool,
        hands: dict[int, list[str]],
    ) -> None:
        """A deal's last parts: the hands if they were the last item, the comments, the tricks."""
        if hand_lines:
            deal["hands"] = self.hands_done(hands)
        for t, notes in trick_comments.items():
            tricks[t]["comment"] = "\n".join(notes)
        if comments:
            deal["comment"] = "\n".join(comments)
        if tricks:
            deal["tricks"] = tricks

    @staticmethod
    def hands_done(hands: dict[int, list[str]]) -> list[list[str]]:
        if not hands or sorted(hands) != list(range(len(hands))):
            raise _Decline
        return [hands[seat] for seat in range(len(hands))]

    def item(self, word: str, words: list[str], deal: dict[str, Any]) -> None:
        rest = words[1:]
        if word == "dealer":
            if len(rest) != 1:
                raise _Decline
            deal["dealer"] = self.seats(rest[0])
        elif word == "undealt":
            deal["undealt"] = _cards(rest)
        elif word == "turnup":
            if len(rest) != 1:
                raise _Decline
            if rest[0].lower() != "none":
                deal["turnup"] = _cards(rest)[0]
        elif word in ("bids", "taken"):
            deal[word] = _ints(rest)
        else:  # points, total
            deal.setdefault("score", {})[word] = _ints(rest)

    def ruling(self, word: str, words: list[str]) -> dict[str, Any]:
        if word == "misdeal":
            if len(words) != 1:
                raise _Decline
            return {"kind": "misdeal"}
        if len(words) != 3:
            raise _Decline
        if word == "claim":
            seat = self.seats(words[1])
            count: int | str = "rest" if words[2].lower() == "rest" else _int(words[2])
            return {"kind": "claim", "seat": seat, "tricks": count}
        if word == "revoke":
            return {"kind": "revoke", "trick": _int(words[1]), "seat": self.seats(words[2])}
        return {"kind": "adjustment", "side": _int(words[1]), "points": _int(words[2])}
