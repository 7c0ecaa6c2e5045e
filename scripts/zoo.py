"""The failure zoo: small ONNX models that a real TensorRT (TensorRT for RTX) refuses, and the logs it prints.

Each case builds one model with ``onnx.helper`` (numpy and onnx only), parses and builds it with
``tensorrt_rtx`` under a VERBOSE logger that writes every message the way the Python API's own logger
does (``[MM/DD/YYYY-HH:MM:SS] [TRT] [E] message``), so that the log reads like a real Python-API build.
Each case names the signature of ``kb/`` (and, where the signature has causes, the cause) that its log
must be diagnosed as. A few cases build successfully: they show what no longer fails (negatives).

    python scripts/zoo.py --list
    python scripts/zoo.py --case conv-weight-groups             # print the log
    python scripts/zoo.py --case conv-weight-groups --write     # write corpus/<signature>/zoo-<case>.log
    python scripts/zoo.py --write                               # every case
    python scripts/zoo.py --out DIR                             # every case's log into DIR
    python scripts/zoo.py --verbose-big OUT.log --blocks 200    # a big successful VERBOSE build
    python scripts/zoo.py --verbose-big corpus/negative/zoo-verbose-build.log --blocks 20   # its negative example

The builder of TensorRT for RTX compiles ahead of time on the CPU, so this runs without a GPU. Without
one, it also reports that the CUDA runtime found no usable driver (cudaError 35) after most errors: the
logs keep that line, as a real CPU-only build prints it.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
TENSORRT_RTX = "1.7.1"

F = TensorProto.FLOAT
I64 = TensorProto.INT64


# ------------------------------------------------------------------------------------------- models

def _init(name: str, array) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(array), name)


def _model(nodes, inputs, outputs, initializers=(), *, opset: int = 17, ir_version: int = 8,
           name: str = "zoo", domains: dict[str, int] | None = None) -> onnx.ModelProto:
    graph = helper.make_graph(list(nodes), name, list(inputs), list(outputs), list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="trtdoctor-zoo")
    model.ir_version = ir_version
    return model


def _vi(name: str, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


@dataclass
class Build:
    """What one case hands to TensorRT: an ONNX model, and how to build it."""

    model: onnx.ModelProto | None = None
    profile: list[tuple[str, tuple, tuple, tuple]] | None = None   # (input, min, opt, max)
    steps: Callable | None = None   # a custom flow instead of parse + build: steps(trt, logger, say)
    print_errors: bool = True       # print parser.get_error(i) after a failed parse, as most scripts do


@dataclass
class Case:
    name: str
    signature: str
    make: Callable[[], Build]
    cause: str | None = None
    note: str = ""
    negative: bool = False         # the build succeeds (what no longer fails): the log goes to corpus/negative/


CASES: list[Case] = []


def case(name: str, signature: str, *, cause: str | None = None, note: str = "", negative: bool = False):
    def register(make: Callable[[], Build]) -> Callable[[], Build]:
        CASES.append(Case(name, signature, make, cause, note, negative))
        return make
    return register


# ---- convolution

@case("conv-weight-groups", "conv-kernel-weight-count", cause="input-channel-mismatch",
      note="a Reshape folds 8 channels into 4 before a group-2 convolution whose weights were made for 8")
def _conv_weight_groups():
    x = _vi("x", [1, 8, 16, 16])
    shape = _init("shape", np.array([2, 4, 16, 16], np.int64))
    w = _init("w", np.random.default_rng(0).standard_normal((8, 4, 3, 3)).astype(np.float32))
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["folded"], name="fold_batch"),
             helper.make_node("Conv", ["folded", "w"], ["y"], name="grouped_conv", group=2, kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1])]
    return Build(_model(nodes, [x], [_vi("y", None)], [shape, w]))


@case("conv-computed-weights", "myelin-conv-computed-weights", negative=True,
      note="a convolution whose weights are computed in the graph (Mul of an initializer by a scale): TensorRT "
           "before 10.3 failed in Myelin (TRT-12816); this release builds it")
def _conv_computed_weights():
    x = _vi("x", [1, 4, 16, 16])
    w = _init("w_raw", np.random.default_rng(1).standard_normal((8, 4, 3, 3)).astype(np.float32))
    s = _vi("scale", [1])
    nodes = [helper.make_node("Mul", ["w_raw", "scale"], ["w"], name="scale_kernel"),
             helper.make_node("Conv", ["x", "w"], ["y"], name="dynamic_weight_conv", kernel_shape=[3, 3])]
    return Build(_model(nodes, [x, s], [_vi("y", None)], [w]))


@case("batchnorm-param-count", "scale-weights-count-mismatch",
      note="a BatchNormalization whose scale, bias, mean and variance were made for 3 channels, on a 4-channel tensor")
def _batchnorm_param_count():
    x = _vi("x", [1, 4, 8, 8])
    params = [_init(name, value.astype(np.float32)) for name, value in
              (("bn_scale", np.ones(3)), ("bn_bias", np.zeros(3)), ("bn_mean", np.zeros(3)), ("bn_var", np.ones(3)))]
    n = helper.make_node("BatchNormalization", ["x", *(p.name for p in params)], ["y"], name="bn_after_stem")
    return Build(_model([n], [x], [_vi("y", None)], params))


@case("maxpool-kernel-rank", "pool-kernel-rank-mismatch", cause="pool-kernel-rank",
      note="a MaxPool on a 4-D tensor with a 3-D kernel_shape")
def _maxpool_kernel_rank():
    x = _vi("x", [1, 4, 16, 16])
    n = helper.make_node("MaxPool", ["x"], ["y"], name="pool_rank", kernel_shape=[2, 2, 2], strides=[2, 2, 2])
    return Build(_model([n], [x], [_vi("y", None)]))


# ---- axes

@case("gather-axis", "convert-axis-out-of-range", cause="axis-outside-rank",
      note="a Gather with axis 5 on a 4-D tensor")
def _gather_axis():
    x = _vi("x", [1, 3, 8, 8])
    idx = _init("idx", np.array([0], np.int64))
    n = helper.make_node("Gather", ["x", "idx"], ["y"], name="gather_axis5", axis=5)
    return Build(_model([n], [x], [_vi("y", None)], [idx]))


@case("reducemean-axis", "convert-axis-out-of-range", cause="axis-outside-rank",
      note="a ReduceMean over axis 5 of a 4-D tensor")
def _reducemean_axis():
    x = _vi("x", [1, 3, 8, 8])
    n = helper.make_node("ReduceMean", ["x"], ["y"], name="mean_axis5", axes=[5], keepdims=1)
    return Build(_model([n], [x], [_vi("y", None)]))


@case("softmax-axis", "convert-axis-out-of-range", cause="other-op-axis",
      note="a Softmax over axis 4 of a 4-D tensor")
def _softmax_axis():
    x = _vi("x", [1, 3, 8, 8])
    n = helper.make_node("Softmax", ["x"], ["y"], name="softmax_axis4", axis=4)
    return Build(_model([n], [x], [_vi("y", None)]))



@case("logsoftmax-axis", "convert-axis-out-of-range", cause="other-op-axis",
      note="a LogSoftmax over axis 3 of a 3-D tensor")
def _logsoftmax_axis():
    x = _vi("x", [2, 16, 32])
    n = helper.make_node("LogSoftmax", ["x"], ["y"], name="logits_logsoftmax", axis=3)
    return Build(_model([n], [x], [_vi("y", None)]))

# ---- shapes

@case("dynamic-no-profile", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="a dynamic batch and image size, built without an optimization profile")
def _dynamic_no_profile():
    x = _vi("images", ["batch", 3, "height", "width"])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]))


@case("profile-wrong-input-name", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="a profile whose shapes are set under another name than the network's dynamic input")
def _profile_wrong_input_name():
    x = _vi("input_ids", ["batch", 128])
    n = helper.make_node("Relu", ["input_ids"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("tokens", (1, 128), (8, 128), (32, 128))])


@case("profile-misses-second-input", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="two dynamic inputs, a profile for the first only")
def _profile_misses_second_input():
    image, mask = _vi("image", ["batch", 3, 64, 64]), _vi("mask", ["batch", 3, 64, 64])
    n = helper.make_node("Add", ["image", "mask"], ["y"], name="masked")
    return Build(_model([n], [image, mask], [_vi("y", None)]),
                 profile=[("image", (1, 3, 64, 64), (4, 3, 64, 64), (8, 3, 64, 64))])


@case("profile-min-above-max", "profile-dims-out-of-range", cause="profile-order-invalid",
      note="an optimization profile whose minimum batch is larger than its maximum")
def _profile_min_above_max():
    x = _vi("images", ["batch", 3, 32, 32])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("images", (8, 3, 32, 32), (4, 3, 32, 32),
                                                                 (1, 3, 32, 32))])



@case("profile-opt-above-max", "profile-dims-out-of-range", cause="profile-order-invalid",
      note="an optimization profile whose optimum sequence length is longer than its maximum")
def _profile_opt_above_max():
    x = _vi("tokens", [1, "seq", 64])
    n = helper.make_node("Relu", ["tokens"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("tokens", (1, 16, 64), (1, 512, 64),
                                                                 (1, 256, 64))])


@case("profile-static-batch", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a model exported with its batch fixed at 1, built with a profile for batches of 1 to 8")
def _profile_static_batch():
    x = _vi("images", [1, 3, 32, 32])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("images", (1, 3, 32, 32), (4, 3, 32, 32),
                                                                 (8, 3, 32, 32))])


@case("profile-static-image-size", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a model exported for 224x224 images, built with a profile for 128x128 to 512x512")
def _profile_static_image_size():
    x = _vi("image", [1, 3, 224, 224])
    n = helper.make_node("Relu", ["image"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("image", (1, 3, 128, 128), (1, 3, 224, 224),
                                                                (1, 3, 512, 512))])


@case("profile-static-rank", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a static 2-D embedding input given a profile of four dimensions (a builder that assumes NCHW inputs)")
def _profile_static_rank():
    # The input [1, 512] has no dynamic axis, so a profile for it may only repeat its shape; this one is
    # written for an image input and has four dimensions (the last two 0), so even its rank disagrees.
    x = _vi("source", [1, 512])
    n = helper.make_node("Relu", ["source"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]), profile=[("source", (1, 512, 0, 0), (1, 512, 0, 0),
                                                                (1, 512, 0, 0))])


@case("named-dim-profiles-disagree", "named-dimension-mismatch", cause="inputs-disagree",
      note="two inputs whose first axis is the same dim_param 'batch', built with profiles that give it different sizes")
def _named_dim_profiles_disagree():
    # The parser ties axes that share a dim_param name into one dimension; the profiles for the two inputs
    # give 'batch' different ranges (opt 2 for one, 4 for the other), so the profile contradicts the
    # model's own statement that both batches are equal, and the builder's shape checks fail on it.
    a, b = _vi("features", ["batch", 8]), _vi("residual", ["batch", 8])
    n = helper.make_node("Add", ["features", "residual"], ["y"], name="add_residual")
    return Build(_model([n], [a, b], [_vi("y", None)]),
                 profile=[("features", (1, 8), (2, 8), (4, 8)), ("residual", (2, 8), (4, 8), (8, 8))])


@case("float-shape-input", "shape-tensor-not-integer", cause="float-input-used-as-shape",
      note="a ConstantOfShape whose shape comes from a float network input")
def _float_shape_input():
    shape = _vi("out_shape", [2])
    n = helper.make_node("ConstantOfShape", ["out_shape"], ["y"], name="zeros_like_request")
    return Build(_model([n], [shape], [_vi("y", None)]))


@case("float-resize-scales-input", "shape-tensor-not-integer", cause="float-input-used-as-shape",
      note="a Resize whose scales are a float network input (a downsample ratio chosen at run time)")
def _float_resize_scales_input():
    x = _vi("src", [1, 3, 16, 16])
    scales = _vi("ratio", [4])
    roi = _init("roi", np.array([], np.float32))
    n = helper.make_node("Resize", ["src", "roi", "ratio"], ["y"], name="downsample", mode="linear")
    return Build(_model([n], [x, scales], [_vi("y", None)], [roi]))


@case("reshape-volume", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape to a constant shape of another volume")
def _reshape_volume():
    x = _vi("x", [1, 3, 8, 8])
    shape = _init("shape", np.array([1, 3, 8, 9], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="bad_reshape")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))



@case("reshape-volume-2d", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape of a 6x4 matrix to a constant 5x5")
def _reshape_volume_2d():
    x = _vi("x", [6, 4])
    shape = _init("target", np.array([5, 5], np.int64))
    n = helper.make_node("Reshape", ["x", "target"], ["y"], name="flatten_head")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))


@case("reshape-two-wildcards", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape to a constant target with two -1 wildcards")
def _reshape_two_wildcards():
    x = _vi("x", [2, 3, 4])
    shape = _init("shape", np.array([-1, -1], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="flatten_twice")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))


@case("reshape-allowzero-wildcard", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape with allowzero=1 to [0, -1]: the zero is taken literally, so the wildcard has no solution")
def _reshape_allowzero_wildcard():
    x = _vi("x", [2, 3, 4])
    shape = _init("shape", np.array([0, -1], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="keep_batch_flatten", allowzero=1)
    return Build(_model([n], [x], [_vi("y", None)], [shape], opset=14))


@case("reshape-no-integer-solution", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape of 24 elements to [5, -1]: no whole number fills the wildcard (a head count that does not "
           "divide the width)")
def _reshape_no_integer_solution():
    x = _vi("x", [2, 3, 4])
    shape = _init("shape", np.array([5, -1], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="split_heads")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))


@case("reshape-three-dims-two-wildcards", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape to [-1, 2, -1]: a wildcard on each side of a fixed dimension")
def _reshape_three_dims_two_wildcards():
    x = _vi("x", [2, 3, 4])
    shape = _init("shape", np.array([-1, 2, -1], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="pairs")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))


@case("reshape-empty-batch-wildcard", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape with allowzero=1 of an empty batch (no detections) to [0, 3, -1]: with zero elements the "
           "wildcard could be anything")
def _reshape_empty_batch_wildcard():
    x = _vi("boxes", [0, 3, 4])
    shape = _init("shape", np.array([0, 3, -1], np.int64))
    n = helper.make_node("Reshape", ["boxes", "shape"], ["y"], name="flatten_boxes", allowzero=1)
    return Build(_model([n], [x], [_vi("y", None)], [shape], opset=14))


@case("concat-dims", "concat-dims-mismatch", cause="branch-shape-mismatch",
      note="a Concat on channels of two tensors of different heights")
def _concat_dims():
    a, b = _vi("a", [1, 3, 8, 8]), _vi("b", [1, 5, 4, 8])
    n = helper.make_node("Concat", ["a", "b"], ["y"], name="concat_skip", axis=1)
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("add-broadcast", "elementwise-broadcast-mismatch", cause="incompatible-shapes",
      note="an Add of two tensors whose channel counts cannot broadcast")
def _add_broadcast():
    a, b = _vi("a", [1, 3, 8, 8]), _vi("b", [1, 5, 8, 8])
    n = helper.make_node("Add", ["a", "b"], ["y"], name="residual_add")
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("matmul-dims", "matmul-inner-dims-mismatch",
      note="a MatMul whose inner dimensions differ (8 columns against 6 rows)")
def _matmul_dims():
    a, b = _vi("a", [2, 4, 8]), _vi("b", [2, 6, 3])
    n = helper.make_node("MatMul", ["a", "b"], ["y"], name="bad_matmul")
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("no-output", "network-no-output", cause="graph-without-outputs",
      note="a graph that declares no output")
def _no_output():
    x = _vi("x", [1, 3, 8, 8])
    n = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return Build(_model([n], [x], []))


# ---- operators

@case("custom-op", "unsupported-onnx-op", cause="custom-op-needs-plugin",
      note="a node of a custom domain for which no plugin is registered")
def _custom_op():
    x = _vi("x", [1, 3, 8, 8])
    n = helper.make_node("DeformConv2dCustom", ["x"], ["y"], name="custom_dcn", domain="com.example.custom")
    return Build(_model([n], [x], [_vi("y", None)], domains={"com.example.custom": 1}))


@case("unsupported-op", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="an ONNX operator this parser has no importer for")
def _unsupported_op():
    x = _vi("x", [16])
    n = helper.make_node("Unique", ["x"], ["y"], name="unique_values", sorted=1)
    return Build(_model([n], [x], [_vi("y", None)], opset=11))


@case("softmax-cross-entropy-loss", "unsupported-onnx-op", cause="standard-op-not-in-tensorrt",
      note="a model exported with its nn.CrossEntropyLoss, the training op SoftmaxCrossEntropyLoss")
def _softmax_cross_entropy_loss():
    # A loss belongs to training: TensorRT's parser has no importer for it, and its op checker turns the node
    # down before any layer is made. The loss is computed outside the engine, on the logits it returns.
    scores, labels = _vi("scores", [4, 10]), _vi("labels", [4], I64)
    n = helper.make_node("SoftmaxCrossEntropyLoss", ["scores", "labels"], ["loss"], name="criterion")
    return Build(_model([n], [scores, labels], [_vi("loss", None)], opset=13))


@case("nll-loss", "unsupported-onnx-op", cause="standard-op-not-in-tensorrt",
      note="a model exported with an nn.NLLLoss after its log-softmax, the training op NegativeLogLikelihoodLoss")
def _nll_loss():
    # The same refusal for the other ONNX loss op: no importer, the op checker says UNSUPPORTED_NODE.
    x = _vi("logits", [4, 10])
    labels = _vi("labels", [4], I64)
    nodes = [helper.make_node("LogSoftmax", ["logits"], ["logp"], name="log_softmax", axis=1),
             helper.make_node("NegativeLogLikelihoodLoss", ["logp", "labels"], ["loss"], name="criterion")]
    return Build(_model(nodes, [x, labels], [_vi("loss", None)], opset=13))


@case("unsupported-op-quiet", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a Det (determinant) node, from a script that prints only the logger's messages, not parser.get_error()")
def _unsupported_op_quiet():
    x = _vi("x", [4, 3, 3])
    n = helper.make_node("Det", ["x"], ["y"], name="determinant")
    return Build(_model([n], [x], [_vi("y", None)]), print_errors=False)


@case("unary-int-input", "op-input-type-unsupported",
      note="a Sin over an INT32 tensor (a shape or index computation fed to a float math operator)")
def _unary_int_input():
    x = _vi("x", [1, 4], TensorProto.INT32)
    n = helper.make_node("Sin", ["x"], ["y"], name="sin_of_index")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.INT32)]))


@case("mish-int-input", "op-input-type-unsupported",
      note="a Mish activation over an INT32 tensor")
def _mish_int_input():
    x = _vi("x", [1, 8], TensorProto.INT32)
    n = helper.make_node("Mish", ["x"], ["y"], name="mish_act")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.INT32)], opset=18))


@case("hardswish-int-input", "op-input-type-unsupported",
      note="a HardSwish activation over an INT32 tensor (the per-operator type check, another operator than Mish)")
def _hardswish_int_input():
    x = _vi("x", [2, 6], TensorProto.INT32)
    n = helper.make_node("HardSwish", ["x"], ["y"], name="hswish")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.INT32)], opset=14))


@case("relu-int-input", "op-input-type-unsupported",
      note="a Relu over an INT32 tensor, which the TensorRT 10 parser refuses by type before importing it")
def _relu_int_input():
    x = _vi("x", [2, 3], TensorProto.INT32)
    n = helper.make_node("Relu", ["x"], ["y"], name="relu_of_index")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.INT32)]))


@case("concat-uint8-input", "op-input-type-unsupported",
      note="two UINT8 image inputs concatenated before any Cast, as a camera pipeline exports them")
def _concat_uint8_input():
    a, b = _vi("img_a", [1, 3, 8, 8], TensorProto.UINT8), _vi("img_b", [1, 3, 8, 8], TensorProto.UINT8)
    n = helper.make_node("Concat", ["img_a", "img_b"], ["y"], name="stack_frames", axis=1)
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.UINT8)]))


@case("nonzero-uint8-mask", "op-input-type-unsupported",
      note="a NonZero over a UINT8 image mask, one of the types its importer does not take")
def _nonzero_uint8_mask():
    x = _vi("mask", [1, 8, 8], TensorProto.UINT8)
    n = helper.make_node("NonZero", ["mask"], ["y"], name="foreground_pixels")
    return Build(_model([n], [x], [_vi("y", None, I64)], opset=13))


@case("softmax-int-input", "op-input-type-unsupported",
      note="a Softmax over INT32 scores: the builder's per-layer type check rejects it after the parser took it")
def _softmax_int_input():
    x = _vi("scores", [2, 5], TensorProto.INT32)
    n = helper.make_node("Softmax", ["scores"], ["y"], name="softmax_of_counts", axis=1)
    return Build(_model([n], [x], [_vi("y", None, TensorProto.INT32)]))


@case("einsum-int-input", "op-input-type-unsupported",
      note="an Einsum contracting two INT32 tensors (position arithmetic written as an einsum): TensorRT 8 said "
           "'einsum input tensor 0 has invalid type Int32'; this parser refuses the type before making the layer")
def _einsum_int_input():
    # IEinsumLayer computes in floating point only; the TensorRT 10 parser lists INT32 as an invalid type for
    # Einsum and stops on the node, where TensorRT 8 created the layer and its validation refused it.
    a, b = _vi("positions", [2, 3], TensorProto.INT32), _vi("offsets", [3, 4], TensorProto.INT32)
    n = helper.make_node("Einsum", ["positions", "offsets"], ["y"], name="Einsum_110", equation="ij,jk->ik")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.INT32)]))


@case("where-float-condition", "op-input-type-unsupported",
      note="a Where whose condition is a float mask rather than a bool tensor")
def _where_float_condition():
    c, a, b = _vi("mask", [2, 3]), _vi("a", [2, 3]), _vi("b", [2, 3])
    n = helper.make_node("Where", ["mask", "a", "b"], ["y"], name="select_by_mask")
    return Build(_model([n], [c, a, b], [_vi("y", None)]))


@case("reducemax-bool-input", "bool-tensor-unsupported",
      note="a ReduceMax over a bool mask (any-reduction written as max), refused by the TensorRT 10 parser")
def _reducemax_bool_input():
    x = _vi("mask", [2, 3], TensorProto.BOOL)
    n = helper.make_node("ReduceMax", ["mask"], ["y"], name="any_valid", keepdims=0)
    return Build(_model([n], [x], [_vi("y", None, TensorProto.BOOL)]))


@case("reducesum-bool-input", "bool-tensor-unsupported",
      note="a ReduceSum straight over a bool mask (counting the true entries) without a Cast to an integer type")
def _reducesum_bool_input():
    x = _vi("valid", [2, 6], TensorProto.BOOL)
    axes = _init("axes", np.array([1], np.int64))
    n = helper.make_node("ReduceSum", ["valid", "axes"], ["count"], name="count_valid", keepdims=0)
    return Build(_model([n], [x], [_vi("count", None, TensorProto.BOOL)], [axes], opset=13))


@case("reducemin-bool-input", "bool-tensor-unsupported",
      note="a ReduceMin over a bool mask (an all-reduction written as min), the sibling of the ReduceMax case")
def _reducemin_bool_input():
    x = _vi("mask", [3, 4], TensorProto.BOOL)
    n = helper.make_node("ReduceMin", ["mask"], ["y"], name="all_valid", keepdims=0)
    return Build(_model([n], [x], [_vi("y", None, TensorProto.BOOL)]))


@case("clip-bool-input", "bool-tensor-unsupported",
      note="a Clip over a bool tensor")
def _clip_bool_input():
    x = _vi("flags", [4], TensorProto.BOOL)
    n = helper.make_node("Clip", ["flags"], ["y"], name="clip_flags")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.BOOL)]))


@case("cumsum-bool-input", "bool-tensor-unsupported",
      note="a CumSum straight over a bool attention mask, as the TorchScript exporter emits it without a Cast")
def _cumsum_bool_input():
    x = _vi("mask", [1, 6], TensorProto.BOOL)
    axis = _init("axis", np.array(1, np.int64))
    n = helper.make_node("CumSum", ["mask", "axis"], ["positions"], name="position_ids")
    return Build(_model([n], [x], [_vi("positions", None, TensorProto.BOOL)], [axis]))


@case("argmax-bool-input", "bool-tensor-unsupported",
      note="an ArgMax over a bool tensor (first true index): the builder's type check rejects the bool input")
def _argmax_bool_input():
    x = _vi("hits", [2, 5], TensorProto.BOOL)
    n = helper.make_node("ArgMax", ["hits"], ["y"], name="first_hit", axis=1)
    return Build(_model([n], [x], [_vi("y", None, I64)]))


@case("add-bool-inputs", "bool-tensor-unsupported",
      note="an Add of two bool masks (a logical or written as a sum)")
def _add_bool_inputs():
    a, b = _vi("mask_a", [2, 3], TensorProto.BOOL), _vi("mask_b", [2, 3], TensorProto.BOOL)
    n = helper.make_node("Add", ["mask_a", "mask_b"], ["y"], name="merge_masks")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.BOOL)]))


@case("max-bool-inputs", "bool-tensor-unsupported",
      note="an elementwise Max of two bool masks")
def _max_bool_inputs():
    a, b = _vi("mask_a", [2, 3], TensorProto.BOOL), _vi("mask_b", [2, 3], TensorProto.BOOL)
    n = helper.make_node("Max", ["mask_a", "mask_b"], ["y"], name="union_masks")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.BOOL)]))


@case("bool-prod-api", "bool-tensor-unsupported",
      note="a network written against the API multiplying two bool tensors with ElementWiseOperation.PROD "
           "(a logical and needs AND)")
def _bool_prod_api():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        a = network.add_input("mask_a", trt.bool, (2, 3))
        b = network.add_input("mask_b", trt.bool, (2, 3))
        both = network.add_elementwise(a, b, trt.ElementWiseOperation.PROD)
        network.mark_output(both.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("topk-k", "topk-k-limit", cause="k-exceeds-limit",
      note="a TopK with K beyond the largest the TopK layer accepts")
def _topk_k():
    x = _vi("scores", [1, 100000])
    k = _init("k", np.array([5000], np.int64))
    n = helper.make_node("TopK", ["scores", "k"], ["values", "indices"], name="topk_5000", axis=1)
    return Build(_model([n], [x], [_vi("values", None), _vi("indices", None, I64)], [k]))


@case("resize-crop", "resize-mode-unsupported", cause="coordinate-transformation-mode",
      note="a Resize with coordinate_transformation_mode tf_crop_and_resize")
def _resize_crop():
    x = _vi("x", [1, 3, 8, 8])
    roi = _init("roi", np.array([0, 0, 0, 0, 1, 1, 1, 1], np.float32))
    scales = _init("scales", np.array([1, 1, 2, 2], np.float32))
    n = helper.make_node("Resize", ["x", "roi", "scales"], ["y"], name="resize_crop", mode="linear",
                         coordinate_transformation_mode="tf_crop_and_resize")
    return Build(_model([n], [x], [_vi("y", None)], [roi, scales]))



@case("resize-half-pixel-symmetric", "resize-mode-unsupported", cause="coordinate-transformation-mode",
      note="a Resize with coordinate_transformation_mode half_pixel_symmetric (opset 19)")
def _resize_half_pixel_symmetric():
    x = _vi("x", [1, 3, 8, 8])
    scales = _init("scales", np.array([1, 1, 2, 2], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="upsample_sym", mode="linear",
                         coordinate_transformation_mode="half_pixel_symmetric")
    return Build(_model([n], [x], [_vi("y", None)], [scales], opset=19, ir_version=9))

@case("resize-cubic-antialias", "resize-mode-unsupported", cause="antialias",
      note="a cubic Resize with antialias")
def _resize_antialias():
    x = _vi("x", [1, 3, 8, 8])
    scales = _init("scales", np.array([1, 1, 0.5, 0.5], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="resize_aa", mode="cubic", antialias=1)
    return Build(_model([n], [x], [_vi("y", None)], [scales], opset=18))



@case("resize-linear-antialias", "resize-mode-unsupported", cause="antialias",
      note="a linear downsampling Resize with antialias")
def _resize_linear_antialias():
    x = _vi("x", [1, 3, 16, 16])
    scales = _init("scales", np.array([1, 1, 0.25, 0.25], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="downsample_aa", mode="linear", antialias=1)
    return Build(_model([n], [x], [_vi("y", None)], [scales], opset=18))

@case("resize-linear-four-dims", "resize-mode-unsupported", cause="too-many-resized-dims",
      note="a linear Resize that scales four dimensions of a 5-D tensor, channels included")
def _resize_linear_four_dims():
    x = _vi("x", [1, 2, 4, 4, 4])
    scales = _init("scales", np.array([1, 2, 2, 2, 2], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="upsample_4d", mode="linear")
    return Build(_model([n], [x], [_vi("y", None)], [scales]))


@case("resize-cubic-three-dims", "resize-mode-unsupported", cause="too-many-resized-dims",
      note="a cubic Resize that scales the three spatial dimensions of a volume")
def _resize_cubic_three_dims():
    x = _vi("x", [1, 2, 4, 4, 4])
    scales = _init("scales", np.array([1, 1, 2, 2, 2], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="upsample_cubic_3d", mode="cubic")
    return Build(_model([n], [x], [_vi("y", None)], [scales]))

@case("reshape-wildcard-empty-profile", "shuffle-reshape-volume", negative=True,
      note="a Reshape to [batch, -1] whose profile lets batch be 0: the builder warns that the -1 has no single value "
           "at kMIN and builds the engine")
def _reshape_wildcard_empty_profile():
    x = _vi("x", ["batch", 3, 4])
    shape = helper.make_node("Shape", ["x"], ["s"], name="shape", end=1)
    minus_one = _init("minus_one", np.array([-1], np.int64))
    target = helper.make_node("Concat", ["s", "minus_one"], ["t"], name="target", axis=0)
    flatten = helper.make_node("Reshape", ["x", "t"], ["y"], name="flatten")
    return Build(_model([shape, target, flatten], [x], [_vi("y", None)], [minus_one]),
                 profile=[("x", (0, 3, 4), (1, 3, 4), (2, 3, 4))])

@case("scatternd-mul", "scatternd-unsupported", cause="scatternd-reduction",
      note="a ScatterND with reduction 'mul'")
def _scatternd():
    x = _vi("x", [4, 4])
    idx = _init("idx", np.array([[0], [2]], np.int64))
    upd = _init("upd", np.ones((2, 4), np.float32))
    n = helper.make_node("ScatterND", ["x", "idx", "upd"], ["y"], name="scatter_mul", reduction="mul")
    return Build(_model([n], [x], [_vi("y", None)], [idx, upd], opset=18))



@case("scatternd-max", "scatternd-unsupported", cause="scatternd-reduction",
      note="a ScatterND with reduction 'max'")
def _scatternd_max():
    x = _vi("cache", [2, 8, 16])
    idx = _init("pos", np.array([[0, 3], [1, 5]], np.int64))
    upd = _init("new", np.ones((2, 16), np.float32))
    n = helper.make_node("ScatterND", ["cache", "pos", "new"], ["y"], name="cache_update", reduction="max")
    return Build(_model([n], [x], [_vi("y", None)], [idx, upd], opset=18))

@case("if-shapes", "if-conditional-unsupported", cause="branch-shape-mismatch",
      note="an If whose branches give outputs of different ranks")
def _if_shapes():
    x = _vi("x", [1, 3, 8, 8])
    cond = _vi("cond", [], TensorProto.BOOL)
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [], [_vi("t", [1, 3, 8, 8])])
    s = _init("s", np.array([3, 64], np.int64))
    else_g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["e"])], "else", [],
                               [_vi("e", [3, 64])], [s])
    n = helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)
    return Build(_model([n], [x, cond], [_vi("y", None)]))



@case("if-ranks", "if-conditional-unsupported", cause="branch-shape-mismatch",
      note="an If whose then-branch adds a dimension that the else-branch lacks")
def _if_ranks():
    x = _vi("x", [4, 16])
    cond = _vi("use_batch", [], TensorProto.BOOL)
    axes = _init("axes", np.array([0], np.int64))
    then_g = helper.make_graph([helper.make_node("Unsqueeze", ["x", "axes"], ["t"])], "then", [],
                               [_vi("t", [1, 4, 16])], [axes])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [], [_vi("e", [4, 16])])
    n = helper.make_node("If", ["use_batch"], ["y"], name="maybe_batch", then_branch=then_g, else_branch=else_g)
    return Build(_model([n], [x, cond], [_vi("y", None)]))

@case("if-output-count", "if-conditional-unsupported", cause="branch-shape-mismatch",
      note="an If whose else-branch returns two tensors and whose then-branch returns one")
def _if_output_count():
    x = _vi("x", [2, 8])
    cond = _vi("flag", [], TensorProto.BOOL)
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [], [_vi("t", [2, 8])])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["e"]), helper.make_node("Neg", ["x"], ["e2"])],
                               "else", [], [_vi("e", [2, 8]), _vi("e2", [2, 8])])
    n = helper.make_node("If", ["flag"], ["y"], name="choose", then_branch=then_g, else_branch=else_g)
    return Build(_model([n], [x, cond], [_vi("y", None)]))


@case("loop-shapes", "loop-unsupported", cause="loop-carried-shape-changes",
      note="a Loop whose carried value changes shape in the body")
def _loop_shapes():
    x = _vi("x", [1, 4])
    trip = _init("trip", np.array(3, np.int64))
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Concat", ["v_in", "v_in"], ["v_out"], axis=1)],
        "body", [_vi("i", [], I64), _vi("cond_in", [], TensorProto.BOOL), _vi("v_in", None)],
        [_vi("cond_out", [], TensorProto.BOOL), _vi("v_out", None)])
    keep = _init("keep_going", np.array(True))
    n = helper.make_node("Loop", ["trip", "keep_going", "x"], ["y"], name="grow_loop", body=body)
    return Build(_model([n], [x], [_vi("y", None)], [trip, keep]))



@case("loop-pad", "loop-unsupported", cause="loop-carried-shape-changes",
      note="a Loop whose body pads the carried tensor by one row each iteration")
def _loop_pad():
    x = _vi("state", [2, 8])
    trip = _init("steps", np.array(4, np.int64))
    pads = _init("pads", np.array([0, 0, 1, 0], np.int64))
    body = helper.make_graph(
        [helper.make_node("Identity", ["go_in"], ["go_out"]),
         helper.make_node("Pad", ["s_in", "pads"], ["s_out"])],
        "step", [_vi("it", [], I64), _vi("go_in", [], TensorProto.BOOL), _vi("s_in", None)],
        [_vi("go_out", [], TensorProto.BOOL), _vi("s_out", None)], [pads])
    go = _init("go", np.array(True))
    n = helper.make_node("Loop", ["steps", "go", "state"], ["y"], name="pad_loop", body=body)
    return Build(_model([n], [x], [_vi("y", None)], [trip, go]))

@case("loop-slice-dynamic", "loop-unsupported", cause="loop-carried-shape-changes",
      note="a Loop over a dynamic-length tensor whose body drops its first column each iteration")
def _loop_slice_dynamic():
    # The carried value starts as [N, L] and comes back from the body as [N, L-1]. The shapes are symbolic
    # (an optimization profile gives the ranges), so the recurrence check runs in the builder's shape
    # analysis, which compares the two symbolic shapes rather than two numbers: a recurrence must feed back
    # a value of the shape it started from.
    x = _vi("tokens", ["N", "L"])
    trip = _init("trip", np.array(3, np.int64))
    starts, ends, axes = (_init("starts", np.array([1], np.int64)), _init("ends", np.array([2**31], np.int64)),
                          _init("axes", np.array([1], np.int64)))
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Slice", ["v_in", "starts", "ends", "axes"], ["v_out"])],
        "drop_first", [_vi("i", [], I64), _vi("cond_in", [], TensorProto.BOOL), _vi("v_in", None)],
        [_vi("cond_out", [], TensorProto.BOOL), _vi("v_out", None)], [starts, ends, axes])
    keep = _init("keep_going", np.array(True))
    n = helper.make_node("Loop", ["trip", "keep_going", "tokens"], ["y"], name="shrink_loop", body=body)
    return Build(_model([n], [x], [_vi("y", None)], [trip, keep]),
                 profile=[("tokens", (1, 8), (2, 16), (4, 32))])


@case("qdq-negative-scale", "qdq-placement-error", cause="nonpositive-scale",
      note="a QuantizeLinear whose scale is negative")
def _qdq_negative_scale():
    x = _vi("x", [1, 3, 8, 8])
    scale = _init("scale", np.array(-0.1, np.float32))
    zp = _init("zp", np.array(0, np.int8))
    nodes = [helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["q"], name="quant"),
             helper.make_node("DequantizeLinear", ["q", "scale", "zp"], ["y"], name="dequant")]
    return Build(_model(nodes, [x], [_vi("y", None)], [scale, zp]))


@case("graph-cycle", "graph-topological-sort-failed",
      note="two nodes that read each other's output (a cycle left by graph surgery)")
def _graph_cycle():
    x = _vi("x", [2, 4])
    a = helper.make_node("Add", ["x", "feedback"], ["summed"], name="add_feedback")
    b = helper.make_node("Relu", ["summed"], ["feedback"], name="relu_back")
    return Build(_model([a, b], [x], [_vi("feedback", None)]))


@case("missing-input", "parser-missing-input-tensor", cause="unregistered-input",
      note="a node reads a tensor that no node, input or initializer of the graph defines")
def _missing_input():
    x = _vi("x", [1, 3, 8, 8])
    nodes = [helper.make_node("Relu", ["x"], ["hidden"], name="relu"),
             helper.make_node("Add", ["hidden", "bias_from_pruned_branch"], ["y"], name="add_bias")]
    return Build(_model(nodes, [x], [_vi("y", None)]))


@case("dropout-training-mode", "weights-must-be-initializer",
      note="a Dropout whose training_mode is a graph input rather than a constant")
def _dropout_training_mode():
    x = _vi("x", [1, 16])
    training = _vi("training_mode", [], TensorProto.BOOL)
    ratio = _init("ratio", np.array(0.1, np.float32))
    n = helper.make_node("Dropout", ["x", "ratio", "training_mode"], ["y"], name="dropout")
    return Build(_model([n], [x, training], [_vi("y", None)], [ratio], opset=13))


@case("einsum-output-subscript", "einsum-equation-unsupported", cause="output-label-not-in-inputs",
      note="an Einsum whose output names a subscript no input has")
def _einsum_output_subscript():
    a, b = _vi("a", [2, 3]), _vi("b", [3, 4])
    n = helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum_bad", equation="ij,jk->iz")
    return Build(_model([n], [a, b], [_vi("y", None)]))



@case("einsum-batch-subscript", "einsum-equation-unsupported", cause="output-label-not-in-inputs",
      note="a batched Einsum whose output keeps a subscript that neither operand has")
def _einsum_batch_subscript():
    a, b = _vi("q", [2, 4, 8]), _vi("k", [2, 8, 4])
    n = helper.make_node("Einsum", ["q", "k"], ["y"], name="attn_scores", equation="bij,bjk->bim")
    return Build(_model([n], [a, b], [_vi("y", None)]))

@case("cast-without-to", "attribute-not-found", cause="required-attribute-missing",
      note="a Cast node written without its required 'to' attribute")
def _cast_without_to():
    x = _vi("x", [1, 16])
    n = helper.make_node("Cast", ["x"], ["y"], name="cast_fp16")
    return Build(_model([n], [x], [_vi("y", None)]))


# ---- operators, second round

@case("nonzero-plugin-missing", "nonzero-unsupported", cause="tensorrt-rtx",
      note="a NonZero over a float mask (boolean indexing in PyTorch): TensorRT-RTX 1.7 imports it through a NonZero "
           "plugin creator that its registry does not have")
def _nonzero_plugin_missing():
    x = _vi("scores", [4, 4])
    nodes = [helper.make_node("NonZero", ["scores"], ["nz"], name="/NonZero"),
             helper.make_node("Transpose", ["nz"], ["y"], name="/Transpose")]
    return Build(_model(nodes, [x], [_vi("y", None, I64)], opset=13))


@case("reducesum-axes-input", "weights-must-be-initializer",
      note="a ReduceSum (opset 13) whose axes come in as a graph input instead of an initializer")
def _reducesum_axes_input():
    x, axes = _vi("x", [2, 3, 4]), _vi("axes", [1], I64)
    n = helper.make_node("ReduceSum", ["x", "axes"], ["y"], name="sum_over_axes", keepdims=1)
    return Build(_model([n], [x, axes], [_vi("y", None)], opset=13))


@case("concat-mixed-types", "layer-input-type-mismatch",
      note="a Concat of a float feature tensor and an INT32 index tensor, no Cast between them")
def _concat_mixed_types():
    a, b = _vi("features", [1, 3]), _vi("positions", [1, 3], TensorProto.INT32)
    n = helper.make_node("Concat", ["features", "positions"], ["y"], name="cat_with_positions", axis=1)
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("concat-branch-sizes", "concat-dims-mismatch", cause="branch-shape-mismatch",
      note="a Concat of two feature maps of 16x16 and 15x15 (a skip connection after stride rounding), its node "
           "named by hand rather than by the exporter")
def _concat_branch_sizes():
    a, b = _vi("skip", [1, 4, 16, 16]), _vi("up", [1, 4, 15, 15])
    n = helper.make_node("Concat", ["skip", "up"], ["y"], name="merge_skip", axis=1)
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("layernorm-axis", "convert-axis-out-of-range", cause="other-op-axis",
      note="a LayerNormalization (opset 17) with axis 3 on a 3-D tensor, so that no axis is left to normalize")
def _layernorm_axis():
    x = _vi("hidden", [2, 4, 8])
    scale = _init("ln_scale", np.ones(8, np.float32))
    n = helper.make_node("LayerNormalization", ["hidden", "ln_scale"], ["y"], name="ln_final", axis=3)
    return Build(_model([n], [x], [_vi("y", None)], [scale], opset=17))


@case("nms-short-name", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a NonMaxSuppression with center_point_box=1 (YOLO-style boxes) in a node named 'nms': TensorRT-RTX "
           "imports it and then finds no runner for the layer")
def _nms_short_name():
    boxes, scores = _vi("boxes", [1, 10, 4]), _vi("scores", [1, 2, 10])
    top = _init("max_out", np.array([5], np.int64))
    iou = _init("iou", np.array([0.5], np.float32))
    n = helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_out", "iou"], ["selected"], name="nms",
                         center_point_box=1)
    return Build(_model([n], [boxes, scores], [_vi("selected", None, I64)], [top, iou], opset=11))


@case("matmul-int64", "op-input-type-unsupported",
      note="a MatMul of two INT64 tensors (index arithmetic written as a matrix product)")
def _matmul_int64():
    a, b = _vi("a", [2, 3], I64), _vi("b", [3, 4], I64)
    n = helper.make_node("MatMul", ["a", "b"], ["y"], name="index_matmul")
    return Build(_model([n], [a, b], [_vi("y", None, I64)]))


@case("matmul-bool", "bool-tensor-unsupported",
      note="a MatMul of two bool adjacency masks (path counting without a Cast)")
def _matmul_bool():
    a, b = _vi("adj_a", [3, 3], TensorProto.BOOL), _vi("adj_b", [3, 3], TensorProto.BOOL)
    n = helper.make_node("MatMul", ["adj_a", "adj_b"], ["y"], name="reach")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.BOOL)]))


@case("dft-op", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a DFT (opset 17, torch.fft.rfft exported): TensorRT-RTX has no importer and no plugin of that name")
def _dft_op():
    x = _vi("signal", [1, 16, 1])
    n = helper.make_node("DFT", ["signal"], ["spectrum"], name="rfft", onesided=1)
    return Build(_model([n], [x], [_vi("spectrum", None)], opset=17))


@case("pad-reflect-channel", "pad-mode-or-axis-unsupported", negative=True,
      note="a reflect Pad that also pads the channel axis: older TensorRT refused reflect padding outside the "
           "last two axes; this release builds it")
def _pad_reflect_channel():
    x = _vi("x", [1, 3, 8, 8])
    pads = _init("pads", np.array([0, 1, 0, 0, 0, 1, 0, 0], np.int64))
    n = helper.make_node("Pad", ["x", "pads"], ["y"], name="pad_reflect", mode="reflect")
    return Build(_model([n], [x], [_vi("y", None)], [pads], opset=13))


@case("range-float-computed", "range-dynamic-int32", negative=True,
      note="a FLOAT Range whose limit is the sequence length read from a dynamic input's shape "
           "(torch.arange(x.shape[1], dtype=float)): TensorRT before 8.4 GA refused it; this release builds it")
def _range_float_computed():
    x = _vi("x", ["batch", "seq", 8])
    start, delta = _init("start", np.array(0, np.float32)), _init("delta", np.array(1, np.float32))
    idx = _init("idx", np.array(1, np.int64))
    nodes = [helper.make_node("Shape", ["x"], ["s"], name="/Shape"),
             helper.make_node("Gather", ["s", "idx"], ["len"], name="/Gather", axis=0),
             helper.make_node("Cast", ["len"], ["len_f"], name="/Cast", to=F),
             helper.make_node("Range", ["start", "len_f", "delta"], ["y"], name="/Range")]
    return Build(_model(nodes, [x], [_vi("y", None)], [start, delta, idx], opset=13),
                 profile=[("x", (1, 1, 8), (2, 16, 8), (4, 64, 8))])


@case("gridsample-5d", "unsupported-onnx-op", negative=True,
      note="a GridSample (opset 20) on a 5-D volume with a 3-D grid: older parsers had no GridSample importer; "
           "this release builds it")
def _gridsample_5d():
    x, grid = _vi("volume", [1, 2, 4, 4, 4]), _vi("grid", [1, 4, 4, 4, 3])
    n = helper.make_node("GridSample", ["volume", "grid"], ["y"], name="warp_3d", mode="linear")
    return Build(_model([n], [x, grid], [_vi("y", None)], opset=20, ir_version=9))


@case("gather-float-indices", "op-input-type-unsupported",
      note="a Gather whose indices are a float tensor (positions computed in float and never cast to an integer type)")
def _gather_float_indices():
    x, idx = _vi("table", [4, 8]), _vi("positions", [2])
    n = helper.make_node("Gather", ["table", "positions"], ["y"], name="lookup", axis=0)
    return Build(_model([n], [x, idx], [_vi("y", None)]))


@case("maxunpool-op", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a MaxUnpool (nn.MaxUnpool2d in a SegNet-style decoder): this parser's checker turns the op down")
def _maxunpool_op():
    x, ind = _vi("pooled", [1, 4, 4, 4]), _vi("indices", [1, 4, 4, 4], I64)
    n = helper.make_node("MaxUnpool", ["pooled", "indices"], ["y"], name="unpool", kernel_shape=[2, 2], strides=[2, 2])
    return Build(_model([n], [x, ind], [_vi("y", None)], opset=11))


@case("bitwise-and-op", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a BitwiseAnd (opset 18) of two INT32 flag tensors, an op this parser does not import")
def _bitwise_and_op():
    a, b = _vi("flags", [4], TensorProto.INT32), _vi("mask", [4], TensorProto.INT32)
    n = helper.make_node("BitwiseAnd", ["flags", "mask"], ["y"], name="flag_and")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.INT32)], opset=18))


@case("flatten-axis", "convert-axis-out-of-range", cause="axis-outside-rank",
      note="a Flatten with axis 5 on a 3-D tensor")
def _flatten_axis():
    x = _vi("x", [2, 3, 4])
    n = helper.make_node("Flatten", ["x"], ["y"], name="flatten_head", axis=5)
    return Build(_model([n], [x], [_vi("y", None)]))


@case("qdq-uint8-zero-point", "qdq-placement-error", cause="asymmetric-zero-point",
      note="a QuantizeLinear/DequantizeLinear pair with a UINT8 zero point of 128, as ONNX Runtime's static "
           "quantization writes it")
def _qdq_uint8_zero_point():
    x = _vi("x", [1, 8])
    scale, zp = _init("scale", np.array(0.1, np.float32)), _init("zero_point", np.array(128, np.uint8))
    nodes = [helper.make_node("QuantizeLinear", ["x", "scale", "zero_point"], ["q"], name="x_quant"),
             helper.make_node("DequantizeLinear", ["q", "scale", "zero_point"], ["y"], name="x_dequant")]
    return Build(_model(nodes, [x], [_vi("y", None)], [scale, zp], opset=13))


@case("conv1d-kernel-2d", "pool-kernel-rank-mismatch", cause="conv-input-rank",
      note="a 1-D convolution (3-D input, 3-D weights) whose kernel_shape was written with two entries")
def _conv1d_kernel_2d():
    x = _vi("audio", [1, 4, 16])
    w = _init("w", np.ones((4, 4, 3), np.float32))
    n = helper.make_node("Conv", ["audio", "w"], ["y"], name="conv1d", kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("scatterelements-mul", "scatternd-unsupported", cause="scatterelements-reduction",
      note="a ScatterElements (opset 18) with reduction 'mul' (scatter_reduce with prod)")
def _scatterelements_mul():
    x = _vi("x", [4, 4])
    idx, upd = _init("idx", np.array([[0, 1]], np.int64)), _init("upd", np.ones((1, 2), np.float32))
    n = helper.make_node("ScatterElements", ["x", "idx", "upd"], ["y"], name="scatter_prod", axis=1, reduction="mul")
    return Build(_model([n], [x], [_vi("y", None)], [idx, upd], opset=18))


@case("cast-double-roundtrip", "unsupported-onnx-datatype", negative=True,
      note="a Cast to DOUBLE and back (numpy float64 arithmetic in the exported graph): TensorRT before 10 refused "
           "DOUBLE tensors; this release builds it")
def _cast_double_roundtrip():
    x = _vi("x", [1, 4])
    nodes = [helper.make_node("Cast", ["x"], ["d"], name="to_double", to=TensorProto.DOUBLE),
             helper.make_node("Cast", ["d"], ["y"], name="to_float", to=F)]
    return Build(_model(nodes, [x], [_vi("y", None)]))


@case("not-float-input", "op-input-type-unsupported",
      note="a Not over a float mask (a comparison result cast to float before the inversion)")
def _not_float_input():
    x = _vi("mask", [4])
    n = helper.make_node("Not", ["mask"], ["y"], name="invert_mask")
    return Build(_model([n], [x], [_vi("y", None)]))


@case("and-int32-inputs", "op-input-type-unsupported",
      note="a logical And of two INT32 flag tensors (a bitwise and written as the logical op)")
def _and_int32_inputs():
    a, b = _vi("flags_a", [4], TensorProto.INT32), _vi("flags_b", [4], TensorProto.INT32)
    n = helper.make_node("And", ["flags_a", "flags_b"], ["y"], name="both_flags")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.INT32)]))


@case("equal-float-int64", "layer-input-type-mismatch",
      note="an Equal between float scores and an INT64 label tensor, no Cast between them")
def _equal_float_int64():
    a, b = _vi("pred", [4]), _vi("label", [4], I64)
    n = helper.make_node("Equal", ["pred", "label"], ["y"], name="correct")
    return Build(_model([n], [a, b], [_vi("y", None, TensorProto.BOOL)]))


@case("global-avgpool-2d", "pool-kernel-rank-mismatch", cause="pool-kernel-rank",
      note="a GlobalAveragePool on a 2-D [batch, features] tensor (after a Flatten), which has no spatial axis to pool")
def _global_avgpool_2d():
    x = _vi("features", [2, 16])
    n = helper.make_node("GlobalAveragePool", ["features"], ["y"], name="gap_head")
    return Build(_model([n], [x], [_vi("y", None)]))


@case("softmax-scalar", "convert-axis-out-of-range", cause="axis-outside-rank",
      note="a Softmax with axis -1 over a 0-D scalar (a score reduced to one value before the normalization)")
def _softmax_scalar():
    x = _vi("score", [])
    n = helper.make_node("Softmax", ["score"], ["y"], name="normalize_score", axis=-1)
    return Build(_model([n], [x], [_vi("y", None)], opset=13))


@case("conv-groups-not-dividing", "conv-kernel-weight-count", cause="input-channel-mismatch",
      note="a grouped Conv with group 4 on 6 input channels, its weights made for 8 (a group count changed by hand)")
def _conv_groups_not_dividing():
    x = _vi("x", [1, 6, 8, 8])
    w = _init("w", np.ones((4, 2, 3, 3), np.float32))
    n = helper.make_node("Conv", ["x", "w"], ["y"], name="grouped_conv", group=4, kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("convtranspose-weights-channels", "conv-kernel-weight-count", cause="input-channel-mismatch",
      note="a ConvTranspose on 4 channels whose weights were made for 8 input channels")
def _convtranspose_weights_channels():
    x = _vi("x", [1, 4, 8, 8])
    w = _init("w", np.ones((8, 2, 3, 3), np.float32))
    n = helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv", kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("slice-axes-outside-rank", "convert-axis-out-of-range", cause="other-op-axis",
      note="a Slice whose axes input names axis 3 of a 2-D tensor")
def _slice_axes_outside_rank():
    x = _vi("x", [2, 8])
    starts, ends, axes = (_init("starts", np.array([0], np.int64)), _init("ends", np.array([4], np.int64)),
                          _init("axes", np.array([3], np.int64)))
    n = helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"], name="crop")
    return Build(_model([n], [x], [_vi("y", None)], [starts, ends, axes]))


@case("range-float-input-limit", "shape-tensor-not-integer", cause="float-input-used-as-shape",
      note="a Range whose limit is a FLOAT network input (a sequence length passed to the model as a float): "
           "TensorRT-RTX 1.7 asserts in its symbolic shape analysis instead of naming the float shape input")
def _range_float_input_limit():
    limit = _vi("length", [], F)
    start, delta = _init("start", np.array(0, np.float32)), _init("delta", np.array(1, np.float32))
    n = helper.make_node("Range", ["start", "length", "delta"], ["positions"], name="arange_positions")
    return Build(_model([n], [limit], [_vi("positions", None)], [start, delta], opset=11))

@case("prelu-slope-1d", "elementwise-broadcast-mismatch", cause="incompatible-shapes",
      note="a PRelu on a [1, 32, 56, 56] feature map whose per-channel slope is a plain [32] vector (as MXNet and "
           "Keras exporters write it), which ONNX broadcasting aligns with the width axis, not the channels")
def _prelu_slope_1d():
    x = _vi("x", [1, 32, 56, 56])
    slope = _init("prelu_gamma", np.full((32,), 0.25, np.float32))
    n = helper.make_node("PRelu", ["x", "prelu_gamma"], ["y"], name="conv_1_relu")
    return Build(_model([n], [x], [_vi("y", None)], [slope], opset=9))

@case("unsqueeze-axis-past-rank", "convert-axis-out-of-range", cause="other-op-axis",
      note="an Unsqueeze (opset 13) of a 2-D tensor whose axes input asks for axis 4, past the rank of its 3-D output")
def _unsqueeze_axis_past_rank():
    x = _vi("x", [2, 3])
    axes = _init("axes", np.array([4], np.int64))
    n = helper.make_node("Unsqueeze", ["x", "axes"], ["y"], name="add_trailing_axis")
    return Build(_model([n], [x], [_vi("y", None)], [axes], opset=13))


@case("instancenorm-scale-count", "scale-weights-count-mismatch",
      note="an InstanceNormalization on 8 channels whose scale and bias were made for 4 (weights of a narrower variant)")
def _instancenorm_scale_count():
    x = _vi("x", [1, 8, 4, 4])
    scale, bias = _init("in_scale", np.ones(4, np.float32)), _init("in_bias", np.zeros(4, np.float32))
    n = helper.make_node("InstanceNormalization", ["x", "in_scale", "in_bias"], ["y"], name="inorm")
    return Build(_model([n], [x], [_vi("y", None)], [scale, bias]))


@case("squeeze-non-unit-axis", "shuffle-reshape-volume", cause="squeeze-or-block-rearrange",
      note="a Squeeze (opset 13) of axis 1 of a [2, 3, 4] tensor, an axis of size 3 rather than 1")
def _squeeze_non_unit_axis():
    x = _vi("x", [2, 3, 4])
    axes = _init("axes", np.array([1], np.int64))
    n = helper.make_node("Squeeze", ["x", "axes"], ["y"], name="squeeze_channels")
    return Build(_model([n], [x], [_vi("y", None)], [axes], opset=13))


@case("depthtospace-channels", "shuffle-reshape-volume", cause="squeeze-or-block-rearrange",
      note="a DepthToSpace with blocksize 2 on 6 channels, not a multiple of the block's 4 pixels (a PixelShuffle "
           "after a convolution whose width was changed)")
def _depthtospace_channels():
    x = _vi("x", [1, 6, 4, 4])
    n = helper.make_node("DepthToSpace", ["x"], ["y"], name="pixel_shuffle", blocksize=2)
    return Build(_model([n], [x], [_vi("y", None)]))

@case("layernorm-scale-width", "scale-weights-count-mismatch",
      note="a LayerNormalization (opset 17) over a hidden size of 8 whose scale was made for a hidden size of 4")
def _layernorm_scale_width():
    x = _vi("hidden", [2, 4, 8])
    scale = _init("ln_weight", np.ones(4, np.float32))
    n = helper.make_node("LayerNormalization", ["hidden", "ln_weight"], ["y"], name="ln_out", axis=-1)
    return Build(_model([n], [x], [_vi("y", None)], [scale], opset=17))


@case("topk-k-above-axis", "topk-k-limit", cause="k-exceeds-axis",
      note="a TopK asking for the 20 best of 10 candidates (K written for a longer axis than the model has)")
def _topk_k_above_axis():
    x = _vi("scores", [1, 10])
    k = _init("k", np.array([20], np.int64))
    n = helper.make_node("TopK", ["scores", "k"], ["values", "indices"], name="top20")
    return Build(_model([n], [x], [_vi("values", None), _vi("indices", None, I64)], [k], opset=11))


@case("conv-weights-graph-input", "conv-weights-not-constant", negative=True,
      note="a Conv whose weights are a network input (weights fed at run time, no Q/DQ): TensorRT before 8.5 "
           "refused it outside explicit quantization; this release builds it")
def _conv_weights_graph_input():
    x, w = _vi("x", [1, 4, 8, 8]), _vi("w", [8, 4, 3, 3])
    n = helper.make_node("Conv", ["x", "w"], ["y"], name="conv_runtime_weights", kernel_shape=[3, 3])
    return Build(_model([n], [x, w], [_vi("y", None)]))

@case("split-axis-past-rank", "convert-axis-out-of-range", cause="other-op-axis",
      note="a Split (opset 13) of a [2, 8] tensor along axis 2, an axis counted for the 3-D [batch, heads, dim] layout "
           "the code had before a reshape was removed")
def _split_axis_past_rank():
    x = _vi("x", [2, 8])
    split = _init("split", np.array([4, 4], np.int64))
    n = helper.make_node("Split", ["x", "split"], ["first", "second"], name="split_heads", axis=2)
    return Build(_model([n], [x], [_vi("first", None), _vi("second", None)], [split], opset=13))


@case("cumsum-axis-past-rank", "convert-axis-out-of-range", cause="other-op-axis",
      note="a CumSum over axis 2 of a [2, 10] tensor; TensorRT-RTX 1.7 imports it and refuses the axis while building")
def _cumsum_axis_past_rank():
    x = _vi("x", [2, 10])
    axis = _init("axis", np.array(2, np.int64))
    n = helper.make_node("CumSum", ["x", "axis"], ["y"], name="running_total")
    return Build(_model([n], [x], [_vi("y", None)], [axis], opset=14))


@case("gatherelements-axis-past-rank", "convert-axis-out-of-range", cause="other-op-axis",
      note="a GatherElements (torch.gather) with axis 2 on a 2-D tensor and its 2-D index")
def _gatherelements_axis_past_rank():
    x = _vi("x", [2, 10])
    idx = _init("idx", np.zeros((2, 3), np.int64))
    n = helper.make_node("GatherElements", ["x", "idx"], ["y"], name="gather_scores", axis=2)
    return Build(_model([n], [x], [_vi("y", None)], [idx], opset=13))

@case("batchnorm1d-unsqueeze-builds", "batchnorm1d-unsqueeze", negative=True,
      note="a BatchNorm1d on [batch, features] exported the old way, Unsqueeze, BatchNormalization, Squeeze: the "
           "implicit-batch parsers of TensorRT 5-6 failed on it; this release builds it")
def _batchnorm1d_unsqueeze_builds():
    x = _vi("features", [4, 16])
    axes = _init("axes", np.array([2], np.int64))
    params = [_init(name, value.astype(np.float32)) for name, value in
              (("bn_scale", np.ones(16)), ("bn_bias", np.zeros(16)), ("bn_mean", np.zeros(16)), ("bn_var", np.ones(16)))]
    nodes = [helper.make_node("Unsqueeze", ["features", "axes"], ["features_3d"], name="Unsqueeze_0"),
             helper.make_node("BatchNormalization", ["features_3d", *(p.name for p in params)], ["normed"],
                              name="BatchNormalization_1"),
             helper.make_node("Squeeze", ["normed", "axes"], ["y"], name="Squeeze_2")]
    return Build(_model(nodes, [x], [_vi("y", None)], [axes, *params], opset=13))


@case("instancenorm-dynamic-hw-builds", "instancenorm-dynamic-shape", negative=True,
      note="an InstanceNormalization on an input with dynamic height and width, built with a profile: the TensorRT 7 "
           "parser refused dynamic inputs to it; this release builds it")
def _instancenorm_dynamic_hw_builds():
    x = _vi("x", [1, 4, "height", "width"])
    scale, bias = _init("in_scale", np.ones(4, np.float32)), _init("in_bias", np.zeros(4, np.float32))
    n = helper.make_node("InstanceNormalization", ["x", "in_scale", "in_bias"], ["y"], name="inorm_dynamic")
    return Build(_model([n], [x], [_vi("y", None)], [scale, bias]),
                 profile=[("x", (1, 4, 8, 8), (1, 4, 32, 32), (1, 4, 64, 64))])


# ---- data types and versions

@case("string-input", "unsupported-onnx-datatype", cause="string-or-unsupported-initializer",
      note="a graph input of type STRING")
def _string_input():
    x = _vi("text", [2], TensorProto.STRING)
    n = helper.make_node("Identity", ["text"], ["y"], name="ident")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.STRING)]))


@case("cast-uint8-intermediate", "unsupported-onnx-datatype", cause="uint8-tensor",
      note="a Cast to UINT8 in the middle of the graph (a PyTorch .to(torch.uint8) that rounds an image), cast back to float")
def _cast_uint8_intermediate():
    # TensorRT accepts UINT8 only at the network's inputs and outputs (and for DLA quantization); a Cast whose
    # result is UINT8 and feeds another node makes a UINT8 tensor inside the network, which the parser refuses.
    x = _vi("image", [1, 3, 8, 8])
    lo, hi = _init("lo", np.array(0, np.float32)), _init("hi", np.array(255, np.float32))
    nodes = [helper.make_node("Clip", ["image", "lo", "hi"], ["clipped"], name="clip_0_255"),
             helper.make_node("Cast", ["clipped"], ["pixels"], name="to_uint8", to=TensorProto.UINT8),
             helper.make_node("Cast", ["pixels"], ["y"], name="to_float", to=F)]
    return Build(_model(nodes, [x], [_vi("y", None)], [lo, hi]))


@case("complex-initializer", "unsupported-onnx-datatype", cause="string-or-unsupported-initializer",
      note="an initializer of type COMPLEX64")
def _complex_initializer():
    x = _vi("x", [4], TensorProto.COMPLEX64)
    c = _init("c", np.ones(4, np.complex64))
    n = helper.make_node("Add", ["x", "c"], ["y"], name="complex_add")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.COMPLEX64)], [c]))


@case("external-data", "external-data-missing", cause="data-file-not-beside-model",
      note="an initializer stored in an external file that is not beside the model")
def _external_data():
    x = _vi("x", [1, 4, 8, 8])
    w = _init("conv.weight", np.ones((8, 4, 3, 3), np.float32))
    w.ClearField("raw_data")
    w.ClearField("float_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "zoo_weights.bin"), ("offset", "0"), ("length", str(8 * 4 * 9 * 4))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    n = helper.make_node("Conv", ["x", "conv.weight"], ["y"], name="conv_ext", kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("external-data-from-bytes", "external-data-missing", cause="parsed-from-bytes",
      note="the same model read into memory and handed to parser.parse() without its path")
def _external_data_from_bytes():
    model = _external_data().model

    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        parser = trt.OnnxParser(network, logger)
        if not parser.parse(model.SerializeToString()):
            for i in range(parser.num_errors):
                say(f"{parser.get_error(i)}\n")
            say("ERROR: Failed to parse the ONNX file.\n")
            return False
        return True
    return Build(steps=steps)


# ---- quantization and precision

def _qdq_pair(x: str, scale: str, zero_point: str | None, out: str = "y", **attrs):
    """A QuantizeLinear and its DequantizeLinear sharing one scale (and zero point), as quantizers export them."""
    extra = [zero_point] if zero_point else []
    return [helper.make_node("QuantizeLinear", [x, scale, *extra], [out + "_q"], name="quant_" + out, **attrs),
            helper.make_node("DequantizeLinear", [out + "_q", scale, *extra], [out], name="dequant_" + out, **attrs)]


@case("qdq-zero-scale-channel", "qdq-placement-error", cause="nonpositive-scale",
      note="a per-channel QuantizeLinear whose calibrated scale is 0 for a channel that only ever saw zeros")
def _qdq_zero_scale_channel():
    x = _vi("x", [1, 3, 8, 8])
    scale = _init("x_scale", np.array([0.05, 0.0, 0.02], np.float32))
    zp = _init("x_zero_point", np.zeros(3, np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point", axis=1), [x], [_vi("y", None)], [scale, zp],
                        opset=13))


@case("qdq-per-channel-scale-count", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="a per-channel QuantizeLinear on axis 1 of a 3-channel tensor with 4 scales (made for another layer)")
def _qdq_per_channel_scale_count():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("x_scale", np.full(4, 0.05, np.float32)), _init("x_zero_point", np.zeros(4, np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point", axis=1), [x], [_vi("y", None)], [scale, zp],
                        opset=13))


@case("qdq-per-channel-wrong-axis", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="a per-channel QuantizeLinear with one scale per channel (3) but axis 2, the height of the tensor")
def _qdq_per_channel_wrong_axis():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("x_scale", np.full(3, 0.05, np.float32)), _init("x_zero_point", np.zeros(3, np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point", axis=2), [x], [_vi("y", None)], [scale, zp],
                        opset=13))


@case("dq-block-size-uneven", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="a blocked DequantizeLinear (opset 21, block_size 5) of a 16-row weight with 3 scale rows: the "
           "blocks do not divide the quantized axis")
def _dq_block_size_uneven():
    x = _vi("x", [4, 16])
    w = _init("w_quantized", np.ones((16, 8), np.int8))
    scale = _init("w_scale", np.full((3, 8), 0.01, np.float32))
    nodes = [helper.make_node("DequantizeLinear", ["w_quantized", "w_scale"], ["w"], name="dequant_w", axis=0,
                              block_size=5),
             helper.make_node("MatMul", ["x", "w"], ["y"], name="linear")]
    return Build(_model(nodes, [x], [_vi("y", None)], [w, scale], opset=21, ir_version=10))


@case("quantize-output-dtype-uint8", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="an opset-21 QuantizeLinear with no zero point whose output_dtype attribute asks for UINT8")
def _quantize_output_dtype_uint8():
    x = _vi("x", [1, 3, 8, 8])
    scale = _init("x_scale", np.array(0.02, np.float32))
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_scale"], ["x_q"], name="quant_x",
                              output_dtype=TensorProto.UINT8),
             helper.make_node("DequantizeLinear", ["x_q", "x_scale"], ["y"], name="dequant_x")]
    return Build(_model(nodes, [x], [_vi("y", None)], [scale], opset=21, ir_version=10))


@case("dq-uint8-weights-only", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="weight-only quantization as onnxruntime's quantizer writes it with QUInt8 weights: a UINT8 initializer "
           "and its zero point feed a DequantizeLinear before a MatMul")
def _dq_uint8_weights_only():
    x = _vi("x", [2, 16])
    w = _init("w_quantized", np.full((16, 8), 130, np.uint8))
    scale, zp = _init("w_scale", np.array(0.01, np.float32)), _init("w_zero_point", np.array(128, np.uint8))
    nodes = [helper.make_node("DequantizeLinear", ["w_quantized", "w_scale", "w_zero_point"], ["w"], name="dequant_w"),
             helper.make_node("MatMul", ["x", "w"], ["y"], name="linear")]
    return Build(_model(nodes, [x], [_vi("y", None)], [w, scale, zp], opset=13))


@case("qdq-fp8-half-scale", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="an FP8 (E4M3) QuantizeLinear of a float32 tensor whose scale was saved as float16 (from a model "
           "halved after calibration)")
def _qdq_fp8_half_scale():
    x = _vi("x", [1, 3, 8, 8])
    scale = _init("x_scale", np.array(0.02, np.float16))
    zp = helper.make_tensor("x_zero_point", TensorProto.FLOAT8E4M3FN, [], [0])
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point"), [x], [_vi("y", None)], [scale, zp],
                        opset=19, ir_version=9))


@case("matmul-half-weights", "layer-input-type-mismatch",
      note="a MatMul of a float32 activation by a weight initializer stored as float16 (a partly halved model)")
def _matmul_half_weights():
    x = _vi("x", [2, 16])
    w = _init("w", np.ones((16, 8), np.float16))
    n = helper.make_node("MatMul", ["x", "w"], ["y"], name="linear")
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("conv-half-input-float-bias", "layer-input-type-mismatch",
      note="a float16 Conv whose bias initializer stayed float32 (a converter that halved the weights only)")
def _conv_half_input_float_bias():
    x = _vi("x", [1, 4, 8, 8], TensorProto.FLOAT16)
    w = _init("w", np.ones((8, 4, 3, 3), np.float16))
    b = _init("b", np.zeros(8, np.float32))
    n = helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None, TensorProto.FLOAT16)], [w, b]))


@case("add-half-and-float", "layer-input-type-mismatch",
      note="an Add of a float32 input and a float16 input: a strongly typed network does not cast either")
def _add_half_and_float():
    a, b = _vi("a", [1, 16]), _vi("b", [1, 16], TensorProto.FLOAT16)
    n = helper.make_node("Add", ["a", "b"], ["y"], name="residual_add")
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("fp8-flag-removed", "strongly-typed-precision-flags", cause="weak-typing-removed",
      note="a TensorRT 10 FP8 build script setting BuilderFlag.FP8, which TensorRT-RTX does not define")
def _fp8_flag_removed():
    return Build(steps=_set_builder_flag("FP8"))


@case("qdq-scale-row-vector", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="a per-channel QuantizeLinear whose scale and zero point were saved with shape (1, 3) instead of (3,)")
def _qdq_scale_row_vector():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("x_scale", np.full((1, 3), 0.05, np.float32)), _init("x_zero_point", np.zeros((1, 3), np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point", axis=1), [x], [_vi("y", None)], [scale, zp],
                        opset=13))


@case("qdq-opset10-per-channel", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="per-channel scales exported at opset 10, whose QuantizeLinear has no axis attribute (per-channel needs "
           "opset 13)")
def _qdq_opset10_per_channel():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("x_scale", np.full(3, 0.05, np.float32)), _init("x_zero_point", np.zeros(3, np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point"), [x], [_vi("y", None)], [scale, zp], opset=10,
                        ir_version=5))


@case("dq-int4-conv-blocked-weights", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="INT4 weight-only block quantization (block_size 8) of a 1x1 Conv kernel along its input channels, "
           "axis 1 of 4: blocks are only allowed on the last two dimensions")
def _dq_int4_conv_blocked_weights():
    x = _vi("x", [1, 16, 8, 8])
    w = helper.make_tensor("w_quantized", TensorProto.INT4, [8, 16, 1, 1], [1] * 128)
    scale = _init("w_scale", np.full((8, 2, 1, 1), 0.01, np.float32))
    nodes = [helper.make_node("DequantizeLinear", ["w_quantized", "w_scale"], ["w"], name="dequant_w", axis=1,
                              block_size=8),
             helper.make_node("Conv", ["x", "w"], ["y"], name="pointwise_conv", kernel_shape=[1, 1])]
    return Build(_model(nodes, [x], [_vi("y", None)], [w, scale], opset=21, ir_version=10))


@case("dq-fp8-weights-half-matmul", "layer-input-type-mismatch",
      note="FP8 weight-only quantization in a float16 model: the weight's DequantizeLinear has a float32 scale, so "
           "it outputs float32 into a float16 MatMul")
def _dq_fp8_weights_half_matmul():
    x = _vi("x", [2, 16], TensorProto.FLOAT16)
    w = helper.make_tensor("w_quantized", TensorProto.FLOAT8E4M3FN, [16, 8], [1.0] * 128)
    scale = _init("w_scale", np.array(0.01, np.float32))
    nodes = [helper.make_node("DequantizeLinear", ["w_quantized", "w_scale"], ["w"], name="dequant_w"),
             helper.make_node("MatMul", ["x", "w"], ["y"], name="linear")]
    return Build(_model(nodes, [x], [_vi("y", None, TensorProto.FLOAT16)], [w, scale], opset=19, ir_version=9))


@case("layernorm-half-input-float-scale", "layer-input-type-mismatch",
      note="a LayerNormalization on a float16 tensor whose scale and bias were left float32 (a float16 conversion "
           "that kept normalization weights in float32)")
def _layernorm_half_input_float_scale():
    x = _vi("x", [1, 4, 16], TensorProto.FLOAT16)
    gamma, beta = _init("ln_scale", np.ones(16, np.float32)), _init("ln_bias", np.zeros(16, np.float32))
    n = helper.make_node("LayerNormalization", ["x", "ln_scale", "ln_bias"], ["y"], name="layer_norm", axis=-1)
    return Build(_model([n], [x], [_vi("y", None, TensorProto.FLOAT16)], [gamma, beta]))


@case("instancenorm-half-input-float-scale", "layer-input-type-mismatch",
      note="an InstanceNormalization on a float16 tensor whose scale and bias were left float32")
def _instancenorm_half_input_float_scale():
    x = _vi("x", [1, 4, 8, 8], TensorProto.FLOAT16)
    gamma, beta = _init("in_scale", np.ones(4, np.float32)), _init("in_bias", np.zeros(4, np.float32))
    n = helper.make_node("InstanceNormalization", ["x", "in_scale", "in_bias"], ["y"], name="instance_norm")
    return Build(_model([n], [x], [_vi("y", None, TensorProto.FLOAT16)], [gamma, beta]))


@case("qdq-around-erf", "qdq-int8-node-no-candidates", negative=True,
      note="Q/DQ pairs on both sides of an Erf, which has no INT8 kernel: TensorRT 8.5/8.6 could stop with 'All of "
           "the candidates were removed'; this builder runs the Erf in float between them")
def _qdq_around_erf():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("scale", np.array(0.05, np.float32)), _init("zero_point", np.array(0, np.int8))
    nodes = [*_qdq_pair("x", "scale", "zero_point", out="x_dq"),
             helper.make_node("Erf", ["x_dq"], ["e"], name="erf"),
             *_qdq_pair("e", "scale", "zero_point", out="y")]
    return Build(_model(nodes, [x], [_vi("y", None)], [scale, zp], opset=13))


@case("qdq-scale-graph-input", "weights-must-be-initializer", negative=True,
      note="a QuantizeLinear/DequantizeLinear whose scale is a graph input, not an initializer: older parsers "
           "required constant scales; this one builds it")
def _qdq_scale_graph_input():
    x, scale = _vi("x", [1, 3, 8, 8]), _vi("x_scale", [])
    zp = _init("x_zero_point", np.array(0, np.int8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point"), [x, scale], [_vi("y", None)], [zp], opset=13))


@case("qdq-uint8-zero-point-zero", "qdq-placement-error", negative=True,
      note="a Q/DQ pair with a UINT8 zero point equal to 0: the parser warns that UINT8 is for DLA and imports it "
           "as INT8, and the build succeeds")
def _qdq_uint8_zero_point_zero():
    x = _vi("x", [1, 3, 8, 8])
    scale, zp = _init("x_scale", np.array(0.02, np.float32)), _init("x_zero_point", np.array(0, np.uint8))
    return Build(_model(_qdq_pair("x", "x_scale", "x_zero_point"), [x], [_vi("y", None)], [scale, zp], opset=13))


@case("conv-float-input-half-weights", "layer-input-type-mismatch",
      note="a float32 Conv whose weight initializer was saved as float16 (weights halved, activations not)")
def _conv_float_input_half_weights():
    x = _vi("x", [1, 4, 8, 8])
    w = _init("w", np.ones((8, 4, 3, 3), np.float16))
    n = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[3, 3])
    return Build(_model([n], [x], [_vi("y", None)], [w]))


@case("dq-int32-bias", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="a QDQ-format export that quantizes the Conv bias to INT32 (as onnxruntime's quantizer does) and feeds it "
           "through a DequantizeLinear")
def _dq_int32_bias():
    x = _vi("x", [1, 4, 8, 8])
    w = _init("w", np.ones((8, 4, 3, 3), np.float32))
    bias, scale = _init("b_quantized", np.ones(8, np.int32)), _init("b_scale", np.full(8, 0.001, np.float32))
    zp = _init("b_zero_point", np.zeros(8, np.int32))
    nodes = [helper.make_node("DequantizeLinear", ["b_quantized", "b_scale", "b_zero_point"], ["b"], name="dequant_bias",
                              axis=0),
             helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[3, 3])]
    return Build(_model(nodes, [x], [_vi("y", None)], [w, bias, scale, zp], opset=13))


@case("api-quantize-per-channel-no-axis", "qdq-placement-error", cause="unsupported-qdq-configuration",
      note="network API: add_quantize with a 3-element (per-channel) scale whose axis is left at its default")
def _api_quantize_per_channel_no_axis():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        x = network.add_input("x", trt.float32, (1, 3, 8, 8))
        scale = network.add_constant((3,), np.full(3, 0.05, np.float32)).get_output(0)
        quant = network.add_quantize(x, scale, trt.int8)
        dequant = network.add_dequantize(quant.get_output(0), scale, trt.float32)
        network.mark_output(dequant.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("tensor-dynamic-range-removed", "python-api-removed", cause="removed-in-tensorrt-11",
      note="an INT8 script giving a tensor its range with ITensor.set_dynamic_range instead of a calibrator, which "
           "TensorRT-RTX does not have")
def _tensor_dynamic_range_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = _tiny_network(trt, builder)
        try:
            network.get_input(0).set_dynamic_range(-1.0, 1.0)
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


# ---- what no longer fails (negatives: the log must give no diagnosis)

@case("einsum-three-operands", "einsum-equation-unsupported", negative=True,
      note="an Einsum over three operands: TensorRT 8.x refused more than two (MAX_EINSUM_NB_INPUTS); the "
           "TensorRT 10 era parser splits it into pairs")
def _einsum_three_operands():
    a, b, c = _vi("a", [2, 3]), _vi("b", [3, 4]), _vi("c", [4, 5])
    n = helper.make_node("Einsum", ["a", "b", "c"], ["y"], name="einsum_chain", equation="ij,jk,kl->il")
    return Build(_model([n], [a, b, c], [_vi("y", None)]))


@case("einsum-ellipsis-diag-api", "einsum-equation-unsupported", negative=True,
      note="IEinsumLayers written with the network API, one with an ellipsis (...ij,...jk->...ik), one taking a "
           "diagonal (ii->i): TensorRT 8.x's layer refused both ('ellipsis is not permitted', 'Diagonal operations "
           "are not permitted'); this release's layer builds them")
def _einsum_ellipsis_diag_api():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        a = network.add_input("a", trt.float32, (2, 3, 4))
        b = network.add_input("b", trt.float32, (2, 4, 5))
        m = network.add_input("m", trt.float32, (3, 3))
        batched = network.add_einsum([a, b], "...ij,...jk->...ik")
        diagonal = network.add_einsum([m], "ii->i")
        network.mark_output(batched.get_output(0))
        network.mark_output(diagonal.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("pad-wrap-mode", "pad-mode-or-axis-unsupported", negative=True,
      note="a Pad in 'wrap' mode: early parsers only accepted constant zero padding; this release builds it")
def _pad_wrap_mode():
    x = _vi("x", [1, 3, 8, 8])
    pads = _init("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))
    n = helper.make_node("Pad", ["x", "pads"], ["y"], name="pad_wrap", mode="wrap")
    return Build(_model([n], [x], [_vi("y", None)], [pads], opset=19, ir_version=9))


@case("opset-6-warning", "onnx-opset-unsupported", negative=True,
      note="a model stamped with opset 6: the parser warns that opsets below 7 are not guaranteed, then builds it")
def _opset_6_warning():
    x = _vi("x", [1, 3, 8, 8])
    n = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)], opset=6, ir_version=3))


# ---- dynamic shapes and shape tensors

def _shape_profile_steps(model: onnx.ModelProto, shapes, shape_values=(), name: str = "zoo-dynamic"):
    """A custom flow for a model with shape-tensor inputs: set_shape for the data inputs, set_shape_input for
    the values of the shape inputs (input, min, opt, max each)."""
    def steps(trt, logger, say):
        path = Path(tempfile.gettempdir()) / f"{name}.onnx"
        onnx.save(model, str(path))
        parsed = _parse(trt, logger, path, say)
        if parsed is None:
            return False
        builder, network, _parser = parsed
        config = builder.create_builder_config()
        profile = builder.create_optimization_profile()
        try:
            for tensor, lo, opt, hi in shapes:
                profile.set_shape(tensor, lo, opt, hi)
            for tensor, lo, opt, hi in shape_values:
                profile.set_shape_input(tensor, lo, opt, hi)
        except (RuntimeError, TypeError):
            say(_traceback())
            return False
        config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return steps


@case("reshape-heads-not-dividing-profile", "shuffle-reshape-volume", negative=True,
      note="a Reshape to [batch, -1, 4] computed from Shape on a [batch, seq, 6] input: seq*6 divides by 4 only "
           "for even seq and the profile lets seq be 1; TensorRT-RTX only warns that the kMIN shapes cannot be "
           "reshaped and builds the engine")
def _reshape_heads_not_dividing_profile():
    x = _vi("x", ["batch", "seq", 6])
    shape = helper.make_node("Shape", ["x"], ["s"], name="shape", end=1)
    rest = _init("rest", np.array([-1, 4], np.int64))
    target = helper.make_node("Concat", ["s", "rest"], ["t"], name="target", axis=0)
    split = helper.make_node("Reshape", ["x", "t"], ["y"], name="split_heads")
    return Build(_model([shape, target, split], [x], [_vi("y", None)], [rest]),
                 profile=[("x", (1, 1, 6), (2, 8, 6), (4, 16, 6))])


@case("slice-steps-graph-input", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="a Slice whose steps are a network input (a stride chosen at run time), which makes that input a "
           "shape tensor that needs a profile; the build gives none")
def _slice_steps_graph_input():
    x = _vi("x", [1, 16])
    starts, ends, axes = (_init(n, np.array([v], np.int64)) for n, v in (("starts", 0), ("ends", 16), ("axes", 1)))
    steps = _vi("steps", [1], I64)
    n = helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"], name="stride_slice")
    return Build(_model([n], [x, steps], [_vi("y", None)], [starts, ends, axes]))


@case("nonzero-into-reshape", "nonzero-unsupported", cause="tensorrt-rtx",
      note="a NonZero of a boolean mask whose indices are transposed into rows (mask indexing as an exporter "
           "writes it); TensorRT-RTX 1.7 looks for a NonZero plugin and has none")
def _nonzero_into_reshape():
    x = _vi("x", [4, 8])
    zero = _init("zero", np.array(0.0, np.float32))
    mask = helper.make_node("Greater", ["x", "zero"], ["m"], name="positive")
    nz = helper.make_node("NonZero", ["m"], ["idx"], name="nonzero")
    t = helper.make_node("Transpose", ["idx"], ["y"], name="to_rows", perm=[1, 0])
    return Build(_model([mask, nz, t], [x], [_vi("y", None, I64)], [zero], opset=13))


@case("topk-k-graph-input", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="a TopK whose K is a network input (a user-chosen number of results): K becomes a shape tensor, and "
           "the build gives no profile for its values")
def _topk_k_graph_input():
    x = _vi("scores", [1, 1000])
    k = _vi("k", [1], I64)
    n = helper.make_node("TopK", ["scores", "k"], ["values", "indices"], name="topk", axis=1)
    return Build(_model([n], [x, k], [_vi("values", None), _vi("indices", None, I64)]))


@case("tile-repeats-from-argmax", "layer-cannot-compute-shape-tensor", negative=True,
      note="a Tile whose repeats come from an ArgMax of another input: TensorRT-RTX builds it as a "
           "data-dependent shape")
def _tile_repeats_from_argmax():
    x = _vi("x", [1, 4])
    c = _vi("counts", [2, 3])
    am = helper.make_node("ArgMax", ["counts"], ["reps"], name="argmax", axis=1, keepdims=0)
    t = helper.make_node("Tile", ["x", "reps"], ["y"], name="tile")
    return Build(_model([am, t], [x, c], [_vi("y", None)]))


@case("expand-shape-int32-input", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="an Expand whose target shape is an INT32 network input cast to INT64, built with no optimization "
           "profile for the values of that shape input")
def _expand_shape_int32_input():
    x = _vi("x", [1, 4])
    s = _vi("target", [2], TensorProto.INT32)
    cast = helper.make_node("Cast", ["target"], ["s64"], name="to_int64", to=I64)
    n = helper.make_node("Expand", ["x", "s64"], ["y"], name="broadcast")
    return Build(_model([cast, n], [x, s], [_vi("y", None)]))


@case("scalar-input-profile", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a rank-0 (scalar) temperature input given a profile of shape (1,), as code that writes every profile "
           "as a tuple does")
def _scalar_input_profile():
    x = _vi("x", ["batch", 4])
    t = _vi("temperature", [])
    n = helper.make_node("Div", ["x", "temperature"], ["y"], name="scale")
    return Build(_model([n], [x, t], [_vi("y", None)]),
                 profile=[("x", (1, 4), (2, 4), (4, 4)), ("temperature", (1,), (1,), (1,))])


@case("profile-rank-short", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a dynamic [batch, 3, height, width] input given a profile of three dimensions (the batch axis left "
           "out)")
def _profile_rank_short():
    x = _vi("images", ["batch", 3, "height", "width"])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(_model([n], [x], [_vi("y", None)]),
                 profile=[("images", (3, 224, 224), (3, 224, 224), (3, 224, 224))])


@case("unique-op", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a Unique node (a data-dependent output size), which the parser of TensorRT-RTX 1.7 refuses")
def _unique_op():
    x = _vi("x", [16], I64)
    n = helper.make_node("Unique", ["x"], ["y"], name="unique", sorted=1)
    return Build(_model([n], [x], [_vi("y", None, I64)]))


@case("shape-input-profile-values-reversed", "profile-dims-out-of-range", cause="profile-order-invalid",
      note="a Reshape whose target is a shape-tensor input, the profile of its values given min (4, 3) above opt "
           "(3, 4): set_shape_input raises")
def _shape_input_profile_values_reversed():
    x, target = _vi("x", [2, 6]), _vi("target", [2], I64)
    n = helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")
    return Build(steps=_shape_profile_steps(_model([n], [x, target], [_vi("y", None)]), [],
                                            [("target", (4, 3), (3, 4), (2, 6))]))


@case("shape-input-values-wrong-volume", "shuffle-reshape-volume", negative=True,
      note="a Reshape of a [2, 6] tensor whose target is a shape-tensor input with profile values (2, 5) to (2, "
           "7): only opt keeps 12 elements; TensorRT-RTX warns that the kMIN and kMAX values are not "
           "self-consistent and builds")
def _shape_input_values_wrong_volume():
    x, target = _vi("x", [2, 6]), _vi("target", [2], I64)
    n = helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")
    return Build(steps=_shape_profile_steps(_model([n], [x, target], [_vi("y", None)]), [],
                                            [("target", (2, 5), (2, 6), (2, 7))]))


@case("profile-min-minus-one", "profile-dims-out-of-range", cause="profile-order-invalid",
      note="a profile whose min copies the network input's shape, -1 included (network.get_input(0).shape); "
           "set_shape raises")
def _profile_min_minus_one():
    x = _vi("images", ["batch", 3, 32, 32])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(steps=_shape_profile_steps(_model([n], [x], [_vi("y", None)]),
                                            [("images", (-1, 3, 32, 32), (4, 3, 32, 32), (8, 3, 32, 32))]))


@case("shape-values-on-data-input", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="a profile that gives a dynamic data input values with set_shape_input (meant for shape tensors) "
           "instead of set_shape")
def _shape_values_on_data_input():
    x = _vi("images", ["batch", 3, 32, 32])
    n = helper.make_node("Relu", ["images"], ["y"], name="relu")
    return Build(steps=_shape_profile_steps(_model([n], [x], [_vi("y", None)]), [],
                                            [("images", (1, 3, 32, 32), (4, 3, 32, 32), (8, 3, 32, 32))]))


@case("concat-shape-int32-constant", "layer-input-type-mismatch",
      note="a Reshape target made by concatenating Shape (INT64) with an INT32 constant [-1]")
def _concat_shape_int32_constant():
    x = _vi("x", ["batch", 3, 4])
    shape = helper.make_node("Shape", ["x"], ["s"], name="shape", end=1)
    minus_one = _init("minus_one", np.array([-1], np.int32))
    target = helper.make_node("Concat", ["s", "minus_one"], ["t"], name="target", axis=0)
    flatten = helper.make_node("Reshape", ["x", "t"], ["y"], name="flatten")
    return Build(_model([shape, target, flatten], [x], [_vi("y", None)], [minus_one]),
                 profile=[("x", (1, 3, 4), (2, 3, 4), (4, 3, 4))])

@case("constantofshape-negative-dim", "slice-out-of-bounds", negative=True,
      note="a ConstantOfShape whose shape is the input's Shape minus [0, 10], negative for the profile's "
           "shortest sequence (4): TensorRT-RTX warns that the kMIN values are not self-consistent and builds")
def _constantofshape_negative_dim():
    x = _vi("x", ["batch", "seq"])
    s = helper.make_node("Shape", ["x"], ["s"], name="shape")
    ten = _init("ten", np.array([0, 10], np.int64))
    sub = helper.make_node("Sub", ["s", "ten"], ["t"], name="minus_prefix")
    c = helper.make_node("ConstantOfShape", ["t"], ["y"], name="pad_block",
                         value=numpy_helper.from_array(np.array([0.0], np.float32)))
    return Build(_model([s, sub, c], [x], [_vi("y", None)], [ten]), profile=[("x", (1, 4), (2, 16), (4, 32))])


@case("matmul-dynamic-inner-dims", "matmul-inner-dims-mismatch",
      note="a MatMul of [batch, k_a] by [k_b, 16], two inputs whose inner dimensions have different names and "
           "profiles that disagree at opt (64 against 32)")
def _matmul_dynamic_inner_dims():
    a = _vi("a", ["batch", "k_a"])
    b = _vi("b", ["k_b", 16])
    n = helper.make_node("MatMul", ["a", "b"], ["y"], name="proj")
    return Build(_model([n], [a, b], [_vi("y", None)]),
                 profile=[("a", (1, 32), (2, 64), (4, 64)), ("b", (16, 16), (32, 16), (64, 16))])


@case("expand-profile-not-broadcastable", "slice-out-of-bounds", cause="expand-not-broadcastable",
      note="an Expand of x [n, 4] to the Shape of another input [m, 4], whose profiles (n 2-3, m 5-8) never "
           "broadcast")
def _expand_profile_not_broadcastable():
    x = _vi("x", ["n", 4])
    ref = _vi("ref", ["m", 4])
    s = helper.make_node("Shape", ["ref"], ["s"], name="ref_shape")
    n = helper.make_node("Expand", ["x", "s"], ["y"], name="/decoder/Expand")
    return Build(_model([s, n], [x, ref], [_vi("y", None)]),
                 profile=[("x", (2, 4), (2, 4), (3, 4)), ("ref", (5, 4), (6, 4), (8, 4))])

@case("reshape-float-target", "shape-tensor-not-integer", cause="float-value-in-shape-computation",
      note="a Reshape whose target is the input's Shape cast to float and scaled by [2, 0.5] (size arithmetic "
           "done in float and never cast back)")
def _reshape_float_target():
    x = _vi("x", ["batch", 8])
    s = helper.make_node("Shape", ["x"], ["s"], name="shape")
    c = helper.make_node("Cast", ["s"], ["sf"], name="to_float", to=F)
    half = _init("half", np.array([2.0, 0.5], np.float32))
    m = helper.make_node("Mul", ["sf", "half"], ["t"], name="regroup")
    r = helper.make_node("Reshape", ["x", "t"], ["y"], name="reshape")
    return Build(_model([s, c, m, r], [x], [_vi("y", None)], [half]), profile=[("x", (1, 8), (2, 8), (4, 8))])


@case("shape-input-values-wrong-count", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="a Reshape target that is a shape-tensor input of two values, given three values by set_shape_input")
def _shape_input_values_wrong_count():
    x, target = _vi("x", [2, 6]), _vi("target", [2], I64)
    n = helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")
    return Build(steps=_shape_profile_steps(_model([n], [x, target], [_vi("y", None)]), [],
                                            [("target", (2, 3, 2), (2, 3, 2), (2, 3, 2))]))


@case("second-profile-incomplete", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="two optimization profiles for two dynamic inputs, the second (for large batches) setting only one of "
           "them")
def _second_profile_incomplete():
    def steps(trt, logger, say):
        a, b = _vi("image", ["batch", 3, 32, 32]), _vi("mask", ["batch", 3, 32, 32])
        n = helper.make_node("Add", ["image", "mask"], ["y"], name="masked")
        path = Path(tempfile.gettempdir()) / "zoo-two-profiles.onnx"
        onnx.save(_model([n], [a, b], [_vi("y", None)]), str(path))
        parsed = _parse(trt, logger, path, say)
        if parsed is None:
            return False
        builder, network, _parser = parsed
        config = builder.create_builder_config()
        small = builder.create_optimization_profile()
        for name in ("image", "mask"):
            small.set_shape(name, (1, 3, 32, 32), (1, 3, 32, 32), (2, 3, 32, 32))
        config.add_optimization_profile(small)
        large = builder.create_optimization_profile()
        large.set_shape("image", (4, 3, 32, 32), (8, 3, 32, 32), (16, 3, 32, 32))
        config.add_optimization_profile(large)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("reshape-target-rank-2", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="a Reshape whose constant target is the 2-D [[3, 4]] instead of [3, 4] (a target written as a nested "
           "list)")
def _reshape_target_rank_2():
    x = _vi("x", [2, 6])
    shape = _init("shape", np.array([[3, 4]], np.int64))
    n = helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))

@case("profile-on-output-tensor", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="a profile set on the network's output tensor name (logits) instead of its dynamic input (images)")
def _profile_on_output_tensor():
    x = _vi("images", ["batch", 3, 8, 8])
    n = helper.make_node("Relu", ["images"], ["logits"], name="relu")
    return Build(_model([n], [x], [_vi("logits", None)]),
                 profile=[("logits", (1, 3, 8, 8), (2, 3, 8, 8), (4, 3, 8, 8))])


@case("cumsum-axis-graph-input", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="a CumSum whose axis is a scalar network input: TensorRT takes it as a shape input, which the build "
           "gives no profile for")
def _cumsum_axis_graph_input():
    x, axis = _vi("x", [2, 8]), _vi("axis", [], I64)
    n = helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")
    return Build(_model([n], [x, axis], [_vi("y", None)], opset=14))

@case("topk-k-from-shape-profile", "topk-k-limit", negative=True,
      note="a TopK that sorts a whole dynamic axis (K is the axis length from Shape) under a profile whose max "
           "length 8000 is above the K limit: TensorRT-RTX warns that the kMAX values are not self-consistent "
           "and builds")
def _topk_k_from_shape():
    x = _vi("scores", [1, "n"])
    s = helper.make_node("Shape", ["scores"], ["k"], name="shape", start=1, end=2)
    n = helper.make_node("TopK", ["scores", "k"], ["values", "indices"], name="sort_all", axis=1)
    return Build(_model([s, n], [x], [_vi("values", None), _vi("indices", None, I64)]),
                 profile=[("scores", (1, 1), (1, 1000), (1, 8000))])


@case("nms-dynamic-boxes", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a NonMaxSuppression over a dynamic number of boxes, named as torch.onnx names it: TensorRT-RTX "
           "imports the node but has no runner for it")
def _nms_dynamic_boxes():
    boxes, scores = _vi("boxes", [1, "n", 4]), _vi("scores", [1, 1, "n"])
    mx = _init("max_out", np.array([100], np.int64))
    iou = _init("iou", np.array([0.5], np.float32))
    n = helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_out", "iou"], ["sel"], name="/NonMaxSuppression")
    return Build(_model([n], [boxes, scores], [_vi("sel", None, I64)], [mx, iou], opset=11),
                 profile=[("boxes", (1, 1, 4), (1, 100, 4), (1, 1000, 4)), ("scores", (1, 1, 1), (1, 1, 100), (1, 1, 1000))])


@case("compress-mask", "unsupported-onnx-op", cause="standard-op-newer-tensorrt",
      note="a Compress that keeps the rows a boolean input selects (a data-dependent output size), which the "
           "parser of TensorRT-RTX 1.7 refuses")
def _compress_mask():
    x, mask = _vi("x", [8, 4]), _vi("keep", [8], TensorProto.BOOL)
    n = helper.make_node("Compress", ["x", "keep"], ["y"], name="select_rows", axis=0)
    return Build(_model([n], [x, mask], [_vi("y", None)]))


# ---- beyond the parser: the API, the runtime, the driver

def _tiny_network(trt, builder):
    network = builder.create_network(0)
    x = network.add_input("x", trt.float32, (1, 3, 8, 8))
    relu = network.add_activation(x, trt.ActivationType.RELU)
    network.mark_output(relu.get_output(0))
    return network


def _set_builder_flag(flag_name: str):
    """Steps of a build script that asks the builder config for BuilderFlag.<flag_name>."""
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        try:
            config.set_flag(getattr(trt.BuilderFlag, flag_name))
        except AttributeError:
            say(_traceback())
            return False
        return True
    return steps


def _deserialize(trt, logger, say, blob) -> bool:
    """Load ``blob`` as an engine, saying so as an application would when it fails."""
    engine = trt.Runtime(logger).deserialize_cuda_engine(blob)
    if engine is None:
        say("ERROR: Failed to deserialize the engine.\n")
    return engine is not None


@case("engine-garbage", "engine-version-mismatch", cause="file-not-a-plan",
      note="deserializing a file that is not an engine of this TensorRT")
def _engine_garbage():
    def steps(trt, logger, say):
        blob = b"<html><body>404 Not Found</body></html>\n" * 16   # a download that went wrong
        return _deserialize(trt, logger, say, blob)
    return Build(steps=steps)



@case("engine-is-onnx", "engine-version-mismatch", cause="file-not-a-plan",
      note="deserializing an ONNX model file as if it were an engine")
def _engine_is_onnx():
    def steps(trt, logger, say):
        x = _vi("x", [1, 3, 8, 8])
        model = _model([helper.make_node("Relu", ["x"], ["y"])], [x], [_vi("y", None)])
        return _deserialize(trt, logger, say, model.SerializeToString())
    return Build(steps=steps)


@case("engine-empty-file", "engine-file-empty", cause="failed-build-left-empty-file",
      note="deserializing an engine file of 0 bytes, as a build that failed but still opened its output file leaves")
def _engine_empty_file():
    def steps(trt, logger, say):
        return _deserialize(trt, logger, say, b"")
    return Build(steps=steps)


@case("no-cuda-driver", "cuda-driver-too-old", cause="driver-older-than-cuda",
      note="an engine built ahead of time on the CPU, then loaded where the CUDA runtime finds no usable driver")
def _no_cuda_driver():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = _tiny_network(trt, builder)
        plan = builder.build_serialized_network(network, builder.create_builder_config())
        return _deserialize(trt, logger, say, plan)
    return Build(steps=steps)


@case("build-engine-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8 script calling Builder.build_engine, removed in TensorRT 10")
def _build_engine_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = _tiny_network(trt, builder)
        config = builder.create_builder_config()
        try:
            builder.build_engine(network, config)
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("workspace-attr-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8 script setting IBuilderConfig.max_workspace_size, removed in TensorRT 10")
def _workspace_attr_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        try:
            config.max_workspace_size = 1 << 30
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("explicit-batch-flag-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8-style script creating its network with NetworkDefinitionCreationFlag.EXPLICIT_BATCH, an "
           "implicit-batch-era flag that TensorRT 10 deprecated and TensorRT-RTX does not define")
def _explicit_batch_flag_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        try:
            builder.create_network(1 << int(trt.NetworkDefinitionCreationFlag.EXPLICIT_BATCH))
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("fp16-flag-removed", "strongly-typed-precision-flags", cause="weak-typing-removed",
      note="a script asking the builder for FP16 kernels with BuilderFlag.FP16, which TensorRT-RTX does not define")
def _fp16_flag_removed():
    return Build(steps=_set_builder_flag("FP16"))


@case("int8-calibrator-class-missing", "python-api-removed", cause="removed-in-tensorrt-11",
      note="an INT8 export script subclassing trt.IInt8EntropyCalibrator2, which TensorRT-RTX does not define")
def _int8_calibrator_class_missing():
    def steps(trt, logger, say):
        try:
            class Calibrator(trt.IInt8EntropyCalibrator2):   # noqa: F841 (the class statement is what fails)
                pass
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


def _traceback() -> str:
    import traceback

    lines = traceback.format_exc().splitlines()
    return "\n".join(lines) + "\n"


@case("onnx-file-missing", "onnx-file-not-found", cause="file-missing",
      note="a build script whose ONNX path points to a file that does not exist")
def _onnx_file_missing():
    def steps(trt, logger, say):
        return _parse(trt, logger, Path("/tmp/zoo/models/yolov8n.onnx"), say) is not None
    return Build(steps=steps)


@case("squeeze-axes-graph-input", "squeeze-axes-dynamic", cause="axes-not-constant",
      note="a Squeeze-13 whose axes come from a graph input instead of a constant")
def _squeeze_axes_graph_input():
    x, axes = _vi("x", [1, 3, 1, 4]), _vi("axes", [1], I64)
    n = helper.make_node("Squeeze", ["x", "axes"], ["y"], name="squeeze")
    return Build(_model([n], [x, axes], [_vi("y", None)]))


@case("unsqueeze-axes-graph-input", "squeeze-axes-dynamic", cause="axes-not-constant",
      note="an Unsqueeze-13 whose axes come from a graph input instead of a constant")
def _unsqueeze_axes_graph_input():
    x, axes = _vi("x", [3, 4]), _vi("axes", [1], I64)
    n = helper.make_node("Unsqueeze", ["x", "axes"], ["y"], name="unsqueeze")
    return Build(_model([n], [x, axes], [_vi("y", None)]))


@case("slice-api-end-as-size", "slice-out-of-bounds", cause="static-parameters",
      note="network API: add_slice given an end index where it takes the output size, reading past the input")
def _slice_api_end_as_size():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        x = network.add_input("x", trt.float32, (1, 3, 8, 8))
        crop = network.add_slice(x, (0, 0, 6, 0), (1, 3, 4, 8), (1, 1, 1, 1))   # rows 6..9 of 8
        network.mark_output(crop.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("add-float-int32", "layer-input-type-mismatch",
      note="an Add of a float tensor and an int32 tensor, with no Cast between them")
def _add_float_int32():
    a, b = _vi("a", [2, 3]), _vi("b", [2, 3], TensorProto.INT32)
    n = helper.make_node("Add", ["a", "b"], ["y"], name="add")
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("mod-float-python-remainder", "op-input-type-unsupported",
      note="a Mod with fmod=0 (Python's % on tensors) applied to float inputs")
def _mod_float_python_remainder():
    a, b = _vi("a", [3]), _vi("b", [3])
    n = helper.make_node("Mod", ["a", "b"], ["y"], name="remainder", fmod=0)
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("expand-not-broadcastable", "slice-out-of-bounds", cause="expand-not-broadcastable",
      note="an Expand of a [3, 4] tensor to [2, 5], which does not broadcast")
def _expand_not_broadcastable():
    x = _vi("x", [3, 4])
    shape = _init("shape", np.array([2, 5], np.int64))
    n = helper.make_node("Expand", ["x", "shape"], ["y"], name="/model/Expand")
    return Build(_model([n], [x], [_vi("y", None)], [shape]))


@case("shape-input-without-values", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="a Reshape whose target is a graph input (a shape tensor), built with a profile that sets its shape but "
           "not its values")
def _shape_input_without_values():
    def steps(trt, logger, say):
        x, target = _vi("x", [2, 6]), _vi("target", [2], I64)
        n = helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")
        path = Path(tempfile.gettempdir()) / "zoo-shape-input.onnx"
        onnx.save(_model([n], [x, target], [_vi("y", None)]), str(path))
        parsed = _parse(trt, logger, path, say)
        if parsed is None:
            return False
        builder, network, _parser = parsed
        config = builder.create_builder_config()
        profile = builder.create_optimization_profile()
        profile.set_shape("target", (2,), (2,), (2,))   # set_shape_input("target", ...) is what it needs
        config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("external-data-deleted", "external-data-missing", cause="data-file-not-beside-model",
      note="a model saved with its weights in model.onnx.data, parsed after that file was removed")
def _external_data_deleted():
    def steps(trt, logger, say):
        folder = Path(tempfile.gettempdir()) / "zoo-external-data"
        folder.mkdir(exist_ok=True)
        w = _init("w", np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32))
        n = helper.make_node("MatMul", ["x", "w"], ["y"], name="proj")
        onnx.save_model(_model([n], [_vi("x", [1, 64])], [_vi("y", None)], [w]), str(folder / "model.onnx"),
                        save_as_external_data=True, location="model.onnx.data", size_threshold=0)
        (folder / "model.onnx.data").unlink()
        ok = _parse(trt, logger, folder / "model.onnx", say) is not None
        (folder / "model.onnx").unlink()
        folder.rmdir()
        return ok
    return Build(steps=steps)


def _api_network(trt, builder, shape=(1, 3, 8, 8), name="x"):
    """A network built layer by layer with the network API, as tensorrtx-style scripts do; returns (network, input)."""
    network = builder.create_network(0)
    return network, network.add_input(name, trt.float32, shape)


@case("api-profile-wrong-rank", "profile-dims-out-of-range", cause="profile-on-static-dimension",
      note="network API: a 4-D input with a dynamic batch given a profile of three dimensions (the batch axis left "
           "out of min/opt/max)")
def _api_profile_wrong_rank():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 32, 32), "images")
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        config = builder.create_builder_config()
        profile = builder.create_optimization_profile()
        profile.set_shape("images", (3, 32, 32), (3, 32, 32), (3, 32, 32))
        config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("api-dynamic-input-no-profile", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="network API: add_input with a batch of -1, built without any optimization profile")
def _api_dynamic_input_no_profile():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 32, 32), "images")
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("profile-set-shape-input-on-data-tensor", "dynamic-input-no-profile", cause="profile-misses-an-input",
      note="a profile that gives a dynamic image input its range with set_shape_input (meant for shape tensors' "
           "values) instead of set_shape, so the input has no dimensions in the profile")
def _profile_set_shape_input_on_data_tensor():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 32, 32), "images")
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        config = builder.create_builder_config()
        profile = builder.create_optimization_profile()
        profile.set_shape_input("images", (1, 3, 32, 32), (4, 3, 32, 32), (8, 3, 32, 32))
        config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("api-conv-class-count", "conv-kernel-weight-count", cause="class-count-mismatch",
      note="network API: a detection head declared for 80 classes (3 * 85 output channels) loaded with weights "
           "trained for 2 classes (3 * 7)")
def _api_conv_class_count():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 8, 16, 16))
        w = np.full((3 * (5 + 2), 8, 1, 1), 0.01, np.float32)
        b = np.zeros(3 * (5 + 2), np.float32)
        head = network.add_convolution_nd(x, 3 * (5 + 80), (1, 1), trt.Weights(w), trt.Weights(b))
        network.mark_output(head.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("api-flatten-forgets-width", "shuffle-reshape-volume", cause="static-reshape-wrong-numbers",
      note="network API: a flatten before a fully connected layer written as (N, C*H), leaving out the width")
def _api_flatten_forgets_width():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 3, 16, 16))
        flat = network.add_shuffle(x)
        flat.reshape_dims = (1, 3 * 16)
        network.mark_output(flat.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("api-matmul-weights-not-transposed", "matmul-inner-dims-mismatch",
      note="network API: a linear layer's [out, in] weight matrix used as the right operand without transposing it")
def _api_matmul_weights_not_transposed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (4, 64))
        w = network.add_constant((128, 64), trt.Weights(np.ones((128, 64), np.float32))).get_output(0)
        mm = network.add_matrix_multiply(x, trt.MatrixOperation.NONE, w, trt.MatrixOperation.NONE)
        network.mark_output(mm.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("api-concat-feature-sizes", "concat-dims-mismatch", cause="branch-shape-mismatch",
      note="network API: concatenating along channels two feature maps of 8x8 and 4x4 (an upsampling left out)")
def _api_concat_feature_sizes():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 3, 8, 8), "fine")
        y = network.add_input("coarse", trt.float32, (1, 3, 4, 4))
        cat = network.add_concatenation([x, y])
        cat.axis = 1
        network.mark_output(cat.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


def _conv_network(trt, builder):
    network, x = _api_network(trt, builder, (1, 64, 32, 32))
    w = np.full((64, 64, 3, 3), 0.01, np.float32)
    conv = network.add_convolution_nd(x, 64, (3, 3), trt.Weights(w), trt.Weights(np.zeros(64, np.float32)))
    network.mark_output(conv.get_output(0))
    return network


@case("workspace-limit-zero", "no-implementation-for-node", cause="workspace-limit",
      note="a script taking the workspace in GiB as an integer: int(0.5) << 30 sets the workspace pool limit to 0")
def _workspace_limit_zero():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, int(0.5) << 30)
        return _serialize(builder, _conv_network(trt, builder), config, say)
    return Build(steps=steps)


@case("workspace-limit-bytes-for-mib", "no-implementation-for-node", cause="workspace-limit",
      note="a workspace limit of 4096 given in bytes where the script meant MiB, too small for any convolution tactic")
def _workspace_limit_bytes_for_mib():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, 4096)
        return _serialize(builder, _conv_network(trt, builder), config, say)
    return Build(steps=steps)


def _plan_built_elsewhere() -> bytes:
    """A tiny engine built in a child process with a silent logger, as an earlier build would have left it: TensorRT
    keeps the first logger of a process, so building here would put the build's own messages into the log."""
    import subprocess

    build = ("import sys, tensorrt_rtx as trt\n"
             "class Quiet(trt.ILogger):\n"
             "    def __init__(self): trt.ILogger.__init__(self)\n"
             "    def log(self, severity, msg): pass\n"
             "b = trt.Builder(Quiet()); n = b.create_network(0)\n"
             "x = n.add_input('x', trt.float32, (1, 3, 8, 8))\n"
             "n.mark_output(n.add_activation(x, trt.ActivationType.RELU).get_output(0))\n"
             "sys.stdout.buffer.write(bytes(b.build_serialized_network(n, b.create_builder_config())))\n")
    return subprocess.run([sys.executable, "-c", build], capture_output=True, check=True).stdout


