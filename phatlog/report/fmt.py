"""Layout shared by the renderers: the summary's parts as lines and tables of cells.

Nothing here knows a rule of any game: it spells out what the summary says (card symbols, the hand
diagram, the pegs of a trick, a wrong score beside the right one) and arranges it in tables that the
text, markdown and rich renderers draw each in their own way. A cell carries a few presentation
flags (a red suit, the winning card, a card a diagnostic points at, a row that was not scored).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rich.cells import cell_len

from phatlog.diagnostics import Diagnostic
from phatlog.diagnostics import printable as safe
from phatlog.report.marks import legend
from phatlog.report.summary import DealSummary, Peg, Row, Summary, TrickSummary

SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
DIAGRAM_ORDER: Final = "SHDC"  # hand diagrams: spades, hearts, diamonds, clubs
RANKS: Final = "23456789TJQKA"
DASH: Final = "—"


#: The widest a column is made for one cell: a longer cell (a long name, a long comment) overflows its
#: own row rather than widening the column for every row, so a table's size stays linear in its text.
WIDE: Final = 60


def printable(text: str) -> str:
    """Free text from a record, safe to print (:func:`phatlog.diagnostics.printable.printable`): control characters,
    line breaks and bidirectional overrides are shown as escapes, so a player's name cannot break a
    line, colour the terminal or reorder what is shown. Linear in the text's length."""
    return safe.printable(text)


def card(text: str) -> str:
    """A card for people: ``"AD"`` is ``"A♦"``."""
    return text[0] + SUIT_SYMBOLS[text[1]]


def is_red(text: str) -> bool:
    """Hearts and diamonds are printed red where colour is available."""
    return text[1] in "HD"


def suit_segments(cards: Sequence[str], suits: str = DIAGRAM_ORDER) -> list[str]:
    """A hand by suit in diagram order, high to low: ``["♠ A K 4", "♥ Q 7", "♦ —", "♣ J 5"]``."""
    out: list[str] = []
    for suit in suits:
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANKS.index, reverse=True)
        out.append(f"{SUIT_SYMBOLS[suit]} {' '.join(ranks) if ranks else DASH}")
    return out


def diagrams(hands: Sequence[Sequence[str]]) -> list[str]:
    """Each hand as one line, "♠ A K 4  ♥ Q 7  ♦ 9 8 2  ♣ J 5", its suits aligned across the hands.
    A suit that no hand holds is left out (small Oh Hell hands); a void is a dash."""
    held = {c[1] for hand in hands for c in hand}
    suits = "".join(s for s in DIAGRAM_ORDER if s in held)
    segments = [suit_segments(h, suits) for h in hands]
    widths = [max(cell_len(s[i]) for s in segments) for i in range(len(suits))]
    return ["  ".join(s[i].ljust(widths[i]) for i in range(len(suits))).rstrip() for s in segments]


def problem(d: Diagnostic, where: bool = False) -> str:
    """A diagnostic on one line: "error PL303 revoke: Cal played TS to a club lead …"; ``where`` adds
    its place in words, for a diagnostic that is not shown in its place (the game's, or a schema error)."""
    text = f"{d.severity.value} {d.code} {d.name}: {printable(d.message)}"
    if where and d.place and d.place != "the record":
        text += f" ({printable(d.place)})"
    return text


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    red: bool = False
    win: bool = False
    flag: bool = False
    dim: bool = False
    cost: int | None = None  # a card's cost against best play (replay --analyse, phatlog.report.marks)


@dataclass(slots=True)
class TableRow:
    cells: list[Cell]
    notes: list[str] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    kind: str = "trick"  # trick, bonus, hand, score


@dataclass(slots=True)
class Table:
    headers: list[str]
    right: list[bool]  # right-aligned columns (numbers)
    rows: list[TableRow]
    card_columns: frozenset[int] = frozenset()


# --------------------------------------------------------------------------- the header


def title(summary: Summary) -> str:
    name = summary.game_name or "Record"
    return f"{name}: {printable(summary.source)}"


