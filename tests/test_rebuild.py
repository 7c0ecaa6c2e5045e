"""Rebuilds on a real TensorRT (TensorRT for RTX, whose builder runs on the CPU), and annotating a real build
from Python."""

import json
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import trtdoctor  # noqa: E402
from trtdoctor.confirm import CONFIRMED, REFUTED, confirm  # noqa: E402
from trtdoctor.confirm.rebuild import from_command, rebuild  # noqa: E402

from conftest import CORPUS  # noqa: E402


def save(path: Path, nodes, inputs, outputs, inits=()) -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def clean(tmp: Path) -> Path:
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    return save(tmp / "clean.onnx", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])


def dynamic(tmp: Path) -> Path:
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    return save(tmp / "dynamic.onnx", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 8, 8])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])


def test_flags_and_shapes_come_from_the_logged_trtexec_command():
    flags, shapes = from_command("trtexec --onnx=m.onnx --fp16 --saveEngine=m.plan --useDLACore=0 "
                                 "--minShapes=images:1x3x640x640 --optShapes=images:4x3x640x640 "
                                 "--maxShapes=images:8x3x640x640 --iterations=10")
    assert flags == ["--fp16", "--useDLACore=0"]
    assert shapes == {"images": [[1, 3, 640, 640], [4, 3, 640, 640], [8, 3, 640, 640]]}
    assert from_command("trtexec --onnx=m.onnx --shapes='input:0':2x3") == ([], {"input:0": [[2, 3]] * 3})
    assert from_command(None) == ([], None)


def test_clean_model_builds_on_tensorrt_rtx(rtx, tmp_path):
    result = confirm(clean(tmp_path), gpu=False, onnxruntime=False, rebuild=True, backend="tensorrt-rtx")
    rb = result.rebuild
    assert rb.ran and rb.how == "tensorrt-rtx" and rb.exit_code == 0 and rb.diagnosis is None
    assert rb.version == rtx.__version__ and rb.backend == f"TensorRT-RTX {rtx.__version__}"
    assert any("DLA" in limit for limit in rb.limits), "the report says what TensorRT-RTX cannot reproduce"
    assert "the build succeeded" in rb.reason


def test_cli_confirm_rebuild_says_the_build_succeeded(rtx, tmp_path):
    from typer.testing import CliRunner

    from trtdoctor.cli import app

    out = CliRunner().invoke(app, ["confirm", str(clean(tmp_path)), "--no-gpu", "--rebuild"])
    assert f"the build succeeded on TensorRT-RTX {rtx.__version__}" in out.output, out.output


def test_a_failing_build_is_reproduced_and_the_diagnosis_confirmed(rtx, tmp_path):
    """A real log from a public thread (a dynamic input without a profile), the model that has the same
    defect, and a rebuild that fails the same way: confirmed, with the backend and its version named."""
    log = next(p for p in sorted((CORPUS / "dynamic-input-no-profile").glob("*.log"))
               if trtdoctor.explain(p, classifier=False).top.id == "dynamic-input-no-profile")
    from trtdoctor.confirm import confirm_report

    report = trtdoctor.explain(log, classifier=False)
    confirm_report(report, dynamic(tmp_path), gpu=False, rebuild=True, backend="tensorrt-rtx", default_shapes=False)
    rebuilt = report.confirmation["rebuild"]
    assert rebuilt["backend"] == f"TensorRT-RTX {rtx.__version__}" and rebuilt["exit_code"] == 1
    assert rebuilt["diagnosis"] == "dynamic-input-no-profile" and rebuilt["outcome"] == CONFIRMED
    assert report.confirmation["status"]["dynamic-input-no-profile"] == CONFIRMED
    from trtdoctor.render import render

    text = render(report, "text")
    assert f"Rebuild: ran on TensorRT-RTX {rtx.__version__}" in text and "fails the same way" in text
    assert json.loads(render(report, "json"))["confirmation"]["rebuild"]["outcome"] == CONFIRMED


