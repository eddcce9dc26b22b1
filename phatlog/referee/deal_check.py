"""The referee's skeleton, written once for every game: the checks of a deal that do not depend on the game.

Both referees (``all_fours`` for the All Fours family, four seats in partnerships; ``oh_hell``, 3 to 7 seats
each for themselves) use these for: the dealer's rotation (PL202), the hands as dealt, recorded or
inferred from the tricks (PL201, PL203, PL205, PL302), who leads (PL301), a card its player did not hold
(PL302), a failure to follow (PL303, in the words of the follow rule), a wrongly recorded trick winner
(PL304), a deal cut short (PL306) and the deal that cannot be scored after an illegal play (PL307). What a
game's referee supplies is only what differs: the number of seats, the hand size, its word for a deal
("deal" or "hand"), whose lead opens it, and its follow rule.

The trick loop is here too, one for both referees (``play_tricks``): it checks each recorded trick and
then plays it on the State, which takes the trick and says who won it. The one difference between the
games is the order of the checks, a parameter: the All Fours family checks that all four cards of a trick
are held before it looks at following suit, Oh Hell checks card by card.

The rules themselves are not here: following suit is ``rules.trick.may_play``, the winner of a trick
``rules.trick.winning_position`` (its ``STRENGTH`` order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.record.view import AnyDealView, TrickView
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from phatlog.rules.table import next_dealer
from phatlog.rules.trick import (
    SUIT_BY_TEXT,
    TEXTS_OF_SUIT,
    FollowRule,
    cards_of_suit,
    holds_suit,
    may_play,
)

if TYPE_CHECKING:
    from phatlog.engine.state import Trick

SUITS = tuple(Suit)


class Rotation:
    """The deal passes to the left, and one wrong dealer is reported once (PL202): the next deal may pass on
    from the dealer recorded or from the one who should have dealt.

    ``name_record_first``: after a wrong dealer, whom the report names as due and the rotation carries on
    from. Oh Hell names the seat after the dealer recorded before (and the rotation's seat, where it differs,
    in brackets) and carries on from it; the All Fours referee names the rotation's seat and carries on from
    it. (The two differ only after two wrong dealers in a row.)
    """

    def __init__(self, seats: int, names: Sequence[str], name_record_first: bool) -> None:
        self.seats = seats
        self.names = names
        self.name_record_first = name_record_first
        self.from_record = self.from_rotation = -1

    def check(self, d: int, dealer: int, out: list[Diagnostic]) -> None:
        """Check deal ``d``'s dealer (a seat beyond the table is reported elsewhere: not here)."""
        n, names = self.seats, self.names
        due = dealer
        if d and dealer not in (self.from_record, self.from_rotation):
            due = self.from_record if self.name_record_first else self.from_rotation
            if dealer < n:
                other = self.from_rotation if self.name_record_first else due
                either = "" if other == due else f" (or {seat_name(other, names)})"
                out.append(
                    diag(
                        "PL202",
                        f"{seat_name(dealer, names)} dealt, but the deal passes to the left: "
                        f"{seat_name(due, names)}{either} should have dealt",
                        f"/deals/{d}/dealer",
                    )
                )
        self.from_rotation = next_dealer(due, n)
        self.from_record = next_dealer(dealer, n) if dealer < n else self.from_rotation


def report_dealt(
    hands: Sequence[Sequence[str]], d: int, size: int, names: Sequence[str], out: list[Diagnostic]
) -> bool:
    """Check recorded hands: each holds ``size`` cards (PL205) and no card is dealt twice (PL201). True if so."""
    ok = True
    seen: dict[str, int] = {}
    for seat, cards in enumerate(hands):
        if len(cards) != size:
            out.append(
                diag(
                    "PL205",
                    f"{seat_name(seat, names)} holds {len(cards)} cards; hand {d + 1} deals {size} to each player",
                    f"/deals/{d}/hands/{seat}",
                )
            )
            ok = False
        for i, text in enumerate(cards):
            if text in seen:
                other = seen[text]
                where = (
                    "twice to " + seat_name(seat, names)
                    if other == seat
                    else f"to both {seat_name(other, names)} and {seat_name(seat, names)}"
                )
                out.append(diag("PL201", f"{text} is dealt {where}", f"/deals/{d}/hands/{seat}/{i}"))
                ok = False
            else:
                seen[text] = seat
    return ok


