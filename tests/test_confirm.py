"""Confirmation probes on small ONNX models built here, with and without each defect."""

import json
import os
import stat
import sys
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
np = pytest.importorskip("numpy")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from trtdoctor.confirm import CONFIRMED, NOT_APPLICABLE, REFUTED, UNAVAILABLE, confirm  # noqa: E402
from trtdoctor.confirm.gpu import GpuState, Device, probe_gpu  # noqa: E402
from trtdoctor.confirm.model import ModelError, load, probe_model  # noqa: E402

CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"


def save(tmp: Path, nodes, inputs, outputs, inits=(), opset=13, name="m.onnx") -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    path = tmp / name
    onnx.save(model, str(path))
    return path


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def w(name, *shape, dtype=np.float32):
    return numpy_helper.from_array(np.ones(shape, dtype=dtype), name)


def clean_model(tmp):
    return save(tmp, [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
                      helper.make_node("Relu", ["c"], ["y"], name="relu")],
                [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 8, 8])], [w("w", 4, 3, 3, 3)])


def outcomes(findings):
    return {f.probe: f for f in findings}


def test_clean_model_has_no_confirmed_findings(tmp_path):
    found = probe_model(clean_model(tmp_path), (8, 6, 1))
    assert not [f for f in found if f.outcome == CONFIRMED], [f.to_dict() for f in found if f.outcome == CONFIRMED]
    assert outcomes(found)["conv-weights-not-constant"].outcome == REFUTED


def test_conv_with_computed_weights(tmp_path):
    nodes = [helper.make_node("Mul", ["w0", "s"], ["wc"], name="scale_weights"),
             helper.make_node("Conv", ["x", "wc"], ["y"], name="conv_dyn", kernel_shape=[3, 3])]
    path = save(tmp_path, nodes, [vi("x", [1, 3, 8, 8]), vi("s", [1])], [vi("y", [1, 4, 6, 6])], [w("w0", 4, 3, 3, 3)])
    f = outcomes(probe_model(path))["conv-weights-not-constant"]
    assert f.outcome == CONFIRMED and f.nodes == ("conv_dyn",) and f.signature == "myelin-conv-computed-weights"


def test_grouped_conv_after_minus_one_reshape_under_dynamic_axes(tmp_path):
    shape = numpy_helper.from_array(np.array([1, -1, 8, 8], dtype=np.int64), "shape")
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape_m1"),
             helper.make_node("Conv", ["r", "w"], ["y"], name="gconv", group=2, kernel_shape=[3, 3])]
    path = save(tmp_path, nodes, [vi("x", ["batch", 4, 64])], [vi("y", None)], [shape, w("w", 4, 2, 3, 3)])
    f = outcomes(probe_model(path))["grouped-conv-reshape"]
    assert f.outcome == CONFIRMED and f.nodes == ("gconv",) and "gconv <- reshape_m1" in f.detail
    assert f.cause == "grouped-dynamic-reshape"
    static = save(tmp_path, nodes, [vi("x", [1, 4, 64])], [vi("y", None)], [shape, w("w", 4, 2, 3, 3)], name="s.onnx")
    assert outcomes(probe_model(static))["grouped-conv-reshape"].outcome == REFUTED


def test_qdq_gather_on_shape_and_reduce_all(tmp_path):
    nodes = [helper.make_node("QuantizeLinear", ["x", "sc", "zp"], ["q"], name="q0"),
             helper.make_node("DequantizeLinear", ["q", "sc", "zp"], ["dq"], name="dq0"),
             helper.make_node("Shape", ["dq"], ["shp"], name="shape"),
             helper.make_node("Gather", ["shp", "idx"], ["n"], name="gather_size", axis=0),
             helper.make_node("ReduceMean", ["dq"], ["m"], name="mean_all", keepdims=0)]
    inits = [numpy_helper.from_array(np.array(0.1, dtype=np.float32), "sc"),
             numpy_helper.from_array(np.array(0, dtype=np.int8), "zp"),
             numpy_helper.from_array(np.array(0, dtype=np.int64), "idx")]
    path = save(tmp_path, nodes, [vi("x", [1, 3, 4, 4])], [vi("n", []), vi("m", [])], inits)
    found = outcomes(probe_model(path))
    assert found["qdq-nodes"].outcome == CONFIRMED and set(found["qdq-nodes"].nodes) == {"q0", "dq0"}
    assert found["gather-reduce-axes"].outcome == CONFIRMED
    assert found["gather-reduce-axes"].nodes == ("gather_size", "mean_all")
    assert found["int64-initializers"].outcome == CONFIRMED and found["int64-initializers"].nodes == ("idx",)


