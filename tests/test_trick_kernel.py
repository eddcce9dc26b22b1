"""The C trick kernel (``phatlog/_native/_trick.c``) against the Python engine, which stays the reference.

The kernel judges only clean deals and returns a fault ``(kind, trick, position)`` for everything else
(the Python engine then replays the deal and words it), so, for both families (All Fours: Phat, Nine-card
Don, Irish Don; and Oh Hell, 3 to 7 players): (i) it is built and used here; (ii) on simulated games of
every rules variant, with and without the hands, verify gives the same verdict with the C path on and
forced off, and the C path took every deal it should; (iii) on records with one fault (a revoke, a card not
held, a wrong leader, a wrong trick winner, wrong points, a card dealt twice, a must_trump violation, a
trick after the game was won, a deal cut short, ...) and on records with a few random faults, the
diagnostics are the same too, and the kernel's fault names the trick and card the Python engine reports;
(iv) it declines junk without crashing.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import sysconfig
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Final

import pytest
from conftest import DEEP_RUN, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from phatlog._native import tables
from phatlog.play.simulate import simulate
from phatlog.record.model import RECORD_ADAPTER, IrishDonRules, NineCardDonRules, OhHellRules, PhatRules
from phatlog.record.reader import read_bytes
from phatlog.referee import oh_hell_driver, pitch
from phatlog.referee.games import ALL_FOURS as pitch_games_table
from phatlog.referee.games import referee
from phatlog.referee.pitch import Findings, TrickKernel
from phatlog.rules.all_fours import DealCards, deal_cards
from phatlog.rules.cards import Card, Suit
from phatlog.rules.oh_hell import hand_score
from phatlog.rules.trick import FollowRule
from phatlog.rules.trick import winning_position as tricks_winning_position

Json = dict[str, Any]

try:
    from phatlog._native import _trick as built
except ImportError:  # pragma: no cover - the extension is built in this project's environment
    built = None  # type: ignore[assignment]

#: The trick table of Oh Hell's default follow rule (``tables.trick_table``).
TRICK_TABLE: Final = tables.trick_table(FollowRule.MUST_FOLLOW)
PURE: Final = os.environ.get("PHATLOG_PURE_PYTHON", "") not in ("", "0")
PROFILE: Final = settings(deadline=None, max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
CARDS: Final = [r + s for s in "CDHS" for r in "23456789TJQKA"]

#: (game, rules): every rules parameter of the three games, alone and in combination.
VARIANTS: Final[list[tuple[str, Json]]] = [
    ("phat", {}),
    ("phat", {"target": 121}),
    ("phat", {"peg_out": "end_of_deal"}),
    ("phat", {"muck_tie": "carry"}),
    ("phat", {"muck_tie": "both", "target": 121}),
    ("phat", {"muck_tie": "carry", "peg_out": "end_of_deal", "target": 121}),
    ("nine_card_don", {}),
    ("nine_card_don", {"bonus": "six_high_jack"}),
    ("nine_card_don", {"bonus": "five_high_low_jack"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "holder"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer", "target": 91}),
    ("nine_card_don", {"follow": "follow_or_trump"}),
    ("nine_card_don", {"peg_out": "end_of_deal", "bonus": "six_high_jack"}),
    ("nine_card_don", {"bonus": "five_high_low_jack", "follow": "follow_or_trump", "peg_out": "end_of_deal"}),
    ("irish_don", {}),
    ("irish_don", {"peg_out": "end_of_deal"}),
    ("irish_don", {"target": 161}),
]


class Counting:
    """The C kernel, counting the deals it took and declined, and keeping each fault with the tricks it
    was found in (``faults``: the tricks object, (kind, trick, position)); and the All Fours record path
    (``pitch_record``), counting the records it took and declined, or forced off (``whole`` False: it
    declines every record, so that the referee plays deal by deal)."""

    def __init__(self, kernel: TrickKernel, whole: bool = True) -> None:
        self.kernel = kernel
        self.whole = whole
        self.took = 0
        self.declined = 0
        self.records_took = 0
        self.records_declined = 0
        self.faults: list[tuple[Any, tuple[int, int, int]]] = []
        self.record: Any = None  # the record refereed (set by ``both``)
        self.record_path: Counting | None = None  # the run with the record path on (set by ``both``)

    def pitch_record(self, deals: Any, params: Any) -> Any:
        if not self.whole:
            return None
        done = self.kernel.pitch_record(deals, params)
        if done is None:
            self.records_declined += 1
        else:
            self.records_took += 1
            self.took += len(deals)
        return done

    def _count(self, tricks: Any, done: Any) -> Any:
        if len(done) == 3:
            self.declined += 1
            self.faults.append((tricks, done))
        else:
            assert done[0] == 0
            self.took += 1
        return done

    def play(self, *args: Any) -> Any:
        return self._count(args[1], self.kernel.play(*args))

    def oh_hell(self, *args: Any) -> Any:
        return self._count(args[1], self.kernel.oh_hell(*args))


@contextmanager
def trick_kernel(kernel: TrickKernel | None) -> Iterator[None]:
    saved = pitch.KERNEL
    pitch.KERNEL = kernel
    try:
        yield
    finally:
        pitch.KERNEL = saved


def parse(rec: Json) -> Any:
    loaded = read_bytes(json.dumps(rec).encode())
    assert loaded.record is not None, loaded.diagnostics
    return loaded.record


def outcome(v: Findings) -> tuple[Any, ...]:
    return (v.diagnostics, v.deals, v.totals, v.winner, v.ended_at)


def both(rec: Json) -> tuple[Findings, Findings, Counting]:
    """The verdict with the C path, the Python engine's, and what the C path took: with the record path
    forced off (the kernel deal by deal: ``counting``), and on (``counting.record_path``); all three the same."""
    assert built is not None
    record = parse(rec)
    whole = Counting(built)
    with trick_kernel(whole):
        fast = referee(record)
    counting = Counting(built, whole=False)
    with trick_kernel(counting):
        by_deal = referee(record)
    with trick_kernel(None):
        reference = referee(record)
    assert outcome(fast) == outcome(reference)
    assert outcome(by_deal) == outcome(reference)
    counting.record = record
    counting.record_path = whole
    return fast, reference, counting


#: What the Python engine reports for each fault the kernel names a card or a trick for: the code, and
#: the end of the JSON Pointer after /deals/<d>/tricks/<t>/.
WORDED: Final = {
    "leader": ("PL301", "leader"),
    "not_held": ("PL302", "cards/{i}"),
    "revoke": ("PL303", "cards/{i}"),
    "trump": ("PL303", "cards/{i}"),
    "winner": ("PL304", "winner"),
}


def faults_are_worded(counting: Counting, reference: Findings) -> None:
    """Each fault the kernel found at a trick (or a card) is one the Python engine reports there: the
    same rule broken at the same place (for records with a single fault)."""
    assert built is not None
    deals = {id(deal.tricks): d for d, deal in enumerate(counting.record.deals)}
    found = {(x.code, x.pointer) for x in reference.diagnostics}
    for tricks, (kind, t, i) in counting.faults:
        name = built.FAULTS[kind]
        d = deals[id(tricks)]
        if name in WORDED:
            code, end = WORDED[name]
            assert (code, f"/deals/{d}/tricks/{t}/" + end.format(i=i)) in found, (name, t, i, reference.diagnostics)
        elif name == "hands" and t >= 0:  # inferred hands: a card played twice
            assert ("PL302", f"/deals/{d}/tricks/{t}/cards/{i}") in found
        elif name == "hands":
            assert any(p.startswith(f"/deals/{d}/") and c.startswith("PL2") for c, p in found), reference.diagnostics


@cache
def _games(variant: int, seed: int, count: int) -> str:
    game, rules = VARIANTS[variant]
    return json.dumps(list(simulate(game, seed, count, rules=rules, with_cut=seed % 2 == 0)))


def games(variant: int, seed: int, count: int) -> list[Json]:
    out: list[Json] = json.loads(_games(variant, seed, count))
    return out


def without_hands(rec: Json) -> Json:
    for deal in rec["deals"]:
        deal.pop("hands", None)
        deal.pop("undealt", None)
    return rec


needs_c = pytest.mark.skipif(built is None, reason="the C extension is not built")


# ------------------------------------------------------------------------------------ (i) built and used


def c_compiler() -> str | None:
    """The C compiler setuptools would use (``$CC``, else Python's own ``CC``), where it is on PATH."""
    configured = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    words = shlex.split(configured)
    return shutil.which(words[0]) if words else None


def test_the_extension_is_built_and_used() -> None:
    """In this project's environment (``pip install -e``) the extension is built in place; verify uses it
    unless PHATLOG_PURE_PYTHON=1 asks for the Python engine. Without a C compiler phatlog installs and works
    on its pure-Python engine (the README says so), and this test is skipped; with one, an unbuilt extension
    is a failure."""
    if built is None and c_compiler() is None:
        pytest.skip("no C compiler on PATH: the optional extension is not built, phatlog runs on pure Python")
    assert built is not None, (
        f"the optional C extension phatlog/_native/_trick.c was not built, yet {c_compiler()} is here"
    )
    import phatlog._native._trick

    assert phatlog._native._trick.play is not None
    assert pitch.KERNEL is (None if PURE else phatlog._native._trick)


def test_the_compiler_is_looked_for_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The skip above happens only where no compiler is found, and is not taken where one is."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CC", "cc-that-is-not-here -O2")
    assert c_compiler() is None
    fake = tmp_path / "cc-that-is-here"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("CC", "cc-that-is-here -pthread")
    assert c_compiler() == str(fake)


