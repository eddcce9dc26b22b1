"""The phatlog record, version 1, as pydantic models: the single source of the published schema.

One JSON document is one game. ``schemas/phatlog-1.1.schema.json`` is generated from these models
(``phatlog schema``) and a test keeps the committed file equal to it. The models hold only declarative
constraints (types, choices, ranges, list lengths) so that the schema says exactly what they check:
everything that needs the rules (who held which card, what a trick scores) is the engine's job.

Integers are JSON integers: ``3`` and ``3.0`` are both the integer three (as JSON Schema says), while
``true`` and ``"3"`` are not integers.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from phatlog.record.constants import FORMAT_VERSION as FORMAT_VERSION  # defined there: no pydantic needed to read it
from phatlog.record.constants import GAMES as GAMES
from phatlog.record.constants import READ_VERSIONS as READ_VERSIONS
from phatlog.record.constants import STATUSES_1_1 as STATUSES_1_1
from phatlog.record.constants import version_for as version_for
from phatlog.rules.cards import CARD_TEXT


def _integral(value: object) -> object:
    """JSON Schema's ``integer`` admits ``3.0``: accept an integral float as that integer."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


CardText: TypeAlias = Literal[CARD_TEXT]  # type: ignore[valid-type]
#: A score (a deal's points, a running total): bounded, so that every notation phatlog reads and writes
#: carries it exactly (their readers take whole numbers up to 2**64 - 1) and no total is absurd.
SCORE_LIMIT: Final = 1_000_000_000
Int: TypeAlias = Annotated[int, Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT), BeforeValidator(_integral)]
Seat4: TypeAlias = Annotated[int, Field(ge=0, le=3), BeforeValidator(_integral)]
Seat: TypeAlias = Annotated[int, Field(ge=0, le=6), BeforeValidator(_integral)]
Target: TypeAlias = Annotated[int, Field(ge=1, le=100000), BeforeValidator(_integral)]
HandSize: TypeAlias = Annotated[int, Field(ge=1, le=17), BeforeValidator(_integral)]
TrickCount: TypeAlias = Annotated[int, Field(ge=0, le=17), BeforeValidator(_integral)]
Extension: TypeAlias = dict[str, Any]

#: Length limits on free text, in characters (Unicode code points, as JSON Schema counts them). Generous
#: for what people write, they bound what a report must lay out; see docs/format.md, "Limits".
NAME_MAX: Final = 200
"""A player's name or id."""
FIELD_MAX: Final = 1000
"""An event field (name, site, date, round, scorer, source) or a result's reason."""
COMMENT_MAX: Final = 10000
"""A comment on the game, a deal or a trick."""
Name: TypeAlias = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
Id: TypeAlias = Annotated[str, Field(max_length=NAME_MAX)]
FieldText: TypeAlias = Annotated[str, Field(max_length=FIELD_MAX)]
Comment: TypeAlias = Annotated[str, Field(max_length=COMMENT_MAX)]


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, regex_engine="python-re", use_attribute_docstrings=True
    )


# --------------------------------------------------------------------------- metadata


class Event(_Model):
    """Where and when the game was played, in the spirit of PGN's Seven Tag Roster. Free text."""

    name: FieldText | None = None
    """The event or competition, e.g. "Norwich Phat League"."""
    site: FieldText | None = None
    """Where it was played, e.g. "Wherry Inn"."""
    date: FieldText | None = None
    """When it was played; ISO 8601 (2026-11-14) is recommended."""
    round: FieldText | None = None
    """The round or match within the event, e.g. "3"."""
    table: FieldText | None = None
    """Format 1.1: the table the game was played at within its round, e.g. "2". Free text."""
    board: FieldText | None = None
    """Format 1.1: the board (a set of deals played at several tables), where the event has boards. Free text."""
    scorer: FieldText | None = None
    """Who kept the record."""
    source: FieldText | None = None
    """Where the record came from (a program, a score sheet, a transcription)."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


class Player(_Model):
    """A player; the index in ``players`` is the seat, clockwise from 0."""

    name: Name
    """The player's name as it should appear in reports."""
    id: Id | None = None
    """The key that joins this player across records (standings, stats): a membership number, a rating
    list's id, a bot's version. Records without it join players by name."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


# --------------------------------------------------------------------------- rules


PegOut: TypeAlias = Literal["immediate", "end_of_deal"]
RevokePenalty: TypeAlias = Annotated[int, Field(ge=0, le=1000), BeforeValidator(_integral)] | None


class PhatRules(_Model):
    """Variant parameters of Phat (rules reference A.2). Keys left out take these defaults."""

    target: Target = 181
    """Points that win the game: 181, or Parlett's 121."""
    peg_out: PegOut = "immediate"
    """``immediate``: the game ends at the peg that reaches the target, even mid-deal;
    ``end_of_deal``: the target is checked only after the muck, highest total wins, ties play on."""
    muck_tie: Literal["none", "carry", "both"] = "none"
    """A 40-40 muck: ``none`` nobody pegs the 8; ``carry`` the 8 carries to the next deal's muck winner
    (and accumulates); ``both`` each side pegs 8."""
    revoke_penalty: RevokePenalty = None
    """Format 1.1: the points pegged to each opposing side for a revoke that a ruling penalises; null (the
    default): the director decides, any penalty is accepted."""


