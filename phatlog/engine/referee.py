"""The referee: replay a checked record through its game's rules module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from phatlog.diagnostics import diag
from phatlog.engine import irish_don, nine_card_don, phat
from phatlog.engine.pitch import PitchGame, Verdict
from phatlog.engine.view import game_of

#: The rules module of each game that the engine can referee.
RULES_MODULES: Final[dict[str, Callable[[Any], PitchGame]]] = {
    "phat": phat.make,
    "nine_card_don": nine_card_don.make,
    "irish_don": irish_don.make,
}


def referee(record: Any, trace: bool = False) -> Verdict:
    """Replay a record and return every problem found, with the engine's scores."""
    game = game_of(record)
    make = RULES_MODULES.get(game)
    if make is None:
        names = [p.name for p in record.players]
        return Verdict(
            [
                diag(
                    "PL602", f"this phatlog cannot referee {game} yet: only the structure was checked", "/game"
                ).located(names)
            ],
            len(record.deals),
            None,
            None,
            None,
        )
    return make(record.rules).referee(record, trace=trace)
