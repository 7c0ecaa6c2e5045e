"""The failure zoo regenerated with the real TensorRT for RTX, each fresh log explained through the public API.

When a TensorRT-RTX release changes a message, the failing test names the case and the signature that no
longer match. Without tensorrt_rtx the tests that need it are skipped, except under CI=true, where a
missing backend is a failure.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

import trtdoctor

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import zoo  # noqa: E402

try:
    import tensorrt_rtx  # noqa: F401
    MISSING = None
except Exception as exc:  # noqa: BLE001 - any import failure (no wheel, no library) means no backend
    MISSING = f"tensorrt_rtx cannot be imported ({type(exc).__name__}: {exc})"

needs_backend = pytest.mark.skipif(MISSING is not None and os.environ.get("CI") != "true",
                                   reason=MISSING or "")
CASES = {c.name: c for c in zoo.CASES}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """Every case's log, printed now by the installed TensorRT for RTX."""
    out = tmp_path_factory.mktemp("zoo")
    assert zoo.main(["--out", str(out)]) == 0, "a case built when it should fail, or failed when it should build"
    return out


@needs_backend
@pytest.mark.parametrize("classifier", [False, True], ids=["patterns", "classifier"])
@pytest.mark.parametrize("name", list(CASES))
def test_fresh_log_is_diagnosed(fresh: Path, name: str, classifier: bool):
    case = CASES[name]
    report = trtdoctor.explain(fresh / f"zoo-{name}.log", classifier=classifier)
    got = [d.id for d in report.diagnoses]
    if case.negative:
        assert not report.diagnoses, f"zoo case {name!r} builds successfully but is diagnosed as {got}"
        return
    assert got and got[0] == case.signature, (
        f"zoo case {name!r}: expected signature {case.signature!r}, got {got or 'no diagnosis'} "
        f"(candidates {[c.id for c in report.candidates]}); has TensorRT-RTX changed the message?")
    if case.cause:
        selected = report.diagnoses[0].selected_cause
        assert selected is not None and selected.id == case.cause, (
            f"zoo case {name!r} ({case.signature}): expected cause {case.cause!r}, "
            f"got {selected.id if selected else None!r}")


@needs_backend
def test_no_driver_noise_in_fresh_logs(fresh: Path):
    """The CPU-only build's cudaError 35 echo never becomes the diagnosis of a log with an earlier error."""
    for name, case in CASES.items():
        if case.signature == "cuda-driver-too-old":
            continue
        report = trtdoctor.explain(fresh / f"zoo-{name}.log", classifier=False)
        assert "cuda-driver-too-old" not in [d.id for d in report.diagnoses], name


def test_cases_are_many_and_varied():
    failing = [c for c in zoo.CASES if not c.negative]
    assert len(failing) >= 30
    assert len({c.signature for c in failing}) >= 25
    assert len(CASES) == len(zoo.CASES), "case names must be unique"


def test_every_case_is_committed_with_its_sidecar():
    kb = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (ROOT / "kb").glob("*.yaml")}
    for case in zoo.CASES:
        folder = "negative" if case.negative else case.signature
        log = ROOT / "corpus" / folder / f"zoo-{case.name}.log"
        assert log.is_file(), f"run: python scripts/zoo.py --case {case.name} --write"
        meta = yaml.safe_load(log.with_suffix(".yaml").read_text(encoding="utf-8"))
        assert meta["source"] == f"zoo:{case.name}"
        assert meta["tool"] == "tensorrt-rtx" and meta["tensorrt"] == zoo.TENSORRT_RTX
        assert meta["command"] == f"python scripts/zoo.py --case {case.name} --write"
        assert meta.get("cause") == case.cause
        if not case.negative:
            causes = [c["id"] for c in kb[case.signature].get("causes", [])]
            assert (case.cause in causes) if causes else case.cause is None, case.name


def test_committed_zoo_logs_belong_to_cases():
    """Every log that says scripts/zoo.py wrote it is one of its cases (the benchmark's reference verbose
    build, written by scripts/bench.py, says so in its own sidecar)."""
    names = {f"zoo-{c.name}.log" for c in zoo.CASES} | {"zoo-verbose-build.log"}
    made_by_zoo = [p for p in (ROOT / "corpus").glob("*/zoo-*.log")
                   if "scripts/zoo.py" in p.with_suffix(".yaml").read_text(encoding="utf-8")]
    strays = [str(p.relative_to(ROOT)) for p in made_by_zoo if p.name not in names]
    assert made_by_zoo and not strays


def test_driver_error_without_earlier_error_is_diagnosed():
    log = ("[11/23/2026-12:00:00] [TRT] [E] IRuntime::deserializeCudaEngine: Error Code 1: Cuda Runtime (In "
           "ScopedCudaStream at /_src/common/dispatch/cudaResources.cpp:25 (cudaError 35: CUDA driver version is "
           "insufficient for CUDA runtime version))\n"
           "[11/23/2026-12:00:00] [TRT] [E] [checkMacros.cpp::catchCudaError::250] Error Code 1: Cuda Runtime (In "
           "catchCudaError at /_src/common/dispatch/checkMacros.cpp:250 (cudaError 35: CUDA driver version is "
           "insufficient for CUDA runtime version))\n")
    report = trtdoctor.explain(log, classifier=False)
    assert report.diagnoses and report.diagnoses[0].id == "cuda-driver-too-old"
    only_echo = log.split("\n", 1)[1]
    report = trtdoctor.explain(only_echo, classifier=False)
    assert report.diagnoses and report.diagnoses[0].id == "cuda-driver-too-old"


def test_driver_echo_after_an_error_is_not_diagnosed():
    log = ("[11/23/2026-12:00:00] [TRT] [E] Some error no signature knows\n"
           "[11/23/2026-12:00:00] [TRT] [E] [checkMacros.cpp::catchCudaError::250] Error Code 1: Cuda Runtime (In "
           "catchCudaError at /_src/common/dispatch/checkMacros.cpp:250 (cudaError 35: CUDA driver version is "
           "insufficient for CUDA runtime version))\n")
    report = trtdoctor.explain(log, classifier=False)
    assert not report.diagnoses
    assert "cuda-driver-too-old" in [c.id for c in report.candidates]


@needs_backend
def test_verbose_big_builds(tmp_path: Path):
    out = tmp_path / "big.log"
    assert zoo.main(["--verbose-big", str(out), "--blocks", "3"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "[TRT] [V]" in text and "Serialized engine" in text
    assert not trtdoctor.explain(out, classifier=False).diagnoses