def test_the_environment_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHATLOG_PURE_PYTHON", "1")
    assert pitch.trick_kernel() is None
    monkeypatch.setenv("PHATLOG_PURE_PYTHON", "0")
    assert pitch.trick_kernel() is built


# ------------------------------------------------------------------------------------ (ii) clean games


@needs_c
@pytest.mark.parametrize("variant", range(len(VARIANTS)), ids=[f"{g}-{r}" for g, r in VARIANTS])
def test_simulated_games_agree(variant: int) -> None:
    """100 games of each variant in CI (15 in ``make test``), each with and without its hands: the same
    verdicts, and the C path took every deal but those the Python engine must annotate (every rule the
    kernel reads is held to the rules exhaustively by tests/test_native_tables.py)."""
    took = 0
    count = 100 if DEEP_RUN else 15
    for rec in games(variant, 1000 + variant, count):
        _, _, counting = both(rec)
        assert counting.declined == 0
        assert counting.took == len(rec["deals"])
        assert counting.record_path is not None and counting.record_path.records_took == 1  # the whole record in C
        took += counting.took
        size = len(rec["deals"][0]["hands"][0])
        cut_short = len(rec["deals"][-1]["tricks"]) < size
        _, _, counting = both(without_hands(rec))
        # Without the hands, a deal cut short at the winning peg gets a note (PL203) from the Python engine.
        assert counting.declined == cut_short
        assert counting.record_path is not None and counting.record_path.records_declined == cut_short
    assert took >= count  # at least a deal a game


@needs_c
def test_recorded_trick_winners() -> None:
    """Trick winners recorded (rightly) are checked by the C path too."""
    for variant in range(len(VARIANTS)):
        for rec in games(variant, 7, 3):
            for deal in rec["deals"]:
                trump = deal["tricks"][0]["cards"][0][1]
                for trick in deal["tricks"]:
                    trick["winner"] = winner(trick, trump)
            _, _, counting = both(rec)
            assert counting.declined == 0


def winner(trick: Json, trump: str) -> int:
    cards = trick["cards"]
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return int((trick["leader"] + max(pool, key=lambda i: "23456789TJQKA".index(cards[i][0]))) % 4)


# ------------------------------------------------------------------------------------ (iii) faults


def fault(rec: Json, kind: str, rng: random.Random) -> bool:
    """Put one fault of ``kind`` into a random deal of ``rec``; False if this record has no place for it."""
    deals = rec["deals"]
    d = rng.randrange(len(deals))
    deal = deals[d]
    tricks = deal["tricks"]
    if not tricks:
        return False
    t = rng.randrange(len(tricks))
    trick = tricks[t]
    i = rng.randrange(4)
    seat = (trick["leader"] + i) % 4
    trump = tricks[0]["cards"][0][1]
    if kind == "revoke":
        # Swap a card that followed suit with a later card of the same player's of another suit.
        spots = [
            (tt, ii, u, j)
            for tt, tr in enumerate(tricks)
            for ii in range(1, 4)
            if tr["cards"][ii][1] == tr["cards"][0][1]
            for u in range(tt + 1, len(tricks))
            for j in [(tr["leader"] + ii - tricks[u]["leader"]) % 4]
            if tricks[u]["cards"][j][1] != tr["cards"][0][1]
        ]
        if not spots:
            return False
        tt, ii, u, j = rng.choice(spots)
        tricks[tt]["cards"][ii], tricks[u]["cards"][j] = tricks[u]["cards"][j], tricks[tt]["cards"][ii]
    elif kind == "not_held":
        trick["cards"][i] = rng.choice([c for c in CARDS if c != trick["cards"][i]])
    elif kind == "leader":
        trick["leader"] = (trick["leader"] + rng.randrange(1, 4)) % 4
    elif kind == "trick_winner":
        trick["winner"] = (winner(trick, trump) + rng.randrange(1, 4)) % 4
    elif kind == "points":
        deal["score"]["points"][rng.randrange(2)] += rng.choice([-8, -1, 1, 9])
    elif kind == "total":
        deal["score"]["total"][rng.randrange(2)] += rng.choice([-8, -1, 1, 9])
    elif kind == "duplicate":
        if "hands" not in deal:
            return False
        other = rng.choice([s for s in range(4) if s != seat])
        deal["hands"][seat][rng.randrange(len(deal["hands"][seat]))] = rng.choice(deal["hands"][other])
    elif kind == "duplicate_play":
        trick["cards"][i] = rng.choice([c for tr in tricks for c in tr["cards"] if c != trick["cards"][i]])
    elif kind == "undealt":
        if "undealt" not in deal:
            return False
        deal["undealt"][rng.randrange(len(deal["undealt"]))] = rng.choice([c for tr in tricks for c in tr["cards"]])
    elif kind == "short_hand":
        if "hands" not in deal:
            return False
        deal["hands"][seat].pop()
    elif kind == "cut_short":
        if len(tricks) < 2:
            return False
        del tricks[rng.randrange(1, len(tricks)) :]
    elif kind == "extra_trick":
        # A trick after the last, from the cards not yet played (after the winning peg, or a 14th trick).
        played = {c for tr in tricks for c in tr["cards"]}
        left = [c for c in CARDS if c not in played and c not in deal.get("undealt", [])]
        if len(left) < 4:
            left = rng.sample(CARDS, 4)
        tricks.append({"leader": winner(tricks[-1], trump), "cards": rng.sample(left, 4)})
    elif kind == "no_tricks":
        deal["tricks"] = []
    elif kind == "dealer":
        deal["dealer"] = (deal["dealer"] + rng.randrange(1, 4)) % 4
    else:
        raise AssertionError(kind)
    return True


KINDS: Final = [
    "revoke",
    "not_held",
    "leader",
    "trick_winner",
    "points",
    "total",
    "duplicate",
    "duplicate_play",
    "undealt",
    "short_hand",
    "cut_short",
    "extra_trick",
    "no_tricks",
    "dealer",
]


@needs_c
@PROFILE
@given(
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
    hands=st.booleans(),
)
def test_faulty_records_agree(variant: int, seed: int, kinds: list[str], hands: bool) -> None:
    """One fault, or a few, anywhere: the same diagnostics, totals, winner and end with the C path on and off
    (where the record is still well-formed: a fault that breaks the schema never reaches the referee)."""
    rng = random.Random(seed)
    game, rules = VARIANTS[variant]
    rec = next(iter(simulate(game, seed, 1, rules=rules, with_cut=seed % 3 == 0)))
    if not hands:
        without_hands(rec)
    for kind in kinds:
        fault(rec, kind, rng)
    loaded = read_bytes(json.dumps(rec).encode())
    if loaded.record is None:
        return
    both(rec)


@needs_c
@pytest.mark.parametrize("kind", KINDS)
def test_each_fault_agrees(kind: str) -> None:
    """Each kind of fault, in 30 records of every variant in CI (6 in ``make test``), with and without
    the hands."""
    rng = random.Random(kind)
    for variant in range(len(VARIANTS)):
        for n, rec in enumerate(games(variant, 1000 + variant, 30 if DEEP_RUN else 6)):
            if n % 2:
                without_hands(rec)
            if fault(rec, kind, rng) and read_bytes(json.dumps(rec).encode()).record is not None:
                fast, reference, counting = both(rec)
                faults_are_worded(counting, reference)
                if kind in ("points", "total"):
                    assert counting.declined <= (n % 2)  # the play is clean: the C path still takes it
                if kind not in ("revoke", "not_held", "cut_short", "no_tricks"):  # those may be legal
                    assert fast.diagnostics


# ------------------------------------------------------------------------------------ (iii b) the deal's cards


@needs_c
@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("phat", {}),
        ("nine_card_don", {}),
        ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}),
        ("nine_card_don", {"bonus": "six_high_jack"}),
        ("irish_don", {}),
    ],
)
def test_the_kernels_deal_cards_are_the_python_reference(game: str, rules: dict[str, Any]) -> None:
    """What the end-of-deal awards read of a deal's cards (``all_fours.DealCards``: the game count each side
    took, high and low with their seats, who took low and the jack), from the kernel and from
    ``all_fours.deal_cards`` (the Python engine's), on every deal of simulated games, hands recorded or not."""
    assert built is not None
    rules_of = pitch_games_table[game](pitch_rules(game, rules))
    checked = 0
    for rec in simulate(game, 11, 40, rules=rules):
        for deal in rec["deals"]:
            tricks = [SimpleNamespace(leader=t["leader"], cards=t["cards"], winner=None) for t in deal["tricks"]]
            if len(tricks) != rules_of.hand_size:
                continue  # a deal that ended the game at a trick: no awards
            pitcher = (deal["dealer"] + 1) % 4
            for hands in (deal["hands"], None):
                done: Any = built.play(hands, tricks, None, pitcher, rules_of._kernel_table, 0, 0, True)
                assert done[0] == 0 and len(done) == 15
                trump = done[1]
                captured: tuple[list[str], list[str]] = ([], [])
                for t in tricks:
                    cards = [Card.parse(c) for c in t.cards]
                    winner = (t.leader + tricks_winning_position(cards, Suit(trump))) % 4
                    captured[winner & 1].extend(t.cards)
                want = deal_cards(captured, deal["hands"], trump)
                got = DealCards(
                    (done[6], done[7]),
                    None if done[8] < 0 else (Card(done[8]), done[9]),
                    None if done[10] < 0 else (Card(done[10]), done[11]),
                    None if done[12] < 0 else done[12],
                    None if done[13] < 0 else done[13],
                )
                assert got == want
                checked += 1
    assert checked > 50


