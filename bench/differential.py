"""A differential harness: the CLI's every verdict, diagnostic and byte of output, one tree against another.

It knows phatlog only as ``python -m phatlog`` run from a virtualenv's Python (no import of the package's
modules, whose paths move), so the same script runs against a checkout before a restructuring and after it.
It uses the standard library alone and can run under any Python 3.11.

    # 1. once: the fuzzed inputs, made by bench/fuzz.py's mutators from the BEFORE tree (fuzz.py imports
    #    phatlog's own modules, so it runs under that tree's Python); files on disk, read by both trees
    python bench/differential.py generate --inputs 100000 --seed 1 --out /work/diff/inputs \\
        --fuzz-python /work/before/.venv/bin/python --fuzz-bench /work/before/bench

    # 2. each tree, with the C kernels and without them (PHATLOG_PURE_PYTHON=1)
    python bench/differential.py run --phatlog /work/before/.venv/bin/python --inputs /work/diff/inputs \\
        --out /work/diff/before-c.jsonl
    python bench/differential.py run --phatlog /work/before/.venv/bin/python --inputs /work/diff/inputs \\
        --out /work/diff/before-pure.jsonl --pure
    python bench/differential.py run --phatlog /work/main/.venv/bin/python --inputs /work/diff/inputs \\
        --out /work/diff/after-c.jsonl

    # 3. what differs, located to an input and a command (exit 1 if anything does)
    python bench/differential.py compare /work/diff/before-c.jsonl /work/diff/after-c.jsonl

What ``run`` runs, every command with ``--jobs 1``, the working directory the inputs' directory (so every
path the CLI prints is the same relative path in both trees):

* every input, in batches (one shard directory, ``--per-shard`` inputs, a process): ``verify --format
  json FILES...`` and ``verify FILES...`` (text). A batch's whole standard output and error are hashed, and
  split per input: JSON lines by their ``"file"``, text lines by the path before their first colon; what
  names no input (the summary) is hashed as the batch's rest. The batches are the same in every run, so
  the duplicate checks across the files of a batch (PL801, PL802) are compared too.
* every ``--every``-th input (10 by default): ``replay --format text``, ``replay --format json``, and
  ``convert --lossy --to FMT -o $OUT/out.SUFFIX`` for every format the CLI's ``convert --to`` accepts; the
  exit code, standard output and error, the bytes of the file written and any other file left behind.
  These run one process a command; ``--spawn fork`` (the default) forks each from a server process that
  has already run the same commands once (so the modules are imported), ``--spawn process`` starts a
  fresh ``python -m phatlog`` each time (about 0.25 s of start-up a command). Each child runs
  ``runpy.run_module("phatlog")`` as ``python -m`` does, its standard streams on files.

Every output is recorded as its exit code and the SHA-256 of its bytes, the temporary directory replaced
by ``$OUT`` and the inputs' directory by ``$INPUTS`` first; the raw outputs are kept (gzip) in
``RESULT.raw/`` so that ``compare`` can print a diff. The environment is fixed (``LC_ALL=C.UTF-8``,
``PYTHONHASHSEED=0``, ``TZ=UTC``, no ``COLUMNS`` or colour variables). ``--pure`` sets
``PHATLOG_PURE_PYTHON=1``. ``--jobs 2`` (the default) runs two batches at a time.

The inputs are files named by fuzz.py's kinds (``SUFFIX``: .json, .jsonl, .phat, .csv, .openspiel), a
thousand a directory, with ``manifest.jsonl`` (each input's kind, how it was made, its SHA-256, checked
before every run) and ``meta.json``. Seed 1, 100,000 inputs: 1.4 GB, 81 s to make; a run is about 280,000
result rows, some 25 minutes of CPU (1,300 s in the commands, the rest the forks' system time): 15 minutes
on an idle 2-core machine, 47 to 49 on a busy one.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import difflib
import gzip
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

#: The output file's suffix for each ``convert --to`` format (``table`` is a CSV; another format: ``.NAME``).
SUFFIXES: Final = {
    "json": ".json",
    "jsonl": ".jsonl",
    "text": ".txt",
    "csv": ".csv",
    "table": ".csv",
    "openspiel": ".openspiel",
}
#: What ``convert --to`` accepted when this harness was written, should the CLI's list not be readable.
KNOWN_FORMATS: Final = ("json", "jsonl", "text", "csv", "table", "openspiel")
VERIFY_COMMANDS: Final = {
    "verify-json": ["verify", "--jobs", "1", "--format", "json"],
    "verify-text": ["verify", "--jobs", "1"],
}
#: Fields of a result row that are measurements, not outputs: never compared.
UNCOMPARED: Final = frozenset({"secs"})
EMPTY_SHA: Final = hashlib.sha256(b"").hexdigest()

# ----------------------------------------------------------------------------------------------- generate

#: Run under the BEFORE tree's Python, bench/ on sys.path: inputs START to STOP of bench/fuzz.py's run
#: SEED written under OUT, one manifest line each on standard output.
GENERATE: Final = r"""
import hashlib, json, sys
from pathlib import Path

