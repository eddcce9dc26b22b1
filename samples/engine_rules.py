"""The rules the sample generators need, taken from the engine (one rules source), for records as dicts.

The generators mutate simulated games into faulty records, so they work on JSON data; these helpers put
the engine's own functions (``tricks.winning_position``, the counters, ``card_points``, ``hand_score``)
in the shape of that data. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import phatlog
from phatlog.cards import CARD_BY_TEXT, Suit
from phatlog.engine import oh_hell
from phatlog.engine.phat import phat_counters
from phatlog.engine.pitch import card_points
from phatlog.engine.tricks import winning_position
from phatlog.model import OhHellRules

__all__ = ["card_points", "events_of", "hand_points", "phat_points", "trick_winner"]


def trick_winner(leader: int, cards: Sequence[str], trump: str | None, seats: int) -> int:
    """The seat that wins a trick of card texts led by ``leader``; ``trump`` a suit letter or None."""
    suit = None if trump is None else Suit.parse(trump)
    return (leader + winning_position([CARD_BY_TEXT[c] for c in cards], suit)) % seats


def phat_points(cards: Sequence[str], trump: str) -> int:
    """What the counters among ``cards`` peg in Phat with ``trump`` (a suit letter)."""
    values = phat_counters(Suit.parse(trump))
    return sum(values[CARD_BY_TEXT[c]] for c in cards)


def hand_points(rules: dict[str, Any], bid: int, took: int, size: int) -> int:
    """Oh Hell: what a player scores for one hand under ``rules`` (a record's rules object)."""
    return oh_hell.hand_score(OhHellRules.model_validate(rules), bid, took, size)


def events_of(record: dict[str, Any]) -> list[phatlog.Event]:
    """Every event of the engine as it plays the record through (``phatlog.states``)."""
    events: list[phatlog.Event] = []
    for _ in phatlog.states(record, visitors=[events.append]):
        pass
    return events
