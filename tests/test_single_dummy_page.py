"""``replay --analyse --single-dummy`` in the HTML page, in a real browser: the step's words give a card's
cost with every hand seen beside its cost on what its player knew (fixtures of ``test_html_browser``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_html_browser import browser_page, open_page  # noqa: F401 - the fixtures, shared

from phatlog.analysis.single_dummy import SingleDummyAsk
from phatlog.record.reader import read_path
from phatlog.report import build, html
from phatlog.report.marks import analyse_summary

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.deep
def test_the_page_says_both_costs_of_a_card_best_only_with_every_hand_seen(open_page: Any) -> None:  # noqa: F811
    """B.6.3, trick 5: E's 9H was best double dummy, but clearly worse on what E knew."""
    loaded = read_path(ROOT / "samples/games/nine-card-don-worked-6-3.json")
    summary = build(loaded)
    analyse_summary(summary, loaded, from_trick=5, single_dummy=SingleDummyAsk(2, 3))
    page = open_page(html.render(summary))
    for _ in range(4 * 4 + 2):  # to E's card of trick 5
        page.page.keyboard.press("ArrowRight")
    info = page.page.inner_text("#info")
    assert "E played 9" in info and "with every hand seen" in info and "on what E knew" in info, info
    assert page.console == []
