"""One decoded log line, with the severity and the source that its prefixes announce.

TensorRT's tools decorate lines differently:
  trtexec        ``[11/22/2026-10:00:00] [E] [TRT] ...``
  Python API     ``[TRT] [E] ...`` or ``[11/22/2026-10:00:00] [TRT] [E] ...``; TensorRT 7: ``[TensorRT] ERROR: ...``
  polygraphy     ``[E] ...``
  Torch-TensorRT ``ERROR: [Torch-TensorRT] - ...`` or Python logging's ``ERROR:torch_tensorrt...:``
  ONNX Runtime   ``2023-01-01 10:00:00.0 [E:onnxruntime:, ...]``
  glog / absl    ``E0311 14:15:13.700653 1 logging.cc:43] ...`` (Triton, Paddle), ``2023-01-27 14:05:53.348636: W
                 tensorflow/...cc:64] ...`` (TensorFlow, TF-TRT)
  Python         ``RuntimeError: ...`` at the end of a traceback
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LETTER = {"E": "error", "F": "error", "W": "warning", "I": "info", "V": "verbose"}
_WORD = {"ERROR": "error", "INTERNAL_ERROR": "error", "FATAL": "error", "CRITICAL": "error",
         "WARNING": "warning", "WARN": "warning", "INFO": "info", "VERBOSE": "verbose", "DEBUG": "verbose"}

_TIMESTAMP = re.compile(r"^\[\d{1,2}/\d{1,2}/\d{4}-\d{1,2}:\d{2}:\d{2}\]\s*")
_BRACKET = re.compile(r"^\[(E|W|I|V|F)\]\s*")
_TRT_TAG = re.compile(r"^\[(TRT|TensorRT)\]\s*")
_WORD_PREFIX = re.compile(r"^(ERROR|INTERNAL_ERROR|WARNING|WARN|INFO|VERBOSE|DEBUG|FATAL|CRITICAL)"
                          r"(?::|\s*-)\s*(?:\[?(Torch-TensorRT|torch_tensorrt[\w.]*)\]?\s*[-:]?\s*)?")
_ORT = re.compile(r"\[(E|W|I|V|F):onnxruntime:")
_GLOG = re.compile(r"^(?:([EWIF])\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s|"
                   r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d+: ([EWIF]) )\S+:\d+\]\s*")
_PY_EXC = re.compile(r"^(?:[\w.]+\.)?(\w*(?:Error|Exception|Warning)|AssertionError):\s")


@dataclass(frozen=True, slots=True)
class LogLine:
    number: int           # 1-based line number in the input
    text: str             # the whole line, normalised (no ANSI, no line end)
    severity: str | None  # 'error' | 'warning' | 'info' | 'verbose' | None
    source: str | None    # 'TRT' | 'Torch-TensorRT' | 'onnxruntime' | 'python' | None
    message: str          # the text after the prefixes


def parse_line(number: int, text: str) -> LogLine:
    rest = text.strip()
    severity: str | None = None
    source: str | None = None
    rest = _TIMESTAMP.sub("", rest, count=1)
    # trtexec writes the severity first, the Python API the [TRT] tag first: accept both orders.
    for _ in range(2):
        m = _BRACKET.match(rest)
        if m:
            severity = severity or _LETTER[m.group(1)]
            rest = rest[m.end():]
            continue
        m = _TRT_TAG.match(rest)
        if m:
            source = "TRT"
            rest = rest[m.end():]
            continue
        break
    m = _WORD_PREFIX.match(rest)
    if m:
        severity = severity or _WORD[m.group(1)]
        if m.group(2):
            source = "Torch-TensorRT"
        rest = rest[m.end():]
    if severity is None:
        m = _ORT.search(rest[:80])
        if m:
            severity, source = _LETTER[m.group(1)], "onnxruntime"
            end = rest.find("]", m.end())
            rest = rest[end + 1:].strip() if end >= 0 else rest
    if severity is None:
        m = _GLOG.match(rest)
        if m:
            severity = _LETTER[m.group(1) or m.group(2)]
            rest = rest[m.end():]
    if severity is None:
        m = _PY_EXC.match(rest)
        if m:
            severity = "warning" if m.group(1).endswith("Warning") else "error"
            source = "python"
    return LogLine(number, text, severity, source, rest.strip())
