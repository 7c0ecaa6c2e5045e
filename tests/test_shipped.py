"""What ships in trtdoctor/_model/: the compiled bundled knowledge base and the trained classifier. A first run
(no cache yet) uses them instead of compiling YAML and training for seconds, so they must be in step with kb/
and corpus/; `trtdoctor kb train` rebuilds both."""

import json
import subprocess
import sys
import warnings

from trtdoctor import classify, train
from trtdoctor.kb import load

REBUILD = "out of step: run `trtdoctor kb train` and commit trtdoctor/_model/"


def _current():
    files = load.signature_files([load.bundled_dir()])
    contents = [f.read_bytes() for f in files]
    return files, contents, load._key(files, contents)


def test_shipped_knowledge_base_is_the_one_kb_compiles_to():
    files, contents, key = _current()
    shipped = json.loads((load.shipped_dir() / "kb.json").read_text(encoding="utf-8"))
    assert shipped["key"] == key, f"trtdoctor/_model/kb.json is {REBUILD}"
    fresh = load.compile_files(files, contents, key).to_json()
    for sig in fresh["signatures"]:
        sig["path"] = sig["path"].rsplit("/", 1)[-1]
    assert json.loads(json.dumps(fresh)) == shipped, f"trtdoctor/_model/kb.json is {REBUILD}"


def test_shipped_classifier_was_trained_on_this_knowledge_base_and_corpus():
    _, _, key = _current()
    shipped = load.shipped_kb(key)
    assert shipped is not None, f"trtdoctor/_model/kb.json is {REBUILD}"
    kb = shipped[0]
    assert classify.Model.stored_key(train.shipped_path()) == train._key(kb, load.corpus_dir()), \
        f"trtdoctor/_model/classifier.bin is {REBUILD}"
    classify.Model.load(train.shipped_path(), quick=train._quick_key(kb, load.corpus_dir()))  # what a run checks


def test_a_first_run_writes_nothing_but_its_own_messages_to_stderr(tmp_path):
    # An empty cache: the shipped knowledge base and classifier are used, nothing is compiled or trained.
    log = tmp_path / "build.log"
    log.write_text("[11/23/2026-13:01:01] [TRT] [V] Parsing node: /model.3/Reshape [Reshape]\n"
                   "[11/23/2026-13:01:01] [TRT] [E] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1872] Error Code 4: "
                   "Miscellaneous (IShuffleLayer /model.3/Reshape: shape tensor wildcard not resolved)\n")
    out = subprocess.run([sys.executable, "-m", "trtdoctor.cli", "explain", str(log)], capture_output=True, text=True,
                         env={"TRTDOCTOR_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    assert out.stderr == ""
    assert "(classifier)" in out.stdout or "candidates" in out.stdout.lower() or out.returncode == 1


def test_training_keeps_scikit_learns_warnings_off_the_terminal():
    docs = [classify.Doc(f"error code {i} in layer", f"sig-{i}", f"g{i}") for i in range(6)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        classify.fit(docs, calibrate=False)
    assert not caught, [str(w.message) for w in caught]
