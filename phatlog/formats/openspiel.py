"""OpenSpiel's ``oh_hell``: the text that ``pyspiel.serialize_game_and_state`` writes, one hand a game.

OpenSpiel serialises a game and a state as a ``[Game]`` section (the game string, ``oh_hell(players=4)``)
and a ``[State]`` section: every action from the start, one a line. For ``oh_hell`` the actions are

1. a chance action: the number of tricks ``k`` (the hand size);
2. a chance action: the dealer's seat;
3. ``players * k`` chance actions dealing the cards, card ``j`` to seat ``j mod players`` (seat 0 first,
   whoever deals), then one chance action for the card turned up for trump;
4. one action a bid, ``52 + bid``, from the dealer's left round to the dealer;
5. one action a card played, trick by trick, the winner of each trick leading the next.

A card is ``rank * 4 + suit`` with the ranks 2 … A as 0 … 12 and the suits in the order C, D, S, H (so
0 is the two of clubs, 3 the two of hearts, 51 the ace of hearts). The game is Oh Hell with the hook on
(the last bidder may not make the bids add up to ``k``), sequential bidding, follow suit, and always a
trump. It scores ``points_per_trick`` a trick taken plus 10 for a made bid (``off_bid_penalty=False``), or
10 plus the tricks for a made bid and minus ``points_per_trick`` a trick off for a missed one
(``off_bid_penalty=True``). With ``points_per_trick=1`` these are phatlog's ``miss: tricks`` and ``miss:
minus_diff``; a hand of OpenSpiel is therefore a one-hand phatlog game with the rules ``schedule: [k]``,
``no_trump: never``, ``hook: true`` and ``miss`` as above. ``docs/formats.md`` gives the evidence.

Reading needs no OpenSpiel: this module replays the actions itself, with OpenSpiel's rules, and refuses an
action OpenSpiel would not allow (PL701, with its line). Everything a phatlog record holds that the actions
do not (the players' names, the event, comments, extension objects, a recorded score) is written on a
comment line, ``# phatlog: {...}``, which OpenSpiel skips (it skips every line that starts with ``#``), so a
record written here and read back is the same record. The game string read is kept in the record's
``ext.openspiel.game`` and written again, so an OpenSpiel file read and written back is the same file.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, Final

from pydantic import BaseModel, ValidationError

from phatlog.diagnostics import Diagnostic, diag
from phatlog.formats import base
from phatlog.formats.base import ConversionError, Parsed, Positions, Record
from phatlog.record.model import OhHellRules
from phatlog.rules import oh_hell
from phatlog.rules.cards import Card
from phatlog.rules.table import first_leader, left_of
from phatlog.rules.trick import FollowRule, may_play
from phatlog.rules.trick import winning_position as trick_winning_position

NAME: Final = "openspiel"
SUFFIXES: Final = (".openspiel", ".spiel")
MANY: Final = False

RANKS: Final = "23456789TJQKA"
SUITS: Final = "CDSH"  # OpenSpiel's order of the suits
_SUIT_NAMES: Final = ("club", "diamond", "spade", "heart")
PACK: Final = 52
BID_BASE: Final = 52  # a bid b is the action 52 + b
HEADER: Final = "# Written by phatlog in the form of OpenSpiel's SerializeGameAndState"
EXTRAS: Final = "# phatlog: "
DEFAULTS: Final[dict[str, Any]] = {
    "players": 3,
    "num_suits": 4,
    "num_cards_per_suit": 13,
    "num_tricks_fixed": -1,
    "off_bid_penalty": False,
    "points_per_trick": 1,
}


def action_of(card: str) -> int:
    """OpenSpiel's action (and card number) for a canonical card: ``rank * 4 + suit``, suits C, D, S, H."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def card_of(action: int) -> str:
    """The canonical card for OpenSpiel's card number 0..51."""
    return RANKS[action // 4] + SUITS[action % 4]


#: phatlog's :class:`Card` for each of OpenSpiel's card numbers, to hand the engine's rules.
_CARD: Final[tuple[Card, ...]] = tuple(Card.parse(card_of(a)) for a in range(PACK))


def default_name(seat: int) -> str:
    """The name a player gets when a hand is read from OpenSpiel, which names nobody."""
    return f"Player {seat}"


# ---------------------------------------------------------------------------------------- the game string


class _Bad(Exception):
    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message


def parse_game(text: str) -> dict[str, Any]:
    """The parameters a game string gives (only those it gives), for ``oh_hell``; raises ``_Bad``."""
    m = re.fullmatch(r"\s*([A-Za-z_][\w]*)\s*(?:\((.*)\))?\s*", text)
    if m is None:
        raise _Bad("PL701", f"expected a game string such as oh_hell(players=4), found {text!r}")
    if m[1] != "oh_hell":
        raise _Bad("PL703", f"phatlog reads OpenSpiel's oh_hell, not {m[1]}")
    params: dict[str, Any] = {}
    body = (m[2] or "").strip()
    for item in body.split(",") if body else ():
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in DEFAULTS:
            known = ", ".join(DEFAULTS)
            raise _Bad("PL701", f"oh_hell has no parameter {item.strip()!r} (its parameters are {known})")
        if key in params:
            raise _Bad("PL701", f"the parameter {key} is given twice")
        want = type(DEFAULTS[key])
        if want is bool:
            if value not in ("True", "False", "true", "false"):
                raise _Bad("PL701", f"{key} is True or False, not {value!r}")
            params[key] = value in ("True", "true")
        elif re.fullmatch(r"[+-]?\d+", value):
            try:
                params[key] = base.parse_int(value)
            except base.NumberError as exc:
                raise _Bad("PL701", f"{key}: {exc}") from None
        else:
            raise _Bad("PL701", f"{key} is an integer, not {value!r}")
    return params


def game_string(params: Mapping[str, Any]) -> str:
    """A game string as OpenSpiel writes it: parameters sorted by name, booleans True and False."""
    shown = ",".join(f"{k}={(str(v) if isinstance(v, bool) else v)}" for k, v in sorted(params.items()))
    return f"oh_hell({shown})"


def check_game(params: Mapping[str, Any]) -> dict[str, Any]:
    """All the parameters (defaults filled in), if phatlog can hold the game; raises ``_Bad`` if not."""
    full = {**DEFAULTS, **params}
    n = full["players"]
    if not 3 <= n <= 7:
        raise _Bad("PL701", f"oh_hell is for 3 to 7 players, not {n}")
    if (full["num_suits"], full["num_cards_per_suit"]) != (4, 13):
        raise _Bad(
            "PL703",
            f"this game uses a pack of {full['num_suits']} suits of {full['num_cards_per_suit']} cards; "
            "phatlog's Oh Hell uses the full pack of 52",
        )
    if full["points_per_trick"] != 1:
        raise _Bad(
            "PL703",
            f"this game scores {full['points_per_trick']} points a trick; phatlog's Oh Hell scores 1 a trick "
            "(10 + the tricks for a made bid)",
        )
    fixed = full["num_tricks_fixed"]
    if fixed != -1 and not 1 <= fixed <= (PACK - 1) // n:
        raise _Bad(
            "PL703",
            f"num_tricks_fixed={fixed} cannot be dealt to {n} players with a card left to turn up "
            f"(1 to {(PACK - 1) // n})",
        )
    return full


# ---------------------------------------------------------------------------------------- the table


class _Illegal(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


class Table:
    """One hand of OpenSpiel's ``oh_hell``, replayed action by action with OpenSpiel's rules."""

    def __init__(self, players: int, fixed: int, names: Sequence[str] = ()) -> None:
        self.n = players
        self.fixed = fixed
        self.names = list(names) or [default_name(s) for s in range(players)]
        self.k = 0
        self.dealer = -1
        self.dealt: list[int] = []
        self.holder: dict[int, int] = {}
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.trump = -1
        self.bids: list[int | None] = [None] * players
        self.current = -1
        self.tricks: list[tuple[int, list[int]]] = []
        self.won = [0] * players
        self.phase = "tricks"

    def who(self, seat: int) -> str:
        return self.names[seat]

    def apply(self, action: int) -> None:
        """Apply one action, or raise ``_Illegal`` saying why OpenSpiel would not allow it."""
        handler = {
            "tricks": self._tricks,
            "dealer": self._dealer,
            "deal": self._deal,
            "bid": self._bid,
            "play": self._play,
        }.get(self.phase)
        if handler is None:
            raise _Illegal(f"the hand is over, but action {action} follows")
        handler(action)

    def _tricks(self, k: int) -> None:
        top = (PACK - 1) // self.n
        if self.fixed > 0 and k != self.fixed:
            raise _Illegal(f"the first action is the number of tricks, {self.fixed} in this game, not {k}")
        if not 1 <= k <= top:
            raise _Illegal(f"the first action is the number of tricks, 1 to {top} for {self.n} players, not {k}")
        self.k = k
        self.phase = "dealer"

    def _dealer(self, seat: int) -> None:
        if not 0 <= seat < self.n:
            raise _Illegal(f"the second action is the dealer's seat, 0 to {self.n - 1}, not {seat}")
        self.dealer = seat
        self.phase = "deal"

    def _deal(self, card: int) -> None:
        if not 0 <= card < PACK:
            raise _Illegal(f"a card dealt is 0 to 51, not {card}")
        if card in self.holder or card == self.trump or card in self.dealt:
            raise _Illegal(f"the card {card} ({card_of(card)}) is dealt twice")
        if len(self.dealt) < self.n * self.k:
            seat = len(self.dealt) % self.n
            self.holder[card] = seat
            self.hands[seat].append(card)
            self.dealt.append(card)
            return
        self.trump = card
        self.phase = "bid"
        self.current = first_leader(self.dealer, self.n)

    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids the player to bid now, if they bid last (``oh_hell.forbidden_bid``)."""
        if any(b is None for s, b in enumerate(self.bids) if s != self.current):
            return None
        return oh_hell.forbidden_bid(sum(b for b in self.bids if b is not None), self.k)

    def _bid(self, action: int) -> None:
        bid = action - BID_BASE
        if not 0 <= bid <= self.k:
            raise _Illegal(
                f"{self.who(self.current)} bids: a bid is the action 52 + the bid, 52 to {BID_BASE + self.k} "
                f"in a hand of {self.k}, not {action}"
            )
        if bid == self.forbidden_bid():
            raise _Illegal(
                f"{self.who(self.current)} bids {bid} last, which makes the bids add up to the {self.k} "
                "trick(s): the hook forbids it"
            )
        self.bids[self.current] = bid
        self.current = left_of(self.current, self.n)
        if self.current == first_leader(self.dealer, self.n):
            self.phase = "play"

    def _play(self, card: int) -> None:
        seat = self.current
        who = self.who(seat)
        if not 0 <= card < PACK or self.holder.get(card) != seat:
            shown = card_of(card) if 0 <= card < PACK else str(card)
            owner = self.holder.get(card)
            why = "which nobody holds" if owner is None else f"which {self.who(owner)} holds"
            raise _Illegal(f"{who} is to play, but the action is {card} ({shown}), {why}")
        if not self.tricks or len(self.tricks[-1][1]) == self.n:
            self.tricks.append((seat, []))
        leader, cards = self.tricks[-1]
        if cards:
            hand = [_CARD[c] for c in self.hands_held(seat)]
            led = _CARD[cards[0]].suit
            if not may_play(_CARD[card], hand, led, _CARD[self.trump].suit, FollowRule.MUST_FOLLOW):
                following = sorted(c for c in self.hands_held(seat) if c % 4 == cards[0] % 4)
                holding = " ".join(card_of(c) for c in following)
                raise _Illegal(
                    f"{who} plays {card_of(card)} to a {_SUIT_NAMES[cards[0] % 4]} lead while holding {holding}: "
                    "players must follow suit"
                )
        del self.holder[card]
        cards.append(card)
        if len(cards) < self.n:
            self.current = left_of(seat, self.n)
            return
        winner = (leader + self.winning_position(cards)) % self.n
        self.won[winner] += 1
        self.current = winner
        if len(self.tricks) == self.k:
            self.phase = "over"

    def hands_held(self, seat: int) -> list[int]:
        return [c for c, s in self.holder.items() if s == seat]

    def winning_position(self, cards: Sequence[int]) -> int:
        """Which card wins a trick (OpenSpiel's ``Trick::Play`` agrees): ``tricks.winning_position``."""
        return trick_winning_position([_CARD[c] for c in cards], _CARD[self.trump].suit)

    def returns(self, off_bid_penalty: bool) -> list[int]:
        """OpenSpiel's returns for a finished hand, points_per_trick 1: ``oh_hell.hand_score`` under the
        one-hand rules that OpenSpiel's game is (``_one_hand_rules``)."""
        miss = OhHellRules.model_validate(_one_hand_rules(self.k, off_bid_penalty)).miss
        return [oh_hell.hand_score(self.bids[s] or 0, self.won[s], self.k, miss) for s in range(self.n)]


# ---------------------------------------------------------------------------------------- reading


def loads(data: str | bytes, source: str = "<input>") -> Iterator[Parsed]:
    """Read one OpenSpiel ``oh_hell`` hand as a one-hand phatlog record."""
    return base.parse_whole(parse, data)


def load(fp: BinaryIO, source: str = "<input>") -> Iterator[Parsed]:
    """Read one OpenSpiel ``oh_hell`` hand from a binary file."""
    return base.load_whole(loads, fp, source)


@dataclass(slots=True)
class _Sections:
    game: list[tuple[int, str]]
    state: list[tuple[int, str]]
    extras: tuple[int, str] | None


def _sections(text: str) -> _Sections | Diagnostic:
    """The file split as OpenSpiel splits it: blank lines and lines starting with '#' skipped."""
    order = ("[Meta]", "[Game]", "[State]")
    found: dict[str, list[tuple[int, str]]] = {}
    current: str | None = None
    extras: tuple[int, str] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith(EXTRAS.rstrip()):
                if extras is not None:
                    return base.syntax(f"a second '{EXTRAS.strip()}' line (the first is line {extras[0]})", number, 1)
                extras = (number, line[len(EXTRAS.rstrip()) :].strip())
            continue
        if line in order:
            if line in found:
                return base.syntax(f"the section {line} is given twice", number, 1)
            if current is not None and order.index(line) < order.index(current):
                return base.syntax(
                    f"the section {line} comes after {current}; the order is {', '.join(order)}", number, 1
                )
            current = line
            found[line] = []
            continue
        if current is None:
            return base.syntax(f"expected a section header ({', '.join(order)}), found {line[:40]!r}", number, 1)
        found[current].append((number, line))
    if "[Game]" not in found:
        return base.syntax("the [Game] section is missing: this is not a serialised OpenSpiel game and state", 1, 1)
    return _Sections(found["[Game]"], found.get("[State]", []), extras)


def parse(text: str) -> Parsed:
    """One OpenSpiel hand: a one-hand Oh Hell record, or the diagnostics that say why not."""
    sections = _sections(text)
    if isinstance(sections, Diagnostic):
        return Parsed(None, [sections])
    if len(sections.game) != 1:
        line = sections.game[1][0] if sections.game else 1
        return Parsed(None, [base.syntax("the [Game] section holds one line, the game string", line, 1)])
    game_line, game_text = sections.game[0]
    try:
        given = parse_game(game_text)
        params = check_game(given)
    except _Bad as bad:
        if bad.code == "PL701":
            return Parsed(None, [base.syntax(bad.message, game_line, 1)])
        return Parsed(None, [diag(bad.code, bad.message, line=game_line, column=1)])
    n = params["players"]
    table = Table(n, params["num_tricks_fixed"])
    for number, action in sections.state:
        try:
            value = base.parse_int(action, signed=False)
        except base.NumberError as exc:
            return Parsed(None, [base.syntax(f"expected an action (a whole number): {exc}", number, 1)])
        try:
            table.apply(value)
        except _Illegal as bad:
            illegal = base.syntax(f"action {action.strip()} is not legal here: {bad.message}", number, 1)
            return Parsed(None, [illegal])
    try:
        record, lost = _record(table, params, game_text)
    except _Bad as bad:
        last = sections.state[-1][0] if sections.state else game_line
        return Parsed(None, [diag(bad.code, bad.message, line=last, column=1)])
    positions = Positions()
    if sections.extras is not None:
        extras_line, extras_text = sections.extras
        for ptr in ("/players", "/event", "/comment", "/result", "/ext", "/rules", "/deals/0"):
            positions.mark(ptr, extras_line, 1)
        problem = _apply_extras(record, extras_text, table, params)
        if problem is not None:
            return Parsed(None, [base.syntax(problem, extras_line, 1)])
    built, found = base.validate(record, positions)
    return Parsed(built, lost + found)


def _record(table: Table, params: Mapping[str, Any], game_text: str) -> tuple[Record, list[Diagnostic]]:
    """The record for a replayed hand, and what of a hand stopped part-way it cannot hold."""
    if table.phase in ("tricks", "dealer", "deal"):
        raise _Bad(
            "PL703",
            "the state stops before the cards are dealt and the trump card turned up: a record needs the deal",
        )
    n = table.n
    lost: list[Diagnostic] = []
    deal: Record = {
        "dealer": table.dealer,
        "hands": [[card_of(c) for c in hand] for hand in table.hands],
        "turnup": card_of(table.trump),
    }
    if table.phase != "bid":
        deal["bids"] = list(table.bids)
    elif any(b is not None for b in table.bids):
        made = ", ".join(f"{table.who(s)} {b}" for s, b in enumerate(table.bids) if b is not None)
        lost.append(base.loss("/deals/0/bids", f"the bids made so far ({made}) are dropped: a record holds every bid"))
    tricks = []
    for t, (leader, cards) in enumerate(table.tricks):
        if len(cards) < n:
            shown = " ".join(card_of(c) for c in cards)
            lost.append(
                base.loss(
                    f"/deals/0/tricks/{t}",
                    f"trick {t + 1}, not finished ({shown}), is dropped: a record holds whole tricks",
                )
            )
            continue
        tricks.append({"leader": leader, "cards": [card_of(c) for c in cards]})
    if tricks:
        deal["tricks"] = tricks
    record: Record = {
        "phatlog": "1.0",
        "ext": {"openspiel": {"game": game_text.strip()}},
        "game": "oh_hell",
        "rules": _one_hand_rules(table.k, params["off_bid_penalty"]),
        "players": [{"name": default_name(s)} for s in range(n)],
        "deals": [deal],
    }
    if table.phase != "over":
        record["result"] = {
            "status": "unfinished",
            "reason": "the OpenSpiel state stops before the end of the hand",
        }
    return record, lost


def _one_hand_rules(k: int, off_bid_penalty: bool) -> dict[str, Any]:
    return {"schedule": [k], "no_trump": "never", "hook": True, "miss": "minus_diff" if off_bid_penalty else "tricks"}


_RECORD_KEYS: Final = ("players", "event", "comment", "result", "ext", "rules")
_DEAL_KEYS: Final = ("hands", "score", "taken", "comment", "ext")
_TRICK_KEYS: Final = ("winner", "comment", "ext")


def _apply_extras(record: Record, text: str, table: Table, params: Mapping[str, Any]) -> str | None:
    """Put back what the ``# phatlog:`` line carries; the reason it cannot be, if it cannot."""
    try:
        extras = base.json_loads(text)
    except (ValueError, RecursionError) as exc:
        return f"the '# phatlog:' line is not a JSON object: {exc}"
    if not isinstance(extras, dict) or not set(extras) <= {"record", "deal", "tricks"}:
        return "the '# phatlog:' line holds an object with the keys record, deal and tricks"
    deal = record["deals"][0]
    tricks = deal.get("tricks", [])
    for key, allowed, target in (("record", _RECORD_KEYS, record), ("deal", _DEAL_KEYS, deal)):
        part = extras.get(key, {})
        if not isinstance(part, dict) or not set(part) <= set(allowed):
            return f"'{key}' on the '# phatlog:' line is an object with some of the keys {', '.join(allowed)}"
        for k, value in part.items():
            if value is None:
                target.pop(k, None)
            elif key == "deal" and k == "hands":
                return "the hands come from the actions; the '# phatlog:' line may only drop them (null)"
            else:
                target[k] = value
    notes = extras.get("tricks", {})
    if not isinstance(notes, dict):
        return "'tricks' on the '# phatlog:' line is an object: trick index to its winner, comment and ext"
    for index, part in notes.items():
        if not (index.isdigit() and len(index) <= 3 and int(index) < len(tricks)) or not isinstance(part, dict):
            return f"'tricks' on the '# phatlog:' line names trick {index!r}, which the hand does not have"
        if not set(part) <= set(_TRICK_KEYS):
            return f"a trick on the '# phatlog:' line has only the keys {', '.join(_TRICK_KEYS)}"
        tricks[int(index)].update(part)
    players = record.get("players")
    if not isinstance(players, list) or len(players) != table.n:
        count = len(players) if isinstance(players, list) else "no"
        return f"the '# phatlog:' line names {count} players; the game has {table.n}"
    why = _rules_differ(record.get("rules", {}), table.k, params["off_bid_penalty"])
    if why is not None:
        return f"the rules on the '# phatlog:' line are not the game's: {why}"
    return None


def _rules_differ(rules: Any, k: int, off_bid_penalty: bool) -> str | None:
    """Why these rules are not OpenSpiel's one hand of ``k`` cards; None if they are the same game."""
    try:
        r = OhHellRules.model_validate(rules)
    except ValidationError:
        return "they are not valid Oh Hell rules"
    miss = "minus_diff" if off_bid_penalty else "tricks"
    for key, want in (("hook", True), ("bidding", "sequential"), ("must_trump", False), ("zero_bid", "standard")):
        if getattr(r, key) != want:
            return f"{key} is {getattr(r, key)!r}, not {want!r}"
    if r.miss != miss:
        return f"miss is {r.miss!r}, but off_bid_penalty={off_bid_penalty} scores {miss!r}"
    if r.no_trump != "never":
        return "no_trump last_hand plays the game's one hand without trump"
    if r.max_cards is not None and not isinstance(r.schedule, str):
        return "max_cards goes with a named schedule"
    if isinstance(r.schedule, str) and r.max_cards is None:
        return f"the schedule {r.schedule!r} has more than one hand"
    # a list, or a named schedule up to max_cards: the players do not matter
    sizes = oh_hell.hand_sizes(3, r.schedule, r.max_cards)
    if sizes != [k]:
        return f"the schedule deals {sizes}, not one hand of {k}"
    return None


# ---------------------------------------------------------------------------------------- writing


def losses(record: Mapping[str, object] | BaseModel, deal: int | None = None) -> list[Diagnostic]:
    """What writing the record (its hand ``deal``, counted from 0) for OpenSpiel drops, or why it cannot."""
    return base.losses_of(functools.partial(render, deal=deal), record)


def dumps(record: Mapping[str, object] | BaseModel, *, lossy: bool = False, deal: int | None = None) -> str:
    """One hand of a record (``deal``, from 0; needed when the record has several) as OpenSpiel's text."""
    return base.finish(functools.partial(render, deal=deal), record, lossy)


def dump(
    records: Iterable[Mapping[str, object] | BaseModel], fp: IO[str], *, lossy: bool = False, deal: int | None = None
) -> int:
    """Write one hand of one record as OpenSpiel's text."""
    return base.dump_all(functools.partial(dumps, deal=deal), MANY, NAME, records, fp, lossy)


@dataclass(slots=True)
class _Export:
    actions: list[int]
    game: str
    table: Table
    params: dict[str, Any]


def render(rec: Record, deal: int | None = None) -> tuple[str, list[Diagnostic]]:
    """A canonical Oh Hell record's hand as OpenSpiel's serialised game and state, and what is lost."""
    d, export = _export(rec, deal)
    one, lost = _one_hand(rec, d, export)
    base_record, _ = _record(export.table, export.params, export.game)
    extras = _extras(one, base_record)
    lines = [HEADER]
    if extras:
        lines.append(EXTRAS + json.dumps(extras, separators=(",", ":")))
    lines += ["[Meta]", "Version: 1", "", "[Game]", export.game, "[State]"]
    lines += [str(a) for a in export.actions]
    return "\n".join(lines) + "\n\n", lost


def _export(rec: Record, deal: int | None) -> tuple[int, _Export]:
    refusals: list[Diagnostic] = []

    def refuse(ptr: str, message: str) -> None:
        refusals.append(base.refuse(ptr, message))

    if rec["game"] != "oh_hell":
        raise ConversionError([base.refuse("/game", f"OpenSpiel's oh_hell holds Oh Hell, not {rec['game']}")])
    deals = rec["deals"]
    if deal is None:
        if len(deals) > 1:
            raise ConversionError(
                [
                    base.refuse(
                        "/deals",
                        f"the record has {len(deals)} hands and OpenSpiel's oh_hell holds one: choose one "
                        "(phatlog convert --deal N; the other hands are then dropped, which needs --lossy)",
                    )
                ]
            )
        deal = 0
    if not 0 <= deal < len(deals):
        raise ConversionError(
            [base.refuse("/deals", f"the record has {len(deals)} hand(s); there is no hand {deal + 1}")]
        )
    names = [p["name"] for p in rec["players"]]
    n = len(names)
    rules = OhHellRules.model_validate(rec.get("rules", {}))
    miss_ok = rules.miss in ("tricks", "minus_diff")
    for key, want, why in (
        ("hook", True, "OpenSpiel's oh_hell always plays with the hook"),
        ("bidding", "sequential", "OpenSpiel's players bid in turn"),
        ("must_trump", False, "OpenSpiel's oh_hell has no obligation to trump"),
        ("zero_bid", "standard", "OpenSpiel scores a made zero bid 10"),
    ):
        if getattr(rules, key) != want:
            refuse(f"/rules/{key}", f"{key} is {getattr(rules, key)!r}: {why}")
    if not miss_ok:
        refuse("/rules/miss", "miss is 'zero': OpenSpiel scores a missed bid by its tricks or by minus the difference")
    try:
        sizes = oh_hell.hand_sizes(n, rules.schedule, rules.max_cards)
    except (KeyError, ValueError, TypeError):
        sizes = []
    if deal >= len(sizes):
        refuse(f"/deals/{deal}", f"the rules' schedule has {len(sizes)} hand(s), so hand {deal + 1} has no size")
    if refusals:
        raise ConversionError(refusals)
    k = sizes[deal]
    at = f"/deals/{deal}"
    one = deals[deal]
    if one.get("rulings"):  # format 1.1: an OpenSpiel state is clean play, with no director
        kinds = ", ".join(sorted({str(r.get("kind")) for r in one["rulings"]}))
        refuse(f"{at}/rulings", f"hand {deal + 1} has rulings ({kinds}): OpenSpiel's oh_hell has no rulings")
    if not oh_hell.leaves_turnup(n, k):
        refuse(at, f"hand {deal + 1} deals {k} cards to {n} players and leaves no card to turn up for trump")
    elif deal == len(sizes) - 1 and rules.no_trump == "last_hand":
        refuse(at, f"hand {deal + 1} is the game's last, played without trump (no_trump: last_hand)")
    if "turnup" not in one:
        refuse(f"{at}/turnup", "no card is turned up: OpenSpiel's oh_hell always has a trump")
    hands = one.get("hands") or _inferred_hands(one, n, k)
    if hands is None:
        refuse(f"{at}/hands", "the hands are not recorded and not every card was played: OpenSpiel needs the deal")
    if "tricks" in one and "bids" not in one:
        refuse(f"{at}/bids", "tricks are recorded without the bids: OpenSpiel bids before the play")
    if refusals:
        raise ConversionError(refusals)
    assert hands is not None
    table = Table(n, k, names)
    actions: list[int] = []

    def play(action: int, ptr: str) -> None:
        try:
            table.apply(action)
        except _Illegal as bad:
            raise ConversionError([base.refuse(ptr, f"OpenSpiel cannot hold this hand: {bad.message}")]) from None
        actions.append(action)

    if one["dealer"] >= n:
        raise ConversionError([base.refuse(f"{at}/dealer", f"seat {one['dealer']} deals, but there are {n} players")])
    if len(hands) != n or any(len(h) != k for h in hands):
        raise ConversionError([base.refuse(f"{at}/hands", f"hand {deal + 1} deals {k} card(s) to each of {n} players")])
    play(k, at)
    play(one["dealer"], f"{at}/dealer")
    for r in range(k):
        for seat in range(n):
            play(action_of(hands[seat][r]), f"{at}/hands/{seat}/{r}")
    play(action_of(one["turnup"]), f"{at}/turnup")
    if "bids" in one:
        bids = one["bids"]
        if len(bids) != n:
            raise ConversionError([base.refuse(f"{at}/bids", f"{len(bids)} bids for {n} players")])
        for i in range(n):
            seat = (one["dealer"] + 1 + i) % n
            play(BID_BASE + bids[seat], f"{at}/bids/{seat}")
    for t, trick in enumerate(one.get("tricks", ())):
        if trick["leader"] != table.current:
            why = "on the dealer's left, leads first" if t == 0 else f"won trick {t} and leads"
            raise ConversionError(
                [
                    base.refuse(
                        f"{at}/tricks/{t}/leader",
                        f"OpenSpiel cannot hold this hand: trick {t + 1} is led by {_seat(table, trick['leader'])}, "
                        f"but {table.who(table.current)} {why}",
                    )
                ]
            )
        if len(trick["cards"]) != n:
            raise ConversionError(
                [
                    base.refuse(
                        f"{at}/tricks/{t}/cards", f"trick {t + 1} has {len(trick['cards'])} cards for {n} players"
                    )
                ]
            )
        for i, card in enumerate(trick["cards"]):
            play(action_of(card), f"{at}/tricks/{t}/cards/{i}")
    off = rules.miss == "minus_diff"
    game = _game_for(rec, n, k, off)
    return deal, _Export(actions, game, table, check_game(parse_game(game)))


def _seat(table: Table, seat: int) -> str:
    return table.who(seat) if 0 <= seat < table.n else f"seat {seat}"


def _inferred_hands(deal: Mapping[str, Any], n: int, k: int) -> list[list[str]] | None:
    tricks = deal.get("tricks", [])
    if len(tricks) != k or any(len(t["cards"]) != n for t in tricks):
        return None
    hands: list[list[str]] = [[] for _ in range(n)]
    for trick in tricks:
        for i, card in enumerate(trick["cards"]):
            hands[(trick["leader"] + i) % n].append(card)
    return hands


def _game_for(rec: Record, n: int, k: int, off_bid_penalty: bool) -> str:
    """The game string: the one the record was read from, if it still fits the hand; else the plain one."""
    kept = rec.get("ext", {}).get("openspiel", {})
    if isinstance(kept, dict) and isinstance(kept.get("game"), str):
        try:
            full = check_game(parse_game(kept["game"]))
        except _Bad:
            full = {}
        if (
            full.get("players") == n
            and full.get("off_bid_penalty") == off_bid_penalty
            and full.get("num_tricks_fixed") in (-1, k)
        ):
            return str(kept["game"]).strip()
    return game_string({"num_tricks_fixed": k, "off_bid_penalty": off_bid_penalty, "players": n})


def _one_hand(rec: Record, d: int, export: _Export) -> tuple[Record, list[Diagnostic]]:
    """The record as a one-hand game (what the OpenSpiel file says), and what that drops."""
    lost: list[Diagnostic] = []
    deals = rec["deals"]
    deal = dict(deals[d])
    one: Record = {k: v for k, v in rec.items() if k != "deals"}
    one["deals"] = [deal]
    k = export.table.k
    off = export.params["off_bid_penalty"]
    if len(deals) > 1:
        lost.append(base.loss("/deals", f"every hand but hand {d + 1} is dropped: OpenSpiel's oh_hell holds one hand"))
        if "result" in one:
            lost.append(base.loss("/result", "the game's result is dropped with the other hands"))
            del one["result"]
    if _rules_differ(rec.get("rules", {}), k, off) is not None:
        if "rules" in rec:
            lost.append(
                base.loss("/rules", f"the rules become those of one hand of {k} (schedule [{k}], no_trump never)")
            )
        one["rules"] = _one_hand_rules(k, off)
    score = deal.get("score")
    if d > 0 and isinstance(score, dict) and "total" in score:
        lost.append(base.loss(f"/deals/{d}/score/total", "the game's running total after this hand is dropped"))
        score = {k2: v for k2, v in score.items() if k2 != "total"}
        if score:
            deal["score"] = score
        else:
            del deal["score"]
    return one, lost


def _extras(one: Record, made: Record) -> dict[str, Any]:
    """What the ``# phatlog:`` line must carry for the OpenSpiel file to read back as ``one``."""
    extras: dict[str, Any] = {}
    part = {k: one.get(k) for k in _RECORD_KEYS if one.get(k) != made.get(k)}
    if part:
        extras["record"] = part
    deal, made_deal = one["deals"][0], made["deals"][0]
    part = {k: deal.get(k) for k in _DEAL_KEYS if deal.get(k) != made_deal.get(k)}
    if part:
        extras["deal"] = part
    notes = {}
    for t, trick in enumerate(deal.get("tricks", ())):
        kept = {k: trick[k] for k in _TRICK_KEYS if k in trick}
        if kept:
            notes[str(t)] = kept
    if notes:
        extras["tricks"] = notes
    return extras
