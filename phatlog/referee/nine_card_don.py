"""Nine-card Don: the rules as this engine applies them (rules reference A.3, B.3.1-B.3.2).

Four players in two partnerships, partners opposite. Each is dealt 9 cards; the other 16 are set aside
and take no part in the deal. A record may list them, and then the 52 cards must all be distinct (where
the hands are not recorded, no card listed as undealt may have been played). The player on the dealer's
left is the pitcher, and the suit of the pitcher's first lead is trump. Players must follow suit if able
(``follow: must_follow``), or under the old rule may trump instead even when able to follow
(``follow: follow_or_trump``). The highest trump, or else the highest card of the suit led, wins, and
the winner leads next.

**Counters**, pegged at once by the side that wins the trick: the five of trumps 10, every other five 5,
the nine of trumps 9 (other nines count nothing), and the ace, king, queen and jack of trumps 4, 3, 2
and 1.

**Game.** After the last trick each side counts the aces (4), kings (3), queens (2), jacks (1) and tens
(10) it took, in every suit, trumps included. The ``bonus`` scheme then awards, in this order:

- ``game_8``: 8 to the side with the greater game count;
- ``six_high_jack``: 6 for game, 1 for high, 1 for jack;
- ``five_high_low_jack``: 5 for game, 1 for high, 1 for low, 1 for jack.

High and low are the highest and lowest trump among the 36 cards dealt (the hands as recorded, or as
inferred from the tricks). High goes to the side that was dealt it (which is also the side that wins
it). Low goes to the side dealt it, or under ``low_to: capturer`` to the side that wins it in a trick
(``low_to`` with another scheme is an invalid combination). Jack goes to the side that wins the jack of
trumps; if the jack was not dealt nobody scores it (hence "sometimes only 7 bonus points"). On equal
game counts nobody scores game. The jack of trumps still pegs its counter at once, and high its counter
value: the bonuses come on top.

**The end.** ``target`` 121 (or 91); ``peg_out`` as in Phat. The bonuses are pegged one by one in the
order game, high, low, jack, and the first that reaches the target wins.

**The cut.** One player of each side cuts; the higher card pitches (ace high); equal ranks cut again.

**Score sheets.** A deal recorded without its cards may peg 0 to 52 in all (44 in counters, 8 in
bonuses). Under ``peg_out: immediate`` only one side reaches the target in the deal that ends the game,
and by no more than one trick's counters (29) can give.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.view import NineCardDonRulesView
from phatlog.referee.pitch import Bonus, DealCards, Tally, AllFoursReferee, check_cut, game_ending_problem, side_of
from phatlog.rules.cards import DECK, RANK_OF, SUIT_OF, Card, Rank, Suit

GAME_VALUE = {"game_8": 8, "six_high_jack": 6, "five_high_low_jack": 5}
#: ``bonus`` as the C record path takes it (``_hot.pitch_record``).
BONUS_CODES = {"game_8": 0, "six_high_jack": 1, "five_high_low_jack": 2}
MOST_IN_A_TRICK = 10 + 9 + 5 + 5  # the five and nine of trumps and two other fives (a bonus peg is 8 at most)
RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "CDHS"


@cache
def don_counters(trump: Suit) -> tuple[int, ...]:
    """Nine-card Don's counters: what each card pegs at once for the side that wins it."""

    def value(card: Card) -> int:
        rank, is_trump = RANK_OF[card], SUIT_OF[card] == trump
        if rank == Rank.FIVE:
            return 10 if is_trump else 5
        if is_trump:
            return {Rank.NINE: 9, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}.get(rank, 0)
        return 0

    return tuple(value(c) for c in DECK)


class NineCardDonReferee(AllFoursReferee[NineCardDonRulesView]):
    """Nine-card Don's counters, game and bonuses over the family's shared play."""

    game = "nine_card_don"
    hand_size = 9
    keeps_hands = True
    undealt = True

    def counters(self, trump: Suit) -> tuple[int, ...]:
        return don_counters(trump)

    def most_points(self, state: Tally) -> int:
        return 44 + 8  # every counter (trump 9 5 A K Q J and the plain fives), and the whole bonus

    def hot_codes(self) -> tuple[int, int, int]:
        return (0, BONUS_CODES.get(self.rules.bonus, -1), int(self.rules.low_to == "capturer"))

    def sheet_points_problem(self, points: tuple[int, int], reaches: bool, state: Tally) -> str | None:
        """The counters of 36 dealt cards come to at most 44, and the bonus to 8. Under ``peg_out:
        immediate`` the deal that ends the game stops at the winning peg, so it cannot overshoot."""
        if points[0] + points[1] > self.most_points(state):
            return f"a Nine-card Don deal pegs at most {self.most_points(state)} (44 in counters and 8 in bonuses)"
        if reaches and self.immediate and state.known:
            return game_ending_problem(points, state.totals, self.target, MOST_IN_A_TRICK)
        return None

    def check_rules(self) -> list[Diagnostic]:
        if self.rules.low_to is not None and self.rules.bonus != "five_high_low_jack":
            # It changes nothing (no low is scored), so the record can still be refereed: a warning.
            return [
                diag(
                    "PL603",
                    f"low_to {self.rules.low_to} does not apply: the {self.rules.bonus} bonus has no low, only "
                    "five_high_low_jack scores low (leave low_to out, or choose that bonus)",
                    "/rules/low_to",
                )
            ]
        return []

    def bonuses(self, cards: DealCards, trump: int, state: Tally, reasons: bool = True) -> list[Bonus]:
        """Game, then (by the scheme) high, low and jack, in the order they are pegged."""
        scheme = self.rules.bonus
        game = cards.game
        state.captured = game
        out: list[Bonus] = []
        if game[0] != game[1]:
            why = f"game {game[0]}-{game[1]}" if reasons else ""
            out.append(Bonus(0 if game[0] > game[1] else 1, GAME_VALUE[scheme], "game", why))
        else:
            out.append(Bonus(None, 0, "game", f"game {game[0]}-{game[1]}: equal, nobody scores game"))
        if scheme == "game_8":
            return out
        assert cards.high is not None and cards.low is not None  # the pitcher's lead was a trump: always one
        high, high_seat = cards.high
        out.append(Bonus(side_of(high_seat), 1, "high", f"high: {high}, the highest trump dealt" if reasons else ""))
        if scheme == "five_high_low_jack":
            low, low_seat = cards.low
            if self.rules.low_to == "capturer":
                side = 0 if cards.low_side == 0 else 1
                why = f"low: {low}, the lowest trump dealt, to the side that won it" if reasons else ""
                out.append(Bonus(side, 1, "low", why))
            else:
                why = f"low: {low}, the lowest trump dealt, to its holder" if reasons else ""
                out.append(Bonus(side_of(low_seat), 1, "low", why))
        if cards.jack_side is not None:
            why = f"jack: {RANK_LETTERS[Rank.JACK] + SUIT_LETTERS[trump]} won in a trick" if reasons else ""
            out.append(Bonus(cards.jack_side, 1, "jack", why))
        else:
            jack = RANK_LETTERS[Rank.JACK] + SUIT_LETTERS[trump]
            out.append(Bonus(None, 0, "jack", f"jack: {jack} was not dealt, nobody scores it"))
        return out

    def check_cut(
        self, cut: Sequence[Sequence[str | None]], first_dealer: int, names: Sequence[str]
    ) -> list[Diagnostic]:
        return check_cut(cut, first_dealer, names, one_per_side=True, highest_pitches=True)
