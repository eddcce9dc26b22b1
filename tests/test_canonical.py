"""The canonical form and the fingerprints (phatlog/record/canonical.py, docs/archives.md).

Invariance: key order, white space and number spelling (``3`` against ``3.0``) do not change a
fingerprint, nor does spelling a default out. Sensitivity: every single change of a field of a record
(each value of a sample, changed to another valid one) changes it. The fast path (msgspec, in C) gives the
bytes of the reference implementation of RFC 8785 (``jcs``) on every sample and on extension data.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from conftest import phat_game
from hypothesis import given
from hypothesis import strategies as st

from phatlog.play.simulate import simulate
from phatlog.record import canonical
from phatlog.record.canonical import (
    canonical_bytes,
    deal_fingerprint,
    deal_keys,
    dedupe_key,
    es_number,
    fingerprint,
    jcs,
    record_digest,
)
from phatlog.record.reader import read_bytes
from phatlog.rules.cards import CARD_TEXT

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples" / "games").glob("*.json"))


def read(obj: Any) -> Any:
    """A record (JSON data or text) as the reader gives it; fails if it is not a valid record."""
    data = obj.encode() if isinstance(obj, str) else json.dumps(obj).encode()
    loaded = read_bytes(data)
    assert loaded.record is not None, loaded.diagnostics
    return loaded.record


def fp(obj: Any) -> str:
    return fingerprint(read(obj))


# ---------------------------------------------------------------------------------------- RFC 8785


@pytest.mark.parametrize(
    ("value", "spelt"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (3.0, "3"),
        (1e21, "1e+21"),
        (1e16, "10000000000000000"),
        (1e-7, "1e-7"),
        (1.5e-6, "0.0000015"),
        (0.1, "0.1"),
        (123.456, "123.456"),
        (2.0**60, "1152921504606847000"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1.5, "-1.5"),
        (9007199254740991.0, "9007199254740991"),
        (333333333.3333333, "333333333.3333333"),
    ],
)
def test_numbers_are_spelt_as_ecmascript_spells_them(value: float, spelt: str) -> None:
    assert es_number(value) == spelt


def test_jcs_sorts_keys_by_utf16_and_escapes_minimally() -> None:
    value = {"\U0001f600": 1, "\uffff": 2, "b": [True, None, 'a\u2028\x7f"\\\n\x01'], "a": {"z": 1.0, "y": -0.0}}
    assert jcs(value) == (
        '{"a":{"y":0,"z":1},"b":[true,null,"a\u2028\x7f\\"\\\\\\n\\u0001"],"\U0001f600":1,"\uffff":2}'.encode()
    )


def test_the_fast_path_is_the_reference_on_every_sample() -> None:
    for path in SAMPLES:
        record = read(path.read_text(encoding="utf-8"))
        fast = canonical_bytes(record)
        assert fast == jcs(msgspec.json.decode(fast)), path.name
        assert json.loads(fast)  # it is JSON


def test_extension_data_is_canonical_too() -> None:
    game = phat_game(3)
    game["ext"] = {"zeta": 1.0, "\U0001f600": [1e16, 0.5], "\uffff": {"b": 2, "a": 3}}
    record = read(game)
    out = canonical_bytes(record)
    # UTF-16 order: "zeta" < U+1F600 (a surrogate pair, D83D DE00) < U+FFFF, though U+FFFF < U+1F600 as code points
    assert '"ext":{"zeta":1,"\U0001f600":[10000000000000000,0.5],"\uffff":{"a":3,"b":2}}'.encode() in out
    assert out == jcs(json.loads(out))


# ---------------------------------------------------------------------------------------- invariance


def shuffled(node: Any, rng: random.Random) -> Any:
    """The same JSON data with every object's keys in a random order."""
    if isinstance(node, dict):
        items = list(node.items())
        rng.shuffle(items)
        return {k: shuffled(v, rng) for k, v in items}
    if isinstance(node, list):
        return [shuffled(x, rng) for x in node]
    return node


