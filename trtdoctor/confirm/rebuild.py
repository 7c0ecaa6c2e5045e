"""Re-running the build, to see whether the failure reproduces here.

Backends, the first available wins (or the one asked for):
- ``tensorrt``: NVIDIA's TensorRT Python API, parsing and building with a logger that keeps every message;
- ``tensorrt-rtx``: TensorRT for RTX (``pip install tensorrt-rtx``, import ``tensorrt_rtx``), the same
  API and the ONNX parser of the TensorRT 10 era, whose ahead-of-time builder runs without a GPU;
- ``trtexec`` on the PATH, run with ``--verbose`` and the user's flags, without a shell.
Otherwise nothing is run, and the result says why. The flags and input shapes come from the caller,
usually read off the original trtexec command line in the log; what a backend cannot apply is listed,
with what that backend cannot reproduce at all, so that a build that succeeds here is read for what it
is. The captured log is then explained like any other and compared with the original diagnosis.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Shapes = Mapping[str, tuple[Sequence[int], Sequence[int], Sequence[int]]]  # input -> (min, opt, max)

BACKENDS = ("tensorrt", "tensorrt-rtx", "trtexec")

# What TensorRT for RTX does not do that TensorRT does; a failure of these kinds cannot reproduce there.
RTX_LIMITS = (
    "TensorRT for RTX is not mainline TensorRT: it has no DLA, no implicit INT8 calibration and fewer "
    "plugins, and its networks take their precision from the model (no --fp16/--int8 builder flags)",
    "it builds ahead of time on the CPU and runs engines only on its own GPUs (compute capability 7.5, 8.x, "
    "12.x), so GPU, driver and runtime failures are not reproduced by a rebuild",
)
# Builder flags the Python API backends can apply, by trtexec spelling.
_FLAGS = {"--fp16": "FP16", "--bf16": "BF16", "--int8": "INT8", "--fp8": "FP8", "--best": "FP16",
          "--stronglyTyped": None, "--noTF32": None, "--sparsity=enable": "SPARSE_WEIGHTS",
          "--versionCompatible": "VERSION_COMPATIBLE", "--refit": "REFIT"}
# trtexec options that change what is built; anything else (timing, output, inference) is left behind.
_BUILD_OPTIONS = ("--fp16", "--bf16", "--int8", "--fp8", "--best", "--noTF32", "--stronglyTyped", "--sparsity",
                  "--useDLACore", "--allowGPUFallback", "--versionCompatible", "--refit", "--builderOptimizationLevel",
                  "--memPoolSize", "--workspace", "--precisionConstraints", "--layerPrecisions", "--tacticSources",
                  "--plugins", "--staticPlugins", "--dynamicPlugins", "--explicitBatch", "--inputIOFormats",
                  "--outputIOFormats", "--calib")


@dataclass
class Rebuild:
    ran: bool
    how: str | None                 # 'tensorrt' | 'tensorrt-rtx' | 'trtexec' | None
    command: list[str] | None
    exit_code: int | None
    log: str
    reason: str                     # what was run, or why nothing was
    version: str | None = None      # the backend's TensorRT version
    flags: list[str] = field(default_factory=list)      # flags applied
    ignored: list[str] = field(default_factory=list)    # flags this backend could not apply
    shapes: dict[str, list[list[int]]] | None = None    # the profile built with
    limits: list[str] = field(default_factory=list)     # what this backend cannot reproduce at all
    diagnosis: str | None = None    # the rebuilt log's top diagnosis (set by trtdoctor.confirm)

    @property
    def backend(self) -> str:
        """'TensorRT-RTX 1.7.1.116', 'TensorRT 10.3.0', 'trtexec', or 'none'."""
        names = {"tensorrt": "TensorRT", "tensorrt-rtx": "TensorRT-RTX", "trtexec": "trtexec"}
        if self.how is None:
            return "none"
        return f"{names[self.how]} {self.version}" if self.version else names[self.how]

    def to_dict(self) -> dict[str, Any]:
        return {"ran": self.ran, "how": self.how, "backend": self.backend, "version": self.version,
                "command": self.command, "exit_code": self.exit_code, "flags": self.flags, "ignored": self.ignored,
                "shapes": self.shapes, "limits": self.limits, "reason": self.reason, "diagnosis": self.diagnosis,
                "log_lines": self.log.count("\n")}


def available() -> list[str]:
    """The backends this machine has, in the order they are preferred."""
    found = []
    for how in ("tensorrt", "tensorrt-rtx"):
        if _module(how) is not None:
            found.append(how)
    if shutil.which("trtexec"):
        found.append("trtexec")
    return found


def _module(how: str) -> Any:
    try:
        if how == "tensorrt":
            import tensorrt as trt
        else:
            import tensorrt_rtx as trt
    except (ImportError, OSError):  # OSError: bindings whose libraries are missing
        return None
    return trt if hasattr(trt, "Builder") else None  # PyPI's bare 'tensorrt' placeholder has no Builder


def rebuild(model: str | Path, *, flags: Sequence[str] = (), shapes: Shapes | None = None,
            timeout: float = 3600, prefer: str | None = None, default_shapes: bool = False) -> Rebuild:
    """Rebuild ``model`` on the first available backend (or ``prefer``). ``default_shapes``: give dynamic
    inputs without ``shapes`` a profile of 1 in every dynamic dimension, as trtexec does."""
    if prefer is not None and prefer not in BACKENDS:
        raise ValueError(f"unknown rebuild backend {prefer!r}; choose from {', '.join(BACKENDS)}")
    for how in (prefer,) if prefer else BACKENDS:
        if how == "trtexec":
            exe = shutil.which("trtexec")
            if exe is not None:
                return _with_trtexec(exe, Path(model), flags, shapes, timeout)
            continue
        trt = _module(how)
        if trt is not None:
            return _with_python_api(trt, how, Path(model), flags, shapes, default_shapes)
    wanted = prefer or "neither the tensorrt or tensorrt_rtx Python package nor trtexec"
    return Rebuild(False, None, None, None, "", f"no rebuild: {wanted} is not available on this machine "
                   "(pip install 'trtdoctor[rebuild]' brings TensorRT-RTX)")


def from_command(command: str | None) -> tuple[list[str], dict[str, list[list[int]]] | None]:
    """The build flags and the shapes profile of a trtexec command line, as the log shows it."""
    if not command:
        return [], None
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    flags, spans = [], {}
    for word in words:
        name, _, value = word.partition("=")
        if name in ("--minShapes", "--optShapes", "--maxShapes", "--shapes"):
            spans[name] = _shape_list(value)
        elif name in _BUILD_OPTIONS:
            flags.append(word)
    shapes: dict[str, list[list[int]]] = {}
    if "--shapes" in spans and not ({"--minShapes", "--maxShapes"} & set(spans)):
        spans = {k: spans["--shapes"] for k in ("--minShapes", "--optShapes", "--maxShapes")}
    for name in spans.get("--minShapes", {}):
        lo = spans["--minShapes"][name]
        hi = spans.get("--maxShapes", {}).get(name, lo)
        opt = spans.get("--optShapes", {}).get(name, hi)
        shapes[name] = [lo, opt, hi]
    return flags, shapes or None


def _shape_list(value: str) -> dict[str, list[int]]:
    out = {}
    for item in value.split(","):
        name, sep, dims = item.rpartition(":")
        if not sep:
            continue
        name = name.strip("'\"")
        if re.fullmatch(r"\d+(?:x\d+)*", dims):
            out[name] = [int(d) for d in dims.split("x")]
    return out


def trtexec_command(exe: str, model: Path, flags: Sequence[str], shapes: Shapes | None) -> list[str]:
    cmd = [exe, f"--onnx={model}", "--verbose", *flags]
    if shapes:
        def fmt(i: int) -> str:
            return ",".join(f"{name}:{'x'.join(str(d) for d in dims[i])}" for name, dims in shapes.items())

        cmd += [f"--minShapes={fmt(0)}", f"--optShapes={fmt(1)}", f"--maxShapes={fmt(2)}"]
    return cmd


def _with_trtexec(exe: str, model: Path, flags: Sequence[str], shapes: Shapes | None, timeout: float) -> Rebuild:
    cmd = trtexec_command(exe, model, flags, shapes)
    plain = {k: [list(v) for v in dims] for k, dims in shapes.items()} if shapes else None
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace")
        return Rebuild(True, "trtexec", cmd, None, out, f"ran {' '.join(cmd)}; stopped after {timeout:.0f} s",
                       flags=list(flags), shapes=plain)
    except OSError as exc:
        return Rebuild(False, "trtexec", cmd, None, "", f"could not run trtexec: {exc}")
    out = done.stdout.decode("utf-8", "replace")
    m = re.search(r"TensorRT version: (\d+(?:\.\d+)+)|\[TensorRT v(\d+)\]", out)
    version = (m.group(1) or m.group(2)) if m else None
    return Rebuild(True, "trtexec", cmd, done.returncode, out, f"ran {' '.join(cmd)} (exit code {done.returncode})",
                   version=version, flags=list(flags), shapes=plain)


def _with_python_api(trt: Any, how: str, model: Path, flags: Sequence[str], shapes: Shapes | None,
                     default_shapes: bool) -> Rebuild:
    from trtdoctor.trtlog import tensorrt_logger

    version = str(trt.__version__)
    limits = list(RTX_LIMITS) if how == "tensorrt-rtx" else []
    done = Rebuild(True, how, None, 1, "", "", version=version, limits=limits)
    logger = tensorrt_logger(module=trt)
    builder = trt.Builder(logger)
    explicit = 0
    if how == "tensorrt" and int(version.split(".")[0]) < 10:
        explicit = 1 << int(trt.NetworkDefinitionCreationFlag.EXPLICIT_BATCH)
    strongly = "--stronglyTyped" in flags and hasattr(trt.NetworkDefinitionCreationFlag, "STRONGLY_TYPED")
    if strongly:
        explicit |= 1 << int(trt.NetworkDefinitionCreationFlag.STRONGLY_TYPED)
    network = builder.create_network(explicit)
    parser = trt.OnnxParser(network, logger)
    steps = [f"rebuilt {model.name} with {done.backend}"]
    if not parser.parse_from_file(str(model)):
        logged = logger.text()
        for i in range(parser.num_errors):
            error = str(parser.get_error(i))
            if error not in logged:  # TensorRT 10 logs its parser errors already; older ones only keep them
                logger.log(trt.Logger.ERROR, error)
        done.log, done.reason = logger.text(), "; ".join(steps) + ": the parser failed"
        return done
    config = builder.create_builder_config()
    for flag in flags:
        name = _FLAGS.get(flag, "?")
        if flag == "--stronglyTyped" and strongly:
            done.flags.append(flag)
        elif name and name != "?" and hasattr(trt.BuilderFlag, name):
            config.set_flag(getattr(trt.BuilderFlag, name))
            done.flags.append(flag)
        else:
            done.ignored.append(flag)
    profile_shapes = dict(shapes or {})
    if not profile_shapes and default_shapes:
        for i in range(network.num_inputs):
            tensor = network.get_input(i)
            dims = list(tensor.shape)
            if any(d < 0 for d in dims):
                one = [1 if d < 0 else d for d in dims]
                profile_shapes[tensor.name] = (one, one, one)
        if profile_shapes:
            steps.append("dynamic dimensions set to 1, as trtexec does when no shapes are given")
    if profile_shapes:
        profile = builder.create_optimization_profile()
        for name, (lo, opt, hi) in profile_shapes.items():
            profile.set_shape(name, tuple(lo), tuple(opt), tuple(hi))
        config.add_optimization_profile(profile)
        done.shapes = {k: [list(v) for v in dims] for k, dims in profile_shapes.items()}
        steps.append(f"a profile for {', '.join(profile_shapes)}")
    if done.flags:
        steps.append(f"flags {' '.join(done.flags)}")
    if done.ignored:
        steps.append(f"could not apply {' '.join(done.ignored)}")
    plan = builder.build_serialized_network(network, config)
    done.exit_code = 0 if plan is not None else 1
    done.log = logger.text()
    done.reason = "; ".join(steps) + ("; the build succeeded" if plan is not None else "; the build returned no engine")
    return done
