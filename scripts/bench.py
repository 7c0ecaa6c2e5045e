"""Speed and memory of `trtdoctor explain`, against named baselines, in the same run.

    python scripts/bench.py big   [--lines 1000000] [--runs 5]   # verbose logs vs grep -E -c -f and rg -c -f (KB patterns)
    python scripts/bench.py small [--runs 20]                    # 300-line logs vs python -c pass
    python scripts/bench.py cold  [--runs 11]                    # 300-line logs, each run with an empty cache
    python scripts/bench.py many  [--logs 2500 5000 10000]       # explain DIR --summary --jobs 0 (and --jobs 1)
    python scripts/bench.py verbose-log OUT.log --blocks 200     # write a real TensorRT-RTX VERBOSE build log

`big` measures two logs of a million lines: a real TensorRT-RTX VERBOSE build of a 200-block network
(scripts/data/rtx-verbose-200.log.gz, made by `verbose-log`; nearly every line names a layer) repeated, and a
generated one with the shapes of a `trtexec --verbose` build; each ends with a real corpus failure. Each
command runs as a child process; wall time comes from a monotonic clock and peak memory from the child's own
rusage (wait4), so nothing of the harness is counted. Runs are interleaved; medians and ratios are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEMPLATES = [
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Parsing node: /model.{i}/conv/Conv [Conv]",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Searching for input: /model.{i}/act/Mul_output_0",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] /model.{i}/conv/Conv [Conv] inputs: [/model.{j}/act/Mul_output_0 -> (-1, 64, 80, 80)[FLOAT]], [model.{i}.conv.weight -> (64, 64, 3, 3)[FLOAT]], ",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Registering layer: /model.{i}/conv/Conv for ONNX node: /model.{i}/conv/Conv",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Tactic: 0x{h:016x} Time: 0.0{t:04d}",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Set Tactic Name: sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_stage4_warpsize2x2x1_g1_tensor16x8x8 Tactic: 0x{h:016x}",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] *************** Autotuning format combination: Float(409600,6400,80,1) -> Float(409600,6400,80,1) ***************",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] --------------- Timing Runner: /model.{i}/conv/Conv + PWN(/model.{i}/act/Sigmoid, /model.{i}/act/Mul) (CaskConvolution)",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Fastest Tactic: 0x{h:016x} Time: 0.0{t:04d}",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] >>>>>>>>>>>>>>> Chose Runner Type: CaskConvolution Tactic: 0x{h:016x}",
    "[11/22/2026-10:{m:02d}:{s:02d}] [V] [TRT] Layer(CaskConvolution): /model.{i}/conv/Conv, Tactic: 0x{h:016x}, /model.{j}/act/Mul_output_0 (Half[1,64:8,80,80]) -> /model.{i}/act/Mul_output_0 (Half[1,64:8,80,80])",
    "[11/22/2026-10:{m:02d}:{s:02d}] [I] [TRT] [MemUsageChange] Init cuBLAS/cuBLASLt: CPU +{i} MiB, GPU +{j} MiB, now: CPU 1342, GPU 2107 (MiB)",
]
HEAD = ["&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16 --verbose",
        "[11/22/2026-10:00:00] [I] === Device Information ===",
        "[11/22/2026-10:00:00] [I] Selected Device: NVIDIA A100-SXM4-40GB",
        "[11/22/2026-10:00:00] [I] Compute Capability: 8.0"]


def make_log(path: Path, lines: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    failure = _failure_log()
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(HEAD) + "\n")
        batch = []
        for n in range(lines - len(HEAD) - len(failure)):
            t = TEMPLATES[rng.randrange(len(TEMPLATES))]
            batch.append(t.format(m=n // 60000 % 60, s=n // 1000 % 60, i=n % 257, j=(n + 1) % 257,
                                  h=rng.getrandbits(64), t=rng.randrange(10000)))
            if len(batch) == 10000:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")
        out.write("\n".join(failure) + "\n")
    return path


def _failure_log() -> list[str]:
    logs = sorted((ROOT / "corpus").glob("myelin-conv-computed-weights/*.log")) or \
        sorted(p for p in (ROOT / "corpus").glob("*/*.log") if p.parent.name != "negative")
    if not logs:
        raise SystemExit("no corpus log to put at the end of the generated log")
    return logs[0].read_text(encoding="utf-8", errors="replace").splitlines()


# ------------------------------------------------------------------ a real TensorRT-RTX VERBOSE build log

REAL_LOG = ROOT / "scripts" / "data" / "rtx-verbose-200.log.gz"
REAL_LOG_COMMAND = "python scripts/bench.py verbose-log scripts/data/rtx-verbose-200.log --blocks 200 && gzip -9n scripts/data/rtx-verbose-200.log"


def verbose_network(blocks: int, channels: int = 16, side: int = 16, seed: int = 0):
    """An ONNX model of ``blocks`` blocks named as exporters name them (/model.12/Concat): Conv, Concat,
    Slice, Reshape, Transpose, MatMul, Softmax, Gather, Transpose, Reshape, Add."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits = [], []

    def const(name: str, array) -> str:
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        out = f"{name}_output_0"
        nodes.append(helper.make_node(op, inputs, [out], name=name, **attrs))
        return out

    x, c, hw = "images", channels, side * side
    for i in range(blocks):
        p = f"/model.{i}"
        w = const(f"model.{i}.conv.weight", (rng.standard_normal((c, c, 3, 3)) * 0.05).astype(np.float32))
        b = const(f"model.{i}.conv.bias", np.zeros(c, np.float32))
        y = node("Conv", [x, w, b], f"{p}/conv/Conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
        y = node("Concat", [y, x], f"{p}/Concat", axis=1)
        y = node("Slice", [y, const(f"{p}/Constant_output_0", np.array([0])), const(f"{p}/Constant_1_output_0", np.array([c])),
                           const(f"{p}/Constant_2_output_0", np.array([1]))], f"{p}/Slice")
        y = node("Reshape", [y, const(f"{p}/Constant_3_output_0", np.array([1, c, hw]))], f"{p}/Reshape")
        y = node("Transpose", [y], f"{p}/Transpose", perm=[0, 2, 1])
        y = node("MatMul", [y, const(f"model.{i}.proj.weight", (rng.standard_normal((c, c)) * 0.1).astype(np.float32))],
                 f"{p}/MatMul")
        y = node("Softmax", [y], f"{p}/Softmax", axis=-1)
        y = node("Gather", [y, const(f"{p}/Constant_4_output_0", rng.permutation(hw))], f"{p}/Gather", axis=1)
        y = node("Transpose", [y], f"{p}/Transpose_1", perm=[0, 2, 1])
        y = node("Reshape", [y, const(f"{p}/Constant_5_output_0", np.array([1, c, side, side]))], f"{p}/Reshape_1")
        x = node("Add", [y, x], f"{p}/Add")
    nodes.append(helper.make_node("Identity", [x], ["output0"], name="/Identity"))
    graph = helper.make_graph(nodes, "main_graph", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, c, side, side])],
                              [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, c, side, side])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="pytorch",
                              producer_version="2.5.0")
    model.ir_version = 8
    return model


