"""The reference rules engine: shared trick mechanics, one rules module per game, and the referee."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any


def pure_python() -> bool:
    """Whether ``PHATLOG_PURE_PYTHON`` asks for the pure-Python code, the C kernels left out (for tests)."""
    return os.environ.get("PHATLOG_PURE_PYTHON", "") not in ("", "0")


def kernel_module() -> ModuleType | None:
    """The C kernel (``phatlog/_native/_hot.c``), or None: not built (it is optional) or pure Python asked."""
    if pure_python():
        return None
    try:
        from phatlog._native import _hot
    except ImportError:
        return None
    return _hot


def kernel(name: str) -> Any:
    """The C kernel's function or type ``name``, or None: no kernel (:func:`kernel_module`), or one built
    from older source that lacks it. The one place that decides, for every module with a fast path."""
    return getattr(kernel_module(), name, None)