@case("engine-truncated", "engine-version-mismatch", cause="file-not-a-plan",
      note="deserializing an engine file cut to half its size (an interrupted copy or download); the engine is built "
           "beforehand in another process, so the log is the loading program's alone")
def _engine_truncated():
    def steps(trt, logger, say):
        plan = _plan_built_elsewhere()
        return _deserialize(trt, logger, say, plan[: len(plan) // 2])
    return Build(steps=steps)


@case("engine-line-endings-converted", "engine-version-mismatch", cause="file-not-a-plan",
      note="deserializing an engine file whose line feeds were turned into CR LF on the way (a text-mode transfer or "
           "git's autocrlf), which makes it longer than its header says")
def _engine_line_endings_converted():
    def steps(trt, logger, say):
        return _deserialize(trt, logger, say, _plan_built_elsewhere().replace(b"\n", b"\r\n"))
    return Build(steps=steps)


@case("engine-inspector-on-failed-load", "engine-version-mismatch", cause="file-not-a-plan",
      note="a script that asks for an engine inspector without checking that deserializing a corrupted file returned "
           "an engine")
def _engine_inspector_on_failed_load():
    def steps(trt, logger, say):
        engine = trt.Runtime(logger).deserialize_cuda_engine(b"\0" * 4096)
        try:
            inspector = engine.create_engine_inspector()
        except AttributeError:
            say(_traceback())
            return False
        say(inspector.get_engine_information(trt.LayerInformationFormat.JSON) + "\n")
        return True
    return Build(steps=steps)


@case("write-plan-after-failed-build", "dynamic-input-no-profile", cause="model-has-dynamic-axes",
      note="a script that writes build_serialized_network's result to a file without checking it for None, after a "
           "build that failed (a dynamic input without a profile)")
def _write_plan_after_failed_build():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 8, 8))
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        plan = builder.build_serialized_network(network, builder.create_builder_config())
        path = Path(tempfile.gettempdir()) / "zoo-model.engine"
        try:
            with open(path, "wb") as f:
                f.write(plan)
        except TypeError:
            say(_traceback())
            return False
        finally:
            path.unlink(missing_ok=True)
        return True
    return Build(steps=steps)