def verbose_log(path: Path, blocks: int) -> bool:
    """Build ``verbose_network(blocks)`` with TensorRT-RTX under a VERBOSE logger that writes each message as
    TensorRT's Python samples do (``[11/23/2026-12:00:00] [TRT] [V] msg``). TensorRT-RTX builds ahead of
    time, without a GPU. Returns whether the engine was built."""

    import onnx
    import tensorrt_rtx as trt

    sys.path.insert(0, str(ROOT / "scripts"))
    from zoo import _logger as zoo_logger

    with open(path, "w", encoding="utf-8") as out, tempfile.TemporaryDirectory() as tmp:
        logger = zoo_logger(trt, out.write)  # the zoo's logger: the Python samples' line format
        model = Path(tmp) / "model.onnx"
        onnx.save(verbose_network(blocks), str(model))
        builder = trt.Builder(logger)
        network = builder.create_network(0)
        parser = trt.OnnxParser(network, logger)
        if not parser.parse_from_file(str(model)):
            return False
        plan = builder.build_serialized_network(network, builder.create_builder_config())
    text = path.read_text(encoding="utf-8").replace(tmp, "/tmp/bench")  # the same text on every run
    path.write_text(text, encoding="utf-8")
    return plan is not None


def real_lines() -> list[str]:
    """The lines of the committed real verbose log (REAL_LOG, made by REAL_LOG_COMMAND)."""
    import gzip

    with gzip.open(REAL_LOG, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


def make_real_log(path: Path, lines: int) -> Path:
    """The real verbose log repeated to ``lines`` lines, with a real corpus failure at its end."""
    build = real_lines()
    failure = _failure_log()
    body = lines - len(failure)
    with open(path, "w", encoding="utf-8") as out:
        text = "\n".join(build) + "\n"
        while body >= len(build):
            out.write(text)
            body -= len(build)
        if body > 0:
            out.write("\n".join(build[:body]) + "\n")
        out.write("\n".join(failure) + "\n")
    return path


_CLASS_ESCAPES = {"d": "0-9", "s": "[:space:]", "w": "[:alnum:]_"}
_ESCAPES = {"d": "[0-9]", "s": "[[:space:]]", "S": "[^[:space:]]", "w": "[[:alnum:]_]", "W": "[^[:alnum:]_]"}


def to_ere(regex: str) -> str | None:
    """One RE2 pattern in POSIX ERE, or None where ERE has no equivalent (lookaround-free RE2 mostly has one)."""
    out, i, in_class = [], 0, False
    regex = re.sub(r"\(\?P<\w+>", "(", regex).replace("(?:", "(")
    if "(?" in regex or "\\b" in regex:
        return None
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            n = regex[i + 1]
            if in_class:
                if n in _CLASS_ESCAPES:
                    out.append(_CLASS_ESCAPES[n])
                elif n in "]\\-^" or n.isalnum():
                    return None  # would need reordering inside the bracket
                else:
                    out.append(n)
            else:
                out.append(_ESCAPES.get(n, c + n))
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            if regex[i + 1:i + 2] == "^":
                out.append("^")
                i += 1
        elif c == "]" and in_class:
            in_class = False
            out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def ere_patterns(dest: Path) -> tuple[Path, int, int]:
    """The knowledge base's regexes in POSIX ERE for grep -E; a pattern that cannot be written so is
    replaced by its scan literal (which is what trtdoctor searches the whole log for, too)."""
    from trtdoctor.kb.load import load

    kb = load(use_cache=False)
    out, converted, fallback = [], 0, 0
    for sig in kb.signatures:
        for p in sig.patterns:
            ere = to_ere(p.regex)
            if ere is None:
                out.extend(re.escape(lit) for lit in p.literals)
                fallback += 1
            else:
                out.append(ere)
                converted += 1
    dest.write_text("\n".join(out) + "\n")
    # A pattern grep cannot compile would make it exit at once and look fast: refuse to measure that.
    check = subprocess.run(["grep", "-E", "-f", str(dest), "/dev/null"], capture_output=True, text=True)
    if check.returncode == 2:
        raise SystemExit(f"grep rejects the converted patterns: {check.stderr.strip()}")
    return dest, converted, fallback


# pip byte-compiles what it installs; a shell that forbids .pyc files would time the compiler instead.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


TIME = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)


