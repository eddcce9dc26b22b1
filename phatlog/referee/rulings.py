"""Format 1.1's rulings, as the referees apply them: claims, ruled revokes, misdeals, adjustments, and a
game ended by concession, forfeit or abandonment (docs/format.md, "Rulings").

The referees (``all_fours`` for the All Fours family, ``oh_hell``) call this module at a few clear points and
hold no ruling logic of their own:

- ``DealRulings.of(deal, ...)`` before a deal: None for a deal without rulings (every 1.0 deal), which
  then takes exactly the path it always took;
- ``is_misdeal`` / ``redeal`` at the top of the deal loop: a void deal, and the same dealer again;
- ``DealRulings.stands`` from the trick loops (``all_fours``, ``oh_hell_driver``) where a card breaks the
  follow rule: a ruled revoke stands as played (info PL310);
- ``DealRulings.claim_*`` after the recorded tricks: the claim settles the rest of the deal;
- ``DealRulings.peg_after`` (or ``pegs``, for the State to peg) when the deal is scored: penalties, then
  adjustments, in order;
- ``check_stopped`` from ``scoring.check_result``: the result of a conceded, forfeited or abandoned game.

Claim soundness (would the claimer's side take the claimed tricks against any defence) is
``audit_claim``, which drives the double-dummy solver (``phatlog.solver.claims``) only for a deal that
carries a claim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from phatlog.diagnostics import Diagnostic, diag, seat_name
from phatlog.referee.deal_check import Rotation
from phatlog.rules.table import right_of, side_of

#: The result statuses under which a record may stop before the game is won.
STOPPED: Final = frozenset({"unfinished", "conceded", "forfeited", "abandoned"})


def rulings_of(deal: Any) -> Sequence[Any]:
    """A deal's rulings (format 1.1), or none."""
    found = getattr(deal, "rulings", None)
    return () if found is None else found


def kind_of(ruling: Any) -> str:
    """A ruling's kind: a model's ``kind``, or the tag of a decoded struct (msgspec keeps it in the class)."""
    kind = getattr(ruling, "kind", None)
    if kind is None:
        kind = type(ruling).__struct_config__.tag
    return str(kind)


def is_misdeal(deal: Any) -> bool:
    """Whether a misdeal ruling voids this deal."""
    return any(kind_of(r) == "misdeal" for r in rulings_of(deal))


def redeal(rotation: Rotation) -> None:
    """After a misdeal the same dealer deals again: undo the rotation's step past this deal's dealer."""
    n = rotation.seats
    rotation.from_rotation = right_of(rotation.from_rotation, n)
    rotation.from_record = right_of(rotation.from_record, n)


def penalties_of(ruling: Any) -> list[Any]:
    """A revoke ruling's penalty as a list (it may be one object or an array)."""
    penalty = ruling.penalty
    if penalty is None:
        return []
    return list(penalty) if isinstance(penalty, (list, tuple)) else [penalty]


