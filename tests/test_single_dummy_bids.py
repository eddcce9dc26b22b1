"""Oh Hell's bids as soft evidence in single-dummy analysis (off by default): the bidding model, the
weights it gives layouts, and ``analyse --single-dummy --bids``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import phatlog
from phatlog.analysis.single_dummy import single_dummy
from phatlog.analysis.views import bid_likelihood, expected_tricks, layouts, view_of
from phatlog.cli.app import app
from phatlog.rules.cards import Card

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def test_a_hand_is_expected_to_take_its_trumps_and_its_side_aces() -> None:
    """The model: the top trumps take most of their tricks, a side ace most of one, a long side suit's
    lower honours nothing (they are ruffed)."""
    assert expected_tricks(_cards("AS KS QS"), trump=3) == 0.95 + 0.85 + 0.7
    assert expected_tricks(_cards("AH 2C"), trump=3) == 0.85
    assert expected_tricks(_cards("KH QH JH TH"), trump=3) == 0.0  # four hearts: no honour counted
    assert expected_tricks(_cards("KH 2H"), trump=None) == 0.55


def _position() -> phatlog.State:
    """Oh Hell, 3 players, 4 cards each, spades trump (the 5S turned up): Ann leads with nothing; Ben bid
    3, Cal 0. Ann cannot see where the AS, KS and QS lie."""
    hands = [["2C", "3C", "4D", "5D"], ["AS", "KS", "QS", "6H"], ["2D", "3D", "4H", "5H"]]
    rules = {"schedule": [4, 4], "no_trump": "never", "hook": False}
    return phatlog.start(
        "oh_hell", players=3, rules=rules, seed=None, dealer=2, hands=hands, turnup="5S", played=[0, 3, 0]
    )


def test_the_bids_weigh_the_layouts_that_fit_them() -> None:
    """Ben bid 3 of 4 and Cal 0: layouts that give Ben the top trumps make those bids likelier than those
    that give them to Cal (or leave them in the pack), so with the bids the weight on Ben holding the AS
    doubles, and on Cal holding it halves (the pack below the turn-up hides most of the unseen cards)."""
    state = _position()
    view = view_of(state)
    assert view.seat == 0
    drawn = layouts(view, 400, seed=5)
    weights = [bid_likelihood(state, lay, 0) for lay in drawn]
    ace = Card.parse("AS")

    def share(seat: int, weighed: bool) -> float:
        w = weights if weighed else [1.0] * len(drawn)
        return sum(x for x, lay in zip(w, drawn, strict=True) if ace in lay[seat]) / sum(w)

    assert share(1, False) < 0.15 and share(2, False) < 0.15  # 4 of the 39 unseen cards each
    assert share(1, True) > 2 * share(1, False) and share(2, True) < share(2, False) / 2
    assert bid_likelihood(state, {1: frozenset(_cards("AS KS QS 6H")), 2: frozenset(_cards("2D 3D 4H 5H"))}, 0) > (
        bid_likelihood(state, {2: frozenset(_cards("AS KS QS 6H")), 1: frozenset(_cards("2D 3D 4H 5H"))}, 0)
    )


def test_off_by_default_and_the_same_figures_without_bids_to_read() -> None:
    state = _position()
    plain = single_dummy(state, samples=30, seed=2)
    assert single_dummy(state, samples=30, seed=2, bids=False) == plain
    with_bids = single_dummy(state, samples=30, seed=2, bids=True)
    assert with_bids.samples == plain.samples and set(with_bids.cards) == set(plain.cards)
    phat = phatlog.start("phat", seed=4)
    for _ in range(30):
        phat.apply(phat.legal_actions()[0])
    assert single_dummy(phat, samples=5, seed=1, bids=True) == single_dummy(phat, samples=5, seed=1)


def test_analyse_takes_the_bids_on_request() -> None:
    sample = str(ROOT / "samples" / "games" / "oh-hell-default-3p.json")
    args = ["analyse", sample, "--single-dummy", "--samples", "8", "--deal", "4", "-f", "json"]
    plain = runner.invoke(app, args)
    weighed = runner.invoke(app, [*args, "--bids"])
    assert plain.exit_code == 0 and weighed.exit_code == 0, weighed.output
    a, b = json.loads(plain.stdout), json.loads(weighed.stdout)
    assert [d["card"] for d in a["decisions"]] == [d["card"] for d in b["decisions"]]
    assert [d["cards"] for d in a["decisions"]] != [d["cards"] for d in b["decisions"]]
