"""The play of one deal's tricks, written once: the machine that plays the cards from the hands.

:class:`TrickPlay` holds the hands as they are played down, whose turn it is, when a trick is complete,
the tricks each seat has taken, and that the winner leads next. The State plays every card on it (for a
bot, for ``phatlog.states`` and for the referees, which drive the State); the referees also copy the
State's hand in play onto one keyed by card text for the claim audit. The rules of a card
(``rules.trick.may_play``) and of the winner (``rules.trick.winning_position``) are not here: a driver
asks them, so each words a fault its own way (the State refuses an illegal card before playing it; a
referee words what is wrong with a recorded trick, in its family's order).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

from phatlog.rules.trick import seat_of

_new = object.__new__

#: A card as a trick's play tracks it: its text (the referees, reading a record) or a :class:`Card`.
C = TypeVar("C", bound=Hashable)


class TrickPlay(Generic[C]):
    """The tricks of one deal being played, card by card: ``held`` are the hands by seat (played down as
    the cards are played), ``leader`` leads the trick being played (``trick``, its cards so far),
    ``taken`` counts the tricks each seat has won, ``played`` the tricks finished.

    The State plays a card at a time (:meth:`play`), a referee a recorded trick at once
    (:meth:`play_cards`). The rules of a card (``may_play``) and of the winner (``winning_position``) are
    not here: a driver asks them around :meth:`play` and before :meth:`close`, so each words a fault
    its own way.
    """

    __slots__ = ("held", "leader", "played", "seats", "taken", "trick")

    def __init__(self, held: list[set[C]], leader: int) -> None:
        self.held = held
        self.seats = len(held)
        self.leader = leader
        self.trick: list[C] = []
        self.taken = [0] * self.seats
        self.played = 0

    def copy(self) -> TrickPlay[C]:
        """An independent copy: the hands, the trick and the tricks taken copied, the rest shared."""
        new: TrickPlay[C] = _new(TrickPlay)
        new.held = list(map(set.copy, self.held))
        new.seats = self.seats
        new.leader = self.leader
        new.trick = self.trick[:]
        new.taken = self.taken[:]
        new.played = self.played
        return new

    @property
    def turn(self) -> int:
        """The seat to play next."""
        return seat_of(self.leader, len(self.trick), self.seats)

    def play(self, card: C) -> bool:
        """The seat to play plays ``card`` from its hand (which must hold it: KeyError if not); True when
        that completes the trick (then :meth:`close` it)."""
        trick = self.trick
        self.held[(self.leader + len(trick)) % self.seats].remove(card)  # ``turn``, inlined (the hot loop)
        trick.append(card)
        return len(trick) == self.seats

    def play_cards(self, cards: Sequence[C]) -> int:
        """Play a whole trick's cards in turn from its lead (the referees: a recorded trick), up to the
        first that its player does not hold: how many were played."""
        held, seats, leader = self.held, self.seats, self.leader
        played = 0
        for card in cards:
            try:
                held[(leader + played) % seats].remove(card)  # ``seat_of``, inlined (the hot loop)
            except KeyError:
                break
            played += 1
        self.trick.extend(cards if played == len(cards) else cards[:played])
        return played

    def lay(self, cards: Sequence[C]) -> None:
        """Lay a whole trick's ``cards`` from its lead, each held by its player (a driver has checked), to
        be closed at once (:meth:`close`): they are taken from the hands, not put on the trick."""
        held, seats, leader = self.held, self.seats, self.leader
        for i, card in enumerate(cards):
            held[(leader + i) % seats].remove(card)  # ``seat_of``, inlined (the hot loop)

    def close(self, position: int) -> int:
        """Finish the complete trick, won by the card at ``position`` (``winning_position``): its winner
        takes it and leads the next. Returns the winner."""
        winner = (self.leader + position) % self.seats  # ``seat_of``, inlined (the hot loop)
        self.taken[winner] += 1
        self.played += 1
        self.leader = winner
        self.trick = []
        return winner