def infer_hands(
    tricks: Sequence[TrickView], d: int, seats: int, size: int, noun: str, names: Sequence[str], out: list[Diagnostic]
) -> list[set[str]] | None:
    """Each seat's hand is the cards it played: exact when every card was played, partial otherwise.

    A card played twice is reported (PL302) and gives None. A partial hand still proves a revoke where the
    player later played the suit they failed to follow; what it cannot prove is said once, as a note (PL203).
    """
    hands: list[set[str]] = [set() for _ in range(seats)]
    first: dict[str, tuple[int, int]] = {}
    for t, trick in enumerate(tricks):
        for i, text in enumerate(trick.cards):
            seat = (trick.leader + i) % seats
            if text in first:
                ft, fs = first[text]
                out.append(
                    diag(
                        "PL302",
                        f"{seat_name(seat, names)} played {text}, which {seat_name(fs, names)} "
                        f"already played in trick {ft + 1}",
                        f"/deals/{d}/tricks/{t}/cards/{i}",
                        place=_card_place(d, t, seat, names),
                    )
                )
                return None
            first[text] = (t, seat)
            hands[seat].add(text)
    if 0 < len(tricks) < size:
        out.append(
            diag(
                "PL203",
                f"{noun} {d + 1}: the hands are not recorded and only {len(tricks)} of {size} tricks were "
                "played, so a failure to follow suit is caught only where the player later showed the suit",
                f"/deals/{d}",
            )
        )
    return hands


def _card_place(d: int, t: int, seat: int, names: Sequence[str]) -> str:
    return f"deal {d + 1}, trick {t + 1}, {seat_name(seat, names)}'s card"


def wrong_leader(d: int, t: int, leader: int, due: int, first: str, names: Sequence[str]) -> Diagnostic:
    """PL301: trick ``t`` led by the wrong seat. ``first``: who leads the first trick, in words, with
    ``{seat}`` for the seat ("{seat}, on the dealer's left")."""
    why = (
        f"{first.format(seat=seat_name(due, names))} leads the first trick"
        if t == 0
        else f"{seat_name(due, names)} won trick {t} and leads next"
    )
    return diag(
        "PL301",
        f"trick {t + 1} was led by {seat_name(leader, names)}, but {why}",
        f"/deals/{d}/tricks/{t}/leader",
    )


def not_held(
    deal: AnyDealView, d: int, t: int, i: int, seat: int, text: str, seats: int, names: Sequence[str]
) -> Diagnostic:
    """PL302: card ``i`` of trick ``t`` was not its player's to play, and why: already played, the turned-up
    card, or dealt to someone else (or to nobody)."""
    who = seat_name(seat, names)
    reason = "which they do not hold"
    assert deal.tricks is not None  # the card is in trick ``t``
    for earlier, trick in enumerate(deal.tricks[: t + 1]):
        cards = list(trick.cards)
        if text in cards and (earlier < t or cards.index(text) < i):
            by = seat_name((trick.leader + cards.index(text)) % seats, names)
            reason = f"which {by} already played in trick {earlier + 1}"
            break
    else:
        if getattr(deal, "turnup", None) == text:
            reason = "which is the turned-up card"
        elif deal.hands is not None:
            owners = [o for o, h in enumerate(deal.hands) if text in h]
            reason = f"which was dealt to {seat_name(owners[0], names)}" if owners else "which nobody was dealt"
    return diag(
        "PL302",
        f"{who} played {text}, {reason}",
        f"/deals/{d}/tricks/{t}/cards/{i}",
        place=_card_place(d, t, seat, names),
    )


