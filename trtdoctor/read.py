"""Bytes in, normalised chunks out: the first step of the flow.

The reader never fails on content and never writes to its input. It recognises the encoding from the
first block (UTF-8 with or without BOM, UTF-16 with or without BOM, anything else passed through as
bytes and decoded line by line later), strips ANSI escape sequences, folds CRLF and bare CR into LF,
drops NUL bytes, and cuts the stream into chunks that end on a line boundary so that memory stays
bounded however large the log is. Lines longer than ``MAX_LINE`` are cut into pieces (numbered as one
line) so that one 50 MB line costs no more than any other.

Errors that are the user's to fix (missing file, a directory, a binary file, an empty input) raise
``InputError`` with a one-line message.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

CHUNK = 8 << 20
MAX_LINE = 1 << 20
_SNIFF = 64 << 10

_ANSI = re.compile(rb"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


class InputError(Exception):
    """The input cannot be read as a log. The message is one line, meant for the user."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Normalised bytes holding whole lines (LF-separated). ``first_line`` numbers its first line from 1.

    ``continues`` is true when the chunk's first line is the rest of a line cut at ``MAX_LINE``;
    ``newlines`` counts the line ends in ``data`` (counted once here, so no later step counts again).
    """

    data: bytes
    first_line: int
    continues: bool = False
    newlines: int = 0


def open_input(source: str | os.PathLike[str]) -> BinaryIO:
    """Open a path ('-' is standard input) for binary reading, or raise InputError."""
    import sys

    if str(source) == "-":
        return sys.stdin.buffer
    path = os.fspath(source)
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a log file")
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def sniff(head: bytes) -> str:
    """Name the encoding of a log from its first bytes: 'utf-8-sig', 'utf-16-le', 'utf-16-be' or 'bytes'.

    Raises InputError for what is plainly not text.
    """
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le-bom"
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be-bom"
    sample = head[:4096]
    if sample.count(0):
        # UTF-16 without BOM: ASCII text leaves a NUL in every other byte.
        even, odd = sample[0::2], sample[1::2]
        if len(sample) >= 4 and odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
            return "utf-16-le"
        if len(sample) >= 4 and even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
            return "utf-16-be"
        if sample.count(0) > 0.1 * len(sample):
            raise InputError("input looks binary (many NUL bytes), not a text log")
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13, 27))
    if sample and controls > 0.1 * len(sample):
        raise InputError("input looks binary (control bytes), not a text log")
    return "bytes"


def _normalise(data: bytes) -> bytes:
    if b"\x1b" in data:
        data = _ANSI.sub(b"", data)
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if b"\x00" in data:
        data = data.replace(b"\x00", b"")
    return data


def _raw_blocks(stream: BinaryIO, head: bytes, encoding: str, size: int) -> Iterator[bytes]:
    if encoding.startswith("utf-16"):
        codec = "utf-16-le" if encoding.startswith("utf-16-le") else "utf-16-be"
        if encoding.endswith("-bom"):
            head = head[2:]
        decoder = codecs.getincrementaldecoder(codec)(errors="replace")
        block = head
        while block:
            text = decoder.decode(block)
            if text:
                yield text.encode("utf-8", "surrogatepass")
            block = stream.read(size)
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail.encode("utf-8", "surrogatepass")
        return
    if encoding == "utf-8-sig":
        head = head[3:]
    if head:
        yield head
    while True:
        block = stream.read(size)
        if not block:
            return
        yield block


def chunks(stream: BinaryIO, size: int = CHUNK, *, numbered: bool = True) -> Iterator[Chunk]:
    """Read the whole stream as normalised chunks. Raises InputError for binary or empty input.

    ``numbered=False`` leaves ``first_line`` and ``newlines`` at 0: counting the line ends is a pass over
    every byte, and the scanner, which must count up to each line it selects anyway, numbers lines itself."""
    try:
        head = stream.read(_SNIFF)
    except OSError as exc:
        raise InputError(f"input cannot be read ({exc.strerror or exc})") from None
    if not head or not head.strip():
        raise InputError("input is empty")
    normalised = _chunks(stream, head, sniff(head), size, numbered)
    first = next(normalised, None)
    if first is None:
        # Nothing but terminal control sequences (say, a bare ESC @ printer reset): no line to read.
        raise InputError("input is empty (only terminal control sequences)")
    yield first
    yield from normalised


def _chunks(stream: BinaryIO, head: bytes, encoding: str, size: int, numbered: bool) -> Iterator[Chunk]:
    line = 1
    carry = b""
    continues = False
    try:
        for block in _raw_blocks(stream, head, encoding, size):
            # A CR at the end of a block may be half of a CRLF: keep it for the next block.
            end, hold = (len(block) - 1, b"\r") if block.endswith(b"\r") else (len(block), b"")
            cut = block.rfind(b"\n", 0, end)
            if cut >= 0:  # the common case: one copy of the block's whole lines, the carry in front
                whole = memoryview(block)[: cut + 1]
                out = _normalise(b"".join((carry, whole)) if carry else bytes(whole))
                n = out.count(b"\n") if numbered else 0
                yield Chunk(out, line, continues, n)
                line += n
                carry, continues = block[cut + 1:end] + hold, False
                continue
            data = carry + block[:end]
            cut = data.rfind(b"\n")
            if cut < 0:
                if len(data) < MAX_LINE:
                    carry = data + hold
                    continue
                out = _normalise(data)
                n = out.count(b"\n") if numbered else 0
                yield Chunk(out, line, continues, n)
                line += n
                carry, continues = hold, True
                continue
            out = _normalise(data[: cut + 1])
            n = out.count(b"\n") if numbered else 0
            yield Chunk(out, line, continues, n)
            line += n
            carry, continues = data[cut + 1:] + hold, False
    except OSError as exc:
        raise InputError(f"input cannot be read ({exc.strerror or exc})") from None
    if carry:
        out = _normalise(carry)
        if out:
            out = out if out.endswith(b"\n") else out + b"\n"
            yield Chunk(out, line, continues, out.count(b"\n") if numbered else 0)


def decode_line(raw: bytes) -> str:
    """Decode one line: UTF-8 first, then GBK (Chinese Windows consoles), never failing."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("gbk")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")
