"""``replay --analyse``: the replay's cards marked with what each cost against best play.

The replay's summary is built as always (``phatlog.report.summary``, the one rules source); this is a
separate step after it. :func:`analyse_summary` runs the card-by-card analysis of ``phatlog analyse``
(``phatlog.analysis.records.analyse``, the same code path and figures) on the same record and
:func:`annotate` writes each analysed card's cost into its ``Play.cost`` (0 for a best card). A deal the
analysis cannot value (its hands unknown, PL840; no cards, PL841; an illegal play, PL842) gets a note
saying why instead. The renderers mark a card whose cost is above 0 (``fmt.cost_mark``) and add a legend
(:func:`legend`); a replay without ``--analyse`` has no cost anywhere and is unchanged, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec
from pydantic import BaseModel

from phatlog.record.reader import Loaded
from phatlog.report.summary import Summary
from phatlog.rules.cards import CARD_TEXT

if TYPE_CHECKING:
    from phatlog.analysis.records import Analysis
    from phatlog.analysis.single_dummy import Decision, SingleDummyAnalysis, SingleDummyAsk

#: The minus sign of a mark, ``QH (−3)``.
MINUS = "\u2212"


def analyse_summary(
    summary: Summary,
    loaded: Loaded,
    deal: int | None = None,
    from_trick: int = 1,
    progress: Callable[[int, int], None] | None = None,
    *,
    line: bool = False,
    pitch: bool = False,
    single_dummy: SingleDummyAsk | None = None,
) -> None:
    """Analyse the record the summary was built from (``loaded``, as ``build`` took it) and mark the
    summary's cards with their costs: ``deal`` only that deal (from 1), from trick ``from_trick``; with
    ``line`` and ``pitch``, each deal's best line and pitch table too (``phatlog.analysis.reading``, into
    ``DealSummary.best``). A record that could not be replayed is left as it is. ``progress`` is told
    (cards valued, cards to value) as each card is valued (a 52-card deal is minutes of work): the deals
    are then analysed one at a time, with the same marks. ``single_dummy``: each card valued on what its
    player knew too (``sd_*``, and a note for each card that cost something either way)."""
    if summary.status != "replayed" or loaded.record is None:
        return
    from phatlog.analysis.records import Analysis, CardCost, analyse

    record = loaded.record  # the reader's fast path gives a plain record: phatlog.read takes its data
    data = record if isinstance(record, BaseModel) else msgspec.to_builtins(record)
    played = [d + 1 for d, item in enumerate(record.deals) if item.tricks]
    asked = played if deal is None else [d for d in played if d == deal]
    total = sum(len(t.cards) for d in asked for t in record.deals[d - 1].tricks[from_trick - 1 :])
    valued = [0]

    def on_card(_: CardCost) -> None:
        valued[0] += 1
        if progress is not None:
            progress(valued[0], total)

    if progress is None or deal is not None or not played:
        analysis = analyse(data, deal, from_trick, on_card=on_card)
    else:
        found: list[Analysis] = []
        for number in played:
            found.append(of_deal(analyse(data, number, from_trick, on_card=on_card), number))
        first = found[0]
        deals = [d for a in found for d in a.deals]
        analysis = Analysis(first.game, first.players, deals, [x for a in found for x in a.diagnostics])
    annotate(summary, analysis)
    if single_dummy is not None:
        annotate_single_dummy(summary, single_dummy.analyse(data, deal=deal, from_trick=from_trick))
    if line or pitch:
        from phatlog.analysis.reading import read_analysis

        readings = {r.deal: r for r in read_analysis(data, analysis, line=line, pitch=pitch)}
        for shown in summary.deals:
            reading = readings.get(shown.deal)
            if reading is not None:
                shown.best = reading.to_json()


def of_deal(analysis: Analysis, number: int) -> Analysis:
    """An analysis asked for one deal (``number``, from 1) with only that deal's diagnostics: the analysis
    of a deal steps through the whole record, and words an illegal play of any deal (PL842)."""
    prefix = f"/deals/{number - 1}"
    kept = [d for d in analysis.diagnostics if d.pointer == prefix or d.pointer.startswith(prefix + "/")]
    analysis.diagnostics = kept
    return analysis


def annotate(summary: Summary, analysis: Analysis) -> None:
    """Set ``Play.cost`` of every card the analysis valued; add to a deal the analysis could not value (or
    stopped in) a note saying why."""
    costs = {(c.deal, c.trick, c.seat): c for d in analysis.deals for c in d.cards}
    why: dict[int, list[str]] = {}
    for found in analysis.diagnostics:
        parts = (found.pointer or "").split("/")
        if len(parts) > 2 and parts[1] == "deals" and parts[2].isdigit():
            message = found.message.split(": ", 1)[-1] if found.message.startswith("deal ") else found.message
            why.setdefault(int(parts[2]) + 1, []).append(f"analysis ({found.code}): {message}")
    for deal in summary.deals:
        for trick in deal.tricks:
            for play in trick.plays:
                valued = costs.get((deal.deal, trick.trick, play.seat))
                play.cost = None if valued is None else valued.cost
                if valued is not None and valued.cost:  # what was best instead, and what each was worth
                    play.best, play.best_value, play.value = list(valued.best), valued.before, valued.after
        deal.notes.extend(why.get(deal.deal, ()))


def annotate_single_dummy(summary: Summary, sd: SingleDummyAnalysis) -> None:
    """Set each valued card's single-dummy figures (``Play.sd_*``), and note under its deal every card that
    cost something with every hand seen or was clearly worse on what its player knew, the two side by
    side: "trick 3: Dee played TH: cost 0 with every hand seen, 6.2 ± 1.1 on what Dee knew"."""
    by_place = {(d.deal, d.trick, d.seat): d for d in sd.decisions}
    for deal in summary.deals:
        for trick in deal.tricks:
            for play in trick.plays:
                decision = by_place.get((deal.deal, trick.trick, play.seat))
                if decision is None:
                    continue
                play.sd_cost, play.sd_ci = round(decision.sd_cost, 4), round(decision.sd_ci, 4)
                play.sd_best = [CARD_TEXT[c] for c in decision.sd.best]
                if decision.dd_cost or decision.sd.cards[decision.card].clearly_worse:
                    deal.notes.append(single_dummy_note(decision))


def single_dummy_note(decision: Decision) -> str:
    """A card's two costs in words: with every hand seen, and on what its player knew."""
    who = decision.player
    text = (
        f"single dummy, trick {decision.trick}: {who} played {CARD_TEXT[decision.card]}: cost {decision.dd_cost} "
        f"with every hand seen, {decision.sd_cost:.1f} \u00b1 {decision.sd_ci:.1f} on what {who} knew"
    )
    best = [CARD_TEXT[c] for c in decision.sd.best]
    if decision.card not in decision.sd.best:
        text += f" (best on what {who} knew: {' or '.join(best)})"
    return text


def unit_text(game: str) -> str:
    """What a cost counts in the game."""
    if game == "oh_hell":
        return "tricks more by which its player misses its bid"
    return "points fewer for its side to the end of the deal"


def legend(summary: Summary) -> str | None:
    """The legend line of an analysed replay (None for one without ``--analyse``)."""
    analysed = any(play.cost is not None for deal in summary.deals for trick in deal.tricks for play in trick.plays)
    if not analysed or summary.game is None:
        return None
    text = (
        f"a card marked ({MINUS}N) cost N against best play, double dummy (N {unit_text(summary.game)}); "
        "unmarked cards were best or not analysed"
    )
    if any(play.sd_cost is not None for deal in summary.deals for trick in deal.tricks for play in trick.plays):
        text += (
            "; the single-dummy notes value a card on what its player knew too: its mean cost over sampled "
            "layouts of the unseen cards, each solved, \u00b1 a 95% interval"
        )
    return text


def cost_mark(cost: int | None) -> str:
    """The mark after a card: `` (−3)`` for a card that cost 3; nothing for a best or unanalysed card."""
    return f" ({MINUS}{cost})" if cost else ""
