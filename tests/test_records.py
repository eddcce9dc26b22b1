"""The engine's record Protocols (``phatlog.record.view``) hold for both kinds of record it reads.

The pydantic models are checked by mypy (tests/test_records_typing.py). The fast path's msgspec structs
are compiled from the schema at run time, which mypy cannot see: here each struct's fields are held to
the Protocol it must meet, member by member and type by type, and the referee is run on both kinds of
record of every sample game, which must give the same verdict.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec.inspect as mi
import pytest

from phatlog.record import decoder as wire
from phatlog.record import view
from phatlog.record.model import RECORD_ADAPTER
from phatlog.referee.games import referee
from phatlog.referee.pitch import Findings

SAMPLES = sorted((Path(__file__).parent.parent / "samples" / "games").glob("*.json"))

#: What each game's record must hold, by the Protocol of each member (``RecordView`` is generic).
RECORDS: dict[str, dict[str, Any]] = {
    "phat": {"rules": view.PhatRulesView, "deals": Sequence[view.PitchDealView], "cut": view.CutView | None},
    "nine_card_don": {
        "rules": view.NineCardDonRulesView,
        "deals": Sequence[view.NineCardDonDealView],
        "cut": view.CutView | None,
    },
    "irish_don": {"rules": view.IrishDonRulesView, "deals": Sequence[view.PitchDealView]},
    "oh_hell": {"rules": view.OhHellRulesView, "deals": Sequence[view.OhHellDealView]},
}
SHARED: dict[str, Any] = {"players": Sequence[view.PlayerView], "result": view.ResultView | None}


def members(protocol: type) -> dict[str, Any]:
    """The members a Protocol names (its read-only properties, inherited ones too) and their types."""
    found: dict[str, Any] = {}
    for klass in reversed(protocol.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, property) and value.fget is not None:
                found[name] = typing.get_type_hints(value.fget)["return"]
    return found


def problems(info: mi.Type, hint: Any, where: str) -> list[str]:
    """Why a value of the msgspec type ``info`` may not be read as ``hint`` (empty: it may)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = info.types if isinstance(info, mi.UnionType) else (info,)
        out: list[str] = []
        for option in options:
            if all(problems(option, arg, where) for arg in args):
                out.append(f"{where}: {option} is none of {hint}")
        return out
    if hint is type(None):
        return [] if isinstance(info, mi.NoneType) else [f"{where}: {info} is not None"]
    if origin is typing.Literal:
        ok = isinstance(info, mi.LiteralType) and set(info.values) <= set(args)
        return [] if ok else [f"{where}: {info} is not {hint}"]
    if hint is str:
        ok = isinstance(info, mi.StrType) or (
            isinstance(info, mi.LiteralType) and all(isinstance(v, str) for v in info.values)
        )
        return [] if ok else [f"{where}: {info} is not str"]
    if hint is int:
        return [] if isinstance(info, mi.IntType) else [f"{where}: {info} is not int"]
    if hint is bool:
        return [] if isinstance(info, mi.BoolType) else [f"{where}: {info} is not bool"]
    if origin is Sequence:
        if not isinstance(info, mi.ListType):
            return [f"{where}: {info} is not a list"]
        return problems(info.item_type, args[0], f"{where}[]")
    if isinstance(hint, type) and getattr(hint, "_is_protocol", False):
        if not isinstance(info, mi.StructType):
            return [f"{where}: {info} is not a struct"]
        fields = {f.name: f.type for f in info.fields}
        out = []
        for name, want in members(hint).items():
            if name not in fields:
                out.append(f"{where}: {info.cls.__name__} has no {name}")
            else:
                out.extend(problems(fields[name], want, f"{where}.{name}"))
        return out
    raise AssertionError(f"{where}: no rule for {hint}")


def test_the_wire_structs_meet_the_protocols() -> None:
    union = mi.type_info(wire.record_type())
    assert isinstance(union, mi.UnionType)
    games = {}
    for struct in union.types:
        assert isinstance(struct, mi.StructType)
        games[struct.cls.__struct_config__.tag] = {f.name: f.type for f in struct.fields}
    assert set(games) == set(RECORDS)
    for game, want in RECORDS.items():
        for name, hint in {**SHARED, **want}.items():
            assert name in games[game], (game, name)
            assert problems(games[game][name], hint, f"{game}.{name}") == []


def test_the_check_finds_a_mismatch() -> None:
    """The check above can fail: a Protocol the schema does not meet is caught."""

    class Wrong(typing.Protocol):
        @property
        def dealer(self) -> str: ...
        @property
        def missing(self) -> int: ...

    union = mi.type_info(wire.record_type())
    assert isinstance(union, mi.UnionType)
    record = union.types[0]
    assert isinstance(record, mi.StructType)
    deals = {f.name: f.type for f in record.fields}["deals"]
    found = problems(deals, Sequence[Wrong], "deals")
    assert any("no missing" in p for p in found) and any(".dealer" in p and "not str" in p for p in found)


def outcome(v: Findings) -> tuple[Any, ...]:
    return ([(d.code, d.message, d.pointer) for d in v.diagnostics], v.deals, v.totals, v.winner, v.ended_at)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_the_referee_reads_both_kinds_of_record(path: Path) -> None:
    data = path.read_bytes()
    fast = wire.decode(data)
    slow = RECORD_ADAPTER.validate_python(json.loads(data))
    assert not hasattr(fast, "game") and view.game_of(fast) == view.game_of(slow) == slow.game
    assert outcome(referee(fast)) == outcome(referee(slow))