@case("plugin-library-path-missing", "plugin-library-load-failed", cause="library-not-found",
      note="a build script that loads its custom plugin library with ctypes from a path where it was never built")
def _plugin_library_path_missing():
    def steps(trt, logger, say):
        import ctypes

        try:
            ctypes.CDLL("/tmp/zoo/plugins/build/libyolo_layer_plugin.so")
        except OSError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("plugin-creator-not-registered", "plugin-not-found", cause="plugin-library-not-loaded",
      note="a script that asks the plugin registry for a custom plugin's creator without loading its library first, "
           "then uses the None it got")
def _plugin_creator_not_registered():
    def steps(trt, logger, say):
        creator = trt.get_plugin_registry().get_creator("YoloLayer_TRT", "1", "")
        try:
            creator.create_plugin("yolo", trt.PluginFieldCollection([]), trt.TensorRTPhase.BUILD)
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("layer-precision-removed", "strongly-typed-precision-flags", cause="weak-typing-removed",
      note="a TensorRT 8/10 script pinning a layer to FP16 with ILayer.precision, which TensorRT-RTX (strongly typed "
           "only) does not have")
def _layer_precision_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder)
        relu = network.add_activation(x, trt.ActivationType.RELU)
        try:
            relu.precision = trt.float16
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("int8-flag-removed", "strongly-typed-precision-flags", cause="weak-typing-removed",
      note="a script asking the builder for INT8 kernels with BuilderFlag.INT8, which TensorRT-RTX does not define")
