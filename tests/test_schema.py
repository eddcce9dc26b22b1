"""The published schema: generated from the models, committed twice, printed by the CLI, all identical."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from phatlog.cli.app import app
from phatlog.record.model import FORMAT_VERSION, GAMES
from phatlog.record.schema import (
    SCHEMA_FILE,
    SCHEMA_ID,
    build_schema,
    dumps_schema,
    published_schema,
    published_schema_text,
)

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = (ROOT / "schemas" / SCHEMA_FILE, ROOT / "phatlog" / "schemas" / SCHEMA_FILE)
REGENERATE = "regenerate it with `.venv/bin/python -m phatlog.record.schema_tool` (the models are the source of truth)"


def generated_text() -> str:
    return dumps_schema(build_schema())


def test_committed_schema_files_equal_the_generated_schema_byte_for_byte() -> None:
    expected = generated_text().encode("utf-8")
    for path in COMMITTED:
        assert path.read_bytes() == expected, f"{path} is out of date: {REGENERATE}"


def test_the_packaged_schema_is_the_generated_one() -> None:
    assert published_schema_text() == generated_text()
    assert published_schema() == build_schema()


def test_the_schema_file_is_plain_utf8_json_ending_in_one_newline() -> None:
    text = generated_text()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "\r" not in text
    assert json.loads(text) == build_schema()


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = build_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert jsonschema.validators.validator_for(schema) is jsonschema.Draft202012Validator


def test_the_schema_names_its_draft_and_a_versioned_id() -> None:
    schema = build_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == SCHEMA_ID
    assert re.fullmatch(r"https://[^\s]+/phatlog-\d+\.\d+\.schema\.json", schema["$id"])
    assert f"phatlog-{FORMAT_VERSION}." in schema["$id"]
    assert SCHEMA_FILE.removesuffix(".schema.json") == f"phatlog-{FORMAT_VERSION}"
    assert all(path.name == SCHEMA_FILE for path in COMMITTED)


def test_the_schema_describes_every_game_and_pins_the_version() -> None:
    schema = build_schema()
    mapping = schema["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(GAMES)
    for target in mapping.values():
        record = schema["$defs"][target.rsplit("/", 1)[-1]]
        assert record["additionalProperties"] is False
        assert {"phatlog", "game", "players", "deals"} <= set(record["required"])
        assert record["properties"]["phatlog"]["enum"] == ["1.0", FORMAT_VERSION]


def test_every_object_in_the_schema_is_closed_or_an_extension() -> None:
    """Unknown keys are errors everywhere except inside ``ext``: no object is accidentally open."""
    open_objects: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            is_open = node.get("type") == "object" and node.get("additionalProperties") is not False
            if is_open and not where.endswith("/ext/anyOf/0"):
                open_objects.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(build_schema(), "")
    assert open_objects == []


def test_the_cli_prints_the_schema_byte_for_byte() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert result.stdout == generated_text()


def test_a_sample_game_is_valid_against_the_published_schema(phat_record: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(published_schema()).validate(phat_record)


@pytest.mark.deep
def test_the_1_0_schema_stays_published_and_every_1_0_sample_is_valid_under_1_1() -> None:
    """Format 1.1 only adds: the frozen 1.0 schema is still shipped in schemas/ for 1.0 readers, and a
    1.0 record (every sample) is valid under the 1.1 schema."""
    old = json.loads((ROOT / "schemas" / "phatlog-1.0.schema.json").read_text(encoding="utf-8"))
    assert old["$id"].endswith("phatlog-1.0.schema.json")
    validator = jsonschema.Draft202012Validator(published_schema())
    samples = sorted((ROOT / "samples" / "games").rglob("*.json"))
    assert samples
    for path in samples:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("phatlog") == "1.0":
            jsonschema.Draft202012Validator(old).validate(record)
            validator.validate(record)