@given(st.integers(0, 40), st.randoms(use_true_random=False), st.sampled_from([None, 0, 1, 3, "\t"]))
def test_key_order_and_white_space_do_not_change_the_fingerprint(seed: int, rng: random.Random, indent: Any) -> None:
    game = phat_game(seed % 5 + 1)
    text = json.dumps(shuffled(game, rng), indent=indent, separators=None if indent is not None else (" , ", " : "))
    assert fp(text) == fp(game)


def test_number_spelling_does_not_change_the_fingerprint() -> None:
    game = phat_game(2)
    text = json.dumps(game, separators=(",", ":"))
    dealer = game["deals"][0]["dealer"]
    points = game["deals"][0]["score"]["points"][0]
    respelt = text.replace(f'"dealer":{dealer},', f'"dealer":{dealer}.0,', 1).replace(
        f'"points":[{points},', f'"points":[{points}e0,', 1
    )
    assert respelt != text
    assert fp(respelt) == fp(text)
    game["ext"] = {"x": 3}
    spelt = json.dumps(game).replace('"x": 3', '"x": 3.0')
    assert '"x": 3.0' in spelt
    assert fp(spelt) == fp(game)


def test_defaults_spelt_out_or_left_out_are_one_canonical_form() -> None:
    game = phat_game(4)
    game.pop("rules", None)
    explicit = copy.deepcopy(game)
    explicit["rules"] = {"target": 181, "peg_out": "immediate", "muck_tie": "none"}
    assert fp(explicit) == fp(game)
    empty = copy.deepcopy(game)
    empty["rules"] = {}
    empty["deals"][0]["score"] = {**empty["deals"][0]["score"]}
    assert fp(empty) == fp(game)
    no_event = copy.deepcopy(game)
    no_event.pop("event", None)
    empty_event = copy.deepcopy(no_event)
    empty_event["event"] = {}
    assert fp(empty_event) == fp(no_event)
    finished = copy.deepcopy(no_event)
    finished.pop("result", None)
    stated = copy.deepcopy(finished)
    stated["result"] = {"status": "finished"}
    assert fp(stated) == fp(finished)
    other = copy.deepcopy(game)
    other["rules"] = {"target": 121}
    assert fp(other) != fp(game)


# ---------------------------------------------------------------------------------------- sensitivity


def leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))
    else:
        yield path