def _int8_flag_removed():
    return Build(steps=_set_builder_flag("INT8"))


@case("builder-max-batch-size-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 7/8 implicit-batch script setting Builder.max_batch_size, removed in TensorRT 10")
def _builder_max_batch_size_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        try:
            builder.max_batch_size = 8
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("version-compatible-no-lean-runtime", "builder-resource-library-missing", cause="not-on-library-path",
      note="a build with BuilderFlag.VERSION_COMPATIBLE, which embeds the lean runtime: the builder cannot load "
           "libnvinfer_lean, which TensorRT-RTX does not ship")
def _version_compatible_no_lean_runtime():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.set_flag(trt.BuilderFlag.VERSION_COMPATIBLE)
        return _serialize(builder, _tiny_network(trt, builder), config, say)
    return Build(steps=steps)


@case("api-topk-k-over-limit", "topk-k-limit", cause="k-exceeds-limit",
      note="network API: a pre-NMS TopK of 5000 over 25200 anchor scores; add_topk refuses K and returns None, which the "
           "script then uses")
def _api_topk_k_over_limit():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, scores = _api_network(trt, builder, (1, 25200), "scores")
        topk = network.add_topk(scores, trt.TopKOperation.MAX, 5000, 1 << 1)
        try:
            network.mark_output(topk.get_output(0))
        except AttributeError:
            say(_traceback())
            return False
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("api-batchnorm-scale-count", "scale-weights-count-mismatch",
      note="network API: a batch normalization folded into add_scale with the 32-channel values of the next block, "
           "on a 16-channel tensor")