class NineCardDonRules(_Model):
    """Variant parameters of Nine-card Don (rules reference A.3)."""

    target: Target = 121
    """Points that win the game: 121 or 91."""
    peg_out: PegOut = "immediate"
    """As in Phat."""
    bonus: Literal["game_8", "six_high_jack", "five_high_low_jack"] = "game_8"
    """End-of-deal bonus: 8 for game; 6 game + 1 high + 1 jack; 5 game + 1 high + 1 low + 1 jack."""
    low_to: Literal["holder", "capturer"] | None = None
    """With ``five_high_low_jack`` only: low goes to the side dealt it (default) or that captures it."""
    follow: Literal["must_follow", "follow_or_trump"] = "must_follow"
    """``follow_or_trump``: the old rule, a player may trump even when able to follow suit."""
    revoke_penalty: RevokePenalty = None
    """Format 1.1: the points pegged to each opposing side for a revoke that a ruling penalises; null (the
    default): the director decides, any penalty is accepted."""


class IrishDonRules(_Model):
    """Variant parameters of Irish Don (rules reference A.4)."""

    target: Target = 81
    """Points that win the game ("over 80")."""
    peg_out: PegOut = "immediate"
    """As in Phat."""
    revoke_penalty: RevokePenalty = None
    """Format 1.1: the points pegged to each opposing side for a revoke that a ruling penalises; null (the
    default): the director decides, any penalty is accepted."""


class OhHellRules(_Model):
    """Variant parameters of Oh Hell (rules reference A.5)."""

    schedule: (
        Literal["up", "down", "up_down", "down_up"] | Annotated[list[HandSize], Field(min_length=1, max_length=200)]
    ) = "up"
    """Hand sizes: ``up`` 1..N, ``down`` N..1, ``up_down`` 1..N..1, ``down_up`` N..1..N, or a list."""
    max_cards: HandSize | None = None
    """N, the largest hand; by default 15, 13, 10, 8, 7 for 3 to 7 players."""
    no_trump: Literal["last_hand", "never"] = "last_hand"
    """``last_hand``: the game's last hand is played without trump. A hand that leaves no card to turn
    up is always a no-trump hand."""
    bidding: Literal["sequential", "simultaneous"] = "sequential"
    """Sequential bidding starts at the dealer's left, the dealer last."""
    hook: bool = False
    """The dealer may not bid so that the bids add up to the hand size."""
    must_trump: bool = False
    """La Podrida: a player void in the suit led must trump if able."""
    miss: Literal["zero", "tricks", "minus_diff"] = "zero"
    """A missed bid scores 0, one per trick taken, or minus the difference."""
    zero_bid: Literal["standard", "five_plus_cards"] = "standard"
    """A made zero bid scores 10, or 5 + the hand size."""
    revoke_penalty: RevokePenalty = None
    """Format 1.1: the points pegged to each opposing side for a revoke that a ruling penalises; null (the
    default): the director decides, any penalty is accepted."""


# --------------------------------------------------------------------------- rulings (format 1.1)


class _RulingBase(_Model):
    by: FieldText | None = None
    """Who ruled (the director's name)."""
    comment: Comment | None = None
    """Free text about the ruling."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


class Claim(_RulingBase):
    """After the recorded tricks, a player claims: their side (Oh Hell: they alone) takes ``tricks`` of
    the tricks not played, or all of them (``"rest"``)."""

    kind: Literal["claim"]
    """A claim."""
    seat: Seat
    """The claimer's seat."""
    tricks: TrickCount | Literal["rest"]
    """How many of the remaining tricks the claimer's side takes, or ``"rest"`` for all of them."""
    accepted: bool = True
    """``false``: the claim was contested; ``decision`` then gives the tricks the director awarded."""
    decision: TrickCount | None = None
    """With a contested claim: the tricks of the remaining ones the director awarded the claimer's side."""


