"""``phatlog rescore``: the engine's scores written into the record, every change reported, the input
never touched, the output whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from phatlog.api import verify
from phatlog.archive.rescore import rescore
from phatlog.cli.app import app

REPO: Final = Path(__file__).resolve().parent.parent
INVALID: Final = REPO / "samples" / "invalid"
GAMES: Final = REPO / "samples" / "games"
runner = CliRunner()


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    "name",
    [
        "wrong-points.json",
        "wrong-total.json",
        "wrong-result-total.json",
        "wrong-result-winner.json",
        "oh-hell-wrong-points.json",
        "oh-hell-wrong-total.json",
        "oh-hell-wrong-result-winner.json",
        "don-wrong-total.json",
        "don-wrong-winner.json",
        "sheet-phat-wrong-total.json",
    ],
)
def test_a_record_whose_arithmetic_was_wrong_verifies_clean_once_rescored(name: str, tmp_path: Path) -> None:
    source = INVALID / name
    before = source.read_bytes()
    assert not verify(_load(source)).clean
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["rescore", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert source.read_bytes() == before  # the input is never changed
    assert verify(_load(out)).clean
    assert "figure" in result.stderr and "changed" in result.stderr
    changed = _load(out)
    # nothing but scores changed
    original = _load(source)
    for deal, was in zip(changed["deals"], original["deals"], strict=True):
        assert {k: v for k, v in deal.items() if k != "score"} == {k: v for k, v in was.items() if k != "score"}
    assert {k: v for k, v in changed.items() if k not in ("deals", "result")} == {
        k: v for k, v in original.items() if k not in ("deals", "result")
    }


def test_each_change_is_reported_with_its_pointer_and_figures(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json"), "-o", str(tmp_path / "o.json")])
    assert "/deals/0/score/points: deal 1's points: Ann & Cal 28, Ben & Dee 53 -> Ann & Cal 27, Ben & Dee 53" in (
        result.stderr
    )
    assert "1 figure changed" in result.stderr


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.json"))[:12], ids=lambda p: p.name)
def test_a_clean_record_is_rescored_unchanged(path: Path) -> None:
    data = _load(path)
    done = rescore(data)
    assert done.changes == [] and done.data == data


def test_an_illegal_play_stays_and_exit_1(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    result = runner.invoke(app, ["rescore", str(INVALID / "revoke.json"), "-o", str(out)])
    assert result.exit_code == 1
    assert "verify still finds 1 error" in result.stderr and "PL303" in result.stderr
    assert out.exists()


def test_not_a_record_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "o.json"
    for name in ("not-json.json", "wrong-type.json"):
        result = runner.invoke(app, ["rescore", str(INVALID / name), "-o", str(out)])
        assert result.exit_code == 2, result.output
        assert not out.exists()
        assert "Traceback" not in result.output


def test_no_output_named_is_a_usage_error_and_a_directory_is_refused(tmp_path: Path) -> None:
    assert runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json")]).exit_code == 2
    result = runner.invoke(app, ["rescore", str(INVALID / "wrong-points.json"), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "nothing written" in result.stderr


def test_in_place_only_when_named(tmp_path: Path) -> None:
    copy = tmp_path / "game.json"
    copy.write_bytes((INVALID / "wrong-total.json").read_bytes())
    result = runner.invoke(app, ["rescore", str(copy), "-o", str(copy)])
    assert result.exit_code == 0
    assert verify(_load(copy)).clean


@settings(max_examples=15, deadline=None)
@given(deal=st.integers(0, 3), side=st.integers(0, 1), delta=st.integers(1, 40))
def test_any_wrong_points_are_put_right(deal: int, side: int, delta: int) -> None:
    data = _load(GAMES / "phat-181.json")
    wrong = json.loads(json.dumps(data))
    wrong["deals"][deal]["score"]["points"][side] += delta
    wrong["deals"][deal]["score"]["total"][side] += delta
    done = rescore(wrong)
    assert done.data == data
    assert {c.pointer for c in done.changes} >= {f"/deals/{deal}/score/points"}


# ------------------------------------------------------------------------------------ every notation

#: The figures rescoring puts right: a deal's points, a running total, the winner, the final totals.
ARITHMETIC: Final = {"PL401", "PL402", "PL403", "PL404"}
WRONG: Final = ["wrong-points.json", "oh-hell-wrong-total.json", "sheet-phat-wrong-total.json"]


def _write(records: list[dict[str, Any]], path: Path) -> None:
    """``records`` in the notation ``path``'s name says, as phatlog writes it (select, simulate)."""
    from phatlog.archive.outputs import RecordWriter, notation_of_output

    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = RecordWriter(notation_of_output(str(path)), stream, str(path))
        for record in records:
            writer.write(record)


def _codes(path: Path) -> set[str]:
    """The codes ``verify`` finds in every record of ``path`` (any notation)."""
    from phatlog.archive.records import records

    found = set()
    for entry in records(str(path)):
        assert entry.loaded.record is not None and entry.raw is not None, entry.loaded.diagnostics
        found |= {d.code for d in verify(json.loads(entry.raw)).diagnostics}
    return found


NOTATIONS: Final = ["json", "jsonl", "txt", "csv"]