# ------------------------------------------------------------------------------------ (iv) junk


def phat_table() -> bytes:
    """Phat's table with the default rules (``tables.pitch_table``)."""
    return pitch_games_table["phat"](pitch_rules("phat", {}))._kernel_table


def with_word(table: bytes, index: int, value: int) -> bytes:
    """A table with one word changed."""
    words = tables.words_of(table)
    words[index] = value
    return words.tobytes()


def junk_tables(table: bytes) -> list[Any]:
    """Tables that are not one: each must raise ValueError, never crash."""
    g = tables.GAME
    out: list[Any] = [b"", table[:-4], table + bytes(4), table[1:], "x", None, list(table), bytearray(table)]
    out += [
        with_word(table, 0, 7),
        with_word(table, 1, 9),
        with_word(table, 2, 5),
        with_word(table, tables.ALLOW_AT, 8),
    ]
    words = tables.words_of(table)
    if words[1] == tables.ALL_FOURS:
        for index, value in (
            (tables.SEATS, 1),
            (tables.SEATS, 8),
            (tables.HAND_SIZE, 0),
            (tables.HAND_SIZE, 18),
            (tables.PEG_OUT, 2),
            (tables.FIRST_PITCH, 52),
            (tables.AWARDS, 40),
            (tables.SIDE, 2),
            (tables.JACK, 99),
            (tables.COUNTERS, 2**30),
            (tables.CARD_POINTS + 51, -(2**30)),
        ):
            out.append(with_word(table, g + index, value))
        if words[g + tables.AWARDS] > 0:
            out += [with_word(table, g + tables.AWARD_LIST, 9), with_word(table, g + tables.AWARD_LIST + 2, 3)]
    if words[1] == tables.OH_HELL:
        hand = g + tables.OH_HAND
        for index, value in (
            (g + tables.OH_SEATS, 2),
            (g + tables.OH_SEATS, 8),
            (g + tables.OH_HANDS, 10**6),
            (hand, 0),
            (hand, 11),
            (hand + 1, 2),
            (hand + 2, len(words)),
            (hand + 2, -5),
            (hand + 3, len(words)),
        ):
            out.append(with_word(table, index, value))
    return out


def _call(hands: Any, tricks: Sequence[Any], pitcher: int, undealt: Any = None) -> Any:
    assert built is not None
    return built.play(hands, tricks, undealt, pitcher, phat_table(), 0, 0, True)


def declined(done: Any) -> bool:
    """A fault: (kind, trick, position) with kind > 0."""
    return len(done) == 3 and done[0] > 0


@needs_c
def test_junk_is_declined() -> None:
    """Anything but the common shape: a fault, never a crash (the Python engine then reports it)."""
    assert built is not None
    good = next(iter(simulate("phat", 3, 1)))["deals"][0]
    tricks = [SimpleNamespace(leader=t["leader"], cards=t["cards"], winner=None) for t in good["tricks"]]
    pitcher = (good["dealer"] + 1) % 4
    ok = _call(good["hands"], tricks, pitcher)
    assert len(ok) == 15 and ok[0] == 0 and ok[14] is None
    inferred = _call(None, tricks, pitcher)
    assert inferred[0] == 0 and [sorted(h) for h in inferred[14]] == [sorted(h) for h in good["hands"]]
    unwanted: Any = built.play(None, tricks, None, pitcher, phat_table(), 0, 0, False)
    assert len(unwanted) == 15 and unwanted[14] is None  # the hands only where the referee asks for them
    assert ok[6] + ok[7] == 80  # every card taken: the whole pack's game count
    bad_tricks: list[Any] = [
        [*tricks[:3], SimpleNamespace(leader="0", cards=tricks[3].cards, winner=None), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=9, cards=tricks[3].cards, winner=None), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=tricks[3].cards, winner=7), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=tricks[3].cards[:3], winner=None), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=[1, 2, 3, 4], winner=None), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=["XX", "2C", "3C", "4C"]), *tricks[4:]],
        [*tricks[:3], SimpleNamespace(leader=2**80, cards=tricks[3].cards, winner=None), *tricks[4:]],
        [*tricks[:3], object(), *tricks[4:]],
        [*tricks, tricks[0]],
        [],
        "not a list",
    ]
    for junk in bad_tricks:
        assert declined(_call(good["hands"], junk, pitcher))
    for hands in ([], [["2C"]] * 4, "2C", [*good["hands"][:3], None], [[*h[:12], "2c"] for h in good["hands"]]):
        assert declined(_call(hands, tricks, pitcher))
    assert _call(good["hands"], tricks, (pitcher + 1) % 4) == (built.FAULTS.index("leader"), 0, 0)
    assert _call(good["hands"], tricks, pitcher, undealt=["2C"]) == (built.FAULTS.index("hands"), -1, -1)
    assert declined(_call(good["hands"], tricks, pitcher, undealt=7))
    assert declined(built.play(good["hands"], tricks, None, pitcher, phat_table(), 2**70, 0, True))
    for bad in junk_tables(phat_table()):
        with pytest.raises(ValueError):
            built.play(good["hands"], tricks, None, pitcher, bad, 0, 0, True)
    with pytest.raises(ValueError):
        built.play(good["hands"], tricks, None, 4, phat_table(), 0, 0, True)  # a pitcher who is not a seat


class _Clearing:
    """A trick or deal whose reading empties the list it is in (a ``__getattr__`` runs code): what the kernel
    must survive, declining, whatever the lookup changed."""

    def __init__(self, within: list[Any], inner: Any, what: Callable[[], None] | None = None) -> None:
        self.within, self.inner, self.what = within, inner, what

    def __getattr__(self, name: str) -> Any:
        if self.what is not None:
            self.what()
        else:
            self.within.clear()
        return getattr(self.inner, name)


def test_a_lookup_that_changes_the_lists_is_declined_not_a_crash() -> None:
    """Regression: ``read_tricks`` and ``deal_keys`` borrowed the items of a list across attribute lookups;
    a lookup that emptied the list (or a trick's cards) left them reading freed memory (a crash)."""
    assert built is not None
    good = next(iter(simulate("phat", 3, 1)))["deals"][0]
    pitcher = (good["dealer"] + 1) % 4
    for t in range(4):
        tricks: list[Any] = [
            SimpleNamespace(leader=x["leader"], cards=list(x["cards"]), winner=None) for x in good["tricks"]
        ]
        tricks[t] = _Clearing(tricks, tricks[t])
        assert declined(_call(good["hands"], tricks, pitcher)) and tricks == []
    tricks = [SimpleNamespace(leader=x["leader"], cards=list(x["cards"]), winner=None) for x in good["tricks"]]
    first = tricks[0].cards
    tricks[5] = _Clearing(tricks, tricks[5], first.clear)  # a later lookup empties an earlier trick's cards
    assert declined(_call(good["hands"], tricks, pitcher)) and first == []
    oh = next(iter(simulate("oh_hell", 2, 1, players=5)))["deals"][3]
    oh_tricks: list[Any] = [SimpleNamespace(leader=x["leader"], cards=x["cards"], winner=None) for x in oh["tricks"]]
    oh_tricks[1] = _Clearing(oh_tricks, oh_tricks[1])
    found: Any = built.oh_hell(oh["hands"], oh_tricks, None, 0, 5, len(oh["hands"][0]), -1, TRICK_TABLE)
    assert found[0] > 0 and oh_tricks == []
    deals: list[Any] = [SimpleNamespace(dealer=d["dealer"], hands=d["hands"]) for d in oh_deals()]
    deals[2] = _Clearing(deals, deals[2])
    from phatlog._native import _bytes

    assert _bytes.deal_keys(deals) is None and deals == []


def oh_deals() -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = next(iter(simulate("oh_hell", 2, 1, players=5)))["deals"]
    return deals


# ------------------------------------------------------------------------------------ (v) the whole record in C
#
# ``_trick.pitch_record`` referees a whole All Fours record in one call where every deal is clean, and declines
# (None) the moment anything is not: then the Python referee does the record. ``both`` holds the three runs
# (record path on, forced off, no C) to the same verdict; here each place it must decline, and the clean
# cases it must take that simulated games rarely show (carried mucks, a game won in the middle of the
# awards, an end_of_deal tie at the target).

NAMES: Final = ("Ann", "Ben", "Cal", "Dee")


def record_path(rec: Json) -> tuple[Findings, Counting]:
    """The verdict (the same on every path: ``both``) and the record path's counts."""
    fast, _, counting = both(rec)
    assert counting.record_path is not None
    return fast, counting.record_path


def takes(rec: Json) -> Findings:
    verdict, whole = record_path(rec)
    assert (whole.records_took, whole.records_declined) == (1, 0)
    return verdict


def declines(rec: Json) -> Findings:
    verdict, whole = record_path(rec)
    assert (whole.records_took, whole.records_declined) == (0, 1)
    return verdict


@cache
def _pool(game: str, rules_json: str) -> str:
    """Whole deals (every trick played) of simulated games, each with its dealer as played."""
    size = pitch_games_table[game].hand_size
    deals = [
        {k: v for k, v in deal.items() if k != "score"}
        for rec in simulate(game, 77, 250, rules=json.loads(rules_json))
        for deal in rec["deals"]
        if len(deal["tricks"]) == size
    ]
    return json.dumps(deals)


