"""The reference solver: plain minimax over the engine's own :class:`~phatlog.engine.state.State`.

No table of its own and no pruning: every legal card is played on a copy of the state by the engine,
and the end of the deal is scored by the engine. It is slow, and exact by construction; the property
tests hold the fast solver (Python and C) to it on small endings of every game.
"""

from __future__ import annotations

from phatlog.engine.oh_hell_state import OhHellState
from phatlog.engine.pitch_state import PitchState
from phatlog.engine.state import Phase, State
from phatlog.rules.oh_hell import made
from phatlog.rules.table import side_of

FAR = -(10**9)  # totals far below any target, so that no peg ends the game (the solver plays deals out)


def reference_value(state: State, seat: int | None = None, objective: str = "miss") -> int:
    """All Fours: side 0's points less side 1's from ``state`` to the end of the deal, both sides playing
    best. Oh Hell: ``seat``'s objective (``miss``: minus its least miss of its bid; ``most``, ``fewest``
    (negated) tricks; ``exact``: 1 if it can take exactly its bid), the others playing against it."""
    work = state.copy()
    work._rng = None  # a seeded game would deal on: the search ends with the deal
    if isinstance(work, PitchState):
        work.totals[:] = [FAR, FAR]  # in place: the table shares the list
        base = work.totals[0] - work.totals[1]
        return _pitch(work) - base
    if isinstance(work, OhHellState):
        target = work.current_seat if seat is None else seat
        assert target is not None
        return _oh_hell(work, work.deal_index, target, objective)
    raise TypeError(f"not a game state: {type(state).__name__}")


def _pitch(state: PitchState) -> int:
    if state.phase is not Phase.PLAY:
        return state.totals[0] - state.totals[1]
    seat = state.current_seat
    assert seat is not None
    values = []
    for card in state.legal_actions():
        child = state.copy()
        child.apply(card)
        values.append(_pitch(child))  # type: ignore[arg-type]
    return max(values) if side_of(seat) == 0 else min(values)


def _oh_hell(state: OhHellState, deal: int, seat: int, objective: str) -> int:
    if state.phase is not Phase.PLAY or state.deal_index != deal:
        taken = state.taken[seat]
        bid = state.bids[seat] if state.bids else None
        if objective == "most":
            return taken
        if objective == "fewest":
            return -taken
        assert bid is not None
        if objective == "exact":
            return 1 if made(bid, taken) else 0
        return -abs(taken - bid)
    current = state.current_seat
    values = []
    for card in state.legal_actions():
        child = state.copy()
        child.apply(card)
        values.append(_oh_hell(child, deal, seat, objective))  # type: ignore[arg-type]
    return max(values) if current == seat else min(values)
