"""GPU and environment probes, through the CUDA driver API.

The driver's own library (libcuda.so.1 / nvcuda.dll) is called through ctypes, so the probes need no
package at all and see exactly what TensorRT would see: the driver version, each device's name,
compute capability and memory, and whether the device supports stream-ordered memory pools
(cudaMallocAsync / cudaFreeAsync, which TensorRT's default allocator uses). Where there is no driver
or no GPU the probes say so, as ``unavailable``, with the reason.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from dataclasses import asdict, dataclass

from trtdoctor.confirm.findings import CONFIRMED, REFUTED, UNAVAILABLE, Finding

# cuDeviceGetAttribute ids, from the CUDA driver API's CUdevice_attribute enum.
_CC_MAJOR, _CC_MINOR = 75, 76
_MEMORY_POOLS_SUPPORTED = 115


@dataclass(frozen=True)
class Device:
    index: int
    name: str
    compute_capability: str
    total_memory: int
    free_memory: int | None
    memory_pools: bool


@dataclass(frozen=True)
class GpuState:
    driver: str | None          # e.g. '12.4' (the newest CUDA the driver supports)
    devices: tuple[Device, ...]
    error: str | None = None    # why nothing could be read

    def to_dict(self) -> dict:
        return {"driver": self.driver, "devices": [asdict(d) for d in self.devices], "error": self.error}


def _library() -> ctypes.CDLL | None:
    names = ["nvcuda.dll"] if sys.platform == "win32" else ["libcuda.so.1", "libcuda.so"]
    found = ctypes.util.find_library("cuda")
    if found:
        names.append(found)
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def read_gpu() -> GpuState:
    if os.environ.get("TRTDOCTOR_NO_GPU"):
        return GpuState(None, (), "GPU probes disabled by TRTDOCTOR_NO_GPU")
    lib = _library()
    if lib is None:
        return GpuState(None, (), "no CUDA driver library (libcuda) on this machine")
    rc = lib.cuInit(0)
    if rc != 0:
        return GpuState(None, (), f"cuInit failed with CUDA error {rc} (100: no device; 35/803/804: driver mismatch)")
    version = ctypes.c_int()
    lib.cuDriverGetVersion(ctypes.byref(version))
    driver = f"{version.value // 1000}.{version.value % 1000 // 10}"
    count = ctypes.c_int()
    if lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return GpuState(driver, (), "cuDeviceGetCount failed")
    devices = []
    for i in range(count.value):
        dev = ctypes.c_int()
        if lib.cuDeviceGet(ctypes.byref(dev), i) != 0:
            continue
        name = ctypes.create_string_buffer(256)
        lib.cuDeviceGetName(name, 256, dev)

        def attr(a: int) -> int:
            v = ctypes.c_int()
            return v.value if lib.cuDeviceGetAttribute(ctypes.byref(v), a, dev) == 0 else -1

        total = ctypes.c_size_t()
        lib.cuDeviceTotalMem_v2(ctypes.byref(total), dev)
        devices.append(Device(i, name.value.decode(errors="replace"), f"{attr(_CC_MAJOR)}.{attr(_CC_MINOR)}",
                              total.value, _free_memory(lib, dev), attr(_MEMORY_POOLS_SUPPORTED) == 1))
    return GpuState(driver, tuple(devices))


def _free_memory(lib: ctypes.CDLL, dev: ctypes.c_int) -> int | None:
    # Free memory needs a context; the primary context is shared with anything else in the process.
    ctx = ctypes.c_void_p()
    if lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) != 0:
        return None
    try:
        if lib.cuCtxPushCurrent_v2(ctx) != 0:
            return None
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        ok = lib.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)) == 0
        lib.cuCtxPopCurrent_v2(ctypes.byref(ctypes.c_void_p()))
        return free.value if ok else None
    finally:
        lib.cuDevicePrimaryCtxRelease_v2(dev)


def probe_gpu(state: GpuState | None = None) -> list[Finding]:
    state = state or read_gpu()
    if not state.devices:
        reason = state.error or "no CUDA device"
        return [Finding("gpu-mempool-unsupported", "cuda-free-async-unsupported", UNAVAILABLE, reason),
                Finding("gpu-present", None, UNAVAILABLE, reason)]
    data = state.to_dict()
    lacking = [f"{d.index}: {d.name}" for d in state.devices if not d.memory_pools]
    summary = "; ".join(f"{d.name} (sm {d.compute_capability}, {d.total_memory >> 20} MiB"
                        + (f", {d.free_memory >> 20} MiB free" if d.free_memory is not None else "") + ")"
                        for d in state.devices)
    findings = [Finding("gpu-present", None, CONFIRMED, f"driver supports CUDA {state.driver}; {summary}", data=data)]
    if lacking:
        findings.append(Finding("gpu-mempool-unsupported", "cuda-free-async-unsupported", CONFIRMED,
                                "these devices do not support stream-ordered memory pools, which TensorRT's "
                                "default allocator frees with cudaFreeAsync", tuple(lacking), data=data))
    else:
        findings.append(Finding("gpu-mempool-unsupported", "cuda-free-async-unsupported", REFUTED,
                                f"every device supports stream-ordered memory pools (driver CUDA {state.driver})",
                                data=data))
    return findings