def changed(value: Any) -> list[Any]:
    """Other values for a field, the likeliest to be valid first."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
        if len(value) == 2 and value[1] in "CDHS":
            other = next(r + value[1] for r in "23456789TJQKA" if r != value[0])
            return [other, "AS" if value != "AS" else "KS"]
        return [value + "x", value[:-1] or "y"]
    return []


def set_at(node: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def get_at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def mutants(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, Any]]:
    """Each other value for the field at ``path`` (``changed``), with a copy of ``node`` holding it there."""
    for value in changed(get_at(node, path)):
        mutant = copy.deepcopy(node)
        set_at(mutant, path, value)
        yield value, mutant


@pytest.mark.parametrize("name", ["phat-worked-6-2.json", "oh-hell-worked-6-1.json", "score-sheet-phat-181.json"])
def test_every_single_field_change_changes_the_fingerprint(name: str) -> None:
    """Every value of the record, changed to another that still makes a valid record: a new fingerprint."""
    record = json.loads(next(p for p in SAMPLES if p.name == name).read_text(encoding="utf-8"))
    before = fp(record)
    tried = valid = 0
    for path in leaves(record):
        for value, mutant in mutants(record, path):
            tried += 1
            loaded = read_bytes(json.dumps(mutant).encode())
            if loaded.record is None:
                continue  # not a record any more: no fingerprint
            valid += 1
            assert fingerprint(loaded.record) != before, (path, value)
            break
    assert valid > 0.5 * len(list(leaves(record))), (tried, valid)


@given(st.integers(1, 30), st.data())
def test_a_change_anywhere_in_a_simulated_game_changes_both_digests(seed: int, data: st.DataObject) -> None:
    game = phat_game(seed)
    paths = list(leaves(game))
    path = data.draw(st.sampled_from(paths))
    for _, mutant in mutants(game, path):
        loaded = read_bytes(json.dumps(mutant).encode())
        if loaded.record is not None:
            original = read(game)
            assert fingerprint(loaded.record) != fingerprint(original)
            assert dedupe_key(loaded.record) != dedupe_key(original)
            break


# ---------------------------------------------------------------------------------------- verify's digests


@given(st.integers(1, 40), st.randoms(use_true_random=False))
def test_the_dedupe_key_is_equal_exactly_when_the_fingerprint_is(seed: int, rng: random.Random) -> None:
    a, b = phat_game(seed % 7 + 1), phat_game(seed % 5 + 1)
    for x, y in ((a, b), (a, shuffled(a, rng)), (b, a)):
        rx, ry = read(x), read(y)
        assert (fingerprint(rx) == fingerprint(ry)) is (dedupe_key(rx) == dedupe_key(ry))


def test_dedupe_key_normalises_empty_objects_as_the_fingerprint_does() -> None:
    game = phat_game(6)
    game.pop("event", None)
    empty = copy.deepcopy(game)
    empty["event"] = {}
    empty["deals"][0]["score"] = game["deals"][0]["score"]
    assert dedupe_key(read(empty)) == dedupe_key(read(game))
    game["ext"] = {"a": 1.0}
    respelt = copy.deepcopy(game)
    respelt["ext"] = {"a": 1}
    assert dedupe_key(read(respelt)) == dedupe_key(read(game)) == record_digest(read(game))


def test_the_deal_fingerprint_ignores_the_order_of_a_hand_not_the_seats() -> None:
    game = phat_game(8)
    deal = game["deals"][0]
    hands = deal["hands"]
    shuffled_hands = [list(reversed(h)) for h in hands]
    assert deal_fingerprint(deal["dealer"], hands) == deal_fingerprint(deal["dealer"], shuffled_hands)
    swapped = [hands[1], hands[0], *hands[2:]]
    assert deal_fingerprint(deal["dealer"], hands) != deal_fingerprint(deal["dealer"], swapped)
    assert deal_fingerprint(deal["dealer"], hands) != deal_fingerprint((deal["dealer"] + 1) % 4, hands)
    reordered = copy.deepcopy(game)
    reordered["deals"][0]["hands"] = shuffled_hands
    assert deal_keys(read(reordered))[0] == deal_keys(read(game))[0]
    assert canonical.deal_digests(read(reordered))[0] == canonical.deal_digests(read(game))[0]
    assert fp(reordered) != fp(game)  # the record as written: its hands' order is kept


def test_a_value_left_out_or_null_is_one_canonical_form_so_new_optional_fields_keep_fingerprints() -> None:
    """A field that a later format version adds (``event.table``, ``players[].id``) given as null, or left
    out, does not change the fingerprint: older records keep theirs."""
    game = phat_game(3)
    game["event"] = {"name": "Club night"}
    spelt = copy.deepcopy(game)
    spelt["event"] = {"name": "Club night", "table": None, "board": None, "round": None}
    spelt["players"] = [{**p, "id": None} for p in game["players"]]
    assert fp(spelt) == fp(game)
    assert b":null" not in canonical.canonical_bytes(read(spelt))
    spelt["event"]["table"] = "3"
    assert fp(spelt) != fp(game)


# ---------------------------------------------------------------------------------------- the record stream

C_STREAM = canonical._C_RECORD_STREAM
needs_c = pytest.mark.skipif(C_STREAM is None, reason="the C kernel is not built")


def every_sample_record() -> Iterator[Any]:
    root = Path(__file__).resolve().parent.parent / "samples"
    for path in sorted(root.rglob("*.json")):
        loaded = read_bytes(path.read_bytes())
        if loaded.record is not None:
            yield loaded.record
    for game, options in (("phat", {}), ("nine_card_don", {}), ("irish_don", {}), ("oh_hell", {"players": 5})):
        yield from (read(g) for g in simulate(game, 3, 4, **options))


@needs_c
def test_the_c_record_stream_is_the_python_one_on_every_sample() -> None:
    """Byte for byte, and the deal keys of the same walk are :func:`deal_keys`' (ext data: both decline)."""
    classes = canonical._classes()
    records = list(every_sample_record())
    assert len(records) > 50
    declined = 0
    for record in records:
        stream = canonical.record_stream(record)
        assert C_STREAM(record, classes) == stream
        walked, keys = C_STREAM(record, classes, True)
        assert walked == stream
        if stream is None:
            declined += 1
            continue
        assert keys is None or keys == canonical.deal_blob(deal_keys(record))
        assert canonical.record_keys(record, True) == (dedupe_key(record), canonical.deal_blob(deal_keys(record)))
        assert canonical.record_keys(record, False) == (dedupe_key(record), b"")
    assert 0 < declined < len(records)  # the samples with extension data take the fingerprint


