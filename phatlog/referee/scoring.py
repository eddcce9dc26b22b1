"""Checking what a scorer wrote: each deal's points, the running totals, and the result.

Shared by every game: a score is a list by side (a partnership in Phat and Don, a player in Oh Hell).
The engine's own figures are the truth; the record's are compared with them and every difference is
reported where it was written.

A running total is accepted if it is the true total, or the previous recorded total plus this deal's
true points: a mistake carried forward is reported once, on the row where it was made, not again on
every later row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phatlog.diagnostics import Diagnostic, diag
from phatlog.record.view import ResultView, ScoreView
from phatlog.referee import rulings

Label = Callable[[int], str]


def check_deal_score(
    score: ScoreView | None,
    d: int,
    points: Sequence[int],
    truth: Sequence[int],
    known: bool,
    previous: tuple[int, ...] | None,
    label: Label,
    out: list[Diagnostic],
    check_points: bool = True,
) -> tuple[int, ...] | None:
    """Check one deal's recorded ``score`` and return its running total, the next row's base."""
    if score is None:
        return None
    sides = len(truth)
    recorded = score.points
    if recorded is not None and len(recorded) != sides:
        out.append(_count(f"/deals/{d}/score/points", len(recorded), sides))
    elif check_points and recorded is not None and list(recorded) != list(points):
        for side in range(sides):
            if recorded[side] != points[side]:
                out.append(
                    diag(
                        "PL401",
                        f"deal {d + 1}: the record gives {label(side)} {recorded[side]} points, but the rules give "
                        f"{points[side]}",
                        f"/deals/{d}/score/points/{side}",
                    )
                )
    total = score.total
    if total is None:
        return None
    if len(total) != sides:
        out.append(_count(f"/deals/{d}/score/total", len(total), sides))
        return None
    if not (known and list(total) == list(truth)):
        for side in range(sides):
            got = total[side]
            if known and got == truth[side]:
                continue
            if previous is not None and got == previous[side] + points[side]:
                continue
            if not known and previous is None:
                continue
            base = previous[side] if previous is not None else 0
            right = f"it is {truth[side]}" if known else f"{base} + {points[side]} is {base + points[side]}"
            out.append(
                diag(
                    "PL402",
                    f"deal {d + 1}: {label(side)}'s running total is recorded as {got}, but {right}",
                    f"/deals/{d}/score/total/{side}",
                )
            )
    return tuple(total)


def check_result(
    result: ResultView | None,
    winners: list[int] | None,
    totals: Sequence[int],
    known: bool,
    label: Label,
    when: str,
    out: list[Diagnostic],
    winner_unknown: bool = False,
    side_of: Callable[[int], int] | None = None,
    seats: int = 7,
) -> None:
    """Check the recorded result: its status, winner(s) and final totals against the engine's.

    ``winner_unknown``: the game ended but the record cannot show who won (both sides reached the target
    in a deal whose pegs are not recorded, already noted): a recorded winner is then not contradicted."""
    if result is None:
        return
    if result.status in ("conceded", "forfeited", "abandoned"):  # format 1.1: see engine.rulings
        rulings.check_stopped(result, winners, side_of or (lambda seat: seat), seats, label, out)
        winners, winner_unknown = list(result.winner or ()), True  # the result decides who won
    unfinished = result.status == "unfinished"
    if winners and unfinished:
        out.append(
            diag(
                "PL403",
                f"the result says the game is unfinished, but {' and '.join(map(label, winners))} won it {when}",
                "/result/status",
            )
        )
    if result.winner is not None and not winner_unknown:
        if not winners:
            out.append(
                diag(
                    "PL407", f"the result names winner {list(result.winner)}, but nobody won the game", "/result/winner"
                )
            )
        elif sorted(result.winner) != sorted(winners):
            out.append(
                diag(
                    "PL403",
                    f"the result names {list(result.winner)} as the winner, but "
                    f"{' and '.join(f'{label(w)} ({w})' for w in winners)} won",
                    "/result/winner",
                )
            )
    if result.total is not None and known:
        sides = len(totals)
        if len(result.total) != sides:
            out.append(_count("/result/total", len(result.total), sides))
            return
        for side in range(sides):
            if result.total[side] != totals[side]:
                out.append(
                    diag(
                        "PL404",
                        f"the result gives {label(side)} {result.total[side]}, but the final total is {totals[side]}",
                        f"/result/total/{side}",
                    )
                )


def _count(ptr: str, got: int, sides: int) -> Diagnostic:
    return diag("PL207", f"this list has {got} entries; it has one for each of the {sides} sides", ptr)
