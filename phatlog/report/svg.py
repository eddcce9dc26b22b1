"""SVG pictures: the suit symbols the HTML replay draws its cards with, and ``replay --format svg``'s
picture of one deal (the hands as dealt, or as they stand before a trick; the trick; the counters).

Drawn from the replay summary alone, as the other renderers are; every text from the record is escaped
for XML and made printable (:func:`phatlog.diagnostics.printable.printable`). The suits are paths, not font glyphs, so a
picture looks the same wherever it is opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from xml.sax.saxutils import quoteattr

from phatlog.diagnostics.printable import markup_text, printable
from phatlog.report import fmt
from phatlog.report.summary import DealSummary, Summary, TrickSummary

#: The suits as paths in a 100 by 100 box.
SUIT_PATHS: Final = {
    "S": (
        "M50 4C62 22 96 40 96 62C96 77 85 87 72 87C64 87 57 83 54 77C55 88 60 94 68 98L32 98C40 94 45 88 46 77"
        "C43 83 36 87 28 87C15 87 4 77 4 62C4 40 38 22 50 4Z"
    ),
    "H": "M50 94C22 70 4 52 4 31C4 15 15 4 29 4C39 4 46 10 50 19C54 10 61 4 71 4C85 4 96 15 96 31C96 52 78 70 50 94Z",
    "D": "M50 2L88 50L50 98L12 50Z",
    "C": (
        "M50 6a21 21 0 1 1 0 42a21 21 0 1 1 0-42ZM27 40a21 21 0 1 1 0 42a21 21 0 1 1 0-42Z"
        "M73 40a21 21 0 1 1 0 42a21 21 0 1 1 0-42ZM45 50L55 50L60 98L40 98Z"
    ),
}
RED: Final = "#c8102e"
BLACK: Final = "#111"
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def suit_colour(suit: str) -> str:
    return RED if suit in "HD" else BLACK


def suit_symbols() -> str:
    """An invisible ``<svg>`` defining ``#suit-S``, ``#suit-H``, ``#suit-D``, ``#suit-C`` for ``<use>``."""
    symbols = "".join(
        f'<symbol id="suit-{s}" viewBox="0 0 100 100"><path d="{d}" fill="{suit_colour(s)}"/></symbol>'
        for s, d in SUIT_PATHS.items()
    )
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>{symbols}</defs></svg>'


def _t(text: str) -> str:
    """Free text for an SVG text node: printable, then escaped for XML (every text of the picture)."""
    return markup_text(text)


def _suit(s: str, x: float, y: float, size: float) -> str:
    return (
        f'<path d="{SUIT_PATHS[s]}" fill="{suit_colour(s)}" transform="translate({x:g},{y:g}) scale({size / 100:g})"/>'
    )


def _rank(r: str) -> str:
    return "10" if r == "T" else r


CHAR_W: Final = 7.6  # about the width of a character of 13-pixel text: the picture is made wide enough for its lines
TIGHT: Final = ' letter-spacing="-1"'  # "10" in the width of one rank
CARD_W: Final = 34
CARD_H: Final = 48


def card(c: str, x: float, y: float, *, win: bool = False, flag: bool = False) -> str:
    """One card face: the rank and suit in the corner, a large suit in the middle."""
    rank, suit = c[0], c[1]
    stroke = RED if flag else ("#1a7f37" if win else "#999")
    width = 3 if flag or win else 1
    return (
        f'<g class="card"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
        f'<text x="{x + 3:g}" y="{y + 14:g}" font-size="12" font-weight="bold" fill="{suit_colour(suit)}"'
        f"{TIGHT if rank == 'T' else ''}>{_rank(rank)}</text>"
        f"{_suit(suit, x + 4, y + 17, 10)}{_suit(suit, x + 12, y + 24, 18)}</g>"
    )


#: How far apart the cards of a hand are: enough to show each card's rank and suit ("10" included).
FAN: Final = 21


def _hand_width(n: int) -> float:
    return CARD_W + max(0, n - 1) * FAN


def _hand(cards: Sequence[str], x: float, y: float) -> str:
    """A hand as a fan of overlapping cards, spades hearts diamonds clubs, high to low."""
    ordered = sorted(cards, key=lambda c: (fmt.DIAGRAM_ORDER.index(c[1]), -fmt.RANKS.index(c[0])))
    return "".join(card(c, x + i * FAN, y) for i, c in enumerate(ordered))