bench, out, seed, start, stop, per, shard_width, index_width = sys.argv[1:9]
sys.path.insert(0, bench)
import fuzz

out = Path(out)
seed, start, stop, per = int(seed), int(start), int(stop), int(per)
corpus = fuzz.seeds()
for index in range(start, stop):
    inp = fuzz.make_input(corpus, seed, index)
    rel = f"{index // per:0{shard_width}d}/{index:0{index_width}d}{fuzz.SUFFIX[inp.kind]}"
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(inp.data)
    row = {"index": index, "path": rel, "kind": inp.kind, "how": inp.how, "size": len(inp.data),
           "sha256": hashlib.sha256(inp.data).hexdigest()}
    sys.stdout.write(json.dumps(row) + "\n")
"""


def generate(args: argparse.Namespace) -> int:
    """Write ``--inputs`` fuzzed inputs under ``--out``, with ``manifest.jsonl`` and ``meta.json``."""
    out: Path = args.out.resolve()
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    fuzz_py = Path(args.fuzz_bench) / "fuzz.py"
    began = time.monotonic()
    count, per, jobs = args.inputs, args.per_shard, max(1, args.jobs)
    shard_width = len(str(max(0, count - 1) // per))
    index_width = len(str(max(0, count - 1)))
    step = -(-count // jobs)
    env = clean_env(pure=False)
    procs = []
    for start in range(0, count, step):
        argv = [args.fuzz_python, "-c", GENERATE, str(args.fuzz_bench), str(out), str(args.seed)]
        argv += [str(start), str(min(count, start + step)), str(per), str(shard_width), str(index_width)]
        procs.append(subprocess.Popen(argv, stdout=subprocess.PIPE, env=env, cwd=out))
    rows: list[dict[str, Any]] = []
    for proc in procs:
        assert proc.stdout is not None
        rows.extend(json.loads(line) for line in proc.stdout)
        if proc.wait() != 0:
            raise SystemExit(f"the generator exited {proc.returncode}")
    rows.sort(key=lambda r: int(r["index"]))
    if [r["index"] for r in rows] != list(range(count)):
        raise SystemExit("the generator did not write every input")
    manifest = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    (out / "manifest.jsonl").write_bytes(manifest)
    meta = {
        "inputs": count,
        "seed": args.seed,
        "per_shard": per,
        "fuzz_py": str(fuzz_py.resolve()),
        "fuzz_py_sha256": sha(fuzz_py.read_bytes()),
        "fuzz_python": args.fuzz_python,
        "manifest_sha256": sha(manifest),
        "kinds": dict(Counter(str(r["kind"]) for r in rows)),
        "bytes": sum(int(r["size"]) for r in rows),
        "seconds": round(time.monotonic() - began, 1),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))
    return 0


# -------------------------------------------------------------------------------------------- processes


def clean_env(pure: bool) -> dict[str, str]:
    """The fixed environment every command runs in (``--pure``: the pure-Python engine)."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "TZ": "UTC",
    }
    if pure:
        env["PHATLOG_PURE_PYTHON"] = "1"
    return env


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Done:
    """How one command ended: its exit code (negative: the signal that ended it), CPU seconds."""

    rc: int
    secs: float