def _api_batchnorm_scale_count():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 16, 8, 8))
        shift, scale, power = np.zeros(32, np.float32), np.ones(32, np.float32), np.ones(32, np.float32)
        bn = network.add_scale(x, trt.ScaleMode.CHANNEL, trt.Weights(shift), trt.Weights(scale), trt.Weights(power))
        network.mark_output(bn.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("api-residual-channels", "elementwise-broadcast-mismatch", cause="incompatible-shapes",
      note="network API: a residual add of a 3-channel shortcut and a 4-channel branch (the shortcut's projection "
           "left out)")
def _api_residual_channels():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 3, 8, 8), "shortcut")
        y = network.add_input("branch", trt.float32, (1, 4, 8, 8))
        add = network.add_elementwise(x, y, trt.ElementWiseOperation.SUM)
        network.mark_output(add.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("profile-min-copied-with-wildcard", "profile-dims-out-of-range", cause="profile-order-invalid",
      note="a profile whose minimum is the network input's own shape, copied with its -1 batch")
def _profile_min_copied_with_wildcard():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 32, 32), "images")
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        config = builder.create_builder_config()
        profile = builder.create_optimization_profile()
        try:
            profile.set_shape("images", tuple(x.shape), (4, 3, 32, 32), (8, 3, 32, 32))
        except RuntimeError:
            say(_traceback())
            return False
        config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("add-fully-connected-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8 network-API script (tensorrtx style) calling INetworkDefinition.add_fully_connected, removed in "
           "TensorRT 10")
