"""Seeded random games, played legally and scored, written as records: for samples, tests and benchmarks.

Each player plays a random legal card. The simulator scores the game itself, in plain code written apart
from the engine's tables, so that a simulated record verifying clean is a check of the engine, not of
itself. The same seed always gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel

from phatlog.cards import CARD_TEXT, DECK, Card, Rank, Suit
from phatlog.engine.tricks import FollowRule, legal_plays
from phatlog.model import FORMAT_VERSION, IrishDonRules, NineCardDonRules, OhHellRules, PhatRules

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


def _don_value(card: Card, trump: int) -> int:
    """Nine-card Don's counters, spelled out: fives 10/5, trump 9 A K Q J 9 4 3 2 1, plain nines 0."""
    rank, suit = "23456789TJQKA"[card % 13], card // 13
    if rank == "5":
        return 10 if suit == trump else 5
    if suit == trump:
        return {"9": 9, "A": 4, "K": 3, "Q": 2, "J": 1}.get(rank, 0)
    return 0


def _end_bonus(
    game: str, rules: Any, taken: list[list[Card]], hands: list[list[Card]], trump: int, carry: int, pitcher: int
) -> tuple[list[tuple[int, int]], int]:
    """The end-of-deal pegs as (side, points) in order, and the muck carried on: written apart from the engine."""
    count = [sum(_muck_value(c) for c in taken[side]) for side in (0, 1)]
    if game == "irish_don":
        return [], carry
    if game == "phat":
        if count[0] != count[1]:
            return [(0 if count[0] > count[1] else 1, 8 + carry)], 0
        if rules.muck_tie == "both":  # the pitcher's side pegs its 8 first
            return [(pitcher % 2, 8), ((pitcher + 1) % 2, 8)], carry
        return [], carry + 8 if rules.muck_tie == "carry" else carry
    value = {"game_8": 8, "six_high_jack": 6, "five_high_low_jack": 5}[rules.bonus]
    pegs: list[tuple[int, int]] = []
    if count[0] != count[1]:
        pegs.append((0 if count[0] > count[1] else 1, value))
    if rules.bonus == "game_8":
        return pegs, carry
    trumps = [(c % 13, seat) for seat in range(4) for c in hands[seat] if c // 13 == trump]
    pegs.append((max(trumps)[1] % 2, 1))
    if rules.bonus == "five_high_low_jack":
        low_rank, low_seat = min(trumps)
        low = Card.of(Rank(low_rank), Suit(trump))
        pegs.append(((0 if low in taken[0] else 1) if rules.low_to == "capturer" else low_seat % 2, 1))
    jack = Card.of(Rank.JACK, Suit(trump))
    if jack in taken[0] or jack in taken[1]:
        pegs.append((0 if jack in taken[0] else 1, 1))
    return pegs, carry


HAND_SIZE = {"phat": 13, "irish_don": 13, "nine_card_don": 9}
RULES_MODEL: dict[str, type[BaseModel]] = {
    "phat": PhatRules,
    "irish_don": IrishDonRules,
    "nine_card_don": NineCardDonRules,
}


def simulate_pitch(game: str, rng: random.Random, rules: Any, with_cut: bool = False) -> dict[str, Any]:
    """One complete game of Phat, Nine-card Don or Irish Don as a record (a JSON-ready dict)."""
    size = HAND_SIZE[game]
    value = _don_value if game == "nine_card_don" else _phat_value
    follow = FollowRule(getattr(rules, "follow", "must_follow"))
    immediate = rules.peg_out == "immediate"
    totals = [0, 0]
    carry = 0
    deals: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "phatlog": FORMAT_VERSION,
        "game": game,
        "rules": rules.model_dump(exclude_defaults=True),
        "event": {"source": "phatlog simulate"},
        "players": [{"name": n} for n in PLAYER_NAMES[:4]],
    }
    first_pitcher: int | None = None
    if with_cut and game != "irish_don":
        record["cut"], first_pitcher = _cut(rng, one_per_side=game == "nine_card_don")
    dealer = rng.randrange(4) if first_pitcher is None else (first_pitcher + 3) % 4
    winner: int | None = None
    while winner is None:
        pack = list(DECK)
        rng.shuffle(pack)
        hands: list[list[Card]] = [[], [], [], []]
        for k, card in enumerate(pack[: 4 * size]):
            hands[(dealer + 1 + k) % 4].append(card)
        if game == "irish_don" and not deals:
            # The holder of the two of diamonds pitches first, so the first dealer sits on their right.
            holder = next(s for s in range(4) if Card.parse("2D") in hands[s])
            dealer = (holder + 3) % 4
        held = [set(h) for h in hands]
        start = list(totals)
        taken: list[list[Card]] = [[], []]
        tricks: list[dict[str, Any]] = []
        leader = (dealer + 1) % 4
        trump = -1
        for _ in range(size):
            cards: list[Card] = []
            for i in range(4):
                seat = (leader + i) % 4
                led = None if not cards else cards[0].suit
                options = legal_plays(held[seat], led, None if trump < 0 else Suit(trump), follow)
                card = rng.choice(options)
                held[seat].remove(card)
                cards.append(card)
            if trump < 0:
                trump = cards[0] // 13
            win_seat = (leader + _trick_winner(cards, trump)) % 4
            tricks.append({"leader": leader, "cards": [CARD_TEXT[c] for c in cards]})
            side = win_seat % 2
            taken[side].extend(cards)
            totals[side] += sum(value(c, trump) for c in cards)
            leader = win_seat
            if immediate and totals[side] >= rules.target:
                winner = side
                break
        if winner is None:
            pegs, carry = _end_bonus(game, rules, taken, hands, trump, carry, (dealer + 1) % 4)
            for side, points in pegs:
                totals[side] += points
                if immediate and totals[side] >= rules.target:
                    winner = side
                    break  # the game ends at the winning peg: nothing after it is pegged
            if not immediate and max(totals) >= rules.target and totals[0] != totals[1]:
                winner = 0 if totals[0] > totals[1] else 1
        deal: dict[str, Any] = {"dealer": dealer, "hands": [[CARD_TEXT[c] for c in sorted(h)] for h in hands]}
        if size * 4 < 52:
            deal["undealt"] = [CARD_TEXT[c] for c in sorted(pack[4 * size :])]
        deal["tricks"] = tricks
        deal["score"] = {"points": [totals[0] - start[0], totals[1] - start[1]], "total": list(totals)}
        deals.append(deal)
        dealer = (dealer + 1) % 4
    record["deals"] = deals
    record["result"] = {"winner": [winner], "total": list(totals)}
    return record