def pool(game: str, rules: Json | None = None) -> list[Json]:
    out: list[Json] = json.loads(_pool(game, json.dumps(rules or {})))
    return out


def compose(game: str, rules: Json, deals: Sequence[Json], expect: tuple[str, ...] = ()) -> Json:
    """A record of these deals with the scores and the result the Python engine gives them (and no
    diagnostic but those in ``expect``)."""
    from phatlog.referee.heard import referee_events

    rec: Json = {
        "phatlog": "1.0",
        "game": game,
        "rules": rules,
        "players": [{"name": n} for n in NAMES],
        "deals": [{k: v for k, v in d.items() if k != "score"} for d in json.loads(json.dumps(deals))],
    }
    with trick_kernel(None):
        verdict, events = referee_events(parse(rec))
        if verdict.ended_at is not None and verdict.ended_at[1] is not None:  # won at a trick: no more are played
            d, t = verdict.ended_at[0], verdict.ended_at[1]
            del rec["deals"][d]["tricks"][t + 1 :]
            verdict, events = referee_events(parse(rec))
    assert len(events) == len(deals), "a deal after the end"
    assert {x.code for x in verdict.diagnostics} - {"PL405"} == set(expect), verdict.diagnostics  # (no result yet)
    for deal, ev in zip(rec["deals"], events, strict=True):
        assert ev.points is not None and ev.totals is not None
        deal["score"] = {"points": list(ev.points), "total": list(ev.totals)}
    if verdict.winner is not None and verdict.totals is not None:
        rec["result"] = {"status": "finished", "winner": verdict.winner, "total": verdict.totals}
    else:
        rec["result"] = {"status": "unfinished"}
    return rec


