"""phatlog: the record format and referee for Phat, the Don family and Oh Hell.

The public API (docs/api.md): ``read``, ``verify``, ``replay``, ``start``, ``states`` and the types they
use, all named in ``__all__``. Every other module is internal and may change.

The names are loaded on first use (PEP 562), so that ``import phatlog`` stays light: the command's entry
point (``phatlog.cli.entry``) sets its signal handlers before anything heavy is imported.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phatlog.analysis.single_dummy import analyse_single_dummy, single_dummy
    from phatlog.analysis.views import layouts, view_of
    from phatlog.api import (
        Exported,
        ReadError,
        RecordEntry,
        Step,
        Verdict,
        export,
        read,
        records,
        replay,
        start,
        states,
        verify,
    )
    from phatlog.diagnostics import CODES, Diagnostic, Severity
    from phatlog.engine.state import (
        BidMade,
        CardPlayed,
        DealBegins,
        DealScored,
        Event,
        GameOver,
        IllegalAction,
        Pegged,
        Phase,
        Ruled,
        State,
        Trick,
        TrickShown,
        TrickWon,
        Visitor,
    )
    from phatlog.play.observation import information_state_shape, information_state_string, information_state_tensor
    from phatlog.rules.cards import Card, Rank, Suit
    from phatlog.solver.problem import Position, Solved, SolveLimit, solve

__version__ = "0.1.0"

#: Where each public name lives.
_HOMES = {
    **dict.fromkeys(("ReadError", "Step", "Verdict", "read", "replay", "start", "states", "verify"), "phatlog.api"),
    **dict.fromkeys(("RecordEntry", "records"), "phatlog.api"),
    **dict.fromkeys(("Card", "Rank", "Suit"), "phatlog.rules.cards"),
    **dict.fromkeys(("Exported", "export"), "phatlog.api"),
    **dict.fromkeys(
        ("information_state_shape", "information_state_string", "information_state_tensor"), "phatlog.play.observation"
    ),
    **dict.fromkeys(("CODES", "Diagnostic", "Severity"), "phatlog.diagnostics"),
    **dict.fromkeys(("Position", "SolveLimit", "Solved", "solve"), "phatlog.solver.problem"),
    **dict.fromkeys(
        (
            "BidMade",
            "CardPlayed",
            "DealBegins",
            "DealScored",
            "Event",
            "GameOver",
            "IllegalAction",
            "Pegged",
            "Phase",
            "Ruled",
            "State",
            "Trick",
            "TrickShown",
            "TrickWon",
            "Visitor",
        ),
        "phatlog.engine.state",
    ),
    **dict.fromkeys(("analyse_single_dummy", "single_dummy"), "phatlog.analysis.single_dummy"),
    **dict.fromkeys(("layouts", "view_of"), "phatlog.analysis.views"),
}

__all__ = [
    "CODES",
    "BidMade",
    "Card",
    "CardPlayed",
    "DealBegins",
    "DealScored",
    "Diagnostic",
    "Event",
    "Exported",
    "GameOver",
    "IllegalAction",
    "Pegged",
    "Phase",
    "Position",
    "Rank",
    "ReadError",
    "RecordEntry",
    "Ruled",
    "Severity",
    "SolveLimit",
    "Solved",
    "State",
    "Step",
    "Suit",
    "Trick",
    "TrickShown",
    "TrickWon",
    "Verdict",
    "Visitor",
    "__version__",
    "analyse_single_dummy",
    "export",
    "information_state_shape",
    "information_state_string",
    "information_state_tensor",
    "layouts",
    "read",
    "records",
    "replay",
    "single_dummy",
    "solve",
    "start",
    "states",
    "verify",
    "view_of",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'phatlog' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
