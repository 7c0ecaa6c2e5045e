"""The same error line is fatal or harmless: a later success line of the tool decides."""

from pathlib import Path

import pytest

import trtdoctor

from conftest import CORPUS

PASSED = "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx"
# DeepStream's nvinfer rebuilds an engine that does not fit its config and says so when the new one is written.
DEEPSTREAM_BUILT = ("0:00:42.105355211 18902 0xaaaae040f0a0 INFO                 nvinfer gstnvinfer.cpp:684:"
                    "gst_nvinfer_logger:<primary_gie> NvDsInferContext[UID 1]: Info from NvDsInferContextImpl::"
                    "buildModel() <nvdsinfer_context_impl.cpp:2138> [UID = 1]: serialize cuda engine to file: "
                    "/opt/app/model_b2_gpu0_fp16.engine successfully")
# Failures that a run can get past, one real log each, with the success line of the tool that printed them:
# builder-stage failures and trtexec's verdict; DeepStream's batch check and nvinfer's rebuilt engine.
TRTEXEC = [(p, PASSED) for sig in ("tactic-internal-error", "builder-out-of-memory", "cuda-runtime-out-of-memory")
           for p in sorted((CORPUS / sig).glob("*.log"))[:2]]
DEEPSTREAM = [(p, DEEPSTREAM_BUILT) for p in sorted((CORPUS / "deepstream-batch-size-exceeds-engine").glob("*.log"))]


def _ids(cases) -> list[str]:
    return [f"{log.parent.name}/{log.name}" for log, _ in cases]


@pytest.mark.parametrize("log,success", TRTEXEC + DEEPSTREAM, ids=_ids(TRTEXEC + DEEPSTREAM))
def test_an_error_before_the_success_line_is_a_note(log: Path, success: str):
    text = log.read_text(encoding="utf-8", errors="replace")
    failed = trtdoctor.explain(text, classifier=False)
    assert failed.top is not None and failed.top.id == log.parent.name
    recovered = trtdoctor.explain(text.rstrip("\n") + "\n" + success + "\n")
    assert not recovered.diagnoses, [d.id for d in recovered.diagnoses]
    assert recovered.exit_code == 1
    note = next(n for n in recovered.notes if n.id == log.parent.name)
    assert note.recovered and note.line == failed.top.evidence[0].line


# For DeepStream: the rebuilt engine refused by the same check again.
@pytest.mark.parametrize("log,success", TRTEXEC[:2] + DEEPSTREAM, ids=_ids(TRTEXEC[:2] + DEEPSTREAM))
def test_an_error_after_the_success_line_still_counts(log: Path, success: str):
    text = log.read_text(encoding="utf-8", errors="replace")
    report = trtdoctor.explain(success + "\n" + text, classifier=False)
    assert report.top is not None and report.top.id == log.parent.name
