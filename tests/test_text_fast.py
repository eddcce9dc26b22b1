"""The text notation's fast path (issue 16, ``phatlog/formats/text_fast.py``) against the full reader, the reference.

For every text here the fast path either declines or gives exactly what the full reader gives: the same
canonical record (so ``parse`` gives the same record and the same diagnostics, placed on the same lines),
and, for ``verify``, structs that the referee judges as it judges the full reader's record. The texts:
the writer's text of every sample record and of simulated games of every game, the documentation's
examples, and hypothesis's variations of them (space, line ends, comments, case, card spellings, order,
lines dropped or swapped, characters inserted or deleted). Then ``verify`` of text files, whole.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any, Final

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from phatlog.archive.check import check_all
from phatlog.cli.app import app
from phatlog.formats import text, text_fast, text_files
from phatlog.formats.base import parse_card
from phatlog.play.simulate import simulate
from phatlog.record import decoder as wire
from phatlog.referee.games import referee

REPO: Final = Path(__file__).resolve().parent.parent
runner = CliRunner()
SAMPLES: Final = sorted(p for d in ("games", "rulings", "invalid") for p in (REPO / "samples" / d).glob("*.json"))


def _verdict(record: Any) -> list[tuple[str, str, str]]:
    return [(d.code, d.pointer, d.message) for d in referee(record).diagnostics]


def same_as_full(source: str) -> bool:
    """The fast path agrees with the full reader on ``source``; True if it read it (did not decline)."""
    full = text.full_parse(source)
    assert text.parse(source) == full
    fast = text_fast.record(source)
    struct = text_fast.wire_record(source)
    if fast is not None:
        assert full.diagnostics == [] and fast == full.record
    if struct is not None:
        assert full.record is not None and full.diagnostics == []
        assert _verdict(struct) == _verdict(wire.convert(full.record))
    return fast is not None


def _writable(path: Path) -> str | None:
    try:
        return text.dumps(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, RecursionError):
        return None  # not a record the writer takes (most invalid samples)


@cache
def written() -> list[str]:
    """The writer's text of every sample it takes, and of simulated games of every game."""
    out = [t for t in map(_writable, SAMPLES) if t is not None]
    for game, options in (
        ("phat", {}),
        ("phat", {"with_cut": True}),
        ("nine_card_don", {"with_cut": True}),
        ("irish_don", {}),
        ("oh_hell", {"players": 3}),
        ("oh_hell", {"players": 7}),
    ):
        out += [text.dumps(g) for g in simulate(game, 5, 1, **options)]
    return out


