"""The classifier half: safe storage, calibrated abstention, and what it adds to the patterns."""

import subprocess
import sys

import numpy as np
import pytest

import trtdoctor
from trtdoctor import classify, train
from trtdoctor.api import knowledge_base
from trtdoctor.diagnose import CLASSIFIER_CANDIDATE
from trtdoctor.errortext import fold

from conftest import CORPUS, ROOT


@pytest.fixture(scope="module")
def model():
    kb, _ = knowledge_base()
    return train.model_for(kb)


def test_model_round_trips_through_safe_arrays(model, tmp_path):
    path = tmp_path / "m.bin"
    model.save(path, key="k")
    again = classify.Model.load(path, key="k")
    text = "Error Code 2: Internal Error (Myelin support for convolution with 2 inputs)"
    assert again.classes == model.classes
    assert np.allclose(again.raw_proba(text), model.raw_proba(text))
    with pytest.raises(KeyError):
        classify.Model.load(path, key="another")
    # Nothing in the file needs pickle: a JSON header, then arrays of numbers and UTF-8 text.
    assert path.read_bytes().startswith(classify.MAGIC) and classify.Model.stored_key(path) == "k"
    again.save(tmp_path / "again.bin", key="k")  # a model read back saves the same arrays
    assert np.allclose(classify.Model.load(tmp_path / "again.bin").raw_proba(text), model.raw_proba(text))


def test_a_truncated_or_foreign_model_file_is_refused_not_misread(model, tmp_path):
    path = tmp_path / "m.bin"
    model.save(path, key="k")
    whole = path.read_bytes()
    path.write_bytes(whole[:-1000])  # the uncompressed coefficients lose their last features
    with pytest.raises(ValueError, match="truncated"):
        classify.Model.load(path, key="k")
    path.write_bytes(whole.replace(classify.MAGIC, b"TRTDOCTOR-CLASSIFIER 1\n", 1))  # the older format
    with pytest.raises(ValueError):
        classify.Model.load(path, key="k")


def test_calibration_is_monotone_and_bounded(model):
    if not len(model.calib_x):
        pytest.skip("corpus too small to calibrate")
    assert np.all(np.diff(model.calib_y) >= -1e-9)
    assert min(model.calib_y) >= 0 and max(model.calib_y) <= 1


def test_no_negative_log_is_diagnosed_with_the_classifier_on():
    diagnosed = []
    for log in sorted((CORPUS / "negative").glob("*.log")):
        report = trtdoctor.explain(log)
        if report.diagnoses:
            diagnosed.append((log.name, report.diagnoses[0].id, report.diagnoses[0].decided_by))
    assert not diagnosed


def test_an_unpatterned_wording_is_named_as_a_candidate_never_diagnosed():
    kb, _ = knowledge_base()
    if kb.get("myelin-conv-computed-weights") is None:
        pytest.skip("signature absent")
    # Reworded: no pattern of the knowledge base matches this line.
    text = "[E] [TRT] 2: Error Code 2: Internal Error (Myelin: convolution with two inputs is not supported yet)\n"
    report = trtdoctor.explain(text)
    assert report.matcher == "patterns+classifier"
    assert report.diagnoses == [] and report.exit_code == 1
    # Its closest readings are candidates (the generic Myelin/builder-bug signature may come first: the line
    # says "Internal Error" and "Myelin" too); the specific signature is among them.
    named = {c.id: c.why for c in report.candidates}
    assert named.get("myelin-conv-computed-weights") == CLASSIFIER_CANDIDATE
    patterns_only = trtdoctor.explain(text, classifier=False)
    assert patterns_only.diagnoses == [] and patterns_only.candidates == []


def test_unrelated_failure_abstains():
    report = trtdoctor.explain("[E] the widget factory ran out of sprockets while polishing gears\n")
    assert not report.diagnoses and report.exit_code == 1