def _cut(rng: random.Random, one_per_side: bool) -> tuple[list[list[str | None]], int]:
    """Phat: all four cut, lowest pitches. Don: one of each side cuts, highest pitches. Ties cut again."""
    rounds: list[list[str | None]] = []
    cutting = [rng.choice((0, 2)), rng.choice((1, 3))] if one_per_side else [0, 1, 2, 3]
    while True:
        cards = rng.sample(list(DECK), len(cutting))
        row: list[str | None] = [None] * 4
        for seat, card in zip(cutting, cards, strict=True):
            row[seat] = CARD_TEXT[card]
        rounds.append(row)
        ranks = [c % 13 for c in cards]
        best = max(ranks) if one_per_side else min(ranks)
        tied = [seat for seat, r in zip(cutting, ranks, strict=True) if r == best]
        if len(tied) == 1:
            return rounds, tied[0]
        cutting = [rng.choice((0, 2)), rng.choice((1, 3))] if one_per_side else tied


def _oh_hell_sizes(rules: OhHellRules, players: int) -> list[int]:
    """The schedule, spelled out apart from the engine."""
    if isinstance(rules.schedule, list):
        return list(rules.schedule)
    top = rules.max_cards or {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}[players]
    sizes = list(range(1, top + 1))
    if rules.schedule == "down":
        return sizes[::-1]
    if rules.schedule == "up_down":
        return sizes + sizes[-2::-1]
    if rules.schedule == "down_up":
        return sizes[::-1] + sizes[1:]
    return sizes


def _oh_hell_points(rules: OhHellRules, bid: int, took: int, size: int) -> int:
    if bid == took:
        return 5 + size if bid == 0 and rules.zero_bid == "five_plus_cards" else 10 + took
    return {"zero": 0, "tricks": took, "minus_diff": -abs(bid - took)}[rules.miss]


