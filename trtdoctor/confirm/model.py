"""Model probes: look in the ONNX graph for the structure behind a signature, and name the nodes.

The model is loaded without its external weights (a probe reads the graph, not the numbers), so even a
model of many gigabytes loads quickly, and external-data paths are only checked, never followed out
of the model's own folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trtdoctor import versions
from trtdoctor.confirm.findings import CONFIRMED, NOT_APPLICABLE, REFUTED, UNAVAILABLE, Finding

PROTOBUF_LIMIT = 2**31 - 1
_SUPPORT = Path(__file__).with_name("onnx_support.json")


class ModelError(Exception):
    """The file is not an ONNX model that can be probed. One line, for the user."""


@dataclass
class Graph:
    """The parts of an ONNX model the probes read, indexed once."""

    path: Path
    proto: Any
    nodes: list[Any]
    producer: dict[str, Any]          # tensor name -> node producing it
    consumers: dict[str, list[Any]]   # tensor name -> nodes reading it
    initializers: dict[str, Any]
    constants: set[str]               # tensors that are initializers or Constant outputs
    dynamic_inputs: list[str]
    opset: int | None
    size: int

    def name(self, node: Any) -> str:
        return node.name or f"{node.op_type}({', '.join(node.output)})"


def load(path: str | os.PathLike[str]) -> Graph:
    try:
        import onnx
    except ImportError:
        raise ModelError("probing a model needs the 'onnx' package: pip install 'trtdoctor[onnx]'") from None
    from google.protobuf.message import DecodeError

    p = Path(path)
    if not p.is_file():
        raise ModelError(f"{p}: no such model file")
    size = p.stat().st_size
    if size > PROTOBUF_LIMIT:
        raise ModelError(f"{p}: {size} bytes is over protobuf's 2 GB limit for one ONNX file; save the weights "
                         "as external data (onnx.save(..., save_as_external_data=True))")
    try:
        proto = onnx.load(str(p), load_external_data=False)
    except (DecodeError, ValueError, RuntimeError) as exc:
        raise ModelError(f"{p}: not a readable ONNX model ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    if not proto.graph.node and not proto.graph.input:
        raise ModelError(f"{p}: not an ONNX model (empty or truncated graph)")
    nodes = list(proto.graph.node)
    producer = {out: n for n in nodes for out in n.output}
    consumers: dict[str, list[Any]] = {}
    for n in nodes:
        for inp in n.input:
            consumers.setdefault(inp, []).append(n)
    inits = {i.name: i for i in proto.graph.initializer}
    constants = set(inits) | {n.output[0] for n in nodes if n.op_type == "Constant" and n.output}
    init_names = set(inits)
    dynamic = []
    for inp in proto.graph.input:
        if inp.name in init_names:
            continue
        dims = inp.type.tensor_type.shape.dim
        if any(d.dim_param or d.dim_value <= 0 for d in dims):
            dynamic.append(inp.name)
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), None)
    return Graph(p, proto, nodes, producer, consumers, inits, constants, dynamic, opset, size)


def _attr(node: Any, name: str, default: Any = None) -> Any:
    import onnx

    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def _through_identity(g: Graph, tensor: str) -> str:
    seen = 0
    while tensor in g.producer and g.producer[tensor].op_type in ("Identity", "Cast") and seen < 10:
        tensor = g.producer[tensor].input[0]
        seen += 1
    return tensor


def _ancestors(g: Graph, tensor: str, limit: int = 12) -> Iterable[Any]:
    """Nodes upstream of a tensor, breadth first, at most ``limit`` hops away."""
    frontier, seen = [tensor], set()
    for _ in range(limit):
        nxt = []
        for t in frontier:
            node = g.producer.get(t)
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            yield node
            nxt.extend(node.input)
        frontier = nxt


# -- the probes ------------------------------------------------------------------------------------

def conv_weights_not_constant(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    convs = [n for n in g.nodes if n.op_type in ("Conv", "ConvTranspose") and len(n.input) > 1]
    if not convs:
        return Finding("conv-weights-not-constant", "myelin-conv-computed-weights", NOT_APPLICABLE,
                       "the model has no convolutions")
    computed = [g.name(n) for n in convs if _through_identity(g, n.input[1]) not in g.constants]
    if computed:
        return Finding("conv-weights-not-constant", "myelin-conv-computed-weights", CONFIRMED,
                       f"{len(computed)} of {len(convs)} convolutions take weights computed at run time",
                       tuple(computed[:20]))
    return Finding("conv-weights-not-constant", "myelin-conv-computed-weights", REFUTED,
                   f"all {len(convs)} convolutions have constant weights")


def grouped_conv_reshape(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    import onnx.numpy_helper as nh

    grouped = [n for n in g.nodes if n.op_type == "Conv" and (_attr(n, "group", 1) or 1) > 1]
    if not grouped:
        return Finding("grouped-conv-reshape", "conv-kernel-weight-count", NOT_APPLICABLE,
                       "the model has no grouped convolutions")
    named, pairs = [], []
    for conv in grouped:
        for node in _ancestors(g, conv.input[0], limit=6):
            if node.op_type != "Reshape" or len(node.input) < 2:
                continue
            shape = g.initializers.get(node.input[1])
            computed = node.input[1] not in g.constants
            has_minus_one = False
            if shape is not None and shape.data_location != 1:
                has_minus_one = -1 in nh.to_array(shape).tolist()
            if computed or has_minus_one:
                named.append(g.name(conv))
                pairs.append(f"{g.name(conv)} <- {g.name(node)}")
                break
    # This probe tests one candidate cause (grouped-dynamic-reshape): its absence rules out that cause only.
    if named and g.dynamic_inputs:
        return Finding("grouped-conv-reshape", "conv-kernel-weight-count", CONFIRMED,
                       f"grouped convolutions fed by a Reshape with -1 or a computed shape, under dynamic inputs "
                       f"({', '.join(g.dynamic_inputs[:3])}): {'; '.join(pairs[:10])}", tuple(named[:20]),
                       cause="grouped-dynamic-reshape")
    return Finding("grouped-conv-reshape", "conv-kernel-weight-count", REFUTED,
                   "no grouped convolution is fed by a -1 or computed Reshape under dynamic inputs",
                   cause="grouped-dynamic-reshape")


def qdq_nodes(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    q = [g.name(n) for n in g.nodes if n.op_type in ("QuantizeLinear", "DequantizeLinear")]
    if q:
        return Finding("qdq-nodes", "qdq-placement-error", CONFIRMED,
                       f"{len(q)} QuantizeLinear/DequantizeLinear nodes: an explicitly quantized model", tuple(q[:20]))
    return Finding("qdq-nodes", "qdq-placement-error", REFUTED, "no Q/DQ nodes")


def gather_reduce_axes(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    """The two graph shapes behind axis errors of an implicit-batch parser. Their absence says nothing about
    other axis errors, so this probe confirms or does not apply; it never refutes."""
    named, why = [], []
    for n in g.nodes:
        if n.op_type == "Gather" and n.input and n.input[0] in g.producer and \
                g.producer[n.input[0]].op_type == "Shape":
            named.append(g.name(n))
            why.append(f"{g.name(n)} takes a size from a Shape, as x.size() exports")
        elif n.op_type.startswith("Reduce") and _attr(n, "axes") is None and len(n.input) < 2 \
                and not _attr(n, "noop_with_empty_axes", 0):
            named.append(g.name(n))
            why.append(f"{g.name(n)} is a {n.op_type} over every dimension")
    if named:
        return Finding("gather-reduce-axes", "convert-axis-out-of-range", CONFIRMED,
                       "Gather on shapes or reductions over all dimensions, which an implicit-batch parser "
                       f"cannot import: {'; '.join(why[:10])}", tuple(named[:20]))
    return Finding("gather-reduce-axes", "convert-axis-out-of-range", NOT_APPLICABLE,
                   "no Gather on a Shape and no reduction over every dimension; that does not rule out an axis "
                   "error of another node")


# Ops whose axis attribute indexes their first input, and how far past the rank an axis may go.
_AXIS_OPS = {"Gather": 0, "GatherElements": 0, "Concat": 0, "Softmax": 0, "LogSoftmax": 0, "Hardmax": 0,
             "Split": 0, "ArgMax": 0, "ArgMin": 0, "TopK": 0, "OneHot": 1, "ScatterElements": 0, "Compress": 0,
             "Flatten": 1, "LpNormalization": 0, "DepthToSpace": 0}


def axis_range(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    """Axis attributes outside the rank of the tensor they index, which every TensorRT parser rejects."""
    import onnx.numpy_helper as nh

    ranks = _ranks(g)
    named, why, unknown = [], [], 0
    for n in g.nodes:
        axes: list[int] = []
        extra = 0
        if n.op_type in _AXIS_OPS and _attr(n, "axis") is not None:
            axes, extra = [int(_attr(n, "axis"))], _AXIS_OPS[n.op_type]
        elif n.op_type.startswith("Reduce") or n.op_type in ("Squeeze", "Unsqueeze"):
            value = _attr(n, "axes")
            if value is None and len(n.input) > 1 and n.input[1] in g.initializers:
                value = nh.to_array(g.initializers[n.input[1]]).reshape(-1).tolist()
            axes = [int(a) for a in value or []]
            if n.op_type == "Unsqueeze":
                extra = len(axes)
        if not axes:
            continue
        rank = ranks.get(n.input[0]) if n.input else None
        if rank is None:
            unknown += 1
            continue
        bad = [a for a in axes if not -(rank + extra) <= a < rank + extra]
        if bad:
            named.append(g.name(n))
            why.append(f"{g.name(n)} ({n.op_type}) has axis {', '.join(map(str, bad))} on a {rank}-D input")
    if named:
        return Finding("axis-range", "convert-axis-out-of-range", CONFIRMED,
                       f"axes outside their input's rank: {'; '.join(why[:10])}", tuple(named[:20]))
    detail = "every axis attribute fits its input's rank in the ONNX graph"
    if unknown:
        detail += f" ({unknown} nodes of unknown rank not checked)"
    return Finding("axis-range", "convert-axis-out-of-range", NOT_APPLICABLE,
                   detail + "; the parser's own view of a rank (implicit batch, folded shapes) may still differ")


def pool_rank(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    pools = [n for n in g.nodes if n.op_type in ("MaxPool", "AveragePool", "LpPool")]
    if not pools:
        return Finding("pool-rank", "pool-kernel-rank-mismatch", NOT_APPLICABLE, "the model has no pooling")
    ranks = _ranks(g)
    named, why = [], []
    for n in pools:
        kernel = _attr(n, "kernel_shape") or []
        rank = ranks.get(n.input[0])
        if rank is not None and len(kernel) != rank - 2:
            named.append(g.name(n))
            why.append(f"{g.name(n)} has a kernel of {len(kernel)} dims on a {rank}-D input")
    if named:
        return Finding("pool-rank", "pool-kernel-rank-mismatch", CONFIRMED,
                       f"pooling kernels whose rank does not match their input: {'; '.join(why[:10])}", tuple(named))
    return Finding("pool-rank", "pool-kernel-rank-mismatch", REFUTED, "every pooling kernel matches its input's rank")


def _ranks(g: Graph) -> dict[str, int]:
    import onnx

    ranks: dict[str, int] = {}
    try:
        inferred = onnx.shape_inference.infer_shapes(g.proto, strict_mode=False)
        infos = list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output)
    except Exception:  # noqa: BLE001 - inference fails on exactly the broken models we probe
        infos = list(g.proto.graph.input) + list(g.proto.graph.value_info)
    for vi in infos:
        t = vi.type.tensor_type
        if t.HasField("shape"):
            ranks[vi.name] = len(t.shape.dim)
    return ranks


def batchnorm_unsqueeze(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    bns = [n for n in g.nodes if n.op_type == "BatchNormalization"]
    if not bns:
        return Finding("batchnorm-unsqueeze", "batchnorm1d-unsqueeze", NOT_APPLICABLE, "no BatchNormalization")
    named = [g.name(n) for n in bns if n.input[0] in g.producer and g.producer[n.input[0]].op_type == "Unsqueeze"]
    if named:
        return Finding("batchnorm-unsqueeze", "batchnorm1d-unsqueeze", CONFIRMED,
                       "BatchNormalization fed through Unsqueeze (a BatchNorm1d on 2-D features)", tuple(named))
    return Finding("batchnorm-unsqueeze", "batchnorm1d-unsqueeze", REFUTED, "no BatchNormalization is fed by Unsqueeze")


def int64_initializers(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    import onnx

    named = [name for name, t in g.initializers.items() if t.data_type == onnx.TensorProto.INT64]
    if named:
        return Finding("int64-initializers", "int64-weights-cast", CONFIRMED,
                       f"{len(named)} INT64 initializers (TensorRT casts them down to INT32)", tuple(named[:20]))
    return Finding("int64-initializers", "int64-weights-cast", REFUTED, "no INT64 initializers")


def _support() -> dict[str, Any]:
    return json.loads(_SUPPORT.read_text(encoding="utf-8"))


def _support_for(trt: tuple[int, ...]) -> tuple[str, dict[str, Any]] | None:
    table = _support()
    known = sorted(table, key=versions.parse)
    best = None
    for v in known:
        if versions.parse(v) <= trt[:2]:
            best = v
    return (best, table[best]) if best else None


def opset_support(g: Graph, trt: tuple[int, ...] | None) -> Finding:
    if trt is None:
        return Finding("opset-support", "onnx-opset-unsupported", NOT_APPLICABLE,
                       f"model opset {g.opset}; no TensorRT version to compare with (give it, or a log that shows it)")
    entry = _support_for(trt)
    if entry is None or entry[1]["max_opset"] is None or g.opset is None:
        return Finding("opset-support", "onnx-opset-unsupported", UNAVAILABLE,
                       f"no opset table for TensorRT {versions.show(trt)}")
    release, info = entry
    if g.opset > info["max_opset"]:
        return Finding("opset-support", "onnx-opset-unsupported", CONFIRMED,
                       f"model opset {g.opset} is newer than TensorRT {release}'s parser supports ({info['max_opset']})",
                       data={"opset": g.opset, "max_opset": info["max_opset"]})
    return Finding("opset-support", "onnx-opset-unsupported", REFUTED,
                   f"model opset {g.opset} is within TensorRT {release}'s parser (up to {info['max_opset']})")


def operator_support(g: Graph, trt: tuple[int, ...] | None) -> Finding:
    custom = sorted({f"{n.domain}::{n.op_type}" for n in g.nodes if n.domain not in ("", "ai.onnx")})
    if trt is None:
        if custom:
            return Finding("operator-support", "unsupported-onnx-op", CONFIRMED,
                           "operators from custom domains need a TensorRT plugin", tuple(custom))
        return Finding("operator-support", "unsupported-onnx-op", NOT_APPLICABLE,
                       "no TensorRT version to compare the model's operators with")
    entry = _support_for(trt)
    if entry is None:
        return Finding("operator-support", "unsupported-onnx-op", UNAVAILABLE,
                       f"no operator table for TensorRT {versions.show(trt)}")
    release, info = entry
    supported = set(info["ops"])
    missing = sorted({n.op_type for n in g.nodes if n.domain in ("", "ai.onnx") and n.op_type not in supported})
    if missing or custom:
        nodes = [g.name(n) for n in g.nodes if n.op_type in missing][:20]
        return Finding("operator-support", "unsupported-onnx-op", CONFIRMED,
                       f"TensorRT {release}'s parser imports no {', '.join(missing + custom)}", tuple(nodes or custom),
                       data={"operators": missing + custom})
    return Finding("operator-support", "unsupported-onnx-op", REFUTED,
                   f"every operator has an importer in TensorRT {release}")


def external_data(g: Graph, _trt: tuple[int, ...] | None) -> Finding:
    refs = []
    for t in g.proto.graph.initializer:
        if t.data_location == 1:  # EXTERNAL
            loc = next((e.value for e in t.external_data if e.key == "location"), "")
            refs.append((t.name, loc))
    if not refs:
        return Finding("external-data", "external-data-missing", NOT_APPLICABLE, "the weights are inside the model file")
    base = g.path.resolve().parent
    bad = []
    for name, loc in refs:
        target = (base / loc).resolve()
        if os.path.isabs(loc) or base not in target.parents and target != base:
            bad.append(f"{name} -> {loc} (outside the model's folder: refused)")
        elif not target.is_file():
            bad.append(f"{name} -> {loc} (missing)")
    if bad:
        return Finding("external-data", "external-data-missing", CONFIRMED,
                       "external weights that cannot be read from the model's folder", tuple(bad[:20]))
    return Finding("external-data", "external-data-missing", REFUTED,
                   f"{len(refs)} external tensors, all present beside the model")


PROBES: dict[str, Callable[[Graph, tuple[int, ...] | None], Finding]] = {
    "conv-weights-not-constant": conv_weights_not_constant,
    "grouped-conv-reshape": grouped_conv_reshape,
    "qdq-nodes": qdq_nodes,
    "gather-reduce-axes": gather_reduce_axes,
    "axis-range": axis_range,
    "pool-rank": pool_rank,
    "batchnorm-unsqueeze": batchnorm_unsqueeze,
    "int64-initializers": int64_initializers,
    "opset-support": opset_support,
    "operator-support": operator_support,
    "external-data": external_data,
}


def probe_model(path: str | os.PathLike[str], tensorrt: tuple[int, ...] | None = None) -> list[Finding]:
    """Run every model probe. Raises ModelError for a file that is not a probe-able ONNX model."""
    g = load(path)
    return [probe(g, tensorrt) for probe in PROBES.values()]


def onnxruntime_check(path: str | os.PathLike[str]) -> Finding:
    """Does ONNX Runtime (CPU) load the model? Tells a broken model from a TensorRT limitation."""
    try:
        import onnxruntime as ort
    except ImportError:
        return Finding("onnxruntime-loads", None, UNAVAILABLE, "onnxruntime is not installed")
    try:
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - any failure here is the finding
        first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        return Finding("onnxruntime-loads", None, CONFIRMED,
                       f"ONNX Runtime (CPU) rejects the model too, so the model itself is broken: {first}")
    return Finding("onnxruntime-loads", None, REFUTED,
                   "ONNX Runtime (CPU) loads the model: it is valid ONNX, so the failure is TensorRT's limitation")
