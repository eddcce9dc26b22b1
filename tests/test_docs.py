"""The documentation in ``docs/`` held to the code.

Every diagnostic code has a section in ``docs/diagnostics.md`` and every example there still emits its
code, and prints what the page shows. Every field of the record models is in ``docs/format.md``, every
Phat rules parameter and value is in ``docs/rules/phat.md``, every command and option is in
``docs/cli.md``, the complete records shown in the docs verify without errors, and the links between
the pages resolve. When a test here fails after a change to phatlog, update the page, not the test.
"""

from __future__ import annotations

import glob
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, get_args, get_origin

import pytest
import typer.core
import typer.main
from pydantic import BaseModel
from typer.testing import CliRunner

import phatlog.record.model as model
from phatlog.cli.app import app
from phatlog.diagnostics import CODES
from phatlog.record.reader import UNREADABLE_CODES

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"
DIAGNOSTICS: Final = DOCS / "diagnostics.md"
FORMAT: Final = DOCS / "format.md"
PHAT_RULES: Final = DOCS / "rules" / "phat.md"
CLI: Final = DOCS / "cli.md"
INDEX: Final = DOCS / "README.md"
PAGES: Final = (INDEX, FORMAT, PHAT_RULES, CLI, DIAGNOSTICS)

#: A section for a code without an example must say why, in these words.
NOT_EMITTED: Final = "Not emitted by this version"

runner = CliRunner()


# ------------------------------------------------------------------------------------------ parsing


@dataclass(frozen=True)
class Fence:
    """A fenced code block: its info string split in two (```json PL303), its body and its place."""

    lang: str
    tag: str
    body: str
    page: str
    line: int