def header_lines(summary: Summary) -> list[tuple[str, str]]:
    """(label, text) pairs for the top of a replay."""
    out: list[tuple[str, str]] = []
    if summary.event:
        keys = ("name", "site", "date", "round", "scorer", "source")
        parts = [printable(str(summary.event[k])) for k in keys if summary.event.get(k)]
        if parts:
            out.append(("Event", "; ".join(parts)))
    if summary.comment:
        out.append(("Comment", printable(summary.comment)))
    if summary.sides:
        out.append(("Players", players(summary)))
    if summary.rules is not None:
        out.append(("Rules", rules(summary.rules)))
    selected = selection(summary)
    if selected:
        out.append(("Showing", selected))
    marked = legend(summary)
    if marked is not None:
        out.append(("Marks", marked))
    return out


def players(summary: Summary) -> str:
    if summary.game == "oh_hell":
        return ", ".join(f"{printable(s.name)} (seat {s.side})" for s in summary.sides)
    parts = [
        f"{printable(s.name)} (seats {' and '.join(str(x) for x in s.seats)}, side {s.side})" for s in summary.sides
    ]
    return " against ".join(parts)


def rules(values: Mapping[str, object]) -> str:
    def show(v: object) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(str(x) for x in v) + "]"
        if isinstance(v, bool):
            return "yes" if v else "no"
        return str(v)

    return printable(", ".join(f"{k} {show(v)}" for k, v in values.items() if v is not None))


def selection(summary: Summary) -> str:
    sel = summary.selection
    if sel.deal is None:
        return ""
    word = "hand" if summary.game == "oh_hell" else "deal"
    if sel.trick is None:
        return f"{word} {sel.deal} only"
    return f"trick {sel.trick} of {word} {sel.deal} only"


# --------------------------------------------------------------------------- a deal


def deal_word(summary: Summary) -> str:
    return "Hand" if summary.game == "oh_hell" else "Deal"


def deal_heading(summary: Summary, deal: DealSummary) -> str:
    names = summary.players
    who = printable(_name(names, deal.dealer))
    text = f"{deal_word(summary)} {deal.deal}: {who} deals"
    if deal.cards_each is not None and deal.first_bidder is not None:
        text += f" {plural(deal.cards_each, 'card')} each, {printable(_name(names, deal.first_bidder))} bids first"
    elif deal.pitcher is not None:
        text += f", {printable(_name(names, deal.pitcher))} pitches"
    if deal.kind == "claimed":
        text += " (claimed before the first card: no tricks recorded)"
    elif deal.kind == "score_sheet":
        text += (
            " (score sheet: no cards recorded)" if deal.first_bidder is None else " (score sheet: no tricks recorded)"
        )
    return text


def deal_lines(summary: Summary, deal: DealSummary) -> list[tuple[str, str]]:
    """(label, text) pairs under a deal's hands: the trump, the bids, the undealt cards."""
    out: list[tuple[str, str]] = []
    if deal.hands is not None and deal.hands_from == "play":
        out.append(("Hands", "not recorded: the cards each player played"))
    if deal.undealt:
        out.append(("Undealt", "  ".join(suit_segments(deal.undealt))))
    if deal.trump is not None:
        out.append(("Trump", printable(deal.trump.text)))
    if deal.bids is not None:
        # A record may give fewer (or more) bids than players (verify reports it): show what is there,
        # a dash for a seat without a bid.
        turn = deal.bidding_order or list(range(len(deal.bids)))
        order = [*turn, *(s for s in range(len(deal.bids)) if s not in turn)]
        bids = ", ".join(
            f"{printable(_name(summary.players, s))} {deal.bids[s] if 0 <= s < len(deal.bids) else DASH}" for s in order
        )
        total = sum(deal.bids)
        how = "in turn" if deal.bidding_order else "all at once"
        tricks = "" if deal.cards_each is None else f" for {plural(deal.cards_each, 'trick')}"
        out.append(("Bids", f"{bids} ({how}; {total} bid{tricks})"))
    return out