def measure(cmd: list[str], runs: int, stdout=subprocess.DEVNULL, env: dict[str, str] | None = None,
            stderr=subprocess.DEVNULL) -> tuple[list[float], list[int]]:
    """Wall time and peak memory of each run. A child forked from this harness starts with the harness's own
    peak memory on record (Linux keeps it across exec), so where GNU time exists the command runs under it
    (a small process) and its figure is read; the wall time includes its millisecond, for every command alike."""
    walls, peaks = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
            full = [TIME, "-q", "-f", "%M", "-o", rss.name, *cmd] if TIME else cmd
            start = time.perf_counter()
            proc = subprocess.Popen(full, stdout=stdout, stderr=stderr, env=env or CHILD_ENV)
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            text = rss.read().strip().splitlines()
            kib = int(text[-1]) if TIME and text and text[-1].isdigit() else usage.ru_maxrss  # Linux: KiB
            peaks.append(kib * 1024)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return walls, peaks


def trtdoctor_cmd() -> list[str]:
    exe = shutil.which("trtdoctor")
    return [exe] if exe else [sys.executable, "-m", "trtdoctor.cli"]


def report(name: str, walls: list[float], peaks: list[int], base: float | None = None) -> float:
    med = statistics.median(walls)
    ratio = f"  {med / base:5.2f}x baseline" if base else ""
    print(f"  {name:<34} median {med * 1000:9.1f} ms  (min {min(walls) * 1000:.1f}, max {max(walls) * 1000:.1f})"
          f"  peak {max(peaks) / 2**20:7.1f} MiB{ratio}")
    return med