@pytest.mark.parametrize(
    ("name", "notation", "into"),
    [
        *((WRONG[0], n, f"out.{o}") for n in NOTATIONS for o in NOTATIONS),  # every notation into every one
        *((name, n, f"out.{n}") for name in WRONG[1:] for n in NOTATIONS),  # Oh Hell, a score sheet: into its own
    ],
)
def test_a_record_in_any_notation_is_rescored_into_any_and_verifies(
    name: str, notation: str, into: str, tmp_path: Path
) -> None:
    """Read as every command reads (JSON, JSON Lines, the text notation, the CSV long table), written in
    the notation the output's name says, read back: no arithmetic error left, the input untouched."""
    source = tmp_path / f"in.{notation}"
    _write([_load(INVALID / name)], source)
    assert _codes(source) & ARITHMETIC
    before = source.read_bytes()
    out = tmp_path / into
    result = runner.invoke(app, ["rescore", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert source.read_bytes() == before
    assert not _codes(out) & ARITHMETIC
    assert f"rescored {source} to {out}: 1 figure changed" in result.stderr
    assert "/deals/" in result.stderr  # each change with its pointer


def test_a_score_sheet_read_from_csv_is_rescored(tmp_path: Path) -> None:
    """A CSV score sheet (the sheet convert writes, no cards) is read as a record and rescored."""
    from phatlog.formats import csv_sheet
    from phatlog.formats.base import canonical

    body, lost = csv_sheet.render(canonical(_load(INVALID / "sheet-phat-wrong-total.json")))
    assert lost == []
    sheet, out = tmp_path / "sheet.csv", tmp_path / "fixed.json"
    sheet.write_text(body, encoding="utf-8")
    assert _codes(sheet) & ARITHMETIC
    result = runner.invoke(app, ["rescore", str(sheet), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert verify(_load(out)).clean


def test_an_archive_is_rescored_record_by_record_into_an_archive(tmp_path: Path) -> None:
    records = [_load(INVALID / n) for n in WRONG] + [_load(GAMES / "phat-181.json")]
    archive = tmp_path / "event.jsonl"
    _write(records, archive)
    out = tmp_path / "fixed.jsonl"
    result = runner.invoke(app, ["rescore", str(archive), "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and all(verify(json.loads(line)).clean for line in lines)
    written = archive.read_text(encoding="utf-8").splitlines()
    assert lines[3] == written[3]  # a clean record as it was, byte for byte
    assert list(json.loads(lines[0])) == list(json.loads(written[0]))  # keys in their order
    assert f"{archive}:1: /deals/0/score/points" in result.stderr
    assert "4 records, 3 figures changed" in result.stderr
    text_out = tmp_path / "fixed.txt"
    assert runner.invoke(app, ["rescore", str(archive), "-o", str(text_out)]).exit_code == 0
    assert len(list(_records_of(text_out))) == 4 and not _codes(text_out) & ARITHMETIC
    shown = runner.invoke(app, ["rescore", str(archive), "-o", "-"])  # standard output: JSON Lines
    assert shown.exit_code == 0 and [json.loads(x) for x in shown.stdout.splitlines()] == [
        json.loads(line) for line in lines
    ]


def _records_of(path: Path) -> Any:
    from phatlog.archive.records import records

    return records(str(path))


@pytest.mark.parametrize(
    ("into", "words"),
    [
        ("fixed.json", "holds one JSON record, and more than one is rescored: write .jsonl"),
        ("fixed.openspiel", "OpenSpiel"),
        ("fixed.jsonl.gz", "does not write compressed files"),
    ],
)
def test_an_output_that_cannot_hold_the_records_is_refused_and_nothing_written(
    into: str, words: str, tmp_path: Path
) -> None:
    archive = tmp_path / "event.jsonl"
    _write([_load(INVALID / n) for n in WRONG[:2]], archive)
    out = tmp_path / into
    result = runner.invoke(app, ["rescore", str(archive), "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "nothing written" in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [archive]  # no temporary file left either


def test_an_archive_with_a_line_that_is_not_a_record_writes_nothing(tmp_path: Path) -> None:
    archive = tmp_path / "event.jsonl"
    archive.write_text(json.dumps(_load(INVALID / "wrong-points.json")) + '\n{"phatlog": "1.0"}\n', encoding="utf-8")
    out = tmp_path / "fixed.jsonl"
    result = runner.invoke(app, ["rescore", str(archive), "-o", str(out)])
    assert result.exit_code == 2 and f"{archive}:2 is not a record that can be rescored" in result.stderr
    assert not out.exists()
    missing = runner.invoke(app, ["rescore", str(tmp_path / "none.txt"), "-o", str(out)])
    assert missing.exit_code == 2 and "cannot be read: nothing written" in missing.stderr


def test_a_compressed_archive_is_read_and_rescored_in_place_only_when_named(tmp_path: Path) -> None:
    import gzip

    archive = tmp_path / "event.jsonl"
    _write([_load(INVALID / n) for n in WRONG], archive)
    packed = tmp_path / "event.jsonl.gz"
    packed.write_bytes(gzip.compress(archive.read_bytes()))
    out = tmp_path / "fixed.jsonl"
    assert runner.invoke(app, ["rescore", str(packed), "-o", str(out)]).exit_code == 0
    assert not _codes(out) & ARITHMETIC
    result = runner.invoke(app, ["rescore", str(archive), "-o", str(archive)])  # named: replaced
    assert result.exit_code == 0, result.output
    assert not _codes(archive) & ARITHMETIC and archive.read_bytes() == out.read_bytes()