def audit_claim(
    deal: Any,
    d: int,
    claim: Any,
    claim_at: int,
    out: list[Diagnostic],
    *,
    play: Any = None,
    trump: int | None = None,
    follow: Any = None,
    partnerships: bool = False,
    names: Sequence[str] = (),
    pitcher: int | None = None,
) -> Any:
    """The claim soundness audit (issue 11). Where every hand is known (the deal records its hands, and
    ``play``, the trick loop's ``TrickPlay``, holds what each seat has left and the trick in progress), the
    rest of the deal is solved exactly for tricks (``phatlog.solver.claims``): an unsound claim is a
    warning PL316 with a line of play that defeats it; a claim for fewer tricks than the claimer's side
    cannot fail to take is info PL317. Where the hands are not known (a seat's view, a score sheet, no
    hands recorded) it is info PL318. ``pitcher``: an All Fours claim made before the first card, whose
    trump that seat's first lead will choose (``solve_claim_before_lead``). Returns the ``ClaimAudit``, or
    None where it could not be made."""
    at = f"/deals/{d}/rulings/{claim_at}"
    who = seat_name(claim.seat, names)
    if play is None or getattr(deal, "hands", None) is None:
        if getattr(deal, "tricks", None):
            why = "the hands are not recorded"
        elif getattr(deal, "hands", None) is not None:  # a claim before the first card is audited from the hands
            why = "its hands are not a proper deal"
        else:
            why = "the deal records no cards"
        out.append(diag("PL318", f"{who}'s claim could not be checked against the cards: {why}", at))
        return None
    from phatlog.solver import claims as claims_module
    from phatlog.solver.claims import describe_line, solve_claim, solve_claim_before_lead

    remaining = (sum(len(h) for h in play.held) + len(play.trick)) // len(play.held)
    if claim.tricks != "rest" and claim.tricks > remaining:
        return None  # a claim for more tricks than remain is PL313 already: nothing to audit
    claimed = remaining if claim.tricks == "rest" else claim.tricks
    from phatlog.referee import claim_budget as spent
    from phatlog.solver.search import SearchBudget

    per_claim = claims_module.audit_budget()
    allowed, short = spent.allowance(per_claim)
    if short is not None and allowed < per_claim // 100:  # nothing worth searching is left
        why = f"the audit budget for this {short} is spent"
        out.append(diag("PL318", f"{who}'s claim could not be checked against the cards: {why}", at))
        return None
    try:
        if pitcher is not None:
            found = solve_claim_before_lead(
                [list(h) for h in play.held], pitcher, follow, claim.seat, claimed, budget=allowed
            )
        else:
            found = solve_claim(
                [list(h) for h in play.held],
                list(play.trick),
                play.leader,
                trump,
                follow,
                claim.seat,
                claimed,
                play.played,
                partnerships,
                budget=allowed,
            )
    except SearchBudget:
        spent.spend(allowed)
        why = (
            f"with {remaining} tricks left the audit did not reach a verdict within its limit "
            f"({per_claim:,} positions searched)"
            if short is None
            else f"the audit budget for this {short} is spent ({allowed:,} positions were left for it)"
        )
        out.append(diag("PL318", f"{who}'s claim could not be checked against the cards: {why}", at))
        return None
    except MemoryError:
        why = "not enough memory for the audit"
        out.append(diag("PL318", f"{who}'s claim could not be checked against the cards: {why}", at))
        return None
    spent.spend(found.nodes)
    if partnerships:
        side = side_of(claim.seat)
        mine = f"{seat_name(side, names)} & {seat_name(side + 2, names)}"
        theirs = f"{seat_name(1 - side, names)} & {seat_name(3 - side, names)}"
    else:
        mine, theirs = who, "the others"
    if not found.sound:
        out.append(
            diag(
                "PL316",
                f"{who}'s claim of {claimed} of the {remaining} tricks left was unsound: {theirs} could hold "
                f"{mine} to {found.least}: "
                + (
                    describe_line(found.line, found.trump, names)
                    if found.line
                    else "the line of play was not worked out within the audit's limit"
                ),
                f"{at}/tricks",
            )
        )
    elif found.underclaimed:
        out.append(
            diag(
                "PL317",
                f"{who} claimed {claimed} of the {remaining} tricks left, but {mine} could not fail to take "
                f"{found.least}",
                f"{at}/tricks",
            )
        )
    return found


class Peg(NamedTuple):
    """A revoke penalty or an adjustment pegged (``trick``: a penalty's trick, from 0; None for an
    adjustment), with the totals it was pegged onto as they stand after it."""

    kind: str
    text: str
    side: int
    points: int
    trick: int | None
    after: tuple[int, ...]


