"""Check the GPU probes and the model probes on a machine with an NVIDIA GPU and PyTorch.

    python scripts/verify_gpu.py

1. Reads the GPU through trtdoctor's ctypes probe and, independently, through PyTorch and (where
   installed) cuda-bindings, and checks that they agree: name, compute capability, total memory,
   memory-pool support.
2. Exports small PyTorch models to ONNX (a convolution whose weights are computed at run time, a
   grouped convolution after a -1 reshape under dynamic axes, and a clean one) and checks that the
   model probes name exactly the defective nodes, and that ONNX Runtime (CPU) loads each model.
Exits non-zero on any disagreement.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def gpu() -> None:
    import torch

    from trtdoctor.confirm.gpu import probe_gpu, read_gpu

    state = read_gpu()
    print(json.dumps(state.to_dict(), indent=1))
    check(bool(state.devices), f"ctypes probe sees {len(state.devices)} device(s) (error: {state.error})")
    if not state.devices:
        return
    dev = state.devices[0]
    props = torch.cuda.get_device_properties(0)
    check(dev.name == props.name, f"name {dev.name!r} == torch {props.name!r}")
    check(dev.compute_capability == f"{props.major}.{props.minor}", f"compute capability {dev.compute_capability}")
    check(dev.total_memory == props.total_memory, f"total memory {dev.total_memory} == torch {props.total_memory}")
    free, _ = torch.cuda.mem_get_info(0)
    check(dev.free_memory is not None and abs(dev.free_memory - free) < 2 << 30,
          f"free memory {dev.free_memory} ~ torch {free}")
    try:
        from cuda.bindings import runtime as cudart

        err, pools = cudart.cudaDeviceGetAttribute(cudart.cudaDeviceAttr.cudaDevAttrMemoryPoolsSupported, 0)
        check(bool(pools) == dev.memory_pools, f"memory pools {dev.memory_pools} == cuda-bindings {bool(pools)}")
    except ImportError:
        print("skip cuda-bindings not installed")
    # A stream-ordered allocation really works where the probe says pools are supported.
    if dev.memory_pools:
        x = torch.empty(1 << 20, device="cuda")
        del x
        torch.cuda.synchronize()
    findings = {f.probe: f.outcome for f in probe_gpu(state)}
    check(findings["gpu-mempool-unsupported"] == ("refuted" if dev.memory_pools else "confirmed"),
          f"gpu-mempool-unsupported is {findings['gpu-mempool-unsupported']}")


def models() -> None:
    import torch

    from trtdoctor.confirm.model import onnxruntime_check, probe_model

    class ComputedWeights(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(8, 3, 3, 3))

        def forward(self, x, s):
            return torch.nn.functional.conv2d(x, self.w * s)

    class GroupedAfterReshape(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(8, 8, 3, groups=2)

        def forward(self, x):
            return self.conv(x.reshape(x.shape[0], -1, 16, 16))

    class Clean(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 8, 3)

        def forward(self, x):
            return torch.relu(self.conv(x))

    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            ("computed weights", ComputedWeights(), (torch.randn(1, 3, 16, 16), torch.tensor([2.0])), None,
             ["conv-weights-not-constant"]),
            ("grouped conv after -1 reshape", GroupedAfterReshape(), (torch.randn(2, 8, 256),),
             # x.shape[0] exports as Shape -> Gather, which the axis probe names too
             {"x": {0: "batch"}}, ["gather-reduce-axes", "grouped-conv-reshape"]),
            ("clean", Clean(), (torch.randn(1, 3, 16, 16),), None, []),
        ]
        for name, module, args, dynamic, expected in cases:
            path = Path(tmp) / (name.replace(" ", "_") + ".onnx")
            names = ["x", "s"][: len(args)]
            torch.onnx.export(module, args, str(path), input_names=names, dynamic_axes=dynamic, opset_version=17,
                              dynamo=False)
            confirmed = sorted(f.probe for f in probe_model(path, (8, 6, 1)) if f.outcome == "confirmed"
                               and f.probe not in ("int64-initializers",))
            check(confirmed == expected, f"{name}: confirmed {confirmed}")
            ort = onnxruntime_check(path)
            check(ort.outcome == "refuted", f"{name}: ONNX Runtime loads it ({ort.detail[:60]})")


if __name__ == "__main__":
    gpu()
    models()
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)
