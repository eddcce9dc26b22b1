"""The table diagram card players know, as SVG: the seats around the table (seat 0, North, at the top,
then clockwise: East on the right, South at the bottom, West on the left, as bridge and Oh Hell diagrams
draw them; other numbers of players on an ellipse, still clockwise), each hand by suit (a line a suit,
high to low), the trick in the middle with each card in front of its player, the trump and the score.

Drawn from plain data (:class:`Diagram`), so that every layer that holds a deal can draw it: the replay
(``replay --format svg``), a game ``State`` and a record's deal in a notebook (``_repr_svg_``). The
picture's width is fixed whatever the text: a name is cut to its hand's width, a line of words is wrapped
to the picture's. Every text is made printable and escaped for XML; the suits are paths, not font glyphs,
so the picture looks the same wherever it is opened.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from phatlog.diagnostics.printable import printable

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
WIN: Final = "#1a7f37"
FELT: Final = "#2f6b45"
SUIT_ORDER: Final = "SHDC"
RANKS: Final = "23456789TJQKA"
#: The picture's width: the same whatever the text (a long name or message is cut or wrapped to it).
WIDTH: Final = 680
WIDE: Final = 880  # five players or more
CHAR_W: Final = 7.2  # about the width of a character of 13-pixel text
HAND_W: Final = 168
LINE_H: Final = 18
CARD_W: Final = 38
CARD_H: Final = 54


@dataclass(slots=True)
class Diagram:
    """What a table diagram shows. ``hands``: each seat's cards (``"QH"``), None where unknown; ``trick``:
    the cards of the trick shown, ``(seat, card)`` in play order; ``winner`` the seat that won it;
    ``score``: (side, total) pairs; ``lines``: words under the table, ``(text, is_a_problem)``."""

    names: list[str]
    hands: list[list[str]] | None = None
    trick: list[tuple[int, str]] = field(default_factory=list)
    winner: int | None = None
    dealer: int | None = None
    to_play: int | None = None
    trump: str | None = None
    trump_text: str = ""
    score: list[tuple[str, int]] = field(default_factory=list)
    title: str = ""
    subtitle: str = ""
    lines: list[tuple[str, bool]] = field(default_factory=list)


def suit_colour(suit: str) -> str:
    return RED if suit in "HD" else BLACK


def _suit(s: str, x: float, y: float, size: float, linked: bool = False) -> str:
    """A suit symbol: its path, or (``linked``, in a page that defines ``#suit-S`` and the others) a use of it."""
    if linked:
        return f'<use href="#suit-{s}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}"/>'
    return (
        f'<path d="{SUIT_PATHS[s]}" fill="{suit_colour(s)}" transform="translate({x:g},{y:g}) scale({size / 100:g})"/>'
    )


def _rank(r: str) -> str:
    return "10" if r == "T" else r


def _text(text: str) -> str:
    return escape(printable(text))


def cut(text: str, width: float, char_w: float = CHAR_W) -> str:
    """``text`` made printable and cut (with an ellipsis) to about ``width`` pixels."""
    shown = printable(text)
    most = max(1, int(width / char_w))
    return shown if len(shown) <= most else shown[: most - 1] + "…"


def wrap(text: str, width: float, char_w: float = CHAR_W) -> list[str]:
    """``text`` made printable and wrapped at spaces to about ``width`` pixels a line (a word longer than
    a line is broken)."""
    most = max(8, int(width / char_w))
    out: list[str] = []
    line = ""
    for word in printable(text).split(" "):
        while len(word) > most:
            if line:
                out.append(line)
                line = ""
            out.append(word[:most])
            word = word[most:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= most:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line or not out:
        out.append(line)
    return out


def card(c: str, x: float, y: float, *, win: bool = False, linked: bool = False) -> str:
    """One card face: the rank and suit in the corner, a large suit in the middle."""
    rank, suit = c[0], c[1]
    stroke, width = (WIN, 3) if win else ("#999", 1)
    spacing = ' letter-spacing="-1"' if rank == "T" else ""
    return (
        f'<g class="card"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
        f'<text x="{x + 3:g}" y="{y + 14:g}" font-size="12" font-weight="bold" fill="{suit_colour(suit)}"{spacing}>'
        f"{_rank(rank)}</text>{_suit(suit, x + 4, y + 17, 10, linked)}{_suit(suit, x + 14, y + 26, 20, linked)}</g>"
    )


def _by_suit(cards: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in SUIT_ORDER}
    for c in sorted(cards, key=lambda c: -RANKS.index(c[0])):
        out[c[1]].append(c[0])
    return out


def _hand(d: Diagram, seat: int, x: float, y: float, linked: bool) -> str:
    """A seat's box: its name (cut to the box), dealer and to-play marks, and its hand a line a suit."""
    marks = (" · deals" if seat == d.dealer else "") + (" · to play" if seat == d.to_play else "")
    name = cut(d.names[seat] if seat < len(d.names) else f"seat {seat}", HAND_W - 12 - len(marks) * 6.2)
    parts = [
        f'<rect x="{x:g}" y="{y:g}" width="{HAND_W}" height="{24 + 4 * LINE_H}" rx="8" fill="#fff" fill-opacity=".94"'
        f"{' stroke=' + quoteattr('#ffd866') + ' stroke-width=' + quoteattr('3') if seat == d.to_play else ''}/>",
        f'<text x="{x + 8:g}" y="{y + 17:g}" font-size="13"><tspan font-weight="bold">{escape(name)}</tspan>'
        f'<tspan fill="#555" font-size="11">{escape(marks)}</tspan></text>',
    ]
    if d.hands is None or seat >= len(d.hands):
        parts.append(f'<text x="{x + 8:g}" y="{y + 40:g}" font-size="12" fill="#555">hand not known</text>')
        return "".join(parts)
    for i, (suit, ranks) in enumerate(_by_suit(d.hands[seat]).items()):
        top = y + 24 + i * LINE_H
        shown = " ".join(_rank(r) for r in ranks) or "—"
        parts.append(
            _suit(suit, x + 8, top + 3, 12, linked)
            + f'<text x="{x + 26:g}" y="{top + 13:g}" font-size="13" fill="{suit_colour(suit)}">{escape(shown)}</text>'
        )
    return "".join(parts)


def _places(seats: int, cx: float, cy: float, rx: float, ry: float) -> list[tuple[float, float]]:
    """Each seat's place around the table's centre, seat 0 at the top, clockwise."""
    out = []
    for seat in range(seats):
        angle = -math.pi / 2 + 2 * math.pi * seat / seats
        out.append((cx + rx * math.cos(angle), cy + ry * math.sin(angle)))
    return out


def table_svg(d: Diagram, *, linked: bool = False) -> str:
    """The diagram as one SVG document, ``WIDTH`` pixels wide (``WIDE`` for five players or more)
    whatever its text. ``linked``: for a page that defines the suit symbols (``#suit-S``...), the suits
    are uses of them rather than paths (the same picture, a third of the size)."""
    seats = len(d.names)
    width = WIDTH if seats <= 4 else WIDE
    parts: list[str] = []
    y = 26
    if d.title:
        parts.append(
            f'<text x="16" y="{y}" font-size="16" font-weight="bold">{escape(cut(d.title, width - 32, 8.6))}</text>'
        )
        y += 20
    for line in wrap(d.subtitle, width - 32) if d.subtitle else []:
        parts.append(f'<text x="16" y="{y}" font-size="13">{escape(line)}</text>')
        y += LINE_H
    top = y + 6
    box_h = 24 + 4 * LINE_H
    felt_h = (3 if seats <= 4 else 4) * box_h + 76
    parts.append(f'<rect x="8" y="{top}" width="{width - 16}" height="{felt_h}" rx="16" fill="{FELT}"/>')
    cx, cy = width / 2, top + felt_h / 2
    rx, ry = (width - 16 - HAND_W) / 2 - 12, felt_h / 2 - box_h / 2 - 10
    places = _places(seats, cx, cy, rx, ry)
    for seat, (px, py) in enumerate(places):
        parts.append(_hand(d, seat, px - HAND_W / 2, py - box_h / 2, linked))
    # the trick: each card in front of its player, in a ring around the centre clear of the hands
    for seat, c in d.trick:
        px, py = places[seat]
        far_x, far_y = (CARD_W + 34, CARD_H / 2 + 6) if seats <= 4 else (CARD_W + 86, CARD_H + 14)
        x = cx + (px - cx) / rx * far_x - CARD_W / 2
        yy = cy + (py - cy) / ry * far_y - CARD_H / 2
        parts.append(card(c, x, yy, win=seat == d.winner, linked=linked))
    # the trump in the felt's top left corner, the score in its top right
    if d.trump_text or d.trump:
        label = "Trump: "
        parts.append(f'<text x="22" y="{top + 22}" font-size="13" fill="#fff" font-weight="bold">{label}</text>')
        at = 28 + len(label) * 7.4
        if d.trump:
            disc = f'<circle cx="{at + 9:g}" cy="{top + 17}" r="10" fill="#fff"/>'
            parts.append(disc + _suit(d.trump, at + 2, top + 10, 14, linked))
        else:  # no trump, or not known: the words under the table say which and why
            parts.append(f'<text x="{at:g}" y="{top + 22}" font-size="13" fill="#fff">none</text>')
    for i, (side, total) in enumerate(d.score[:7]):
        text = f"{cut(side, 120)} {total}"
        parts.append(
            f'<text x="{width - 22}" y="{top + 22 + i * 16}" font-size="13" fill="#fff" text-anchor="end">'
            f"{escape(text)}</text>"
        )
    y = top + felt_h + 22
    words = [(f"Trump: {d.trump_text}", False)] if d.trump_text else []
    for text, bad in words + d.lines:
        for line in wrap(text, width - 32):
            fill = RED if bad else BLACK
            parts.append(f'<text x="16" y="{y}" font-size="13" fill="{fill}">{escape(line)}</text>')
            y += LINE_H
    height = y + 6
    label = quoteattr(printable(f"{d.title} {d.subtitle}".strip()) or "a card table")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif" role="img" aria-label={label}>'
        f'<rect width="100%" height="100%" fill="#f7f5ef"/>{"".join(parts)}</svg>\n'
    )


def seat_names(seats: int) -> list[str]:
    """The seats' names where no player is named: N, E, S, W at a table of four, else seat 0, seat 1, ..."""
    return ["N", "E", "S", "W"] if seats == 4 else [f"seat {i}" for i in range(seats)]


def deal_svg(deal: object, names: Sequence[str] | None = None) -> str:
    """A record's deal (a ``phatlog.record.model`` deal, or anything with its ``dealer``, ``hands`` and
    ``tricks``) as a table diagram: the hands as dealt, the first trick, the turned-up card's trump."""
    hands = getattr(deal, "hands", None)
    tricks = getattr(deal, "tricks", None) or []
    seats = len(hands) if hands else (len(names) if names else 4)
    shown = list(names) if names else seat_names(seats)
    trick: list[tuple[int, str]] = []
    if tricks:
        first = tricks[0]
        trick = [((first.leader + i) % seats, str(c)) for i, c in enumerate(first.cards)]
    turnup = getattr(deal, "turnup", None)
    trump = str(turnup)[1] if turnup else (trick[0][1][1] if trick and seats == 4 and turnup is None else None)
    if getattr(deal, "bids", None) is not None or turnup is not None:  # Oh Hell: the trump is the turn-up's
        trump = str(turnup)[1] if turnup else None
    dealer = getattr(deal, "dealer", None)
    return table_svg(
        Diagram(
            names=shown,
            hands=None if not hands else [[str(c) for c in h] for h in hands],
            trick=trick,
            dealer=dealer if isinstance(dealer, int) else None,
            to_play=trick[0][0] if trick else None,
            trump=trump,
            subtitle="the hands as dealt, and the first trick" if trick else "the hands as dealt",
        )
    )