@dataclass(slots=True)
class DealRulings:
    """One deal's rulings, checked against the table and applied as the referee reaches them."""

    d: int
    seats: int
    sides: int
    side_of: Callable[[int], int]
    names: Sequence[str]
    revoke_penalty: int | None
    claim: Any = None
    claim_at: int = 0
    revokes: list[tuple[int, Any]] = field(default_factory=list)  # (index in rulings, ruling)
    adjustments: list[tuple[int, Any]] = field(default_factory=list)
    matched: set[int] = field(default_factory=set)
    audit: Any = None  # the claim's audit (``phatlog.solver.claims.ClaimAudit``), once made

    @classmethod
    def of(
        cls,
        deal: Any,
        d: int,
        seats: int,
        sides: int,
        side_of: Callable[[int], int],
        names: Sequence[str],
        revoke_penalty: int | None,
        out: list[Diagnostic],
    ) -> DealRulings | None:
        """The deal's rulings, their seats, sides and tricks checked (PL311); None for a deal without any."""
        rulings = rulings_of(deal)
        if not rulings:
            return None
        self = cls(d, seats, sides, side_of, names, revoke_penalty)
        size = None if deal.hands is None else len(deal.hands[0])
        for i, r in enumerate(rulings):
            at = f"/deals/{d}/rulings/{i}"
            if kind_of(r) == "claim":
                if r.seat >= seats:
                    out.append(diag("PL311", f"the claim names seat {r.seat}; the table has {seats}", f"{at}/seat"))
                elif self.claim is not None:
                    out.append(diag("PL311", f"deal {d + 1} has a second claim; a deal has one", at))
                else:
                    self.claim, self.claim_at = r, i
            elif kind_of(r) == "revoke":
                bad = False
                if r.seat >= seats:
                    out.append(diag("PL311", f"the revoke names seat {r.seat}; the table has {seats}", f"{at}/seat"))
                    bad = True
                if size is not None and r.trick > size:
                    out.append(diag("PL311", f"the revoke names trick {r.trick}; the deal has {size}", f"{at}/trick"))
                    bad = True
                for j, p in enumerate(penalties_of(r)):
                    if p.side >= sides:
                        where = (
                            f"{at}/penalty"
                            if j == 0 and not isinstance(r.penalty, (list, tuple))
                            else f"{at}/penalty/{j}"
                        )
                        out.append(
                            diag("PL311", f"the penalty names side {p.side}; there are {sides}", f"{where}/side")
                        )
                        bad = True
                if not bad:
                    self.revokes.append((i, r))
            elif kind_of(r) == "adjustment":
                if r.side >= sides:
                    out.append(diag("PL311", f"the adjustment names side {r.side}; there are {sides}", f"{at}/side"))
                else:
                    self.adjustments.append((i, r))
        return self

    # ------------------------------------------------------------------ revokes

    def stands(self, t: int, seat: int, found: Diagnostic, out: list[Diagnostic]) -> bool:
        """Whether a ruling covers the revoke ``found`` (``seat`` in trick ``t``, from 0): if so it is noted
        (info PL310) and stands as played."""
        ruled = next(
            (k for k, r in self.revokes if r.trick == t + 1 and r.seat == seat and k not in self.matched), None
        )
        if ruled is None:
            return False
        self.matched.add(ruled)
        out.append(diag("PL310", f"ruled: {found.message}; it stands as played", found.pointer))
        return True

    def unmatched_revokes(self, played: int, out: list[Diagnostic]) -> None:
        """After the tricks were judged through ``played``: a revoke ruling on a judged trick that found no
        revoke is PL312; one on a trick not recorded (and not claimed) is PL311."""
        for k, r in self.revokes:
            if k in self.matched:
                continue
            at = f"/deals/{self.d}/rulings/{k}"
            if r.trick <= played:
                who = seat_name(r.seat, self.names)
                out.append(
                    diag(
                        "PL312",
                        f"the ruling says {who} revoked in trick {r.trick}, but {who} followed the rules there",
                        at,
                    )
                )
            else:
                out.append(
                    diag("PL311", f"the revoke names trick {r.trick}; only {played} are recorded", f"{at}/trick")
                )

    def on_sheet(self, deal: Any, names: Sequence[str], out: list[Diagnostic], size: int | None = None) -> None:
        """A score-sheet deal (no tricks): a revoke ruling cannot be matched to a trick (PL311: none is
        recorded, and nothing is pegged for it); a claim for more tricks than the hand's ``size`` (known
        without the cards) is PL313, any other could not be checked (PL318). Adjustments apply as usual."""
        for k, r in self.revokes:
            out.append(
                diag(
                    "PL311",
                    f"the revoke names trick {r.trick}, but deal {self.d + 1} is a score sheet (no tricks recorded): "
                    "no revoke can be matched to it, and its penalty is not pegged",
                    f"/deals/{self.d}/rulings/{k}/trick",
                )
            )
        self.revokes = []
        if self.claim is not None:
            before = len(out)
            if size is not None:
                self.claim_rest(0, size, out)
            if len(out) == before:  # not already too many: then it could only not be checked
                audit_claim(deal, self.d, self.claim, self.claim_at, out, names=names)

    def no_effect(self, trick: int, out: list[Diagnostic]) -> None:
        """The game was won in this deal's trick ``trick`` (from 1), before the claim: it settles nothing."""
        if self.claim is None:
            return
        who = seat_name(self.claim.seat, self.names)
        out.append(
            diag(
                "PL318",
                f"{who}'s claim has no effect: the game was won in trick {trick} of deal {self.d + 1}, before the "
                "claim, and nothing after that counts",
                f"/deals/{self.d}/rulings/{self.claim_at}",
            )
        )

    def penalties(self, out: list[Diagnostic]) -> list[tuple[int, int, Any]]:
        """(side, points, ruling) of every matched revoke's penalty, in order: as ruled, or the rules'
        fixed ``revoke_penalty`` (a ruled penalty that differs is PL314, and the law's is pegged)."""
        pegs: list[tuple[int, int, Any]] = []
        for k, r in self.revokes:
            if k not in self.matched:
                continue
            ruled = [(p.side, p.points) for p in penalties_of(r)]
            fixed = self.revoke_penalty
            if fixed is not None:
                offender = self.side_of(r.seat)
                law = [(s, fixed) for s in range(self.sides) if s != offender and fixed]
                if r.penalty is not None and sorted(ruled) != sorted(law):
                    out.append(
                        diag(
                            "PL314",
                            f"the revoke in trick {r.trick} is penalised {_pegs(ruled)}, but the rules fix the penalty "
                            f"(revoke_penalty {fixed}): {_pegs(law)}",
                            f"/deals/{self.d}/rulings/{k}/penalty",
                        )
                    )
                ruled = law
            pegs.extend((side, points, r) for side, points in ruled)
        return pegs

    def ruling_points(self, out: list[Diagnostic] | None = None) -> list[int]:
        """What the deal's penalties and adjustments peg, by side."""
        points = [0] * self.sides
        for side, value, _ in self.penalties([] if out is None else out):
            points[side] += value
        for _, a in self.adjustments:
            points[a.side] += a.points
        return points

    def pegs(self, out: list[Diagnostic]) -> list[tuple[str, str, int, int, int | None]]:
        """What the deal's rulings peg, in order: each penalty, then each adjustment, as (kind, text, side,
        points, trick), ``trick`` a penalty's (from 0), None for an adjustment."""
        pegs: list[tuple[str, str, int, int, int | None]] = [
            ("revoke", f"revoke penalty (trick {r.trick})", side, points, r.trick - 1)
            for side, points, r in self.penalties(out)
        ]
        pegs += [
            ("adjustment", f"adjustment{'' if a.reason is None else ': ' + a.reason}", a.side, a.points, None)
            for _, a in self.adjustments
        ]
        return pegs

    def peg_after(
        self, totals: list[int], target: int | None, immediate: bool, out: list[Diagnostic]
    ) -> tuple[int | None, list[Peg]]:
        """Peg the penalties, then the adjustments, in order, onto ``totals``. Returns the first side each
        peg takes to the ``target`` (None: none, or no target), and each :class:`Peg` with ``totals`` as
        they stand after it."""
        reached: int | None = None
        done: list[Peg] = []
        for kind, text, side, points, trick in self.pegs(out):
            totals[side] += points
            done.append(Peg(kind, text, side, points, trick, tuple(totals)))
            if reached is None and target is not None and immediate and points > 0 and totals[side] >= target:
                reached = side
        return reached, done

    # ------------------------------------------------------------------ claims

    def claim_rest(self, played: int, size: int, out: list[Diagnostic]) -> bool | None:
        """After ``played`` recorded tricks: None if there is no claim; True if the claim gives the
        claimer's side every unplayed trick (the cards settle the deal); False if the deal must be
        checked as a score sheet. A claim for more tricks than remain is PL313."""
        claim = self.claim
        if claim is None:
            return None
        remaining = size - played
        at = f"/deals/{self.d}/rulings/{self.claim_at}"
        count = remaining if claim.tricks == "rest" else claim.tricks
        if count > remaining:
            out.append(diag("PL313", f"the claim is for {count} tricks, but {remaining} remain", f"{at}/tricks"))
        if not claim.accepted and claim.decision is not None and claim.decision > remaining:
            out.append(
                diag("PL313", f"the decision awards {claim.decision} tricks, but {remaining} remain", f"{at}/decision")
            )
        return claim_awards(claim, remaining) == remaining

    def rest_to(self, played: int, size: int) -> int | None:
        """The side that takes every unplayed trick by the claim (the decision, where contested): the
        claimer's side where it is given them all, the other side where it is given none (a claim
        refused outright; partnerships only); None where the tricks are split, or not decided."""
        claim = self.claim
        if claim is None:
            return None
        remaining = size - played
        awarded = claim_awards(claim, remaining)
        if awarded == remaining:
            return self.side_of(claim.seat)
        if awarded == 0 and remaining > 0 and self.sides == 2:
            return 1 - self.side_of(claim.seat)
        return None

    def claim_note(self, played: int, size: int, hands_known: bool) -> Diagnostic:
        """PL406 for a deal whose claim leaves the unplayed cards' fate open: what was checked, and how."""
        claim = self.claim
        remaining = size - played
        awarded = claim_awards(claim, remaining)
        if not hands_known:
            why = f"the claim ({self.claim_text()}) settled the rest, and the hands are not recorded"
        elif awarded is None:
            why = f"the claim ({self.claim_text()}) leaves the unplayed tricks undecided"
        else:
            why = (
                f"the claim ({self.claim_text()}) gives {awarded} of the {remaining} unplayed trick(s) to the "
                "claimer's side without saying which cards each side took"
            )
        return diag(
            "PL406",
            f"deal {self.d + 1}: its {played} recorded trick(s) are checked card by card; {why}, so the deal's "
            "points are checked as a score sheet's (a score the game can give), with the running totals",
            f"/deals/{self.d}/rulings/{self.claim_at}",
        )

    def claim_text(self) -> str:
        claim = self.claim
        who = seat_name(claim.seat, self.names)
        what = "the rest" if claim.tricks == "rest" else f"{claim.tricks} trick(s)"
        how = "" if claim.accepted else f", contested; awarded {claim.decision}"
        return f"{who} claims {what}{how}"


