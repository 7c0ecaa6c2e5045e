"""Meeting users where builds fail: wrap a build command, or pass a piped log through.

``trtdoctor run -- trtexec ...`` runs the command without a shell, streams its output live, keeps a
copy on disk (never in memory), diagnoses the output while it streams, and returns the command's own
exit code. ``trtexec ... 2>&1 | trtdoctor explain --tee`` passes the log through unchanged.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, BinaryIO

from trtdoctor import api
from trtdoctor.report import Report

_BLOCK = 64 << 10


class TeeReader:
    """A binary stream that reads a file descriptor as data arrives and copies every byte to sinks."""

    def __init__(self, fd: int, sinks: Sequence[BinaryIO]):
        self.fd = fd
        self.sinks = list(sinks)

    def read(self, size: int = -1) -> bytes:
        data = os.read(self.fd, _BLOCK if size < 0 else min(size, _BLOCK))
        for sink in list(self.sinks):
            try:
                sink.write(data)
                sink.flush()
            except BrokenPipeError:
                self.sinks.remove(sink)  # the reader of our output left; keep reading the input
        return data

    def drain(self) -> None:
        """Copy whatever the source still has (the reader stops early on binary or empty input)."""
        while self.read():
            pass


def tee_stdin(**options: Any) -> Report:
    """Explain standard input while copying it, unchanged, to standard output."""
    reader = TeeReader(sys.stdin.fileno(), [sys.stdout.buffer])
    try:
        return api.explain_stream(reader, source="<stdin>", **options)  # type: ignore[arg-type]
    finally:
        reader.drain()


def run(argv: Sequence[str], *, log_path: str | None = None, **options: Any) -> tuple[int, Report | None, str]:
    """Run a build command; return (its exit code, the report or None when it succeeded, where its log is).

    Ctrl-C reaches the child through the terminal; a SIGINT or SIGTERM sent to trtdoctor alone is
    forwarded to it, and the diagnosis of whatever it printed still follows.
    """
    if not argv:
        raise ValueError("no command given")
    keep = open(log_path, "wb") if log_path else tempfile.NamedTemporaryFile(  # noqa: SIM115
        prefix="trtdoctor-", suffix=".log", delete=False)
    try:
        child = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        keep.close()
        os.unlink(keep.name)
        raise api.InputError(f"{argv[0]}: command not found") from None
    except PermissionError:
        keep.close()
        os.unlink(keep.name)
        raise api.InputError(f"{argv[0]}: permission denied") from None

    def forward(signum: int, _frame: object) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    reader = TeeReader(child.stdout.fileno(), [sys.stdout.buffer, keep])  # type: ignore[union-attr]
    report: Report | None = None
    try:
        try:
            report = api.explain_stream(reader, source=" ".join(argv), **options)  # type: ignore[arg-type]
        except api.InputError:
            report = None  # no output at all, or binary output: the exit code still tells
        reader.drain()
        code = child.wait()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        keep.close()
    if code < 0:
        code = 128 - code  # the shell's convention for a child killed by a signal
    if code == 0:
        if not log_path:
            os.unlink(keep.name)
        return code, None, log_path or ""
    return code, report, keep.name