def illegal_play(
    d: int,
    t: int,
    i: int,
    seat: int,
    text: str,
    led: int,
    trump: int | None,
    rule: FollowRule,
    mine: set[str],
    names: Sequence[str],
) -> Diagnostic | None:
    """PL303 if ``text`` may not be played from what ``seat`` still holds (``mine``, without it) to a trick
    led in ``led``, by ``tricks.may_play``: a failure to follow suit, or under ``must_trump`` to trump."""
    card = CARD_BY_TEXT[text]
    hand = {CARD_BY_TEXT[x] for x in mine}
    hand.add(card)
    suit_of_trump = None if trump is None else Suit(trump)
    if may_play(card, hand, Suit(led), suit_of_trump, rule):
        return None
    who = seat_name(seat, names)
    if holds_suit(hand, led):
        holding = " ".join(CARD_TEXT[c] for c in cards_of_suit(hand, led))
        message = (
            f"{who} played {text} to a {Suit(led).name.lower()[:-1]} lead while holding {holding}: "
            "players must follow suit if able"
        )
    else:
        assert trump is not None  # only must_trump forbids a card to a player who cannot follow
        holding = " ".join(CARD_TEXT[c] for c in cards_of_suit(hand - {card}, trump))
        message = (
            f"{who} could not follow suit and played {text} while holding the trump(s) {holding}: "
            "under must_trump (La Podrida) a player who cannot follow must trump"
        )
    return diag("PL303", message, f"/deals/{d}/tricks/{t}/cards/{i}", place=_card_place(d, t, seat, names))


class RevokeRulings(Protocol):
    """What the trick loop asks of a deal's rulings (``engine.rulings.DealRulings``, format 1.1)."""

    def stands(self, t: int, seat: int, found: Diagnostic, out: list[Diagnostic]) -> bool: ...

    @property
    def claim(self) -> object: ...


def wrong_trick_size(deal: AnyDealView, d: int, t: int, seats: int, ruled: RevokeRulings | None) -> Diagnostic | None:
    """PL207 if trick ``t`` has fewer (or more) cards than players; but the last trick of a deal with a
    claim (format 1.1) may be partly played: the claim covers the rest of it."""
    tricks = deal.tricks or ()
    n = len(tricks[t].cards)
    last = t == len(tricks) - 1
    if n == seats or (last and n < seats and ruled is not None and ruled.claim is not None):
        return None
    why = " (only the last trick before a claim may be partly played)" if last and n < seats else ""
    message = f"trick {t + 1} has {n} cards; each of the {seats} players plays one{why}"
    return diag("PL207", message, f"/deals/{d}/tricks/{t}/cards")


def short_tricks(deal: AnyDealView, d: int, seats: int, ruled: RevokeRulings | None, out: list[Diagnostic]) -> bool:
    """``wrong_trick_size`` for every trick of the deal (each reported); True if none is wrong."""
    found = [x for t in range(len(deal.tricks or ())) if (x := wrong_trick_size(deal, d, t, seats, ruled)) is not None]
    out.extend(found)
    return not found


def wrong_winner(d: int, t: int, recorded: int, winner: int, card: str, names: Sequence[str]) -> Diagnostic:
    """PL304: the trick is recorded as won by another seat than the one whose card wins it."""
    return diag(
        "PL304",
        f"trick {t + 1} is recorded as won by {seat_name(recorded, names)}, but "
        f"{seat_name(winner, names)}'s {card} wins it",
        f"/deals/{d}/tricks/{t}/winner",
    )


def cut_short(noun: str, d: int, played: int, size: int, consequence: str) -> Diagnostic:
    """PL306: a deal whose tricks stop before the last, though the game had not ended."""
    return diag("PL306", f"{noun} {d + 1} stops after {played} of {size} tricks, {consequence}", f"/deals/{d}/tricks")