def test_pattern_decided_path_never_imports_scikit_learn_or_numpy():
    logs = [p for p in sorted(CORPUS.glob("myelin-conv-computed-weights/*.log"))]
    if not logs:
        pytest.skip("no example")
    code = (f"import sys, trtdoctor; r = trtdoctor.explain({str(logs[0])!r}); "
            "assert r.diagnoses and r.top.decided_by == 'pattern'; "
            "bad = [m for m in ('sklearn', 'numpy', 'onnx', 'tensorrt', 'yaml', 'pydantic') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    # The first run compiles the knowledge base into the cache (YAML, pydantic); later runs only read it.
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_classifier_path_imports_neither_numpy_nor_scikit_learn():
    # The shipped model is read and applied in plain Python: numpy alone costs a fifth of a second to import.
    text = ("[11/23/2026-13:01:01] [TRT] [E] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1872] Error Code 4: "
            "Miscellaneous (IShuffleLayer /model.3/Reshape: shape tensor wildcard not resolved)\n")
    code = (f"import sys, trtdoctor; r = trtdoctor.explain({text!r}); "
            "assert r.matcher == 'patterns+classifier', r.matcher; "
            "bad = [m for m in ('sklearn', 'numpy', 'scipy') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_log_without_tensorrt_in_it_is_never_diagnosed_by_wording_alone():
    from trtdoctor.diagnose import tensorrt_context
    from trtdoctor.facts import LogFacts
    from trtdoctor.lines import parse_line

    # A pip failure reads much like "Failed building wheel for tensorrt", which has a signature.
    text = ("  ERROR: Failed building wheel for pycocotools\nFailed to build pycocotools\n"
            "ERROR: Could not build wheels for pycocotools, which is required to install pyproject.toml-based projects\n")
    report = trtdoctor.explain(text)
    assert report.diagnoses == [] and report.exit_code == 1
    assert not tensorrt_context([parse_line(1, line) for line in text.splitlines()], LogFacts())
    assert tensorrt_context([parse_line(1, "[E] [TRT] 4: something new")], LogFacts())


def _reader_of(texts_by_label: dict[str, list[str]]) -> classify.Model:
    """A small real model that reads each given wording as its label (trained here, not stubbed)."""
    docs = [classify.Doc(fold(t), label, f"{label}-{i}") for label, texts in texts_by_label.items()
            for i, t in enumerate(texts)]
    return classify.fit(docs, calibrate=False)


def _explain_with(path, model):
    from trtdoctor import read
    from trtdoctor.api import explain_chunks

    with open(path, "rb") as stream:
        return explain_chunks(read.chunks(stream, numbered=False), source=str(path), model=model,
                              classifier=model is not None)


def test_the_classifier_names_candidates_but_never_diagnoses_alone():
    # TensorFlow warns at import that it cannot load TF-TRT's libraries, and goes on: harmless without TF-TRT.
    # A model that reads exactly these words as a missing TensorRT still only names a candidate.
    log = CORPUS / "negative" / "neg-tf-import-tftrt-dlopen-warn-tf58681.log"
    wording = [line for line in log.read_text().splitlines() if "libnvinfer" in line]
    model = _reader_of({"libnvinfer-missing": wording * 3, "none": ["the widget factory ran out of sprockets"] * 3})
    assert model.predict(fold("\n".join(wording)))[0][0] == "libnvinfer-missing"
    report = _explain_with(log, model)
    assert report.diagnoses == [] and report.exit_code == 1
    assert report.candidates[0].id == "libnvinfer-missing" and report.candidates[0].why == CLASSIFIER_CANDIDATE


def test_the_classifier_confirms_a_pattern_diagnosis_it_agrees_with():
    log = CORPUS / "onnx-ir-version-unsupported" / "onnx-tensorrt-487.log"
    alone = _explain_with(log, None)
    assert alone.top.id == "onnx-ir-version-unsupported" and alone.top.decided_by == "pattern"
    wording = [line for line in log.read_text().splitlines() if "ir_version" in line or "Assertion" in line]
    model = _reader_of({"onnx-ir-version-unsupported": wording * 3, "none": ["the widget factory ran out"] * 3})
    both = _explain_with(log, model)
    assert both.top.id == "onnx-ir-version-unsupported" and both.top.decided_by == "both"
    assert both.top.confidence >= alone.top.confidence


def test_the_classifier_never_overrules_a_pattern_diagnosis_that_outranks_its_label():
    # An old parser warns that the model's IR version is newer, then fails on a missing input tensor: the
    # knowledge base says the first explains the second, whatever the classifier makes of the text.
    log = CORPUS / "onnx-ir-version-unsupported" / "onnx-tensorrt-487.log"
    kb, _ = knowledge_base()
    assert "parser-missing-input-tensor" in kb.get("onnx-ir-version-unsupported").outranks
    wording = [line for line in log.read_text().splitlines() if "Assertion failed" in line or "ERROR" in line]
    model = _reader_of({"parser-missing-input-tensor": wording * 3, "none": ["the widget factory ran out"] * 3})
    report = _explain_with(log, model)
    assert report.top.id == "onnx-ir-version-unsupported"
    assert "parser-missing-input-tensor" not in [d.id for d in report.diagnoses]


def test_a_reading_whose_first_label_is_none_still_names_the_signatures_it_ranks_next():
    # On a wording no pattern knows, the negatives' label often comes first; the signatures ranked after it
    # are still the closest candidates, and "none" is never one.
    log = CORPUS / "negative" / "neg-tf-import-tftrt-dlopen-warn-tf58681.log"
    wording = [line for line in log.read_text().splitlines() if "libnvinfer" in line]
    model = _reader_of({"none": wording * 4, "cudnn-init-failed": wording * 3,
                        "tensorrt-python-missing": wording * 2 + ["No module named tensorrt"],
                        "cuda-library-missing": wording * 2 + ["libcudart.so cannot open shared object file"]})
    reading = [label for label, _, _ in model.predict(fold("\n".join(wording)), top=4)]
    assert reading[0] == "none"
    report = _explain_with(log, model)
    assert report.diagnoses == []
    named = [c.id for c in report.candidates if c.why == CLASSIFIER_CANDIDATE]
    assert sorted(named) == sorted(reading[1:4]) and "none" not in named


def test_error_text_keeps_error_lines_worded_without_error():
    from trtdoctor.errortext import error_text
    from trtdoctor.lines import parse_line
    texts = ["[I] [TRT] Loaded engine size: 12 MiB",
             "error:  model file '/resnet18.onnx' was not found.",
             "[1]    27275 killed     python3 camera.py",
             "NvInfer.h:No existe el archivo o el directorio",
             "[8]断言失败：scales_input.is_weights（）",
             "python3 invoked oom-killer: gfp_mask=0x24082c2",
             "Building the network, 12 layers"]
    kept = error_text([parse_line(i + 1, t) for i, t in enumerate(texts)]).splitlines()
    assert len(kept) == 5
    assert not any("Loaded engine" in k or "Building the network" in k for k in kept)


def test_a_signatures_text_has_the_words_of_every_alternative_of_its_patterns():
    from trtdoctor.train import regex_words, signature_docs

    assert regex_words(r"Could not (?:open|load) (?P<path>\S+)\.onnx") == "Could not open load .onnx"
    assert regex_words(r"TopK:? K\b exceeds (?P<max>\d+)") == "TopK: K exceeds"
    kb, _ = knowledge_base()
    sig = kb.get("dynamic-input-no-profile")
    (text,) = {d.text for d in signature_docs(kb) if d.label == sig.id}
    # Both of ONNX Runtime's phrasings, though the pattern's literal is only what they share.
    assert "Users need to specify" in text and "User needs to provide" in text