class Penalty(_Model):
    """What a penalised revoke pegs: ``points`` to ``side`` (All Fours: side 0 or 1; Oh Hell: a seat)."""

    side: Seat
    """The side (Oh Hell: the seat) that pegs the penalty."""
    points: Int
    """The points pegged."""


class Revoke(_RulingBase):
    """A revoke the director ruled on: it stands as played, and ``penalty`` is pegged at the end of the deal."""

    kind: Literal["revoke"]
    """A revoke."""
    trick: Annotated[int, Field(ge=1, le=17), BeforeValidator(_integral)]
    """The trick the revoke was made in, 1-based as the summaries number them."""
    seat: Seat
    """The seat that revoked."""
    penalty: Annotated[list[Penalty], Field(max_length=7)] | Penalty | None = None
    """What the revoke pegs to the other side(s); none: no penalty."""


class Misdeal(_RulingBase):
    """The deal is void: no tricks, no score; the same dealer deals again."""

    kind: Literal["misdeal"]
    """A misdeal."""


class Adjustment(_RulingBase):
    """Points added to a side's total after the deal's own points (a penalty is negative)."""

    kind: Literal["adjustment"]
    """A score adjustment."""
    side: Seat
    """The side (Oh Hell: the seat) adjusted."""
    points: Int
    """The points added (negative: taken away)."""
    reason: FieldText | None = None
    """Why, e.g. "slow play"."""


Ruling: TypeAlias = Annotated[Claim | Revoke | Misdeal | Adjustment, Field(discriminator="kind")]
Rulings: TypeAlias = Annotated[list[Ruling], Field(min_length=1, max_length=100)]


# --------------------------------------------------------------------------- play


class Trick(_Model):
    """One trick of Oh Hell: who led it, and the cards in play order starting with the leader."""

    leader: Seat
    """The seat that led. Card i was played by seat (leader + i) mod players."""
    cards: Annotated[list[CardText], Field(min_length=1, max_length=7)]
    """The cards in play order, one from each player. Format 1.1: the last trick of a hand with a claim
    may be partly played (fewer cards); any other trick has one card a player (PL207)."""
    winner: Seat | None = None
    """Optional: the seat that won the trick, as recorded. Checked, never trusted."""
    comment: Comment | None = None
    """Free text, e.g. an annotator's remark."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


class Score2(_Model):
    """What the scorer recorded after a deal, by side (side 0 = seats 0 and 2)."""

    points: Annotated[list[Int], Field(min_length=2, max_length=2)] | None = None
    """Points won in this deal, by side."""
    total: Annotated[list[Int], Field(min_length=2, max_length=2)] | None = None
    """Running totals after this deal, by side."""


class ScoreN(_Model):
    """What the scorer recorded after a hand, by player (Oh Hell: every player is a side)."""

    points: Annotated[list[Int], Field(min_length=3, max_length=7)] | None = None
    """Points won in this hand, by seat."""
    total: Annotated[list[Int], Field(min_length=3, max_length=7)] | None = None
    """Running totals after this hand, by seat."""


class Trick4(_Model):
    """One trick of a four-player game: who led it, and the four cards in play order."""

    leader: Seat4
    """The seat that led. Card i was played by seat (leader + i) mod 4."""
    cards: Annotated[list[CardText], Field(min_length=1, max_length=4)]
    """The four cards in play order, starting with the leader's. Format 1.1: the last trick of a deal
    with a claim may be partly played (fewer cards); any other trick has four (PL207)."""
    winner: Seat4 | None = None
    """Optional: the seat that won the trick, as recorded. Checked, never trusted."""
    comment: Comment | None = None
    """Free text, e.g. an annotator's remark."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


Hand13: TypeAlias = Annotated[list[CardText], Field(min_length=13, max_length=13)]
Hand9: TypeAlias = Annotated[list[CardText], Field(min_length=9, max_length=9)]


class _DealBase(_Model):
    dealer: Seat4
    """The dealer's seat. The pitcher, who leads first and so fixes trump, is on the dealer's left."""
    comment: Comment | None = None
    """Free text about the deal."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""
    rulings: Rulings | None = None
    """Format 1.1: the director's rulings on this deal (claims, revokes, a misdeal, adjustments)."""

    def _repr_svg_(self) -> str:
        """The deal as a notebook shows it: the table diagram (``phatlog.record.diagram``)."""
        from phatlog.record.diagram import deal_svg

        return deal_svg(self)