def side_points(deal: Json, game: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """A whole deal's counters and game (muck) count, by side."""
    trump = Suit("CDHS".index(deal["tricks"][0]["cards"][0][1]))
    values = pitch_games_table[game](pitch_rules(game, {})).counters(trump)
    counters = [0, 0]
    taken: tuple[list[str], list[str]] = ([], [])
    for t in deal["tricks"]:
        cards = [Card.parse(c) for c in t["cards"]]
        side = (t["leader"] + tricks_winning_position(cards, trump)) % 2
        counters[side] += sum(values[c] for c in cards)
        taken[side].extend(t["cards"])
    game_count = deal_cards((taken[0], taken[1]), None, int(trump)).game
    return (counters[0], counters[1]), game_count


def dealt_by(deals: list[Json], dealer: int, test: Callable[[Json], bool] = lambda deal: True) -> Json:
    return next(d for d in deals if d["dealer"] == dealer and test(d))


@needs_c
@pytest.mark.parametrize(
    "kind",
    ["points", "total", "no_score", "no_points", "no_total", "ruling", "sheet", "dealer", "after_end", "winner"],
)
def test_the_record_path_declines(kind: str) -> None:
    """Each place where a record stops being the clean case: the record path declines the whole record, and
    the verdict is the Python referee's (``both``), whichever deal it is in."""
    declined = 0
    for variant in range(len(VARIANTS)):
        for n, rec in enumerate(games(variant, 3000 + variant, 4)):
            deals = rec["deals"]
            d = n % len(deals)
            deal = deals[d]
            if kind == "points":
                deal["score"]["points"][n % 2] += 1
            elif kind == "total":
                deal["score"]["total"][n % 2] -= 1
            elif kind == "no_score":
                del deal["score"]
            elif kind == "no_points":
                del deal["score"]["points"]
            elif kind == "no_total":
                del deal["score"]["total"]
            elif kind == "ruling":  # an adjustment of no points: it changes nothing, yet it is a ruling
                rec["phatlog"] = "1.1"
                deal["rulings"] = [{"kind": "adjustment", "side": 0, "points": 0}]
            elif kind == "sheet":  # a score sheet deal among played ones, with the points it scored
                del deal["tricks"]
                deal.pop("hands", None)
                deal.pop("undealt", None)
            elif kind == "dealer":
                if d == 0:
                    continue  # the first dealer is anyone's (Irish Don: below)
                deal["dealer"] = (deal["dealer"] + 2) % 4
            elif kind == "after_end":
                deals.append(json.loads(json.dumps(deals[-1])))
            elif kind == "winner":  # a recorded trick winner that is not the one who won
                trick = deal["tricks"][0]
                trick["winner"] = (winner(trick, trick["cards"][0][1]) + 1) % 4
            if read_bytes(json.dumps(rec).encode()).record is None:
                continue
            verdict = declines(rec)
            if kind not in ("no_score", "no_points", "no_total", "ruling"):
                assert verdict.diagnostics
            declined += 1
    assert declined >= 30


@needs_c
def test_the_record_path_leaves_the_end_and_result_to_python() -> None:
    """The deals are clean but the result is not as the game ended (or the record has a cut): the record
    path takes the deals, and the result and the cut are checked as the Python referee checks them."""
    for variant in range(len(VARIANTS)):
        for n, rec in enumerate(games(variant, 4000 + variant, 6)):
            result = rec["result"]
            change = n % 6
            if change == 0:
                result["winner"] = [1 - result["winner"][0]]
            elif change == 1:
                result["total"] = [result["total"][1], result["total"][0] + 1]
            elif change == 2:
                result["status"] = "unfinished"
            elif change == 3:
                del rec["result"]
            elif change == 4:
                result.pop("winner")
                result.pop("total")
            elif change == 5 and rec["game"] != "irish_don":
                # A cut that names another first pitcher, or is cut by the wrong players (Nine-card Don).
                rec["cut"] = [["2C", "3C", "4C", "5C"] if rec["deals"][0]["dealer"] != 3 else ["5C", "2C", "4C", "3C"]]
            if read_bytes(json.dumps(rec).encode()).record is None:
                continue
            verdict = takes(rec)
            assert bool(verdict.diagnostics) == (change in (0, 1, 2) or (change == 5 and "cut" in rec))


@needs_c
@pytest.mark.parametrize("tie", ["none", "carry", "both"])
def test_tied_mucks_carry_across_deals(tie: str) -> None:
    """Two tied mucks in a row, then a muck won: under ``carry`` the winner pegs 8 + 16; the record path
    takes it, and declines the same record scored as if nothing were carried."""
    deals = pool("phat")
    first = dealt_by(deals, 0, lambda d: side_points(d, "phat")[1][0] == 40)
    second = dealt_by(deals, 1, lambda d: side_points(d, "phat")[1][0] == 40)
    third = dealt_by(deals, 2, lambda d: side_points(d, "phat")[1][0] != 40)
    for target in (100000,):
        rules = {"muck_tie": tie, "target": target}
        rec = compose("phat", rules, [first, second, third])
        verdict = takes(rec)
        third_points = sum(rec["deals"][2]["score"]["points"])
        assert third_points == {"none": 88, "carry": 104, "both": 88}[tie]
        assert sum(rec["deals"][0]["score"]["points"]) == {"none": 80, "carry": 80, "both": 96}[tie]
        assert verdict.totals == rec["deals"][2]["score"]["total"]
        if tie == "carry":
            muck_side = 0 if side_points(third, "phat")[1][0] > 40 else 1
            rec["deals"][2]["score"]["points"][muck_side] -= 16
            rec["deals"][2]["score"]["total"][muck_side] -= 16
            assert "PL401" in {x.code for x in declines(rec).diagnostics}


def ends_mid_awards(game: str, rules: Json, deal: Json, awards: int) -> Json | None:
    """A one-deal record whose target is reached at an end-of-deal award before the last (``awards`` of
    them when none ends the game), or None if no target does that."""
    from phatlog.referee.heard import referee_events

    for target in range(1, 140):
        rec = compose(game, {**rules, "target": target}, [deal])
        with trick_kernel(None):
            verdict, events = referee_events(parse(rec))
        if verdict.ended_at == (0, None) and 0 < len(events[0].bonuses) < awards and events[0].bonuses[-1].points:
            return rec
    return None


@needs_c
@pytest.mark.parametrize(
    ("game", "rules", "awards"),
    [
        ("phat", {"muck_tie": "both"}, 2),
        ("nine_card_don", {"bonus": "five_high_low_jack"}, 4),
        ("nine_card_don", {"bonus": "five_high_low_jack", "low_to": "capturer"}, 4),
        ("nine_card_don", {"bonus": "six_high_jack"}, 3),
    ],
)
def test_a_game_won_in_the_middle_of_the_awards(game: str, rules: Json, awards: int) -> None:
    """``peg_out: immediate``: the award that reaches the target ends the game and the later ones are not
    pegged (Phat's two tied 8s, the pitcher's side first; Don's game, high, low, jack): taken, the same."""
    found = 0

    def wanted(deal: Json) -> bool:
        return game != "phat" or side_points(deal, "phat")[1][0] == 40  # Phat: a tied muck, both 8s pegged

    for deal in [d for d in pool(game, rules) if wanted(d)][:12]:
        rec = ends_mid_awards(game, rules, deal, awards)
        if rec is None:
            continue
        verdict = takes(rec)
        assert verdict.ended_at == (0, None) and verdict.winner is not None
        found += 1
        if found == 3:
            break
    assert found >= 1


@needs_c
@pytest.mark.parametrize(("game", "share"), [("irish_don", 80), ("phat", 88)])
def test_an_end_of_deal_tie_at_the_target_plays_on(game: str, share: int) -> None:
    """``peg_out: end_of_deal``: both sides at the target with equal totals play on; the record path takes
    the record, and the game ends after the next deal."""
    rules: Json = {"peg_out": "end_of_deal"}
    deals = pool(game, rules)
    found = 0

    def pegs(deal: Json) -> tuple[int, int] | None:
        """What a deal pegs, by side (None for Phat's tied muck: left out)."""
        counters, count = side_points(deal, game)
        if game == "irish_don":
            return counters
        if count[0] == 40:
            return None
        return (counters[0] + 8 * (count[0] > 40), counters[1] + 8 * (count[1] > 40))

    for first in [d for d in deals if d["dealer"] == 0][:40]:
        split = pegs(first)
        if split is None or split[0] == split[1]:
            continue
        mirror = [d for d in deals if d["dealer"] == 1 and pegs(d) == (split[1], split[0])]
        if not mirror:
            continue
        a = split[0]
        third = dealt_by(deals, 2)
        target = max(a, share - a) + 1  # nobody reaches it after the first deal; both reach it, tied, after two
        rec = compose(game, {**rules, "target": target}, [first, mirror[0], third])
        assert rec["deals"][1]["score"]["total"] == [share, share]
        verdict = takes(rec)
        assert verdict.ended_at == ((2, None) if verdict.winner is not None else None)
        found += 1
        if found == 2:
            break
    assert found >= 1


@needs_c
@pytest.mark.parametrize("hands", [True, False])
def test_irish_dons_first_dealer(hands: bool) -> None:
    """Irish Don: the holder of the 2D pitches first. A first deal whose dealer does not follow from it is
    declined (the Python referee reports it, PL202); one whose dealer does is taken."""
    deals = pool("irish_don")

    def holder(deal: Json) -> int:
        return next(s for s, h in enumerate(deal["hands"]) if "2D" in h)

    right = next(d for d in deals if (holder(d) + 3) % 4 == d["dealer"])
    wrong = next(d for d in deals if (holder(d) + 3) % 4 != d["dealer"])
    for first, ok in ((right, True), (wrong, False)):
        rec = compose("irish_don", {}, [first], expect=() if ok else ("PL202",))
        if not hands:
            without_hands(rec)
        if ok:
            assert not takes(rec).diagnostics
        else:
            assert "PL202" in {x.code for x in declines(rec).diagnostics}


@needs_c
def test_the_record_path_declines_junk() -> None:
    """Anything but the common shape, in the deals or in the rules block: None, never a crash."""
    assert built is not None
    rec = parse(games(0, 5, 1)[0])
    referee_of = pitch_games_table["phat"].for_rules(rec.rules)
    params = referee_of._kernel_table
    assert built.pitch_record(rec.deals, params) is not None
    good = rec.deals[0]

    def deal(**changes: Any) -> Any:
        fields = {k: getattr(good, k) for k in ("dealer", "hands", "tricks", "score")}
        return SimpleNamespace(**{**fields, **changes})

    score = good.score
    tricks = list(good.tricks)
    junk_deals: list[Any] = [
        "not a list",
        [],
        [object()],
        [None],
        [deal(dealer=2**80)],
        [deal(dealer=-1)],
        [deal(dealer="1")],
        [deal(hands="2C")],
        [deal(hands=[["2C"]] * 4)],
        [deal(tricks=None)],
        [deal(tricks=[])],
        [deal(tricks=tricks[:5])],
        [deal(tricks=[*tricks, tricks[0]])],
        [deal(tricks=[*tricks[:12], SimpleNamespace(leader=2**70, cards=tricks[12].cards, winner=None)])],
        [deal(tricks=[*tricks[:12], SimpleNamespace(leader=tricks[12].leader, cards=["2C"] * 4, winner=None)])],
        [deal(tricks=[*tricks[:12], SimpleNamespace(leader=tricks[12].leader, cards=tricks[12].cards)])],
        [deal(score=None)],
        [deal(score=SimpleNamespace(points=[2**80, 0], total=score.total))],
        [deal(score=SimpleNamespace(points=tuple(score.points), total=score.total))],
        [deal(score=SimpleNamespace(points=score.points, total=[*score.total, 0]))],
        [deal(score=SimpleNamespace(points=score.points, total=[float(t) for t in score.total]))],
        [deal(score=SimpleNamespace(points=score.points))],
        [deal(rulings=[1])],
        [deal(rulings="x")],
    ]
    for deals in junk_deals:
        assert built.pitch_record(deals, params) is None, deals
    assert built.pitch_record([deal()], params) is not None  # the same deal, as a plain object, is clean
    assert built.pitch_record([deal(rulings=None)], params) is not None
    assert built.pitch_record([deal(rulings=[])], params) is not None
    for bad in junk_tables(params):
        with pytest.raises(ValueError):
            built.pitch_record(rec.deals, bad)
    g = tables.GAME
    untabled = tables.words_of(params)
    del untabled[g + tables.AWARD_LIST :]
    untabled[g + tables.AWARDS], untabled[2] = -1, len(untabled)
    assert built.pitch_record(rec.deals, untabled.tobytes()) is None  # awards no table says: Python pegs
    assert built.pitch_record(rec.deals, with_word(params, g + tables.TARGET, -1)) is None  # a target beyond it
    with pytest.raises(TypeError):
        built.pitch_record(rec.deals)  # type: ignore[call-arg]


@needs_c
def test_the_record_path_reads_each_type_of_deal_rightly() -> None:
    """The record path reads a struct's fields from where its type keeps them (``Slot`` in _trick.c): deals
    of types with other layouts in turn (Phat's, Nine-card Don's with ``undealt``, plain objects), and a
    type changed after it was read, are each read as Python reads them."""
    import msgspec

    assert built is not None
    phat_rec = parse(games(0, 8, 1)[0])
    don_rec = parse(games(6, 8, 1)[0])
    phat_params = pitch_games_table["phat"].for_rules(phat_rec.rules)._kernel_table
    don_params = pitch_games_table["nine_card_don"].for_rules(don_rec.rules)._kernel_table
    plain = [
        SimpleNamespace(**{k: getattr(d, k) for k in ("dealer", "hands", "undealt", "tricks", "score")})
        for d in don_rec.deals
    ]
    want_phat = built.pitch_record(phat_rec.deals, phat_params)
    want_don = built.pitch_record(don_rec.deals, don_params)
    assert want_phat is not None and want_don is not None
    for _ in range(3):
        assert built.pitch_record(don_rec.deals, don_params) == want_don
        assert built.pitch_record(phat_rec.deals, phat_params) == want_phat
        assert built.pitch_record(plain, don_params) == want_don

    class Score(msgspec.Struct):
        points: list[int]
        total: list[int]

    class Deal(msgspec.Struct):
        score: Score
        tricks: list[Any]
        dealer: int
        hands: list[list[str]] | None = None

    deals = [
        Deal(Score(list(d.score.points), list(d.score.total)), list(d.tricks), d.dealer, d.hands)
        for d in phat_rec.deals
    ]
    assert built.pitch_record(deals, phat_params) == want_phat
    # The type changes: every deal is now dealt by seat 0.
    Deal.dealer = property(lambda self: 0)  # type: ignore[assignment]
    assert built.pitch_record(deals, phat_params) is None  # the rotation is broken (a wrong dealer)


@needs_c
def test_the_rules_module_is_found_by_type_where_the_type_tells_the_game() -> None:
    """``referee`` finds a fast-path struct's rules module by its type (its union tag is the game), and a
    pydantic model's by its ``game`` field every time; both are refereed alike, on the record path."""
    from phatlog.record.model import RECORD_ADAPTER
    from phatlog.referee import games as referee_module

    rec = games(14, 9, 1)[0]
    struct = parse(rec)
    model = RECORD_ADAPTER.validate_python(rec)
    whole = Counting(built)
    with trick_kernel(whole):
        verdicts = [referee(struct), referee(model)]
    assert whole.records_took == 2 and outcome(verdicts[0]) == outcome(verdicts[1])
    assert referee_module._BY_TYPE[type(struct)] is referee_module.RULES_MODULES["irish_don"]
    assert type(model) not in referee_module._BY_TYPE


def test_referees_are_shared_by_rules() -> None:
    """One referee per rules value (``AllFoursReferee.for_rules``), shared by every record of those rules; the
    Python replay runs on a referee of its own, so the shared one keeps no record's state."""
    from phatlog.referee.heard import referee_events

    phat = pitch_games_table["phat"]
    recs = [parse(r) for r in games(3, 6, 2)]
    shared = phat.for_rules(recs[0].rules)
    assert phat.for_rules(recs[1].rules) is shared and shared.shared
    assert phat.for_rules(PhatRules(muck_tie="carry")) is not shared
    unhashable = SimpleNamespace(target=181, peg_out="immediate", muck_tie="none")
    assert not phat.for_rules(unhashable).shared
    verdict, _ = referee_events(recs[0])
    assert not hasattr(shared, "visit") and not hasattr(shared, "_ruled")  # a record's state is the driver's
    assert outcome(verdict) == outcome(referee(recs[0]))


# ------------------------------------------------------------------------------------ Oh Hell

#: Oh Hell rules variants: every parameter that touches the play or the score, alone and together.
OH_VARIANTS: Final[list[Json]] = [
    {},
    {"must_trump": True},
    {"no_trump": "never", "schedule": "down"},
    {"schedule": "up_down", "max_cards": 4, "hook": True},
    {"schedule": [5, 1, 3], "must_trump": True, "miss": "minus_diff"},
    {"bidding": "simultaneous", "zero_bid": "five_plus_cards", "miss": "tricks", "schedule": "down_up"},
]
PLAYERS: Final = range(3, 8)


@cache
def _oh_games(variant: int, players: int, seed: int, count: int) -> str:
    return json.dumps(list(simulate("oh_hell", seed, count, rules=OH_VARIANTS[variant], players=players)))


def oh_games(variant: int, players: int, seed: int, count: int) -> list[Json]:
    out: list[Json] = json.loads(_oh_games(variant, players, seed, count))
    return out


@needs_c
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", range(len(OH_VARIANTS)), ids=[json.dumps(r) for r in OH_VARIANTS])
def test_oh_hell_games_agree(variant: int, players: int) -> None:
    """Simulated games of every variant for 3 to 7 players, with and without the hands, with the tricks'
    winners and the tricks taken recorded or not: the same verdicts, and nothing plays a hand but the State
    (the referee makes no per-hand kernel call)."""
    for n, rec in enumerate(oh_games(variant, players, 2000 + 10 * variant + players, 4)):
        _, _, counting = both(rec)
        assert (counting.took, counting.declined) == (0, 0)
        assert counting.record_path is not None and counting.record_path.took == 0
        if n % 2:
            for deal in rec["deals"]:
                deal["taken"] = [0] * players
                for trick in deal["tricks"]:
                    trick["winner"] = oh_winner(trick, deal.get("turnup"), players)
                    deal["taken"][trick["winner"]] += 1
        _, _, counting = both(without_hands(rec))
        assert (counting.took, counting.declined) == (0, 0)


def oh_winner(trick: Json, turnup: str | None, players: int) -> int:
    cards = trick["cards"]
    trump = turnup[1] if turnup else None
    pool = [i for i, c in enumerate(cards) if c[1] == trump] or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return int((trick["leader"] + max(pool, key=lambda i: "23456789TJQKA".index(cards[i][0]))) % players)


def oh_fault(rec: Json, kind: str, rng: random.Random) -> bool:
    """Put one fault of ``kind`` into a random hand of an Oh Hell record; False if it has no place for it."""
    n = len(rec["players"])
    deals = rec["deals"]
    d = rng.randrange(len(deals))
    deal = deals[d]
    tricks = deal["tricks"]
    turnup = deal.get("turnup")
    if not tricks:
        return False
    t = rng.randrange(len(tricks))
    trick = tricks[t]
    i = rng.randrange(n)
    seat = (trick["leader"] + i) % n

    def swaps(bad: Callable[[Json, int, str], bool]) -> list[tuple[int, int, int, int]]:
        """(trick, position, later trick, position): the same player's cards, where putting the later one
        in the earlier trick breaks the rule ``bad(trick, position, card)`` says."""
        return [
            (tt, ii, u, j)
            for tt, tr in enumerate(tricks)
            for ii in range(1, n)
            for u in range(tt + 1, len(tricks))
            for j in [(tr["leader"] + ii - tricks[u]["leader"]) % n]
            if bad(tr, ii, tricks[u]["cards"][j])
        ]

    if kind == "revoke":
        spots = swaps(lambda tr, ii, c: tr["cards"][ii][1] == tr["cards"][0][1] != c[1])
    elif kind == "must_trump":
        if turnup is None:
            return False
        trump = turnup[1]
        spots = swaps(lambda tr, ii, c: tr["cards"][0][1] != tr["cards"][ii][1] == trump != c[1])
    else:
        spots = []
    if kind in ("revoke", "must_trump"):
        if not spots:
            return False
        tt, ii, u, j = rng.choice(spots)
        tricks[tt]["cards"][ii], tricks[u]["cards"][j] = tricks[u]["cards"][j], tricks[tt]["cards"][ii]
    elif kind == "not_held":
        trick["cards"][i] = rng.choice([c for c in CARDS if c != trick["cards"][i]])
    elif kind == "leader":
        trick["leader"] = (trick["leader"] + rng.randrange(1, n)) % n
    elif kind == "trick_winner":
        trick["winner"] = (oh_winner(trick, turnup, n) + rng.randrange(1, n)) % n
    elif kind == "taken":
        taken = [0] * n
        for tr in tricks:
            taken[oh_winner(tr, turnup, n)] += 1
        if rng.random() < 0.5:
            giver = next(s for s in range(n) if taken[s])
            taken[giver] -= 1
            taken[(giver + rng.randrange(1, n)) % n] += 1
        deal["taken"] = taken
    elif kind == "duplicate":
        if "hands" not in deal or len(deal["hands"][seat]) < 1:
            return False
        other = rng.choice([s for s in range(n) if s != seat])
        deal["hands"][seat][rng.randrange(len(deal["hands"][seat]))] = rng.choice(deal["hands"][other])
    elif kind == "duplicate_play":
        others = [c for tr in tricks for c in tr["cards"] if c != trick["cards"][i]]
        trick["cards"][i] = rng.choice(others)
    elif kind == "short_hand":
        if "hands" not in deal:
            return False
        deal["hands"][seat].pop()
    elif kind == "turnup_dealt":
        if turnup is None:
            return False
        same_trump = [c for tr in tricks for c in tr["cards"] if c[1] == turnup[1]]  # the play stays legal
        if not same_trump:
            return False
        deal["turnup"] = rng.choice(same_trump)
    elif kind == "turnup_missing":
        if turnup is None:
            return False
        del deal["turnup"]
    elif kind == "turnup_extra":
        if turnup is not None:
            return False
        played = {c for tr in tricks for c in tr["cards"]}
        left = [c for c in CARDS if c not in played]
        if not left:
            return False
        deal["turnup"] = rng.choice(left)
    elif kind == "cut_short":
        if len(tricks) < 2:
            return False
        del tricks[rng.randrange(1, len(tricks)) :]
    elif kind == "extra_trick":
        tricks.append({"leader": oh_winner(tricks[-1], turnup, n), "cards": rng.sample(CARDS, n)})
    elif kind == "no_tricks":
        deal["tricks"] = []
    elif kind == "dealer":
        deal["dealer"] = (deal["dealer"] + rng.randrange(1, n)) % n
    elif kind == "bid":
        deal["bids"][seat] = len(tricks) + 1
    elif kind == "points":
        deal["score"]["points"][seat] += rng.choice([-3, -1, 1, 10])
    elif kind == "total":
        deal["score"]["total"][seat] += rng.choice([-3, -1, 1, 10])
    else:
        raise AssertionError(kind)
    return True


OH_KINDS: Final = [
    "revoke",
    "must_trump",
    "not_held",
    "leader",
    "trick_winner",
    "taken",
    "duplicate",
    "duplicate_play",
    "short_hand",
    "turnup_dealt",
    "turnup_missing",
    "turnup_extra",
    "cut_short",
    "extra_trick",
    "no_tricks",
    "dealer",
    "bid",
    "points",
    "total",
]


@needs_c
@pytest.mark.parametrize("kind", OH_KINDS)
def test_each_oh_hell_fault_agrees(kind: str) -> None:
    """Each kind of fault in Oh Hell records of every variant and 3 to 7 players, with and without the
    hands: the same verdicts, and the kernel's faults are the rules the Python engine says were broken,
    at the same trick and card."""
    rng = random.Random(kind)
    faulty = 0
    for variant in range(len(OH_VARIANTS)):
        for players in PLAYERS:
            for n, rec in enumerate(oh_games(variant, players, 2000 + 10 * variant + players, 4)):
                if n % 2:
                    without_hands(rec)
                if oh_fault(rec, kind, rng) and read_bytes(json.dumps(rec).encode()).record is not None:
                    fast, reference, counting = both(rec)
                    faults_are_worded(counting, reference)
                    with trick_kernel(RecordCounting()):  # the whole-record call, or what it declines
                        assert full(referee(counting.record)) == full(reference)
                    faulty += 1
                    if kind in ("leader", "trick_winner", "duplicate", "duplicate_play", "bid", "points"):
                        assert fast.diagnostics
    assert faulty >= 5


@needs_c
@PROFILE
@given(
    variant=st.sampled_from(range(len(OH_VARIANTS))),
    players=st.sampled_from(PLAYERS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    kinds=st.lists(st.sampled_from(OH_KINDS), min_size=1, max_size=3),
    hands=st.booleans(),
)
def test_faulty_oh_hell_records_agree(variant: int, players: int, seed: int, kinds: list[str], hands: bool) -> None:
    """A few faults anywhere in an Oh Hell game: the same verdict with the C paths (the whole record, hand
    by hand) and without."""
    rng = random.Random(seed)
    rec = next(iter(simulate("oh_hell", seed, 1, rules=OH_VARIANTS[variant], players=players)))
    if not hands:
        without_hands(rec)
    for kind in kinds:
        oh_fault(rec, kind, rng)
    if read_bytes(json.dumps(rec).encode()).record is not None:
        three(rec)


@needs_c
def test_oh_hell_junk_is_declined() -> None:
    """The Oh Hell entry point: a fault for anything but the common shape, never a crash; its success
    is the tricks each seat took."""
    assert built is not None
    rec = next(iter(simulate("oh_hell", 5, 1, players=5, rules={"schedule": [4], "no_trump": "never"})))
    deal = rec["deals"][0]
    tricks = [SimpleNamespace(leader=t["leader"], cards=t["cards"], winner=None) for t in deal["tricks"]]
    leader = (deal["dealer"] + 1) % 5
    trump = "CDHS".index(deal["turnup"][1])

    def call(hands: Any = deal["hands"], tricks: Any = tricks, turnup: Any = None, size: int = 4) -> Any:
        assert built is not None
        return built.oh_hell(hands, tricks, turnup, leader, 5, size, trump, TRICK_TABLE)

    done = call()
    assert done[0] == 0 and sum(done[1]) == 4 and len(done[1]) == 5
    assert call(hands=None) == done
    assert call(turnup=deal["turnup"]) == done
    fault = built.FAULTS.index
    assert call(turnup=deal["hands"][2][0]) == (fault("hands"), -1, -1)
    assert call(size=5) == (fault("hands"), -1, -1)  # the recorded hands hold 4 cards
    assert call(hands=None, size=5)[0] == fault("unusual")  # 4 of 5 tricks: the Python engine notes it
    assert call(tricks=tricks[:3])[0] == fault("unusual")
    assert call(size=3) == (fault("tricks"), 3, -1)
    assert call(size=11)[0] == fault("unusual")  # more cards than the pack holds
    for junk in (
        [],
        "xx",
        [*tricks[:3], object()],
        [*tricks[:3], SimpleNamespace(leader=9, cards=tricks[3].cards, winner=None)],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=tricks[3].cards, winner=-1)],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=tricks[3].cards[:4], winner=None)],
        [*tricks[:3], SimpleNamespace(leader=tricks[3].leader, cards=["2c", *tricks[3].cards[1:]], winner=None)],
    ):
        assert declined(call(tricks=junk))
    for hands in ([], "2C", deal["hands"][:4], [*deal["hands"][:4], None], [*deal["hands"][:4], ["2C", 3, "4C", "5C"]]):
        assert declined(call(hands=hands))
    assert declined(call(turnup=7))
    t = TRICK_TABLE
    for bad in ((leader, 1, 4, trump, t), (leader, 8, 4, trump, t), (9, 5, 4, trump, t), (leader, 5, 4, 4, t)):
        with pytest.raises(ValueError):
            built.oh_hell(deal["hands"], tricks, None, *bad)
    with pytest.raises(ValueError):
        built.oh_hell(deal["hands"], tricks, None, leader, 5, 4, 2**70, t)
    for junk in junk_tables(t):
        with pytest.raises(ValueError):
            built.oh_hell(deal["hands"], tricks, None, leader, 5, 4, trump, junk)


