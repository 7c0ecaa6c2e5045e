"""Hostile and odd inputs through the whole flow: each ends in a report or an InputError, quickly."""

import codecs
import io
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import trtdoctor
from trtdoctor.api import explain_stream
from trtdoctor.read import InputError

from conftest import CORPUS

def _error_examples():
    from trtdoctor.api import knowledge_base

    kb, _ = knowledge_base()
    return [p for p in sorted(CORPUS.glob("*/*.log"))
            if kb.get(p.parent.name) is not None and kb.get(p.parent.name).kind == "error"
            and len(p.read_bytes()) > 200]


EXAMPLES = _error_examples()


def outcome(data: bytes):
    start = time.perf_counter()
    try:
        report = explain_stream(io.BytesIO(data), classifier=False)
        result = report.diagnoses[0].id if report.diagnoses else "unknown"
    except InputError as exc:
        assert "\n" not in str(exc)
        result = "input-error"
    assert time.perf_counter() - start < 20
    return result


def real_log() -> bytes:
    if not EXAMPLES:
        pytest.skip("no corpus")
    return EXAMPLES[0].read_bytes()


def expected_id() -> str:
    return EXAMPLES[0].parent.name


@pytest.mark.parametrize("transform", [
    lambda b: b.decode("utf-8", "replace").encode("utf-16"),
    lambda b: b.decode("utf-8", "replace").encode("utf-16-le"),
    lambda b: codecs.BOM_UTF8 + b,
    lambda b: b.replace(b"\n", b"\r\n"),
    lambda b: b.replace(b"\n", b"\r"),
    lambda b: b"\x1b[0m" + b.replace(b"\n", b"\x1b[0m\n\x1b[31m"),
    lambda b: b"garbage \xff\xfe\xfa \xc3\x28\n" * 3 + b,                  # invalid UTF-8 around it
    lambda b: "前置的中文说明行\n".encode("gbk") + b,                       # GBK console text around it
    lambda b: b"x" * (3 << 20) + b"\n" + b,                                 # a 3 MB line before the log
    lambda b: b"\n".join(l + b"\n[pid 2] unrelated output" for l in b.split(b"\n")),  # interleaved processes
], ids=["utf16-bom", "utf16-nobom", "utf8-bom", "crlf", "bare-cr", "ansi", "invalid-utf8", "gbk", "huge-line", "interleaved"])
def test_transformed_real_log_keeps_its_diagnosis(transform):
    assert outcome(transform(real_log())) == expected_id()


def test_log_cut_mid_line_still_reads():
    data = real_log()
    assert outcome(data[: max(len(data) - 7, 1)]) in (expected_id(), "unknown")


@pytest.mark.parametrize("data", [b"", b"\n\n\n", b"\x00" * 100000, bytes(range(256)) * 1000,
                                  b"\x89PNG\r\n\x1a\n" + bytes(5000)])
def test_empty_and_binary_are_input_errors(data):
    assert outcome(data) == "input-error"


def test_single_50mb_line_in_bounded_time():
    assert outcome(b"[E] " + b"a" * (50 << 20) + b"\n") in ("unknown", "input-error")


def test_many_error_lines_are_bounded():
    data = b"".join(b"[E] Error Code %d: failed thing %d\n" % (i % 9, i) for i in range(200000))
    start = time.perf_counter()
    report = explain_stream(io.BytesIO(data), classifier=False)
    assert time.perf_counter() - start < 30
    assert report.lines == 200000


def test_directory_and_missing_paths(tmp_path):
    with pytest.raises(InputError, match="directory"):
        trtdoctor.explain(tmp_path)
    with pytest.raises(InputError, match="no such file"):
        trtdoctor.explain(tmp_path / "nope.log")


FRAGMENTS = st.sampled_from([
    "[E] [TRT] ", "[TRT] [E] ", "ERROR: ", "While parsing node number 3 [Conv -> \"y\"]:", "Assertion failed: ",
    "kernel weights has count ", "Error Code 4: Internal Error (", "[TensorRT v8601]", "\n", "\r\n", "\x1b[31m",
    "No importer registered for op: ", "1474560", " but ", " was expected", "(((((", "\\", "é", "\x00", "Myelin",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(FRAGMENTS, st.text(max_size=30)), max_size=60))
def test_fuzzed_logs_never_crash(parts):
    outcome("".join(parts).encode("utf-8", "surrogatepass"))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000))
def test_fuzzed_bytes_never_crash(data):
    outcome(data)
