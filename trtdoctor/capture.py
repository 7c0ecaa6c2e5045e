"""Annotating failed builds from Python.

    logger = trtdoctor.CaptureLogger(passthrough=my_logger)       # or trtdoctor.tensorrt_logger()
    builder = trt.Builder(logger)
    with trtdoctor.diagnose_failures(logger) as build:
        plan = builder.build_serialized_network(network, config)
        build.check(plan)            # None -> raises BuildFailed carrying the diagnosis

An exception raised inside the block (a parser error, Torch-TensorRT's or polygraphy's) gets the
diagnosis added as a PEP 678 note, so the traceback shows it; the exception itself is unchanged.
Nothing here imports tensorrt unless ``tensorrt_logger`` is called: ``CaptureLogger`` works with any
object of TensorRT's ``log(severity, msg)`` shape.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from trtdoctor.report import Report
from trtdoctor.trtlog import CaptureLogger, tensorrt_logger

__all__ = ["BuildFailed", "CaptureLogger", "diagnose_failures", "tensorrt_logger"]

class BuildFailed(RuntimeError):
    """A build returned no engine. ``report`` holds the diagnosis of everything TensorRT logged."""

    def __init__(self, report: Report):
        self.report = report
        super().__init__(_summary(report))


def _summary(report: Report) -> str:
    from trtdoctor.render import render

    if not report.diagnoses:
        return "TensorRT build failed; trtdoctor found no known cause in the log:\n" + render(report)
    return "TensorRT build failed.\n" + render(report)


class _LoggingCapture(logging.Handler):
    """Python logging records (Torch-TensorRT, polygraphy's bridge, ONNX Runtime) as log lines."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(f"{record.levelname}:{record.name}:{record.getMessage()}")
        except Exception:  # noqa: BLE001 - a broken record must not break the user's build
            pass


class BuildWatch:
    def __init__(self, logger: Any, options: dict[str, Any]):
        self.logger = logger
        self.options = options
        self.handler = _LoggingCapture()
        self.report: Report | None = None

    def log_text(self, extra: str = "") -> str:
        parts = []
        if self.logger is not None:
            parts.append(self.logger.text() if hasattr(self.logger, "text") else "\n".join(self.logger.lines))
        parts.append("\n".join(self.handler.lines))
        parts.append(extra)
        return "\n".join(p for p in parts if p.strip()) + "\n"

    def diagnose(self, extra: str = "") -> Report:
        from trtdoctor import api

        self.report = api.explain(self.log_text(extra) or "\n", **self.options)
        return self.report

    def check(self, result: Any) -> Any:
        """Raise BuildFailed with the diagnosis when a build returned no engine; return the result otherwise."""
        if result is None:
            raise BuildFailed(self.diagnose())
        return result


@contextmanager
def diagnose_failures(logger: Any = None, *, loggers: tuple[str, ...] = ("torch_tensorrt", "polygraphy",
                                                                         "onnxruntime", "tensorrt"),
                      **options: Any) -> Iterator[BuildWatch]:
    """Diagnose a failed build: failures raised inside get a note; ``check(None)`` raises BuildFailed."""
    watch = BuildWatch(logger, options)
    attached = [logging.getLogger(name) for name in loggers]
    for lg in attached:
        lg.addHandler(watch.handler)
    try:
        yield watch
    except BuildFailed:
        raise
    except Exception as exc:
        report = watch.diagnose("".join(traceback.format_exception_only(type(exc), exc)))
        note = _summary(report)
        if hasattr(exc, "add_note"):
            exc.add_note(note)
        else:  # Python 3.10: keep the PEP 678 attribute so tools that read it still see the diagnosis
            exc.__notes__ = [*getattr(exc, "__notes__", []), note]  # type: ignore[attr-defined]
        exc.trtdoctor_report = report  # type: ignore[attr-defined]
        raise
    finally:
        for lg in attached:
            lg.removeHandler(watch.handler)
