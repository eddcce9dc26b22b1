"""The pydantic models satisfy the engine's record Protocols (``phatlog.record.view``): mypy checks the
assignments below (``make lint``), and running them checks that every attribute a Protocol names exists."""

from __future__ import annotations

from phatlog.record import model, view


def test_models_meet_the_protocols() -> None:
    players = [model.Player(name=n) for n in "ABCD"]
    deal = model.PhatDeal(dealer=0, score=model.Score2(points=[88, 0], total=[88, 0]))
    trick = model.Trick4(leader=1, cards=["9S", "5S", "AS", "KS"])
    nine_deal = model.NineCardDonDeal(dealer=0)
    oh_deal = model.OhHellDeal(dealer=0, turnup="2C", bids=[0, 1, 0], taken=[0, 1, 0])
    oh_trick = model.Trick(leader=0, cards=["2H", "3H", "4H"])
    result = model.Result(status="finished", winner=[0], total=[181, 20])

    cut_round: list[str | None] = ["2C", "3C", None, "4C"]
    phat = model.PhatRecord(phatlog="1.0", game="phat", players=players, deals=[deal], cut=[cut_round])
    p: view.PhatRecordView = phat
    n: view.NineCardDonRecordView = model.NineCardDonRecord(
        phatlog="1.0", game="nine_card_don", players=players, deals=[nine_deal]
    )
    i: view.IrishDonRecordView = model.IrishDonRecord(phatlog="1.0", game="irish_don", players=players, deals=[deal])
    o: view.OhHellRecordView = model.OhHellRecord(phatlog="1.0", game="oh_hell", players=players[:3], deals=[oh_deal])
    family: list[view.PitchRecordView] = [p, n, i]
    anything: list[view.AnyRecordView] = [p, n, i, o]
    deals: list[view.PitchDealView] = [deal, nine_deal]
    nd: view.NineCardDonDealView = nine_deal
    od: view.OhHellDealView = oh_deal
    any_deals: list[view.AnyDealView] = [deal, nine_deal, oh_deal]
    tricks: list[view.TrickView] = [trick, oh_trick]
    score: view.ScoreView | None = deal.score
    res: view.ResultView = result
    rules: list[view.PitchRulesView] = [model.PhatRules(), model.NineCardDonRules(), model.IrishDonRules()]
    phat_rules: view.PhatRulesView = model.PhatRules()
    don_rules: view.NineCardDonRulesView = model.NineCardDonRules(bonus="five_high_low_jack", low_to="capturer")
    oh_rules: view.OhHellRulesView = model.OhHellRules(schedule=[1, 2, 1])
    player: view.PlayerView = phat.players[0]
    cut: view.CutView | None = phat.cut

    # Every member each Protocol names is there to read.
    assert (p.rules.target, p.rules.peg_out, p.rules.muck_tie, p.result) == (181, "immediate", "none", None)
    assert [view.game_of(r) for r in anything] == ["phat", "nine_card_don", "irish_don", "oh_hell"]
    assert len(family) == 3 and [d.dealer for d in deals] == [0, 0] and [d.dealer for d in any_deals] == [0, 0, 0]
    assert (nd.undealt, nd.hands, nd.tricks, nd.score) == (None, None, None, None)
    assert (od.turnup, od.bids, od.taken, od.hands, od.tricks, od.score) == (
        "2C",
        [0, 1, 0],
        [0, 1, 0],
        None,
        None,
        None,
    )
    assert [(t.leader, list(t.cards), t.winner) for t in tricks] == [
        (1, ["9S", "5S", "AS", "KS"], None),
        (0, ["2H", "3H", "4H"], None),
    ]
    assert score is not None and (score.points, score.total) == ([88, 0], [88, 0])
    assert (res.status, res.winner, res.total) == ("finished", [0], [181, 20])
    assert [(r.target, r.peg_out) for r in rules] == [(181, "immediate"), (121, "immediate"), (81, "immediate")]
    assert phat_rules.muck_tie == "none" and (don_rules.bonus, don_rules.low_to, don_rules.follow) == (
        "five_high_low_jack",
        "capturer",
        "must_follow",
    )
    assert (oh_rules.schedule, oh_rules.max_cards, oh_rules.no_trump, oh_rules.bidding) == (
        [1, 2, 1],
        None,
        "last_hand",
        "sequential",
    )
    assert (oh_rules.hook, oh_rules.must_trump, oh_rules.miss, oh_rules.zero_bid) == (False, False, "zero", "standard")
    assert player.name == "A" and cut == [["2C", "3C", None, "4C"]]
    assert (n.rules, i.rules, o.rules) == (model.NineCardDonRules(), model.IrishDonRules(), model.OhHellRules())
