"""``phatlog export`` and ``phatlog.export`` (docs/export.md): the tables hold what the referee decided,
asked with real queries on the real databases (SQLite, Parquet through DuckDB and pyarrow, DuckDB)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import phatlog
from phatlog.archive import export as export_module
from phatlog.archive.export import TABLES, export
from phatlog.cli.app import app
from phatlog.rules.table import pitcher, side_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
runner = CliRunner()

TOP_SCORERS = """
    SELECT p.name, SUM(p.total) AS score
    FROM players p JOIN records r USING (record)
    WHERE r.event_name = ? AND r.game = ? AND r.status = 'clean'
    GROUP BY p.name ORDER BY score DESC, p.name
"""
PITCHERS_SHARE = """
    SELECT AVG(CASE WHEN t.winner_side = d.pitcher % 2 THEN 1.0 ELSE 0.0 END)
    FROM tricks t JOIN deals d USING (record, deal)
    JOIN records r USING (record)
    WHERE t.scored AND r.game <> 'oh_hell'
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    out = tmp_path_factory.mktemp("export") / "games.sqlite"
    result = runner.invoke(app, ["export", str(SAMPLES / "games"), str(SAMPLES / "events"), "-o", str(out)])
    assert result.exit_code == 1, result.stderr  # one event record has a revoke, as verify finds
    return sqlite3.connect(out)


def standings_scores(path: Path) -> list[tuple[str, int]]:
    result = runner.invoke(app, ["standings", str(path), "--format", "json"])
    players = json.loads(result.stdout)["events"][0]["players"]
    return sorted(((p["name"], p.get("score", p.get("points_for"))) for p in players), key=lambda x: (-x[1], x[0]))


def test_top_scorers_of_an_event_in_sql_are_the_standings(db: sqlite3.Connection) -> None:
    for game, folder in (("oh_hell", "oh-hell"), ("phat", "phat")):
        event = json.loads((SAMPLES / "events" / folder / "round-1-table-1.json").read_text())["event"]["name"]
        rows = db.execute(TOP_SCORERS, (event, game)).fetchall()
        assert rows and rows == standings_scores(SAMPLES / "events" / folder)


def pitchers_share_from_events(paths: list[Path]) -> float:
    """The share of tricks won by the pitcher's side, counted from the referee's events directly."""
    won = total = 0
    for path in paths:
        events: list[phatlog.Event] = []
        verdict = phatlog.verify(path, visitors=[events.append])
        if phatlog.read(path).game == "oh_hell":
            continue
        dealers = {e.deal: e.dealer for e in events if isinstance(e, phatlog.DealBegins)}
        for e in events:
            if isinstance(e, phatlog.TrickWon):
                total += 1
                won += side_of(e.seat) == side_of(pitcher(dealers[e.deal]))
        assert verdict is not None
    return won / total


def test_share_of_tricks_won_by_the_pitchers_side(db: sqlite3.Connection) -> None:
    paths = sorted((SAMPLES / "games").glob("*.json")) + sorted((SAMPLES / "events").rglob("*.json"))
    (share,) = db.execute(PITCHERS_SHARE).fetchone()
    assert share == pytest.approx(pitchers_share_from_events(paths))
    assert 0.3 < share < 0.8


def test_the_verdicts_and_totals_are_the_referees(db: sqlite3.Connection) -> None:
    for source, status, winner, record in db.execute("SELECT source, status, winner, record FROM records"):
        verdict = phatlog.verify(source)
        assert (status == "clean") == verdict.clean, source
        assert winner == (None if verdict.winner is None else ",".join(map(str, verdict.winner)))
        totals = db.execute("SELECT side, total FROM players WHERE record = ? GROUP BY side", (record,)).fetchall()
        if verdict.totals is not None:
            assert [t for _, t in sorted(totals)] == verdict.totals
        last = db.execute(
            "SELECT side, total FROM scores WHERE record = ? "
            "AND deal = (SELECT MAX(deal) FROM scores WHERE record = ?)",
            (record, record),
        ).fetchall()
        if verdict.totals is not None and last and last[0][1] is not None:
            assert [t for _, t in sorted(last)] == verdict.totals


def test_every_trick_has_its_cards_and_one_winning_play(db: sqlite3.Connection) -> None:
    bad = db.execute(
        """SELECT t.record, t.deal, t.trick FROM tricks t JOIN plays p USING (record, deal, trick)
           GROUP BY t.record, t.deal, t.trick
           HAVING SUM(p.wins) <> 1 OR MAX(CASE WHEN p.wins THEN p.seat END) <> MAX(t.winner)"""
    ).fetchall()
    assert bad == []
    # the counters pegged in a trick add up to its points
    bad = db.execute(
        """SELECT t.record, t.deal, t.trick FROM tricks t LEFT JOIN pegs g
           ON g.record = t.record AND g.deal = t.deal AND g.trick = t.trick AND g.label = 'counter'
           GROUP BY t.record, t.deal, t.trick HAVING COALESCE(SUM(g.points), 0) <> MAX(t.points)"""
    ).fetchall()
    assert bad == []


