"""The same error line is fatal or harmless: a later success line of the tool decides."""

from pathlib import Path

import pytest

import trtdoctor

from conftest import CORPUS

PASSED = "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx"
# Builder-stage failures that a build can get past, one real log each.
LOGS = sorted(p for sig in ("tactic-internal-error", "builder-out-of-memory", "cuda-runtime-out-of-memory")
              for p in sorted((CORPUS / sig).glob("*.log"))[:2])


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_error_before_the_success_line_is_a_note(log: Path):
    text = log.read_text(encoding="utf-8", errors="replace")
    failed = trtdoctor.explain(text, classifier=False)
    assert failed.top is not None and failed.top.id == log.parent.name
    recovered = trtdoctor.explain(text.rstrip("\n") + "\n" + PASSED + "\n")
    assert not recovered.diagnoses, [d.id for d in recovered.diagnoses]
    assert recovered.exit_code == 1
    note = next(n for n in recovered.notes if n.id == log.parent.name)
    assert note.recovered and note.line == failed.top.evidence[0].line


@pytest.mark.parametrize("log", LOGS[:2], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_error_after_the_success_line_still_counts(log: Path):
    text = log.read_text(encoding="utf-8", errors="replace")
    report = trtdoctor.explain(PASSED + "\n" + text, classifier=False)
    assert report.top is not None and report.top.id == log.parent.name


# DeepStream's nvinfer rebuilds an engine that does not fit its config and says so when the new one is written.
DEEPSTREAM_BUILT = ("0:00:42.105355211 18902 0xaaaae040f0a0 INFO                 nvinfer gstnvinfer.cpp:684:"
                    "gst_nvinfer_logger:<primary_gie> NvDsInferContext[UID 1]: Info from NvDsInferContextImpl::"
                    "buildModel() <nvdsinfer_context_impl.cpp:2138> [UID = 1]: serialize cuda engine to file: "
                    "/opt/app/model_b2_gpu0_fp16.engine successfully")
DEEPSTREAM_LOGS = sorted((CORPUS / "deepstream-batch-size-exceeds-engine").glob("*.log"))


@pytest.mark.parametrize("log", DEEPSTREAM_LOGS, ids=lambda p: p.name)
def test_a_deepstream_batch_check_before_a_rebuilt_engine_is_a_note(log: Path):
    text = log.read_text(encoding="utf-8", errors="replace")
    failed = trtdoctor.explain(text, classifier=False)
    assert failed.top is not None and failed.top.id == log.parent.name
    rebuilt = trtdoctor.explain(text.rstrip("\n") + "\n" + DEEPSTREAM_BUILT + "\n", classifier=False)
    assert log.parent.name not in [d.id for d in rebuilt.diagnoses]
    assert any(n.id == log.parent.name and n.recovered for n in rebuilt.notes)
    # The rebuilt engine refused by the same check again: the failure stands.
    again = trtdoctor.explain(DEEPSTREAM_BUILT + "\n" + text, classifier=False)
    assert again.top is not None and again.top.id == log.parent.name
