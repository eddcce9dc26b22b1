"""A record that says it is format 1.0 but uses what only 1.1 has (a deal's rulings) is refused by every
reader of JSON, as ``verify`` refuses it (PL102): ``convert`` does not pass it on to be written as
something it is not (found by ``bench/fuzz.py``: it came back from the text notation as a 1.1 record)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.formats import FORMATS

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _claimed_1_0() -> bytes:
    record = json.loads((ROOT / "samples" / "rulings" / "oh-hell-claim.json").read_text(encoding="utf-8"))
    record["phatlog"] = "1.0"
    return json.dumps(record).encode()


def test_the_json_readers_refuse_a_1_0_record_with_rulings() -> None:
    data = _claimed_1_0()
    for kind, payload in (("json", data), ("jsonl", data + b"\n")):
        (parsed,) = list(FORMATS[kind].loads(payload, "<test>"))
        assert parsed.record is None, kind
        assert [d.code for d in parsed.diagnostics] == ["PL102"], kind


def test_convert_refuses_it_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "claimed.json"
    source.write_bytes(_claimed_1_0())
    out = tmp_path / "claimed.txt"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 2 and "PL102" in result.output and not out.exists()