class PhatDeal(_DealBase):
    """One deal of Phat or Irish Don: 13 cards each, all dealt."""

    hands: Annotated[list[Hand13], Field(min_length=4, max_length=4)] | None = None
    """By seat, the 13 cards dealt. If absent, inferred from the tricks when all were played."""
    tricks: Annotated[list[Trick4], Field(max_length=13)] | None = None
    """The tricks in order. A deal without tricks is a score-sheet deal."""
    score: Score2 | None = None
    """The recorded score after this deal. Optional; checked when present."""


class NineCardDonDeal(_DealBase):
    """One deal of Nine-card Don: 9 cards each and 16 undealt."""

    hands: Annotated[list[Hand9], Field(min_length=4, max_length=4)] | None = None
    """By seat, the 9 cards dealt."""
    undealt: Annotated[list[CardText], Field(min_length=16, max_length=16)] | None = None
    """Optional: the 16 cards that were not dealt."""
    tricks: Annotated[list[Trick4], Field(max_length=9)] | None = None
    """The tricks in order."""
    score: Score2 | None = None
    """The recorded score after this deal."""


class OhHellDeal(_Model):
    """One hand of Oh Hell."""

    def _repr_svg_(self) -> str:
        """The hand as a notebook shows it: the table diagram (``phatlog.record.diagram``)."""
        from phatlog.record.diagram import deal_svg

        return deal_svg(self)

    dealer: Seat
    """The dealer's seat; the dealer's left bids first and leads first."""
    hands: (
        Annotated[
            list[Annotated[list[CardText], Field(min_length=1, max_length=17)]],
            Field(min_length=3, max_length=7),
        ]
        | None
    ) = None
    """By seat, the cards dealt."""
    turnup: CardText | None = None
    """The turned-up card that fixes trump; absent or null for a no-trump hand."""
    bids: Annotated[list[TrickCount], Field(min_length=3, max_length=7)] | None = None
    """Bids by seat (not in bidding order)."""
    tricks: Annotated[list[Trick], Field(max_length=17)] | None = None
    """The tricks in order."""
    taken: Annotated[list[TrickCount], Field(min_length=3, max_length=7)] | None = None
    """Score-sheet level: tricks taken by seat, where the tricks are not recorded."""
    score: ScoreN | None = None
    """The recorded score after this hand."""
    comment: Comment | None = None
    """Free text about the hand."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""
    rulings: Rulings | None = None
    """Format 1.1: the director's rulings on this hand (claims, revokes, a misdeal, adjustments)."""


# --------------------------------------------------------------------------- the game


class Result(_Model):
    """How the game ended, as recorded. Checked against the engine when present."""

    status: Literal["finished", "unfinished", "conceded", "forfeited", "abandoned"] = "finished"
    """``unfinished``: the game was stopped before anybody won; the record then need not reach an end.
    Format 1.1: ``conceded`` (by the seat ``by``: that side cannot win), ``forfeited`` (by ``by``, the
    side that forfeited, where known) and ``abandoned`` (nobody wins) end it early too."""
    by: Seat | None = None
    """Format 1.1: with ``conceded`` or ``forfeited``, the seat whose side conceded or forfeited."""
    reason: FieldText | None = None
    """Why an unfinished game stopped (time, a dispute, abandoned)."""
    winner: Annotated[list[Seat], Field(min_length=1, max_length=7)] | None = None
    """The winning side or sides (Oh Hell may share a win)."""
    total: Annotated[list[Int], Field(min_length=2, max_length=7)] | None = None
    """Final totals by side."""


CutRound: TypeAlias = Annotated[list[CardText | None], Field(min_length=4, max_length=4)]


class _RecordBase(_Model):
    phatlog: Literal["1.0", "1.1"]
    """Format version, "MAJOR.MINOR". A reader refuses a major version it does not know."""
    event: Event | None = None
    """Optional metadata about the event."""
    comment: Comment | None = None
    """Free text about the game."""
    result: Result | None = None
    """How the game ended, as recorded."""
    ext: Extension | None = None
    """Extension object: any content, carried through unchanged by every tool."""


Players4: TypeAlias = Annotated[list[Player], Field(min_length=4, max_length=4)]