def test_a_rebuild_that_succeeds_refutes(rtx, tmp_path):
    log = next(p for p in sorted((CORPUS / "dynamic-input-no-profile").glob("*.log"))
               if trtdoctor.explain(p, classifier=False).top.id == "dynamic-input-no-profile")
    from trtdoctor.confirm import confirm_report

    report = trtdoctor.explain(log, classifier=False)
    confirm_report(report, dynamic(tmp_path), gpu=False, rebuild=True, backend="tensorrt-rtx",
                   shapes={"x": ([1, 3, 8, 8], [2, 3, 8, 8], [4, 3, 8, 8])})
    rebuilt = report.confirmation["rebuild"]
    assert rebuilt["exit_code"] == 0 and rebuilt["outcome"] == REFUTED and rebuilt["shapes"]["x"][2] == [4, 3, 8, 8]
    assert report.confirmation["status"]["dynamic-input-no-profile"] == REFUTED
    assert "does not reproduce" in rebuilt["verdict"]


def test_cli_explain_with_model_and_rebuild(rtx, tmp_path):
    from typer.testing import CliRunner

    from trtdoctor.cli import app

    # The log of the real failing build, then explained with the model and rebuilt: confirmed.
    first = rebuild(dynamic(tmp_path), prefer="tensorrt-rtx")
    log = tmp_path / "build.log"
    log.write_text(first.log, encoding="utf-8")
    out = CliRunner().invoke(app, ["explain", str(log), "--model", str(tmp_path / "dynamic.onnx"), "--rebuild",
                                   "--no-gpu", "--no-colour"])
    assert out.exit_code == 0, out.output
    assert "dynamic-input-no-profile" in out.output and f"TensorRT-RTX {rtx.__version__}" in out.output
    assert "status: dynamic-input-no-profile confirmed" in out.output


def test_rebuild_needs_a_model():
    from typer.testing import CliRunner

    from trtdoctor.cli import app

    out = CliRunner().invoke(app, ["explain", str(next((CORPUS / "dynamic-input-no-profile").glob("*.log"))),
                                   "--rebuild"])
    assert out.exit_code == 2 and "--rebuild needs --model" in out.output


# -- annotating a real build from Python

def test_capture_logger_passes_every_message_on_and_the_failure_is_diagnosed(rtx, tmp_path):
    class Counting(rtx.ILogger):
        def __init__(self):
            rtx.ILogger.__init__(self)
            self.messages = []

        def log(self, severity, msg):
            self.messages.append(msg)

    downstream = Counting()
    logger = trtdoctor.tensorrt_logger(passthrough=downstream)
    builder = rtx.Builder(logger)
    network = builder.create_network(0)
    parser = rtx.OnnxParser(network, logger)
    assert parser.parse_from_file(str(dynamic(tmp_path)))
    config = builder.create_builder_config()
    with pytest.raises(trtdoctor.BuildFailed) as failed:
        with trtdoctor.diagnose_failures(logger, classifier=False) as build:
            build.check(builder.build_serialized_network(network, config))
    assert failed.value.report.top.id == "dynamic-input-no-profile"
    assert downstream.messages and len(downstream.messages) == len(logger.lines), "every message is passed on"
    assert "dynamic-input-no-profile" in str(failed.value)


def test_an_exception_raised_in_a_real_build_gets_the_diagnosis_as_a_note(rtx, tmp_path):
    shape = numpy_helper.from_array(np.array([1, 100], np.int64), "shape")
    model = save(tmp_path / "reshape.onnx", [helper.make_node("Reshape", ["x", "shape"], ["y"], name="bad_reshape")],
                 [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [shape])
    logger = trtdoctor.tensorrt_logger()
    network = rtx.Builder(logger).create_network(0)
    parser = rtx.OnnxParser(network, logger)
    with pytest.raises(RuntimeError) as raised:
        with trtdoctor.diagnose_failures(logger, classifier=False):
            if not parser.parse_from_file(str(model)):
                raise RuntimeError("the ONNX parser failed")
    report = raised.value.trtdoctor_report
    assert report.top.id == "shuffle-reshape-volume", [d.id for d in report.diagnoses]
    assert any("shuffle-reshape-volume" in note for note in raised.value.__notes__)