def deal_picture(summary: Summary, deal: DealSummary, trick: int | None = None) -> str:
    """One deal as an SVG document: each seat's hand (as dealt; with ``trick``, as it stands before that
    trick), the trump, the bids, and below the table the trick (``trick``, else the deal's first) with its
    winner, why, and what it pegged or the tricks taken; the score after it."""
    names = [fmt.printable(n) if n else f"seat {i}" for i, n in enumerate(summary.players)]
    seats = len(names)
    shown: TrickSummary | None = None
    if deal.tricks:
        shown = deal.tricks[0] if trick is None else next((t for t in deal.tricks if t.trick == trick), None)
    played: set[str] = set()
    if trick is not None:
        for t in deal.tricks:
            if t.trick >= trick:
                break
            played.update(p.card for p in t.plays)
    hands = [[c for c in h if c not in played] for h in deal.hands] if deal.hands is not None else None
    widest = max((_hand_width(len(h)) for h in hands), default=_hand_width(1)) if hands else _hand_width(1)
    name_w = 90
    width = max(560, int(name_w + widest + 40))
    parts: list[str] = []
    longest = max(len(fmt.title(summary)), len(fmt.deal_heading(summary, deal)))  # the widest line, in characters
    y = 28
    parts.append(
        f'<text x="16" y="{y}" font-size="17" font-weight="bold">{_t(fmt.title(summary))}</text>'
        f'<text x="16" y="{y + 22}" font-size="14">{_t(fmt.deal_heading(summary, deal))}</text>'
    )
    y += 34
    for label, text in fmt.deal_lines(summary, deal):
        longest = max(longest, len(label) + 2 + len(text))
        y += 18
        parts.append(f'<text x="16" y="{y}" font-size="13">{_t(label)}: {_t(text)}</text>')
    y += 14
    if hands is not None:
        if trick is not None:
            y += 4
            parts.append(f'<text x="16" y="{y + 6}" font-size="12" fill="#555">Hands before trick {trick}</text>')
            y += 12
        for seat, hand in enumerate(hands):
            leader = " ◀ leads" if shown is not None and shown.leader == seat else ""
            dealer = " (deals)" if seat == deal.dealer else ""
            parts.append(
                f'<text x="16" y="{y + 28}" font-size="13" font-weight="bold">{_t(names[seat])}</text>'
                f'<text x="16" y="{y + 44}" font-size="11" fill="#555">{_t(dealer + leader)}</text>'
            )
            parts.append(_hand(hand, name_w + 16, y + 4))
            y += CARD_H + 12
    if shown is not None:
        y += 10
        parts.append(f'<text x="16" y="{y + 14}" font-size="14" font-weight="bold">Trick {shown.trick}</text>')
        y += 22
        for i, play in enumerate(shown.plays):
            x = 16 + i * (CARD_W + 30)
            parts.append(f'<text x="{x:g}" y="{y + 10}" font-size="11">{_t(names[play.seat])}</text>')
            parts.append(
                card(play.card, x, y + 16, win=shown.replayed and play.card == shown.winning_card, flag=play.flagged)
            )
        width = max(width, 16 + seats * (CARD_W + 30) + 16)
        y += CARD_H + 32
        lines: list[tuple[str, bool]] = []
        if shown.winner is not None:
            lines.append((f"Won by {names[shown.winner]}: {shown.why or ''}", False))
        elif not shown.replayed:
            lines.append(("not replayed", False))
        if summary.game == "oh_hell":
            if shown.taken is not None:
                taken = ", ".join(f"{names[s]} {n}" for s, n in enumerate(shown.taken))
                lines.append((f"Taken: {taken}", False))
        else:
            pegs = fmt.pegs(shown)
            if pegs:
                lines.append((f"Pegs: {pegs}", False))
            if shown.total is not None:
                score = ", ".join(f"{fmt.printable(s.name)} {shown.total[s.side]}" for s in summary.sides)
                lines.append((f"Score: {score}", False))
        lines += [(fmt.problem(d), True) for d in shown.diagnostics]
        for text, bad in lines:
            longest = max(longest, len(text))
            fill = RED if bad else "#111"
            parts.append(f'<text x="16" y="{y}" font-size="13" fill="{fill}">{_t(text)}</text>')
            y += 18
    for d in deal.diagnostics:
        parts.append(f'<text x="16" y="{y}" font-size="13" fill="{RED}">{_t(fmt.problem(d))}</text>')
        longest = max(longest, len(fmt.problem(d)))
        y += 18
    width = max(width, int(16 + longest * CHAR_W))
    height = y + 12
    label = quoteattr(printable(f"{fmt.title(summary)}, {fmt.deal_heading(summary, deal)}"))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" role="img" '
        f"aria-label={label}>"
        f'<rect width="100%" height="100%" fill="#f7f5ef"/>{"".join(parts)}</svg>\n'
    )