@needs_c
@given(st.integers(1, 30), st.data())
def test_the_c_record_stream_is_the_python_one_after_any_change(seed: int, data: st.DataObject) -> None:
    game = phat_game(seed)
    path = data.draw(st.sampled_from(list(leaves(game))))
    for _, mutant in mutants(game, path):
        loaded = read_bytes(json.dumps(mutant).encode())
        if loaded.record is not None:
            stream = canonical.record_stream(loaded.record)
            assert stream is not None
            assert C_STREAM(loaded.record, canonical._classes()) == stream
            walked, keys = C_STREAM(loaded.record, canonical._classes(), True)
            assert walked == stream
            blob = canonical.deal_blob(deal_keys(loaded.record))
            assert keys is None or keys == blob  # None: a deal the Python code keys
            assert canonical.record_keys(loaded.record, True) == (dedupe_key(loaded.record), blob)


@needs_c
def test_the_c_record_stream_declines_junk() -> None:
    """What is not a record of structs, lists, strings, small integers, booleans and None: None, never a crash."""
    classes = canonical._classes()
    record = read(phat_game(2))
    deep: Any = []
    for _ in range(100):
        deep = [deep]
    for junk in ({"a": 1}, 1.5, 1 << 70, -(1 << 64), object(), deep, [1, 2, {"x": []}], SimpleNamespace(a=1)):
        assert C_STREAM(junk, classes) is None
        assert canonical.record_stream(junk) is None
        assert C_STREAM(junk, classes, True) == (None, None)
    assert C_STREAM([1, "x", None, True, -5, 300], classes) == canonical.record_stream([1, "x", None, True, -5, 300])
    assert C_STREAM("é" * 300, classes) == canonical.record_stream("é" * 300)
    assert C_STREAM(record, {}) is None  # a class it was not told of
    assert C_STREAM(record, classes) == canonical.record_stream(record)  # and the table is made anew
    with pytest.raises(TypeError):
        C_STREAM(record)
    with pytest.raises(TypeError):
        C_STREAM(record, [])


