"""The ``phatlog`` command's entry point: the signal handlers first, then everything else.

Ctrl-C (SIGINT) and SIGTERM end the command quietly at any moment, start-up included: no traceback,
any temporary output file removed, the target left as it was, and the exit code the shell convention
gives a process ended by a signal (128 + its number: 130 for SIGINT, 143 for SIGTERM). Running out of
memory is one line and exit 2, as any other limit of the machine is. The handlers
are set before the command's modules are imported. While the modules of a plain ``verify``/``validate``
(or of the typer app) load, a signal is held and acted on as soon as they have loaded: an exception
raised inside a C extension's initialisation (msgspec's, say) can crash the interpreter instead of
unwinding, which is what a Ctrl-C at the wrong moment did.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType


class Interrupted(BaseException):
    """A stop signal arrived. A ``BaseException``, as ``KeyboardInterrupt`` is, so that nothing that
    catches errors catches it, and not ``KeyboardInterrupt``, so that click does not turn it into
    "Aborted!" and exit code 1."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


def _exit_now(code: int) -> None:
    """Exit at once, the output flushed, without the interpreter's shutdown: after an interrupt a worker
    pool's feeder thread may still be writing to a pipe that is being closed, and its complaint on the way
    out would be a traceback (the workers themselves are ended by the pool's owner)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def main() -> None:
    """Run the command; on SIGINT or SIGTERM, clean up and exit 128 + the signal's number."""
    held: list[int] = []

    def _hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _hold)  # while the modules load (see the module's docstring)
    # The modules' classes, functions and tables live as long as the process: the cycle collector is
    # off while they load (its passes over them were a tenth of a one-record verify's start) and they
    # are then moved out of its view (``gc.freeze``), so that the collections the work itself needs do
    # not walk them again.
    gc.disable()
    try:
        try:
            from phatlog.cli.run import prepare

            run: Callable[[], int | None] | None = prepare(sys.argv[1:])  # no typer for these (issue 16)
            if run is None:
                from phatlog.cli.app import main as run_app

                run = run_app
        finally:
            gc.freeze()
            gc.enable()
            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, _stop)
        if held:
            raise Interrupted(held[0])
        code = run()
        if code is not None:
            sys.exit(code)
    except Interrupted as exc:
        for signum in (signal.SIGINT, signal.SIGTERM):  # a second Ctrl-C does not interrupt the clean-up
            signal.signal(signum, signal.SIG_IGN)
        from phatlog.archive.atomic import cleanup

        cleanup()
        _exit_now(128 + exc.signum)
    except MemoryError:  # exit 1 would say "the record has problems": this is the machine's limit, not the record
        from phatlog.archive.atomic import cleanup

        cleanup()
        sys.stderr.write("error: not enough memory to finish (nothing was written)\n")
        sys.exit(2)
