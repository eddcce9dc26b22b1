"""A new game on the game machine: the rules checked, the players named, the State made.

``checked_rules`` is what ``start`` and ``simulate`` check first: the rules model of the game (pydantic
refuses a value the schema refuses) and the rules checks of the game's rules object (``check_rules``: PL601
refuses rules that make no sense, PL603 warns of a parameter that does not apply).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from phatlog.diagnostics import Severity
from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import State, Visitor
from phatlog.record.model import IrishDonRules, NineCardDonRules, OhHellRules, PhatRules
from phatlog.referee.games import ALL_FOURS
from phatlog.referee.oh_hell_driver import OhHellReferee

#: Default names for players given as a count.
PLAYER_NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus")
#: The rules model of each game the machine plays.
RULES_MODELS: dict[str, type[BaseModel]] = {
    "phat": PhatRules,
    "nine_card_don": NineCardDonRules,
    "irish_don": IrishDonRules,
    "oh_hell": OhHellRules,
}


def checked_rules(game: str, rules: Mapping[str, Any] | None, players: int) -> tuple[Any, list[str]]:
    """The rules model of ``game`` for ``players`` and the engine's warnings about it (a parameter that
    does not apply, PL603). Raises pydantic's ``ValidationError`` for a value the schema refuses and
    ``ValueError`` for rules the referee refuses (PL601): what ``start`` and ``simulate`` check first."""
    # Any: which rules Protocol (``record.view``) the model meets follows from ``game``, known at run time.
    model: Any = RULES_MODELS[game].model_validate(dict(rules or {}))
    checker = OhHellReferee(model, players) if game == "oh_hell" else ALL_FOURS[game](model)
    found = checker.check_rules()
    errors = [d.message for d in found if d.severity is Severity.ERROR]
    if errors:
        raise ValueError("; ".join(errors))
    return model, [d.message for d in found if d.severity is not Severity.ERROR]


def start(
    game: str,
    players: Sequence[str] | int | None = None,
    rules: Mapping[str, Any] | None = None,
    seed: int | None = 7,
    dealer: int | None = None,
    rng: random.Random | None = None,
    visitors: Iterable[Visitor] = (),
) -> State:
    """A new game. ``players``: names, or a count (4 by default; Oh Hell 3 to 7). ``seed``: deals drawn
    from ``random.Random(seed)`` (``rng``: draw from this generator instead); None: give each deal with
    ``state.deal(...)``. ``dealer``: the first dealer (drawn from the seed when not given, else seat 0;
    Irish Don's first dealer follows from the hands). ``visitors`` hear every event from the start."""
    if game not in RULES_MODELS:
        raise ValueError(f"phatlog plays phat, nine_card_don, irish_don and oh_hell, not {game!r}")
    if players is None:
        players = 4
    names = list(PLAYER_NAMES[:players]) if isinstance(players, int) else list(players)
    if isinstance(players, int) and not 1 <= players <= len(PLAYER_NAMES):
        raise ValueError(f"{game} is not for {players} players")
    model, _ = checked_rules(game, rules, len(names))
    if rng is None and seed is not None:
        rng = random.Random(seed)
    if game == "oh_hell":
        return OhHellState(model, names, rng, dealer, list(visitors))
    return PitchState(game, model, names, rng, dealer, list(visitors))
