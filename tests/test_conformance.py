"""The conformance set: the bundled sample games verify clean, and every invalid sample gets exactly the
diagnostics listed for it in ``samples/invalid/expected*.json`` (one manifest a generator), through the
command line.

The samples are written by the ``samples/make_*samples.py`` scripts; re-run them after a change to the
simulator or to what the rules say a record must be told.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.diagnostics import CODES, Severity

SAMPLES: Final = Path(__file__).resolve().parent.parent / "samples"
GAMES: Final = sorted((SAMPLES / "games").glob("*.json"))
INVALID_DIR: Final = SAMPLES / "invalid"
EXPECTED_FILES: Final = sorted(INVALID_DIR.glob("expected*.json"))
UNREADABLE: Final = frozenset({"PL001", "PL002", "PL003", "PL004", "PL006"})
SERIOUS: Final = frozenset({Severity.ERROR.value, Severity.WARNING.value})

runner = CliRunner()


def _expected() -> dict[str, list[dict[str, str]]]:
    data: dict[str, list[dict[str, str]]] = {}
    for manifest in EXPECTED_FILES:
        part: dict[str, list[dict[str, str]]] = json.loads(manifest.read_text(encoding="utf-8"))
        assert not data.keys() & part.keys(), f"{manifest.name} lists a file that another manifest lists"
        data.update(part)
    return data


def _invalid_files() -> list[str]:
    manifests = {p.name for p in EXPECTED_FILES}
    return sorted(p.name for p in INVALID_DIR.iterdir() if p.is_file() and p.name not in manifests)


def _verify(path: Path) -> tuple[int, list[dict[str, Any]]]:
    """Run ``phatlog verify --format json`` on one file: the exit code and the diagnostics (JSON Lines).

    ``--duplicates records``: the conformance set is about what the referee finds in one record, as
    ``samples/conformance.py`` checks it with the library; a deal dealt twice (PL802) is the run's finding
    (one faulty record repeats a hand on purpose), tested in tests/test_archive_commands.py."""
    result = runner.invoke(app, ["verify", "--duplicates", "records", "--format", "json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    rows = [
        r for line in result.stdout.splitlines() if line.strip() and (r := json.loads(line))["kind"] == "diagnostic"
    ]
    return result.exit_code, rows


def _serious(rows: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(r["code"], r["pointer"]) for r in rows if r["severity"] in SERIOUS}


def test_there_are_samples() -> None:
    assert len(GAMES) >= 5
    assert len(_invalid_files()) >= 25


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_sample_game_verifies_clean(path: Path) -> None:
    """No error or warning; notes (info) are allowed: a score sheet says what it cannot prove."""
    code, rows = _verify(path)
    assert [r for r in rows if r["severity"] in SERIOUS] == []
    assert code == 0


def test_expected_lists_every_invalid_sample() -> None:
    listed = set(_expected())
    present = set(_invalid_files())
    assert present - listed == set(), "invalid samples without expected diagnostics"
    assert listed - present == set(), "expected diagnostics for samples that do not exist"


def test_expected_codes_are_registered() -> None:
    for name, items in _expected().items():
        assert items, f"{name}: an invalid sample must expect at least one diagnostic"
        for item in items:
            assert set(item) == {"code", "pointer"}, name
            assert item["code"] in CODES, f"{name}: unknown code {item['code']}"


@pytest.mark.parametrize("name", sorted(_expected()), ids=str)
def test_invalid_sample(name: str) -> None:
    expected = _expected()[name]
    code, rows = _verify(INVALID_DIR / name)
    for row in rows:
        assert row["file"] == str(INVALID_DIR / name)
        assert row["severity"] == CODES[row["code"]].severity.value
    want = {(x["code"], x["pointer"]) for x in expected if CODES[x["code"]].severity.value in SERIOUS}
    assert _serious(rows) == want
    # Info-severity diagnostics need not be listed; those that are listed must be there.
    notes = {(x["code"], x["pointer"]) for x in expected} - want
    assert notes <= {(r["code"], r["pointer"]) for r in rows}
    unreadable = any(x["code"] in UNREADABLE for x in expected)
    errors = any(CODES[x["code"]].severity is Severity.ERROR for x in expected)
    assert code == (2 if unreadable else 1 if errors else 0)  # warnings alone do not fail verify
