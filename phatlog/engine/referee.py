"""The referee: replay a checked record through its game's rules module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from phatlog.diagnostics import Diagnostic, diag
from phatlog.engine import irish_don, nine_card_don, oh_hell, phat
from phatlog.engine.pitch import Verdict
from phatlog.engine.view import AnyRecordView, game_of


class Referee(Protocol):
    """What every game's referee offers. It takes a record of its own game: ``AnyRecordView`` leaves the
    rules and the deals open, as the game a record is of is known only at run time."""

    def referee(self, record: AnyRecordView, trace: bool = False) -> Verdict: ...

    def check_rules(self) -> list[Diagnostic]: ...


#: The rules module of each game: given a record of that game, the referee for it.
RULES_MODULES: Final[dict[str, Callable[[AnyRecordView], Referee]]] = {
    "phat": phat.make,
    "nine_card_don": nine_card_don.make,
    "irish_don": irish_don.make,
    "oh_hell": oh_hell.make,
}


def referee(record: AnyRecordView, trace: bool = False) -> Verdict:
    """Replay a record and return every problem found, with the engine's scores."""
    game = game_of(record)
    make = RULES_MODULES.get(game)
    if make is None:
        names = [p.name for p in record.players]
        found = diag("PL602", f"this phatlog cannot referee {game} yet: only its structure was checked", "/game")
        return Verdict([found.located(names)], len(record.deals), None, None, None)
    return make(record).referee(record, trace=trace)
