"""Annotating failed builds from Python, with an object of TensorRT's logger shape (no tensorrt needed)."""

import enum
import sys

import pytest

import trtdoctor
from trtdoctor.capture import BuildFailed, CaptureLogger, diagnose_failures

from conftest import CORPUS


class Severity(enum.IntEnum):  # the shape of tensorrt.Logger.Severity
    INTERNAL_ERROR = 0
    ERROR = 1
    WARNING = 2
    INFO = 3
    VERBOSE = 4


class UserLogger:
    def __init__(self):
        self.seen = []

    def log(self, severity, msg):
        self.seen.append((severity, msg))


def messages_of_a_real_failure():
    from trtdoctor.api import knowledge_base
    from trtdoctor.lines import parse_line

    kb, _ = knowledge_base()
    for log in sorted(CORPUS.glob("*/*.log")):
        sig = kb.get(log.parent.name)
        if sig is None or sig.kind != "error":
            continue
        lines = [parse_line(i, t) for i, t in enumerate(log.read_text(encoding="utf-8", errors="replace").splitlines(), 1)]
        return sig.id, [(Severity.ERROR if l.severity == "error" else Severity.INFO, l.message) for l in lines]
    pytest.skip("no corpus")


def test_capture_logger_records_and_passes_on():
    user = UserLogger()
    logger = CaptureLogger(passthrough=user)
    logger.log(Severity.ERROR, "something broke")
    logger.log(Severity.WARNING, "careful")
    assert logger.lines == ["[TRT] [E] something broke", "[TRT] [W] careful"]
    assert user.seen == [(Severity.ERROR, "something broke"), (Severity.WARNING, "careful")]


def test_capture_logger_is_bounded():
    logger = CaptureLogger(limit=10)
    for i in range(100):
        logger.log(Severity.INFO, f"m{i}")
    assert len(logger.lines) == 10 and logger.lines[0] == "[TRT] [I] m0" and logger.lines[-1] == "[TRT] [I] m99"


def test_build_returning_no_engine_raises_with_the_diagnosis():
    sig_id, messages = messages_of_a_real_failure()
    logger = CaptureLogger()
    with pytest.raises(BuildFailed) as err:
        with diagnose_failures(logger, classifier=False) as build:
            for severity, msg in messages:
                logger.log(severity, msg)
            build.check(None)
    assert err.value.report.top.id == sig_id
    assert err.value.report.top.title in str(err.value)


def test_exception_inside_gets_a_note_and_is_reraised_unchanged():
    sig_id, messages = messages_of_a_real_failure()
    logger = CaptureLogger()
    original = RuntimeError("parser returned False")
    with pytest.raises(RuntimeError) as err:
        with diagnose_failures(logger, classifier=False):
            for severity, msg in messages:
                logger.log(severity, msg)
            raise original
    assert err.value is original
    assert any(sig_id in n or "TensorRT build failed" in n for n in err.value.__notes__)
    assert err.value.trtdoctor_report.top.id == sig_id


def test_python_logging_of_wrappers_is_captured():
    import logging

    with diagnose_failures(None, classifier=False) as build:
        logging.getLogger("torch_tensorrt.dynamo").error("conversion of node foo failed")
    assert "ERROR:torch_tensorrt.dynamo:conversion of node foo failed" in build.log_text()


def test_success_passes_through():
    with diagnose_failures(CaptureLogger()) as build:
        assert build.check(b"engine bytes") == b"engine bytes"


def test_no_tensorrt_import_on_these_paths():
    assert "tensorrt" not in sys.modules
