"""The referee: replay a checked record through its game's rules module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.view import AnyRecordView, game_of
from phatlog.referee import claim_budget, irish_don, nine_card_don, oh_hell_driver, phat
from phatlog.referee.all_fours import AllFours
from phatlog.referee.claim_budget import begin_record
from phatlog.referee.pitch import AllFoursReferee, Findings

if TYPE_CHECKING:
    from phatlog.engine.state import Visitor


class Referee(Protocol):
    """What every game's referee offers. It takes a record of its own game: ``AnyRecordView`` leaves the
    rules and the deals open, as the game a record is of is known only at run time."""

    def referee(self, record: AnyRecordView, visitor: Visitor | None = None) -> Findings: ...

    def check_rules(self) -> list[Diagnostic]: ...


#: The rules module of each game: given a record of that game, the referee for it.
RULES_MODULES: Final[dict[str, Callable[[AnyRecordView], Referee]]] = {
    "phat": phat.make,
    "nine_card_don": nine_card_don.make,
    "irish_don": irish_don.make,
    "oh_hell": oh_hell_driver.make,
}


#: The referee of each game of the All Fours family.
ALL_FOURS: Final[dict[str, type[AllFoursReferee]]] = {
    "phat": phat.PhatReferee,
    "nine_card_don": nine_card_don.NineCardDonReferee,
    "irish_don": irish_don.IrishDonReferee,
}


def referee(record: AnyRecordView, visitor: Visitor | None = None) -> Findings:
    """Replay a record and return every problem found, with the engine's scores.

    ``visitor`` hears the events of every deal the referee judges, in order (``engine.state``'s events):
    ``DealBegins`` (its ``hands`` None where the record's are not a proper deal; Oh Hell: the trump, or why
    there is none), ``BidMade``, ``TrickWon`` (``totals`` None where the running totals are not known),
    ``TrickShown`` for the tricks from an illegal play on, ``Pegged``, ``DealScored`` (``passed_over``: the
    points taken as recorded; ``given_up``: the play went wrong), ``GameOver``. A deal after the end of the
    game, or every deal where the rules cannot be applied (``Findings.refused``), has no events. With a
    visitor every deal is replayed by the Python engine (the C kernel tells no events)."""
    claim_budget.SPENT.record = 0  # the claim audits' account for this record (``begin_record``)
    kind = type(record)
    make = _BY_TYPE.get(kind)
    if make is None:
        game = game_of(record)
        make = RULES_MODULES.get(game)
        if make is None:
            names = [p.name for p in record.players]
            found = diag("PL602", f"this phatlog cannot referee {game} yet: only its structure was checked", "/game")
            return Findings([found.located(names)], len(record.deals), None, None, None)
        if not isinstance(getattr(record, "game", None), str):
            _BY_TYPE[kind] = make  # the game is the type's (a fast-path struct's union tag)
    findings = make(record).referee(record, visitor)
    _check_seats(record, findings)
    return findings


def _check_seats(record: AnyRecordView, findings: Findings) -> None:
    """Add PL210 (``seated_twice``) to a verdict, looked for only where a player has an id (most records
    give none, and this runs on every record of an archive)."""
    for player in record.players:
        if player.id:
            seated = seated_twice(record.players)
            if seated:
                findings.diagnostics.extend(d.located([p.name for p in record.players]) for d in seated)
            return


def referee_told(
    record: AnyRecordView, deals_out: bytearray, tricks_out: bytearray
) -> tuple[Findings, AllFoursReferee] | None:
    """A record of the All Fours family whose every deal is clean, refereed by one C call that also tells
    what the engine decided (``AllFours.referee_told``): the verdict ``referee`` gives, and the game's
    referee (its rules, for reading what was told). None, nothing told, for anything else (Oh Hell, a
    record the kernel declines, no kernel built): ``referee`` with a listener then does the record."""
    make = RULES_MODULES.get(game_of(record)) if game_of(record) in ALL_FOURS else None
    if make is None:
        return None
    game = make(record)
    if not isinstance(game, AllFours):
        return None
    begin_record()
    findings = game.referee_told(record, deals_out, tricks_out)
    if findings is None:
        return None
    _check_seats(record, findings)
    return findings, game


def seated_twice(players: Sequence[Any]) -> list[Diagnostic]:
    """PL210 for a player id that a record gives to more than one seat: one person sits in one seat, and
    standings and statistics count them once a game."""
    given = [p.id for p in players if p.id]  # (every record view's player has an ``id``, mostly None)
    if len(given) < 2 or len(set(given)) == len(given):
        return []
    ids = [p.id for p in players]
    out = []
    for seat, pid in enumerate(ids):
        first = ids.index(pid)
        if pid and first != seat:
            out.append(
                diag(
                    "PL210",
                    f"the player id {pid!r} of seat {seat} is also seat {first}'s: one player sits in one seat "
                    "(standings and statistics count them once)",
                    f"/players/{seat}/id",
                )
            )
    return out


#: The rules module of each type of record whose type tells its game (a fast-path struct: the game is its
#: union tag, not a field), found once (``game_of`` looks for a ``game`` field first, which costs).
_BY_TYPE: dict[type, Callable[[AnyRecordView], Referee]] = {}