def claim_awards(claim: Any, remaining: int) -> int | None:
    """The tricks of the ``remaining`` ones that a claim gives the claimer's side: as claimed (``"rest"``:
    all of them) where it was accepted, as the director decided where it was contested (None: no decision
    recorded)."""
    if not claim.accepted:
        decision: int | None = claim.decision
        return decision
    tricks: int | str = claim.tricks
    return remaining if tricks == "rest" else int(tricks)


def _pegs(pegs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{points} to side {side}" for side, points in pegs) or "nothing"


def claimed_taken(
    deal: Any,
    d: int,
    won: list[int],
    size: int,
    names: Sequence[str],
    out: list[Diagnostic],
    claim: Any = None,
) -> list[int] | None:
    """Oh Hell, a claim that leaves the rest open: the hand's ``taken`` gives every player's total; each
    must be at least the tricks they won in the recorded play (PL313 otherwise) and at most those and every
    trick left; the claimer's is exactly what they won and what the ``claim`` gives them, where it says
    (accepted, or decided): PL209 otherwise, so that no impossible score passes. None where not recorded."""
    recorded = getattr(deal, "taken", None)
    if recorded is None or len(recorded) != len(won):
        return None
    left = size - sum(won)
    for seat, (got, least) in enumerate(zip(recorded, won, strict=True)):
        if got < least:
            out.append(
                diag(
                    "PL313",
                    f"{seat_name(seat, names)} took {least} of the recorded tricks, but the hand's taken gives {got}",
                    f"/deals/{d}/taken/{seat}",
                )
            )
            return None
        if got > least + left:
            out.append(
                diag(
                    "PL209",
                    f"{seat_name(seat, names)} took {least} of the recorded tricks and {left} were left to the claim, "
                    f"so at most {least + left}, but the hand's taken gives {got}",
                    f"/deals/{d}/taken/{seat}",
                )
            )
            return None
    awarded = None if claim is None else claim_awards(claim, left)
    if awarded is not None and 0 <= claim.seat < len(won) and recorded[claim.seat] != won[claim.seat] + awarded:
        seat = claim.seat
        how = "the claim gives" if claim.accepted else "the decision awards"
        out.append(
            diag(
                "PL209",
                f"{seat_name(seat, names)} took {won[seat]} of the recorded tricks and {how} {awarded} of the {left} "
                f"left, so {won[seat] + awarded}, but the hand's taken gives {recorded[seat]}",
                f"/deals/{d}/taken/{seat}",
            )
        )
        return None
    return list(recorded) if sum(recorded) == size else None


def misdeal_play(deal: Any, d: int, out: list[Diagnostic]) -> None:
    """PL315 for what a void deal may not record: tricks, bids, tricks taken, a claim or a revoke."""
    found = [key for key in ("tricks", "bids", "taken") if getattr(deal, key, None)]
    found += [kind_of(r) for r in rulings_of(deal) if kind_of(r) in ("claim", "revoke")]
    if found:
        out.append(diag("PL315", f"deal {d + 1} is a misdeal (void), but it records {', '.join(found)}", f"/deals/{d}"))


def check_stopped(
    result: Any,
    winners: Sequence[int] | None,
    side_of: Callable[[int], int],
    seats: int,
    label: Callable[[int], str],
    out: list[Diagnostic],
) -> None:
    """A conceded, forfeited or abandoned game (PL410): a side that conceded or forfeited cannot be the
    recorded winner; an abandoned game has no winner; none of them was already won at the table."""
    status = result.status
    if winners:
        out.append(
            diag(
                "PL410",
                f"the result says the game was {status}, but {' and '.join(map(label, winners))} had already won it",
                "/result/status",
            )
        )
    if status == "conceded" and result.by is None:
        out.append(diag("PL410", "a conceded game names the seat that conceded: give result.by", "/result/status"))
    if status == "abandoned" and result.winner is not None:
        out.append(diag("PL410", "an abandoned game has no winner", "/result/winner"))
    if result.by is not None and result.by >= seats:
        out.append(diag("PL311", f"the result names seat {result.by}; the table has {seats}", "/result/by"))
    elif result.by is not None and result.winner is not None:
        loser = side_of(result.by)
        if loser in result.winner:
            out.append(
                diag(
                    "PL410",
                    f"{label(loser)} {status} the game, but the result names it the winner",
                    "/result/winner",
                )
            )