# ------------------------------------------------------------------------------------ Oh Hell, whole records


SAMPLES: Final = Path(__file__).resolve().parent.parent / "samples" / "games"


class RecordCounting(Counting):
    """The C kernel with its whole-record entry point (``oh_hell_record``), counting the records it took
    and declined; the hands of a declined record go to ``oh_hell`` one by one, counted as ``Counting``."""

    def __init__(self) -> None:
        assert built is not None
        super().__init__(built)
        self.records_took = 0
        self.records_declined = 0

    def oh_hell_record(self, deals: Any, params: bytes) -> Any:
        assert built is not None
        done = built.oh_hell_record(deals, params)
        if done is None:
            self.records_declined += 1
        else:
            self.records_took += 1
        return done


def full(v: Findings) -> tuple[Any, ...]:
    """All of a verdict, Oh Hell's judged hands included."""
    return (*outcome(v), v.refused, v.judged)


def three(rec: Json | Any) -> tuple[Findings, RecordCounting]:
    """The verdict with the whole-record C call, with the C kernel hand by hand (``Counting`` has no
    ``oh_hell_record``), and the Python engine's: all the same; and what the whole-record call took."""
    record = parse(rec) if isinstance(rec, dict) else rec
    counting = RecordCounting()
    with trick_kernel(counting):
        whole = referee(record)
    assert built is not None
    with trick_kernel(Counting(built)):
        by_hand = referee(record)
    with trick_kernel(None):
        reference = referee(record)
    assert full(whole) == full(by_hand) == full(reference)
    return whole, counting