def rg_patterns(dest: Path) -> Path | None:
    """The knowledge base's regexes as they are (ripgrep's Rust syntax reads RE2's), for rg -f; None without rg."""
    from trtdoctor.kb.load import load

    if not shutil.which("rg"):
        return None
    out = []
    for sig in load(use_cache=False).signatures:
        for p in sig.patterns:
            regex = re.sub(r"\(\?P<\w+>", "(", p.regex)  # rg joins the lines into one regex: no duplicate names
            ok = subprocess.run(["rg", "-q", "-e", regex, "/dev/null"], capture_output=True).returncode != 2
            out.extend([regex] if ok else [re.escape(lit) for lit in p.literals])
    dest.write_text("\n".join(out) + "\n")
    # A pattern rg cannot compile would make it exit at once and look fast: refuse to measure that.
    check = subprocess.run(["rg", "-c", "-f", str(dest), "/dev/null"], capture_output=True, text=True)
    if check.returncode == 2:
        raise SystemExit(f"rg rejects the patterns: {check.stderr.strip()[-300:]}")
    return dest


def big(args: argparse.Namespace) -> None:
    print(time.strftime("taken %Y-%m-%d %H:%M:%S UTC", time.gmtime()) + f", {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        pats, converted, fallback = ere_patterns(Path(tmp) / "patterns.txt")
        rg = rg_patterns(Path(tmp) / "rg-patterns.txt")
        print(f"{converted} KB patterns as ERE, {fallback} as their literals; rg: "
              f"{shutil.which('rg') or 'absent (apt-get install ripgrep, or pip install ripgrep)'}")
        cases = [("real verbose (TensorRT-RTX, 200 blocks, repeated)", make_real_log),
                 ("generated verbose (trtexec shapes)", make_log)]
        verdicts = []
        for title, make in cases:
            log = make(Path(tmp) / "verbose.log", args.lines)
            print(f"\n{title}: {args.lines} lines, {log.stat().st_size / 1e6:.1f} MB; {args.runs} runs each, interleaved")
            cmd = trtdoctor_cmd() + ["explain", str(log)]
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=CHILD_ENV)  # warm the compiled-KB cache, as any second run is
            cmds = {"grep -E -c -f (KB patterns)": ["grep", "-E", "-c", "-f", str(pats), str(log)]}
            if rg:
                cmds["rg -c -f (KB patterns)"] = ["rg", "-c", "-f", str(rg), str(log)]
            cmds["trtdoctor explain"] = cmd
            walls: dict[str, list[float]] = {k: [] for k in cmds}
            peaks: dict[str, list[int]] = {k: [] for k in cmds}
            for _ in range(args.runs):
                for name, c in cmds.items():
                    w, p = measure(c, 1)
                    walls[name] += w
                    peaks[name] += p
            found = subprocess.run(cmds["grep -E -c -f (KB patterns)"], capture_output=True, text=True)
            if found.returncode != 0:
                raise SystemExit(f"grep found nothing (exit {found.returncode}): the baseline is not doing the work")
            print(f"  grep matched {found.stdout.strip()} lines")
            base = report("grep -E -c -f (KB patterns)", walls["grep -E -c -f (KB patterns)"],
                          peaks["grep -E -c -f (KB patterns)"])
            rg_med = report("rg -c -f (KB patterns)", walls["rg -c -f (KB patterns)"],
                            peaks["rg -c -f (KB patterns)"], base) if rg else None
            med = report("trtdoctor explain", walls["trtdoctor explain"], peaks["trtdoctor explain"], base)
            out = subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
            verdict = out[1] if len(out) > 1 else "(no diagnosis)"
            vs_rg = f", {med / rg_med:.2f}x rg" if rg_med else ", rg absent"
            print(f"  ratio {med / base:.2f}x grep{vs_rg}; peak {max(peaks['trtdoctor explain']) / 2**20:.0f} MiB; "
                  f"target <= 1.5x grep and <= 150 MiB")
            verdicts.append(f"  {title}: {verdict}")
        print("\ndiagnoses:\n" + "\n".join(verdicts))


