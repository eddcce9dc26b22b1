"""Shared trick mechanics: who wins a trick, and which cards may be played (rules reference B.1, A.5).

The engine's hot loop uses text-keyed tables; ``winning_position`` and ``may_play`` say the same in
plain code. Both are checked here against a third, independent statement of the rules written in the
tests, and against each other.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phatlog.engine.trickplay import TrickPlay
from phatlog.rules.cards import DECK, Card, Rank, Suit
from phatlog.rules.trick import (
    RANK_BY_TEXT,
    STRENGTH,
    STRENGTH_BY_TEXT,
    SUIT_BY_TEXT,
    FollowRule,
    cards_of_suit,
    explain_winner,
    holds_suit,
    legal_plays,
    may_play,
    seat_of,
    text_winning_position,
    winning_position,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
RANKS = "23456789TJQKA"


def cs(text: str) -> list[Card]:
    """Cards from a space-separated list: ``cs("AS KH")``."""
    return [Card.parse(t) for t in text.split()]


def oracle_winner(texts: Sequence[str], trump: str | None) -> int:
    """B.1.5 spelled out: the highest trump wins; if there is none, the highest card of the suit led."""
    trumps = [i for i, t in enumerate(texts) if trump is not None and t[1] == trump]
    pool = trumps or [i for i, t in enumerate(texts) if t[1] == texts[0][1]]
    return max(pool, key=lambda i: RANKS.index(texts[i][0]))


def oracle_may_play(card: str, hand: Sequence[str], led: str | None, trump: str | None, rule: FollowRule) -> bool:
    """B.1.7, O21 and §3.5.1 spelled out on card texts."""
    if led is None:
        return True
    holds_led = any(c[1] == led for c in hand)
    if card[1] == led:
        return True
    if holds_led:
        return rule is FollowRule.FOLLOW_OR_TRUMP and trump is not None and card[1] == trump
    if rule is FollowRule.MUST_TRUMP and trump is not None and any(c[1] == trump for c in hand):
        return card[1] == trump
    return True


# ------------------------------------------------------------------------------------ who wins


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        # No trump in the trick: the highest card of the suit led wins.
        ("5H KH 2H 9H", S, 1),
        ("5H 2H 3H 4H", S, 0),
        ("2H 3H 4H AH", None, 3),
        # Off-suit cards never win, however high.
        ("2H AS AC AD", None, 0),
        ("2H AS AC AD", H, 0),
        ("3C AH KH 4C", S, 3),
        # A trump beats the suit led, and the highest trump wins.
        ("AH 2S KH QH", S, 1),
        ("AH 2S 3S KH", S, 2),
        ("AH 9S 3S TS", S, 3),
        # A trump lead: the trump suit is the suit led.
        ("2D AD 5D 9D", D, 1),
        ("TD 5H 4D JD", D, 3),  # B.6.2 trick 11: J♦ beats T♦
        ("QS 6D 6C 3S", D, 1),  # B.6.2 trick 10: S trumps in
        # The ten ranks between the nine and the jack.
        ("9C TC 8C JC", H, 3),
        ("9C TC 8C 7C", H, 1),
    ],
)
def test_winning_position_four_cards(trick: str, trump: Suit | None, winner: int) -> None:
    cards = cs(trick)
    assert winning_position(cards, trump) == winner
    assert oracle_winner(trick.split(), None if trump is None else trump.letter) == winner


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("7H KH 2H", None, 1),  # 3 players (Oh Hell §6.1: trick 1 shape)
        ("KS 2H JC", H, 1),  # §6.1 trick 2: Ben's 2♥ is the only trump
        ("9D KD 4H", H, 2),  # §6.1 trick 3: trump beats the diamonds
        ("9D KD 4H", None, 1),  # the same without trump: K♦ wins
        ("2C 3C 4C 5C AD", D, 4),
        ("2C 3C 4C 5C AD", None, 3),
        ("TS 2S AS 3H 4H 5H", H, 5),
        ("TS 2S AS 3H 4H 5H", C, 2),
        ("8D 2C 3C 4C 5C 6C 7C", C, 6),
        ("8D 2C 3C 4C 5C 6C 7C", S, 0),
        ("8D 2C 3C 9D 5C 6C 7C", None, 3),
    ],
)
def test_winning_position_three_to_seven_cards(trick: str, trump: Suit | None, winner: int) -> None:
    assert winning_position(cs(trick), trump) == winner


tricks = st.integers(min_value=3, max_value=7).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)
)
trumps = st.none() | st.sampled_from(list(Suit))


@given(tricks, trumps)
def test_winning_position_matches_the_rule(cards: list[Card], trump: Suit | None) -> None:
    texts = [str(c) for c in cards]
    position = winning_position(cards, trump)
    assert position == oracle_winner(texts, None if trump is None else trump.letter)
    won = cards[position]
    # The winner is a trump, or else of the suit led; an off-suit card never wins.
    assert won.suit in (cards[0].suit, trump)
    if trump is not None and any(c.suit == trump for c in cards):
        assert won.suit == trump


@given(tricks, trumps)
def test_text_tables_pick_the_same_winner(cards: list[Card], trump: Suit | None) -> None:
    texts = [str(c) for c in cards]
    t = 4 if trump is None else int(trump)
    led = SUIT_BY_TEXT[texts[0]]
    table = STRENGTH_BY_TEXT[t][led]
    by_table = max(range(len(texts)), key=lambda i: table[texts[i]])
    assert by_table == winning_position(cards, trump)
    assert text_winning_position(texts, t) == by_table
    # The int-keyed table says the same as the text-keyed one, card by card.
    assert [STRENGTH[t][led][c] for c in cards] == [table[x] for x in texts]
    # The strengths of contending cards are distinct, so there is never a tie for the win.
    contending = [table[x] for x in texts if table[x] >= 0]
    assert len(contending) == len(set(contending))


@pytest.mark.parametrize("card", DECK)
def test_suit_and_rank_tables_agree_with_the_card(card: Card) -> None:
    text = str(card)
    assert SUIT_BY_TEXT[text] == card.suit
    assert RANK_BY_TEXT[text] == card.rank


def test_text_tables_cover_the_pack() -> None:
    texts = {str(c) for c in DECK}
    assert set(SUIT_BY_TEXT) == texts
    assert set(RANK_BY_TEXT) == texts
    for by_led in STRENGTH_BY_TEXT:
        assert len(by_led) == 4
        for table in by_led:
            assert set(table) == texts
    assert len(STRENGTH_BY_TEXT) == 5  # four trump suits and no trump


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("led", [0, 1, 2, 3])
def test_strength_order(trump: int, led: int) -> None:
    """Every trump beats every card of the suit led, which beats every other card."""
    table = STRENGTH_BY_TEXT[trump][led]
    for a in DECK:
        for b in DECK:
            trumps_over = trump != 4 and a.suit == trump and b.suit != trump
            follows_over = a.suit == led and b.suit not in (led, trump)
            ranks_over = a.suit == b.suit and a.suit in (led, trump) and a.rank > b.rank
            if trumps_over or follows_over or ranks_over:
                assert table[str(a)] > table[str(b)]
            elif a.suit not in (led, trump):
                assert table[str(a)] < 0  # an off-suit card never contends


def test_seat_of() -> None:
    assert [seat_of(2, i, 4) for i in range(4)] == [2, 3, 0, 1]
    assert [seat_of(5, i, 7) for i in range(7)] == [5, 6, 0, 1, 2, 3, 4]
    assert [seat_of(0, i, 3) for i in range(3)] == [0, 1, 2]


# ------------------------------------------------------------------------------------ what may be played


def test_holds_suit_and_cards_of_suit() -> None:
    hand = cs("AS 2S KH 3C")
    assert holds_suit(hand, S)
    assert not holds_suit(hand, D)
    assert cards_of_suit(hand, S) == cs("2S AS")
    assert cards_of_suit(hand, D) == []


def test_anything_may_be_led() -> None:
    hand = cs("AS 2S KH 3C")
    for rule in FollowRule:
        assert legal_plays(hand, None, H, rule) == sorted(hand)
        assert all(may_play(c, hand, None, H, rule) for c in hand)


def test_must_follow_holding_the_suit_led() -> None:
    hand = cs("AS 2S KH 3C 9D")
    assert legal_plays(hand, S, H, FollowRule.MUST_FOLLOW) == cs("2S AS")
    assert not may_play(Card.parse("KH"), hand, S, H, FollowRule.MUST_FOLLOW)  # may not trump
    assert not may_play(Card.parse("3C"), hand, S, H, FollowRule.MUST_FOLLOW)  # may not discard
    assert may_play(Card.parse("2S"), hand, S, H, FollowRule.MUST_FOLLOW)  # need not win


def test_must_follow_void_plays_anything() -> None:
    hand = cs("KH 3C 9D")
    assert legal_plays(hand, S, H, FollowRule.MUST_FOLLOW) == sorted(hand)
    assert legal_plays(hand, S, None, FollowRule.MUST_FOLLOW) == sorted(hand)


def test_follow_or_trump_may_trump_instead() -> None:
    hand = cs("AS 2S KH 3C 9D")
    # Holding spades: follow, or trump (hearts); never discard a club or diamond.
    assert legal_plays(hand, S, H, FollowRule.FOLLOW_OR_TRUMP) == cs("KH 2S AS")
    assert not may_play(Card.parse("3C"), hand, S, H, FollowRule.FOLLOW_OR_TRUMP)
    # Without trump there is nothing to trump with: follow suit.
    assert legal_plays(hand, S, None, FollowRule.FOLLOW_OR_TRUMP) == cs("2S AS")
    # Void: anything.
    assert legal_plays(cs("KH 3C 9D"), S, H, FollowRule.FOLLOW_OR_TRUMP) == cs("3C 9D KH")


def test_must_trump_la_podrida() -> None:
    # Able to follow: must follow, may not trump.
    hand = cs("AS 2S KH 3C")
    assert legal_plays(hand, S, H, FollowRule.MUST_TRUMP) == cs("2S AS")
    # Void in the suit led, holding trumps: must play a trump, any trump (no over-trumping, A-11).
    hand = cs("2H KH 3C 9D")
    assert legal_plays(hand, S, H, FollowRule.MUST_TRUMP) == cs("2H KH")
    assert may_play(Card.parse("2H"), hand, S, H, FollowRule.MUST_TRUMP)
    assert not may_play(Card.parse("3C"), hand, S, H, FollowRule.MUST_TRUMP)
    assert not may_play(Card.parse("9D"), hand, S, H, FollowRule.MUST_TRUMP)
    # Void in both: anything.
    assert legal_plays(cs("3C 9D"), S, H, FollowRule.MUST_TRUMP) == cs("3C 9D")
    # No trump hand: as must_follow.
    assert legal_plays(cs("2H KH 3C 9D"), S, None, FollowRule.MUST_TRUMP) == cs("3C 9D 2H KH")
    # A trump lead: following suit is trumping.
    assert legal_plays(cs("2H KH 3C"), H, H, FollowRule.MUST_TRUMP) == cs("2H KH")
    assert legal_plays(cs("3C 9D"), H, H, FollowRule.MUST_TRUMP) == cs("3C 9D")


def test_worked_oh_hell_trick_two() -> None:
    """§6.1 trick 2: Ann leads K♠; Ben holds 9♦ 2♥ (hearts trump). Legal {9♦, 2♥}; La Podrida {2♥}."""
    ben = cs("9D 2H")
    assert legal_plays(ben, S, H, FollowRule.MUST_FOLLOW) == cs("9D 2H")
    assert legal_plays(ben, S, H, FollowRule.MUST_TRUMP) == cs("2H")
    cal = cs("KD JC")  # no spades, no trumps: any card, even under La Podrida
    assert legal_plays(cal, S, H, FollowRule.MUST_TRUMP) == cs("JC KD")


hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True)
leds = st.none() | st.sampled_from(list(Suit))


@given(hands, leds, trumps, st.sampled_from(list(FollowRule)))
def test_may_play_matches_the_rule(hand: list[Card], led: Suit | None, trump: Suit | None, rule: FollowRule) -> None:
    texts = [str(c) for c in hand]
    led_letter = None if led is None else led.letter
    trump_letter = None if trump is None else trump.letter
    legal = legal_plays(hand, led, trump, rule)
    assert legal == sorted(c for c in hand if oracle_may_play(str(c), texts, led_letter, trump_letter, rule))
    assert legal, "a player always has a legal card"
    assert legal == sorted(legal)
    for card in hand:
        assert may_play(card, hand, led, trump, rule) == (card in legal)


@given(hands, st.sampled_from(list(Suit)), trumps)
def test_rules_nest(hand: list[Card], led: Suit, trump: Suit | None) -> None:
    """must_trump allows a subset of must_follow, which allows a subset of follow_or_trump."""
    strict = set(legal_plays(hand, led, trump, FollowRule.MUST_TRUMP))
    base = set(legal_plays(hand, led, trump, FollowRule.MUST_FOLLOW))
    loose = set(legal_plays(hand, led, trump, FollowRule.FOLLOW_OR_TRUMP))
    assert strict <= base <= loose


@given(hands, st.sampled_from(list(Suit)), st.sampled_from(list(Suit)), st.sampled_from(list(FollowRule)))
def test_void_in_the_suit_led(hand: list[Card], led: Suit, trump: Suit, rule: FollowRule) -> None:
    """A player void in the suit led may play anything, except under must_trump while holding a trump."""
    void = [c for c in hand if c.suit != led] or [Card.of(Rank.TWO, Suit((led + 1) % 4))]
    trumps_held = sorted(c for c in void if c.suit == trump)
    legal = legal_plays(void, led, trump, rule)
    if rule is FollowRule.MUST_TRUMP and trumps_held and trump != led:
        assert legal == trumps_held
    else:
        assert legal == sorted(void)


@given(hands, st.sampled_from(list(Suit)), trumps, st.sampled_from(list(FollowRule)))
def test_holding_the_suit_led(hand: list[Card], led: Suit, trump: Suit | None, rule: FollowRule) -> None:
    """A player holding the suit led must follow; only follow_or_trump also allows a trump."""
    holding = [*hand, Card.of(Rank.TWO, led)] if not any(c.suit == led for c in hand) else hand
    holding = list(dict.fromkeys(holding))
    follow = sorted(c for c in holding if c.suit == led)
    legal = legal_plays(holding, led, trump, rule)
    if rule is FollowRule.FOLLOW_OR_TRUMP and trump is not None:
        assert legal == sorted(c for c in holding if c.suit in (led, trump))
    else:
        assert legal == follow


def test_explain_winner_says_why_in_words() -> None:
    """The reason a replay gives: a lone trump on another suit is a void, except under follow_or_trump."""
    cards = [Card.parse(c) for c in ("KS", "2S", "3H", "AS")]
    assert explain_winner(cards, Suit.HEARTS) == "void in spades, trumped"
    assert explain_winner(cards, Suit.HEARTS, FollowRule.FOLLOW_OR_TRUMP) == "the only trump, spades led"
    assert explain_winner(cards, Suit.DIAMONDS) == "highest spade, the suit led"
    assert explain_winner([Card.parse(c) for c in ("KS", "2H", "3H", "AS")], Suit.HEARTS) == "highest trump, spades led"
    assert explain_winner([Card.parse(c) for c in ("KH", "2H", "3S")], Suit.HEARTS) == "highest trump"
    assert explain_winner([Card.parse(c) for c in ("KH", "AH", "3S")], None) == "highest heart, the suit led"


def test_trick_play_tracks_the_hands_the_turn_and_the_next_leader() -> None:
    # Three seats, Cal (seat 2) leads: the hands are played down, the turn passes to the left, the
    # trick is complete at its third card, and its winner takes it and leads the next.
    play: TrickPlay[str] = TrickPlay([{"2C", "AH"}, {"KC", "3D"}, {"5C", "QH"}], 2)
    assert play.turn == 2
    assert play.play("5C") is False and play.turn == 0 and play.held[2] == {"QH"}
    assert play.play("2C") is False and play.turn == 1
    assert play.play("KC") is True and play.trick == ["5C", "2C", "KC"]
    position = text_winning_position(play.trick, 4)
    assert play.close(position) == 1  # Ben's KC, at position 2 from Cal's lead
    assert (play.leader, play.turn, play.trick, play.taken, play.played) == (1, 1, [], [0, 1, 0], 1)
    with pytest.raises(KeyError):
        play.play("AH")  # Ben does not hold it


def test_trick_play_plays_a_recorded_trick_up_to_a_card_not_held() -> None:
    play: TrickPlay[str] = TrickPlay([{"2C", "AH"}, {"KC", "3D"}, {"5C", "QH"}], 1)
    assert play.play_cards(["KC", "QS", "2C"]) == 1  # Cal does not hold the QS: only Ben's KC is played
    assert play.trick == ["KC"] and play.held == [{"2C", "AH"}, {"3D"}, {"5C", "QH"}]
    fresh: TrickPlay[str] = TrickPlay([{"2C", "AH"}, {"KC", "3D"}, {"5C", "QH"}], 1)
    assert fresh.play_cards(["KC", "5C", "2C"]) == 3 and fresh.close(0) == 1