_FENCE: Final = re.compile(r"^```([^\s`]*)[ \t]*(\S*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def fences(path: Path) -> list[Fence]:
    text = path.read_text(encoding="utf-8")
    return [Fence(m[1], m[2], m[3], path.name, text.count("\n", 0, m.start()) + 1) for m in _FENCE.finditer(text)]


def prose(path: Path) -> str:
    """The page without its code blocks."""
    return _FENCE.sub("", path.read_text(encoding="utf-8"))


def sections(path: Path) -> dict[str, str]:
    """``### PLxxx name`` headings of a page and the text under each, up to the next heading."""
    text = path.read_text(encoding="utf-8")
    found = re.finditer(r"^#{2,4} (PL\d{3}) (\S+)[ \t]*$", text, re.M)
    out: dict[str, str] = {}
    for m in found:
        end = next((n.start() for n in re.finditer(r"^#{1,4} ", text[m.end() :], re.M)), len(text) - m.end())
        assert m[1] not in out, f"{path.name}: two sections for {m[1]}"
        out[m[1]] = f"{m[2]}\n{text[m.end() : m.end() + end]}"
    return out


def table_keys(path: Path) -> list[set[str]]:
    """For each Markdown table of a page, the `keys` that start its rows."""
    tables: list[set[str]] = []
    current: set[str] | None = None
    for line in prose(path).splitlines():
        if line.startswith("|"):
            if current is None:
                current = set()
                tables.append(current)
            m = re.match(r"\|\s*`([A-Za-z_]+)`", line)
            if m:
                current.add(m[1])
        else:
            current = None
    return tables


def examples(lang: str) -> list[Fence]:
    return [f for f in fences(DIAGNOSTICS) if f.lang == lang and re.fullmatch(r"PL\d{3}", f.tag)]


def _id(fence: Fence) -> str:
    return f"{fence.tag}@{fence.page}:{fence.line}"


# ------------------------------------------------------------------------------------------ running


def verify_json(tmp_path: Path, text: str, name: str = "example.json") -> tuple[int, list[dict[str, Any]]]:
    """``phatlog verify --format json`` on a file holding ``text``: the exit code and the rows."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["verify", "--format", "json", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    rows = [
        r for line in result.stdout.splitlines() if line.strip() and (r := json.loads(line))["kind"] == "diagnostic"
    ]
    return result.exit_code, rows


def shown_run(fence: Fence) -> tuple[str, list[str], list[str]] | None:
    """The ```console block that follows an example: the file name it runs, the options and the lines shown.

    ``--verbose`` is the one option allowed: it shows notes (info), which the page shows where there are any.
    """
    blocks = fences(DIAGNOSTICS)
    i = blocks.index(fence)
    if i + 1 >= len(blocks) or blocks[i + 1].lang != "console":
        return None
    first, *shown = blocks[i + 1].body.splitlines()
    m = re.fullmatch(r"\$ phatlog verify (--verbose )?(\S+\.json)", first)
    assert m, f"{_id(fence)}: the console block after it should start with '$ phatlog verify [--verbose] NAME.json'"
    return m[2], ["--verbose"] if m[1] else [], shown


# ------------------------------------------------------------------------------------------ diagnostics.md


def test_every_code_has_a_section_with_its_name_and_severity() -> None:
    found = sections(DIAGNOSTICS)
    for code, entry in CODES.items():
        assert code in found, f"docs/diagnostics.md has no section '### {code} {entry.name}'"
        name, _, body = found[code].partition("\n")
        assert name == entry.name, f"{code} is called {entry.name!r}, not {name!r}, in the registry"
        assert f"Severity **{entry.severity.value}**" in body, f"{code}: say 'Severity **{entry.severity.value}**'"
    assert set(found) <= set(CODES), f"sections for codes that are not registered: {set(found) - set(CODES)}"


def test_the_table_of_all_codes_matches_the_registry() -> None:
    rows = re.findall(r"^\| \[(PL\d{3})\]\(#([^)]*)\) \| (\S+) \| (\w+) \| (.*?) \|$", prose(DIAGNOSTICS), re.M)
    listed = {code: (name, severity, summary) for code, _, name, severity, summary in rows}
    expected = {c.code: (c.name, c.severity.value, c.summary) for c in CODES.values()}
    assert listed == expected
    assert [r[0] for r in rows] == sorted(expected), "list the codes in order"
    for code, anchor, name, *_ in rows:
        assert anchor == slug(f"{code} {name}")


def test_every_code_has_an_example_or_says_why_it_has_none() -> None:
    with_example = {f.tag for f in examples("json")} | {f.tag for f in examples("text")}
    for code, body in sections(DIAGNOSTICS).items():
        if code not in with_example:
            assert NOT_EMITTED in body, f"{code} has no example; give one, or say '{NOT_EMITTED}' and why"
        else:
            assert NOT_EMITTED not in body, f"{code} has an example but says '{NOT_EMITTED}'"


def test_examples_are_tagged_with_known_codes() -> None:
    for fence in examples("json") + examples("text"):
        assert fence.tag in CODES, f"{_id(fence)}: {fence.tag} is not a registered code"


@pytest.mark.parametrize("fence", examples("json"), ids=_id)
def test_json_example_emits_its_code(fence: Fence, tmp_path: Path) -> None:
    json.loads(fence.body)  # an example is one JSON document
    code, rows = verify_json(tmp_path, fence.body)
    emitted = [r["code"] for r in rows]
    assert fence.tag in emitted, f"{_id(fence)} should emit {fence.tag}; phatlog verify gives {emitted}"
    severity = CODES[fence.tag].severity.value
    assert code == (1 if any(r["severity"] == "error" for r in rows) else 0), (severity, code)


@pytest.mark.parametrize("fence", examples("json"), ids=_id)
def test_json_example_prints_what_the_page_shows(fence: Fence, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = shown_run(fence)
    assert run is not None, f"{_id(fence)}: follow it with a ```console block of what phatlog verify prints"
    name, options, shown = run
    (tmp_path / name).write_text(fence.body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["verify", *options, name])
    assert result.output.splitlines() == shown, f"{_id(fence)}: the output shown is out of date"


def test_example_file_names_are_distinct() -> None:
    names = [run[0] for run in map(shown_run, examples("json")) if run is not None]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("fence", examples("text"), ids=_id)
def test_text_example_is_an_input_level_code(fence: Fence) -> None:
    assert fence.tag in UNREADABLE_CODES, (
        f"{_id(fence)}: only input that cannot be a JSON record ({sorted(UNREADABLE_CODES)}) is described in "
        "text; give a ```json example instead"
    )
    assert f" {fence.tag} {CODES[fence.tag].name}: " in fence.body, f"{_id(fence)}: show the diagnostic line"


def test_input_level_codes_are_described_in_text() -> None:
    assert {f.tag for f in examples("text")} == set(UNREADABLE_CODES)


# ------------------------------------------------------------------------------------------ rules/phat.md


def _choices(annotation: Any) -> list[str]:
    """The string values a ``Literal`` annotation (or a union holding one) allows."""
    if get_origin(annotation) is Literal:
        return [a for a in get_args(annotation) if isinstance(a, str)]
    return [v for arg in get_args(annotation) for v in _choices(arg)]


def test_every_phat_rules_parameter_its_values_and_default_are_documented() -> None:
    text = PHAT_RULES.read_text(encoding="utf-8")
    rows: dict[str, str] = {}
    for m in re.finditer(r"^\| `(\w+)` \|.*$", prose(PHAT_RULES), re.M):
        rows.setdefault(m[1], m[0])  # the first row: the table of parameters
    for name, field in model.PhatRules.model_fields.items():
        assert name in rows, f"docs/rules/phat.md: no row for the rules parameter `{name}`"
        row = rows[name]
        assert f"`{field.default}`" in row, f"`{name}`: give its default `{field.default}` in its row"
        for value in _choices(field.annotation):
            assert f"`{value}`" in row, f"`{name}`: list the value `{value}` in its row"
            assert f"`{value}`" in text
    assert set(rows) >= set(model.PhatRules.model_fields)


# ------------------------------------------------------------------------------------------ format.md


def _models() -> list[type[BaseModel]]:
    return [
        cls
        for name, cls in vars(model).items()
        if inspect.isclass(cls) and issubclass(cls, BaseModel) and cls.__module__ == model.__name__
        if not name.startswith("_")
    ]


def test_there_are_models() -> None:
    names = {m.__name__ for m in _models()}
    assert {"PhatRecord", "PhatRules", "PhatDeal", "Trick4", "Result", "OhHellRules"} <= names


@pytest.mark.parametrize("cls", _models(), ids=lambda c: c.__name__)
def test_every_field_of_the_model_is_in_a_table_of_format_md(cls: type[BaseModel]) -> None:
    fields = set(cls.model_fields)
    tables = table_keys(FORMAT)
    best = max(tables, key=lambda keys: len(keys & fields))
    missing = sorted(fields - best)
    assert not missing, f"docs/format.md: no table lists every field of {cls.__name__}; missing {missing}"


def test_every_game_and_rules_value_is_in_format_md() -> None:
    text = FORMAT.read_text(encoding="utf-8")
    for game in model.GAMES:
        assert f'"{game}"' in text
    for cls in (model.PhatRules, model.NineCardDonRules, model.IrishDonRules, model.OhHellRules):
        for name, field in cls.model_fields.items():
            for value in _choices(field.annotation):
                assert f'`"{value}"`' in text, f"docs/format.md: {cls.__name__}.{name} value {value!r}"


def test_format_md_names_the_version_and_the_schema_command() -> None:
    text = FORMAT.read_text(encoding="utf-8")
    assert f'"{model.FORMAT_VERSION}"' in text
    assert f"schemas/phatlog-{model.FORMAT_VERSION}.schema.json" in text
    assert "phatlog schema" in text


def _complete_records() -> list[Fence]:
    out = []
    for page in (FORMAT, PHAT_RULES):
        for fence in fences(page):
            if fence.lang == "json" and not fence.tag and fence.body.lstrip().startswith('{\n  "phatlog"'):
                out.append(fence)
    return out


def test_the_docs_show_complete_records() -> None:
    assert len(_complete_records()) >= 3


@pytest.mark.parametrize("fence", _complete_records(), ids=_id)
def test_complete_records_in_the_docs_verify_without_errors(fence: Fence, tmp_path: Path) -> None:
    code, rows = verify_json(tmp_path, fence.body)
    assert [r for r in rows if r["severity"] != "info"] == []
    assert code == 0


# ------------------------------------------------------------------------------------------ cli.md


def _commands() -> dict[str, Any]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return dict(group.commands)


def test_every_command_and_option_is_in_cli_md() -> None:
    text = CLI.read_text(encoding="utf-8")
    commands = _commands()
    assert {"validate", "verify", "schema", "simulate"} <= set(commands)

    def documented(opt: str) -> bool:  # in an inline code span: `--jobs`, `-j N`, `phatlog --version`
        return re.search(rf"`[^`\n]*(?<![\w-]){re.escape(opt)}(?![\w-])[^`\n]*`", text) is not None

    for name, command in commands.items():
        assert f"## phatlog {name}" in text, f"docs/cli.md: no section '## phatlog {name}'"
        for param in command.params:
            if isinstance(param, typer.core.TyperOption):
                for opt in param.opts:
                    assert documented(opt), f"docs/cli.md: `phatlog {name}` option {opt} is not documented"
    for param in typer.main.get_command(app).params:
        for opt in param.opts:
            assert documented(opt), f"docs/cli.md: the option {opt} of `phatlog` is not documented"


def test_cli_md_gives_the_exit_codes() -> None:
    text = prose(CLI)
    for code in ("0", "1", "2"):
        assert re.search(rf"^\| `?{code}`? \|", text, re.M), f"docs/cli.md: a table row for exit code {code}"


# ------------------------------------------------------------------------------------------ links


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it."""
    text = unicodedata.normalize("NFC", heading).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m[1]) for m in re.finditer(r"^#{1,6} (.+?)\s*$", prose(path), re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_between_the_docs_resolve(page: Path) -> None:
    for target, anchor in re.findall(r"\]\((?!https?:)([^)#\s]*)(?:#([^)\s]*))?\)", prose(page)):
        linked = (page.parent / target).resolve() if target else page
        assert linked.exists(), f"{page.name}: link to {target} that does not exist"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: no heading for #{anchor} in {linked.name}"


def test_the_index_links_every_page() -> None:
    text = INDEX.read_text(encoding="utf-8")
    for page in PAGES[1:]:
        assert f"]({page.relative_to(DOCS).as_posix()})" in text, f"docs/README.md should link {page.name}"


# ------------------------------------------------------------------------------------------ console examples

REPO: Final = DOCS.parent
#: The pages whose ```console examples are run as written, from the repository root.
CONSOLE_PAGES: Final = (REPO / "README.md", CLI, DOCS / "events.md", DOCS / "archives.md")
_CONSOLE: Final = re.compile(r"^(`{3,})console[ \t]*\n(.*?)^\1[ \t]*$", re.M | re.S)


@dataclass
class Step:
    """One ``$ command`` of a console example, the lines shown after it, and its exit code where shown."""

    command: str
    shown: list[str]
    exit_code: int | None = None


@dataclass(frozen=True)
class Console:
    """A ```console block: its place and its steps. Its output is checked when any step shows some."""

    page: str
    line: int
    steps: tuple[Step, ...]

    @property
    def shows_output(self) -> bool:
        return any(step.shown for step in self.steps)


def console_blocks(path: Path) -> list[Console]:
    text = path.read_text(encoding="utf-8")
    blocks = []
    for m in _CONSOLE.finditer(text):
        steps: list[Step] = []
        for line in m[2].splitlines():
            if line.startswith("$ "):
                if line == "$ echo $?":
                    assert steps, f"{path.name}: 'echo $?' with no command before it"
                    steps.append(Step("echo $?", []))
                else:
                    steps.append(Step(line[2:], []))
            else:
                assert steps, f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}: output before any '$ ' command"
                steps[-1].shown.append(line)
        merged: list[Step] = []
        for step in steps:
            if step.command == "echo $?":
                assert len(step.shown) == 1 and step.shown[0].isdigit(), f"{path.name}: 'echo $?' shows one code"
                merged[-1].exit_code = int(step.shown[0])
            else:
                merged.append(step)
        blocks.append(Console(path.name, text.count("\n", 0, m.start()) + 1, tuple(merged)))
    return blocks


def _console_id(block: Console) -> str:
    return f"{block.page}:{block.line}"


ALL_CONSOLE: Final = [b for page in CONSOLE_PAGES for b in console_blocks(page)]
BIN: Final = Path(sys.executable).parent


def test_the_pages_have_console_examples() -> None:
    assert len([b for b in ALL_CONSOLE if b.page == "README.md"]) >= 2
    assert len([b for b in ALL_CONSOLE if b.page == "cli.md"]) >= 10
    assert all(any("phatlog " in s.command or "conformance.py" in s.command for s in b.steps) for b in ALL_CONSOLE)


#: A step run by bash; any other ``phatlog ARGS`` step runs in this process (much faster than a new one).
_SHELL: Final = re.compile(r"[|<>()$;&]|^(?!phatlog )")


def _in_process(command: str, cwd: Path) -> tuple[str, int]:
    """``phatlog ARGS`` through CliRunner: standard output, then standard error (the order phatlog writes
    them in: diagnostics, then the summary), and the exit code."""
    args = [
        arg
        for word in shlex.split(command, comments=True)[1:]
        for arg in (sorted(glob.glob(word, root_dir=cwd)) or [word] if "*" in word else [word])
    ]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (command, result.exception)
    return result.stdout + result.stderr, result.exit_code


def _in_bash(command: str, cwd: Path) -> tuple[str, int]:
    """A step with a pipe, a redirection or another program, by bash: standard output and error together."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", PYTHONUNBUFFERED="1", NO_COLOR="1", TERM="dumb")
    run = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120
    )
    return run.stdout.decode("utf-8"), run.returncode


@pytest.mark.parametrize("block", ALL_CONSOLE, ids=_console_id)
def test_console_example_runs_as_written(block: Console, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``$ phatlog ...`` example in README.md and docs/cli.md, run from a copy of the repository root
    (the samples, read only). Each step exits as its ``echo $?`` shows (else 2 for an ``error:`` shown, and
    otherwise 0 or 1); where a block shows output, each step prints exactly the lines shown (standard
    output and standard error together)."""
    if any(_SHELL.search(step.command) for step in block.steps) and not (BIN / "phatlog").exists():
        pytest.skip(f"no phatlog command beside {sys.executable}")
    (tmp_path / "samples").symlink_to(REPO / "samples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for step in block.steps:
        printed, code = (_in_bash if _SHELL.search(step.command) else _in_process)(step.command, tmp_path)
        where = f"{_console_id(block)}: $ {step.command}"
        if step.exit_code is not None:
            assert code == step.exit_code, f"{where}: exit code {code}, the page shows {step.exit_code}"
        elif step.shown[:1] and step.shown[0].startswith("error: "):  # a usage error, shown
            assert code == 2, f"{where}: exit code {code}, not 2 for the error shown"
        else:
            assert code in (0, 1), f"{where}: exit code {code}\n{printed}"
        if block.shows_output:
            assert [x.rstrip() for x in printed.splitlines()] == [x.rstrip() for x in step.shown], where


# ------------------------------------------------------------------------------------------ key order


def _key_order_section() -> str:
    text = prose(FORMAT)
    start = text.index("## Key order")
    return " ".join(text[start : text.index("\n## ", start + 1)].split())


def _listed(keys: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)


def _subsequence(keys: list[str], order: list[str]) -> bool:
    it = iter(order)
    return all(k in it for k in keys)


def test_format_md_gives_the_key_order_phatlog_writes() -> None:
    """The order listed is ``model.KEY_ORDER``, and convert and simulate both write it."""
    from phatlog.formats import canonical
    from phatlog.play.simulate import simulate

    section = _key_order_section()
    for kind in ("record", "deal", "trick", "score", "result"):
        assert _listed(list(model.KEY_ORDER[kind])) in section, f"docs/format.md#key-order: {kind}"

    def follows(record: dict[str, object]) -> None:
        assert _subsequence(list(record), list(model.KEY_ORDER["record"]))
        for deal in record["deals"]:  # type: ignore[attr-defined]
            assert _subsequence(list(deal), list(model.KEY_ORDER["deal"])), list(deal)
            for trick in deal.get("tricks", ()):
                assert _subsequence(list(trick), list(model.KEY_ORDER["trick"])), list(trick)

    for path in (REPO / "samples" / "games").glob("*.json"):
        follows(canonical(json.loads(path.read_text(encoding="utf-8"))))
    for game in ("phat", "nine_card_don", "irish_don", "oh_hell"):
        follows(next(iter(simulate(game, 1, 1))))
    follows(next(iter(simulate("phat", 1, 1, with_cut=True))))


# ------------------------------------------------------------------------------------- README's Python


def test_readme_python_examples_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block of README.md runs from the repository root without an error."""
    blocks = re.findall(r"^```python\n(.*?)^```$", (REPO / "README.md").read_text(encoding="utf-8"), re.M | re.S)
    assert blocks
    monkeypatch.chdir(REPO)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_every_image_in_the_docs_is_shown_and_taken_by_the_browser_tests() -> None:
    """docs/images holds only what the docs show and the browser tests take (tests/test_html_browser.py names
    each file it writes): no stale screenshot that nothing makes any more, none shown that is missing."""
    images = {p.name for p in (DOCS / "images").iterdir()}
    shown = set()
    for page in [*DOCS.glob("*.md"), DOCS.parent / "README.md"]:
        shown |= set(re.findall(r"images/([\w.-]+\.(?:png|svg))", page.read_text(encoding="utf-8")))
    taker = (DOCS.parent / "tests" / "test_html_browser.py").read_text(encoding="utf-8")
    taken = set(re.findall(r'"([\w.-]+\.(?:png|svg))"', taker))
    for stem in re.findall(r'f"([\w-]+)-\{width\}\.png"', taker):  # one a width: 1280 and 390 pixels
        taken |= {f"{stem}-{width}.png" for width in (1280, 390)}
    assert shown == images
    assert images <= taken, images - taken