def test_pool_kernel_rank_mismatch(tmp_path):
    bad = save(tmp_path, [helper.make_node("MaxPool", ["x"], ["y"], name="pool3d", kernel_shape=[1, 2, 2],
                                           strides=[1, 2, 2])], [vi("x", [1, 3, 8, 8])], [vi("y", None)])
    found = outcomes(probe_model(bad))["pool-rank"]
    assert found.outcome == CONFIRMED and found.nodes == ("pool3d",) and "3 dims on a 4-D input" in found.detail
    good = save(tmp_path, [helper.make_node("MaxPool", ["x"], ["y"], name="pool2d", kernel_shape=[2, 2])],
                [vi("x", [1, 3, 8, 8])], [vi("y", None)], name="g.onnx")
    assert outcomes(probe_model(good))["pool-rank"].outcome == REFUTED


def test_batchnorm_through_unsqueeze(tmp_path):
    axes = numpy_helper.from_array(np.array([2], dtype=np.int64), "axes")
    nodes = [helper.make_node("Unsqueeze", ["x", "axes"], ["u"], name="unsq"),
             helper.make_node("BatchNormalization", ["u", "g", "b", "mu", "var"], ["y"], name="bn1d")]
    path = save(tmp_path, nodes, [vi("x", [1, 4])], [vi("y", None)],
                [axes, w("g", 4), w("b", 4), w("mu", 4), w("var", 4)])
    f = outcomes(probe_model(path))["batchnorm-unsqueeze"]
    assert f.outcome == CONFIRMED and f.nodes == ("bn1d",)


def test_opset_and_operators_against_a_tensorrt_version(tmp_path):
    nodes = [helper.make_node("NonZero", ["x"], ["y"], name="nz")]
    path = save(tmp_path, nodes, [vi("x", [4])], [vi("y", None, TensorProto.INT64)], opset=17)
    old = outcomes(probe_model(path, (8, 2, 1)))
    assert old["opset-support"].outcome == CONFIRMED and old["opset-support"].data["max_opset"] == 13
    assert old["operator-support"].outcome == CONFIRMED and "NonZero" in old["operator-support"].data["operators"]
    new = outcomes(probe_model(path, (8, 6, 1)))
    assert new["opset-support"].outcome == REFUTED and new["operator-support"].outcome == REFUTED
    assert outcomes(probe_model(path))["opset-support"].outcome == NOT_APPLICABLE


def test_external_data_missing_and_path_escape(tmp_path):
    t = w("big", 4, 3, 3, 3)
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value="../outside.bin")
    nodes = [helper.make_node("Conv", ["x", "big"], ["y"], name="conv", kernel_shape=[3, 3])]
    path = save(tmp_path, nodes, [vi("x", [1, 3, 8, 8])], [vi("y", None)], [t])
    f = outcomes(probe_model(path))["external-data"]
    assert f.outcome == CONFIRMED and "refused" in f.nodes[0]
    assert not (tmp_path.parent / "outside.bin").exists()


@pytest.mark.parametrize("content,expected", [(b"", "not"), (b"\x08\x07garbage" * 10, "not"), (None, "no such")])
def test_bad_model_files_give_one_line_error(tmp_path, content, expected):
    path = tmp_path / "bad.onnx"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ModelError) as err:
        load(path)
    assert expected in str(err.value) and "\n" not in str(err.value)


def test_truncated_model_is_refused(tmp_path):
    data = clean_model(tmp_path).read_bytes()
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError):
        load(cut)


def test_gpu_probe_decides_mempool_support_from_the_device_state():
    without = GpuState("11.4", (Device(0, "vGPU", "7.5", 16 << 30, None, False),))
    with_pools = GpuState("12.4", (Device(0, "H100", "9.0", 80 << 30, 70 << 30, True),))
    assert outcomes(probe_gpu(without))["gpu-mempool-unsupported"].outcome == CONFIRMED
    assert outcomes(probe_gpu(with_pools))["gpu-mempool-unsupported"].outcome == REFUTED
    assert outcomes(probe_gpu(GpuState(None, (), "no CUDA driver")))["gpu-mempool-unsupported"].outcome == UNAVAILABLE


