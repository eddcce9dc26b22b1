"""Converters between phatlog records and other formats: one module a format, one interface for all.

Every module here has ``loads``/``load`` (text or a binary file to :class:`~phatlog.formats.base.Parsed`
records), ``losses`` (what writing a record would drop or cannot write) and ``dumps``/``dump`` (a record to
text, refusing to drop anything unless ``lossy=True``), over records as canonical JSON-ready dicts; see
:mod:`phatlog.formats.base`. ``docs/formats.md`` says what each format carries and what it cannot.

The package loads lazily: importing one format module (the text notation's fast path, say, which
``verify`` reads) loads neither the others nor the pydantic models; the names below load
:mod:`phatlog.formats.registry` on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phatlog.formats.base import ConversionError, Format, Parsed, Record, canonical
    from phatlog.formats.registry import FORMATS, format_for_path

__all__ = ["FORMATS", "ConversionError", "Format", "Parsed", "Record", "canonical", "format_for_path"]


def __getattr__(name: str) -> Any:
    """The registry's names, loaded on first use (PEP 562)."""
    if name in ("FORMATS", "format_for_path"):
        return getattr(import_module("phatlog.formats.registry"), name)
    if name in __all__:
        return getattr(import_module("phatlog.formats.base"), name)
    raise AttributeError(f"module 'phatlog.formats' has no attribute {name!r}")