def test_each_deals_points_are_its_pegs(db: sqlite3.Connection) -> None:
    """All Fours: a deal played out scores the counters and awards pegged in it, by side."""
    bad = db.execute(
        """SELECT s.record, s.deal, s.side FROM scores s JOIN deals d USING (record, deal) JOIN records r USING (record)
           WHERE r.game <> 'oh_hell' AND NOT d.passed_over AND s.points IS NOT NULL
           AND s.points <> (SELECT COALESCE(SUM(g.points), 0) FROM pegs g
                            WHERE g.record = s.record AND g.deal = s.deal AND g.side = s.side)"""
    ).fetchall()
    assert bad == []


def test_problems_and_unreadable_records_are_in_the_tables(tmp_path: Path) -> None:
    out = tmp_path / "bad.sqlite"
    result = runner.invoke(app, ["export", str(SAMPLES / "invalid"), "-o", str(out)])
    assert result.exit_code == 2  # some input unreadable, as verify says
    db = sqlite3.connect(out)
    path = str(SAMPLES / "invalid" / "revoke.json")
    revoke = db.execute("SELECT record FROM records WHERE source = ?", (path,)).fetchone()[0]
    codes = [c for (c,) in db.execute("SELECT code FROM diagnostics WHERE record = ? ORDER BY rowid", (revoke,))]
    assert codes == [d.code for d in phatlog.verify(SAMPLES / "invalid" / "revoke.json").diagnostics]
    shown = db.execute("SELECT COUNT(*) FROM tricks WHERE record = ? AND NOT scored", (revoke,)).fetchone()[0]
    assert shown == 12
    unreadable = db.execute("SELECT COUNT(*) FROM records WHERE status = 'unreadable' AND fingerprint IS NULL")
    assert unreadable.fetchone()[0] > 0


def test_batches_give_the_same_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = export(str(SAMPLES / "games"), str(tmp_path / "a.sqlite"))
    monkeypatch.setattr(export_module, "BATCH_ROWS", 50)
    small = export(str(SAMPLES / "games"), str(tmp_path / "b.sqlite"))
    assert whole.rows == small.rows
    a, b = sqlite3.connect(tmp_path / "a.sqlite"), sqlite3.connect(tmp_path / "b.sqlite")
    for table in TABLES:
        assert a.execute(f"SELECT * FROM {table}").fetchall() == b.execute(f"SELECT * FROM {table}").fetchall()


def test_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "keep.sqlite"
    out.write_bytes(b"old")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("interrupted")

    monkeypatch.setattr(export_module, "referee", broken)
    with pytest.raises(RuntimeError):
        export(str(SAMPLES / "games"), str(out))
    assert out.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["keep.sqlite"]  # no temporary file left behind
    result = runner.invoke(app, ["export", str(SAMPLES / "games"), "-o", str(tmp_path / "no" / "such" / "x.sqlite")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_parquet_and_duckdb_hold_the_same_tables(tmp_path: Path, db: sqlite3.Connection) -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    inputs = [str(SAMPLES / "games"), str(SAMPLES / "events")]
    phatlog.export(inputs, str(tmp_path / "out"), to="parquet")
    phatlog.export(inputs, str(tmp_path / "out.duckdb"))
    con = duckdb.connect(str(tmp_path / "out.duckdb"))
    parquet = duckdb.connect()
    for table in TABLES:
        parquet.execute(f"CREATE VIEW {table} AS SELECT * FROM '{tmp_path / 'out' / table}.parquet'")
    share = db.execute(PITCHERS_SHARE).fetchone()[0]
    for other in (con, parquet):
        assert other.execute(PITCHERS_SHARE.replace("t.scored", "t.scored")).fetchone()[0] == pytest.approx(share)
        event = db.execute("SELECT event_name FROM records WHERE source LIKE '%events%'").fetchone()[0]
        top = db.execute(TOP_SCORERS, (event, "oh_hell")).fetchall()
        assert other.execute(TOP_SCORERS, [event, "oh_hell"]).fetchall() == top
        for table in TABLES:
            n = other.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            assert n == db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0], table


def test_parquet_without_pyarrow_is_a_clear_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_pyarrow(name: str, *args: object, **kwargs: object) -> object:
        if name.split(".")[0] == "pyarrow":
            raise ImportError(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", str(SAMPLES / "games"), "--to", "parquet", "-o", str(out)])
    assert result.exit_code == 2
    assert "needs the pyarrow package: pip install 'phatlog[export]'" in result.stderr
    assert not out.exists()