class Spawner(Protocol):
    def run(self, argv: list[str], cwd: Path, out: Path, err: Path, cpu: int) -> Done: ...

    def close(self) -> None: ...


class Processes:
    """Each command a fresh ``python -m phatlog`` process, its standard streams on files."""

    def __init__(self, python: str, env: dict[str, str]) -> None:
        self.python, self.env = python, env

    def run(self, argv: list[str], cwd: Path, out: Path, err: Path, cpu: int) -> Done:
        with out.open("wb") as fo, err.open("wb") as fe:
            proc = subprocess.Popen(
                [self.python, "-m", "phatlog", *argv],
                cwd=cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=fo,
                stderr=fe,
            )
        with contextlib.suppress(ProcessLookupError):  # set from outside: a preexec_fn is not safe with threads
            resource.prlimit(proc.pid, resource.RLIMIT_CPU, (cpu, cpu + 5))
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own CPU time, not the other thread's
        proc.returncode = os.waitstatus_to_exitcode(status)
        return Done(proc.returncode, round(usage.ru_utime + usage.ru_stime, 3))

    def close(self) -> None:
        pass


#: The fork server, run by the tree's Python: warms up by running the commands once in its own process
#: (standard streams on /dev/null), then forks a child for each request line (JSON: argv, cwd, out, err,
#: cpu) that runs ``python -m phatlog`` as runpy does, and answers a line (JSON: rc, secs).
SERVER: Final = r"""
import atexit, json, os, resource, runpy, sys

REPLY = os.dup(1)
NULL = os.open(os.devnull, os.O_RDWR)
os.dup2(NULL, 1)


def code_of(value):
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    try:
        print(value, file=sys.stderr)
    except Exception:
        pass
    return 1


def body(argv, cwd, out_fd, err_fd):
    os.chdir(cwd)
    os.dup2(NULL, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    sys.argv = ["-m", *argv]
    try:
        runpy.run_module("phatlog", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = code_of(exc.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    return code


def flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def warm(argv, cwd):
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    here = os.getcwd()
    try:
        body(argv, cwd, NULL, NULL)
        flush()
    finally:
        for fd, old in enumerate(saved):
            os.dup2(old, fd)
            os.close(old)
        os.chdir(here)


def call(req):
    flush()
    out_fd = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err_fd = os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(REPLY)
            resource.setrlimit(resource.RLIMIT_CPU, (req["cpu"], req["cpu"] + 5))
            code = body(req["argv"], req["cwd"], out_fd, err_fd)
            try:
                atexit._run_exitfuncs()
            except BaseException:
                pass
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:
                    code = 120
        finally:
            os._exit(code)
    os.close(out_fd)
    os.close(err_fd)
    _, status, usage = os.wait4(pid, 0)
    return {"rc": os.waitstatus_to_exitcode(status), "secs": round(usage.ru_utime + usage.ru_stime, 3)}


for line in sys.argv[1:]:  # the warm-up commands
    req = json.loads(line)
    warm(req["argv"], req["cwd"])
os.write(REPLY, b"ready\n")
for line in sys.stdin.buffer:
    os.write(REPLY, (json.dumps(call(json.loads(line))) + "\n").encode())
os._exit(0)
"""


