"""One way for every layer to report a problem: a ``Diagnostic`` with a stable code.

A diagnostic names its code (``PL303``), its severity, a message that names the cards and seats, the
place in the record as a JSON Pointer (RFC 6901) and, where the source is text, a line and column. The
human form of the place ("deal 3, trick 6, Dee's card") is derived from the pointer and the players'
names by :func:`describe_pointer`. Library code returns diagnostics; only the CLI prints them.

Every code is registered in :data:`CODES` with its name, severity and a one-line summary; the registry
is the source for ``docs/diagnostics.md`` and a test keeps the two in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final


class Severity(StrEnum):
    """How bad a problem is. Errors make ``verify`` fail; warnings and notes do not."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Code:
    """A registered diagnostic code."""

    code: str
    name: str
    severity: Severity
    summary: str


def _codes(*entries: tuple[str, str, Severity, str]) -> dict[str, Code]:
    return {c: Code(c, n, s, m) for c, n, s, m in entries}


ERR, WARN, NOTE = Severity.ERROR, Severity.WARNING, Severity.INFO

#: Every diagnostic code phatlog emits. Codes are stable: never renumber, only add.
CODES: Final[dict[str, Code]] = _codes(
    # PL0xx: reading the input
    ("PL001", "unreadable-file", ERR, "the file cannot be read (missing, a directory, no permission)"),
    ("PL002", "not-json", ERR, "the input is not JSON (syntax error, truncated, not UTF-8)"),
    ("PL003", "too-large", ERR, "the input is larger than the size limit"),
    ("PL004", "too-deep", ERR, "the JSON is nested more deeply than any record can be"),
    ("PL005", "unsupported-version", ERR, "the record's format version is not one this phatlog reads"),
    ("PL006", "empty-input", ERR, "the input holds no JSON document"),
    ("PL007", "many-records", ERR, "one record is needed, and the input holds several (name one: FILE:N)"),
    # PL1xx: structure (the schema)
    ("PL100", "schema", ERR, "the record does not match the schema"),
    ("PL101", "missing-key", ERR, "a required key is missing"),
    ("PL102", "unknown-key", ERR, "a key that the format does not define (often a typo)"),
    ("PL103", "wrong-type", ERR, "a value of the wrong JSON type"),
    ("PL104", "bad-card", ERR, "a string that is not a card in canonical spelling"),
    ("PL105", "wrong-count", ERR, "a list with the wrong number of items"),
    ("PL106", "out-of-range", ERR, "a number outside its allowed range"),
    ("PL107", "unknown-game", ERR, "a game that phatlog does not know"),
    ("PL108", "bad-value", ERR, "a value that is not one of the allowed choices"),
    ("PL109", "duplicate-key", ERR, "an object holds the same key twice (JSON readers differ on which counts)"),
    # PL2xx: the deal
    ("PL201", "duplicate-card", ERR, "the same card dealt twice, or to two players"),
    ("PL202", "wrong-dealer", ERR, "the dealer does not follow the rotation"),
    ("PL203", "hands-unknown", NOTE, "the hands were not recorded and could not all be inferred"),
    ("PL204", "missing-deal-card", ERR, "a card of the pack is in no hand"),
    ("PL205", "wrong-hand-size", ERR, "a hand with the wrong number of cards for this deal"),
    ("PL206", "bad-turnup", ERR, "the turned-up trump card is missing, was dealt to a player, or has no place"),
    ("PL207", "wrong-player-count", ERR, "a list that holds one entry a player has another length"),
    ("PL208", "bad-bid", ERR, "a bid out of range for the hand, or the dealer's bid forbidden by the hook"),
    ("PL209", "wrong-taken", ERR, "tricks taken that do not add up to the hand size or disagree with the tricks"),
    ("PL210", "player-in-two-seats", WARN, "one player id given to two or more seats of a record"),
    # PL3xx: the play
    ("PL301", "wrong-leader", ERR, "a trick led by the wrong player"),
    ("PL302", "card-not-held", ERR, "a card played by a player who was not dealt it, or played twice"),
    ("PL303", "revoke", ERR, "a player did not follow suit although able to"),
    ("PL304", "wrong-winner", ERR, "a trick's recorded winner is not the player who won it"),
    ("PL305", "play-after-end", ERR, "tricks recorded after the game was won"),
    ("PL306", "deal-incomplete", ERR, "a deal that stops before its last trick"),
    ("PL307", "deal-unscorable", WARN, "after an illegal play the rest of the deal cannot be scored"),
    ("PL308", "deal-after-end", ERR, "a deal recorded after the game was won"),
    ("PL309", "extra-trick", ERR, "more tricks than the hand has cards"),
    # PL31x: rulings (format 1.1)
    ("PL310", "ruled-revoke", NOTE, "a revoke that a ruling covers: it stands as played, and its penalty is pegged"),
    ("PL311", "ruling-out-of-range", ERR, "a ruling that names a seat, a side or a trick that does not exist"),
    ("PL312", "revoke-not-made", ERR, "a revoke ruling where that seat did not revoke in that trick"),
    ("PL313", "claim-too-many", ERR, "a claim for more tricks than remain to be played"),
    ("PL314", "wrong-penalty", ERR, "a revoke penalty that differs from the rules' fixed revoke_penalty"),
    ("PL315", "misdeal-played", ERR, "a misdeal (a void deal) that records play or a score"),
    ("PL316", "claim-unsound", WARN, "a claim the defence could have defeated, with every hand known"),
    ("PL317", "claim-underclaimed", NOTE, "a claim for fewer tricks than the claimer's side could not fail to take"),
    ("PL318", "claim-unchecked", NOTE, "a claim that cannot be checked against the cards (hands not known)"),
    # PL4xx: scores and result
    ("PL401", "wrong-points", ERR, "a deal's recorded points differ from what the rules give"),
    ("PL402", "wrong-total", ERR, "a recorded running total differs from the sum of the points"),
    ("PL403", "wrong-winner-result", ERR, "the recorded winner is not the side that won"),
    ("PL404", "wrong-final-total", ERR, "the recorded final totals differ from the running totals"),
    ("PL405", "game-unfinished", ERR, "the record ends before the game was won and does not say why"),
    ("PL406", "unchecked", NOTE, "something the record does not let the engine check"),
    ("PL407", "result-on-unfinished", ERR, "a winner is recorded for a game that nobody won"),
    ("PL410", "concession-winner", ERR, "a conceded, forfeited or abandoned game whose winner contradicts it"),
    # PL5xx: the cut
    ("PL501", "bad-cut", ERR, "the cut is not possible or does not give the recorded first pitcher"),
    # PL6xx: rules
    ("PL601", "bad-rules", ERR, "an invalid combination of rules parameters"),
    ("PL602", "engine-unavailable", ERR, "this phatlog cannot referee that game yet"),
    ("PL603", "rule-not-applicable", WARN, "a rules parameter that does not apply to the chosen variant (ignored)"),
    # PL7xx: converting between formats
    ("PL701", "notation-syntax", ERR, "text in another notation (text, CSV, OpenSpiel) that does not parse as it must"),
    ("PL702", "conversion-loss", WARN, "data that the target format cannot carry, dropped (only with --lossy)"),
    ("PL703", "cannot-represent", ERR, "a record, deal or game that the other format cannot represent at all"),
    # PL8xx: archives (duplicates, seat views against the master)
    (
        "PL801",
        "duplicate-record",
        WARN,
        "a record that repeats one seen earlier in the same run (the same fingerprint)",
    ),
    ("PL802", "duplicate-deal", WARN, "a deal with the same hands and dealer as one seen earlier in the run"),
    ("PL803", "not-a-view", ERR, "verify --master: a record that is not a seat's view of the master (no seat named)"),
    ("PL804", "view-other-game", ERR, "verify --master: the view's game, rules, event, players, cut or dealers differ"),
    ("PL805", "view-hand", ERR, "verify --master: the seat's own hand differs from the master's"),
    ("PL806", "view-card", ERR, "verify --master: a card seen (a trick's card or leader, the turn-up) differs"),
    ("PL807", "view-bid", ERR, "verify --master: a bid or a number of tricks taken differs"),
    ("PL808", "view-score", ERR, "verify --master: a deal's score or the result differs"),
    ("PL809", "view-hidden-card", WARN, "verify --master: the view shows cards its seat did not see"),
    # PL84x-PL85x: best-play analysis (phatlog analyse)
    ("PL840", "analysis-no-hands", ERR, "a deal whose hands are not recorded nor shown by its tricks: not analysed"),
    ("PL841", "analysis-no-cards", NOTE, "a deal recorded without cards (a score sheet): nothing to analyse"),
    ("PL842", "analysis-illegal-play", WARN, "an illegal play: the analysis of its deal stops there"),
    # PL88x: checking on a cluster
    ("PL880", "partition-failed", ERR, "a byte range of an input that the cluster could not check, even on a retry"),
)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in one place."""

    code: str
    message: str
    pointer: str = ""
    severity: Severity = Severity.ERROR
    place: str = ""
    line: int | None = None
    column: int | None = None

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def located(self, names: Sequence[str]) -> Diagnostic:
        """This diagnostic with its human place filled in from the pointer and the players' names."""
        if self.place:
            return self
        return replace(self, place=describe_pointer(self.pointer, names))

    def on_line(self, line: int) -> Diagnostic:
        """This diagnostic of one line of an archive, placed on that line: its line, and the line its
        message names (a syntax error "at line 1 column 36" of the line is at line ``line`` column 36)."""
        message = self.message
        if self.line is not None and self.column is not None:
            message = message.replace(
                f"at line {self.line} column {self.column}", f"at line {line + self.line - 1} column {self.column}"
            )
        return replace(self, line=line + (self.line or 1) - 1, message=message)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "pointer": self.pointer,
            "place": self.place,
            "message": self.message,
        }
        if self.line is not None:
            out["line"] = self.line
            out["column"] = self.column
        return out


