"""TensorRT loggers that record every message as a log line trtdoctor can read, and pass it on.

``CaptureLogger`` works with any object of TensorRT's ``log(severity, msg)`` shape and imports nothing;
``tensorrt_logger`` builds a real ``ILogger`` subclass of whichever TensorRT is installed (``tensorrt``,
else TensorRT for RTX's ``tensorrt_rtx``), since TensorRT insists on its own base class.
"""

from __future__ import annotations

import threading
from typing import Any

_LETTERS = {"INTERNAL_ERROR": "F", "ERROR": "E", "WARNING": "W", "INFO": "I", "VERBOSE": "V"}


def _letter(severity: Any) -> str:
    name = getattr(severity, "name", None) or str(severity).rsplit(".", 1)[-1]
    return _LETTERS.get(name.upper(), "I")


class CaptureLogger:
    """Records every TensorRT message (as '[TRT] [E] msg' lines) and passes it on to another logger."""

    def __init__(self, passthrough: Any = None, *, limit: int = 200_000):
        self.passthrough = passthrough
        self.limit = limit
        self.lines: list[str] = []
        self.dropped = 0
        self._lock = threading.Lock()  # TensorRT may log from its builder threads

    def log(self, severity: Any, msg: str) -> None:
        line = f"[TRT] [{_letter(severity)}] {msg}"
        with self._lock:
            if len(self.lines) >= self.limit:
                # Keep the start (the cause) and the newest lines (the consequences).
                del self.lines[self.limit // 2]
                self.dropped += 1
            self.lines.append(line)
        if self.passthrough is not None:
            self.passthrough.log(severity, msg)

    def text(self) -> str:
        with self._lock:
            return "\n".join(self.lines) + "\n"

    def clear(self) -> None:
        with self._lock:
            self.lines.clear()
            self.dropped = 0


def tensorrt_module() -> Any:
    """The TensorRT Python module installed here: ``tensorrt``, else TensorRT for RTX's ``tensorrt_rtx``.
    Raises ImportError when neither imports."""
    try:
        import tensorrt
    except (ImportError, OSError):  # OSError: bindings whose libraries are missing
        import tensorrt_rtx as tensorrt  # the same API under another name
    return tensorrt


def tensorrt_logger(passthrough: Any = None, min_severity: Any = None, *, module: Any = None) -> Any:
    """A real ``ILogger`` of ``module`` (default: ``tensorrt_module()``) that records like CaptureLogger."""
    trt = module if module is not None else tensorrt_module()

    capture = CaptureLogger(passthrough)
    floor = min_severity if min_severity is not None else trt.Logger.Severity.VERBOSE

    class _Logger(trt.ILogger):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            trt.ILogger.__init__(self)
            self.capture = capture
            self.lines = capture.lines

        def log(self, severity: Any, msg: str) -> None:
            if int(severity) <= int(floor):
                capture.log(severity, msg)

        def text(self) -> str:
            return capture.text()

    return _Logger()