class ForkServer:
    """Each command a child forked from one warmed-up server process of the tree's Python."""

    def __init__(self, python: str, env: dict[str, str], warmup: list[list[str]], scratch: Path) -> None:
        reqs = [json.dumps({"argv": argv, "cwd": str(scratch)}) for argv in warmup]
        self.proc = subprocess.Popen(
            [python, "-c", SERVER, *reqs], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=scratch
        )
        if self._line() != "ready":
            raise RuntimeError("the fork server did not start")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server ended (exit {self.proc.wait()})")
        return line.decode().strip()

    def run(self, argv: list[str], cwd: Path, out: Path, err: Path, cpu: int) -> Done:
        assert self.proc.stdin is not None
        req = {"argv": argv, "cwd": str(cwd), "out": str(out), "err": str(err), "cpu": cpu}
        self.proc.stdin.write((json.dumps(req) + "\n").encode())
        self.proc.stdin.flush()
        reply = json.loads(self._line())
        return Done(int(reply["rc"]), float(reply["secs"]))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def warmup_commands(scratch: Path, formats: list[str]) -> list[list[str]]:
    """What the fork server runs once before forking: a simulated game replayed and converted."""
    game = str(scratch / "warm.json")
    argv = [["simulate", "--game", "phat", "--seed", "1", "--count", "1", "-o", game]]
    argv += [["replay", "--format", fmt, game] for fmt in ("text", "json")]
    argv += [["convert", "--lossy", "--to", f, "-o", str(scratch / f"warm-{f}{suffix(f)}"), game] for f in formats]
    return argv


# --------------------------------------------------------------------------------------------------- run


def suffix(fmt: str) -> str:
    return SUFFIXES.get(fmt, f".{fmt}")


def per_file_commands(formats: list[str], path: str) -> dict[str, list[str]]:
    """The commands run on each ``--every``-th input (``$OUT``: the worker's temporary directory)."""
    commands = {f"replay-{fmt}": ["replay", "--format", fmt, path] for fmt in ("text", "json")}
    for fmt in formats:
        commands[f"convert-{fmt}"] = ["convert", "--lossy", "--to", fmt, "-o", f"$OUT/out{suffix(fmt)}", path]
    return commands