def test_real_gpu_probe_or_skip():
    from trtdoctor.confirm.gpu import read_gpu

    state = read_gpu()
    if not state.devices:
        pytest.skip(f"no GPU here: {state.error}")
    dev = state.devices[0]
    assert dev.total_memory > 0 and "." in dev.compute_capability and state.driver


def test_rebuild_without_any_backend_says_so(tmp_path, monkeypatch):
    from trtdoctor.confirm import rebuild as rebuild_mod

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(rebuild_mod, "_module", lambda how: None)
    result = confirm(clean_model(tmp_path), gpu=False, onnxruntime=False, rebuild=True)
    assert result.rebuild.ran is False and result.rebuild.how is None
    assert "not available" in result.rebuild.reason and "trtdoctor[rebuild]" in result.rebuild.reason


def test_rebuild_plumbing_with_a_recorded_log(tmp_path, monkeypatch):
    """A stand-in trtexec replays a real corpus log; the rebuild's log is explained and compared."""
    from trtdoctor.confirm.rebuild import rebuild
    from conftest import CORPUS

    logs = sorted(p for p in CORPUS.glob("*/*.log") if p.parent.name != "negative")
    if not logs:
        pytest.skip("no corpus")
    recorded = logs[0]
    fake = tmp_path / "trtexec"
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write(open({str(recorded)!r}, encoding='utf-8', "
                    f"errors='replace').read())\nsys.stdout.write(' '.join(sys.argv[1:]) + '\\n')\nsys.exit(1)\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    model = clean_model(tmp_path)
    result = rebuild(model, flags=["--fp16"], shapes={"x": ([1, 3, 8, 8], [2, 3, 8, 8], [4, 3, 8, 8])}, prefer="trtexec")
    assert result.ran and result.how == "trtexec" and result.exit_code == 1
    assert result.command[1:3] == [f"--onnx={model}", "--verbose"] and "--fp16" in result.command
    assert "--minShapes=x:1x3x8x8" in result.command and "--maxShapes=x:4x3x8x8" in result.log
    from trtdoctor import api

    assert api.explain(result.log, classifier=False).diagnoses[0].id == recorded.parent.name


def test_axis_out_of_range_is_confirmed_and_its_absence_never_refutes(tmp_path):
    """A ReduceMean whose axes attribute is out of range: the axis probe names it; the Gather/reduce-all
    probe, which tests another condition, does not apply and refutes nothing."""
    bad = save(tmp_path, [helper.make_node("ReduceMean", ["x"], ["y"], name="mean_axis5", axes=[5], keepdims=1)],
               [vi("x", [1, 3, 4, 4])], [vi("y", None)])
    found = outcomes(probe_model(bad))
    assert found["axis-range"].outcome == CONFIRMED and found["axis-range"].nodes == ("mean_axis5",)
    assert "axis 5 on a 4-D input" in found["axis-range"].detail
    assert found["gather-reduce-axes"].outcome == NOT_APPLICABLE
    good = save(tmp_path, [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=-1)],
                [vi("x", [1, 3, 4, 4])], [vi("y", None)], name="g.onnx")
    found = outcomes(probe_model(good))
    assert found["axis-range"].outcome == NOT_APPLICABLE and found["gather-reduce-axes"].outcome == NOT_APPLICABLE


def test_a_probe_of_one_cause_never_refutes_the_signature(tmp_path):
    from trtdoctor import api
    from trtdoctor.confirm import Confirmation, attach
    from trtdoctor.confirm.findings import Finding

    log = (CORPUS_DIR / "conv-kernel-weight-count").glob("*.log")
    report = next(r for r in (api.explain(p, classifier=False) for p in sorted(log))
                  if r.top and r.top.id == "conv-kernel-weight-count")
    kb, _ = api.knowledge_base()
    refuted_cause = Finding("grouped-conv-reshape", "conv-kernel-weight-count", REFUTED, "none",
                            cause="grouped-dynamic-reshape")
    attach(report, Confirmation([refuted_cause]), kb)
    assert report.confirmation["status"]["conv-kernel-weight-count"] == "unchecked"
    assert report.top.selected_cause is None or report.top.selected_cause.id != "grouped-dynamic-reshape"
