"""The referee's skeleton, written once for every game: the checks of a deal that do not depend on the game.

Both referees (``all_fours`` for the All Fours family, four seats in partnerships; ``oh_hell``, 3 to 7 seats
each for themselves) use these for: the dealer's rotation (PL202), the hands as dealt, recorded or
inferred from the tricks (PL201, PL203, PL205, PL302), who leads (PL301), a card its player did not hold
(PL302), a failure to follow (PL303, in the words of the follow rule), a wrongly recorded trick winner
(PL304), a deal cut short (PL306) and the deal that cannot be scored after an illegal play (PL307). What a
game's referee supplies is only what differs: the number of seats, the hand size, its word for a deal
("deal" or "hand"), whose lead opens it, and its follow rule.

The trick loop is here too (Oh Hell's; the All Fours referee plays every card on the State, checking
each in the same order: ``all_fours.Driver.play_tricks``): :func:`play_tricks` drives ``trickplay.TrickPlay`` (the
hands played down, whose turn, who leads next, the tricks taken: the same machine the State drives) over a
record's tricks and reports the first fault in the one order both families share: the leader (PL301)
before any card; then the cards, each held by its player (PL302) and following the rule (PL303), where the
All Fours family (``held_first``) checks that all four cards are held before it looks at following suit,
and Oh Hell checks card by card; a wrong recorded winner (PL304) is reported and the play goes on. What
each game does with a trick won (pegs its counters, ends the game at a peg, tells a visitor) is the
``won`` hook; what follows the tricks (PL305, PL306, the bonuses) stays the game's.

The rules themselves are not here: following suit is ``tricks.may_play``, the winner of a trick is
``tricks.text_winning_position`` (the ``STRENGTH`` order of ``tricks.winning_position``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.engine.trickplay import TrickPlay
from phatlog.record.view import AnyDealView, TrickView
from phatlog.rules.cards import CARD_BY_TEXT, CARD_TEXT, Suit
from phatlog.rules.table import first_leader, next_dealer
from phatlog.rules.trick import (
    SUIT_BY_TEXT,
    TEXTS_OF_SUIT,
    FollowRule,
    cards_of_suit,
    holds_suit,
    may_play,
    text_winning_position,
)


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


#: What a referee does with a trick won, as ``play_tricks`` calls it: ``(t, trick, position, winner,
#: taken)``, the trick's index and record, the position of the winning card, its seat, and the tricks
#: each seat has taken so far. True ends the play (the game is over at a peg).
TrickHook = Callable[[int, TrickView, int, int, Sequence[int]], bool]


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


def play_tricks(
    deal: AnyDealView,
    d: int,
    hands: list[set[str]],
    first: str,
    trump: int | None,
    rule: FollowRule,
    held_first: bool,
    names: Sequence[str],
    out: list[Diagnostic],
    won: TrickHook | None = None,
    ruled: RevokeRulings | None = None,
) -> tuple[TrickPlay[str], int | None]:
    """The referee's trick loop, for every game: play the deal's recorded tricks from ``hands`` (played
    down as they go) and report the first fault. Returns the play (its ``played`` tricks, ``taken``) and
    the index of the trick with the fault, or None.

    The order of the checks is the referees': the leader (PL301, ``first`` words who leads the first
    trick, as in ``wrong_leader``) before any card; each card held (PL302) and following ``rule`` (PL303)
    under ``trump`` (None: no trump), all of a trick's cards checked held before any is checked for
    following where ``held_first`` (the All Fours family), card by card otherwise (Oh Hell); the recorded
    winner (PL304, reported, the play goes on); then ``won``, which may end the play. ``ruled`` (format
    1.1, a deal's rulings): a revoke a ruling covers is noted (info PL310) and stands as played.
    """
    tricks = deal.tricks
    assert tricks is not None  # a referee plays only a deal with tricks
    seats = len(hands)
    play: TrickPlay[str] = TrickPlay(hands, first_leader(deal.dealer, seats))
    table = 4 if trump is None else trump  # ``STRENGTH``'s no-trump tables are number 4
    suit_of = SUIT_BY_TEXT
    texts_of_suit = TEXTS_OF_SUIT
    for t, trick in enumerate(tricks):
        leader = trick.leader
        if leader != play.leader:
            out.append(wrong_leader(d, t, leader, play.leader, first, names))
            return play, t
        cards = trick.cards
        held = play.play_cards(cards)  # the cards up to the first its player does not hold
        whole = held == len(cards)
        if not whole and held_first:
            out.append(not_held(deal, d, t, held, (leader + held) % seats, cards[held], seats, names))
            return play, t
        # Only a card off the suit led can break the follow rule. A player's hand after their own card is
        # the same whether or not the later cards are played yet, so checking the held cards' following
        # after playing them all is checking card by card.
        led = suit_of[cards[0]]
        if not texts_of_suit[led].issuperset(cards if whole else cards[:held]):
            for i in range(1, held):
                text = cards[i]
                if suit_of[text] != led:
                    seat = (leader + i) % seats
                    revoke = illegal_play(d, t, i, seat, text, led, trump, rule, hands[seat], names)
                    if revoke is not None and ruled is not None and ruled.stands(t, seat, revoke, out):
                        continue  # format 1.1: a ruled revoke stands as played
                    if revoke is not None:
                        out.append(revoke)
                        return play, t
        if not whole:
            out.append(not_held(deal, d, t, held, (leader + held) % seats, cards[held], seats, names))
            return play, t
        if len(cards) < seats:
            break  # format 1.1: the last trick, partly played before a claim (``short_tricks`` allows only it)
        position = text_winning_position(cards, table)
        winner = play.close(position)
        if trick.winner is not None and trick.winner != winner:
            out.append(wrong_winner(d, t, trick.winner, winner, cards[position], names))
        if won is not None and won(t, trick, position, winner, play.taken):
            break
    return play, None


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
