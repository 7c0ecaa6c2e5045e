"""The command line and the Python API around it, on real corpus logs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trtdoctor
from trtdoctor.cli import app

from conftest import CORPUS, ROOT

EXAMPLES = sorted(p for p in CORPUS.glob("*/*.log") if p.parent.name != "negative")
NEGATIVES = sorted((CORPUS / "negative").glob("*.log"))
runner = CliRunner()


def first_error_example() -> Path:
    from trtdoctor.api import knowledge_base

    kb, _ = knowledge_base()
    for log in EXAMPLES:
        sig = kb.get(log.parent.name)
        if sig and sig.kind == "error":
            return log
    pytest.skip("no error example in the corpus")


def cli(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trtdoctor.cli", *args], input=input, capture_output=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


def test_explain_text_names_cause_evidence_and_remedy():
    log = first_error_example()
    result = runner.invoke(app, ["explain", str(log)])
    assert result.exit_code == 0, result.output
    report = trtdoctor.explain(log)
    top = report.top
    assert top.title in result.output and "What to do" in result.output and "Evidence" in result.output
    assert f"{top.evidence[0].line:>7} |" in result.output


def test_json_output_is_the_api_report():
    log = first_error_example()
    result = runner.invoke(app, ["explain", "--format", "json", "--patterns-only", str(log)])
    data = json.loads(result.output)
    assert data == trtdoctor.explain(log, classifier=False).to_dict()
    assert data["diagnoses"][0]["id"] == log.parent.name
    for key in ("id", "title", "confidence", "evidence", "facts", "cause", "remedy", "advice", "references"):
        assert key in data["diagnoses"][0]


def test_markdown_and_github_formats():
    log = first_error_example()
    md = runner.invoke(app, ["explain", "-f", "markdown", str(log)]).output
    assert md.startswith("### trtdoctor:") and "**What to do**" in md
    gh = runner.invoke(app, ["explain", "-f", "github", str(log)]).output
    assert gh.startswith("::error file=") and f"trtdoctor%3A {log.parent.name}" in gh


@pytest.mark.parametrize("args,stdin,needle", [
    (["explain", "/no/such/file.log"], None, "no such file"),
    (["explain", "-"], b"", "empty"),
    (["explain", "-"], bytes(range(256)) * 100, "binary"),
])
def test_bad_input_is_one_line_and_exit_2(args, stdin, needle):
    proc = cli(*args, input=stdin)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_directory_input_is_refused_when_empty(tmp_path):
    proc = cli("explain", str(tmp_path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr.decode()


def test_negative_log_exits_1():
    if not NEGATIVES:
        pytest.skip("no negatives")
    result = runner.invoke(app, ["explain", str(NEGATIVES[0])])
    assert result.exit_code == 1 and "No known TensorRT failure" in result.output


def test_many_logs_summary_counts_each_signature(tmp_path):
    logs = EXAMPLES[:6]
    if len(logs) < 2:
        pytest.skip("corpus too small")
    result = runner.invoke(app, ["explain", "--summary", "--patterns-only", *map(str, logs)])
    assert result.exit_code == 0
    assert f"{len(logs):>5}  logs in all" in result.output
    parallel = runner.invoke(app, ["explain", "--summary", "--patterns-only", "--jobs", "2", *map(str, logs)])
    assert parallel.output == result.output


def test_tee_passes_the_log_through_unchanged():
    log = first_error_example()
    data = log.read_bytes()
    proc = cli("explain", "--tee", input=data)
    assert proc.returncode == 0
    assert proc.stdout.startswith(data)
    assert b"What to do" in proc.stdout[len(data):]


def test_run_keeps_the_exit_code_and_streams_output(tmp_path):
    log = first_error_example()
    script = tmp_path / "fake_build.py"
    script.write_text(f"import sys\nsys.stdout.write(open({str(log)!r}, encoding='utf-8', errors='replace').read())\nsys.exit(7)\n")
    kept = tmp_path / "kept.log"
    proc = cli("run", "--log", str(kept), "--", sys.executable, str(script))
    assert proc.returncode == 7
    assert kept.read_bytes() == log.read_bytes().decode("utf-8", "replace").encode("utf-8")
    assert b"What to do" in proc.stdout
    ok = cli("run", "--", sys.executable, "-c", "print('fine')")
    assert ok.returncode == 0 and ok.stdout == b"fine\n"
    missing = cli("run", "--", "no-such-command-anywhere")
    assert missing.returncode == 127 and "command not found" in missing.stderr.decode()


def test_broken_pipe_is_quiet():
    log = first_error_example()
    proc = subprocess.run(f"{sys.executable} -m trtdoctor.cli explain {log} | head -c 10", shell=True,
                          capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert b"Traceback" not in proc.stderr and b"BrokenPipe" not in proc.stderr


def test_kb_list_show_and_new(tmp_path):
    listing = runner.invoke(app, ["kb", "list"])
    assert listing.exit_code == 0
    first_id = listing.output.split()[2]
    shown = runner.invoke(app, ["kb", "show", first_id])
    assert shown.exit_code == 0 and f"id: {first_id}" in shown.output
    assert runner.invoke(app, ["kb", "show", "no-such-signature"]).exit_code == 2
    made = runner.invoke(app, ["kb", "new", "my-new-error", "--dir", str(tmp_path / "kb"), "--corpus", str(tmp_path / "corpus")])
    assert made.exit_code == 0
    assert (tmp_path / "kb" / "my-new-error.yaml").exists() and (tmp_path / "corpus" / "my-new-error" / "example.yaml").exists()
    gate = runner.invoke(app, ["kb", "check", str(tmp_path / "kb"), "--corpus", str(tmp_path / "corpus")])
    assert gate.exit_code == 1 and "my-new-error.yaml" in gate.output
    assert runner.invoke(app, ["kb", "new", "Bad Id"]).exit_code == 2


def test_local_signatures_join_the_bundled_ones(tmp_path):
    (tmp_path / "team-frob.yaml").write_text(
        "id: team-frob\ntitle: Our in-house frobnicator plugin is missing\ncategory: environment\n"
        "message: frobnicator plugin missing\npatterns:\n  - regex: 'frobnicator plugin (?P<name>\\w+) missing'\n"
        "cause: The in-house plugin library is not loaded before the engine is built.\n"
        "remedy: [Load libfrob.so with --plugins.]\nreferences: [https://github.com/example/team/issues/1]\n")
    log = tmp_path / "build.log"
    log.write_text("[E] frobnicator plugin Frob2 missing\n")
    result = runner.invoke(app, ["explain", "--kb", str(tmp_path), "-f", "json", str(log)])
    assert json.loads(result.output)["diagnoses"][0]["facts"]["name"] == "Frob2"
    assert runner.invoke(app, ["explain", str(log)]).exit_code == 1


def test_schema_file_is_in_step_with_the_models():
    from trtdoctor.kb.schema import json_schema

    assert (ROOT / "kb" / "signature.schema.json").read_text() == json_schema()


def test_api_accepts_text_bytes_and_paths():
    log = first_error_example()
    by_path = trtdoctor.explain(log, classifier=False).to_dict()
    by_str_path = trtdoctor.explain(str(log), classifier=False).to_dict()
    by_text = trtdoctor.explain(log.read_text(encoding="utf-8", errors="replace"), classifier=False).to_dict()
    by_bytes = trtdoctor.explain(log.read_bytes(), classifier=False).to_dict()
    assert by_path == by_str_path
    assert by_text["diagnoses"] == by_path["diagnoses"] == by_bytes["diagnoses"]
    with pytest.raises(trtdoctor.InputError):
        trtdoctor.explain(b"")


def test_kb_train_trains_caches_and_the_cache_is_what_explain_uses(tmp_path):
    from trtdoctor import api, classify, train

    # With a private --kb directory the model is cached (the bundled signatures alone: written into the package,
    # which tests leave alone; tests/test_shipped.py checks that one).
    private = tmp_path / "private-kb"
    private.mkdir()
    result = runner.invoke(app, ["kb", "train", "--kb", str(private)])
    assert result.exit_code == 0, result.output
    assert "trained on" in result.output and "cached at" in result.output
    kb, _ = api.knowledge_base([private])
    path = train.cache_path(kb)
    assert str(path) in result.output and path.is_file()
    loaded = classify.Model.load(path)
    assert loaded.classes == train.model_for(kb).classes
