"""Seeded random games, played legally and scored, written as records: for samples, tests and benchmarks.

Each player plays a random legal card. The simulator scores the game itself, in plain code written apart
from the engine's tables, so that a simulated record verifying clean is a check of the engine, not of
itself. The same seed always gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phatlog.cards import CARD_TEXT, DECK, Card
from phatlog.engine.tricks import FollowRule, legal_plays
from phatlog.model import FORMAT_VERSION, PhatRules

PLAYER_NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus")


def _phat_value(card: Card, trump: int) -> int:
    """The phat, spelled out: nines 18/9, fives 10/5, trump A K Q J 4 3 2 1."""
    rank, suit = "23456789TJQKA"[card % 13], card // 13
    if rank == "9":
        return 18 if suit == trump else 9
    if rank == "5":
        return 10 if suit == trump else 5
    if suit == trump:
        return {"A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0)
    return 0


def _muck_value(card: Card) -> int:
    return {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get("23456789TJQKA"[card % 13], 0)


def _trick_winner(cards: list[Card], trump: int) -> int:
    led = cards[0] // 13
    trumps = [i for i, c in enumerate(cards) if c // 13 == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c // 13 == led]
    return max(pool, key=lambda i: cards[i] % 13)


def simulate_phat(rng: random.Random, rules: PhatRules | None = None, with_cut: bool = False) -> dict[str, Any]:
    """One complete game of Phat as a record (a JSON-ready dict)."""
    rules = rules or PhatRules()
    totals = [0, 0]
    carry = 0
    deals: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "phatlog": FORMAT_VERSION,
        "game": "phat",
        "rules": rules.model_dump(exclude_defaults=True),
        "event": {"source": "phatlog simulate"},
        "players": [{"name": n} for n in PLAYER_NAMES[:4]],
    }
    if with_cut:
        record["cut"], pitcher = _phat_cut(rng)
        dealer = (pitcher + 3) % 4
    else:
        dealer = rng.randrange(4)
    winner: int | None = None
    while winner is None:
        pack = list(DECK)
        rng.shuffle(pack)
        hands: list[list[Card]] = [[], [], [], []]
        for k, card in enumerate(pack):
            hands[(dealer + 1 + k) % 4].append(card)
        held = [set(h) for h in hands]
        start = list(totals)
        muck = [0, 0]
        tricks: list[dict[str, Any]] = []
        leader = (dealer + 1) % 4
        trump = -1
        for _ in range(13):
            cards: list[Card] = []
            for i in range(4):
                seat = (leader + i) % 4
                led = None if not cards else cards[0].suit
                options = legal_plays(held[seat], led, None, FollowRule.MUST_FOLLOW)
                card = rng.choice(options)
                held[seat].remove(card)
                cards.append(card)
            if trump < 0:
                trump = cards[0] // 13
            win_seat = (leader + _trick_winner(cards, trump)) % 4
            tricks.append({"leader": leader, "cards": [CARD_TEXT[c] for c in cards]})
            side = win_seat % 2
            totals[side] += sum(_phat_value(c, trump) for c in cards)
            muck[side] += sum(_muck_value(c) for c in cards)
            leader = win_seat
            if rules.peg_out == "immediate" and totals[side] >= rules.target:
                winner = side
                break
        if winner is None:
            if muck[0] != muck[1]:
                side = 0 if muck[0] > muck[1] else 1
                totals[side] += 8 + carry
                carry = 0
                if rules.peg_out == "immediate" and totals[side] >= rules.target:
                    winner = side
            elif rules.muck_tie == "both":
                for side in (0, 1):
                    totals[side] += 8
                    if rules.peg_out == "immediate" and totals[side] >= rules.target and winner is None:
                        winner = side
            elif rules.muck_tie == "carry":
                carry += 8
            if rules.peg_out == "end_of_deal" and max(totals) >= rules.target and totals[0] != totals[1]:
                winner = 0 if totals[0] > totals[1] else 1
        deals.append(
            {
                "dealer": dealer,
                "hands": [[CARD_TEXT[c] for c in sorted(h)] for h in hands],
                "tricks": tricks,
                "score": {"points": [totals[0] - start[0], totals[1] - start[1]], "total": list(totals)},
            }
        )
        dealer = (dealer + 1) % 4
    record["deals"] = deals
    record["result"] = {"winner": [winner], "total": list(totals)}
    return record


def _phat_cut(rng: random.Random) -> tuple[list[list[str | None]], int]:
    """All four cut; lowest pitches (ace high); the tied lowest cut again."""
    rounds: list[list[str | None]] = []
    cutting = [0, 1, 2, 3]
    while True:
        cards = rng.sample(list(DECK), len(cutting))
        row: list[str | None] = [None] * 4
        for seat, card in zip(cutting, cards, strict=True):
            row[seat] = CARD_TEXT[card]
        rounds.append(row)
        low = min(c % 13 for c in cards)
        cutting = [seat for seat, c in zip(cutting, cards, strict=True) if c % 13 == low]
        if len(cutting) == 1:
            return rounds, cutting[0]


def simulate(game: str, seed: int, count: int, **options: Any) -> Iterator[dict[str, Any]]:
    """``count`` games from one seed."""
    rng = random.Random(seed)
    if game != "phat":
        raise ValueError(f"simulate does not play {game} yet")
    rules = PhatRules.model_validate(options.get("rules", {}))
    for _ in range(count):
        yield simulate_phat(rng, rules, with_cut=options.get("with_cut", False))