def _add_fully_connected_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (1, 64, 1, 1))
        w, b = np.full((10, 64), 0.01, np.float32), np.zeros(10, np.float32)
        try:
            network.add_fully_connected(x, 10, trt.Weights(w), trt.Weights(b))
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("preview-feature-0805-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8.5-8.6 script enabling PreviewFeature.FASTER_DYNAMIC_SHAPES_0805, removed in TensorRT 10")
def _preview_feature_0805_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        try:
            config.set_preview_feature(trt.PreviewFeature.FASTER_DYNAMIC_SHAPES_0805, True)
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("int8-calibrator-config-removed", "python-api-removed", cause="removed-in-tensorrt-11",
      note="an INT8 build script handing its calibrator to IBuilderConfig.int8_calibrator, which TensorRT-RTX (as "
           "TensorRT 11) does not have")
def _int8_calibrator_config_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        calibrator = object()   # stands for the script's own calibrator instance
        try:
            config.int8_calibrator = calibrator
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("dla-standalone-without-dla", "dla-core-unavailable",
      note="a Jetson build script's DLA-only engine (EngineCapability.DLA_STANDALONE, default device DLA) run where "
           "there is no DLA: TensorRT-RTX on a desktop GPU")
def _dla_standalone_without_dla():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.engine_capability = trt.EngineCapability.DLA_STANDALONE
        config.default_device_type = trt.DeviceType.DLA
        config.DLA_core = 0
        return _serialize(builder, _tiny_network(trt, builder), config, say)
    return Build(steps=steps)


