"""``phatlog export``'s two paths give the same tables: a clean All Fours record told by the C kernel and
made as columns (``archive.export_columns``), and every record heard by the listener on the State's events
(``archive.export.Tables``). Every table is compared, column by column and row by row, with its types:
the bundled samples (clean, faulty, with rulings, score sheets, Oh Hell) and simulated records of every
game and rules variant, clean ones mixed with ones whose score is wrong (the kernel declines them), in
batches small enough that each holds rows of both paths."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_trick_kernel import OH_VARIANTS, VARIANTS

from phatlog.archive import export as export_module
from phatlog.archive import export_columns
from phatlog.archive.export import TABLES, export
from phatlog.play.simulate import simulate

pytestmark = pytest.mark.skipif(not export_columns.AVAILABLE, reason="the fast path needs the C kernel and numpy")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@contextmanager
def counting() -> Iterator[list[int]]:
    """The number of records the fast path took, in a list of one, while the block runs."""
    taken = [0]
    real = export_columns.told_record

    def spy(*args: Any) -> Any:
        found = real(*args)
        taken[0] += found is not None
        return found

    with mock.patch.object(export_columns, "told_record", spy):
        yield taken


def both(paths: list[str], out: Path, fmt: str) -> tuple[int, Path, Path]:
    """Export ``paths`` by both paths (``fmt``): the records the fast path took, and the two outputs."""
    fast, slow = out / f"fast.{fmt}", out / f"slow.{fmt}"
    with counting() as taken:
        export(paths, str(fast), fmt)
    with mock.patch.object(export_columns, "AVAILABLE", False), counting() as none:
        export(paths, str(slow), fmt)
    assert none[0] == 0
    return taken[0], fast, slow


def same_sqlite(a: Path, b: Path) -> None:
    one, two = sqlite3.connect(a), sqlite3.connect(b)
    for name in TABLES:
        query = f"SELECT *, typeof({TABLES[name][-1][0]}) FROM {name} ORDER BY rowid"
        assert one.execute(query).fetchall() == two.execute(query).fetchall(), name


def same_parquet(a: Path, b: Path) -> None:
    for name in TABLES:
        one, two = pq.read_table(a / f"{name}.parquet"), pq.read_table(b / f"{name}.parquet")
        assert one.schema == two.schema, name
        assert one.to_pylist() == two.to_pylist(), name


def test_samples_by_both_paths(tmp_path: Path) -> None:
    paths = [str(SAMPLES / d) for d in ("games", "events", "rulings", "invalid")]
    taken, fast, slow = both(paths, tmp_path, "sqlite")
    assert taken > 10  # the clean All Fours samples
    same_sqlite(fast, slow)
    taken, fast, slow = both(paths, tmp_path, "parquet")
    same_parquet(fast, slow)


def _spoilt(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its last deal's recorded points wrong: the kernel declines it, the listener hears it."""
    score = record["deals"][-1].get("score")
    if score and score.get("points"):
        score["points"] = [p + 1 for p in score["points"]]
    return record


@settings(
    deadline=None, max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    variant=st.sampled_from(range(len(VARIANTS))),
    other=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(0, 10_000),
    spoil=st.lists(st.booleans(), min_size=3, max_size=3),
    fmt=st.sampled_from(["sqlite", "parquet"]),
)
def test_simulated_by_both_paths(
    tmp_path_factory: pytest.TempPathFactory, variant: int, other: int, seed: int, spoil: list[bool], fmt: str
) -> None:
    records: list[dict[str, Any]] = []
    for v in (variant, other, variant):  # games of different rules in turn, in batches of a few records
        game, rules = VARIANTS[v]
        records.extend(simulate(game, seed + v, 1, rules=rules, with_cut=seed % 2 == 0))
    records = [_spoilt(r) if bad else r for r, bad in zip(records, spoil, strict=True)]
    records.extend(simulate("oh_hell", seed, 1, rules=OH_VARIANTS[seed % len(OH_VARIANTS)], players=3 + seed % 5))
    out = tmp_path_factory.mktemp("paths")
    archive = out / "games.jsonl"
    archive.write_text("".join(json.dumps(r) + "\n" for r in records))
    with mock.patch.object(export_module, "BATCH_ROWS", 40):  # batches that mix the two paths' rows
        taken, fast, slow = both([str(archive)], out, fmt)
    assert taken == spoil.count(False)  # every clean record took the fast path
    (same_sqlite if fmt == "sqlite" else same_parquet)(fast, slow)


# The Arrow arrays are made from their buffers (``pyarrow.array`` would import pandas): the same arrays.

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    ints=st.lists(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1)), max_size=40),
    texts=st.lists(st.one_of(st.none(), _TEXT), max_size=40),
    bools=st.lists(st.one_of(st.none(), st.booleans()), max_size=40),
)
def test_python_columns_as_pyarrow_makes_them(ints: list[Any], texts: list[Any], bools: list[Any]) -> None:
    for values, type_ in ((ints, pa.int64()), (texts, pa.string()), (bools, pa.bool_())):
        made = export_module.python_array(values, type_)
        made.validate(full=True)
        assert made.equals(pa.array(values, type=type_))


@settings(max_examples=60, deadline=None)
@given(
    texts=st.one_of(
        st.lists(st.one_of(st.none(), _TEXT), min_size=1, max_size=8),
        st.lists(st.text(alphabet="AKQJT98765432CDHSé", min_size=2, max_size=2), min_size=1, max_size=8),
    ),
    data=st.data(),
)
def test_told_columns_as_pyarrow_makes_them(texts: list[Any], data: st.DataObject) -> None:
    np = pytest.importorskip("numpy")
    ids = data.draw(st.lists(st.integers(0, len(texts) - 1), max_size=50))
    column = export_columns.Column("text", np.array(ids, dtype=np.int32), texts=texts)
    made = column.to_arrow(pa.string())
    made.validate(full=True)
    assert made.equals(pa.array([texts[i] for i in ids], type=pa.string()))
    valid = data.draw(st.lists(st.booleans(), min_size=len(ids), max_size=len(ids)))
    for kind, type_ in (("int", pa.int64()), ("bool", pa.bool_())):
        values = np.array(ids, dtype=np.int64) if kind == "int" else np.array([i % 2 == 1 for i in ids], dtype=bool)
        told = export_columns.Column(kind, values, np.array(valid, dtype=bool)).to_arrow(type_)
        told.validate(full=True)
        expected = [v if ok else None for v, ok in zip(values.tolist(), valid, strict=True)]
        assert told.equals(pa.array(expected, type=type_))