def test_the_pure_python_dedupe_key_is_the_c_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run without the C kernel (or a cluster's worker without it) keys records the same way."""
    records = list(every_sample_record())
    fast = [(dedupe_key(r), canonical.record_keys(r, True)) for r in records]
    monkeypatch.setattr(canonical, "_C_RECORD_STREAM", None)
    monkeypatch.setattr(canonical, "_C_DEAL_KEYS", None)
    assert [(dedupe_key(r), canonical.record_keys(r, True)) for r in records] == fast


# ---------------------------------------------------------------------------------------- deal keys

CARDS = st.sampled_from(list(CARD_TEXT))
#: Deals as the format and beyond it: 1 to 8 hands, a dealer from -1 to 8, a card possibly held twice.
ANY_DEAL = st.tuples(
    st.integers(-1, 8),
    st.lists(st.lists(CARDS, max_size=14), min_size=1, max_size=8),
)


def deal_struct(dealer: int, hands: list[list[str]]) -> Any:
    return SimpleNamespace(dealer=dealer, hands=hands)


@given(ANY_DEAL, ANY_DEAL)
def test_two_deal_keys_are_equal_exactly_when_the_deal_fingerprints_are(a: Any, b: Any) -> None:
    same = canonical.deal_bytes(*a) == canonical.deal_bytes(*b)
    assert (canonical.deal_key(*a) == canonical.deal_key(*b)) is same
    assert canonical.deal_key(*a) == canonical.deal_key(a[0], [list(reversed(h)) for h in a[1]])


@given(ANY_DEAL, ANY_DEAL)
def test_a_hand_holding_a_card_twice_keeps_its_own_deal_key(a: Any, b: Any) -> None:
    """A set of cards cannot tell 2C 2C from 3C (their bits summed to one key before): such a hand is keyed
    by its fingerprint instead."""
    dealer, hands = a
    twice = [["2C", "2C", *hands[0]], *hands[1:]]
    once = [["3C", *hands[0]], *hands[1:]]
    assert canonical.deal_key(dealer, twice) != canonical.deal_key(dealer, once)


@pytest.mark.skipif(canonical._C_DEAL_KEYS is None, reason="the C kernel is not built")
@given(st.lists(ANY_DEAL | st.tuples(st.integers(0, 3), st.none()), max_size=5))
def test_the_c_deal_keys_are_the_python_ones(deals: list[Any]) -> None:
    structs = [deal_struct(*d) for d in deals]
    python = [(i, canonical.deal_key(d.dealer, d.hands)) for i, d in enumerate(structs) if d.hands is not None]
    found = canonical._C_DEAL_KEYS(structs)
    assert found is None or found == python
    dealt = [d for d in structs if d.hands is None or canonical.deal_key(d.dealer, d.hands) < canonical._UNUSUAL_KEY]
    assert canonical._C_DEAL_KEYS(dealt) == [  # every deal of the common shape: the kernel's own keys
        (i, canonical.deal_key(d.dealer, d.hands)) for i, d in enumerate(dealt) if d.hands is not None
    ]


@pytest.mark.parametrize(("game", "options"), [("phat", {}), ("irish_don", {}), ("oh_hell", {"players": 7})])
def test_deal_keys_with_and_without_the_c_kernel_agree_on_simulated_games(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [read(g) for g in simulate(game, 5, 5, **options)]
    fast = [deal_keys(r) for r in records]
    monkeypatch.setattr(canonical, "_C_DEAL_KEYS", None)
    assert [deal_keys(r) for r in records] == fast


def test_verify_does_not_take_a_hand_holding_a_card_twice_for_another_deal(tmp_path: Path) -> None:
    """Regression: the deal key summed card bits, so a hand holding 3C three times had the key of one holding
    2C twice and 4C (1+1+4 = 2+2+2), and ``verify`` warned of a deal dealt twice (PL802) between two
    different deals (both faulty, both readable: 13 cards a hand)."""
    from typer.testing import CliRunner

    from phatlog.cli.app import app

    lines = []
    for three in (["3C", "3C", "3C"], ["2C", "2C", "4C"]):
        game = phat_game(3)
        game["deals"] = game["deals"][:1]
        game["result"] = {"status": "unfinished"}
        game["deals"][0]["hands"][0] = game["deals"][0]["hands"][0][:10] + three
        lines.append(json.dumps(game))
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for fmt in ("json", "text"):
        result = CliRunner().invoke(app, ["verify", "--format", fmt, str(path)])
        assert result.exit_code == 1, result.output  # the hands are faulty
        assert "PL201" in result.stdout  # a card dealt twice: the record was read and refereed
        assert "PL802" not in result.stdout


# ---------------------------------------------------------------------------------------- the deals seen

KEYS = st.lists(st.tuples(st.integers(0, 9_999), st.integers(0, 40)), max_size=12)


def blob_of(pairs: list[tuple[int, int]]) -> bytes:
    """Deal keys as the tracker takes them; a small number stands for a key (some common, some unusual)."""
    return canonical.deal_blob([(i, k if k % 2 else canonical._UNUSUAL_KEY | k << 300) for i, k in pairs])


def c_table() -> Any:
    from phatlog._native import _bytes

    return _bytes.DealTable()


@pytest.mark.skipif(canonical._C_RECORD_STREAM is None, reason="the C kernel is not built")
@given(st.lists(KEYS, max_size=30))
def test_the_c_deal_table_answers_as_the_python_one(records: list[list[tuple[int, int]]]) -> None:
    """Record after record (each first seen at its number x 2**20 + the deal's index): the same deals found
    seen before, with the same first places, C and Python; and the same number of deals kept."""
    from phatlog.archive.duplicates import _DealTable

    c, py = c_table(), _DealTable()
    for number, pairs in enumerate(records):
        blob = blob_of(pairs)
        assert c.seen(blob, number << 20) == py.seen(blob, number << 20)
    assert len(c) == len(py) == len({k for pairs in records for _, k in pairs})


@pytest.mark.deep
@pytest.mark.skipif(canonical._C_RECORD_STREAM is None, reason="the C kernel is not built")
def test_the_c_deal_table_grows_and_refuses_junk() -> None:
    table = c_table()
    keys = [(i % 9_000, i) for i in range(50_000)]  # past the first index's 1,024 slots many times
    assert table.seen(canonical.deal_blob(keys), 0) is None
    assert len(table) == 50_000
    again = table.seen(canonical.deal_blob([(3, 49_999), (4, 7), (5, 10**9)]), 1 << 20)
    assert again == [(3, 49_999 % 9_000), (4, 7)]
    assert len(table) == 50_001
    for bad in ((b"x" * 51, 0), (b"", -1)):
        with pytest.raises(ValueError):
            table.seen(*bad)
    for bad_args in (("not bytes", 0), (b"", "0"), (b"",)):
        with pytest.raises(TypeError):
            table.seen(*bad_args)
    assert table.seen(b"", 0) is None


def test_the_tracker_reports_the_same_without_the_c_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose deals repeat across records and within one: the same PL802 warnings, C or Python."""
    from phatlog.archive import duplicates

    games = list(simulate("oh_hell", 4, 6, players=4))
    games.append(copy.deepcopy(games[0]))  # the whole record: PL801
    again = copy.deepcopy(games[1])
    again["deals"][0]["score"] = None  # another record, the same deals
    games.append(again)
    twice = copy.deepcopy(games[2])
    twice["deals"][3]["hands"] = twice["deals"][1]["hands"]  # one deal dealt twice in a record
    twice["deals"][3]["dealer"] = twice["deals"][1]["dealer"]
    games.append(twice)
    items = [(f"f{i % 3}.jsonl", i, *canonical.record_keys(read(g), True)) for i, g in enumerate(games)]

    def found() -> list[tuple[str, str | None]]:
        tracker = duplicates.DuplicateTracker()
        return [(d.code, d.message) for item in items for d in tracker.check(*item)]

    fast = found()
    assert [code for code, _ in fast].count("PL801") == 1
    assert [code for code, _ in fast].count("PL802") >= len(games[1]["deals"]) + 2
    monkeypatch.setattr(duplicates, "_deal_table", duplicates._DealTable)
    assert found() == fast


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(alphabet='ab,{}:"nul\\l', max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='ab,{}:"nul\\l', max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.skipif(canonical._C_DROP_NULLS is None, reason="the C kernel is not built")
@given(value=_JSON_VALUES)
def test_the_kernel_drops_null_members_as_the_reference_does(value: Any) -> None:
    text = msgspec.json.encode(value)
    dropped = canonical._C_DROP_NULLS(text)
    if b"\\" in text:
        assert dropped is None
    else:
        assert dropped == canonical._drop_nulls_reference(text)
        assert msgspec.json.decode(dropped) == _without_nulls(value)


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value
