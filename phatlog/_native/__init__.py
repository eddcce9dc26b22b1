"""The optional C kernels: ``_trick`` (the trick kernel of every game, fed the rules as tables by
:mod:`phatlog._native.tables`), ``_bytes`` (record bytes: the duplicate-key scan, the deals' keys, the digest
stream, the deal table) and ``_solve`` (the double-dummy solver, loaded by ``phatlog.solver.search``).
``kernel_module`` and ``kernel`` are the one place that decides whether a C module is used."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any, Literal

#: The C modules this package may hold (each optional).
Kernel = Literal["_trick", "_bytes", "_solve"]


def pure_python() -> bool:
    """Whether ``PHATLOG_PURE_PYTHON`` asks for the pure-Python code, the C kernels left out (for tests)."""
    return os.environ.get("PHATLOG_PURE_PYTHON", "") not in ("", "0")


def kernel_module(module: Kernel = "_trick") -> ModuleType | None:
    """A C module of ``phatlog/_native`` (``_trick`` by default), or None: not built (each is optional) or
    pure Python asked (``PHATLOG_PURE_PYTHON=1``)."""
    if pure_python():
        return None
    try:
        return importlib.import_module(f"phatlog._native.{module}")
    except ImportError:
        return None


def kernel(name: str, module: Kernel = "_bytes") -> Any:
    """The function or type ``name`` of a C module (record bytes by default), or None: no module
    (:func:`kernel_module`), or one built from older source that lacks it. The one place that decides,
    for every module with a fast path."""
    return getattr(kernel_module(module), name, None)
