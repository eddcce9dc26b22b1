"""Edges shared by the format readers: repeated keys in embedded JSON, archive line places, key order."""

from __future__ import annotations

import json

import pytest

from phatlog.formats import base, jsonl, text
from phatlog.play.simulate import simulate


def test_a_repeated_key_in_embedded_json_is_refused_with_its_place() -> None:
    """``ext`` in the text notation is JSON: a key given twice is as ambiguous there as in a record."""
    game = next(iter(simulate("phat", 1, 1)))
    game["ext"] = {"a": 1}
    written = text.dumps(game)
    assert '[Ext {"a": 1}]' in written
    (parsed,) = list(text.loads(written.replace('[Ext {"a": 1}]', '[Ext {"a": 1, "a": 2}]')))
    assert parsed.record is None
    (d,) = parsed.diagnostics
    assert d.code == "PL701"
    assert "'a' is given twice" in d.message
    assert d.line == next(i for i, ln in enumerate(written.splitlines(), start=1) if ln.startswith("[Ext"))


def test_an_archive_line_is_placed_on_its_line_by_convert_as_by_verify() -> None:
    """A truncated line 3 is "line 3 column N" in convert's reader, as in verify's: not "line 2 column 1"."""
    good = json.dumps(next(iter(simulate("phat", 1, 1))), separators=(",", ":"))
    archive = f'{good}\n\n{{"phatlog":"1.0","game":"phat"\n{good}\n'
    found = [p for p in jsonl.loads(archive) if p.diagnostics]
    (bad,) = found
    (d,) = bad.diagnostics
    assert (d.code, d.line, d.column) == ("PL002", 3, 31)
    assert "at line 3 column 31" in d.message


def test_an_unpaired_surrogate_in_the_text_notation_is_refused_at_its_place() -> None:
    """The JSON reader refuses an unpaired surrogate escape; so does every notation (found by the fuzzer:
    the text reader took it, and the JSON writer then wrote a record no reader could read)."""
    game = next(iter(simulate("phat", 1, 1)))
    game["comment"] = "x"
    written = text.dumps(game)
    assert '[Comment "x"]' in written
    (parsed,) = list(text.loads(written.replace('[Comment "x"]', '[Comment "\\ud800"]')))
    assert parsed.record is None
    (d,) = parsed.diagnostics
    assert (d.code, "unpaired surrogate" in d.message) == ("PL701", True)
    assert d.line == next(i for i, ln in enumerate(written.splitlines(), start=1) if ln.startswith("[Comment"))
    with pytest.raises(ValueError, match="unpaired surrogate"):
        base.json_loads('{"a": "\\udc00"}')