def _doc_examples() -> list[str]:
    doc = (REPO / "docs" / "text-notation.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in doc.split("```text example\n")[1:]]


def test_the_card_table_reads_as_parse_card() -> None:
    assert text_fast.CARDS and all(parse_card(k) == v for k, v in text_fast.CARDS.items())


@given(st.text(alphabet="0123456789TJQKAtjqkaCDHScdhs♣♦♥♠♧♢♡♤\ufe0fxX1", min_size=1, max_size=4))
def test_a_word_in_the_card_table_is_the_card_parse_card_reads(word: str) -> None:
    if word in text_fast.CARDS:
        assert parse_card(word) == text_fast.CARDS[word]


def test_every_written_sample_and_simulated_game_is_read_fast_as_the_full_reader_reads_it() -> None:
    texts = written()
    read = [same_as_full(t) for t in texts]
    assert len(texts) > 60
    # What the writer writes is read fast, a cut with seats that did not cut (nulls) included.
    assert sum("[Cut " in t and " -" in t for t in texts) >= 3
    # All but a game with both a trick partly played before a claim (format 1.1) and a cut with a seat that
    # did not cut: such a record is checked by the decoder of whole tricks, so the full reader reads it.
    declined = [t for t, r in zip(texts, read, strict=True) if not r]
    assert [t.splitlines()[2] for t in declined if not _partly_played_with_a_null_cut(t)] == []
    assert len(declined) <= 2


def _partly_played_with_a_null_cut(source: str) -> bool:
    record = text.full_parse(source).record
    assert record is not None
    short = any(len(t["cards"]) < 4 for d in record["deals"] for t in d.get("tricks") or [])
    return short and any(None in row for row in record.get("cut") or [])


def test_the_documentation_examples() -> None:
    examples = _doc_examples()
    assert len(examples) >= 3
    for example in examples:
        same_as_full(example)


# ---------------------------------------------------------------------------------------- variations

_PALETTE: Final = [" ", "\t", "\n", "\r", ":", "{", "}", '"', ";", "-", ">", "1", ".", "A", "%", "[", "]", "/", "\xa0"]
_SPELLINGS: Final = {"T": ["10", "t"], "J": ["j"], "Q": ["q"], "K": ["k"], "A": ["a"]}
_SUITS: Final = {"C": ["c", "♣", "♧"], "D": ["d", "♦"], "H": ["h", "♥", "♡"], "S": ["s", "♠"]}


def _respell(card: str, pick: int) -> str:
    rank, suit = card[0], card[1]
    ranks = [rank, *_SPELLINGS.get(rank, [])]
    suits = [suit, *_SUITS[suit]]
    r, s = ranks[pick % len(ranks)], suits[(pick // 3) % len(suits)]
    return s + r if pick % 2 else r + s


def _vary(source: str, ops: list[tuple[int, int, int]]) -> str:
    lines = source.split("\n")
    for kind, at, pick in ops:
        if not lines:
            break
        i = at % len(lines)
        line = lines[i]
        if kind == 0:  # indentation and trailing space
            lines[i] = " \t"[pick % 2] * (pick % 4) + line.strip() + " " * (pick % 3)
        elif kind == 1:  # a blank line
            lines.insert(i, "   " if pick % 2 else "")
        elif kind == 2:  # a comment on a line of its own
            lines.insert(i + 1, ["{a note}", "; a note ", 'comment "x"', "{two\nlines}", "  {  }"][pick % 5])
        elif kind == 3:  # a comment after the items of a line
            lines[i] = line + [" {c}", " ; c", "{c}", " {c\nd}"][pick % 4]
        elif kind == 4:  # a keyword or a name in another case
            words = line.split(" ")
            j = pick % len(words)
            words[j] = words[j].upper() if pick % 2 else words[j].lower()
            lines[i] = " ".join(words)
        elif kind == 5:  # a card in another spelling
            words = line.split(" ")
            cards = [j for j, w in enumerate(words) if w in text_fast.CARDS and len(w) == 2 and w.isupper()]
            if cards:
                j = cards[pick % len(cards)]
                words[j] = _respell(words[j], pick)
                lines[i] = " ".join(words)
        elif kind == 6:  # two lines swapped (items in another order, or a mistake)
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], line
        elif kind == 7:  # a line dropped
            del lines[i]
        elif kind == 8:  # a character inserted
            c = pick % (len(line) + 1)
            lines[i] = line[:c] + _PALETTE[pick % len(_PALETTE)] + line[c:]
        elif kind == 9:  # a character deleted
            if line:
                c = pick % len(line)
                lines[i] = line[:c] + line[c + 1 :]
        elif kind == 10:  # a trick's leader left out
            head, dot, rest = line.partition(". ")
            if dot and head.strip().isdigit() and ":" in rest:
                lines[i] = head + dot + rest.split(":", 1)[1].strip()
        else:  # CRLF line ends
            lines = [x + "\r" for x in lines]
    return "\n".join(lines)


@cache
def _bases() -> list[str]:
    """Short texts to vary: one deal or a few, of every game, with rulings, names that need care, a cut."""
    small = [t for t in written() if t.count("\ndeal ") <= 3]
    return small[:12] + [e for e in _doc_examples()]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.data(),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=5),
)
def test_variations_are_read_fast_only_as_the_full_reader_reads_them(
    data: st.DataObject, ops: list[tuple[int, int, int]]
) -> None:
    bases = _bases()
    source = bases[data.draw(st.integers(0, len(bases) - 1))]
    same_as_full(_vary(source, ops))


@pytest.mark.parametrize(
    "source",
    [
        '[Game "phat"]\n[Player "Ann"] [Player "ann"] [Player "Cal"] [Player "Dee"]\ndeal 1\n dealer ANN\n',
        '[Game "phat"]\n[Player "Ah"] [Player "B"] [Player "C"] [Player "D"]\ndeal 1\n dealer B\n hands\n'
        "  B: 2C\n  Ah: 3C\n",
        '[Game "phat"]\n[Rules "target=+1 x=007 y=NaN z=[1,2]"]\ndeal 1\n',
        '[Game "phat"]\n[Player "N"]\u00a0[Player "E"]\ndeal 1\n',
        '[Game "phat"]\n[Cut "AS - 3C -"]\ndeal 1\n',
        "deal 1\n",
        "",
        '[Game "phat"] [Game "phat"]\n',
        '[Game "phat"]\n{open comment\ndeal 1\n',
        '[Game "phat"]\n[Player "N"] [Player "E"] [Player "S"] [Player "W"]\ndeal 2\n dealer N\n',
        '[Game "phat"]\n[Player "N"] [Player "E"] [Player "S"] [Player "W"]\ndeal 1\n dealer N\n 1. E: AS 2S\n'
        " 1. E: AS 2S\n",
    ],
)
def test_edges(source: str) -> None:
    """Names told apart only by case, a player named like a card, rule values that are not JSON, odd
    space, a null in the cut, no game tag, a tag twice, an open comment, a deal or trick numbered wrong."""
    same_as_full(source)


# ---------------------------------------------------------------------------------------- verify of text files


def _archive(tmp_path: Path, games: list[dict[str, Any]], name: str = "games.txt") -> Path:
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as f:
        text.dump(games, f)
    return path


def _totals(path: Path) -> tuple[int, int, int, int]:
    results = list(check_all([str(path)], True))
    return (
        sum(r.records for r in results),
        sum(r.deals for r in results),
        sum(r.clean for r in results),
        sum(r.problems for r in results),
    )


def test_verify_reads_a_text_archive_as_it_reads_the_same_games_in_json_lines(tmp_path: Path) -> None:
    games = [*simulate("phat", 3, 3), *simulate("oh_hell", 3, 2, players=4)]
    games[1]["deals"][0]["score"]["points"][0] += 1  # a wrong score: the referee's, in both
    as_text = _archive(tmp_path, games)
    as_lines = tmp_path / "games.jsonl"
    as_lines.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    assert _totals(as_text) == _totals(as_lines) == (5, sum(len(g["deals"]) for g in games), 4, 1)
    found = [r for res in check_all([str(as_text)], True) for r in res.reports]
    lines = [r for res in check_all([str(as_lines)], True) for r in res.reports]
    assert [[(d.code, d.pointer) for d in r.diagnostics] for r in found] == [
        [(d.code, d.pointer) for d in r.diagnostics] for r in lines
    ]
    starts = [i + 1 for i, line in enumerate(as_text.read_text(encoding="utf-8").split("\n")) if line == "%%"]
    assert found[0].line == starts[0] + 1  # the second game starts on the line after the first separator


def test_verify_of_a_text_file_gives_the_full_readers_diagnostics_on_the_files_lines(tmp_path: Path) -> None:
    games = list(simulate("phat", 4, 2))
    path = _archive(tmp_path, games)
    lines = path.read_text(encoding="utf-8").split("\n")
    bad = next(i for i, line in enumerate(lines) if i > lines.index("%%") and line.strip().startswith("3."))
    lines[bad] = lines[bad].replace(lines[bad].split()[2], "1H")
    path.write_text("\n".join(lines), encoding="utf-8")
    reports = [r for res in check_all([str(path)], True) for r in res.reports]
    second = text.full_parse("\n".join(lines[lines.index("%%") + 1 :]))
    assert [(d.code, d.line) for d in reports[0].diagnostics] == [("PL701", bad + 1)]
    assert reports[0].diagnostics[0].message == second.diagnostics[0].message.replace(
        f"(line {second.diagnostics[0].line},", f"(line {bad + 1},"
    )


def test_verify_of_one_text_game_and_an_empty_game_between_separators(tmp_path: Path) -> None:
    game = next(iter(simulate("irish_don", 2, 1)))
    one = tmp_path / "one.phat"
    one.write_text(text.dumps(game), encoding="utf-8")
    assert _totals(one) == (1, len(game["deals"]), 1, 0)
    two = tmp_path / "two.txt"
    two.write_text(text.dumps(game) + "\n%%\n\n%%\n" + text.dumps(game), encoding="utf-8")
    reports = [r for res in check_all([str(two)], True) for r in res.reports]
    assert [d.code for r in reports for d in r.diagnostics] == ["PL701"]
    assert "no game here" in reports[0].diagnostics[0].message


def test_verify_of_a_clean_text_file_loads_no_pydantic(tmp_path: Path) -> None:
    path = _archive(tmp_path, list(simulate("nine_card_don", 6, 2)))
    code = (
        "import sys\n"
        f"sys.argv = ['phatlog', 'verify', {str(path)!r}]\n"
        "from phatlog.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'rich', 'typer')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"


def test_wire_record_is_the_json_readers_record() -> None:
    game = next(iter(simulate("oh_hell", 8, 1, players=5)))
    struct = text_fast.wire_record(text.dumps(game))
    assert struct is not None
    assert _verdict(struct) == _verdict(wire.decode(msgspec.json.encode(game)))


def test_verify_exit_codes_for_text_files(tmp_path: Path) -> None:
    """A clean text archive exits 0; a game that does not read is a problem (1); bytes not UTF-8 are
    unreadable (2), with the line."""
    clean = _archive(tmp_path, list(simulate("phat", 9, 2)))
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "phat"]\n[Player "N"] [Player "E"] [Player "S"] [Player "W"]\ndeal 1 dealer W\n  1. N: 1H\n')
    binary = tmp_path / "binary.phat"
    binary.write_bytes(b'[Game "phat"]\n\xff\n')
    runs = [runner.invoke(app, ["verify", str(p)]) for p in (clean, bad, binary)]
    assert [r.exit_code for r in runs] == [0, 1, 2]
    assert "bad.txt:4:9: /: error PL701" in runs[1].output
    assert "binary.phat:2: /: error PL002" in runs[2].output


def _file_cases() -> list[tuple[str, bytes, int]]:
    games = list(simulate("phat", 12, 3))
    one, two, three = (text.dumps(g).encode() for g in games)
    bad = b'[Game "phat"]\ndeal 1 dealer W\n'
    return [
        ("one game", one, 1 << 26),
        ("an archive", one + b"\n%%\n\n" + two + b"\n%%\n\n" + three, 1 << 26),
        (
            "CRLF, a BOM, spaces round the separators",
            b"\xef\xbb\xbf" + one.replace(b"\n", b"\r\n") + b" %% \r\n" + two,
            1 << 26,
        ),
        ("separators first, twice and last", b"%%\n" + one + b"%%\n%%\n" + bad + b"\n%%\n" + two + b"%%\n", 1 << 26),
        ("a game too large", one + b"%%\n" + two, len(one) - 10),
        ("the second game too large", one + b"%%\n" + two + b"%%\n" + three, len(two) - 100),
        ("a line not UTF-8", one + b"%%\n" + two[:50] + b"\xff" + two[50:], 1 << 26),
        ("no line end at the end", one + b"%%\n" + two.rstrip(b"\n"), 1 << 26),
    ]


@pytest.mark.parametrize("block", [1 << 20, 5, 64])
@pytest.mark.parametrize("case", _file_cases(), ids=lambda c: c[0])
def test_verify_reads_the_games_of_a_file_as_convert_does(
    case: tuple[str, bytes, int], block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``read_games`` (a block at a time, whatever the block) finds the games, lines and read diagnostics
    ``formats.games.load`` finds (a line at a time); where reading stops early, it has checked the games
    before (that one has not)."""
    import io

    _, data, max_bytes = case
    path = tmp_path / "games.txt"
    path.write_bytes(data)
    monkeypatch.setattr(text_files, "BLOCK", block)
    ours = list(text_files.read_games(str(path), max_bytes))
    theirs = list(text.load(io.BytesIO(data), str(path), max_bytes))
    if theirs[-1].record is None and theirs[-1].diagnostics[0].code in ("PL002", "PL003"):
        assert len(theirs) == 1
        ours = ours[-1:]
    assert [(line, loaded.diagnostics, loaded.record is None) for line, loaded in ours] == [
        (p.line, p.diagnostics, p.record is None) for p in theirs
    ]


def test_what_the_referee_finds_in_a_text_game_is_placed_on_the_files_lines(tmp_path: Path) -> None:
    games = list(simulate("phat", 3, 2))
    games[1]["deals"][0]["score"]["points"][0] += 1
    path = _archive(tmp_path, games)
    lines = path.read_text(encoding="utf-8").split("\n")
    points = next(i for i in range(lines.index("%%"), len(lines)) if lines[i].strip().startswith("points")) + 1
    reports = [r for res in check_all([str(path)], True) for r in res.reports]
    assert [(d.code, d.pointer, d.line, d.column) for d in reports[0].diagnostics] == [
        ("PL401", "/deals/0/score/points/0", points, lines[points - 1].index("points") + len("points") + 2)
    ]
    one = tmp_path / "one.txt"
    one.write_text(text.dumps(games[1]), encoding="utf-8")
    [[found]] = [r.diagnostics for res in check_all([str(one)], True) for r in res.reports]
    assert (found.line, found.column) == (points - lines.index("%%") - 2, reports[0].diagnostics[0].column)


def test_select_and_fingerprint_read_a_text_archive_as_verify_does(tmp_path: Path) -> None:
    """A game of a text file is a record for every command: the same fingerprints as the same games in
    JSON Lines, and select writes the games it picks as JSON lines that verify clean."""
    games = [*simulate("phat", 5, 2), *simulate("oh_hell", 5, 1, players=3)]
    as_text = _archive(tmp_path, games)
    as_lines = tmp_path / "games.jsonl"
    as_lines.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    prints = [runner.invoke(app, ["fingerprint", str(p)]) for p in (as_text, as_lines)]
    assert [r.exit_code for r in prints] == [0, 0]
    assert [line.split()[-1] for line in prints[0].output.splitlines()] == [
        line.split()[-1] for line in prints[1].output.splitlines()
    ]
    picked = runner.invoke(app, ["select", str(as_text), "--game", "phat", "-o", str(tmp_path / "out.jsonl")])
    assert picked.exit_code == 0, picked.output
    out = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["game"] for g in out] == ["phat", "phat"]
    assert runner.invoke(app, ["verify", "-q", str(tmp_path / "out.jsonl")]).exit_code == 0
