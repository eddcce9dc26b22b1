"""Best-play analysis: a double-dummy solver for every game, card-by-card costs, integrity statistics.

The small API (see docs/analysis.md): :func:`solve` (the player to act's cards, valued), :func:`value`
(one position's value), :func:`trick_range` (Oh Hell: the most and fewest tricks a seat can make sure of),
and :func:`reference_value` (plain minimax over the engine's state, the slow check on the others).
"""

from phatlog.solver.reference import reference_value
from phatlog.solver.search import Techniques, c_available
from phatlog.solver.values import Review, Solution, TrickRange, review, solve, trick_range, value

__all__ = [
    "Review",
    "Solution",
    "Techniques",
    "TrickRange",
    "c_available",
    "reference_value",
    "review",
    "solve",
    "trick_range",
    "value",
]
