"""Re-running the build, to see whether the failure reproduces here.

With the ``tensorrt`` package: parse and build through its Python API with a logger that captures every
message. Otherwise, with ``trtexec`` on the PATH: run it with ``--verbose`` and the user's flags, without
a shell. Otherwise nothing is run, and the result says why. The captured log is then explained like
any other, and compared with the original diagnosis.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Shapes = Mapping[str, tuple[Sequence[int], Sequence[int], Sequence[int]]]  # input -> (min, opt, max)


@dataclass
class Rebuild:
    ran: bool
    how: str | None                 # 'tensorrt' | 'trtexec' | None
    command: list[str] | None
    exit_code: int | None
    log: str
    reason: str                     # what was run, or why nothing was

    def to_dict(self) -> dict[str, Any]:
        return {"ran": self.ran, "how": self.how, "command": self.command, "exit_code": self.exit_code,
                "reason": self.reason, "log_lines": self.log.count("\n")}


def rebuild(model: str | Path, *, flags: Sequence[str] = (), shapes: Shapes | None = None,
            timeout: float = 3600, prefer: str | None = None) -> Rebuild:
    if prefer != "trtexec":
        try:
            import tensorrt  # noqa: F401
        except ImportError:
            pass
        else:
            return _with_tensorrt(Path(model), flags, shapes)
    exe = shutil.which("trtexec")
    if exe is not None and prefer != "tensorrt":
        return _with_trtexec(exe, Path(model), flags, shapes, timeout)
    return Rebuild(False, None, None, None, "",
                   "no rebuild: neither the tensorrt Python package nor trtexec is available on this machine")


def trtexec_command(exe: str, model: Path, flags: Sequence[str], shapes: Shapes | None) -> list[str]:
    cmd = [exe, f"--onnx={model}", "--verbose", *flags]
    if shapes:
        def fmt(i: int) -> str:
            return ",".join(f"{name}:{'x'.join(str(d) for d in dims[i])}" for name, dims in shapes.items())

        cmd += [f"--minShapes={fmt(0)}", f"--optShapes={fmt(1)}", f"--maxShapes={fmt(2)}"]
    return cmd


def _with_trtexec(exe: str, model: Path, flags: Sequence[str], shapes: Shapes | None, timeout: float) -> Rebuild:
    cmd = trtexec_command(exe, model, flags, shapes)
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace")
        return Rebuild(True, "trtexec", cmd, None, out, f"ran {' '.join(cmd)}; stopped after {timeout:.0f} s")
    except OSError as exc:
        return Rebuild(False, "trtexec", cmd, None, "", f"could not run trtexec: {exc}")
    return Rebuild(True, "trtexec", cmd, done.returncode, done.stdout.decode("utf-8", "replace"),
                   f"ran {' '.join(cmd)} (exit code {done.returncode})")


def _with_tensorrt(model: Path, flags: Sequence[str], shapes: Shapes | None) -> Rebuild:
    import tensorrt as trt

    from trtdoctor.trtlog import tensorrt_logger

    logger = tensorrt_logger()
    major = int(trt.__version__.split(".")[0])
    builder = trt.Builder(logger)
    explicit = 0 if major >= 10 else 1 << int(trt.NetworkDefinitionCreationFlag.EXPLICIT_BATCH)
    network = builder.create_network(explicit)
    parser = trt.OnnxParser(network, logger)
    steps = [f"tensorrt {trt.__version__}: parse {model}"]
    if not parser.parse_from_file(str(model)):
        for i in range(parser.num_errors):
            logger.log(trt.Logger.ERROR, str(parser.get_error(i)))
        return Rebuild(True, "tensorrt", None, 1, logger.text(), "; ".join(steps) + ": the parser failed")
    config = builder.create_builder_config()
    for flag, name in (("--fp16", "FP16"), ("--int8", "INT8"), ("--bf16", "BF16"), ("--best", "FP16")):
        if flag in flags and hasattr(trt.BuilderFlag, name):
            config.set_flag(getattr(trt.BuilderFlag, name))
            steps.append(f"flag {name}")
    if shapes:
        profile = builder.create_optimization_profile()
        for name, (lo, opt, hi) in shapes.items():
            profile.set_shape(name, tuple(lo), tuple(opt), tuple(hi))
        config.add_optimization_profile(profile)
        steps.append(f"profile for {', '.join(shapes)}")
    plan = builder.build_serialized_network(network, config)
    ok = plan is not None
    return Rebuild(True, "tensorrt", None, 0 if ok else 1, logger.text(),
                   "; ".join(steps) + ("; the build succeeded" if ok else "; the build returned no engine"))