def _classifier_log(path: Path) -> Path:
    """300 lines of a real verbose build, ending in an error no pattern names: the shipped classifier is loaded
    and read (it names the candidates)."""
    head = real_lines()[:298]
    head += ["[11/23/2026-13:02:43] [TRT] [E] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1872] Error Code 4: "
             "Miscellaneous (IShuffleLayer /model.3/Reshape: shape tensor wildcard not resolved)",
             "[11/23/2026-13:02:43] [TRT] [E] 2: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal "
             "Error (Assertion engine != nullptr failed. )"]
    path.write_text("\n".join(head) + "\n")
    return path


def cold(args: argparse.Namespace) -> None:
    """A first run: every run starts with an empty cache directory (no compiled knowledge base, no classifier
    cached), so what ships in trtdoctor/_model/ is all there is. Standard error must stay empty."""
    print(time.strftime("taken %Y-%m-%d %H:%M:%S UTC", time.gmtime()) + f", {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        logs = {"verbose, pattern decides": make_log(Path(tmp) / "build.log", 300),
                "verbose, classifier consulted": _classifier_log(Path(tmp) / "classify.log")}
        walls: dict[str, list[float]] = {"base": [], **{k: [] for k in logs}}
        peaks: dict[str, list[int]] = {"base": [], **{k: [] for k in logs}}
        noisy = []
        for i in range(args.runs):
            w, p = measure([sys.executable, "-c", "pass"], 1)
            walls["base"] += w
            peaks["base"] += p
            for name, log in logs.items():
                cache = Path(tmp) / f"cache-{i}-{len(walls[name])}"
                err = Path(tmp) / "stderr.txt"
                with open(err, "wb") as e:
                    w, p = measure(trtdoctor_cmd() + ["explain", str(log)], 1, env={**CHILD_ENV, "TRTDOCTOR_CACHE_DIR": str(cache)},
                                   stderr=e)
                walls[name] += w
                peaks[name] += p
                if err.read_text().strip():
                    noisy.append(f"{name}: {err.read_text().strip()[:200]}")
        print(f"300-line logs, {args.runs} runs each, interleaved, each trtdoctor run with an empty cache")
        base = report("python -c pass", walls["base"], peaks["base"])
        for name in logs:
            med = report(f"cold explain ({name})", walls[name], peaks[name], base)
            print(f"    median {med * 1000:.0f} ms; target <= 300 ms")
        for name, log in logs.items():
            out = subprocess.run(trtdoctor_cmd() + ["explain", str(log)], capture_output=True, text=True).stdout.splitlines()
            print(f"  {name}: {out[1] if len(out) > 1 else '(no diagnosis)'}")
        print("standard error: " + ("empty in every run" if not noisy else "NOT EMPTY: " + "; ".join(noisy[:3])))


def many(args: argparse.Namespace) -> None:
    """explain DIR --summary over copies of the corpus's real logs: logs per second with every core and with one
    job, time against the number of logs (linear), and peak memory (flat: only counts are kept)."""
    print(time.strftime("taken %Y-%m-%d %H:%M:%S UTC", time.gmtime()) + f", {os.cpu_count()} cores")
    sources = sorted((ROOT / "corpus").glob("*/*.log"))
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for n in sorted(args.logs):
            folder = Path(tmp) / f"logs-{n}"
            folder.mkdir()
            for i in range(n):
                src = sources[i % len(sources)]
                shutil.copyfile(src, folder / f"{i:05d}-{src.parent.name}-{src.name}")
            for jobs in ([0, 1] if n == max(args.logs) and not args.no_serial else [0]):
                cmd = trtdoctor_cmd() + ["explain", str(folder), "--summary", "--jobs", str(jobs)]
                walls, peaks = measure(cmd, args.runs)
                med = statistics.median(walls)
                rows.append((n, jobs, med, max(peaks)))
                print(f"  {n:>6} logs  --jobs {jobs}  median {med:7.2f} s  {n / med:8.0f} logs/s  "
                      f"{med / n * 1e3:6.2f} ms/log  peak {max(peaks) / 2**20:6.1f} MiB", flush=True)
        parallel = [r for r in rows if r[1] == 0]
        if len(parallel) > 1:
            per = [r[2] / r[0] for r in parallel]
            print(f"time per log from {parallel[0][0]} to {parallel[-1][0]} logs: {per[0] * 1e3:.2f} -> {per[-1] * 1e3:.2f} ms "
                  f"({per[-1] / per[0]:.2f}x: linear when near 1); peak memory {parallel[0][3] / 2**20:.0f} -> "
                  f"{parallel[-1][3] / 2**20:.0f} MiB")
        one = [r for r in rows if r[1] == 1]
        if one:
            same = [r for r in parallel if r[0] == one[0][0]][0]
            print(f"--jobs 0 is {one[0][2] / same[2]:.2f}x --jobs 1 on {one[0][0]} logs ({os.cpu_count()} cores)")
        out = subprocess.run(trtdoctor_cmd() + ["explain", str(Path(tmp) / f"logs-{max(args.logs)}"), "--summary",
                                                "--jobs", "0"], capture_output=True, text=True).stdout.splitlines()
        print("summary (first lines):\n  " + "\n  ".join(out[:6]))


