"""What an input's name says, and its bytes as they were written: the notation and the compression.

A file's **notation** is told from its name, in any case: ``.jsonl``/``.ndjson`` a JSON Lines archive,
``.txt``/``.phat`` the text notation, ``.csv`` a score sheet (or the long table), ``.openspiel``/``.spiel``
OpenSpiel's text, anything else one JSON record. A name may end in a **compression** suffix after it
(``games.jsonl.gz``): ``.gz`` (gzip), ``.bz2`` (bzip2) and ``.xz`` (xz) are read with the standard library,
``.zst`` (Zstandard) with the standard library's ``compression.zstd`` (Python 3.14 on) or the
``zstandard`` package (``pip install 'phatlog[zstd]'``). A compressed file is read as a stream,
decompressed as it is read: memory stays bounded, and lines and places are those of the text inside.
"""

from __future__ import annotations

import importlib
import io
import os
from typing import IO, Any, BinaryIO, Final, cast

#: Compression suffixes, and the name of each compression.
COMPRESSIONS: Final = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}

#: The notations an input's name can say, each with its suffixes.
NOTATIONS: Final = {
    "jsonl": (".jsonl", ".ndjson"),
    "text": (".txt", ".phat"),
    "csv": (".csv",),
    "openspiel": (".openspiel", ".spiel"),
    "json": (".json",),
}


def compression(name: str) -> str | None:
    """The compression a file name says (``gzip``, ``bzip2``, ``xz``, ``zstd``), or None."""
    lower = name.lower()
    for suffix, kind in COMPRESSIONS.items():
        if lower.endswith(suffix):
            return kind
    return None


def inner_name(name: str) -> str:
    """A file name without its compression suffix: the name of what it holds."""
    lower = name.lower()
    for suffix in COMPRESSIONS:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def notation(name: str) -> str:
    """The notation a file name says (a key of :data:`NOTATIONS`; ``json`` for any other name), after
    any compression suffix is taken off."""
    lower = inner_name(name).lower()
    for kind, suffixes in NOTATIONS.items():
        if lower.endswith(suffixes):
            return kind
    return "json"


class CompressionUnavailable(OSError):
    """A compressed input whose decompressor is not installed (Zstandard without ``zstandard``)."""


class CorruptInput(OSError):
    """Compressed data that does not decompress (damaged, cut short, or not that compression at all)."""


def decompressed(raw: BinaryIO, kind: str) -> BinaryIO:
    """``raw`` read through its decompressor (``kind``: a value of :data:`COMPRESSIONS`); data that does
    not decompress raises :class:`CorruptInput` (an ``OSError``) where it is read."""
    stream: BinaryIO
    if kind == "gzip":
        import gzip

        stream = cast(BinaryIO, gzip.GzipFile(fileobj=raw, mode="rb"))
    elif kind == "bzip2":
        import bz2

        stream = cast(BinaryIO, bz2.BZ2File(raw, "rb"))
    elif kind == "xz":
        import lzma

        stream = cast(BinaryIO, lzma.LZMAFile(raw, "rb"))  # noqa: SIM115 - closed with the stream
    else:
        stream = _zstd(raw)
    return cast(BinaryIO, _Checked(_blocks(stream), raw, kind))


#: Decompressed bytes taken at a time: one large read costs the decompressor far less than many small ones.
BLOCK: Final = 1 << 20


def _blocks(stream: BinaryIO) -> BinaryIO:
    """``stream`` read a block of :data:`BLOCK` at a time beneath a buffer of that size: lines are cut from
    the buffer, and the decompressor is asked for large blocks, not for each line."""
    return cast(BinaryIO, io.BufferedReader(_Blocks(stream), BLOCK))


class _Blocks(io.RawIOBase):
    """The raw side of :func:`_blocks`: each read a block of the decompressed stream."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__()
        self._stream = stream
        self._left = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._left:
            self._left = memoryview(self._stream.read(BLOCK))
        n = min(len(buffer), len(self._left))
        buffer[:n] = self._left[:n]
        self._left = self._left[n:]
        return n

    def close(self) -> None:
        self._stream.close()
        super().close()


def _zstd(raw: BinaryIO) -> BinaryIO:
    try:
        zstd = importlib.import_module("compression.zstd")  # the standard library, Python 3.14 on
        return cast(BinaryIO, zstd.ZstdFile(raw, "rb"))
    except ImportError:
        pass
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        raise CompressionUnavailable(
            "a .zst file needs Zstandard: pip install 'phatlog[zstd]' (or Python 3.14 or later)"
        ) from None

    return cast(BinaryIO, io.BufferedReader(zstandard.ZstdDecompressor().stream_reader(raw), 1 << 20))


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """A file opened for reading its bytes as written: decompressed where its name says it is compressed.
    Raises ``OSError`` (a missing file, :class:`CompressionUnavailable`)."""
    raw: IO[bytes] = open(path, "rb")  # noqa: SIM115 - the caller closes it
    kind = compression(os.fspath(path))
    if kind is None:
        return cast(BinaryIO, raw)
    try:
        return decompressed(cast(BinaryIO, raw), kind)
    except BaseException:
        raw.close()
        raise


class _Checked:
    """A decompressed stream whose decompression errors are :class:`CorruptInput`, and that closes the
    file beneath it too."""

    def __init__(self, stream: BinaryIO, raw: BinaryIO, kind: str) -> None:
        self._stream, self._raw, self.kind = stream, raw, kind

    def _fail(self, exc: BaseException) -> CorruptInput:
        detail = str(exc) or type(exc).__name__
        return CorruptInput(f"the {self.kind} data does not decompress ({detail})")

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except Exception as exc:  # every decompressor's own error type (EOFError, lzma.LZMAError, zlib.error)
            raise self._fail(exc) from None

    def readline(self, size: int = -1) -> bytes:
        try:
            return self._stream.readline(size)
        except Exception as exc:  # every decompressor's own error type
            raise self._fail(exc) from None

    def __iter__(self) -> _Checked:
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._raw.fileno()

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            self._raw.close()

    def __enter__(self) -> _Checked:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