class PhatRecord(_RecordBase):
    """A game of Phat."""

    game: Literal["phat"]
    """The game."""
    rules: PhatRules = PhatRules()
    """Variant parameters; keys left out take the defaults."""
    players: Players4
    """The four players, clockwise from seat 0; partners sit opposite (sides 0+2 and 1+3)."""
    cut: Annotated[list[CutRound], Field(min_length=1, max_length=20)] | None = None
    """Optional: the cut for the first pitcher, a list of rounds, each by seat (null = did not cut)."""
    deals: Annotated[list[PhatDeal], Field(min_length=1, max_length=10000)]
    """Every deal, in order."""


class NineCardDonRecord(_RecordBase):
    """A game of Nine-card Don."""

    game: Literal["nine_card_don"]
    """The game."""
    rules: NineCardDonRules = NineCardDonRules()
    """Variant parameters; keys left out take the defaults."""
    players: Players4
    """The four players, clockwise from seat 0."""
    cut: Annotated[list[CutRound], Field(min_length=1, max_length=20)] | None = None
    """Optional: the cut for the first pitcher (one player of each side cuts; highest pitches)."""
    deals: Annotated[list[NineCardDonDeal], Field(min_length=1, max_length=10000)]
    """Every deal, in order."""


class IrishDonRecord(_RecordBase):
    """A game of Irish Don."""

    game: Literal["irish_don"]
    """The game."""
    rules: IrishDonRules = IrishDonRules()
    """Variant parameters; keys left out take the defaults."""
    players: Players4
    """The four players, clockwise from seat 0."""
    deals: Annotated[list[PhatDeal], Field(min_length=1, max_length=10000)]
    """Every deal, in order."""


class OhHellRecord(_RecordBase):
    """A game of Oh Hell."""

    game: Literal["oh_hell"]
    """The game."""
    rules: OhHellRules = OhHellRules()
    """Variant parameters; keys left out take the defaults."""
    players: Annotated[list[Player], Field(min_length=3, max_length=7)]
    """Three to seven players, clockwise from seat 0; each is a side."""
    deals: Annotated[list[OhHellDeal], Field(min_length=1, max_length=10000)]
    """Every hand, in order."""


Record: TypeAlias = Annotated[
    PhatRecord | NineCardDonRecord | IrishDonRecord | OhHellRecord, Field(discriminator="game")
]
RECORD_ADAPTER: Final[TypeAdapter[PhatRecord | NineCardDonRecord | IrishDonRecord | OhHellRecord]] = TypeAdapter(Record)


# ---------------------------------------------------------------------------- the order phatlog writes

#: The order in which phatlog writes the keys of each kind of object (reading accepts any order): what
#: the game is first, then who played, the deals, the result, and the annotations last. Keys not listed
#: (there are none in format 1.0) would follow in the order they came.
KEY_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "record": ("phatlog", "game", "rules", "event", "players", "cut", "deals", "result", "comment", "ext"),
    "deal": ("dealer", "hands", "undealt", "turnup", "bids", "tricks", "taken", "score", "rulings", "comment", "ext"),
    "trick": ("leader", "cards", "winner", "comment", "ext"),
    "score": ("points", "total"),
    "result": ("status", "by", "reason", "winner", "total"),
    "ruling": (
        "kind",
        "seat",
        "trick",
        "tricks",
        "accepted",
        "decision",
        "side",
        "points",
        "reason",
        "penalty",
        "by",
        "comment",
        "ext",
    ),
}


def _ordered(node: dict[str, Any], kind: str) -> dict[str, Any]:
    order = KEY_ORDER[kind]
    out = {k: node[k] for k in order if k in node}
    out.update((k, v) for k, v in node.items() if k not in out)
    return out


def in_key_order(record: dict[str, Any]) -> dict[str, Any]:
    """A record (JSON data) with its keys in the order phatlog writes them (:data:`KEY_ORDER`)."""
    out = _ordered(record, "record")
    deals = out.get("deals")
    if isinstance(deals, list):
        out["deals"] = [_deal_in_order(d) if isinstance(d, dict) else d for d in deals]
    if isinstance(out.get("result"), dict):
        out["result"] = _ordered(out["result"], "result")
    return out


def _deal_in_order(deal: dict[str, Any]) -> dict[str, Any]:
    out = _ordered(deal, "deal")
    tricks = out.get("tricks")
    if isinstance(tricks, list):
        out["tricks"] = [_ordered(t, "trick") if isinstance(t, dict) else t for t in tricks]
    if isinstance(out.get("score"), dict):
        out["score"] = _ordered(out["score"], "score")
    rulings = out.get("rulings")
    if isinstance(rulings, list):
        out["rulings"] = [_ordered(r, "ruling") if isinstance(r, dict) else r for r in rulings]
    return out