def discover_formats(python: str, env: dict[str, str], cwd: Path) -> tuple[list[str], bool]:
    """The formats ``convert --to`` accepts, read from its own refusal of an unknown one."""
    proc = subprocess.run(
        [python, "-m", "phatlog", "convert", "--to", "no-such-format", "-o", "-", "-"],
        cwd=cwd,
        env=env,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    flat = re.sub(r"[│╭╮╰╯─\s]+", " ", proc.stderr.decode("utf-8", "replace"))
    found = re.search(r"is not one of (.*?)\.(?: |$)", flat)
    if found is None:
        return list(KNOWN_FORMATS), False
    return re.findall(r"'([^']+)'", found.group(1)), True


@dataclass(slots=True)
class Setup:
    """What every batch of a run needs."""

    python: str
    inputs: Path
    raw: Path | None
    env: dict[str, str]
    formats: list[str]
    every: int
    spawn: str
    warm: bool
    cpu: int
    batch_cpu: int
    local: threading.local = field(default_factory=threading.local)
    spawners: list[Spawner] = field(default_factory=list)
    scratches: list[Path] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def worker(self) -> tuple[Spawner, Path]:
        """This thread's spawner and temporary directory (made on first use)."""
        got: tuple[Spawner, Path] | None = getattr(self.local, "got", None)
        if got is None:
            scratch = Path(tempfile.mkdtemp(prefix="phatlog-diff-"))
            spawner: Spawner
            if self.spawn == "fork":
                warm = warmup_commands(scratch, self.formats) if self.warm else []
                spawner = ForkServer(self.python, self.env, warm, scratch)
                for name in os.listdir(scratch):
                    os.unlink(scratch / name)
            else:
                spawner = Processes(self.python, self.env)
            got = (spawner, scratch)
            self.local.got = got
            with self.lock:
                self.spawners.append(spawner)
                self.scratches.append(scratch)
        return got


def normalise(data: bytes, scratch: Path, inputs: Path) -> bytes:
    return data.replace(str(scratch).encode(), b"$OUT").replace(str(inputs).encode(), b"$INPUTS")


def split_json(data: bytes, paths: frozenset[str]) -> tuple[dict[str, bytes], bytes]:
    """A ``verify --format json`` stream's lines per input (by their ``file``), and the rest."""
    per: dict[str, bytearray] = defaultdict(bytearray)
    rest = bytearray()
    for line in data.splitlines(keepends=True):
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        name = obj.get("file") if isinstance(obj, dict) else None
        if isinstance(name, str) and name in paths:
            per[name] += line
        else:
            rest += line
    return {k: bytes(v) for k, v in per.items()}, bytes(rest)


def split_text(data: bytes, paths: frozenset[str]) -> tuple[dict[str, bytes], bytes]:
    """A text stream's lines per input (the path before a line's first colon), and the rest."""
    per: dict[str, bytearray] = defaultdict(bytearray)
    rest = bytearray()
    for line in data.splitlines(keepends=True):
        name = line.split(b":", 1)[0].decode("utf-8", "replace")
        if name in paths:
            per[name] += line
        else:
            rest += line
    return {k: bytes(v) for k, v in per.items()}, bytes(rest)


def split(cmd: str, data: bytes, paths: frozenset[str]) -> tuple[dict[str, bytes], bytes]:
    return split_json(data, paths) if cmd == "verify-json" else split_text(data, paths)


def b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()


def run_shard(setup: Setup, shard: str, paths: list[str]) -> list[dict[str, Any]]:
    """Every command of one shard's inputs: the result rows (the raw outputs to ``RESULT.raw/``)."""
    spawner, scratch = setup.worker()
    rows: list[dict[str, Any]] = []
    raws: list[dict[str, Any]] = []
    names = frozenset(paths)
    out, err = scratch / "stdout", scratch / "stderr"
    batch = Processes(setup.python, setup.env)  # verify of many files: always a fresh process
    for cmd, argv in VERIFY_COMMANDS.items():
        done = batch.run([*argv, *paths], setup.inputs, out, err, setup.batch_cpu)
        o, e = normalise(out.read_bytes(), scratch, setup.inputs), normalise(err.read_bytes(), scratch, setup.inputs)
        (po, ro), (pe, re_) = split(cmd, o, names), split(cmd, e, names)
        rows.append({"batch": shard, "cmd": cmd, "rc": done.rc, "out": sha(o), "err": sha(e)})
        rows[-1].update({"rest": sha(ro + b"\0" + re_), "files": len(paths), "secs": done.secs})
        for path in paths:
            rows.append({"input": path, "cmd": cmd, "out": sha(po.get(path, b"")), "err": sha(pe.get(path, b""))})
        raws.append({"batch": shard, "cmd": cmd, "out": b64(o), "err": b64(e)})
    for path in paths:
        if int(Path(path).stem) % setup.every:
            continue
        for cmd, template in per_file_commands(setup.formats, path).items():
            argv = [a.replace("$OUT", str(scratch)) for a in template]
            written = scratch / Path(argv[argv.index("-o") + 1]).name if "-o" in argv else None
            done = spawner.run(argv, setup.inputs, out, err, setup.cpu)
            o, e = (
                normalise(out.read_bytes(), scratch, setup.inputs),
                normalise(err.read_bytes(), scratch, setup.inputs),
            )
            data = written.read_bytes() if written is not None and written.exists() else None
            left = sorted(
                n for n in os.listdir(scratch) if n not in ("stdout", "stderr") and n != getattr(written, "name", "")
            )
            row = {"input": path, "cmd": cmd, "rc": done.rc, "out": sha(o), "err": sha(e)}
            row.update({"file": None if data is None else sha(data), "left": left, "secs": done.secs})
            rows.append(row)
            raws.append({"input": path, "cmd": cmd, "out": b64(o), "err": b64(e), "file": b64(data)})
            for name in os.listdir(scratch):
                if name not in ("stdout", "stderr"):
                    target = scratch / name
                    shutil.rmtree(target) if target.is_dir() else target.unlink()
    if setup.raw is not None:
        with gzip.open(setup.raw / f"{shard}.jsonl.gz", "wt", compresslevel=3) as f:
            for raw in raws:
                f.write(json.dumps(raw) + "\n")
    return rows


def load_manifest(inputs: Path, check: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    meta = json.loads((inputs / "meta.json").read_text())
    data = (inputs / "manifest.jsonl").read_bytes()
    if sha(data) != meta["manifest_sha256"]:
        raise SystemExit(f"{inputs}/manifest.jsonl is not the one meta.json names")
    rows = [json.loads(line) for line in data.splitlines()]
    if check:
        for row in rows:
            if sha((inputs / row["path"]).read_bytes()) != row["sha256"]:
                raise SystemExit(f"{inputs}/{row['path']} is not the input the manifest names")
    return meta, rows


def version_of(python: str, env: dict[str, str], cwd: Path) -> dict[str, str]:
    def out(*argv: str) -> str:
        proc = subprocess.run(
            [python, *argv], cwd=cwd, env=env, capture_output=True, check=False, stdin=subprocess.DEVNULL
        )
        return (proc.stdout + proc.stderr).decode("utf-8", "replace").strip()

    return {
        "phatlog --version": out("-m", "phatlog", "--version"),
        "python_version": out("-c", "import sys; print(sys.version)"),
    }


def run(args: argparse.Namespace) -> int:
    """Run every command on the inputs with one tree's Python; write the result rows to ``--out``."""
    began = time.monotonic()
    inputs: Path = args.inputs.resolve()
    meta, manifest = load_manifest(inputs, not args.no_check)
    env = clean_env(args.pure)
    python = os.path.abspath(args.phatlog)
    formats, discovered = discover_formats(python, env, inputs)
    raw = None if args.no_raw else Path(str(args.out) + ".raw")
    if raw is not None:
        shutil.rmtree(raw, ignore_errors=True)
        raw.mkdir(parents=True)
    setup = Setup(python, inputs, raw, env, formats, args.every, args.spawn, not args.no_warm, args.cpu, args.batch_cpu)
    shards: dict[str, list[str]] = defaultdict(list)
    for row in manifest:
        shards[str(row["path"]).split("/", 1)[0]].append(str(row["path"]))
    chosen = sorted(shards)
    if args.shards:
        lo, _, hi = args.shards.partition(":")
        chosen = chosen[int(lo or 0) : int(hi) if hi else None]
    head = {
        "python": python,
        "pure": args.pure,
        "every": args.every,
        "spawn": args.spawn,
        "warm": not args.no_warm,
        "formats": formats,
        "formats_discovered": discovered,
        "shards": [chosen[0], chosen[-1]] if chosen else [],
        "inputs": {k: meta[k] for k in ("inputs", "seed", "per_shard", "manifest_sha256", "fuzz_py_sha256")},
        "env": env,
        **version_of(python, env, inputs),
    }
    print(json.dumps(head, indent=2), file=sys.stderr)
    counts: Counter[str] = Counter()
    tmp_out = Path(str(args.out) + ".partial")
    with tmp_out.open("w") as f, ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        f.write(json.dumps({"meta": head}) + "\n")
        try:
            results = pool.map(lambda s: run_shard(setup, s, shards[s]), chosen)
            for n, (shard, rows) in enumerate(zip(chosen, results, strict=True), 1):
                for row in rows:
                    f.write(json.dumps(row, separators=(",", ":")) + "\n")
                    counts[row["cmd"]] += 1
                elapsed = time.monotonic() - began
                print(f"  shard {shard} ({n}/{len(chosen)}) done, {elapsed:,.0f} s", file=sys.stderr, flush=True)
        finally:
            for spawner in setup.spawners:
                spawner.close()
            for scratch in setup.scratches:
                shutil.rmtree(scratch, ignore_errors=True)
        f.write(json.dumps({"done": {"rows": dict(counts), "seconds": round(time.monotonic() - began, 1)}}) + "\n")
    tmp_out.replace(args.out)
    print(f"{sum(counts.values()):,} rows in {time.monotonic() - began:,.0f} s: {dict(counts)}", file=sys.stderr)
    return 0


# ----------------------------------------------------------------------------------------------- compare


@dataclass(slots=True)
class Result:
    """One run's result file: its head and its rows by (kind, name, command)."""

    path: Path
    meta: dict[str, Any]
    rows: dict[tuple[str, str, str], dict[str, Any]]

    @classmethod
    def load(cls, path: Path) -> Result:
        meta: dict[str, Any] = {}
        rows: dict[tuple[str, str, str], dict[str, Any]] = {}
        with path.open() as f:
            for line in f:
                row = json.loads(line)
                if "meta" in row:
                    meta = row["meta"]
                elif "input" in row:
                    rows["input", row["input"], row["cmd"]] = row
                elif "batch" in row:
                    rows["batch", row["batch"], row["cmd"]] = row
        return cls(path, meta, rows)

    def raw(self, shard: str, kind: str, name: str, cmd: str) -> dict[str, Any] | None:
        """The raw outputs of a row (for a verify row of an input: its batch's)."""
        file = Path(str(self.path) + ".raw") / f"{shard}.jsonl.gz"
        if not file.exists():
            return None
        with gzip.open(file, "rt") as f:
            for line in f:
                raw: dict[str, Any] = json.loads(line)
                if raw["cmd"] != cmd:
                    continue
                if (kind == "input" and raw.get("input") == name) or raw.get("batch") == (
                    name if kind == "batch" else shard
                ):
                    return raw
        return None


def _decoded(raw: dict[str, Any] | None, stream: str) -> bytes | None:
    if raw is None or raw.get(stream) is None:
        return None
    return base64.b64decode(raw[stream])


def _diff(a: bytes | None, b: bytes | None, label: str, lines: int) -> Iterator[str]:
    if a is None or b is None:
        yield f"      ({label}: no raw output kept)"
        return
    text_a = a.decode("utf-8", "backslashreplace").splitlines()
    text_b = b.decode("utf-8", "backslashreplace").splitlines()
    diff = list(difflib.unified_diff(text_a, text_b, "A " + label, "B " + label, n=1, lineterm=""))
    for line in diff[:lines]:
        yield "      " + (line if len(line) < 300 else line[:300] + "...")
    if len(diff) > lines:
        yield f"      ... {len(diff) - lines} more lines of diff"


def explain(a: Result, b: Result, key: tuple[str, str, str], lines: int) -> Iterator[str]:
    """What differs in one row, with a diff of the raw outputs where both were kept."""
    kind, name, cmd = key
    ra, rb = a.rows[key], b.rows[key]
    fields = sorted(k for k in set(ra) | set(rb) if k not in UNCOMPARED and ra.get(k) != rb.get(k))
    shard = name.split("/", 1)[0]
    if kind == "batch":
        argv = " ".join([*VERIFY_COMMANDS[cmd], f"{name}/*"])
    elif cmd in VERIFY_COMMANDS:
        argv = " ".join([*VERIFY_COMMANDS[cmd], name]) + f"  (in batch {shard}: run the batch for PL801/PL802)"
    else:
        argv = " ".join(per_file_commands(list(a.meta.get("formats", KNOWN_FORMATS)), name).get(cmd, [cmd]))
    yield f"  {kind} {name}  {cmd}: differs in {', '.join(fields)}"
    yield f"    cd INPUTS && PYTHON -m phatlog {argv}"
    for f in ("rc", "left"):
        if f in fields:
            yield f"    {f}: {ra.get(f)} -> {rb.get(f)}"
    xa, xb = a.raw(shard, kind, name, cmd), b.raw(shard, kind, name, cmd)
    streams = {"out": "stdout", "err": "stderr", "file": "file written"}
    wanted = [s for s in streams if s in fields] or (["out", "err"] if "rest" in fields else [])
    for stream in wanted:
        da, db = _decoded(xa, stream), _decoded(xb, stream)
        if kind == "input" and cmd in VERIFY_COMMANDS and da is not None and db is not None:
            da = split(cmd, da, frozenset([name]))[0].get(name, b"")
            db = split(cmd, db, frozenset([name]))[0].get(name, b"")
        yield from _diff(da, db, streams[stream], lines)


def compare(args: argparse.Namespace) -> int:
    """Count the rows compared, identical and different per command; print the first differences."""
    a, b = Result.load(args.a), Result.load(args.b)
    for label, r in (("A", a), ("B", b)):
        m = r.meta
        print(
            f"{label}: {r.path}  {m.get('phatlog --version')}  pure={m.get('pure')}  every={m.get('every')}  "
            f"spawn={m.get('spawn')}  python={m.get('python')}"
        )
    ia, ib = a.meta.get("inputs", {}), b.meta.get("inputs", {})
    if ia.get("manifest_sha256") != ib.get("manifest_sha256"):
        print("WARNING: the two runs read different inputs (their manifests differ)")
    for what in ("formats", "env"):
        if a.meta.get(what) != b.meta.get(what):
            print(f"NOTE: {what} differ: {a.meta.get(what)} / {b.meta.get(what)}")
    table: dict[str, Counter[str]] = defaultdict(Counter)
    differing: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for key in sorted(set(a.rows) | set(b.rows)):
        cmd = ("batch " if key[0] == "batch" else "") + key[2]
        ra, rb = a.rows.get(key), b.rows.get(key)
        if ra is None:
            table[cmd]["only in B"] += 1
            continue
        if rb is None:
            table[cmd]["only in A"] += 1
            continue
        table[cmd]["compared"] += 1
        same = all(ra.get(k) == rb.get(k) for k in set(ra) | set(rb) if k not in UNCOMPARED)
        table[cmd]["identical" if same else "different"] += 1
        if not same:
            differing[cmd].append(key)
    columns = ("compared", "identical", "different", "only in A", "only in B")
    print(f"\n{'command':24}" + "".join(f"{c:>12}" for c in columns))
    for cmd in sorted(table):
        print(f"{cmd:24}" + "".join(f"{table[cmd][c]:>12,}" for c in columns))
    total = Counter[str]()
    for counts in table.values():
        total.update(counts)
    print(f"{'all':24}" + "".join(f"{total[c]:>12,}" for c in columns))
    inputs_differing = {key[1] for keys in differing.values() for key in keys if key[0] == "input"}
    print(f"\ninputs with any difference: {len(inputs_differing):,}")
    for cmd in sorted(differing):
        keys = differing[cmd]
        print(f"\n{cmd}: {len(keys):,} different; the first {min(len(keys), args.show)}:")
        for key in keys[: args.show]:
            for line in explain(a, b, key, args.lines):
                print(line)
    return 1 if differing else 0


# -------------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="write the fuzzed inputs (bench/fuzz.py's, from the BEFORE tree)")
    g.add_argument("--inputs", type=int, default=100_000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--per-shard", type=int, default=1000, help="inputs a directory (a verify batch)")
    g.add_argument("--fuzz-python", default="/work/before/.venv/bin/python", help="a Python that imports fuzz.py")
    g.add_argument("--fuzz-bench", default="/work/before/bench", help="the directory of fuzz.py")
    g.add_argument("--jobs", type=int, default=2)
    r = sub.add_parser("run", help="run the CLI on every input with one tree's Python")
    r.add_argument("--phatlog", required=True, help="the Python of the tree's virtualenv")
    r.add_argument("--inputs", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--pure", action="store_true", help="PHATLOG_PURE_PYTHON=1: no C kernel")
    r.add_argument("--every", type=int, default=10, help="replay and convert every N-th input (default 10)")
    r.add_argument("--spawn", choices=["fork", "process"], default="fork", help="how replay/convert start")
    r.add_argument("--no-warm", action="store_true", help="fork server: no warm-up commands first")
    r.add_argument("--jobs", type=int, default=2, help="batches at a time (default 2)")
    r.add_argument("--shards", default="", help="only these shards, START:STOP in sorted order")
    r.add_argument("--cpu", type=int, default=120, help="CPU seconds a replay or convert may take")
    r.add_argument("--batch-cpu", type=int, default=3600, help="CPU seconds a verify batch may take")
    r.add_argument("--no-check", action="store_true", help="do not check the inputs' hashes first")
    r.add_argument("--no-raw", action="store_true", help="keep no raw outputs (compare then prints no diffs)")
    c = sub.add_parser("compare", help="what differs between two results")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--show", type=int, default=10, help="differences to print a command (default 10)")
    c.add_argument("--lines", type=int, default=40, help="lines of diff to print a difference (default 40)")
    args = parser.parse_args(argv)
    if args.command == "generate":
        return generate(args)
    if args.command == "run":
        return run(args)
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
