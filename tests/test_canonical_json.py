"""The C kernel's canonical form (``_bytes.canonical_json``) against the Python one, byte for byte.

``canonical_bytes`` takes the kernel's one walk over the record where it is built and takes the record,
and ``canonical_bytes_reference`` (msgspec's encoding, the empty objects, the nulls, the extension data)
everywhere else: the two must give the same bytes for every record the kernel takes, and the kernel must
decline (None) what it is not sure of, so that the reference decides.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from conftest import phat_game
from hypothesis import assume, given
from hypothesis import strategies as st
from test_canonical import every_sample_record, leaves, mutants, read

from phatlog.record import canonical
from phatlog.record.canonical import canonical_bytes, canonical_bytes_reference, fingerprint
from phatlog.record.reader import read_bytes

C_JSON = canonical._C_CANONICAL_JSON
pytestmark = pytest.mark.skipif(C_JSON is None, reason="the C kernel is not built")


def kernel(record: Any) -> bytes | None:
    classes = canonical._json_classes()
    assert classes is not None
    out: bytes | None = C_JSON(record, classes)
    return out


def needs_reference(node: Any) -> bool:
    """Whether a record (JSON data) holds what the kernel declines: extension data, or a string that JSON
    writes with an escape."""
    if isinstance(node, dict):
        return node.get("ext") is not None or any(needs_reference(k) or needs_reference(v) for k, v in node.items())
    if isinstance(node, list):
        return any(needs_reference(v) for v in node)
    return isinstance(node, str) and any(c in '"\\' or c < " " for c in node)


def same_as_reference(game: dict[str, Any]) -> bool:
    """The kernel's form of the record is the reference's, or it declines exactly what it should; False
    where ``game`` is not a valid record."""
    loaded = read_bytes(json.dumps(game).encode())
    if loaded.record is None:
        return False
    out = kernel(loaded.record)
    reference = canonical_bytes_reference(loaded.record)
    if needs_reference(game):
        assert out is None
    else:
        assert out == reference
    assert canonical_bytes(loaded.record) == reference
    return True


def test_the_format_is_one_the_kernel_writes() -> None:
    """Every empty object of the format can be told in one walk: the kernel is not left unused."""
    classes = canonical._json_classes()
    assert classes is not None
    drops = {key for _, found in classes.values() for key, _ in found}
    assert drops == {b'"event":', b'"result":', b'"score":'}


def test_the_kernel_is_the_reference_on_every_sample() -> None:
    records = list(every_sample_record())
    declined = 0
    for record in records:
        out = kernel(record)
        if out is None:
            declined += 1
            continue
        assert out == canonical_bytes_reference(record)
    assert 0 < declined < len(records) // 4  # (the samples with extension data, or an escape)


def test_empty_objects_and_nulls_are_left_out_as_the_reference_leaves_them() -> None:
    game = phat_game(5)
    game["event"] = {"name": None, "site": None}
    game["result"] = {"status": "finished"}
    game["players"][0]["id"] = None
    game["deals"][0]["comment"] = None
    assert same_as_reference(game)
    out = kernel(read(game))
    assert out is not None and b'"event"' not in out and b'"result"' not in out and b"null" not in out
    game["result"] = {"status": "finished", "winner": [0], "total": [181, 20]}
    game["event"] = {"name": "Club night"}
    assert same_as_reference(game)
    assert b'"event":{"name":"Club night"}' in (kernel(read(game)) or b"")


def test_extension_data_and_escaped_strings_are_declined() -> None:
    for where in ("ext", "event", "comment", "players"):
        for junk in ({"a": 1.5}, {}, 'say "hi"', "back\\slash", "new\nline", "\x7f\u2028é😀 plain"):
            game = phat_game(2)
            if where == "ext":
                game["ext"] = junk if isinstance(junk, dict) else {"k": junk}
            elif where == "event":
                game["event"] = {"name": junk} if isinstance(junk, str) else {"ext": junk}
            elif where == "comment":
                game["deals"][0]["comment"] = junk if isinstance(junk, str) else None
                if isinstance(junk, dict):
                    game["deals"][0]["tricks"][0]["ext"] = junk
            elif isinstance(junk, str):
                game["players"][1] = {**game["players"][1], "name": junk}
            assert same_as_reference(game), (where, junk)


def test_the_kernel_declines_junk_and_refuses_bad_arguments() -> None:
    """What is not a record of the known structs, lists, strings, 64-bit integers, booleans and None: None,
    never a crash."""
    classes = canonical._json_classes()
    record = read(phat_game(2))
    deep: Any = []
    for _ in range(100):
        deep = [deep]
    for junk in ({"a": 1}, 1.5, 1 << 70, -(1 << 64), object(), deep, [1, 2, {"x": []}], SimpleNamespace(a=1), "\ud800"):
        assert C_JSON(junk, classes) is None, junk
    assert C_JSON([1, "x", None, True, False, -5, 1 << 62, -(1 << 63)], classes) == msgspec.json.encode(
        [1, "x", None, True, False, -5, 1 << 62, -(1 << 63)]
    )
    assert C_JSON(record, {}) is None  # a class it was not told of
    assert C_JSON(record, {type(record): ((b'"a":', 99, False),)}) is None  # an entry not of the shape
    assert C_JSON(record, {type(record): (((b'"a":', 99, False),), ())}) is None  # a field that is not there
    assert C_JSON(record, classes) == canonical_bytes_reference(record)  # and the table is made anew
    with pytest.raises(TypeError):
        C_JSON(record)
    with pytest.raises(TypeError):
        C_JSON(record, [])


@given(st.integers(1, 30), st.data())
def test_the_kernel_is_the_reference_after_any_change(seed: int, data: st.DataObject) -> None:
    game = phat_game(seed)
    path = data.draw(st.sampled_from(list(leaves(game))))
    for _, mutant in mutants(game, path):
        if same_as_reference(mutant):
            break


_TEXT = st.text(max_size=8) | st.sampled_from(['"event":{}', ":null,", '","x":null', "{}", "null", "é", "\\", ""])
_OPTIONAL = st.none() | _TEXT


@given(
    seed=st.integers(1, 30),
    event=st.none() | st.dictionaries(st.sampled_from(["name", "site", "date", "round", "table", "board"]), _OPTIONAL),
    names=st.lists(_TEXT.filter(bool), min_size=4, max_size=4),
    ids=st.lists(_OPTIONAL, min_size=4, max_size=4),
    comments=st.lists(_OPTIONAL, min_size=1, max_size=3),
    score=st.sampled_from(["kept", "empty", "points", "gone"]),
    result=st.sampled_from(["kept", "finished", "gone"]),
)
def test_the_kernel_is_the_reference_on_any_texts_and_empty_objects(
    seed: int,
    event: dict[str, str | None] | None,
    names: list[str],
    ids: list[str | None],
    comments: list[str | None],
    score: str,
    result: str,
) -> None:
    """Any texts (escapes, quotes, ``:null``, what an empty object looks like), null or given, and the
    optional objects given empty, in part, or not at all."""
    game = phat_game(seed)
    game["event"] = event
    game["players"] = [{"name": n, "id": i} for n, i in zip(names, ids, strict=True)]
    game["comment"] = comments[0]
    for deal, text in zip(game["deals"], comments[1:], strict=False):
        deal["comment"] = text
        deal["tricks"][-1]["comment"] = text
    first = game["deals"][0]
    if score == "empty":
        first["score"] = {}
    elif score == "points":
        first["score"] = {"points": first["score"]["points"]}
    elif score == "gone":
        first.pop("score", None)
    if result == "finished":
        game["result"] = {"status": "finished"}
    elif result == "gone":
        game.pop("result", None)
    assume(same_as_reference(game))


def test_the_fingerprint_is_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    records = list(every_sample_record())
    fast = [fingerprint(r) for r in records]
    monkeypatch.setattr(canonical, "_C_CANONICAL_JSON", None)
    assert [fingerprint(r) for r in records] == fast
