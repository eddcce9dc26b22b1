"""The Oh Hell referee: a record checked against the rules of ``rules.oh_hell`` (written there once,
rules reference A.5, B.4), with what the referee reports where a record departs from them.

Three to seven players, each for themselves. Hand after hand the deal passes to the left. The hand
sizes follow the ``schedule``: ``up`` deals 1, 2, ... N cards, ``down`` N ... 1, ``up_down`` 1 ... N ... 1
and ``down_up`` N ... 1 ... N (the turning hand once), or an explicit list; N is 15, 13, 10, 8 or 7 for 3
to 7 players unless ``max_cards`` says otherwise. The game is complete when every hand of the schedule
has been played. A wrong dealer is reported once: the next hand may follow on from the dealer recorded
or from the one who should have dealt.

**Trump.** After the deal the next card of the pack is turned up and its suit is trump. It belongs to
nobody, so it must be a card that nobody was dealt. Under ``no_trump: last_hand`` the game's last hand
is played without trump and no card is turned; under ``never`` every hand has a trump, except that a
hand which leaves no card to turn up is always played without trump. Without trump the highest card of
the suit led wins every trick. A turned-up card that was dealt to a player, or that is recorded for a
hand without trump, is reported, and the tricks are still judged with its suit as trump.

**Bidding.** Every player bids how many tricks they will take, from 0 to the hand size; nobody passes.
Bids are made in turn from the dealer's left, the dealer last (``sequential``), or all at once
(``simultaneous``). Under the ``hook`` the dealer may not bid the number that would make the bids add
up to the hand size; the hook needs a last bidder, so it cannot go with simultaneous bidding. A wrong
bid is reported, and the hand is still scored with the bids as recorded.

**Play.** The dealer's left leads to the first trick. Players must follow suit if able; under
``must_trump`` (La Podrida) a player who cannot follow must play a trump if they hold one (any trump).
The highest trump, or else the highest card of the suit led, wins, and the winner leads next. After an
illegal play the hand is given up: its recorded points are taken as they stand. (The referee,
``referee.oh_hell_driver``, plays every record on the game machine, ``engine.oh_hell_state``, card by card.)

**Scoring.** A player who takes exactly the number of tricks bid scores 10 + the tricks taken, and a
made bid of zero scores 5 + the hand size under ``zero_bid: five_plus_cards``. A missed bid scores 0
(``miss: zero``), one a trick taken (``tricks``), or minus the difference (``minus_diff``). The highest
total after the last hand wins; equal totals share the win.

**Score sheets.** A hand recorded without its tricks is scored from its bids and the tricks each player
took (``taken``, which must add up to the hand size, and agree with the tricks where both are recorded).
One note for the record lists such hands and says what they cannot prove: the deal, the turned-up card
and the play. A hand without bids, or without both tricks and ``taken``, keeps the points the scorer
recorded, and a note lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from phatlog._native import tables
from phatlog.diagnostics import Diagnostic, Severity, diag
from phatlog.record.view import OhHellDealView, OhHellRulesView
from phatlog.rules.oh_hell import PLAYERS, fits_pack, hand_sizes, hook_without_last_bidder


def check_rules(rules: OhHellRulesView, players: int) -> list[Diagnostic]:
    """Rules combinations that make no sense, and schedules the pack cannot deal."""
    out: list[Diagnostic] = []
    n = players
    if hook_without_last_bidder(rules.hook, rules.bidding):
        out.append(
            diag(
                "PL601",
                "the hook forbids the last bidder one bid, but simultaneous bidding has no last bidder: "
                "choose one of them",
                "/rules/hook",
            )
        )
    if rules.max_cards is not None and not isinstance(rules.schedule, str):
        # It changes nothing (the list gives every hand's size), so the record can still be refereed.
        out.append(
            diag(
                "PL603",
                f"max_cards {rules.max_cards} does not apply: it caps a named schedule, and this schedule is "
                "a list of hand sizes, which is played as listed (leave max_cards out)",
                "/rules/max_cards",
            )
        )
    if rules.max_cards is not None and isinstance(rules.schedule, str) and not fits_pack(n, rules.max_cards):
        out.append(
            diag(
                "PL601",
                f"max_cards {rules.max_cards} needs {n * rules.max_cards} cards for {n} players; the pack has 52",
                "/rules/max_cards",
            )
        )
    elif not isinstance(rules.schedule, str):
        for i, size in enumerate(rules.schedule):
            if not fits_pack(n, size):
                out.append(
                    diag(
                        "PL601",
                        f"hand {i + 1} of the schedule deals {size} cards to {n} players: {n * size} cards, "
                        "more than the pack holds",
                        f"/rules/schedule/{i}",
                    )
                )
    return out


#: ``_trick.oh_hell_record``: a whole record in the clean, common case, (totals, judged), or None.
WholeRecord = Callable[[Sequence[OhHellDealView], bytes], tuple[list[int], list[tuple[list[int], list[int]]]] | None]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a referee works out of its rules and number of players once, for every record with equal
    ones: the hand sizes, ``check_rules`` and whether it refuses, and the C record path's table
    (``tables.oh_hell_table``; None: not for it)."""

    sizes: list[int]  # (never changed)
    checks: tuple[Diagnostic, ...]
    refuses: bool
    whole: bytes | None


#: The plans made so far, by (rules, players), or by the rules' fields where the rules cannot be hashed
#: (a pydantic model, a list schedule). Records rarely differ in rules: a few entries, cleared if many.
_PLANS: dict[Hashable, _Plan] = {}


def _plan(rules: OhHellRulesView, players: int) -> _Plan:
    """The plan of ``rules`` for ``players`` (cached: a verify of an archive makes it once)."""
    key: Hashable
    try:
        key = (rules, players)
        plan = _PLANS.get(key)
    except TypeError:  # unhashable: by the fields the plan is made of
        schedule = rules.schedule if isinstance(rules.schedule, str) else tuple(rules.schedule)
        fields = (rules.max_cards, rules.no_trump, rules.bidding, rules.hook, rules.must_trump, rules.miss)
        key = (schedule, *fields, rules.zero_bid, players)
        plan = _PLANS.get(key)
    if plan is None:
        plan = _make_plan(rules, players)
        if len(_PLANS) >= 64:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _make_plan(rules: OhHellRulesView, players: int) -> _Plan:
    sizes = hand_sizes(players, rules.schedule, rules.max_cards) if players in PLAYERS else []
    checks = tuple(check_rules(rules, players))
    refuses = any(x.severity is Severity.ERROR for x in checks)
    whole = None if refuses else tables.oh_hell_table(rules, players, sizes)
    return _Plan(sizes, checks, refuses, whole)