def hands_table(summary: Summary, deal: DealSummary) -> Table | None:
    if deal.hands is None:
        return None
    rows = [
        TableRow([Cell(printable(_name(summary.players, seat))), Cell(line)], kind="hand")
        for seat, line in enumerate(diagrams(deal.hands))
    ]
    return Table(["Seat", "Hand"], [False, False], rows)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


def pegs(trick: TrickSummary) -> str:
    """What a trick pegs: "9♦ Big Phat 18 + A♦ 4 = 22", "9♠ 9", or a dash."""
    if not trick.replayed:
        return ""
    if not trick.scored:
        return "not scored"
    if not trick.counters:
        return DASH
    parts = [f"{card(c.card)}{' ' + c.name if c.name else ''} {c.points}" for c in trick.counters]
    text = " + ".join(parts)
    if len(parts) > 1:
        text += f" = {trick.points}"
    return text


def tricks_table(summary: Summary, deal: DealSummary) -> Table | None:
    if not deal.tricks and not deal.bonuses:
        return None
    names = summary.players
    seats = len(names)
    pitch = summary.game != "oh_hell"
    headers = ["#", "Lead", *(printable(_name(names, s)) for s in range(seats)), "Won by", "Why"]
    right = [True, False, *([False] * seats), False, False]
    if pitch:
        headers += ["Pegs", *(printable(s.name) for s in summary.sides)]
        right += [False, *([True] * len(summary.sides))]
    else:
        headers.append("Taken")
        right.append(False)
    rows: list[TableRow] = []
    for trick in deal.tricks:
        by_seat: dict[int, Cell] = {}
        for play in trick.plays:
            by_seat[play.seat] = Cell(
                card(play.card),
                red=is_red(play.card),
                win=trick.replayed and play.card == trick.winning_card,
                flag=play.flagged,
                dim=not trick.scored,
                cost=play.cost,
            )
        cells = [
            Cell(str(trick.trick), dim=not trick.scored),
            Cell(printable(_name(names, trick.leader)), dim=not trick.scored),
            *(by_seat.get(s, Cell("")) for s in range(seats)),
            Cell(DASH if trick.winner is None else printable(_name(names, trick.winner)), dim=not trick.scored),
            Cell(trick.why or ("" if trick.replayed else "not replayed"), dim=not trick.scored),
        ]
        if pitch:
            cells.append(Cell(pegs(trick), dim=not trick.scored))
            cells += [Cell(_score(trick.total, s), dim=not trick.scored) for s in range(len(summary.sides))]
        else:
            cells.append(Cell(" ".join(map(str, trick.taken)) if trick.taken is not None else "", dim=not trick.scored))
        notes = [f"comment: {printable(trick.comment)}"] if trick.comment else []
        notes += [printable(n) for n in trick.notes]
        rows.append(TableRow(cells, notes, list(trick.diagnostics)))
    for peg in deal.bonuses:
        rows.append(bonus_row(summary, peg, seats))
    card_columns = frozenset(range(2, 2 + seats))
    return Table(headers, right, rows, card_columns)


def bonus_row(summary: Summary, peg: Peg, seats: int) -> TableRow:
    who = DASH if peg.side is None else printable(summary.sides[peg.side].name)
    points = DASH if peg.side is None or not peg.points else str(peg.points)
    cells = [Cell(""), Cell(peg.label), *([Cell("")] * seats), Cell(who), Cell(printable(peg.reason)), Cell(points)]
    cells += [Cell(_score(peg.totals, s)) for s in range(len(summary.sides))]
    notes = []
    if peg.game_won and peg.side is not None and peg.totals is not None:
        notes.append(f"{printable(summary.sides[peg.side].name)} reach {peg.totals[peg.side]}: they peg out and win")
    return TableRow(cells, notes, kind="bonus")


def _score(totals: list[int] | None, side: int) -> str:
    return "" if totals is None else str(totals[side])


def score_cell(value: int | None, recorded: int | None, wrong: bool, source: str | None) -> str:
    """A deal's points or total: the rules' figure, and the scorer's where it differs."""
    if wrong and recorded is not None:
        return f"recorded {recorded}, rules give {DASH if value is None else value}"
    if value is None:
        return DASH if recorded is None else f"{recorded} (recorded)"
    if source == "record":
        return f"{value} (as recorded)"
    if recorded is not None and recorded != value:
        return f"{value} (recorded {recorded})"
    return str(value)


