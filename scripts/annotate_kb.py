"""Add tags, tool scopes, look-alike lines and remedy caveats to the signature files, in place.

    python scripts/annotate_kb.py            # edit kb/*.yaml (comments and layout kept)
    python scripts/annotate_kb.py --check    # exit 1, naming what is missing
    python scripts/annotate_kb.py tags       # only some parts: tags (with tools), lookalikes, caveats

It only ever adds: tags and look-alikes already in a file are kept, a step that already carries a caveat
is left alone, and running it twice changes nothing. Run it again after merging signatures from other
branches: new signatures get the tags derived from their corpus (the tools of their examples) and from
their id (a ``torch-tensorrt-*`` signature is scoped to Torch-TensorRT), and the hand-written entries
below are put back where a merge took another side's version of a file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
KB, CORPUS = ROOT / "kb", ROOT / "corpus"

# A signature whose id starts with one of these applies to that tool only.
SCOPE_PREFIXES = {"torch-tensorrt-": ["torch-tensorrt"], "tf-trt-": ["tf-trt"], "ultralytics-": ["ultralytics"],
                  "onnxruntime-": ["onnxruntime"]}

# Platforms, ONNX operators and precisions, by hand. Tools seen in a signature's examples are added to these.
TAGS: dict[str, list[str]] = {
    "batchnorm1d-unsqueeze": ["BatchNormalization", "Unsqueeze"],
    "builder-out-of-memory": ["jetson", "memory"],
    "builder-workspace-warning": ["memory"],
    "concat-dims-mismatch": ["Concat"],
    "conv-kernel-weight-count": ["Conv"],
    "convert-axis-out-of-range": ["Gather"],
    "cuda-free-async-unsupported": ["wsl"],
    "cuda-init-failed": ["wsl", "docker"],
    "cuda-driver-too-old": ["docker"],
    "cuda-library-missing": ["windows"],
    "cuda-runtime-out-of-memory": ["memory"],
    "dla-unsupported-layer": ["dla", "jetson"],
    "dynamic-input-no-profile": ["dynamic-shapes"],
    "einsum-equation-unsupported": ["Einsum"],
    "elementwise-broadcast-mismatch": ["dynamic-shapes"],
    "fp16-overflow-warning": ["fp16"],
    "if-conditional-unsupported": ["If"],
    "int8-calibration-failure": ["int8"],
    "int64-weights-cast": ["int64"],
    "libnvinfer-missing": ["windows"],
    "loop-unsupported": ["Loop"],
    "myelin-conv-computed-weights": ["Conv", "myelin"],
    "no-implementation-for-node": ["dla", "fp16", "int8"],
    "nonzero-unsupported": ["NonZero"],
    "onnxruntime-trt-ep-library-load": ["windows"],
    "pad-mode-or-axis-unsupported": ["Pad"],
    "plugin-not-found": ["plugin"],
    "pool-kernel-rank-mismatch": ["MaxPool", "AveragePool"],
    "profile-dims-out-of-range": ["dynamic-shapes"],
    "protobuf-2gb-limit": ["external-data"],
    "external-data-missing": ["external-data"],
    "qdq-placement-error": ["int8", "QuantizeLinear", "DequantizeLinear"],
    "resize-mode-unsupported": ["Resize"],
    "scatternd-unsupported": ["ScatterND", "ScatterElements", "plugin"],
    "shuffle-reshape-volume": ["Reshape"],
    "tensorrt-python-missing": ["jetson", "windows"],
    "tf-trt-not-built-with-tensorrt": ["windows"],
    "topk-k-limit": ["TopK"],
    "torch-tensorrt-dynamic-shape": ["dynamic-shapes"],
    "unsupported-onnx-op": ["plugin"],
    "weights-must-be-initializer": ["Resize", "dynamic-shapes"],
}

# Lines that resemble a signature's message but are not it, most copied from corpus/negative/ and from
# other signatures' examples (kb check fails when a pattern matches one).
LOOKALIKES: dict[str, list[str]] = {
    "builder-out-of-memory": [
        # builder-workspace-warning: a tactic skipped for the workspace limit, the build goes on
        "[12/07/2025-13:15:25] [TRT] [I] Some tactics do not have sufficient workspace memory to run. Increasing "
        "workspace size will enable more tactics, please check verbose output for requested sizes.",
        # a verbose build skipping one tactic, then going on
        "[02/15/2023-06:20:02] [W] [TRT] Skipping tactic 2 due to insufficient memory on requested size of "
        "2147483648 detected for tactic 0x0000000000000003.",
        # PyTorch's own out-of-memory error (corpus/negative/neg-pytorch-cuda-oom-*)
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 0; 10.92 GiB total capacity; 9.98 GiB "
        "already allocated; 3.31 MiB free; 10.24 GiB reserved in total by PyTorch)",
        # cuda-runtime-out-of-memory: memory ran out at run time, not while building
        "[E] [TRT] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)",
    ],
    "builder-workspace-warning": [
        # builder-out-of-memory: an allocation that failed
        "[11/22/2024-13:40:47] [W] [TRT] Requested amount of GPU memory (15485030400 bytes) could not be "
        "allocated. There may not be enough free memory for allocation to succeed.",
        # trtexec's summary of its settings in every build
        "[09/12/2023-14:52:20] [I] Memory Pools: workspace: default, dlaSRAM: default, dlaLocalDRAM: default, "
        "dlaGlobalDRAM: default",
    ],
    "cuda-runtime-out-of-memory": [
        "RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 4.00 GiB total capacity; 2.57 GiB "
        "already allocated; 74.77 MiB free; 2.85 GiB reserved in total by PyTorch)",
        "[12/07/2025-13:15:25] [TRT] [I] Some tactics do not have sufficient workspace memory to run. Increasing "
        "workspace size will enable more tactics, please check verbose output for requested sizes.",
    ],
    "engine-version-mismatch": [
        # timing-cache-incompatible: the cache, not the engine, was from another build
        "[09/19/2024-22:14:24] [W] [TRT] Detected invalid timing cache, setup a local cache instead",
        "[W] [TRT] The timing cache will not be used!",
        # trtexec's settings summary
        "[09/12/2023-14:52:20] [I] Version Compatible: Disabled",
    ],
    "timing-cache-incompatible": [
        # the success form: a build that uses a local cache on purpose
        "[04/29/2024-07:11:08] [I] [TRT] Local timing cache in use. Profiling results in this builder pass will "
        "not be stored.",
    ],
    "consequence-engine-not-built": [
        "[09/12/2023-14:53:55] [I] Engine built in 95.0736 sec.",
        "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --saveEngine=model.engine",
    ],
    "dla-unsupported-layer": [
        "[07/30/2024-15:30:36] [I] DLACore:",
        "[01/01/1970-03:47:30] [I] Memory Pools: workspace: default, dlaSRAM: default, dlaLocalDRAM: default, "
        "dlaGlobalDRAM: default, tacticSharedMem: default",
    ],
    "no-implementation-for-node": [
        "[12/07/2025-13:15:25] [TRT] [I] Some tactics do not have sufficient workspace memory to run. Increasing "
        "workspace size will enable more tactics, please check verbose output for requested sizes.",
    ],
    "libnvinfer-missing": [
        # tensorrt-python-missing: the Python package, not the shared library
        "ModuleNotFoundError: No module named 'tensorrt'",
    ],
    "tensorrt-python-missing": [
        # libnvinfer-missing: the package is there, its shared library is not
        "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory",
    ],
}

# (signature, cause id or "" for the signature's own remedy, step index, the first words of the step, caveat)
CAVEATS: list[tuple[str, str, int, str, str]] = [
    ("attribute-not-found", "", 0, "Re-export at an opset",
     "An older opset lacks the operators and attributes added after it: the export may fail or decompose them; "
     "compare the outputs with the original model."),
    ("attribute-not-found", "attribute-moved-to-input", 0, "Export with the highest opset",
     "An older opset lacks the operators added after it; compare the outputs with the original model."),
    ("builder-out-of-memory", "", 2, "Shrink the activations",
     "Smaller max shapes, batch or resolution limit the inputs the engine accepts; FP16 can change the accuracy."),
    ("builder-out-of-memory", "", 3, "On TensorRT 8.6+, a lower",
     "Fewer tactics are timed, so the engine may run slower."),
    ("builder-out-of-memory", "device-memory-exhausted", 1, "Reduce max batch",
     "Smaller max shapes or batch limit the inputs the engine accepts; FP16 can change the accuracy."),
    ("cuda-runtime-out-of-memory", "", 2, "Reduce the activation memory",
     "Smaller max shapes or batch limit the inputs the engine accepts; FP16 can change the accuracy."),
    ("cuda-runtime-out-of-memory", "runtime-memory-exhausted", 1, "Rebuild with smaller max",
     "Smaller max shapes or batch limit the inputs the engine accepts; FP16 can change the accuracy."),
    ("cuda-driver-too-old", "", 1, "If the driver cannot be upgraded",
     "An older CUDA build of TensorRT (or an older container) lacks the features and fixes of the newer one."),
    ("cuda-driver-too-old", "container-needs-newer-driver", 0, "Upgrade the host driver",
     "An older container tag ships older TensorRT and CUDA releases, without their features and fixes."),
    ("cuda-library-missing", "", 3, "TensorRT 8.0-8.4 on CUDA 10.2",
     "Without cuBLASLt tactics, matrix multiplications may get slower kernels."),
    ("cuda-library-missing", "", 4, "If nothing else helps",
     "Without cuBLAS and cuDNN tactics some layers get slower kernels, and some may find no implementation."),
    ("dynamic-input-no-profile", "", 2, "If the model never needs variable shapes",
     "The engine then accepts only that one shape: another batch size or resolution needs another engine."),
    ("dynamic-input-no-profile", "tool-cannot-set-profile", 0, "Make the input shapes static",
     "The engine then accepts only that one shape: another batch size or resolution needs another engine."),
    ("dla-unsupported-layer", "nothing-on-dla", 0, "Build for GPU only",
     "The GPU does the work the DLA was meant to take off it: more GPU load and power."),
    ("fp16-overflow-warning", "", 1, "Keep the affected layers",
     "The layers kept in FP32 run slower and take more memory than in FP16."),
    ("fp16-overflow-warning", "", 3, "If inputs are fed as FP16",
     "FP32 inputs take twice the memory and transfer time of FP16 ones."),
    ("int8-calibration-failure", "", 2, "If you only want speed",
     "An FP16 engine is usually slower and larger than a calibrated INT8 one."),
    ("int8-calibration-failure", "no-calibrator", 1, "Or drop the INT8 flag",
     "An FP16 engine is usually slower and larger than a calibrated INT8 one."),
    ("myelin-conv-computed-weights", "", 3, "If the weights must stay dynamic",
     "The part run outside TensorRT is usually slower, and the tensors are copied between the two runtimes."),
    ("no-implementation-for-node", "", 2, "If it fails only with",
     "The pinned node runs in higher precision: slower, and more memory."),
    ("no-implementation-for-node", "reduced-precision-kernel", 1, "Keep that node in higher precision",
     "The pinned node runs in higher precision: slower, and more memory."),
    ("no-implementation-for-node", "reduced-precision-kernel", 2, "For Q/DQ models, remove the quantizer",
     "Without its quantizers the layer runs in higher precision: slower than in INT8."),
    ("nonzero-unsupported", "", 1, "If you must stay below 8.5",
     "A fixed-size replacement (topk with a fixed k) caps how many elements are kept, and may need filtering after."),
    ("onnx-ir-version-unsupported", "", 1, "Or stamp the model down",
     "Safe only when the model uses nothing of the newer format: run onnx.checker and compare the outputs."),
    ("onnx-opset-unsupported", "runtime-older-than-model-opset", 0, "Upgrade onnxruntime",
     "An older opset lacks the operators added after it; compare the outputs with the original model."),
    ("pad-mode-or-axis-unsupported", "", 1, "On an older release, change the model",
     "Zero padding changes the values at the borders, and with them the outputs, unless the model is retrained."),
    ("parser-missing-input-tensor", "", 1, "If the old TensorRT must stay",
     "Opset 9 lacks the operators added after it; the export may fail or decompose them."),
    ("qdq-placement-error", "", 4, "If the model has no need",
     "Calibrated INT8 or FP16 can give another accuracy than the quantization-aware model; FP16 is slower than INT8."),
    ("resize-mode-unsupported", "", 2, "If you must stay on the old release",
     "An older opset's Resize may interpolate differently at the borders: compare the outputs with the original model."),
    ("scatternd-unsupported", "", 2, "On TensorRT 7.x",
     "The plugin must be built and shipped with every engine, and its kernel can be slower than a native layer."),
    ("scatternd-unsupported", "", 4, "For summing scatters on TensorRT < 10",
     "A one-hot MatMul takes N times the memory and compute of the scatter."),
    ("tactic-internal-error", "", 2, "Change the builder's path",
     "Fewer tactic sources, higher precision or static shapes can make the engine slower or fix its input shape."),
    ("topk-k-limit", "", 0, "Bring K to 3840 or below",
     "A lower pre-NMS top-k can drop detections in crowded images."),
    ("topk-k-limit", "k-exceeds-limit", 0, "Lower K to <= 3840",
     "A lower K can drop detections in crowded images."),
    ("torch-tensorrt-dynamic-shape", "", 3, "If you must stay on the TorchScript",
     "One engine per resolution costs build time and memory; padding to a fixed size wastes compute."),
    ("unsupported-onnx-op", "", 3, "If upgrading is not possible, rewrite",
     "A rewritten op may differ numerically from the original (Round as Floor(x+0.5) differs on exact halves)."),
    ("unsupported-onnx-op", "", 5, "To keep going without TensorRT",
     "The rejected nodes run on the CUDA provider, slower than in a TensorRT engine, with copies between the two."),
    ("weights-must-be-initializer", "", 1, "Export with static shapes",
     "The engine then accepts only the exported input size."),
]


def _tools_seen(sig_id: str) -> list[str]:
    tools = set()
    for meta in (CORPUS / sig_id).glob("*.yaml"):
        try:
            tool = (yaml.safe_load(meta.read_text(encoding="utf-8")) or {}).get("tool")
        except yaml.YAMLError:
            continue
        if tool and tool != "other":
            tools.add(tool)
    return sorted(tools)


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(i) if not all(c.isalnum() or c in "-_.+" for c in i) else i for i in items) + "]"


def _set_top_list(text: str, key: str, items: list[str], after: tuple[str, ...]) -> str:
    """Give a top-level flow list `key: [...]` the union of its items and `items` (order: existing first)."""
    lines = text.split("\n")
    data = yaml.safe_load(text) or {}
    have = list(data.get(key) or [])
    merged = have + [i for i in items if i.lower() not in {h.lower() for h in have}]
    if merged == have and (have or not items):
        return text
    line = f"{key}: {_flow(merged)}"
    for n, raw in enumerate(lines):
        if raw.startswith(f"{key}:"):
            if raw.rstrip().endswith("]") or raw.strip() == f"{key}: []":
                lines[n] = line
                return "\n".join(lines)
            raise SystemExit(f"{key} in block form: add {items} by hand")
    for anchor in after:
        for n, raw in enumerate(lines):
            if raw.startswith(f"{anchor}:"):
                lines.insert(n + 1, line)
                return "\n".join(lines)
    raise SystemExit(f"no place for {key}")


def _add_lookalikes(text: str, wanted: list[str]) -> str:
    data = yaml.safe_load(text) or {}
    have = list(data.get("lookalikes") or [])
    missing = [w for w in wanted if w not in have]
    if not missing:
        return text
    lines = text.split("\n")
    items = [f"  - {json.dumps(w, ensure_ascii=False)}" for w in missing]
    if have:
        start = next(n for n, raw in enumerate(lines) if raw.startswith("lookalikes:"))
        end = start + 1
        while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
            end += 1
        lines[end:end] = items
    else:
        at = next(n for n, raw in enumerate(lines) if raw.startswith("references:"))
        while at > 0 and lines[at - 1].startswith("#"):
            at -= 1  # keep a comment above references with references
        lines[at:at] = ["# Lines that resemble the message but are not this error: its patterns must reject them.",
                        "lookalikes:", *items]
    return "\n".join(lines)


def _remedy_node(node, cause: str, index: int):
    def get(mapping, key):
        return next((v for k, v in mapping.value if k.value == key), None)

    if cause:
        causes = get(node, "causes")
        node = next(c for c in causes.value if get(c, "id").value == cause)
    return get(node, "remedy").value[index]


def _add_caveat(text: str, cause: str, index: int, start: str, caveat: str) -> tuple[str, str | None]:
    item = _remedy_node(yaml.compose(text, Loader=yaml.SafeLoader), cause, index)
    if isinstance(item, yaml.MappingNode):
        return text, None  # already a {step, caveat} mapping
    if not item.value.startswith(start):
        return text, f"step {index} does not start with {start!r}: {item.value[:60]!r}"
    col = item.start_mark.column
    src = text[item.start_mark.index:item.end_mark.index].rstrip()
    body = src.replace("\n", "\n  ")  # continuation lines go deeper than the new 'step:' key
    new = f"step: {body}\n{' ' * col}caveat: {json.dumps(caveat, ensure_ascii=False)}"
    out = text[:item.start_mark.index] + new + text[item.start_mark.index + len(src):]
    check = _remedy_node(yaml.compose(out, Loader=yaml.SafeLoader), cause, index)
    step = yaml.safe_load(yaml.serialize(check))
    if step != {"step": item.value, "caveat": caveat}:
        return text, f"step {index}: could not rewrite it safely"
    return out, None


PARTS = ("tags", "lookalikes", "caveats")


def annotate(path: Path, parts: tuple[str, ...] = PARTS) -> tuple[str, str, list[str]]:
    """The file's text, annotated, and what could not be done."""
    sig_id = path.stem
    before = text = path.read_text(encoding="utf-8")
    problems = []
    if "tags" in parts:
        tools = next((t for prefix, t in SCOPE_PREFIXES.items() if sig_id.startswith(prefix)), [])
        if tools:
            text = _set_top_list(text, "tools", tools, ("kind", "category"))
        scoped = {t.lower() for t in (yaml.safe_load(text).get("tools") or [])}
        tags = [t for t in TAGS.get(sig_id, []) + _tools_seen(sig_id) if t.lower() not in scoped]
        text = _set_top_list(text, "tags", tags, ("tools", "kind", "category"))
    if "lookalikes" in parts:
        text = _add_lookalikes(text, LOOKALIKES.get(sig_id, []))
    for sid, cause, index, start, caveat in CAVEATS if "caveats" in parts else ():
        if sid == sig_id:
            text, why = _add_caveat(text, cause, index, start, caveat)
            if why:
                problems.append(f"{path.name}: {cause or 'remedy'}: {why}")
    return before, text, problems


def main() -> int:
    check_only = "--check" in sys.argv[1:]
    parts = tuple(a for a in sys.argv[1:] if a in PARTS) or PARTS
    changed, problems = [], []
    for path in sorted(KB.glob("*.yaml")):
        before, after, found = annotate(path, parts)
        problems += found
        if after != before:
            changed.append(path)
            if not check_only:
                path.write_text(after, encoding="utf-8")
    for p in problems:
        print(p)
    verb = "need annotations" if check_only else "annotated"
    print(f"{len(changed)} signature files {verb}" + (": " + ", ".join(p.stem for p in changed) if changed else ""))
    return 1 if (check_only and changed) or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
