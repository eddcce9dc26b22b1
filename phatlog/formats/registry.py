"""Every format by its name, and the format a file name says.

Every format module has ``loads``/``load`` (text or a binary file to :class:`~phatlog.formats.base.Parsed`
records), ``losses`` (what writing a record would drop or cannot write) and ``dumps``/``dump`` (a record to
text, refusing to drop anything unless ``lossy=True``), over records as canonical JSON-ready dicts; see
:mod:`phatlog.formats.base`. ``docs/formats.md`` says what each format carries and what it cannot.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Final

from phatlog.formats import csv_sheet, json_record, jsonl, openspiel, table, text
from phatlog.formats.base import Format

#: Every format by its name.
FORMATS: Final[dict[str, Format]] = {
    "json": json_record,
    "jsonl": jsonl,
    "text": text,
    "csv": csv_sheet,
    "table": table,
    "openspiel": openspiel,
}


def format_for_path(path: str) -> Format | None:
    """The format a file name says (by its suffix, in any case), or None where it does not say."""
    suffix = PurePath(path).suffix.lower()
    for fmt in FORMATS.values():
        if suffix in fmt.SUFFIXES:
            return fmt
    return None