def score_table(summary: Summary, deal: DealSummary) -> Table | None:
    """A deal's score by side: what each side bid, took, counted and scored; the total; the record's."""
    if not deal.rows:
        return None
    label = deal.captured.label.capitalize() if deal.captured is not None else "Muck"
    columns: list[tuple[str, bool, Callable[[Row], str]]] = [
        ("Bid", True, lambda r: _int(r.bid)),
        ("Took", True, lambda r: _int(r.taken)),
        ("Made", False, lambda r: "" if r.made is None else ("made" if r.made else "missed")),
        ("Counters", True, lambda r: _int(r.counters)),
        (label, True, lambda r: _int(r.captured)),
        ("Bonus", True, lambda r: _int(r.bonus)),
    ]
    present = [c for c in columns if any(_value(c[0], r) is not None for r in deal.rows)]
    word = "Player" if summary.game == "oh_hell" else "Side"
    headers = [word, *(c[0] for c in present), "Points", "Total"]
    right = [False, *(c[1] for c in present), True, True]
    rows: list[TableRow] = []
    for r in deal.rows:
        cells = [Cell(printable(r.name)), *(Cell(c[2](r)) for c in present)]
        cells.append(Cell(score_cell(r.points, r.recorded_points, r.points_wrong, r.points_from), flag=r.points_wrong))
        cells.append(Cell(score_cell(r.total, r.recorded_total, r.total_wrong, None), flag=r.total_wrong))
        rows.append(TableRow(cells, kind="score"))
    return Table(headers, right, rows)


def _value(column: str, row: Row) -> int | bool | None:
    return {
        "Bid": row.bid,
        "Took": row.taken,
        "Made": row.made,
        "Counters": row.counters,
        "Bonus": row.bonus,
    }.get(column, row.captured)


def _int(value: int | None) -> str:
    return "" if value is None else str(value)


def deal_notes(deal: DealSummary) -> list[str]:
    notes = [printable(n) for n in deal.notes]
    if deal.kind == "play" and not deal.scored and deal.points is not None:
        notes.append("the rules cannot score this deal: its points are taken as recorded")
    if deal.comment:
        notes.append(f"comment: {printable(deal.comment)}")
    return notes


# --------------------------------------------------------------------------- the end


def end_lines(summary: Summary) -> list[tuple[str, str]]:
    """(label, text) pairs for the end of the game: who won, the totals, the recorded result."""
    end = summary.end
    out: list[tuple[str, str]] = []
    if end is not None:
        out.append(("Result", printable(end.text)))
        if end.totals is not None:
            totals = ", ".join(f"{printable(s.name)} {end.totals[s.side]}" for s in summary.sides)
            out.append(("Final totals", totals))
        rec = end.recorded
        if rec is not None:
            parts = [rec.status]
            if rec.reason:
                parts.append(printable(rec.reason))
            if rec.winner is not None:
                named = [printable(_side(summary, w)) for w in rec.winner]
                parts.append("winner " + (f"{', '.join(named[:-1])} and {named[-1]}" if len(named) > 1 else named[0]))
            if rec.total is not None:
                parts.append("totals " + "-".join(map(str, rec.total)))
            out.append(("Recorded result", ", ".join(parts)))
    return out


def _side(summary: Summary, side: int) -> str:
    return summary.sides[side].name if 0 <= side < len(summary.sides) else f"side {side}"


def verdict_line(summary: Summary) -> str:
    """The last line: what verify found, in the whole record."""
    c = summary.counts
    if summary.status == "unreadable":
        return "Unreadable: the replay cannot run"
    if summary.status == "invalid":
        return "Not a valid record: the replay cannot run"
    found = [plural(n, s) for n, s in ((c.error, "error"), (c.warning, "warning"), (c.info, "note")) if n]
    text = "Verify: " + (", ".join(found) if found else "clean")
    if c.outside_selection:
        text += f" ({c.outside_selection} outside the selection)"
    return text
