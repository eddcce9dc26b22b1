"""What one seat knows, as a learner reads it: a flat tensor of a fixed, documented layout and a string.

Both are built from :meth:`State.view` (the seat's own hand, every card played this deal and by whom,
the trump and turn-up, the bids as the seat may see them, the tricks taken, the totals), so they hold
nothing the seat cannot know: another seat's unplayed cards never reach them.

The tensor (``information_state_tensor``), floats, in this order; ``S`` is the game's seats, ``T`` the
most tricks a deal of the game has (13 in Phat and Irish Don, 9 in Nine-card Don, the largest hand of
the schedule in Oh Hell), and every seat is counted *from the observer*, to its left (0 the observer, 1
its left-hand opponent, ...):

=============  ==================  ==========================================================
piece          size                what
=============  ==================  ==========================================================
``phase``      5                   one-hot: deal, bid, play, deal_over, game_over
``dealer``     S                   one-hot: the dealer (none before the first deal)
``hand``       52                  the cards the seat holds now (card ``i``: suit ``i // 13``
                                   in C D H S, rank ``i % 13`` from the two up)
``trump``      5                   one-hot: clubs, diamonds, hearts, spades, none (or not yet known)
``turnup``     52                  Oh Hell's turned-up card
``bids``       S × (T + 1)         one-hot a seat: its bid, 0 to T; all 0: not bid (or not to be seen)
``tricks``     T × S × (1 + 52)    a trick of the deal (finished, then the one being played), a seat:
                                   whether it led the trick, and the card it played to it
``taken``      S × (T + 1)         one-hot a seat: the tricks it has taken this deal
``totals``     sides               the running totals, by side from the observer's (All Fours: its
                                   own side first), or by seat in Oh Hell; raw points
``turn``       S                   one-hot: whose turn it is (none at a chance node)
=============  ==================  ==========================================================

``information_state_shape(state)`` is its length. The string (``information_state_string``) is the
seat's view as compact JSON with sorted keys (see docs/api.md, "What a seat knows").
"""

from __future__ import annotations

import json
from typing import Final

from phatlog.engine.state import Phase, State
from phatlog.rules.cards import CARD_BY_TEXT

PHASES: Final = (Phase.DEAL, Phase.BID, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER)
SUIT_LETTERS: Final = "CDHS"


def most_tricks(state: State) -> int:
    """The most tricks a deal of the state's game has (``T`` of the layout)."""
    sizes = getattr(state, "sizes", None)
    return max(sizes) if sizes else state.hand_size()


def pieces(state: State) -> list[tuple[str, int]]:
    """The tensor's pieces and their sizes, in order (the layout of the module's table)."""
    seats, tricks = state.seats, most_tricks(state)
    return [
        ("phase", len(PHASES)),
        ("dealer", seats),
        ("hand", 52),
        ("trump", 5),
        ("turnup", 52),
        ("bids", seats * (tricks + 1)),
        ("tricks", tricks * seats * 53),
        ("taken", seats * (tricks + 1)),
        ("totals", state.sides),
        ("turn", seats),
    ]


def information_state_shape(state: State) -> int:
    """The length of the state's tensors (fixed for a game and its rules)."""
    return sum(size for _, size in pieces(state))


def information_state_tensor(state: State, seat: int) -> list[float]:
    """What ``seat`` knows, as a flat list of floats in the module's layout.

    >>> import phatlog
    >>> state = phatlog.start("phat", seed=1)
    >>> tensor = phatlog.information_state_tensor(state, 0)
    >>> len(tensor) == phatlog.information_state_shape(state)
    True
    >>> hand = [i for i, v in enumerate(tensor[9:61]) if v]   # after the phase (5) and the dealer (4)
    >>> len(hand), hand == [int(card) for card in state.hand(0)]
    (13, True)
    """
    view = state.view(seat)
    seats, tricks = state.seats, most_tricks(state)
    out: list[float] = []

    def rel(other: int) -> int:
        return (other - seat) % seats

    def one_hot(size: int, index: int | None) -> list[float]:
        block = [0.0] * size
        if index is not None and 0 <= index < size:
            block[index] = 1.0
        return block

    out += one_hot(len(PHASES), PHASES.index(state.phase))
    out += one_hot(seats, rel(view["dealer"]) if view["deal"] >= 0 else None)
    hand = [0.0] * 52
    for card in view["hand"]:
        hand[CARD_BY_TEXT[card]] = 1.0
    out += hand
    trump = view["trump"]
    out += one_hot(5, 4 if trump is None else SUIT_LETTERS.index(trump))
    turnup = view.get("turnup")
    out += one_hot(52, None if turnup is None else CARD_BY_TEXT[turnup])
    bids = view.get("bids") or [None] * seats
    by_rel: list[int | None] = [None] * seats
    for s, bid in enumerate(bids):
        by_rel[rel(s)] = bid
    for bid in by_rel:
        out += one_hot(tricks + 1, bid)
    played = [*view["tricks"], view["trick"]]
    block = [0.0] * (tricks * seats * 53)
    for t, trick in enumerate(played[:tricks]):
        leader = trick["leader"]
        for i, card in enumerate(trick["cards"]):
            at = (t * seats + rel(leader + i)) * 53
            block[at] = 1.0 if i == 0 else 0.0
            block[at + 1 + CARD_BY_TEXT[card]] = 1.0
    out += block
    taken = [0] * seats
    for s, n in enumerate(view["taken"]):
        taken[rel(s)] = n
    for n in taken:
        out += one_hot(tricks + 1, n)
    totals = view["totals"]
    if state.sides == seats:
        out += [float(totals[(seat + r) % seats]) for r in range(seats)]
    else:
        own = seat % state.sides
        out += [float(totals[(own + r) % state.sides]) for r in range(state.sides)]
    current = view["current_seat"]
    out += one_hot(seats, None if current is None else rel(current))
    return out


def information_state_string(state: State, seat: int) -> str:
    """What ``seat`` knows, as text: its view (``State.view``) as compact JSON, keys sorted.

    >>> import phatlog
    >>> state = phatlog.start("oh_hell", players=3, seed=7)
    >>> phatlog.information_state_string(state, 0)[:60]
    '{"bids":[null,null,null],"current_seat":2,"deal":0,"dealer":'
    """
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))
