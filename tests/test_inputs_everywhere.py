"""Every command reads what ``verify`` reads, and the API reads what the CLI reads.

The matrix: every command that takes records × every kind of input (each notation by its name, each
compression, a directory, ``FILE:N``, standard input). Each cell reads the input (exit 0 or 1), or refuses
it with a clear diagnostic (exit 2: an archive of several records where one is needed says how many and
how to name one); none answers "not-json" for a notation phatlog knows, and none raises. Then outputs by
their names, every writer × notation read back as written; the API's ``read``, ``verify`` and ``records``
against the CLI; contested claims scored from the cards.
"""

from __future__ import annotations

import bz2
import copy
import gzip
import json
import lzma
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import PROFILE
from typer.testing import CliRunner

import phatlog
from phatlog.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "samples" / "games"


#: An Oh Hell game OpenSpiel's oh_hell can hold (one hand, the hook, a miss scored by tricks).
OPENSPIEL_GAME = [
    "--game",
    "oh_hell",
    "-r",
    "schedule=[5]",
    "-r",
    "hook=true",
    "-r",
    "miss=tricks",
    "-r",
    "no_trump=never",
]


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result.exit_code, result.stdout, result.stderr


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return bytes(zstandard.ZstdCompressor().compress(data))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, bytes | None]]:
    """Every kind of input, each holding games of phat-181.json (two where the kind holds several): the
    argument to give and what standard input holds (None: nothing)."""
    here = tmp_path_factory.mktemp("inputs")
    one = (GAMES / "phat-181.json").read_bytes()
    record = json.loads(one)
    other = copy.deepcopy(record)
    other["event"]["table"] = "2"  # another game, the same cards: a duplicate deal (a warning), not a record twice
    lines = (json.dumps(record) + "\n" + json.dumps(other) + "\n").encode()
    (here / "one.json").write_bytes(one)
    (here / "two.jsonl").write_bytes(lines)
    (here / "two.ndjson").write_bytes(lines)
    assert run("convert", str(here / "two.jsonl"), "-o", str(here / "two.txt"))[0] == 0
    (here / "two.phat").write_bytes((here / "two.txt").read_bytes())
    assert run("convert", str(GAMES / "score-sheet-phat-181.json"), "-o", str(here / "sheet.csv"))[0] == 0
    assert run("simulate", *OPENSPIEL_GAME, "--seed", "2", "-o", str(here / "oh.json"))[0] == 0
    assert run("convert", str(here / "oh.json"), "-o", str(here / "oh.openspiel"))[0] == 0
    (here / "dir").mkdir()
    (here / "dir" / "a.json").write_bytes(one)
    (here / "dir" / "b.jsonl.gz").write_bytes(gzip.compress(json.dumps(other).encode() + b"\n"))
    (here / "one.json.gz").write_bytes(gzip.compress(one))
    (here / "two.jsonl.gz").write_bytes(gzip.compress(lines))
    (here / "two.jsonl.bz2").write_bytes(bz2.compress(lines))
    (here / "two.jsonl.xz").write_bytes(lzma.compress(lines))
    (here / "two.txt.gz").write_bytes(gzip.compress((here / "two.txt").read_bytes()))
    kinds: dict[str, tuple[str, bytes | None]] = {name: (str(here / name), None) for name in FILES}
    try:
        (here / "two.jsonl.zst").write_bytes(_zstd(lines))
        kinds["two.jsonl.zst"] = (str(here / "two.jsonl.zst"), None)
    except pytest.skip.Exception:
        pass
    kinds["two.jsonl:2"] = (str(here / "two.jsonl") + ":2", None)
    kinds["two.txt:LINE"] = (str(here / "two.txt") + f":{_second_game(here / 'two.txt')}", None)
    kinds["stdin one"] = ("-", one)
    kinds["stdin two"] = ("-", lines)
    kinds["out"] = (str(here), None)
    return kinds