@case("profiling-verbosity-verbose-removed", "python-api-removed", cause="removed-in-tensorrt-10",
      note="a TensorRT 8 script asking for ProfilingVerbosity.VERBOSE, which TensorRT 10 removed (DETAILED replaces it)")
def _profiling_verbosity_verbose_removed():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        try:
            config.profiling_verbosity = trt.ProfilingVerbosity.VERBOSE
        except AttributeError:
            say(_traceback())
            return False
        return True
    return Build(steps=steps)


@case("compute-capability-current-without-gpu", "cuda-driver-too-old", cause="driver-older-than-cuda",
      note="a build for ComputeCapability.CURRENT (the GPU of this machine) on a build host whose CUDA runtime finds no "
           "usable driver")
def _compute_capability_current_without_gpu():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.num_compute_capabilities = 1
        config.set_compute_capability(trt.ComputeCapability.CURRENT, 0)
        return _serialize(builder, _tiny_network(trt, builder), config, say)
    return Build(steps=steps)


@case("load-runtime-lean-missing", "builder-resource-library-missing", cause="not-on-library-path",
      note="IRuntime.load_runtime given the path of a lean runtime library that is not there (a version-compatible "
           "deployment missing its libnvinfer_lean)")
def _load_runtime_lean_missing():
    def steps(trt, logger, say):
        runtime = trt.Runtime(logger)
        lean = runtime.load_runtime("/tmp/zoo/deploy/libnvinfer_lean.so.10")
        if lean is None:
            say("ERROR: Failed to load the lean runtime.\n")
        return lean is not None
    return Build(steps=steps)


@case("api-constant-from-python-ints", "layer-input-type-mismatch",
      note="network API: per-channel factors made with np.ones(..., np.int64) (as np.array of Python ints gives) become an "
           "Int64 constant multiplied with a Float tensor")
def _api_constant_from_python_ints():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder)
        factors = network.add_constant((1, 3, 1, 1), trt.Weights(np.ones((1, 3, 1, 1), np.int64)))
        prod = network.add_elementwise(x, factors.get_output(0), trt.ElementWiseOperation.PROD)
        network.mark_output(prod.get_output(0))
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