def simulate_oh_hell(rng: random.Random, rules: OhHellRules, players: int) -> dict[str, Any]:
    """One complete game of Oh Hell as a record (a JSON-ready dict)."""
    sizes = _oh_hell_sizes(rules, players)
    follow = FollowRule.MUST_TRUMP if rules.must_trump else FollowRule.MUST_FOLLOW
    dealer = rng.randrange(players)
    totals = [0] * players
    deals: list[dict[str, Any]] = []
    for number, size in enumerate(sizes):
        pack = list(DECK)
        rng.shuffle(pack)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for k in range(size * players):
            hands[(dealer + 1 + k) % players].append(pack[k])
        last = number == len(sizes) - 1
        turnup = None
        if size * players < 52 and not (last and rules.no_trump == "last_hand"):
            turnup = pack[size * players]
        trump = None if turnup is None else turnup.suit
        bids = [0] * players
        for i in range(players):
            seat = (dealer + 1 + i) % players
            options = list(range(size + 1))
            if rules.hook and rules.bidding == "sequential" and seat == dealer and size - sum(bids) in options:
                options.remove(size - sum(bids))  # the hook: the dealer may not make the bids add up
            bids[seat] = rng.choice(options)
        held = [set(h) for h in hands]
        taken = [0] * players
        tricks: list[dict[str, Any]] = []
        leader = (dealer + 1) % players
        for _ in range(size):
            cards: list[Card] = []
            for i in range(players):
                seat = (leader + i) % players
                led = None if not cards else cards[0].suit
                card = rng.choice(legal_plays(held[seat], led, trump, follow))
                held[seat].remove(card)
                cards.append(card)
            best = _trick_winner(cards, -1 if trump is None else int(trump))
            winner = (leader + best) % players
            tricks.append({"leader": leader, "cards": [CARD_TEXT[c] for c in cards]})
            taken[winner] += 1
            leader = winner
        points = [_oh_hell_points(rules, bids[s], taken[s], size) for s in range(players)]
        totals = [totals[s] + points[s] for s in range(players)]
        deal: dict[str, Any] = {"dealer": dealer, "hands": [[CARD_TEXT[c] for c in sorted(h)] for h in hands]}
        if turnup is not None:
            deal["turnup"] = CARD_TEXT[turnup]
        deal.update(bids=bids, tricks=tricks, score={"points": points, "total": list(totals)})
        deals.append(deal)
        dealer = (dealer + 1) % players
    best_total = max(totals)
    return {
        "phatlog": FORMAT_VERSION,
        "game": "oh_hell",
        "rules": rules.model_dump(exclude_defaults=True),
        "event": {"source": "phatlog simulate"},
        "players": [{"name": n} for n in PLAYER_NAMES[:players]],
        "deals": deals,
        "result": {"winner": [s for s in range(players) if totals[s] == best_total], "total": totals},
    }


def _rules_findings(game: str, rules: BaseModel, players: int) -> tuple[list[str], list[str]]:
    """What the engine says of the rules before any card is played: (errors, warnings) as messages."""
    from phatlog.diagnostics import Severity
    from phatlog.engine.referee import RULES_MODULES

    record = SimpleNamespace(rules=rules, players=[None] * players)
    found = RULES_MODULES[game](record).check_rules()
    errors = [d.message for d in found if d.severity is Severity.ERROR]
    return errors, [d.message for d in found if d.severity is not Severity.ERROR]


def _refuse_bad_rules(game: str, rules: BaseModel, players: int) -> None:
    """Rules the engine would reject (PL601) are refused before any game is played; a parameter that
    does not apply to the variant (PL603, a warning) is played as the engine referees it: ignored."""
    errors, _ = _rules_findings(game, rules, players)
    if errors:
        raise ValueError("; ".join(errors))


def rules_warnings(game: str, rules: dict[str, Any], players: int = 4) -> list[str]:
    """The warnings the engine gives for rules that ``simulate`` accepts (a parameter that does not apply)."""
    model = OhHellRules if game == "oh_hell" else RULES_MODEL[game]
    return _rules_findings(game, model.model_validate(rules), players)[1]


def simulate(game: str, seed: int, count: int, **options: Any) -> Iterator[dict[str, Any]]:
    """``count`` games from one seed, made one at a time as they are taken (any count in constant memory);
    ``rules`` (a dict), ``with_cut`` and ``players`` (Oh Hell) are passed on.

    The game, the players and the rules are checked here, before any game is made: a ``ValueError`` (or
    pydantic's ``ValidationError``) comes from this call, never from the middle of the games.
    """
    rng = random.Random(seed)
    if game == "oh_hell":
        players = options.get("players", 4)
        if not 3 <= players <= 7:
            raise ValueError(f"Oh Hell is for 3 to 7 players, not {players}")
        oh_rules = OhHellRules.model_validate(options.get("rules", {}))
        _refuse_bad_rules(game, oh_rules, players)
        return (simulate_oh_hell(rng, oh_rules, players) for _ in range(count))
    if game not in RULES_MODEL:
        raise ValueError(f"simulate does not play {game}")
    rules = RULES_MODEL[game].model_validate(options.get("rules", {}))
    _refuse_bad_rules(game, rules, 4)
    with_cut = options.get("with_cut", False)
    return (simulate_pitch(game, rng, rules, with_cut=with_cut) for _ in range(count))