def _second_game(path: Path) -> int:
    """The line the second game of a text file starts on (after its first ``%%`` line)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, start=1) if text.strip() == "%%") + 1


#: The input files every command is given, one of each kind (the fixture writes them).
FILES: tuple[str, ...] = (
    "one.json",
    "two.jsonl",
    "two.ndjson",
    "two.txt",
    "two.phat",
    "sheet.csv",
    "oh.openspiel",
    "dir",
    "one.json.gz",
    "two.jsonl.gz",
    "two.jsonl.bz2",
    "two.jsonl.xz",
    "two.txt.gz",
)


#: The kinds that hold several records.
SEVERAL: frozenset[str] = frozenset(
    {
        "two.jsonl",
        "two.ndjson",
        "two.txt",
        "two.phat",
        "dir",
        "two.jsonl.gz",
        "two.jsonl.bz2",
        "two.jsonl.xz",
        "two.txt.gz",
        "two.jsonl.zst",
        "stdin two",
    }
)
KINDS = [*FILES, "two.jsonl.zst", "two.jsonl:2", "two.txt:LINE", "stdin one", "stdin two"]


def _analyse(path: str, kind: str) -> list[str]:
    return ["analyse", path, "--from-trick", "5" if kind == "oh.openspiel" else "12", "-f", "json"]


#: Each command as run on an input, and what else it needs.
COMMANDS: dict[str, Callable[[str, str, str], list[str]]] = {
    "verify": lambda path, kind, out: ["verify", path],
    "validate": lambda path, kind, out: ["validate", path],
    "fingerprint": lambda path, kind, out: ["fingerprint", path],
    "select": lambda path, kind, out: ["select", path, "--count"],
    "standings": lambda path, kind, out: ["standings", path, "-f", "csv"],
    "stats": lambda path, kind, out: ["stats", path, "-f", "csv"],
    "replay": lambda path, kind, out: ["replay", path, "-f", "json"],
    "convert": lambda path, kind, out: [
        "convert",
        path,
        "-o",
        f"{out}/converted-{re.sub(r'[^a-z0-9]', '-', kind)}.jsonl",
    ],
    "analyse": lambda path, kind, out: _analyse(path, kind),
}


def _expected(command: str, kind: str) -> str:
    """What a cell does: ``reads``, or the refusal it must word."""
    if command == "replay" and kind in SEVERAL:
        return "PL007"  # one record is needed: how many there are, and how to name one
    if command == "convert" and kind == "dir":
        return "is a directory"
    if command == "analyse" and kind == "sheet.csv":
        return "PL841"  # a score sheet has no cards to value
    return "reads"


def _cells() -> list[tuple[str, str]]:
    """Every command × every kind under the CI and deep profiles. ``make test`` (the fast profile) runs a
    covering set: each command on a file of one record and on a compressed archive of several, and each
    kind under a command in turn (the commands share one input layer; the whole matrix runs in CI)."""
    commands = list(COMMANDS)
    if PROFILE != "fast":
        return [(c, k) for c in commands for k in KINDS]
    cells = {(c, k) for c in commands for k in ("one.json", "two.jsonl.gz")}
    cells |= {(commands[i % len(commands)], k) for i, k in enumerate(KINDS)}
    cells |= {("replay", k) for k in SEVERAL if k in KINDS}  # each archive where one record is needed
    return sorted(cells)


@pytest.mark.parametrize(("command", "kind"), _cells())
def test_every_command_reads_every_input(inputs: dict[str, tuple[str, bytes | None]], command: str, kind: str) -> None:
    if kind not in inputs:
        pytest.skip("zstandard is not installed")
    path, stdin = inputs[kind]
    code, out, err = run(*COMMANDS[command](path, kind, inputs["out"][0]), stdin=stdin)
    said = out + err
    assert "not-json" not in said and "PL002" not in said, said
    expected = _expected(command, kind)
    if expected == "reads":
        assert code in (0, 1), said
        assert "PL001" not in said and "PL007" not in said, said
    else:
        assert code == 2 and expected in said, said
        if expected == "PL007":
            assert re.search(r"holds 2 records|directory holding 2 records", said), said


def test_replay_of_an_archive_names_its_records(inputs: dict[str, tuple[str, bytes | None]]) -> None:
    path = inputs["two.jsonl.gz"][0]
    code, out, _ = run("replay", path, "-f", "text")
    assert code == 2
    assert f"holds 2 records, and one is needed here: name one by the line it starts on, as {path}:1" in out
    code, out, _ = run("replay", f"{path}:2", "-f", "json")
    assert code == 0 and json.loads(out)["source"] == f"{path}:2"


def test_a_damaged_compressed_archive_is_said_after_its_good_records(tmp_path: Path) -> None:
    good = (GAMES / "phat-181.json").read_text()
    packed = gzip.compress(((json.dumps(json.loads(good)) + "\n") * 3000).encode())
    damaged = tmp_path / "cut.jsonl.gz"
    damaged.write_bytes(packed[: len(packed) // 2])
    code, out, err = run("verify", "--duplicates", "off", str(damaged))
    assert code == 2
    assert "the gzip data does not decompress" in out
    assert re.search(r"(\d+) records .* verified: \1 clean|verified: (\d+) clean", err)
    assert int(re.search(r"verified: (\d+) clean", err).group(1)) > 0  # type: ignore[union-attr]


def test_the_same_diagnostics_and_lines_compressed_or_not(tmp_path: Path) -> None:
    lines = (GAMES / "phat-181.json").read_text()
    record = json.loads(lines)
    bad = copy.deepcopy(record)
    bad["deals"][0]["score"]["points"][0] += 1
    text = "".join(json.dumps(r) + "\n" for r in (record, bad, record)) + "{not json\n"
    plain = tmp_path / "a.jsonl"
    plain.write_text(text)
    (tmp_path / "a.jsonl.xz").write_bytes(lzma.compress(text.encode()))
    a = run("verify", "-f", "json", str(plain))
    b = run("verify", "-f", "json", str(tmp_path / "a.jsonl.xz"))
    assert a[0] == b[0] == 2
    assert a[1].replace("a.jsonl", "X") == b[1].replace("a.jsonl.xz", "X")
    assert '"line": 4' in a[1] and '"line": 2' in a[1]


def test_a_zst_input_without_zstandard_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_zstd(name: str, *args: object, **kwargs: object) -> object:
        if name in ("zstandard", "compression.zstd", "compression"):
            raise ImportError(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_zstd)
    monkeypatch.setattr("importlib.import_module", lambda name: no_zstd(name))
    path = tmp_path / "a.jsonl.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd junk")
    code, out, _ = run("verify", str(path))
    assert code == 2 and "pip install 'phatlog[zstd]'" in out


# ------------------------------------------------------------------------------------ outputs


@pytest.mark.parametrize("name", ["sel.jsonl", "sel.ndjson", "sel.txt", "sel.phat", "sel.csv"])
def test_select_writes_the_notation_its_name_says(tmp_path: Path, name: str) -> None:
    archive = tmp_path / "in.jsonl"
    assert run("simulate", "--count", "3", "--seed", "4", "-o", str(archive))[0] == 0
    target = tmp_path / name
    assert run("select", str(archive), "-o", str(target))[0] == 0
    assert run("verify", "--duplicates", "off", str(target)) == run("verify", "--duplicates", "off", str(archive))
    written = [phatlog.verify(e).totals for e in phatlog.records(str(target))]
    assert written == [phatlog.verify(e).totals for e in phatlog.records(str(archive))]
    if name.endswith(".txt"):
        assert not target.read_text().lstrip().startswith("{")  # the text notation, not JSON Lines


def test_select_refuses_a_name_it_does_not_know_and_writes_to_standard_output(tmp_path: Path) -> None:
    archive = tmp_path / "in.jsonl"
    assert run("simulate", "--count", "2", "-o", str(archive))[0] == 0
    code, _, err = run("select", str(archive), "-o", str(tmp_path / "sel.dat"))
    assert code == 2 and ".jsonl, .ndjson, .txt" in err and not (tmp_path / "sel.dat").exists()
    code, _, err = run("select", str(archive), "-o", str(tmp_path / "sel.json"))
    assert code == 2 and "holds one JSON record" in err and not (tmp_path / "sel.json").exists()
    code, out, _ = run("select", str(archive))
    assert code == 0 and out == archive.read_text()


WRITERS: dict[str, Callable[[str, str, list[str]], list[str]]] = {
    "simulate": lambda src, out, made: [*made, "-o", out],
    "select": lambda src, out, made: ["select", src, "-o", out],
    "convert": lambda src, out, made: ["convert", src, "-o", out],
}


@pytest.mark.parametrize("notation", ["jsonl", "ndjson", "txt", "phat", "csv", "json", "openspiel"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_writer_writes_what_phatlog_reads_back(tmp_path: Path, writer: str, notation: str) -> None:
    """Each writer × notation: written, then read back to the same records (or refused, writing nothing)."""
    source = tmp_path / "src.jsonl"
    game = OPENSPIEL_GAME if notation == "openspiel" else []
    count = "1" if notation in ("json", "openspiel") else "2"
    made = ["simulate", *game, "--count", count, "--seed", "9"]
    assert run(*made, "-o", str(source))[0] == 0
    target = tmp_path / f"out.{notation}"
    code, _, err = run(*WRITERS[writer](str(source), str(target), made))
    if code == 2:  # a notation that cannot carry these records: refused, nothing written
        assert "nothing written" in err and not target.exists(), err
        assert notation in ("csv", "openspiel") and writer == "convert", err
        return
    assert code == 0, err
    back = [_deals(e) for e in phatlog.records(str(target))]
    assert back == [_deals(e) for e in phatlog.records(str(source))]
    assert all(phatlog.verify(e).clean for e in phatlog.records(str(target)))


def _deals(entry: phatlog.RecordEntry) -> object:
    """A record's deals as data: what every notation that can hold the record carries."""
    assert entry.record is not None, entry.diagnostics
    return entry.record.model_dump(exclude_unset=True)["deals"]