@case("two-profiles-builds", "profile-dims-out-of-range", negative=True,
      note="network API: two optimization profiles for one dynamic input, batches 1-4 and 4-16")
def _two_profiles_builds():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder, (-1, 3, 32, 32), "images")
        network.mark_output(network.add_activation(x, trt.ActivationType.RELU).get_output(0))
        config = builder.create_builder_config()
        for lo, hi in ((1, 4), (4, 16)):
            profile = builder.create_optimization_profile()
            profile.set_shape("images", (lo, 3, 32, 32), (lo, 3, 32, 32), (hi, 3, 32, 32))
            config.add_optimization_profile(profile)
        return _serialize(builder, network, config, say)
    return Build(steps=steps)


@case("dla-gpu-fallback-builds", "dla-core-unavailable", negative=True,
      note="a Jetson build script's DLA settings (default device DLA, core 0, GPU fallback) on TensorRT-RTX, which "
           "has no DLA and builds for the GPU")
def _dla_gpu_fallback_builds():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        config = builder.create_builder_config()
        config.default_device_type = trt.DeviceType.DLA
        config.DLA_core = 0
        config.set_flag(trt.BuilderFlag.GPU_FALLBACK)
        return _serialize(builder, _tiny_network(trt, builder), config, say)
    return Build(steps=steps)


@case("mark-output-twice-builds", "network-no-output", negative=True,
      note="network API: mark_output called twice on the same tensor; TensorRT refuses the second call and builds")
def _mark_output_twice_builds():
    def steps(trt, logger, say):
        builder = trt.Builder(logger)
        network, x = _api_network(trt, builder)
        y = network.add_activation(x, trt.ActivationType.RELU).get_output(0)
        network.mark_output(y)
        network.mark_output(y)
        return _serialize(builder, network, builder.create_builder_config(), say)
    return Build(steps=steps)


# ---- neighbours that build: what the failing cases above look like when nothing is wrong
# Each is a verbose log of a successful build next to a failing case's operator or shape machinery: the gate
# checks that no signature claims TensorRT's ordinary verbose chatter about that operator.

@case("unused-input-builds", "network-input-unused", negative=True,
      note="a network input that feeds no layer: TensorRT 10 only warns and builds")
def _unused_input_builds():
    x, unused = _vi("x", [1, 4]), _vi("unused", [1, 4])
    n = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return Build(_model([n], [x, unused], [_vi("y", None)]))


@case("argmax-select-last-builds", "slice-out-of-bounds", negative=True,
      note="an ArgMax with select_last_index, which the parser builds from a reversing slice: the verbose log's "
           "symbolic checks print an out-of-bounds slice message, and the engine builds")
def _argmax_select_last_builds():
    x = _vi("x", [2, 5])
    n = helper.make_node("ArgMax", ["x"], ["y"], name="argmax", axis=1, select_last_index=1)
    return Build(_model([n], [x], [_vi("y", None, I64)], opset=13))


@case("reshape-computed-target-builds", "shuffle-reshape-volume", negative=True,
      note="a Reshape to [batch, -1] computed from Shape, under a profile whose batch is at least 1")
def _reshape_computed_target_builds():
    x = _vi("x", ["batch", 3, 4])
    shape = helper.make_node("Shape", ["x"], ["s"], name="shape", end=1)
    minus_one = _init("minus_one", np.array([-1], np.int64))
    target = helper.make_node("Concat", ["s", "minus_one"], ["t"], name="target", axis=0)
    flatten = helper.make_node("Reshape", ["x", "t"], ["y"], name="flatten")
    return Build(_model([shape, target, flatten], [x], [_vi("y", None)], [minus_one]),
                 profile=[("x", (1, 3, 4), (2, 3, 4), (4, 3, 4))])


@case("einsum-batched-matmul-builds", "einsum-equation-unsupported", negative=True,
      note="an Einsum bij,bjk->bik on float inputs")
def _einsum_batched_matmul_builds():
    a, b = _vi("a", [2, 3, 4]), _vi("b", [2, 4, 5])
    n = helper.make_node("Einsum", ["a", "b"], ["y"], name="einsum", equation="bij,bjk->bik")
    return Build(_model([n], [a, b], [_vi("y", None)]))


@case("scatternd-plain-builds", "scatternd-unsupported", negative=True,
      note="a ScatterND without reduction")
def _scatternd_plain_builds():
    x = _vi("x", [4, 4])
    idx = _init("idx", np.array([[0], [2]], np.int64))
    upd = _init("upd", np.ones((2, 4), np.float32))
    n = helper.make_node("ScatterND", ["x", "idx", "upd"], ["y"], name="scatter")
    return Build(_model([n], [x], [_vi("y", None)], [idx, upd]))


@case("layernorm-opset17-builds", "unsupported-onnx-op", negative=True,
      note="a LayerNormalization node (opset 17), which this parser imports natively")
def _layernorm_opset17_builds():
    x = _vi("x", [2, 5, 16])
    gamma, beta = _init("gamma", np.ones(16, np.float32)), _init("beta", np.zeros(16, np.float32))
    n = helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["y"], name="ln", axis=-1)
    return Build(_model([n], [x], [_vi("y", None)], [gamma, beta]))


@case("resize-half-pixel-linear-builds", "resize-mode-unsupported", negative=True,
      note="a bilinear Resize with half_pixel coordinates on the two spatial dimensions")
def _resize_half_pixel_linear_builds():
    x = _vi("x", [1, 3, 8, 8])
    scales = _init("scales", np.array([1, 1, 2, 2], np.float32))
    n = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="upsample", mode="linear",
                         coordinate_transformation_mode="half_pixel")
    return Build(_model([n], [x], [_vi("y", None)], [scales]))


@case("topk-after-softmax-builds", "topk-k-limit", negative=True,
      note="attention scores, Softmax, then a TopK with a small constant k")
def _topk_after_softmax_builds():
    q, k = _vi("q", [1, 4, 8, 16]), _vi("k", [1, 4, 16, 8])
    scores = helper.make_node("MatMul", ["q", "k"], ["s"], name="qk")
    probs = helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1)
    kk = _init("kk", np.array([3], np.int64))
    top = helper.make_node("TopK", ["p", "kk"], ["v", "i"], name="topk", axis=-1)
    return Build(_model([scores, probs, top], [q, k], [_vi("v", None), _vi("i", None, I64)], [kk]))


@case("bool-mask-cast-builds", "bool-tensor-unsupported", negative=True,
      note="a boolean mask cast to float before a ReduceSum")
def _bool_mask_cast_builds():
    x = _vi("x", [3, 5])
    zero = _init("zero", np.zeros((1,), np.float32))
    mask = helper.make_node("Greater", ["x", "zero"], ["m"], name="gt")
    cast = helper.make_node("Cast", ["m"], ["f"], name="cast", to=F)
    total = helper.make_node("ReduceSum", ["f"], ["y"], name="count", keepdims=0)
    return Build(_model([mask, cast, total], [x], [_vi("y", None)], [zero]))


@case("named-dim-profiles-agree-builds", "named-dimension-mismatch", negative=True,
      note="two inputs sharing the dim_param 'batch', built with profiles that agree on it")
def _named_dim_profiles_agree_builds():
    a, b = _vi("a", ["batch", 8]), _vi("b", ["batch", 8])
    n = helper.make_node("Add", ["a", "b"], ["y"], name="add")
    return Build(_model([n], [a, b], [_vi("y", None)]),
                 profile=[("a", (1, 8), (2, 8), (4, 8)), ("b", (1, 8), (2, 8), (4, 8))])


# ------------------------------------------------------------------------------------------- running

_LETTER = {"INTERNAL_ERROR": "F", "ERROR": "E", "WARNING": "W", "INFO": "I", "VERBOSE": "V"}


def _logger(trt, say: Callable[[str], None]):
    class ZooLogger(trt.ILogger):
        """Writes each message as tensorrt's own Python logger does: [date-time] [TRT] [letter] message."""

        def __init__(self) -> None:
            trt.ILogger.__init__(self)
            self.min_severity = trt.ILogger.Severity.VERBOSE

        def log(self, severity, msg):
            stamp = _dt.datetime.now().strftime("%m/%d/%Y-%H:%M:%S")
            say(f"[{stamp}] [TRT] [{_LETTER.get(severity.name, 'V')}] {msg}\n")

    return ZooLogger()


def build(trt, spec: Build, workdir: Path, say: Callable[[str], None], name: str = "model") -> bool:
    """The usual Python-API flow: parse the ONNX file, build a serialized network. True if it built."""
    logger = _logger(trt, say)
    if spec.steps is not None:
        return spec.steps(trt, logger, say)
    path = workdir / f"{name}.onnx"
    onnx.save(spec.model, str(path))
    parsed = _parse(trt, logger, path, say, spec.print_errors)
    if parsed is None:
        return False
    builder, network, _parser = parsed
    config = builder.create_builder_config()
    if spec.profile:
        profile = builder.create_optimization_profile()
        for tensor, lo, opt, hi in spec.profile:
            profile.set_shape(tensor, lo, opt, hi)
        config.add_optimization_profile(profile)
    return _serialize(builder, network, config, say)


def _parse(trt, logger, path: Path, say: Callable[[str], None], print_errors: bool = True):
    """Parse an ONNX file as build scripts do: (builder, network, parser), or None once the failure is said. The
    parser is returned because it owns the imported weights, which must outlive the build."""
    builder = trt.Builder(logger)
    network = builder.create_network(0)
    parser = trt.OnnxParser(network, logger)
    if parser.parse_from_file(str(path)):
        return builder, network, parser
    for i in range(parser.num_errors if print_errors else 0):
        say(f"{parser.get_error(i)}\n")
    say("ERROR: Failed to parse the ONNX file.\n")
    return None


def _serialize(builder, network, config, say: Callable[[str], None]) -> bool:
    """Build the serialized engine and say how it went, as a build script does. True if it built."""
    engine = builder.build_serialized_network(network, config)
    if engine is None:
        say("ERROR: Failed to build the engine.\n")
        return False
    say(f"Serialized engine: {engine.nbytes} bytes\n")
    return True


def _flush_c_streams() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


def run_case(c: Case) -> tuple[str, bool]:
    """The case's log, and whether the build succeeded.

    TensorRT writes some messages straight to the process's standard error (the parser's data-type
    complaints), so both standard streams are sent, for the run, to the file the logger writes too: the
    log keeps every line in the order it was printed, as a console would show it.
    """
    import tensorrt_rtx as trt

    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "build.log"
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(fd, 1)
        os.dup2(fd, 2)

        def say(text: str) -> None:
            os.write(fd, text.encode("utf-8", "replace"))

        try:
            ok = build(trt, c.make(), Path(tmp), say, c.name)
        finally:
            _flush_c_streams()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for f in (*saved, fd):
                os.close(f)
        text = log_path.read_text(encoding="utf-8", errors="replace")
    # The model's temporary folder differs on every run; name it the same way each time.
    return text.replace(tmp, "/tmp/zoo").replace(str(ROOT) + os.sep, ""), ok


def _destination(c: Case) -> Path:
    folder = "negative" if c.negative else c.signature
    return CORPUS / folder / f"zoo-{c.name}.log"


def write(c: Case, text: str, folder: Path | None = None) -> Path:
    if folder is not None:
        path = folder / f"zoo-{c.name}.log"
        path.write_text(text, encoding="utf-8")
        return path
    path = _destination(c)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    meta = [f"source: zoo:{c.name}", f'tensorrt: "{TENSORRT_RTX}"', "tool: tensorrt-rtx",
            f"command: python scripts/zoo.py --case {c.name} --write"]
    if c.cause:
        meta.append(f"cause: {c.cause}")
    if c.note:
        prefix = f"builds successfully on TensorRT-RTX {TENSORRT_RTX} (no diagnosis expected): " if c.negative else ""
        meta.append(f"note: {_yaml_str(prefix + c.note)}")
    path.with_suffix(".yaml").write_text("\n".join(meta) + "\n", encoding="utf-8")
    return path


def _yaml_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--case", action="append", help="run only this case (repeatable)")
    ap.add_argument("--write", action="store_true", help="write corpus/<signature>/zoo-<case>.log and its sidecar")
    ap.add_argument("--out", type=Path, help="write the logs into this folder instead")
    ap.add_argument("--verbose-big", type=Path, metavar="OUT.log", help="write a big successful VERBOSE build log")
    ap.add_argument("--blocks", type=int, default=200, help="blocks of the --verbose-big network")
    args = ap.parse_args(argv)

    if args.list:
        for c in CASES:
            target = f"negative (no longer fails: {c.signature})" if c.negative else c.signature + (f" / {c.cause}" if c.cause else "")
            print(f"{c.name:26} {target}")
        return 0
    if args.verbose_big:
        return verbose_big(args.verbose_big, args.blocks)
    chosen = CASES
    if args.case:
        known = {c.name: c for c in CASES}
        unknown = [n for n in args.case if n not in known]
        if unknown:
            ap.error(f"unknown case(s): {', '.join(unknown)}")
        chosen = [known[n] for n in args.case]
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    unexpected = []
    for c in chosen:
        t0 = time.perf_counter()
        text, ok = run_case(c)
        if ok != c.negative:
            unexpected.append(c.name)
        if args.write or args.out:
            path = write(c, text, args.out)
            print(f"{c.name:26} {time.perf_counter() - t0:5.2f}s  {path.relative_to(ROOT) if not args.out else path}",
                  file=sys.stderr)
        else:
            sys.stdout.write(text)
    print(f"{len(chosen)} case(s) in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    if unexpected:
        print(f"built when it should fail, or failed when it should build: {', '.join(unexpected)}", file=sys.stderr)
        return 1
    return 0


def big_model(blocks: int) -> onnx.ModelProto:
    """A network of ``blocks`` repeated blocks using Conv, Concat, Slice, Transpose, Reshape, Softmax,
    MatMul and Gather, that TensorRT builds successfully."""
    rng = np.random.default_rng(7)
    c, h, w = 8, 8, 8
    inits = [_init("slice_starts", np.array([0], np.int64)), _init("slice_ends", np.array([c], np.int64)),
             _init("slice_axes", np.array([1], np.int64)), _init("to_seq", np.array([1, c, h * w], np.int64)),
             _init("to_map", np.array([1, c, h, w], np.int64)),
             _init("channel_order", np.array([(i + 3) % c for i in range(c)], np.int64))]
    nodes = []
    x = "input"
    for b in range(blocks):
        p = f"block{b}"
        inits += [_init(f"{p}.conv.weight", (rng.standard_normal((c, c, 3, 3)) * 0.1).astype(np.float32)),
                  _init(f"{p}.conv.bias", np.zeros(c, np.float32)),
                  _init(f"{p}.proj.weight", (rng.standard_normal((h * w, h * w)) * 0.05).astype(np.float32))]
        nodes += [
            helper.make_node("Conv", [x, f"{p}.conv.weight", f"{p}.conv.bias"], [f"{p}/conv"], name=f"/{p}/Conv",
                             kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("Concat", [f"{p}/conv", x], [f"{p}/cat"], name=f"/{p}/Concat", axis=1),
            helper.make_node("Slice", [f"{p}/cat", "slice_starts", "slice_ends", "slice_axes"], [f"{p}/slice"],
                             name=f"/{p}/Slice"),
            helper.make_node("Transpose", [f"{p}/slice"], [f"{p}/t"], name=f"/{p}/Transpose", perm=[0, 1, 3, 2]),
            helper.make_node("Reshape", [f"{p}/t", "to_seq"], [f"{p}/seq"], name=f"/{p}/Reshape"),
            helper.make_node("Softmax", [f"{p}/seq"], [f"{p}/attn"], name=f"/{p}/Softmax", axis=-1),
            helper.make_node("MatMul", [f"{p}/attn", f"{p}.proj.weight"], [f"{p}/proj"], name=f"/{p}/MatMul"),
            helper.make_node("Gather", [f"{p}/proj", "channel_order"], [f"{p}/perm"], name=f"/{p}/Gather", axis=1),
            helper.make_node("Reshape", [f"{p}/perm", "to_map"], [f"{p}/out"], name=f"/{p}/Reshape_1"),
        ]
        x = f"{p}/out"
    nodes.append(helper.make_node("Identity", [x], ["output"], name="/output/Identity"))
    return _model(nodes, [_vi("input", [1, c, h, w])], [_vi("output", [1, c, h, w])], inits, name="zoo-big")


def verbose_big(path: Path, blocks: int) -> int:
    """Build the big network under the VERBOSE logger and write its log to ``path``."""
    case = Case("verbose-build", "", lambda: Build(big_model(blocks)), negative=True)
    start = time.perf_counter()
    text, ok = run_case(case)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if path.resolve().parent == (CORPUS / "negative").resolve():
        # Written into the corpus as a negative example: with its sidecar, like --write.
        command = f"python scripts/zoo.py --verbose-big corpus/negative/{path.name} --blocks {blocks}"
        meta = ["source: zoo:verbose-build", f'tensorrt: "{TENSORRT_RTX}"', "tool: tensorrt-rtx",
                f"command: {command}",
                f"note: {_yaml_str(f'a successful VERBOSE build of {blocks} blocks (Conv, Concat, Slice, Transpose, Reshape, Softmax, MatMul, Gather): no diagnosis expected')}"]
        path.with_suffix(".yaml").write_text("\n".join(meta) + "\n", encoding="utf-8")
    print(f"{blocks} blocks: {text.count(chr(10))} lines, {len(text)} bytes in {time.perf_counter() - start:.1f}s "
          f"-> {path}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
