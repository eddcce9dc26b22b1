"""``phatlog select``: the records of archives that match, written as they are (docs/archives.md).

Registered in :mod:`phatlog.cli.app` with one line. Each selected record is written as the line it was read
from, byte for byte (a file holding one record is written as its JSON on one line, keys in their
order). Options of one kind are alternatives (``--player Ann --player Ben``: either); different kinds
must all hold. Streaming: a record at a time, in input order, in constant memory (``--dedupe`` keeps
one digest a record kept).

Exit codes: 0 written, every record read was a valid record; 1 written, but some records were not
valid records (not selected, unless ``--status problems`` or ``--code`` chose them); 2 nothing written
(a usage error, an input that cannot be read, an output that cannot be written).
"""

from __future__ import annotations

import datetime
import errno
import fnmatch
import hashlib
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Final, Optional

import typer

from phatlog.archive.atomic import STDIO, Files, output
from phatlog.archive.atomic import directory as make_directory
from phatlog.archive.check import Batch, check_loaded
from phatlog.archive.outputs import OutputRefused, RecordWriter, notation_of_output
from phatlog.archive.records import Entry, entries, game_of, where
from phatlog.cli.cluster import mapped
from phatlog.cli.options import FILES_HELP, ClusterOpt, JobsOpt, MaxBytesOpt
from phatlog.cli.progress import over_inputs
from phatlog.cli.say import Say
from phatlog.diagnostics import CODES, Severity
from phatlog.diagnostics.printable import printable
from phatlog.formats.base import json_or_text
from phatlog.record.canonical import dedupe_key
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

EXIT_CLEAN, EXIT_SKIPPED, EXIT_NOT_WRITTEN = 0, 1, 2


class Status(StrEnum):
    clean = "clean"
    problems = "problems"


class SplitBy(StrEnum):
    event = "event"
    game = "game"
    player = "player"


_MISSING: Final = object()


@dataclass(frozen=True, slots=True)
class Query:
    """What a record must be to be selected (picklable: it goes to the workers)."""

    games: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    rounds: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    rules: tuple[tuple[str, object], ...] = ()
    status: Status | None = None
    codes: tuple[str, ...] = ()
    dedupe: bool = False
    split_by: SplitBy | None = None

    @property
    def filters(self) -> bool:
        """Whether a field of the record is asked about."""
        fields = (self.games, self.players, self.events, self.rounds, self.tables, self.rules)
        return any(fields) or self.since is not None or self.until is not None

    @property
    def verifies(self) -> bool:
        return self.status is not None or bool(self.codes)


@dataclass(slots=True)
class Chosen:
    """A selected record: where it is, its line, the groups it goes to, its digest (``--dedupe``)."""

    source: str
    line: int | None
    raw: bytes
    groups: list[str] = field(default_factory=list)
    key: bytes | None = None


@dataclass(slots=True)
class BatchOut:
    """What a batch gives back: the records selected, in order, and what was read."""

    chosen: list[Chosen] = field(default_factory=list)
    records: int = 0
    invalid: int = 0
    unreadable: list[str] = field(default_factory=list)


def _matches(patterns: tuple[str, ...], *values: object) -> bool:
    """Whether any value matches any pattern (``*`` and ``?`` as in file names; case ignored)."""
    texts = [v.casefold() for v in values if isinstance(v, str)]
    return any(fnmatch.fnmatchcase(t, p.casefold()) for p in patterns for t in texts)


def _date(text: object) -> str | None:
    if not isinstance(text, str):
        return None
    head = text.strip()[:10]
    try:
        return datetime.date.fromisoformat(head).isoformat()
    except ValueError:
        return None


def matches(record: Any, query: Query) -> bool:
    """Whether a valid record (a :mod:`phatlog.record.decoder` struct) passes the field filters of ``query``."""
    if query.games and game_of(record) not in query.games:
        return False
    if query.players and not any(_matches(query.players, p.name, p.id) for p in record.players):
        return False
    event = record.event
    if query.events and (event is None or not _matches(query.events, event.name)):
        return False
    if query.rounds and (event is None or not _matches(query.rounds, event.round)):
        return False
    if query.tables and (event is None or not _matches(query.tables, getattr(event, "table", None))):
        return False
    if query.since is not None or query.until is not None:
        day = _date(None if event is None else event.date)
        if day is None or (query.since is not None and day < query.since):
            return False
        if query.until is not None and day > query.until:
            return False
    return all(getattr(record.rules, key, _MISSING) == value for key, value in query.rules)


