"""The command line: the only place that prints or chooses an exit code.

Exit codes: 0 every record clean; 1 a problem found in some record; 2 a usage error or unreadable input.

**Commands are loaded by name, on use.** ``phatlog`` is a typer app whose group (:class:`_LazyGroup`)
knows each command by its name and where its function is, and imports a command's module and turns its
function into a click command only when that command runs (or when ``--help`` lists them all). So
``phatlog verify`` loads neither ``replay`` nor ``convert`` (nor pydantic, nor rich off a terminal), and
``phatlog --version`` loads no command at all. To add a command, write it as a plain typer function in its
own module ``phatlog/cli_<name>.py`` and register it here with ONE line, beside the others::

    command("standings", "phatlog.cli.standings:standings")

Its help (the function's docstring), options and arguments are typer's, as for any command. A function
registered the old way, ``app.command(cls=_Command)(fn)``, still works (it is loaded at start-up).
Keep the imports at the top of this module light: whatever they load, every command pays for.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from enum import StrEnum
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Optional, TypeVar

import typer
import typer.core

from phatlog import __version__
from phatlog.cli.options import FILES_HELP, ClusterOpt, JobsOpt, MaxBytesOpt
from phatlog.cli.run import EXIT_UNREADABLE, Duplicates, OutputFormat, _run
from phatlog.cli.say import Say
from phatlog.record.read_limits import DEFAULT_MAX_BYTES, ReadLimits

X = TypeVar("X")

if TYPE_CHECKING:
    from phatlog.archive.check import BatchResult


class _Command(typer.core.TyperCommand):
    """A command whose help names values in the user's words, not Python's (``<bool>``, ``<list[str]>``).

    A flag (and ``--help``) shows no type; an argument shows its name in capitals (``FILES``); an option
    keeps the metavar it was given, or gets ``N`` for a number, ``PATH`` for a file name and ``a|b`` for a
    choice. Typer's range note (``[x>=1]``) stays.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """The arguments, a bad value refused in phatlog's words (:func:`_in_words`), not the validator's."""
        try:
            return list(super().parse_args(ctx, args))
        except typer.BadParameter as exc:
            exc.message = _in_words(exc.message)
            raise

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, typer.core.TyperOption) and param.metavar is None:
                param.metavar = _metavar(param, ctx)
            elif isinstance(param, typer.core.TyperArgument) and not isinstance(param, _Argument):
                param.__class__ = _Argument
                param.metavar = param.metavar or (param.name or "value").upper()
        return params


_REWORDED: Final = (
    (
        re.compile(r"^Value error, (.+?) is not one of (.+?)\.?$"),
        lambda m: f"{m[1]} is not one of {m[2].replace(chr(39), '')}",
    ),
    (re.compile(r"^Input should be a valid integer.*$"), lambda m: "must be a whole number"),
    (re.compile(r"^Input should be greater than or equal to (\S+)$"), lambda m: f"must be {m[1]} or more"),
    (re.compile(r"^Input should be less than or equal to (\S+)$"), lambda m: f"must be {m[1]} or less"),
    (re.compile(r"^Value error, (.*)$"), lambda m: m[1]),
)


def _in_words(message: str) -> str:
    """A value's refusal as the validator words it (``Value error, 'xml' is not one of 'json', ...``,
    ``Input should be a valid integer, ...``), in phatlog's words (``'xml' is not one of json, ...``)."""
    for pattern, words in _REWORDED:
        found = pattern.match(message)
        if found is not None:
            return words(found)
    return message


def _metavar(option: typer.core.TyperOption, ctx: Any) -> str:
    if option.is_flag:
        return ""
    describe = getattr(option, "display_type", None)  # newer typer; click's type name in older ones
    shown = str(describe(ctx) if describe is not None else getattr(getattr(option, "type", None), "name", ""))
    shown = shown.strip("<>")
    if shown in ("int", "int range", "integer", "integer range"):
        return "N"
    if shown in ("str", "path", "text"):
        return "PATH"
    return shown


class _Argument(typer.core.TyperArgument):
    """An argument shown by its name only (``FILES``), without a Python type."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        """The usage line's name: ``FILES...`` when required (not typer's ``{FILES}...``), ``[FILE]`` when not."""
        name = self.metavar or (self.name or "value").upper()
        return (name if self.required else f"[{name}]") + ("..." if self.nargs != 1 else "")


#: Every command loaded on use: its name, and ``module:function`` (see the top of this module).
COMMANDS: dict[str, str] = {}


def command(name: str, target: str) -> None:
    """Register the command ``name``: the typer function ``target`` (``"module:function"``), loaded on use."""
    COMMANDS[name] = target


class _LazyCommands(MutableMapping[str, Any]):
    """The group's commands: those built at start-up, and those of :data:`COMMANDS`, each built (its module
    imported, its function turned into a click command by typer) the first time it is looked up."""

    def __init__(self, built: MutableMapping[str, Any]) -> None:
        self.built = built

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            target = COMMANDS[name]  # KeyError: no such command
            module, _, function = target.partition(":")
            info = typer.models.CommandInfo(name=name, cls=_Command, callback=getattr(import_module(module), function))
            self.built[name] = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
            )
        return self.built[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self.built[name] = value

    def __delitem__(self, name: str) -> None:
        COMMANDS.pop(name, None)
        del self.built[name]

    def __iter__(self) -> Iterator[str]:
        yield from self.built
        yield from (name for name in COMMANDS if name not in self.built)

    def __len__(self) -> int:
        return len(self.built.keys() | COMMANDS.keys())

    def __contains__(self, name: object) -> bool:
        return name in self.built or name in COMMANDS


class _LazyGroup(typer.core.TyperGroup):
    """phatlog's group: its commands load on use (:class:`_LazyCommands`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LazyCommands(self.commands)  # click looks commands up there, by name

    def get_params(self, ctx: Any) -> list[Any]:
        """The group's options (``--version``, ``--install-completion``) shown as flags, with no type."""
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, typer.core.TyperOption) and param.metavar is None:
                param.metavar = _metavar(param, ctx)
        return params