def unscorable(noun: str, d: int, t: int) -> Diagnostic:
    """PL307: after an illegal play the rest of the deal cannot be scored; its recorded points stand."""
    return diag(
        "PL307",
        f"{noun} {d + 1} cannot be scored after the illegal play in trick {t + 1}; "
        "its recorded points are taken as they stand",
        f"/deals/{d}",
    )


class DrivenPlay(Protocol):
    """What the trick loop asks of the State it drives (``engine.state.State``)."""

    @property
    def seats(self) -> int: ...

    @property
    def leader(self) -> int: ...

    @property
    def held(self) -> list[set[Card]]: ...

    @property
    def ended_at(self) -> tuple[int, int | None] | None: ...

    def play_judged(self, cards: Sequence[Card]) -> Trick | None: ...


def play_tricks(
    state: DrivenPlay,
    deal: AnyDealView,
    d: int,
    trump: Suit | None,
    rule: FollowRule,
    held_first: bool,
    first: str,
    names: Sequence[str],
    out: list[Diagnostic],
    ruled: RevokeRulings | None = None,
) -> int | None:
    """The referees' trick loop: check each of the deal's recorded tricks, then play it on ``state``, which
    takes it; report the first fault and return its trick's index (None: no fault; the play also stops,
    without one, where a peg ended the game).

    The checks, in order: the leader (PL301, ``first`` words who leads the first trick, as in
    ``wrong_leader``) before any card; each card held by its player (PL302) and following ``rule`` (PL303)
    under ``trump`` (None: no trump). Where ``held_first`` (the All Fours family) all of a trick's cards are
    checked held before any is checked for following; otherwise (Oh Hell) card by card. Then the recorded
    winner against the State's (PL304, reported, the play goes on). ``ruled`` (format 1.1, a deal's
    rulings): a revoke a ruling covers is noted (info PL310) and stands as played.

    Each seat plays once to a trick, so a hand as the trick begins is the hand its card is played from:
    every check of a trick is made before any of its cards is played."""
    tricks = deal.tricks
    assert tricks is not None  # a referee plays only a deal with tricks
    seats = state.seats
    held = state.held
    trump_index = None if trump is None else int(trump)
    suit_of = SUIT_BY_TEXT
    by_text = CARD_BY_TEXT
    for t, trick in enumerate(tricks):
        leader = trick.leader
        if leader != state.leader:
            out.append(wrong_leader(d, t, leader, state.leader, first, names))
            return t
        texts = trick.cards
        cards = [by_text[text] for text in texts]
        size = len(cards)
        missing = size  # the first card its player does not hold
        for i in range(size):
            if cards[i] not in held[(leader + i) % seats]:  # ``in_turn``, inlined (the hot loop)
                missing = i
                break
        if missing < size and held_first:
            out.append(not_held(deal, d, t, missing, (leader + missing) % seats, texts[missing], seats, names))
            return t
        led = suit_of[texts[0]]
        if not TEXTS_OF_SUIT[led].issuperset(texts):  # only a card off the suit led can break the rule
            for i in range(1, missing):
                seat = (leader + i) % seats
                if may_play(cards[i], held[seat], SUITS[led], trump, rule):
                    continue
                mine = {CARD_TEXT[c] for c in held[seat]}
                revoke = illegal_play(d, t, i, seat, texts[i], led, trump_index, rule, mine, names)
                if revoke is None or (ruled is not None and ruled.stands(t, seat, revoke, out)):
                    continue  # format 1.1: a ruled revoke stands as played
                out.append(revoke)
                return t
        if missing < size:
            out.append(not_held(deal, d, t, missing, (leader + missing) % seats, texts[missing], seats, names))
            return t
        won = state.play_judged(cards)
        if won is None:
            break  # format 1.1: the last trick, partly played before a claim (``short_tricks`` allows only it)
        if trick.winner is not None and trick.winner != won.winner:
            strongest = texts[(won.winner - leader) % seats]
            out.append(wrong_winner(d, t, trick.winner, won.winner, strongest, names))
        if state.ended_at is not None:
            break  # the game ended at this trick's peg
    return None