#: The groups of records that have no name to group by. They start with a NUL, which no name from a record
#: can (a record's text holds no NUL that the reader lets through: JSON escapes it, and it is still a name
#: apart from these), so a real event called "no-event" is a group of its own; their files' names are
#: reserved (:data:`PLACEHOLDER_FILES`) and their ``--count`` label is in parentheses.
NO_EVENT: Final = "\x00no-event"
NOT_VALID: Final = "\x00not-valid"
PLACEHOLDER_FILES: Final = {NO_EVENT: "no-event.jsonl", NOT_VALID: "not-valid.jsonl"}
PLACEHOLDER_LABELS: Final = {NO_EVENT: "(no event)", NOT_VALID: "(not valid)"}


def groups(record: Any, split_by: SplitBy | None) -> list[str]:
    """The groups a record goes to with ``--split-by`` (a record goes to each of its players')."""
    if split_by is SplitBy.game:
        return [game_of(record)]
    if split_by is SplitBy.event:
        name = None if record.event is None else record.event.name
        return [name or NO_EVENT]
    if split_by is SplitBy.player:
        return list(dict.fromkeys(p.name for p in record.players))
    return []


def select_batch(batch: Batch, query: Query) -> BatchOut:
    """Select a batch's records (here or in a worker)."""
    out = BatchOut()
    for entry in entries(batch):
        out.records += 1
        chosen = _choose(entry, query, out)
        if chosen is not None:
            out.chosen.append(chosen)
    return out


def _choose(entry: Entry, query: Query, out: BatchOut) -> Chosen | None:
    """The record chosen, or None; a record that is not valid and is not chosen is counted as such (one
    that is chosen, by its problems, is not: "not selected" is then not said of it)."""
    chosen = _pick(entry, query, out)
    if chosen is None and entry.loaded.record is None and not (entry.loaded.unreadable or entry.raw is None):
        out.invalid += 1
    return chosen


def _pick(entry: Entry, query: Query, out: BatchOut) -> Chosen | None:
    record = entry.loaded.record
    if record is None:
        if entry.loaded.unreadable or entry.raw is None:
            out.unreadable.append(where(entry.source, entry.line))
            return None
        if query.filters:  # no field of it can be read: it matches no field filter
            return None
    elif not matches(record, query):
        return None
    if query.verifies:
        report = check_loaded(entry.loaded, True, entry.line)
        if query.status is Status.clean and not report.clean:
            return None
        if query.status is Status.problems and report.clean:
            return None
        if query.codes and not any(d.code in query.codes for d in report.diagnostics):
            return None
    elif record is None:
        return None
    if entry.raw is None:
        return None
    if record is None:  # not a valid record, chosen by its problems: it has no fields to group by
        return Chosen(entry.source, entry.line, entry.raw, [NOT_VALID] if query.split_by else [])
    key = dedupe_key(record) if query.dedupe else None
    return Chosen(entry.source, entry.line, entry.raw, groups(record, query.split_by), key)


_UNSAFE: Final = re.compile(r"[^\w.@+-]+")


#: The most bytes of a group's name kept in its file's name (with the temporary file's prefix and suffix,
#: well under the 255 bytes of a file name on every common file system).
NAME_BYTES: Final = 100


