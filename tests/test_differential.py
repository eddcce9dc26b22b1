"""The published schema, the pydantic models and the msgspec fast path give the same verdict.

Property tests start from valid records of every game and break them in random ways. For every input:

* the JSON Schema accepts it exactly when the pydantic models accept it;
* the fast decoder accepts it only if the schema does (it may refuse more: ``3.0`` for an integer);
* the reader (fast path, then slow path) returns a record without diagnostics exactly when the schema
  accepts it, and otherwise at least one diagnostic and no record;
* where both paths accept, they give the same record.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import jsonschema
import msgspec
import pytest
from conftest import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import ValidationError

from phatlog.diagnostics import CODES, pointer_parts
from phatlog.play.simulate import simulate
from phatlog.record import decoder as wire
from phatlog.record import reader
from phatlog.record.model import GAMES, RECORD_ADAPTER
from phatlog.record.reader import short_tricks
from phatlog.record.schema import published_schema
from phatlog.rules.cards import CARD_TEXT

Json = Any
Path = tuple[str | int, ...]

PROFILE = settings(deadline=None, max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])


@cache
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(published_schema())


# ---------------------------------------------------------------------------------- valid records


def _deck(start: int, n: int) -> list[str]:
    return [CARD_TEXT[(start + i) % 52] for i in range(n)]


def nine_card_don_record() -> dict[str, Json]:
    hands = [_deck(9 * seat, 9) for seat in range(4)]
    return {
        "phatlog": "1.0",
        "game": "nine_card_don",
        "rules": {"target": 91, "bonus": "five_high_low_jack", "low_to": "capturer", "follow": "follow_or_trump"},
        "event": {"name": "Club night", "date": "2026-11-14", "ext": {"table": 3}},
        "players": [{"name": "Ann", "id": "a1"}, {"name": "Ben"}, {"name": "Cal"}, {"name": "Dee", "ext": {}}],
        "cut": [["AS", None, "2C", None]],
        "deals": [
            {
                "dealer": 0,
                "hands": hands,
                "undealt": _deck(36, 16),
                "tricks": [
                    {"leader": 1, "cards": [hands[1][0], hands[2][0], hands[3][0], hands[0][0]], "winner": 1},
                    {"leader": 1, "cards": [hands[1][1], hands[2][1], hands[3][1], hands[0][1]], "comment": "ok"},
                ],
                "score": {"points": [0, 0], "total": [0, 0]},
            },
            {"dealer": 1, "score": {"points": [8, 1], "total": [8, 1]}, "comment": "score sheet only"},
        ],
        "result": {"status": "unfinished", "reason": "time"},
    }


def irish_don_record() -> dict[str, Json]:
    hands = [_deck(13 * seat, 13) for seat in range(4)]
    return {
        "phatlog": "1.0",
        "game": "irish_don",
        "rules": {"target": 81, "peg_out": "end_of_deal"},
        "players": [{"name": n} for n in ("N", "E", "S", "W")],
        "deals": [
            {
                "dealer": 3,
                "hands": hands,
                "tricks": [{"leader": 0, "cards": [hands[0][5], hands[1][5], hands[2][5], hands[3][5]]}],
                "ext": {"note": [1, 2.5, None, True, "x"]},
            },
            {"dealer": 0, "score": {"total": [40, 45]}},
        ],
        "comment": "Irish Don, partly recorded",
        "ext": {"anything": {"goes": ["here"]}},
    }


def oh_hell_record() -> dict[str, Json]:
    return {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {
            "schedule": [1, 2, 3],
            "max_cards": 3,
            "no_trump": "never",
            "bidding": "simultaneous",
            "hook": True,
            "must_trump": False,
            "miss": "minus_diff",
            "zero_bid": "five_plus_cards",
        },
        "players": [{"name": "Eve"}, {"name": "Fay"}, {"name": "Gus"}],
        "deals": [
            {
                "dealer": 0,
                "hands": [["2C"], ["3C"], ["4C"]],
                "turnup": "AS",
                "bids": [0, 1, 0],
                "tricks": [{"leader": 1, "cards": ["3C", "4C", "2C"], "winner": 2}],
                "score": {"points": [10, 0, 0], "total": [10, 0, 0]},
            },
            {"dealer": 1, "turnup": None, "bids": [1, 0, 1], "taken": [1, 1, 0]},
            {"dealer": 2, "hands": [["2D", "3D", "4D"], ["5D", "6D", "7D"], ["8D", "9D", "TD"]]},
        ],
        "result": {"winner": [0, 2], "total": [10, 0, 10]},
    }


def oh_hell_seven_record() -> dict[str, Json]:
    players = [{"name": f"P{i}"} for i in range(7)]
    return {
        "phatlog": "1.0",
        "game": "oh_hell",
        "rules": {"schedule": "down_up"},
        "players": players,
        "deals": [
            {
                "dealer": 6,
                "hands": [_deck(2 * i, 2) for i in range(7)],
                "bids": [0, 0, 1, 0, 0, 1, 0],
                "tricks": [{"leader": 0, "cards": [_deck(2 * i, 1)[0] for i in range(7)]}],
            }
        ],
    }


def phat_records() -> list[dict[str, Json]]:
    cut = next(iter(simulate("phat", 7, 1, with_cut=True, rules={"target": 121, "muck_tie": "carry"})))
    return [*simulate("phat", 1, 2), cut]


@cache
def _seeds() -> tuple[str, ...]:
    records = [*phat_records(), nine_card_don_record(), irish_don_record(), oh_hell_record(), oh_hell_seven_record()]
    return tuple(json.dumps(r) for r in records)


def seed_records() -> list[dict[str, Json]]:
    return [json.loads(text) for text in _seeds()]


# ---------------------------------------------------------------------------------- the verdicts


def schema_accepts(doc: Json) -> bool:
    return bool(validator().is_valid(doc))


def models_accept(doc: Json) -> bool:
    try:
        RECORD_ADAPTER.validate_python(doc)
    except ValidationError:
        return False
    return True


def fast_accepts(data: bytes) -> bool:
    try:
        wire.decode(data)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return False
    return True


def resolves(doc: Json, parts: list[str]) -> bool:
    node = doc
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def assert_same_verdict(doc: Json) -> None:
    data = json.dumps(doc, allow_nan=False).encode("utf-8")
    value = json.loads(data)
    by_schema = schema_accepts(value)
    by_models = models_accept(value)
    assert by_schema == by_models, f"schema says {by_schema}, models say {by_models}: {_show(value)}"
    # Format 1.1: the schema and the models hold a trick of 1-4 cards; that only the last trick of a deal
    # with a claim may be short is the reader's rule beside them (``reader.short_tricks``, PL105).
    by_schema = by_schema and not short_tricks(value)
    if fast_accepts(data):
        assert by_schema, f"the fast path accepts what the schema refuses: {_show(value)}"
    if currently_in_test_context():
        event("valid" if by_schema else "invalid")
        if by_schema and not fast_accepts(data):
            event("valid, refused by the fast path")
    loaded = reader.read_bytes(data)
    clean = loaded.record is not None and not loaded.diagnostics
    assert clean == by_schema, f"schema says {by_schema}, reader says {loaded.diagnostics}: {_show(value)}"
    if not by_schema:
        assert loaded.record is None and loaded.diagnostics
        for d in loaded.diagnostics:
            assert d.code in CODES
            assert d.message
            parts = pointer_parts(d.pointer)
            assert d.pointer == "" or d.pointer.startswith("/")
            # A pointer names a place in the document, or (a missing key) a key of a place in it.
            here = parts[:-1] if d.code == "PL101" else parts
            assert resolves(value, here), f"{d.code} {d.pointer!r} is not a place in the document: {_show(value)}"
    else:
        assert loaded.record is not None
        assert loaded.record == wire.convert(RECORD_ADAPTER.validate_python(value).model_dump(exclude_unset=True))


def _show(value: Json) -> str:
    text = json.dumps(value)
    return text if len(text) < 600 else text[:600] + "..."


# ---------------------------------------------------------------------------------- mutations


def all_paths(node: Json, prefix: Path = ()) -> list[Path]:
    """Every place in the document, the root included."""
    out: list[Path] = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(all_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(all_paths(value, (*prefix, i)))
    return out


def get(doc: Json, path: Path) -> Json:
    for part in path:
        doc = doc[part]
    return doc


def put(doc: Json, path: Path, value: Json) -> Json:
    """``doc`` with the value at ``path`` replaced (the root replaced if ``path`` is empty)."""
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


NEAR_MISS_CARDS = [
    "10H", "ah", "Ah", "aH", "AH ", " AH", "1H", "AH\n", "HA", "A♥", "AHH", "A", "", "11S", "0C",
    "TX", "ZS", "tc", "T H", "KD\t", "QS\u200b", "ＡＨ", "2c", "A\u0000",
]  # fmt: skip
HUGE_INTS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 2**64 + 1, 10**30, -(2**63) - 1, -(10**30), 10**400]
UNKNOWN_KEYS = ["scroe", "Dealer", "hand", "tricks ", "", "ext2", "GAME", "x", "$schema", "__proto__", "é"]
OTHER_VERSIONS: list[Json] = ["1.2", "2.0", "1", "1.0.0", " 1.0", "1.00", "01.0", "0.9", 1.0, 1, None, "", ["1.0"]]
OTHER_GAMES: list[Json] = [*GAMES, "Phat", "don", "hearts", "", None, 1, ["phat"], {"phat": 1}]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.sampled_from([0, 1, -1, 3, 3.0, 0.5, -0.0, 1e20, "3", "", "AH", "phat", "1.0", True, False]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["a", "name", "dealer", "cards"]), inner, max_size=3),
    ),
    max_leaves=6,
)

Mutation = Callable[[Json, st.DataObject], Json]


def _choose(data: st.DataObject, items: list[Path], label: str) -> Path | None:
    return data.draw(st.sampled_from(items), label=label) if items else None


def delete_key(doc: Json, data: st.DataObject) -> Json:
    path = _choose(data, [p for p in all_paths(doc) if p and isinstance(p[-1], str)], "delete")
    if path is not None:
        del get(doc, path[:-1])[path[-1]]
    return doc


def add_unknown_key(doc: Json, data: st.DataObject) -> Json:
    path = _choose(data, [p for p in all_paths(doc) if isinstance(get(doc, p), dict)], "object")
    if path is not None:
        key = data.draw(st.sampled_from(UNKNOWN_KEYS), label="key")
        get(doc, path)[key] = data.draw(json_values, label="value")
    return doc


def replace_value(doc: Json, data: st.DataObject) -> Json:
    path = _choose(data, all_paths(doc), "replace")
    assert path is not None
    return put(doc, path, data.draw(json_values, label="value"))


def set_null(doc: Json, data: st.DataObject) -> Json:
    path = _choose(data, [p for p in all_paths(doc) if p], "null")
    return put(doc, path, None) if path is not None else doc


def near_miss_card(doc: Json, data: st.DataObject) -> Json:
    cards = [p for p in all_paths(doc) if get(doc, p) in CARD_TEXT]
    path = _choose(data, cards, "card")
    if path is None:
        return doc
    card: str = get(doc, path)
    miss = data.draw(
        st.one_of(
            st.sampled_from(NEAR_MISS_CARDS),
            st.just(card.lower()),
            st.just(card + " "),
            st.just(card[::-1]),
            st.just(card.replace("T", "10")),
            st.just(card + "\n"),
            st.text(max_size=3),
        ),
        label="near miss",
    )
    return put(doc, path, miss)


def mutate_integer(doc: Json, data: st.DataObject) -> Json:
    ints = [p for p in all_paths(doc) if type(get(doc, p)) is int]
    path = _choose(data, ints, "integer")
    if path is None:
        return doc
    n: int = get(doc, path)
    if abs(n) > 2**1000:  # a huge integer from an earlier mutation: no float is that large
        n = 1
    value = data.draw(
        st.one_of(
            st.just(float(n)),
            st.just(n + 0.5),
            st.booleans(),
            st.sampled_from(HUGE_INTS),
            st.sampled_from([-1, n - 1, n + 1, n + 4, 7, 17, 18, 100000, 100001, 0, str(n)]),
            st.just(float(n) + 1e-9),
            st.just(-0.0),
        ),
        label="integer value",
    )
    return put(doc, path, value)


def change_list_length(doc: Json, data: st.DataObject) -> Json:
    lists = [p for p in all_paths(doc) if isinstance(get(doc, p), list)]
    path = _choose(data, lists, "list")
    if path is None:
        return doc
    items: list[Json] = get(doc, path)
    how = data.draw(st.sampled_from(["drop", "repeat", "clear", "grow", "truncate"]), label="how")
    if how == "drop" and items:
        del items[data.draw(st.integers(0, len(items) - 1), label="index")]
    elif how == "repeat" and items:
        items.append(copy.deepcopy(data.draw(st.sampled_from(items), label="item")))
    elif how == "clear":
        items.clear()
    elif how == "grow":
        items.extend(copy.deepcopy(items) * data.draw(st.integers(1, 3), label="times"))
    elif how == "truncate" and items:
        del items[data.draw(st.integers(0, len(items) - 1), label="keep") :]
    return doc


def change_game(doc: Json, data: st.DataObject) -> Json:
    if isinstance(doc, dict):
        doc["game"] = data.draw(st.sampled_from(OTHER_GAMES), label="game")
    return doc


def change_version(doc: Json, data: st.DataObject) -> Json:
    if isinstance(doc, dict):
        doc["phatlog"] = data.draw(st.sampled_from(OTHER_VERSIONS), label="version")
    return doc


def wrap_or_swap(doc: Json, data: st.DataObject) -> Json:
    """Move a subtree to another place: objects of one kind where another kind belongs."""
    paths = [p for p in all_paths(doc) if p]
    source = _choose(data, paths, "from")
    target = _choose(data, paths, "to")
    if source is None or target is None or target[: len(source)] == source:
        return doc
    return put(doc, target, copy.deepcopy(get(doc, source)))


MUTATIONS: list[Mutation] = [
    delete_key,
    add_unknown_key,
    replace_value,
    set_null,
    near_miss_card,
    mutate_integer,
    change_list_length,
    change_game,
    change_version,
    wrap_or_swap,
]


def mutated(data: st.DataObject, kinds: list[Mutation], most: int = 3) -> Json:
    doc: Json = data.draw(st.sampled_from(seed_records()), label="record")
    for _ in range(data.draw(st.integers(1, most), label="mutations")):
        mutation = data.draw(st.sampled_from(kinds), label="mutation")
        doc = mutation(doc, data)
    return doc


# ---------------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("index", range(len(_seeds())))
def test_every_seed_record_is_valid_everywhere(index: int) -> None:
    doc = seed_records()[index]
    data = json.dumps(doc).encode()
    assert schema_accepts(doc), list(validator().iter_errors(doc))[:3]
    assert models_accept(doc)
    assert fast_accepts(data)
    loaded = reader.read_bytes(data)
    assert loaded.record is not None and loaded.diagnostics == []
    assert_same_verdict(doc)


@PROFILE
@given(st.data())
def test_mutated_records_get_the_same_verdict_everywhere(data: st.DataObject) -> None:
    assert_same_verdict(mutated(data, MUTATIONS))


@pytest.mark.deep
@PROFILE
@given(st.data())
def test_integer_mutations(data: st.DataObject) -> None:
    assert_same_verdict(mutated(data, [mutate_integer], most=2))


@pytest.mark.deep
@PROFILE
@given(st.data())
def test_card_mutations(data: st.DataObject) -> None:
    assert_same_verdict(mutated(data, [near_miss_card, change_list_length], most=2))


@pytest.mark.deep
@PROFILE
@given(st.data())
def test_key_and_null_mutations(data: st.DataObject) -> None:
    assert_same_verdict(mutated(data, [delete_key, add_unknown_key, set_null, change_game, change_version]))


@settings(deadline=None, max_examples=examples(100))
@given(json_values)
def test_arbitrary_json_values_get_the_same_verdict(value: Json) -> None:
    assert_same_verdict(value)


# ---------------------------------------------------------------------------------- chosen cases


def _with(doc: Json, path: Path, value: Json) -> Json:
    return put(doc, path, value)


def _phat() -> Json:
    return seed_records()[0]


CASES: dict[str, Callable[[], Json]] = {
    "integral float for an integer": lambda: _with(_phat(), ("deals", 0, "dealer"), 2.0),
    "integral float for a bounded list item": lambda: _with(_phat(), ("deals", 0, "score", "points"), [1.0, 2.0]),
    "negative zero": lambda: _with(_phat(), ("deals", 0, "dealer"), -0.0),
    "non-integral float": lambda: _with(_phat(), ("deals", 0, "dealer"), 2.5),
    "true for an integer": lambda: _with(_phat(), ("deals", 0, "dealer"), True),
    "string for an integer": lambda: _with(_phat(), ("deals", 0, "dealer"), "2"),
    "huge integer total": lambda: _with(_phat(), ("deals", 0, "score", "total"), [10**30, -(10**30)]),
    "huge integer and a float": lambda: _with(
        _with(_phat(), ("deals", 0, "score", "total"), [10**30, 2**64]), ("deals", 0, "dealer"), 1.0
    ),
    "huge float for an unbounded integer": lambda: _with(_phat(), ("result", "total"), [1e300, 0]),
    "huge float for a bounded integer": lambda: _with(_phat(), ("deals", 0, "dealer"), 1e300),
    "ten as 10": lambda: _with(_phat(), ("deals", 0, "tricks", 0, "cards", 0), "10H"),
    "card with a trailing space": lambda: _with(_phat(), ("deals", 0, "hands", 0, 0), "AH "),
    "null for a required integer": lambda: _with(_phat(), ("deals", 0, "dealer"), None),
    "null for optional rules": lambda: _with(_phat(), ("rules",), None),
    "null for an optional score": lambda: _with(_phat(), ("deals", 0, "score"), None),
    "empty player name": lambda: _with(_phat(), ("players", 0, "name"), ""),
    "astral player name": lambda: _with(_phat(), ("players", 0, "name"), "🂡"),
    "no game": lambda: {k: v for k, v in _phat().items() if k != "game"},
    "unknown game": lambda: _with(_phat(), ("game",), "hearts"),
    "another game": lambda: _with(_phat(), ("game",), "oh_hell"),
    "minor version": lambda: _with(_phat(), ("phatlog",), "1.2"),
    "major version": lambda: _with(_phat(), ("phatlog",), "2.0"),
    "number version": lambda: _with(_phat(), ("phatlog",), 1.0),
    "deep extension": lambda: _with(_phat(), ("ext",), {"a": json.loads("[" * 200 + "]" * 200)}),
    "deep extension and a float": lambda: _with(
        _with(_phat(), ("ext",), {"a": json.loads("[" * 200 + "]" * 200)}), ("deals", 0, "dealer"), 0.0
    ),
    "an array": lambda: [_phat()],
    "a string": lambda: "phat",
    "null": lambda: None,
    "empty object": lambda: {},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_chosen_cases(name: str) -> None:
    assert_same_verdict(CASES[name]())


# ---------------------------------------------------------------------------------- below the JSON value


def _phat_text() -> str:
    return json.dumps(_phat())


def _insert(key_value: str, replacing: str | None = None) -> bytes:
    """The sample game with ``key_value`` inserted as its first member (``replacing`` that key: a key
    held twice is an error of its own, PL109)."""
    rest = _phat_text() if replacing is None else json.dumps({k: v for k, v in _phat().items() if k != replacing})
    return ("{" + key_value + ", " + rest[1:]).encode()


BYTES_CASES: dict[str, tuple[Callable[[], bytes], str | None]] = {
    # name: (the input, the code the reader gives, or None for a clean record)
    "a byte order mark": (lambda: b"\xef\xbb\xbf" + _phat_text().encode(), None),
    "whitespace around": (lambda: b"\n\t " + _phat_text().encode() + b"\r\n\n", None),
    "indented": (lambda: json.dumps(_phat(), indent=4).encode(), None),
    "escaped text": (lambda: json.dumps(_phat(), ensure_ascii=True).replace('"Ann"', '"\\u0041nn"').encode(), None),
    "a surrogate pair": (lambda: _insert('"comment": "\\ud83c\\udca1"'), None),
    # A repeated key is ambiguous (parsers differ on which counts): refused whichever value is valid.
    "a duplicate key, last valid": (lambda: _insert('"comment": 5, "comment": "ok"'), "PL109"),
    "a duplicate key, last invalid": (lambda: _insert('"comment": "ok", "comment": 5'), "PL109"),
    "a duplicate game": (lambda: _insert('"game": "phat"'), "PL109"),
    "a duplicate game, another game": (lambda: _phat_text()[:-1].encode() + b', "game": "oh_hell"}', "PL109"),
    "a float dealer and a duplicate key": (
        lambda: _insert('"comment": 5, "comment": "ok"').replace(b'"dealer": 0', b'"dealer": 0.0', 1),
        "PL109",
    ),
    "NaN": (lambda: _insert('"ext": {"x": NaN}'), "PL002"),
    "Infinity": (lambda: _insert('"ext": {"x": -Infinity}'), "PL002"),
    "a number beyond a double": (lambda: _insert('"ext": {"x": 1e400}'), "PL002"),
    "an integer of 5000 digits": (lambda: _insert('"ext": {"x": ' + "7" * 5000 + "}"), "PL002"),
    "an integer of 5000 digits for an integer": (
        lambda: _insert('"result": {"total": [' + "7" * 5000 + ", 0]}", replacing="result"),
        "PL002",
    ),
    "an integer of 4000 digits": (  # read, then out of a score's range
        lambda: _insert('"result": {"total": [' + "7" * 4000 + ", 0]}", replacing="result"),
        "PL106",
    ),
    "an unpaired surrogate": (lambda: _insert('"comment": "\\ud800"'), "PL002"),
    "an unpaired surrogate and a float": (
        lambda: _insert('"comment": "\\udc00x"').replace(b'"dealer": 0', b'"dealer": 0.0', 1),
        "PL002",
    ),
    "a raw control character": (lambda: _insert('"comment": "a\x01b"'), "PL002"),
    "a trailing comma": (lambda: _phat_text()[:-1].encode() + b",}", "PL002"),
    "two documents": (lambda: _phat_text().encode() * 2, "PL002"),
    "truncated": (lambda: _phat_text().encode()[:-40], "PL002"),
    "empty": (lambda: b"", "PL006"),
    "blank": (lambda: b" \n\t\r\n", "PL006"),
    "only a byte order mark": (lambda: b"\xef\xbb\xbf", "PL006"),
    "invalid UTF-8 in a string": (lambda: _insert('"comment": "\xff"').replace(b"\xc3\xbf", b"\xff"), "PL002"),
    "UTF-16": (lambda: _phat_text().encode("utf-16"), "PL002"),
    "deep arrays": (lambda: b"[" * 100_000, "PL004"),
    "deep closed arrays": (lambda: b"[" * 100_000 + b"]" * 100_000, "PL004"),
    "deep objects": (lambda: b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "PL004"),
    "deep extension": (lambda: _insert('"ext": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}"), "PL004"),
}


@pytest.mark.parametrize("name", sorted(BYTES_CASES))
def test_inputs_below_the_json_value(name: str) -> None:
    make, code = BYTES_CASES[name]
    data = make()
    loaded = reader.read_bytes(data)  # never raises
    codes = [d.code for d in loaded.diagnostics]
    if code is None:
        assert loaded.record is not None and codes == [], loaded.diagnostics
    elif code == "PL404":  # valid to the schema; only the referee objects to the total
        assert loaded.record is not None and codes == []
    else:
        assert loaded.record is None and code in codes, loaded.diagnostics
    if fast_accepts(data) and not wire.duplicate_keys(data):
        assert codes == []
    try:
        value = json.loads(data.removeprefix(b"\xef\xbb\xbf"), parse_constant=lambda name: 1 / 0)
    except (ValueError, RecursionError, ZeroDivisionError):
        return  # not JSON to a strict parser either
    if code not in ("PL002", "PL109"):  # a JSON Schema cannot see a repeated key: the parser drops it
        assert schema_accepts(value) == (codes == []) == models_accept(value)


def test_parse_errors_name_a_line_and_column() -> None:
    data = b'{\n  "phatlog": "1.0",\n  "game": "phat",\n  "players": [,]\n}'
    (d,) = reader.read_bytes(data).diagnostics
    assert (d.code, d.line, d.column) == ("PL002", 4, 15)
    (d,) = reader.read_bytes(b'{\n  "phatlog": "1.0",\n  "x": NaN\n}').diagnostics
    assert (d.code, d.line) == ("PL002", 3)
    assert "NaN" in d.message


@st.composite
def damaged_bytes(draw: st.DrawFn) -> bytes:
    """A serialized valid record with bytes deleted, replaced or inserted."""
    text = bytearray(draw(st.sampled_from(_seeds())).encode())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["delete", "replace", "insert", "cut"]))
        chunk = draw(
            st.sampled_from([b"", b"{", b"}", b"[", b"]", b",", b'"', b"\\", b":", b"0", b".5", b"\xff", b"\x00"])
        )
        if how == "delete":
            del text[at : at + draw(st.integers(1, 8))]
        elif how == "replace":
            text[at : at + len(chunk)] = chunk
        elif how == "insert":
            text[at:at] = chunk
        else:
            del text[at:]
    return bytes(text)


@PROFILE
@given(st.one_of(damaged_bytes(), st.binary(max_size=64)))
def test_damaged_bytes_never_raise_and_agree_with_the_schema(data: bytes) -> None:
    loaded = reader.read_bytes(data)
    assert (loaded.record is None) == bool(loaded.diagnostics)
    repeated = bool(wire.duplicate_keys(data.removeprefix(b"\xef\xbb\xbf"))) if fast_accepts(data) else False
    if fast_accepts(data):
        assert [d.code for d in loaded.diagnostics] == (["PL109"] * len(loaded.diagnostics) if repeated else [])
    try:
        value = json.loads(data.removeprefix(b"\xef\xbb\xbf"), parse_constant=lambda name: 1 / 0)
    except (ValueError, RecursionError, ZeroDivisionError):
        assert loaded.record is None
        return
    if any(d.code == "PL109" for d in loaded.diagnostics):
        return  # a JSON Schema cannot see a repeated key
    assert schema_accepts(value) == (loaded.diagnostics == []) == models_accept(value)
