"""The published JSON Schema: generated from the models, shipped in the package, printed by the CLI.

``build_schema()`` is the generator; ``published_schema()`` reads the copy that ships with the package
(also committed at ``schemas/``). A test keeps all three identical, so the models and the schema cannot
drift apart.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from phatlog.record.constants import FORMAT_VERSION
from phatlog.rules.cards import CARD_TEXT

SCHEMA_FILE: Final = f"phatlog-{FORMAT_VERSION}.schema.json"
SCHEMA_ID: Final = f"https://phatlog.org/schemas/{SCHEMA_FILE}"
_CARD_ENUM: Final = {"enum": list(CARD_TEXT), "type": "string"}
_CARD_DEF: Final = {
    "description": "A card: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. 'TH' for the ten of hearts.",
    "enum": list(CARD_TEXT),
    "title": "Card",
    "type": "string",
}


def _share_card(node: Any) -> Any:
    """Replace every inline 52-card enum by a reference to one ``Card`` definition."""
    if isinstance(node, dict):
        if node == _CARD_ENUM:
            return {"$ref": "#/$defs/Card"}
        return {k: _share_card(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_share_card(v) for v in node]
    return node


def build_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a phatlog record, generated from the models."""
    from phatlog.record.model import RECORD_ADAPTER  # the models only to generate: reading needs the shipped file

    body = _share_card(RECORD_ADAPTER.json_schema())
    defs = dict(sorted({**body.pop("$defs"), "Card": _CARD_DEF}.items()))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"phatlog record, version {FORMAT_VERSION}",
        "description": (
            "One game of Phat, Nine-card Don, Irish Don or Oh Hell: every deal, bid, card played and "
            "score. The rules engine checks what the schema cannot: legality and scores."
        ),
        **body,
        "$defs": defs,
    }


def dumps_schema(schema: dict[str, Any]) -> str:
    """The schema as the committed file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


@cache
def published_schema_text() -> str:
    return resources.files("phatlog").joinpath("schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def published_schema() -> dict[str, Any]:
    """The schema file shipped inside the package."""
    result: dict[str, Any] = json.loads(published_schema_text())
    return result
