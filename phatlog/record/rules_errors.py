"""A rules model's validation errors in the words of ``--rule KEY=VALUE``.

pydantic names the failing branch of a union and its validators (``schedule.list[function-before[
_integral(), constrained-int]].2: Input should be greater than or equal to 1``); a user typed
``--rule schedule=[1,2,0]`` and should read ``--rule schedule: item 3 must be a whole number from 1 to
17, not 0``. No printing here: the command line prints these lines.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from phatlog.record.model import IrishDonRules, NineCardDonRules, OhHellRules, PhatRules

RULES: dict[str, type[BaseModel]] = {
    "phat": PhatRules,
    "nine_card_don": NineCardDonRules,
    "irish_don": IrishDonRules,
    "oh_hell": OhHellRules,
}

_NUMBER = frozenset(
    {"int_type", "int_parsing", "int_from_float", "greater_than_equal", "less_than_equal", "greater_than", "less_than"}
)


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)


def _bounds(schema: Any) -> tuple[int | None, int | None]:
    """The first integer bounds in a JSON Schema fragment (a property, a list's items, a union's branch)."""
    if isinstance(schema, dict):
        if schema.get("type") == "integer" and ("minimum" in schema or "maximum" in schema):
            return schema.get("minimum"), schema.get("maximum")
        for sub in (*schema.get("anyOf", ()), schema.get("items")):
            found = _bounds(sub)
            if found != (None, None):
                return found
    return None, None


def _whole_number(schema: Any) -> str:
    low, high = _bounds(schema)
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number, at least {low}"
    if high is not None:
        return f"a whole number, at most {high}"
    return "a whole number"


def _phrase(error: Any, schema: Any) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "literal_error":
        return f"must be {ctx.get('expected', 'one of the listed values')}"
    if kind in _NUMBER:
        return f"must be {_whole_number(schema)}"
    if kind in ("bool_type", "bool_parsing"):
        return "must be true or false"
    if kind == "list_type":
        return "must be a list, such as [1,2,3]"
    if kind == "too_short":
        return f"must list at least {ctx.get('min_length', 1)} item(s)"
    if kind == "too_long":
        return f"must list at most {ctx.get('max_length')} items"
    if kind in ("string_type", "enum"):
        return "must be text"
    return str(error.get("msg", "is not allowed")).replace("Input should be", "must be")


def rule_errors(game: str, rules: dict[str, object], exc: ValidationError) -> list[str]:
    """One line a bad ``--rule``: ``--rule KEY: what it must be, not what it is``.

    For a key whose value may be one of several kinds (Oh Hell's ``schedule``: a word or a list), only the
    errors of the kind given are told: a list is told about its items, a word about the words allowed.
    """
    model = RULES[game]
    properties = model.model_json_schema().get("properties", {})
    told: dict[str, list[str]] = {}
    for error in exc.errors():
        loc = error["loc"]
        key = str(loc[0]) if loc else ""
        value = rules.get(key)
        if error["type"] == "extra_forbidden":
            told.setdefault(key, []).append(f"{game} has no such rule (its rules: {', '.join(model.model_fields)})")
            continue
        items = [part for part in loc[1:] if isinstance(part, int)]
        branch = next((part for part in loc[1:] if isinstance(part, str)), "")
        if branch and isinstance(value, list) and branch.startswith("literal"):
            continue  # a list was given: the words it might have been are beside the point
        if branch.startswith("list") and not isinstance(value, list):
            continue  # a word was given: told which words, above
        phrase = _phrase(error, properties.get(key))
        if items and isinstance(value, list):
            told.setdefault(key, []).append(f"item {items[0] + 1} {phrase}, not {_shown(value[items[0]])}")
        else:
            told.setdefault(key, []).append(f"{phrase}, not {_shown(value)}")
    return [f"--rule {key}: {'; '.join(phrases)}" for key, phrases in told.items()]