app = typer.Typer(
    name="phatlog",
    help="The referee for records of Phat, the Don family and Oh Hell: verify, replay, analyse, rescore, "
    "convert, select and sum up games, and simulate new ones.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    cls=_LazyGroup,
)


def _version(value: bool) -> None:  # a flag: --version takes no value
    if value:
        Say()(f"phatlog {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """phatlog: the record format and referee for Phat, the Don family and Oh Hell."""


FilesArg = Annotated[
    list[str],
    typer.Argument(
        metavar="FILES",
        help=FILES_HELP,
    ),
]
FormatOpt = Annotated[
    OutputFormat,
    typer.Option(
        "--format", "-f", help="text for people; json: JSON Lines for programs, one diagnostic a line (notes too)."
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the problems, no summary.")]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Print notes (info: what the record does not let phatlog check) too, not just count them.",
    ),
]


def validate(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
    verbose: VerboseOpt = False,
    cluster: ClusterOpt = None,
) -> None:
    """Check records against the schema only: structure, types, cards, counts."""
    raise typer.Exit(_run(files, False, format, ReadLimits(max_bytes), quiet, jobs, verbose, cluster))


def verify(
    files: FilesArg,
    format: FormatOpt = OutputFormat.text,
    max_bytes: MaxBytesOpt = DEFAULT_MAX_BYTES,
    quiet: QuietOpt = False,
    jobs: JobsOpt = 1,
    verbose: VerboseOpt = False,
    duplicates: Annotated[
        Optional[Duplicates],
        typer.Option(
            "--duplicates",
            show_default=False,
            help="deals (the default): warn of a record seen before in the run (PL801) and of a deal dealt "
            "before (PL802); records: of records only; off: neither (no memory kept).",
        ),
    ] = None,
    master: Annotated[
        Optional[str],
        typer.Option(
            "--master",
            metavar="PATH",
            help="FILES are seat views (convert --view): check each against this master record instead.",
        ),
    ] = None,
    cluster: ClusterOpt = None,
) -> None:
    """Check the structure, then replay every deal: legal plays, scores, totals and the result."""
    limits = ReadLimits(max_bytes)
    if master is not None:
        # the views are compared with the master here, not refereed: an option of refereeing given with
        # --master would be ignored, so it is refused
        for given, name in ((cluster, "--cluster"), (duplicates, "--duplicates")):
            if given is not None:
                _usage(f"--master compares seat views with the master on this machine; {name} does not apply")
        views = _views(master, files, limits, jobs)
        raise typer.Exit(_run(files, True, format, limits, quiet, jobs, verbose, results=views))
    raise typer.Exit(_run(files, True, format, limits, quiet, jobs, verbose, cluster, duplicates or Duplicates.deals))


def _views(master: str, files: list[str], limits: ReadLimits, jobs: int) -> Iterator[BatchResult]:
    """The seat views checked against the master (``verify --master``, in ``jobs`` processes); exit 2 if
    the master is not a record."""
    import msgspec

    from phatlog.archive.master import view_results
    from phatlog.record.reader import read_path

    loaded = read_path(master, limits.max_bytes)
    if loaded.record is None:
        problem = next((d for d in loaded.diagnostics), None)
        _usage(f"--master {master}: not a valid record" + (f" ({problem.code}: {problem.message})" if problem else ""))
    return view_results(msgspec.json.encode(loaded.record), files, limits, jobs)


def schema() -> None:
    """Print the JSON Schema of the record format."""
    from phatlog.record.schema import published_schema_text

    sys.stdout.write(published_schema_text())


class Game(StrEnum):
    phat = "phat"
    nine_card_don = "nine_card_don"
    irish_don = "irish_don"
    oh_hell = "oh_hell"


def simulate(
    game: Annotated[Game, typer.Option(help="The game to play.")] = Game.phat,
    seed: Annotated[int, typer.Option(metavar="N", help="The random seed: the same seed gives the same games.")] = 1,
    count: Annotated[int, typer.Option(min=1, metavar="N", help="How many games.")] = 1,
    rule: Annotated[
        list[str],
        typer.Option(
            "--rule", "-r", metavar="KEY=VALUE", help="A rules parameter of the game, e.g. target=121 (repeatable)."
        ),
    ] = [],  # noqa: B006
    cut: Annotated[
        bool, typer.Option("--cut", help="Record a cut for the first pitcher (Phat, Nine-card Don).")
    ] = False,
    players: Annotated[
        int, typer.Option(min=3, max=7, metavar="N", help="Players, 3 to 7 (Oh Hell only; the others have four).")
    ] = 4,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output",
            "-o",
            metavar="PATH",
            help="Write here instead of standard output (.json for one game, .jsonl for many).",
        ),
    ] = None,
) -> None:
    """Play seeded random legal games and write them as records (one JSON object a line)."""
    from pydantic import ValidationError

    from phatlog.archive.atomic import STDIO
    from phatlog.formats.base import json_or_text
    from phatlog.play.simulate import rules_warnings
    from phatlog.play.simulate import simulate as run
    from phatlog.record.rules_errors import rule_errors

    if cut and game in (Game.irish_don, Game.oh_hell):
        _usage(f"--cut: {game.value} has no cut (Phat and Nine-card Don do)")
    if players != 4 and game is not Game.oh_hell:
        _usage(f"--players: {game.value} is for four players")
    rules: dict[str, object] = {}
    for item in rule:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            _usage(f"--rule takes KEY=VALUE (such as target=121), not {item!r}")
        rules[key.strip()] = json_or_text(value.strip())
    if output is not None and output.suffix == ".json" and count > 1:
        _usage(f"{output} is one JSON record; write {count} games to a .jsonl file (one game a line)")
    try:
        games = run(game.value, seed, count, rules=rules, with_cut=cut, players=players)
    except ValidationError as exc:
        _usage("; ".join(rule_errors(game.value, rules, exc)))
    except ValueError as exc:
        _usage(str(exc))
    for message in rules_warnings(game.value, rules, players):
        Say(stderr=True)(("warning:", "yellow"), " ", message)
    from phatlog.archive.outputs import OutputRefused, notation_of_output
    from phatlog.cli.progress import over_items

    target = STDIO if output is None else str(output)
    try:
        kind = notation_of_output(target)
    except OutputRefused as exc:
        _usage(str(exc))
    one = kind == "json" and count == 1
    with over_items(count, "simulating") as advance:
        if kind in ("json", "jsonl"):
            lines = (
                json.dumps(g, indent=1) + "\n" if one else json.dumps(g, separators=(",", ":")) + "\n" for g in games
            )
            write_whole(target, _told(lines, advance))
        else:
            write_records(target, kind, _told(games, advance))


def _told(items: Iterable[X], advance: Callable[[int], None]) -> Iterator[X]:
    """The items, each told to a progress bar once made."""
    for item in items:
        yield item
        advance(1)


def write_records(path: str, kind: str, records: Iterable[dict[str, Any]]) -> None:
    """Records written to ``path`` in the notation ``kind`` (``phatlog.archive.outputs``), whole or not at
    all; a record the notation cannot carry whole writes nothing (exit 2)."""
    from phatlog.archive.atomic import STDIO, output
    from phatlog.archive.outputs import OutputRefused, RecordWriter

    try:
        with output(path, spool=False) as out:
            writer = RecordWriter(kind, out.stream, path)
            for record in records:
                writer.write(record)
            out.keep = True
    except OutputRefused as exc:
        _unreadable(f"nothing written: {exc}")
    except OSError as exc:
        _unreadable(f"cannot write {'standard output' if path == STDIO else path}: {exc.strerror or exc}")


# The commands, in the order --help lists them: one line each (see the top of this module).
command("validate", "phatlog.cli.app:validate")
command("verify", "phatlog.cli.app:verify")
command("schema", "phatlog.cli.app:schema")
command("simulate", "phatlog.cli.app:simulate")
command("replay", "phatlog.cli.replay:replay")
command("convert", "phatlog.cli.convert:convert")
command("fingerprint", "phatlog.cli.fingerprint:fingerprint")
command("select", "phatlog.cli.select:select")
command("standings", "phatlog.cli.standings:standings")
command("stats", "phatlog.cli.stats:stats")
command("analyse", "phatlog.cli.analyse:analyse")
command("rescore", "phatlog.cli.rescore:rescore")
command("export", "phatlog.cli.export:export")


def write_whole(path: str, text: str | Iterable[str]) -> None:
    """Write ``path`` (``-``: standard output) as :mod:`phatlog.archive.atomic` decides, a piece at a time: a
    regular file whole or not at all, a stream (standard output, a device, a FIFO) as the text comes."""
    from phatlog.archive.atomic import STDIO, output

    try:
        with output(path, spool=False) as out:
            for piece in [text] if isinstance(text, str) else text:
                out.stream.write(piece)
            out.keep = True
    except OSError as exc:
        _unreadable(f"cannot write {'standard output' if path == STDIO else path}: {exc.strerror or exc}")


def _usage(message: str) -> None:
    Say(stderr=True).error(message)
    raise typer.Exit(EXIT_UNREADABLE)


_unreadable = _usage


def main() -> None:
    """Entry point of the ``phatlog`` command."""
    app()
