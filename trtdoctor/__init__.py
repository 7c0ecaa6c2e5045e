"""trtdoctor: reads a failed TensorRT build log and says why it failed and what to do.

    report = trtdoctor.explain("build.log")      # a path, or the log as str or bytes
    report.top.title, report.top.remedy, report.to_dict()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trtdoctor._version import __version__

_EXPORTS = {
    "explain": "trtdoctor.api", "explain_stream": "trtdoctor.api", "InputError": "trtdoctor.read",
    "Report": "trtdoctor.report", "Diagnosis": "trtdoctor.diagnose",
    "CaptureLogger": "trtdoctor.capture", "tensorrt_logger": "trtdoctor.capture",
    "diagnose_failures": "trtdoctor.capture", "BuildFailed": "trtdoctor.capture",
}
__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:
    from trtdoctor.api import explain, explain_stream
    from trtdoctor.capture import BuildFailed, CaptureLogger, diagnose_failures, tensorrt_logger
    from trtdoctor.diagnose import Diagnosis
    from trtdoctor.read import InputError
    from trtdoctor.report import Report


def __getattr__(name: str) -> Any:
    # Imports happen on first use, so `import trtdoctor` stays cheap for the CLI and for callers.
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'trtdoctor' has no attribute {name!r}")
