"""Fuzz the C kernels' entry points directly (``_trick``, ``_bytes``): junk and mutated arguments, never a
segfault. Internal as they are, a bad argument must raise (TypeError, ValueError, OverflowError, ...) or be
declined (None, a fault), never crash the interpreter.

Each call gets a valid argument set built from a real record (its decoded views and its game's tables),
then one to three mutations: a table's words flipped, cut short or lengthened; a number made huge, negative
or of another type; a sequence replaced by junk, cut, or by a sequence whose items change while the kernel
reads them (a ``__getattr__`` that empties the list it came from, a ``__len__`` that lies).

Run it in a child process, since a crash ends the process: ``python bench/fuzz_native.py --calls 20000
--seed 1`` exits 0 when every call returned or raised, and prints how many did each.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from phatlog._native import kernel_module, tables
from phatlog.record.reader import read_plain
from phatlog.record.view import game_of
from phatlog.referee import oh_hell as oh_hell_rules
from phatlog.referee.games import ALL_FOURS, RULES_MODULES
from phatlog.rules.trick import FollowRule

ROOT: Final = Path(__file__).resolve().parent.parent
JUNK: Final[list[Any]] = [
    None,
    0,
    -1,
    2**31,
    2**63,
    -(2**63),
    2**64,
    1.5,
    "",
    "AS",
    b"",
    b"\xff" * 9,
    [],
    [None],
    {},
    (),
]


class Shifty:
    """An item whose every attribute read empties the list it sits in (an entry freed while it is read)."""

    def __init__(self, owner: list[Any], real: Any) -> None:
        self.owner = owner
        self.real = real

    def __getattr__(self, name: str) -> Any:
        self.owner.clear()
        return getattr(self.real, name)


class Liar(list[Any]):
    """A list whose ``len`` is not its length."""

    def __len__(self) -> int:
        return 1000


def _records() -> list[Any]:
    out = []
    for path in sorted((ROOT / "samples" / "games").glob("*.json")):
        record = read_plain(path.read_bytes())
        if record is not None:
            out.append(record)
    return out


def _mutate_table(table: bytes, rng: random.Random) -> bytes:
    buf = bytearray(table)
    op = rng.randrange(5)
    if op == 0 and buf:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(buf))
            buf[i] = rng.randrange(256)
    elif op == 1:
        del buf[rng.randrange(len(buf) + 1) :]
    elif op == 2:
        buf += bytes(rng.randrange(256) for _ in range(rng.choice([1, 4, 64])))
    elif op == 3 and len(buf) >= 4:
        i = rng.randrange(len(buf) // 4) * 4
        buf[i : i + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x80", b"\xff\xff\xff\x7f", b"\x00" * 4])
    else:
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 3, 8, 400])))
    return bytes(buf)


def _fields(item: Any) -> list[str]:
    return list(getattr(item, "__struct_fields__", ()) or getattr(item, "__slots__", ()) or vars(item))


def _reshaped(item: Any, rng: random.Random, depth: int = 0) -> Any:
    """A stand-in for a view (a deal, a trick) with its attributes, one of them mutated (deeper now and then)."""
    try:
        names = _fields(item)
    except TypeError:
        return rng.choice(JUNK)
    fake = types.SimpleNamespace(**{n: getattr(item, n, None) for n in names})
    if names:
        name = rng.choice(names)
        value = getattr(fake, name)
        if depth < 2 and isinstance(value, (list, tuple)) and value and rng.random() < 0.5:
            inner = list(value)
            i = rng.randrange(len(inner))
            inner[i] = (
                _reshaped(inner[i], rng, depth + 1)
                if hasattr(inner[i], "__struct_fields__")
                else _mutate_seq(inner[i], rng, depth + 1)
            )
            setattr(fake, name, inner)
        elif isinstance(value, int) and not isinstance(value, bool):
            setattr(fake, name, rng.choice([-1, 4, 52, 2**31, 2**63, 2**64, None, "x"]))
        else:
            setattr(fake, name, _mutate_seq(value, rng, depth + 1) if depth < 2 else rng.choice(JUNK))
    return fake


def _mutate_seq(seq: Any, rng: random.Random, depth: int = 0) -> Any:
    items = list(seq) if isinstance(seq, (list, tuple)) else []
    if items and depth < 2 and rng.random() < 0.4:
        i = rng.randrange(len(items))
        item = items[i]
        items[i] = (
            _reshaped(item, rng, depth) if hasattr(item, "__struct_fields__") else _mutate_seq(item, rng, depth + 1)
        )
        return items
    op = rng.randrange(6)
    if op == 0:
        return rng.choice(JUNK)
    if op == 1 and items:
        del items[rng.randrange(len(items)) :]
        return items
    if op == 2 and items:
        i = rng.randrange(len(items))
        items[i] = rng.choice(JUNK)
        return items
    if op == 3 and items:
        i = rng.randrange(len(items))
        items[i] = Shifty(items, items[i])
        return items
    if op == 4:
        return Liar(items)
    return items * rng.choice([2, 20])


def mutate(args: list[Any], rng: random.Random, tables_at: set[int]) -> list[Any]:
    args = list(args)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(args))
        value = args[i]
        if i in tables_at and isinstance(value, bytes) and rng.random() < 0.7:
            args[i] = _mutate_table(value, rng)
        elif isinstance(value, bool) or (isinstance(value, int) and rng.random() < 0.7):
            args[i] = rng.choice([-1, 0, 3, 4, 13, 52, 2**31, -(2**31), 2**63, 2**64, 10**30, None, "1"])
        elif isinstance(value, (list, tuple)) or value is None:
            args[i] = _mutate_seq(value, rng)
        else:
            args[i] = rng.choice(JUNK)
    if rng.random() < 0.1:
        args = args[: rng.randrange(len(args) + 1)] if rng.random() < 0.5 else [*args, None]
    return args


def calls(records: list[Any]) -> list[tuple[str, Callable[..., Any], list[Any], set[int]]]:
    """Every C entry point with a valid argument set from each record: (name, function, args, the
    positions of table arguments)."""
    trick = kernel_module("_trick")
    raw = kernel_module("_bytes")
    out: list[tuple[str, Callable[..., Any], list[Any], set[int]]] = []
    if trick is not None:
        follow_table = tables.trick_table(FollowRule.MUST_FOLLOW)
        for record in records:
            game = game_of(record)
            deals = list(record.deals)
            if game in ALL_FOURS:
                table = tables.pitch_table(RULES_MODULES[game](record))  # type: ignore[arg-type]
                out.append(("pitch_record", trick.pitch_record, [deals, table], {1}))
                for deal in deals[:2]:
                    if deal.tricks:
                        args = [deal.hands, list(deal.tricks), getattr(deal, "undealt", None), 1, table, 0, 0, True]
                        out.append(("play", trick.play, args, {4}))
            else:
                whole = oh_hell_rules._make_plan(record.rules, len(record.players)).whole
                if whole is not None:
                    out.append(("oh_hell_record", trick.oh_hell_record, [deals, whole], {1}))
                for deal in deals[:2]:
                    if deal.tricks:
                        n = len(deal.hands or ()) or 4
                        size = len((deal.hands or [[]])[0])
                        args = [deal.hands, list(deal.tricks), None, 0, n, size, 0, follow_table]
                        out.append(("oh_hell", trick.oh_hell, args, {7}))
    if raw is not None:
        from phatlog.record.canonical import _classes, _json_classes

        for record in records:
            data = json.dumps({"a": 1, "b": [1, {"a": 2, "a ": 3}]}).encode()
            out.append(("maybe_duplicate_keys", raw.maybe_duplicate_keys, [data], set()))
            out.append(("deal_keys", raw.deal_keys, [list(record.deals)], set()))
            out.append(("record_stream", raw.record_stream, [record, _classes(), True], set()))
            out.append(("canonical_json", raw.canonical_json, [record, _json_classes()], set()))
            out.append(("canonical_json", raw.canonical_json, [list(record.deals), _json_classes()], set()))
        out.append(("DealTable.seen", raw.DealTable().seen, [b"\x00" * 48, 0], {0}))
    return out


def run(n: int, seed: int) -> Counter[str]:
    """``n`` calls; how many returned and how many raised, by entry point."""
    rng = random.Random(seed)
    base = calls(_records())
    seen: Counter[str] = Counter()
    for _ in range(n):
        name, fn, args, tabled = rng.choice(base)
        mutated = mutate(copy.copy(args), rng, tabled)
        try:
            fn(*mutated)
        except Exception as exc:
            seen[f"{name} raised {type(exc).__name__}"] += 1
        else:
            seen[f"{name} returned"] += 1
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import faulthandler

    faulthandler.enable()
    seen = run(args.calls, args.seed)
    for key, count in sorted(seen.items()):
        print(f"{count:8,}  {key}")
    print(f"{sum(seen.values()):,} calls, no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
