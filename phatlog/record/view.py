"""How the engine reads a record: read-only Protocols for every part of one that it reads.

The engine reads records by attribute, so that it runs the same on the fast path's msgspec structs and
on the pydantic models: both have the models' field names. Cards are canonical card strings there; the
schema has already made sure of that. The one thing the two differ in is the game: a model has a
``game`` field, while a fast-path struct carries it as its union tag (``game_of`` reads either), so no
Protocol below names ``game``.

The Protocols say what the engine reads, with the types the schema gives (cards ``str``, lists
``Sequence``, choices ``Literal``), as read-only properties so that a model's ``list[...]`` field meets a
``Sequence[...]`` member. The pydantic models (``phatlog.record.model``) satisfy them, which mypy checks
(tests/test_records_typing.py); the wire structs are compiled from the same schema at run time, which a
test checks field by field (tests/test_records.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from phatlog.rules.oh_hell import Bidding, Miss, NoTrump, Schedule, ZeroBid

# --------------------------------------------------------------------------- choices (as the schema gives them)

PegOut: TypeAlias = Literal["immediate", "end_of_deal"]
MuckTie: TypeAlias = Literal["none", "carry", "both"]
DonBonus: TypeAlias = Literal["game_8", "six_high_jack", "five_high_low_jack"]
LowTo: TypeAlias = Literal["holder", "capturer"]
Follow: TypeAlias = Literal["must_follow", "follow_or_trump"]
Status: TypeAlias = Literal["finished", "unfinished", "conceded", "forfeited", "abandoned"]

# --------------------------------------------------------------------------- the parts of a record


class PlayerView(Protocol):
    """A player: the engine reads the name (for diagnostics) and the id (one player in one seat, PL210)."""

    @property
    def name(self) -> str: ...
    @property
    def id(self) -> str | None: ...


class TrickView(Protocol):
    """A trick of any game: the leader's seat, the cards in play order, the recorded winner (if any)."""

    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> Sequence[str]: ...
    @property
    def winner(self) -> int | None: ...


class ScoreView(Protocol):
    """A deal's recorded score: its points and the running totals, by side (each may be left out)."""

    @property
    def points(self) -> Sequence[int] | None: ...
    @property
    def total(self) -> Sequence[int] | None: ...


class ResultView(Protocol):
    """How the game ended, as recorded."""

    @property
    def status(self) -> Status: ...
    @property
    def by(self) -> int | None: ...
    @property
    def winner(self) -> Sequence[int] | None: ...
    @property
    def total(self) -> Sequence[int] | None: ...


class PitchDealView(Protocol):
    """A deal of the All Fours family (Phat, Irish Don; Nine-card Don adds ``undealt``)."""

    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[str]] | None: ...
    @property
    def tricks(self) -> Sequence[TrickView] | None: ...
    @property
    def score(self) -> ScoreView | None: ...


class NineCardDonDealView(PitchDealView, Protocol):
    """A deal of Nine-card Don: the 16 cards left undealt may be listed."""

    @property
    def undealt(self) -> Sequence[str] | None: ...


class OhHellDealView(Protocol):
    """A hand of Oh Hell."""

    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[str]] | None: ...
    @property
    def turnup(self) -> str | None: ...
    @property
    def bids(self) -> Sequence[int] | None: ...
    @property
    def tricks(self) -> Sequence[TrickView] | None: ...
    @property
    def taken(self) -> Sequence[int] | None: ...
    @property
    def score(self) -> ScoreView | None: ...


#: A deal of any game: what the parts shared by both families (``deal_check``) read.
AnyDealView: TypeAlias = PitchDealView | OhHellDealView

# --------------------------------------------------------------------------- rules


class PitchRulesView(Protocol):
    """What every game of the All Fours family's rules hold (all of Irish Don's)."""

    @property
    def target(self) -> int: ...
    @property
    def peg_out(self) -> PegOut: ...


class PhatRulesView(PitchRulesView, Protocol):
    """Phat's rules."""

    @property
    def muck_tie(self) -> MuckTie: ...


class NineCardDonRulesView(PitchRulesView, Protocol):
    """Nine-card Don's rules."""

    @property
    def bonus(self) -> DonBonus: ...
    @property
    def low_to(self) -> LowTo | None: ...
    @property
    def follow(self) -> Follow: ...


#: Irish Don's rules are the family's: a target and when the game ends.
IrishDonRulesView: TypeAlias = PitchRulesView


class OhHellRulesView(Protocol):
    """Oh Hell's rules."""

    @property
    def schedule(self) -> Schedule | Sequence[int]: ...
    @property
    def max_cards(self) -> int | None: ...
    @property
    def no_trump(self) -> NoTrump: ...
    @property
    def bidding(self) -> Bidding: ...
    @property
    def hook(self) -> bool: ...
    @property
    def must_trump(self) -> bool: ...
    @property
    def miss(self) -> Miss: ...
    @property
    def zero_bid(self) -> ZeroBid: ...


# --------------------------------------------------------------------------- records

R_co = TypeVar("R_co", covariant=True)
D_co = TypeVar("D_co", covariant=True)


class RecordView(Protocol[R_co, D_co]):
    """A record whose rules are ``R_co`` and whose deals are ``D_co``: what every referee reads."""

    @property
    def players(self) -> Sequence[PlayerView]: ...
    @property
    def rules(self) -> R_co: ...
    @property
    def deals(self) -> Sequence[D_co]: ...
    @property
    def result(self) -> ResultView | None: ...


CutView: TypeAlias = Sequence[Sequence[str | None]]
"""A recorded cut for the first pitcher: rounds, each by seat (None: that player did not cut)."""


class PhatRecordView(RecordView[PhatRulesView, PitchDealView], Protocol):
    """A record of Phat."""

    @property
    def cut(self) -> CutView | None: ...


class NineCardDonRecordView(RecordView[NineCardDonRulesView, NineCardDonDealView], Protocol):
    """A record of Nine-card Don."""

    @property
    def cut(self) -> CutView | None: ...


#: A record of Irish Don (no cut: the first pitcher holds the two of diamonds).
IrishDonRecordView: TypeAlias = RecordView[IrishDonRulesView, PitchDealView]
#: A record of the All Fours family, as the shared referee reads it (the cut, where a game has one, is
#: read with ``getattr``).
PitchRecordView: TypeAlias = RecordView[PitchRulesView, PitchDealView]
#: A record of Oh Hell.
OhHellRecordView: TypeAlias = RecordView[OhHellRulesView, OhHellDealView]

#: A record of any game. ``Any`` for its rules and deals: which Protocols they meet follows from the game,
#: known only at run time (``game_of``), and the referee dispatches on it (``referee.RULES_MODULES``).
AnyRecordView: TypeAlias = RecordView[Any, Any]


def game_of(record: object) -> str:
    """The game of a record: a model's ``game`` field, or a fast-path struct's union tag."""
    game = getattr(record, "game", None)
    if isinstance(game, str):
        return game
    tag: str = getattr(type(record), "__struct_config__").tag  # noqa: B009 (a msgspec struct's class attribute)
    return tag