def diag(code: str, message: str, pointer: str = "", **kw: Any) -> Diagnostic:
    """A diagnostic with the severity registered for its code."""
    return Diagnostic(code, message, pointer, CODES[code].severity, **kw)


def pointer(*parts: str | int) -> str:
    """A JSON Pointer from its reference tokens, escaped as RFC 6901 says."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_parts(ptr: str) -> list[str]:
    """The reference tokens of a JSON Pointer, unescaped."""
    if not ptr:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]


def seat_name(seat: int, names: Sequence[str]) -> str:
    """A player by name where the record gives one, else by seat number."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"seat {seat}"


def describe_pointer(ptr: str, names: Sequence[str] = ()) -> str:
    """A JSON Pointer for people: ``/deals/2/tricks/5/cards/3`` is "deal 3, trick 6, card 4".

    Deals, tricks, rounds and cards count from 1, as people count them; seats are named. A trick's card
    is named by its player when the pointer's context lets that be known (the caller passes it in the
    message instead: the pointer alone does not say who led).
    """
    parts = pointer_parts(ptr)
    if not parts:
        return "the record"
    words: list[str] = []
    i = 0
    while i < len(parts):
        key = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        index = int(nxt) if nxt is not None and nxt.isdigit() else None
        if key == "deals" and index is not None:
            words.append(f"deal {index + 1}")
            i += 2
        elif key == "tricks" and index is not None:
            words.append(f"trick {index + 1}")
            i += 2
        elif key == "cards" and index is not None:
            words.append(f"card {index + 1}")
            i += 2
        elif key == "hands" and index is not None:
            words.append(f"{seat_name(index, names)}'s hand")
            if i + 2 < len(parts) and parts[i + 2].isdigit():
                words.append(f"card {int(parts[i + 2]) + 1}")
                i += 1
            i += 2
        elif key == "players" and index is not None:
            words.append(f"player {index} ({seat_name(index, names)})")
            i += 2
        elif key == "cut" and index is not None:
            words.append(f"cut round {index + 1}")
            if i + 2 < len(parts) and parts[i + 2].isdigit():
                words.append(f"{seat_name(int(parts[i + 2]), names)}'s card")
                i += 1
            i += 2
        elif key in ("points", "total") and index is not None:
            words.append(f"{key} of side {index}")
            i += 2
        elif index is not None:
            words.append(f"{key} item {index + 1}")
            i += 2
        else:
            words.append(key)
            i += 1
    return ", ".join(words)