def file_name(group: str) -> str:
    """A group's file name: its name with anything but letters, digits and ``._@+-`` made ``-``; a name
    longer than :data:`NAME_BYTES` bytes in UTF-8 is cut there (at a character) and given a short hash of
    the whole name, so that two long names alike at the start stay apart."""
    placeholder = PLACEHOLDER_FILES.get(group)
    if placeholder is not None:
        return placeholder
    name = _UNSAFE.sub("-", group).strip("-.") or "group"
    encoded = name.encode("utf-8")
    if len(encoded) > NAME_BYTES:
        digest = hashlib.sha256(group.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        name = encoded[: NAME_BYTES - 11].decode("utf-8", "ignore").rstrip("-.") + "-" + digest
    return name + ".jsonl"


def group_label(group: str) -> str:
    """How ``--count`` shows a group: its name, or a placeholder's label."""
    return PLACEHOLDER_LABELS.get(group, group)


def select(
    files: Annotated[list[str], typer.Argument(metavar="FILES", help=FILES_HELP)],
    output_path: Annotated[
        Optional[str],
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="The archive to write (- standard output); a directory with --split-by.",
        ),
    ] = None,
    game: Annotated[list[str], typer.Option("--game", metavar="GAME", help="Of this game (repeatable).")] = [],  # noqa: B006
    player: Annotated[
        list[str],
        typer.Option(
            "--player", "-p", metavar="NAME", help="With a player of this name or id (* and ? match any text)."
        ),
    ] = [],  # noqa: B006
    event: Annotated[list[str], typer.Option("--event", metavar="NAME", help="Of this event (its name).")] = [],  # noqa: B006
    round_: Annotated[list[str], typer.Option("--round", metavar="ROUND", help="Of this round (event.round).")] = [],  # noqa: B006
    table: Annotated[list[str], typer.Option("--table", metavar="TABLE", help="At this table (event.table).")] = [],  # noqa: B006
    since: Annotated[
        Optional[str], typer.Option("--since", metavar="DATE", help="Played on or after this date (YYYY-MM-DD).")
    ] = None,
    until: Annotated[
        Optional[str], typer.Option("--until", metavar="DATE", help="Played on or before this date (YYYY-MM-DD).")
    ] = None,
    rule: Annotated[
        list[str],
        typer.Option("--rule", "-r", metavar="KEY=VALUE", help="Played with this rules parameter (defaults count)."),
    ] = [],  # noqa: B006
    status: Annotated[
        Optional[Status], typer.Option("--status", help="clean: verify finds no error; problems: it finds one.")
    ] = None,
    code: Annotated[
        list[str], typer.Option("--code", metavar="PLnnn", help="With this diagnostic from verify (repeatable).")
    ] = [],  # noqa: B006
    dedupe: Annotated[
        bool, typer.Option("--dedupe", help="Keep the first of records with the same fingerprint, drop the copies.")
    ] = False,
    count: Annotated[bool, typer.Option("--count", help="Print how many records are selected; write nothing.")] = False,
    split_by: Annotated[
        Optional[SplitBy],
        typer.Option("--split-by", help="One archive a group, in the directory -o: event, game or player."),
    ] = None,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    jobs: JobsOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Select the records of archives that match, and write them as they are (one a line).

    Filters of one kind are alternatives, of different kinds all apply. --status and --code verify each record.
    """
    err = Say(stderr=True)
    query = _query(err, game, player, event, round_, table, since, until, rule, status, code, dedupe, split_by)
    if split_by is not None and not count and output_path is None:
        _usage(err, "--split-by writes one archive a group into a directory: give it with -o DIR")
    if not count and split_by is None:
        try:
            kind = notation_of_output(output_path or STDIO)
        except OutputRefused as exc:
            _usage(err, str(exc))
    if split_by is not None and not count and output_path == STDIO:
        _usage(err, "--split-by writes one archive a group into a directory: give it with -o DIR")
    if not count and output_path is not None and split_by is None and any(_same(f, output_path) for f in files):
        _usage(err, f"the output {output_path} is an input: phatlog never writes over its input")
    seen: set[bytes] = set()
    tally: Counter[str] = Counter()
    records = invalid = selected = 0
    unreadable: list[str] = []
    bar = ExitStack()
    advance = bar.enter_context(over_inputs(files, "selecting"))
    with bar:  # the cluster is reached before any output; an error there closes the bar
        results = mapped(files, select_batch, query, ReadLimits(max_bytes), jobs, cluster, advance)
        bar = bar.pop_all()

    def chosen_records() -> Iterator[Chosen]:
        nonlocal records, invalid, selected
        for out in results:
            records += out.records
            invalid += out.invalid
            unreadable.extend(out.unreadable)
            for chosen in out.chosen:
                if chosen.key is not None:
                    if chosen.key in seen:
                        continue
                    seen.add(chosen.key)
                selected += 1
                yield chosen

    failed: dict[str, str] = {}
    try:
        if count:
            for chosen in chosen_records():
                tally.update(chosen.groups)
        elif split_by is not None:
            assert output_path is not None
            failed = _split(chosen_records(), output_path, unreadable, files)
        else:
            target = output_path or STDIO
            with output(target, spool=False) as sink:
                writer = RecordWriter(kind, sink.stream, target)
                for chosen in chosen_records():
                    writer.write_line(chosen.raw)
                sink.keep = not unreadable
    except OutputRefused as exc:
        err.error(f"nothing written: {exc}")
        raise typer.Exit(EXIT_NOT_WRITTEN) from None
    except OSError as exc:
        err.error(f"cannot write {output_path or 'standard output'}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_NOT_WRITTEN) from None
    finally:
        bar.close()
    if count:
        if split_by is not None:
            for name, n in sorted(tally.items()):
                sys.stdout.write(f"{n}\t{printable(group_label(name))}\n")
        else:
            sys.stdout.write(f"{selected}\n")
    for group, why in failed.items():
        err.error(f"the group {group_label(group)!r} cannot be written ({why}); the other groups are written")
    for place in unreadable[:10]:
        err(f"{place}: cannot be read as a record (phatlog verify says why)")
    if unreadable:
        err.error(f"{len(unreadable)} input(s) cannot be read" + ("" if count else ": nothing written"))
        raise typer.Exit(EXIT_NOT_WRITTEN)
    noun = "record" if invalid == 1 else "records"
    skipped = f"; {invalid} not valid {noun}, not selected (phatlog verify says why)" if invalid else ""
    err(f"selected {selected} of {records} record{'s' if records != 1 else ''}{skipped}")
    if failed:
        raise typer.Exit(EXIT_NOT_WRITTEN)
    raise typer.Exit(EXIT_SKIPPED if invalid and not query.verifies else EXIT_CLEAN)


def _split(chosen: Iterable[Chosen], directory: str, unreadable: list[str], sources: list[str]) -> dict[str, str]:
    """One archive a group in ``directory``, all written or none (none where an input cannot be read).
    A group whose file cannot be made (the file system refuses its name, say) is left out and named in
    what is returned (group: why); it does not stop the others."""
    make_directory(directory)
    inputs = {os.path.realpath(f) for f in sources}
    names: dict[str, str] = {}
    taken: set[str] = set(PLACEHOLDER_FILES.values())  # a real group never shares a placeholder's file
    failed: dict[str, str] = {}
    with Files() as out:
        for item in chosen:
            line = item.raw.decode("utf-8") + "\n"
            for group in item.groups:
                if group in failed:
                    continue
                name = names.get(group)
                if name is None:
                    name = file_name(group)
                    stem, n = name.removesuffix(".jsonl"), 2
                    while name in taken and group not in PLACEHOLDER_FILES:  # one file name: the later gets a number
                        name, n = f"{stem}-{n}.jsonl", n + 1
                    if os.path.realpath(os.path.join(directory, name)) in inputs:
                        raise OSError(
                            f"{os.path.join(directory, name)} is an input: phatlog never writes over its input"
                        )
                    names[group] = name
                    taken.add(name)
                try:
                    out.write(os.path.join(directory, name), line)
                except OSError as exc:
                    if exc.errno in _DISK_FULL:
                        raise
                    failed[group] = exc.strerror or str(exc)
                    out.discard(os.path.join(directory, name))
        if not unreadable:
            out.commit()
    return failed


#: Errors that no other group's file escapes either: they stop the whole split.
_DISK_FULL: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})


def _same(a: str, b: str) -> bool:
    """Whether two paths name one existing file."""
    try:
        return a != STDIO and b != STDIO and os.path.samefile(a, b)
    except OSError:
        return False


def _usage(err: Say, message: str) -> None:
    err.error(message)
    raise typer.Exit(EXIT_NOT_WRITTEN)


def _query(
    err: Say,
    game: list[str],
    player: list[str],
    event: list[str],
    round_: list[str],
    table: list[str],
    since: str | None,
    until: str | None,
    rule: list[str],
    status: Status | None,
    code: list[str],
    dedupe: bool,
    split_by: SplitBy | None,
) -> Query:
    rules = []
    for item in rule:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            _usage(err, f"--rule takes KEY=VALUE (such as target=121), not {item!r}")
        rules.append((key.strip(), json_or_text(value.strip())))
    for name, day in (("--since", since), ("--until", until)):
        if day is not None and _date(day) is None:
            _usage(err, f"{name} takes a date, YYYY-MM-DD, not {day!r}")
    for c in code:
        if c.upper() not in CODES:
            _usage(err, f"--code {c}: not a diagnostic code (docs/diagnostics.md lists them)")
    codes = tuple(c.upper() for c in code)
    if any(CODES[c].severity is Severity.WARNING and c in ("PL801", "PL802") for c in codes):
        _usage(err, "--code PL801/PL802: duplicates are found across records; use --dedupe")
    return Query(
        games=tuple(game),
        players=tuple(player),
        events=tuple(event),
        rounds=tuple(round_),
        tables=tuple(table),
        since=_date(since),
        until=_date(until),
        rules=tuple(rules),
        status=status,
        codes=codes,
        dedupe=dedupe,
        split_by=split_by,
    )