def small(args: argparse.Namespace) -> None:
    """Two 300-line logs: a build log as trtexec writes it (verbose lines, one real failure at the end), and
    a dense one, made of the corpus's error excerpts back to back, where nearly every line is read."""
    logs = sorted(p for p in (ROOT / "corpus").glob("*/*.log") if p.parent.name != "negative")
    with tempfile.TemporaryDirectory() as tmp:
        build = make_log(Path(tmp) / "build.log", 300)
        dense = Path(tmp) / "dense.log"
        lines: list[str] = []
        for p in logs:
            lines.extend(p.read_text(encoding="utf-8", errors="replace").splitlines())
            if len(lines) >= 300:
                break
        dense.write_text("\n".join(lines[-300:]) + "\n")
        cmds = {name: trtdoctor_cmd() + ["explain", str(log)] for name, log in (("build", build), ("dense", dense))}
        for cmd in cmds.values():
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=CHILD_ENV)
        # The CLI library alone, imported by the interpreter that runs trtdoctor: the floor of any typer CLI.
        cli_python = Path(trtdoctor_cmd()[0]).with_name("python")
        typer_only = [str(cli_python if cli_python.exists() else sys.executable), "-c", "import typer"]
        walls: dict[str, list[float]] = {"base": [], "typer": [], "build": [], "dense": []}
        peaks: dict[str, list[int]] = {"base": [], "typer": [], "build": [], "dense": []}
        for _ in range(args.runs):
            for name, cmd in (("base", [sys.executable, "-c", "pass"]), ("typer", typer_only), *cmds.items()):
                w, p = measure(cmd, 1)
                walls[name] += w
                peaks[name] += p
        print(f"300-line logs, {args.runs} runs each, interleaved")
        base = report("python -c pass", walls["base"], peaks["base"])
        report("python -c 'import typer'", walls["typer"], peaks["typer"], base)
        med_build = report("trtdoctor explain (build log)", walls["build"], peaks["build"], base)
        med_dense = report("trtdoctor explain (dense log)", walls["dense"], peaks["dense"], base)
        print(f"trtdoctor explain median {med_build * 1000:.0f} ms (build log), {med_dense * 1000:.0f} ms "
              f"(dense log); target <= 150 ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("big")
    b.add_argument("--lines", type=int, default=1_000_000)
    b.add_argument("--runs", type=int, default=5)
    s = sub.add_parser("small")
    s.add_argument("--runs", type=int, default=20)
    c = sub.add_parser("cold")
    c.add_argument("--runs", type=int, default=11)
    m = sub.add_parser("many")
    m.add_argument("--logs", type=int, nargs="+", default=[2500, 5000, 10000])
    m.add_argument("--runs", type=int, default=1)
    m.add_argument("--no-serial", action="store_true", help="skip the --jobs 1 run")
    v = sub.add_parser("verbose-log", help="write a real TensorRT-RTX VERBOSE build log (needs tensorrt-rtx, onnx)")
    v.add_argument("out", type=Path)
    v.add_argument("--blocks", type=int, default=200)
    args = ap.parse_args()
    if args.what == "verbose-log":
        if not verbose_log(args.out, args.blocks):
            raise SystemExit(f"the build failed; see {args.out}")
        return
    {"big": big, "small": small, "cold": cold, "many": many}[args.what](args)


if __name__ == "__main__":
    main()