def oh_clean(variant: int, players: int, seed: int = 0) -> Json:
    rec: Json = next(iter(simulate("oh_hell", 3000 + seed, 1, rules=OH_VARIANTS[variant], players=players)))
    return rec


@needs_c
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", range(len(OH_VARIANTS)), ids=[json.dumps(r) for r in OH_VARIANTS])
def test_oh_hell_whole_records(variant: int, players: int) -> None:
    """Simulated games of every variant for 3 to 7 players, as decoded and as pydantic models, with and
    without the hands, with the tricks' winners and the tricks taken recorded or not: one C call takes
    each whole record, and the verdict (judged hands included) is the Python engine's."""
    for n, rec in enumerate(oh_games(variant, players, 4000 + 10 * variant + players, 3)):
        if n == 1:
            without_hands(rec)
        if n == 2:
            for deal in rec["deals"]:
                deal["taken"] = [0] * players
                for trick in deal["tricks"]:
                    trick["winner"] = oh_winner(trick, deal.get("turnup"), players)
                    deal["taken"][trick["winner"]] += 1
        whole, counting = three(rec)
        assert (counting.records_took, counting.records_declined, counting.took) == (1, 0, 0)
        assert whole.diagnostics == [] and whole.judged is not None and len(whole.judged) == len(rec["deals"])
        _, counting = three(RECORD_ADAPTER.validate_python(rec))  # read by getattr: not a wire struct
        assert (counting.records_took, counting.records_declined) == (1, 0)


@needs_c
@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*oh-hell*.json")), ids=lambda p: p.name)
def test_oh_hell_samples_whole(path: Path) -> None:
    """Every Oh Hell sample: the same verdict on every path; the C call takes those with every hand played
    and no rulings, and declines the score sheets and those with rulings."""
    rec = json.loads(path.read_text(encoding="utf-8"))
    _, counting = three(rec)
    clean = all(deal.get("tricks") and not deal.get("rulings") for deal in rec["deals"])
    assert counting.records_took == clean


def rescore(rec: Json) -> Json:
    """Each hand's points and the running totals as the rules give them, and the result: what a record
    whose bids were changed must say to be right but for the change."""
    rules = OhHellRules.model_validate(rec["rules"])
    n = len(rec["players"])
    totals = [0] * n
    for deal in rec["deals"]:
        taken = [0] * n
        for trick in deal["tricks"]:
            taken[oh_winner(trick, deal.get("turnup"), n)] += 1
        points = [
            hand_score(bid, took, len(deal["tricks"]), rules.miss, rules.zero_bid)
            for bid, took in zip(deal["bids"], taken, strict=True)
        ]
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        deal["score"] = {"points": points, "total": totals}
    rec["result"] = {"status": "finished", "winner": [s for s in range(n) if totals[s] == max(totals)], "total": totals}
    return rec


def _hook(rec: Json, d: int) -> bool:
    deal = rec["deals"][d]
    dealer, size = deal["dealer"], len(deal["tricks"])
    forbidden = size - (sum(deal["bids"]) - deal["bids"][dealer])
    if not 0 <= forbidden <= size:
        return False
    deal["bids"][dealer] = forbidden
    rescore(rec)
    return True


def _bid_high(rec: Json, d: int) -> bool:
    deal = rec["deals"][d]
    deal["bids"][1] = len(deal["tricks"]) + 1
    rescore(rec)
    return True


def _sheet(rec: Json, d: int) -> bool:
    deal = rec["deals"][d]
    n = len(rec["players"])
    deal["taken"] = [0] * n
    for trick in deal.pop("tricks"):
        deal["taken"][oh_winner(trick, deal.get("turnup"), n)] += 1
    deal["tricks"] = []
    deal.pop("hands", None)
    return True


def _ruling(ruling: Json) -> Callable[[Json, int], bool]:
    def put(rec: Json, d: int) -> bool:
        rec["phatlog"] = "1.1"
        rec["deals"][d]["rulings"] = [ruling]
        return True

    return put


def _misdeal(rec: Json, d: int) -> bool:
    rec["phatlog"] = "1.1"
    rec["deals"].insert(d, {"dealer": rec["deals"][d]["dealer"], "rulings": [{"kind": "misdeal"}]})
    return True


def _cut_short(rec: Json, d: int) -> bool:
    del rec["deals"][d + 1 :]
    del rec["deals"][d]["tricks"][1:]
    rec["result"] = {"status": "unfinished"}
    return len(rec["deals"][d]["hands"][0]) > 1


def _set(path: str, change: Callable[[Any], Any]) -> Callable[[Json, int], bool]:
    """Change the value at ``path`` of the hand (keys, ``.`` between them); the last one is removed where
    ``change`` gives None."""

    def put(rec: Json, d: int) -> bool:
        where: Any = rec["deals"][d]
        *above, last = path.split(".")
        for key in above:
            where = where[key]
        changed = change(where[last])
        if changed is None:
            del where[last]
        else:
            where[last] = changed
        return True

    return put


def _wrong_dealer(rec: Json, d: int) -> bool:
    rec["deals"][d]["dealer"] = (rec["deals"][d]["dealer"] + 2) % len(rec["players"])
    return True


def _taken_wrong(rec: Json, d: int) -> bool:
    deal = rec["deals"][d]
    deal["taken"] = [len(deal["tricks"])] + [0] * (len(rec["players"]) - 1)
    return True


def _too_many(rec: Json, d: int) -> bool:
    rec["deals"].append(json.loads(json.dumps(rec["deals"][-1])))
    return True


def _no_trump_turned_up(rec: Json, d: int) -> bool:
    last = rec["deals"][-1]
    if "turnup" in last:  # (no_trump: never)
        return False
    played = {c for trick in last["tricks"] for c in trick["cards"]}
    left = [c for c in CARDS if c not in played]  # (none where the whole pack is dealt)
    if left:
        last["turnup"] = left[0]
    return bool(left)


