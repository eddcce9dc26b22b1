"""What the three sample generators share: the house JSON style, the verdicts, and the rules from the engine.

The generators mutate simulated games into faulty records, so they work on JSON data; the rule helpers
put the engine's own functions (``tricks.winning_position``, the counters, ``card_points``,
``hand_score``, and ``phatlog.states``' events) in the shape of that data. Nothing here decides a rule.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import phatlog
from phatlog.archive.check import check_loaded
from phatlog.diagnostics import CODES, Severity
from phatlog.record.model import OhHellRules
from phatlog.record.reader import read_bytes
from phatlog.referee.heard import DealEvents, referee_events
from phatlog.referee.pitch import Findings
from phatlog.rules import oh_hell
from phatlog.rules.all_fours import card_points
from phatlog.rules.cards import CARD_BY_TEXT, Suit
from phatlog.rules.trick import winning_position

__all__ = [
    "actual_diagnostics",
    "as_bytes",
    "card_points",
    "code_pointer",
    "dumps",
    "events_of",
    "hand_points",
    "phat_deal_points",
    "serious_of",
    "trick_winner",
    "verdict",
]

Record = dict[str, Any]
Expected = list[dict[str, str]]


# --------------------------------------------------------------------------- JSON out


def dumps(value: Any, width: int = 100, indent: int = 2) -> str:
    """Pretty JSON in the house style: nested, but any value that fits on one line is kept on one line."""

    def render(node: Any, level: int) -> str:
        flat = json.dumps(node, ensure_ascii=False, separators=(", ", ": "))
        if not isinstance(node, (dict, list)) or not node or level * indent + len(flat) <= width:
            return flat
        pad = " " * ((level + 1) * indent)
        end = " " * (level * indent)
        if isinstance(node, dict):
            items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {render(v, level + 1)}" for k, v in node.items()]
            return "{\n" + ",\n".join(items) + "\n" + end + "}"
        return "[\n" + ",\n".join(pad + render(v, level + 1) for v in node) + "\n" + end + "]"

    return render(value, 0) + "\n"


def as_bytes(record: Any) -> bytes:
    return dumps(record).encode("utf-8")


# --------------------------------------------------------------------------- the engine's view


def verdict(record: Record) -> Findings:
    """The referee's verdict on a record that must be structurally valid."""
    return referee_events(_valid(record))[0]


def told(record: Record) -> list[DealEvents]:
    """What the referee told of each deal of a record that must be structurally valid (its events)."""
    return referee_events(_valid(record))[1]


def _valid(record: Record) -> Any:
    loaded = read_bytes(json.dumps(record).encode())
    if loaded.record is None:
        raise AssertionError(f"not a valid record: {[d.message for d in loaded.diagnostics]}")
    return loaded.record


def actual_diagnostics(data: bytes) -> tuple[Expected, bool]:
    """What ``phatlog verify`` reports for a file's bytes: every (code, pointer), and if it is unreadable."""
    report = check_loaded(read_bytes(data, "sample"), replay=True)
    return [{"code": d.code, "pointer": d.pointer} for d in report.diagnostics], report.unreadable


def code_pointer(item: dict[str, str]) -> tuple[str, str]:
    return item["code"], item["pointer"]


def serious_of(items: Expected) -> list[tuple[str, str]]:
    """The (code, pointer) of every diagnostic but the notes, sorted, once each."""
    return sorted({code_pointer(x) for x in items if CODES[x["code"]].severity is not Severity.INFO})


# --------------------------------------------------------------------------- the rules, from the engine


def trick_winner(leader: int, cards: Sequence[str], trump: str | None, seats: int) -> int:
    """The seat that wins a trick of card texts led by ``leader``; ``trump`` a suit letter or None."""
    suit = None if trump is None else Suit.parse(trump)
    return (leader + winning_position([CARD_BY_TEXT[c] for c in cards], suit)) % seats


def hand_points(rules: dict[str, Any], bid: int, took: int, size: int) -> int:
    """Oh Hell: what a player scores for one hand under ``rules`` (a record's rules object)."""
    r = OhHellRules.model_validate(rules)
    return oh_hell.hand_score(bid, took, size, r.miss, r.zero_bid)


def events_of(record: dict[str, Any]) -> list[phatlog.Event]:
    """Every event of the engine as it plays the record through (``phatlog.states``)."""
    events: list[phatlog.Event] = []
    for _ in phatlog.states(record, visitors=[events.append]):
        pass
    return events


def phat_deal_points(deal: Record) -> list[int]:
    """What a Phat deal's tricks peg by side as the engine plays them (``phatlog.start``) from a fresh game
    under the default rules: the counters, and the muck's 8 once all 13 tricks are played."""
    state = phatlog.start("phat", seed=None, dealer=deal["dealer"])
    state.deal(deal["hands"], dealer=deal["dealer"])
    for trick in deal["tricks"]:
        for card in trick["cards"]:
            state.apply(card)
    return list(state.totals)