# ------------------------------------------------------------------------------------ the API


@pytest.mark.parametrize(
    "kind", ["one.json", "one.json.gz", "two.jsonl:2", "two.txt:LINE", "oh.openspiel", "sheet.csv"]
)
def test_the_api_reads_what_the_cli_reads(inputs: dict[str, tuple[str, bytes | None]], kind: str) -> None:
    path = inputs[kind][0]
    verdict = phatlog.verify(path)
    code, _, _ = run("verify", "--duplicates", "off", path)
    assert verdict.clean == (code == 0)
    assert phatlog.read(path).game in ("phat", "oh_hell")


def test_records_iterates_every_kind(inputs: dict[str, tuple[str, bytes | None]]) -> None:
    for kind in SEVERAL - {"stdin two", "dir"}:
        if kind in inputs:
            found = list(phatlog.records(inputs[kind][0]))
            assert len(found) == 2 and all(e.ok for e in found), kind
            assert found[0].line == 1
    found = list(phatlog.records(inputs["dir"][0]))
    assert [Path(e.where).name for e in found] == ["a.json", "b.jsonl.gz:1"]
    assert [e.where for e in phatlog.records(inputs["stdin two"][1] or b"")] == ["<bytes>:1", "<bytes>:2"]


def test_verify_of_an_archive_or_bad_input_is_a_verdict() -> None:
    verdict = phatlog.verify("samples/invalid/not-json.json")
    assert not verdict.clean and [d.code for d in verdict.diagnostics] == ["PL002"]
    with pytest.raises(phatlog.ReadError) as raised:
        phatlog.read(str(ROOT / "samples" / "events" / "phat"))
    assert raised.value.diagnostics[0].code == "PL007"
    with pytest.raises(TypeError, match="not int"):
        phatlog.verify(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not list"):
        list(phatlog.records([]))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ contested claims


def _contested(decision: int, points: list[int] | None = None) -> dict[str, object]:
    record = json.loads((ROOT / "samples" / "rulings" / "phat-claim.json").read_text())
    record["deals"][0]["rulings"][0].update(accepted=False, decision=decision)
    if points is not None:
        record["deals"][0]["score"] = {"points": points, "total": points}
    return dict(record)


def test_a_claim_refused_outright_is_scored_from_the_cards() -> None:
    """Decision 0: the other side takes every unplayed card, so a wrong score is found at its own deal."""
    verdict = phatlog.verify(_contested(0))
    first = [d for d in verdict.diagnostics if d.code == "PL401"]
    assert first and first[0].pointer.startswith("/deals/0/score/points")
    assert "the rules give 44" in first[0].message


def test_a_claim_that_splits_the_rest_says_what_was_checked() -> None:
    verdict = phatlog.verify(_contested(1))
    assert verdict.clean
    (note,) = [d for d in verdict.diagnostics if d.code == "PL406"]
    assert "its 11 recorded trick(s) are checked card by card" in note.message
    assert "gives 1 of the 2 unplayed trick(s)" in note.message and "score sheet (no cards)" not in note.message


def test_a_decision_of_every_trick_is_the_claimers() -> None:
    assert phatlog.verify(_contested(2)).clean  # the same as the claim accepted: the recorded score holds


# ------------------------------------------------------------------------------------ analyse


def test_analyse_writes_a_deal_a_line_the_same_in_two_processes(inputs: dict[str, tuple[str, bytes | None]]) -> None:
    path = inputs["two.jsonl"][0]
    code, out, _ = run("analyse", path, "--from-trick", "12", "-f", "json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [(x["file"], [d["deal"] for d in x["deals"]]) for x in lines] == [
        (f"{path}:{n}", [deal])
        for n in (1, 2)
        for deal in range(1, 4)  # deal 4 stops at trick 1: no card to value
    ]
    code, two, _ = run("analyse", path, "--from-trick", "12", "-f", "json", "--jobs", "2")
    assert code == 0 and two == out  # each deal from a cold table: the same bytes, the nodes counted included
    code, text, _ = run("analyse", path, "--from-trick", "12", "-f", "text")
    assert code == 0 and text.count(f"Record {path}:") == 2 and text.count("Cost by player") == 6


def test_analyse_says_once_that_the_c_solver_is_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHATLOG_PURE_PYTHON", "1")
    code, _, err = run("analyse", str(GAMES / "phat-181.json"), "--from-trick", "13", "-f", "json")
    assert code == 0 and err.count("the C solver is not built") == 1 and "about 100 times slower" in err


# ------------------------------------------------------------------------------------ progress


def test_progress_on_a_terminal_only_and_never_in_the_output(tmp_path: Path) -> None:
    archive = tmp_path / "big.jsonl"
    line = json.dumps(json.loads((GAMES / "phat-181.json").read_text())) + "\n"
    archive.write_text(line * (1_000_000 // len(line) + 1))  # over the size that gets a bar
    plain = runner.invoke(app, ["fingerprint", str(archive)])
    shown = runner.invoke(app, ["fingerprint", str(archive)], env={"TTY_COMPATIBLE": "1"})
    assert plain.exit_code == shown.exit_code == 0
    assert shown.stdout == plain.stdout and "fingerprinting" in shown.stderr and plain.stderr == ""
    as_json = runner.invoke(app, ["stats", str(archive), "-f", "json"], env={"TTY_COMPATIBLE": "1"})
    assert as_json.exit_code == 0 and "counting" not in as_json.stderr


def test_analyse_counts_the_cards_it_values_on_a_terminal() -> None:
    """The bar of ``analyse`` counts cards, not deals (one 52-card deal is minutes of work), and is never in
    the output; JSON output has none."""
    path = str(GAMES / "nine-card-don-worked-6-3.json")
    plain = runner.invoke(app, ["analyse", path, "--from-trick", "7", "--no-pitch", "-f", "text"])
    shown = runner.invoke(
        app, ["analyse", path, "--from-trick", "7", "--no-pitch", "-f", "text"], env={"TTY_COMPATIBLE": "1"}
    )
    assert plain.exit_code == shown.exit_code == 0 and plain.stderr == ""
    assert shown.stdout == plain.stdout and "valuing cards" in shown.stderr and "/12" in shown.stderr
    as_json = runner.invoke(app, ["analyse", path, "--from-trick", "7", "-f", "json"], env={"TTY_COMPATIBLE": "1"})
    assert as_json.exit_code == 0 and "valuing cards" not in as_json.stderr


def test_replay_analyse_counts_the_cards_it_values_on_a_terminal() -> None:
    """``replay --analyse`` of one deal shows a bar too (it had none where a deal was asked for), counting
    cards, and what it prints is the same without it."""
    path = str(GAMES / "nine-card-don-worked-6-3.json")
    asked = ["replay", path, "--analyse", "--deal", "1", "--format", "text"]
    plain = runner.invoke(app, asked)
    shown = runner.invoke(app, asked, env={"TTY_COMPATIBLE": "1"})
    assert plain.exit_code == shown.exit_code == 0
    assert shown.stdout == plain.stdout and "valuing cards" in shown.stderr and "valuing" not in plain.stderr


def test_single_dummy_counts_its_decisions_on_a_terminal() -> None:
    """``analyse --single-dummy`` shows how many decisions it has to value (a card played each)."""
    path = str(GAMES / "nine-card-don-worked-6-3.json")
    asked = ["analyse", path, "--single-dummy", "--samples", "2", "--from-trick", "8", "-f", "text"]
    plain = runner.invoke(app, asked)
    shown = runner.invoke(app, asked, env={"TTY_COMPATIBLE": "1"})
    assert plain.exit_code == shown.exit_code == 0
    assert shown.stdout == plain.stdout and "valuing decisions" in shown.stderr and "/8" in shown.stderr