def _no_turnup(rec: Json, d: int) -> bool:
    return rec["deals"][d].pop("turnup", None) is not None


def _result(result: Json | None, drop_last: bool = False) -> Callable[[Json, int], bool]:
    def put(rec: Json, d: int) -> bool:
        rec.pop("result")
        if result is not None:
            rec["result"] = result
        if drop_last:
            rec["deals"].pop()
        return True

    return put


#: Each point where the whole-record call must decline (True) or may take the record (False): the change
#: made to hand ``d`` of a clean record (False: no place for it), and the code the verdict must hold (None:
#: none, the record being right).
OH_DECLINES: Final[dict[str, tuple[Callable[[Json, int], bool], bool, str | None]]] = {
    "points changed": (_set("score.points", lambda p: [p[0] + 1, *p[1:]]), True, "PL401"),
    "total changed": (_set("score.total", lambda t: [*t[:-1], t[-1] - 1]), True, "PL402"),
    "score missing": (_set("score", lambda s: None), True, None),
    "points missing": (_set("score.points", lambda p: None), True, None),
    "total missing": (_set("score.total", lambda p: None), True, None),
    "hook broken": (_hook, True, "PL208"),
    "bid too high": (_bid_high, True, "PL208"),
    "bids missing": (_set("bids", lambda b: None), True, "PL406"),
    "taken wrong": (_taken_wrong, True, "PL209"),
    "misdeal": (_misdeal, True, None),
    "adjustment of 0": (_ruling({"kind": "adjustment", "side": 0, "points": 0}), True, None),
    "score sheet": (_sheet, True, "PL406"),
    "wrong dealer": (_wrong_dealer, True, "PL202"),
    "too many hands": (_too_many, True, "PL308"),
    "turned up in a no-trump hand": (_no_trump_turned_up, True, "PL206"),
    "no turned-up card": (_no_turnup, True, "PL206"),
    "cut short, unfinished": (_cut_short, True, "PL406"),
    "a wrong result": (_result({"status": "finished", "winner": [0, 1]}), False, "PL403"),
    "no result": (_result(None), False, None),
    "unfinished": (_result({"status": "unfinished"}, drop_last=True), False, None),
    "unfinished, but complete": (_result({"status": "unfinished"}), False, "PL403"),
}


@needs_c
@pytest.mark.parametrize("kind", OH_DECLINES)
def test_oh_hell_whole_record_declines(kind: str) -> None:
    """Each thing the whole-record call must not judge itself (a score changed or missing, a bid the
    variant forbids, a ruling or a misdeal, a score sheet, a wrong dealer, more hands than the schedule,
    ...): it declines, and every path gives the Python engine's verdict, with the finding. The result and
    the end of the game are Python's in any case: those the call takes."""
    change, declines, code = OH_DECLINES[kind]
    tried = 0
    for variant, players in ((3, 3), (0, 4), (5, 7), (4, 5), (2, 6)):  # (3: the hook; 2: no_trump never)
        if kind == "hook broken" and variant != 3:
            continue
        rec = oh_clean(variant, players, players)
        if not change(rec, 1):
            continue
        tried += 1
        verdict, counting = three(rec)
        assert (counting.records_declined, counting.records_took) == ((1, 0) if declines else (0, 1)), kind
        codes = [x.code for x in verdict.diagnostics]
        assert (code in codes) if code is not None else codes == [], (kind, verdict.diagnostics)
    assert tried


@needs_c
def test_oh_hell_whole_record_junk() -> None:
    """``oh_hell_record`` declines (None) anything but the common shape and never crashes; its parameters
    must be what ``oh_hell._plan`` makes (ValueError); objects other than the wire structs are read by
    getattr, and the field cache follows the type met."""
    assert built is not None
    rec = oh_clean(0, 5)
    record = parse(rec)
    params = oh_hell_driver.make(record)._plan.whole
    assert params is not None
    done = built.oh_hell_record(record.deals, params)
    assert done is not None and done[0] == rec["result"]["total"]

    def spaced(value: Any) -> Any:  # the record as plain objects (no slots, no wire structs)
        if isinstance(value, dict):
            return SimpleNamespace(**{k: spaced(v) for k, v in value.items()})
        return [spaced(v) for v in value] if isinstance(value, list) else value

    plain = [spaced({"rulings": None, "hands": None, "turnup": None, "taken": None, **d}) for d in rec["deals"]]
    for deal in plain:
        for trick in deal.tricks:
            trick.winner = None
    for _ in range(2):  # the cache switches type, and back
        assert built.oh_hell_record(plain, params) == done
        assert built.oh_hell_record(record.deals, params) == done
        assert built.oh_hell_record(tuple(record.deals), params) == done
    assert built.oh_hell_record([], params) == ([0] * 5, [])

    class Raising:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError(name)

    first = spaced(rec["deals"][0])
    junks: list[Any] = [
        None,
        "deals",
        7,
        [object()],
        [Raising()],
        [*record.deals, record.deals[-1]],  # more hands than the schedule
        [SimpleNamespace(**{**vars(first), "dealer": 9})],
        [SimpleNamespace(**{**vars(first), "rulings": ["x"]})],
        [SimpleNamespace(**{**vars(first), "bids": "xx"})],
        [SimpleNamespace(**{**vars(first), "bids": [0, 0, 0, 0, 2**70]})],
        [SimpleNamespace(**{**vars(first), "tricks": [Raising()]})],
        [SimpleNamespace(**{**vars(first), "tricks": None})],
        [SimpleNamespace(**{**vars(first), "hands": [["2C"]] * 5})],
        [SimpleNamespace(**{**vars(first), "turnup": 3})],
        [SimpleNamespace(**{**vars(first), "taken": [1, 0, 0, 0, True]})],
        [SimpleNamespace(**{**vars(first), "score": SimpleNamespace(points=None, total=None)})],
        [SimpleNamespace(**{k: v for k, v in vars(first).items() if k != "rulings"})],  # missing: declined
    ]
    for junk in junks:
        assert built.oh_hell_record(junk, params) is None

    class Slotted:  # a trick kept in slots (member descriptors), as the wire structs keep theirs
        __slots__ = ("cards", "leader", "winner")

        def __init__(self, trick: Any) -> None:
            self.leader, self.cards, self.winner = trick.leader, trick.cards, trick.winner

    slotted = [SimpleNamespace(**{**vars(d), "tricks": [Slotted(t) for t in d.tricks]}) for d in plain]
    assert built.oh_hell_record(slotted, params) == done
    setattr(Slotted, "winner", property(lambda self: 99))  # noqa: B010 (mypy: a slot is no class variable)
    assert built.oh_hell_record(slotted, params) is None  # the type changed: its slots are looked up again

    class Clearing:
        """An object whose reading empties the list it is in: what the call must survive."""

        def __init__(self, within: list[Any], inner: Any) -> None:
            self.within, self.inner = within, inner

        def __getattr__(self, name: str) -> Any:
            self.within.clear()
            return getattr(self.inner, name)

    deals: list[Any] = list(plain)
    deals[0] = Clearing(deals, plain[0])
    assert built.oh_hell_record(deals, params) is None and deals == []
    deals = list(plain)
    tricks: list[Any] = list(plain[3].tricks)
    tricks[1] = Clearing(tricks, tricks[1])
    deals[3] = SimpleNamespace(**{**vars(plain[3]), "tricks": tricks})
    assert built.oh_hell_record(deals, params) is None and tricks == []
    for bad in junk_tables(params):
        with pytest.raises(ValueError):
            built.oh_hell_record(record.deals, bad)
    with pytest.raises(ValueError):
        built.oh_hell_record(record.deals, "params")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        built.oh_hell_record(record.deals)  # type: ignore[call-arg]


def test_oh_hell_plans_are_made_once_for_equal_rules() -> None:
    """A referee's plan (hand sizes, rules check, the C call's parameters) is shared by records with equal
    rules and players, also where the rules cannot be hashed (a list schedule, a pydantic model), and
    ``check_rules`` still gives each caller its own list."""
    rec = oh_clean(4, 3)  # a list schedule
    one, two = parse(rec), parse(rec)
    assert one.rules is not two.rules
    assert oh_hell_driver.make(one)._plan is oh_hell_driver.make(two)._plan
    hashable = oh_clean(0, 3)
    assert oh_hell_driver.make(parse(hashable))._plan is oh_hell_driver.make(parse(hashable))._plan
    model: Any = RECORD_ADAPTER.validate_python(hashable)
    again: Any = RECORD_ADAPTER.validate_python(hashable)
    assert oh_hell_driver.make(model)._plan is oh_hell_driver.make(again)._plan
    assert oh_hell_driver.make(model)._plan.sizes == list(range(1, 16))
    assert oh_hell_driver.make(parse(oh_clean(0, 4)))._plan.sizes == list(range(1, 14))  # players count too
    bad = parse({**hashable, "rules": {"hook": True, "bidding": "simultaneous"}})
    referee_ = oh_hell_driver.make(bad)
    found = referee_.check_rules()
    assert [x.code for x in found] == ["PL601"] and referee_._plan.whole is None
    found.clear()
    assert [x.code for x in referee_.check_rules()] == ["PL601"]
    assert referee(bad).refused


def pitch_rules(game: str, rules: dict[str, Any]) -> Any:
    models: dict[str, type[BaseModel]] = {
        "phat": PhatRules,
        "nine_card_don": NineCardDonRules,
        "irish_don": IrishDonRules,
    }
    return models[game].model_validate(rules)
