"""SVG pictures: the suit symbols the HTML replay draws its cards with, and ``replay --format svg``'s
table diagram of one deal (the hands as dealt, or as they stand before a trick, around the table; the
trick in the middle; the trump and the score), drawn by :mod:`phatlog.record.diagram`.

Drawn from the replay summary alone, as the other renderers are; every text from the record is escaped
for XML and made printable (:func:`phatlog.diagnostics.printable.printable`). The suits are paths, not font glyphs, so a
picture looks the same wherever it is opened.
"""

from __future__ import annotations

from typing import Final

from phatlog.record.diagram import SUIT_PATHS, Diagram, suit_colour, table_svg
from phatlog.report import fmt
from phatlog.report.summary import DealSummary, Summary, TrickSummary

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def suit_symbols() -> str:
    """An invisible ``<svg>`` defining ``#suit-S``, ``#suit-H``, ``#suit-D``, ``#suit-C`` for ``<use>``."""
    symbols = "".join(
        f'<symbol id="suit-{s}" viewBox="0 0 100 100"><path d="{d}" fill="{suit_colour(s)}"/></symbol>'
        for s, d in SUIT_PATHS.items()
    )
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>{symbols}</defs></svg>'


def diagram(summary: Summary, deal: DealSummary, trick: int | None = None) -> Diagram:
    """What the table diagram of one deal shows: each seat's hand (as dealt; with ``trick``, as it stands
    before that trick), the trick (``trick``, else the deal's first) with its winner, the trump, the score
    after the trick, and under the table its words: the deal's lines, who won the trick and why, what it
    pegged or the tricks taken, and every problem at the trick or the deal."""
    names = [fmt.printable(n) if n else f"seat {i}" for i, n in enumerate(summary.players)]
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
    lines: list[tuple[str, bool]] = [
        (f"{label}: {text}", False) for label, text in fmt.deal_lines(summary, deal) if label != "Trump"
    ]
    score: list[tuple[str, int]] = []
    if shown is not None:
        head = f"Trick {shown.trick}" + ("" if trick is None else " (the hands as they stand before it)")
        lines.append((head, False))
        if shown.winner is not None:
            lines.append((f"Won by {names[shown.winner]}: {shown.why or ''}", False))
        elif not shown.replayed:
            lines.append(("not replayed", False))
        if summary.game == "oh_hell":
            if shown.taken is not None:
                lines.append(("Taken: " + ", ".join(f"{names[s]} {n}" for s, n in enumerate(shown.taken)), False))
        else:
            pegs = fmt.pegs(shown)
            if pegs:
                lines.append((f"Pegs: {pegs}", False))
        lines += [(fmt.problem(d), True) for d in shown.diagnostics]
        if shown.total is not None:
            score = [(fmt.printable(s.name), shown.total[s.side]) for s in summary.sides]
        elif shown.taken is not None:
            score = [(names[s], n) for s, n in enumerate(shown.taken)]
    lines += [(fmt.problem(d), True) for d in deal.diagnostics]
    trump = deal.trump
    return Diagram(
        names=names,
        hands=hands,
        trick=[] if shown is None else [(p.seat, p.card) for p in shown.plays],
        winner=None if shown is None or not shown.replayed else shown.winner,
        dealer=deal.dealer,
        to_play=None if shown is None else shown.leader,
        trump=None if trump is None else trump.suit,
        trump_text="" if trump is None else trump.text,
        score=score,
        title=fmt.title(summary),
        subtitle=fmt.deal_heading(summary, deal),
        lines=lines,
    )


def deal_picture(summary: Summary, deal: DealSummary, trick: int | None = None, *, linked: bool = False) -> str:
    """One deal as an SVG table diagram (:func:`diagram`, drawn by :func:`phatlog.record.diagram.table_svg`;
    ``linked``: its suits are uses of the page's :func:`suit_symbols`)."""
    return table_svg(diagram(summary, deal, trick), linked=linked)
