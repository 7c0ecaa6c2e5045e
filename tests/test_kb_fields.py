"""The optional fields a signature may carry: remedy caveats, look-alike lines, tags and tool scope; and the
changed-signature check that the pull-request workflow runs."""

import json
import subprocess
import textwrap

import pytest
from typer.testing import CliRunner

from trtdoctor.cli import app
from trtdoctor.kb.compiled import KnowledgeBase
from trtdoctor.kb.load import KnowledgeBaseError, bundled_dir, compile_files, signature_files
from trtdoctor.kbtools.changed import ids_from_paths
from trtdoctor.kbtools.check import check

from conftest import CORPUS, ROOT
from test_kb_check import GOOD, messages, write_kb

runner = CliRunner()

COSTLY = GOOD.replace("remedy: [Add the widget.]", textwrap.dedent("""\
    remedy:
      - Add the widget.
      - step: Build without --fp16.
        caveat: The engine runs in FP32, about twice as slow.
    tools: [trtexec, polygraphy]
    tags: [jetson, NonZero]
    lookalikes:
      - "[W] frobnicator warned 3 times"
    """).rstrip())


def frob(tmp_path, body=COSTLY, examples=None, negatives=None):
    return write_kb(tmp_path, {"frob-fail": body.format(id="frob-fail", regex=r"frobnicator failed (?P<n>\d+) times")},
                    examples or {"frob-fail/one": "[E] frobnicator failed 3 times\n"}, negatives or {"ok": "&&&& PASSED\n"})


def test_new_fields_are_optional_and_carried_through_the_cache(tmp_path):
    kb, corpus = frob(tmp_path)
    result = check([kb], corpus)
    assert result.ok, messages(result)
    sig = compile_files(signature_files([kb])).get("frob-fail")
    assert sig.remedy == ("Add the widget.", "Build without --fp16.")   # steps stay plain strings
    assert sig.caveats == (None, "The engine runs in FP32, about twice as slow.")
    assert sig.tools == ("trtexec", "polygraphy") and sig.tags == ("jetson", "NonZero")
    assert sig.has_tag("nonzero") and sig.has_tag("polygraphy") and not sig.has_tag("wsl")
    cached = KnowledgeBase.from_json(json.loads(json.dumps(compile_files(signature_files([kb])).to_json())))
    assert cached.get("frob-fail") == sig
    # A cache written before these fields existed still loads.
    old = compile_files(signature_files([kb])).to_json()
    for s in old["signatures"]:
        for key in ("caveats", "tools", "tags", "lookalikes"):
            s.pop(key)
    assert KnowledgeBase.from_json(old).get("frob-fail").caveats == ()


@pytest.mark.parametrize("field, value, says", [
    ("tags", "[jetson, Jetson]", "duplicate tag"),
    ("tags", "['two words']", "a tag is one word"),
    ("tools", "[tensorflow]", "tools.0"),
])
def test_bad_tags_and_tools_are_refused(tmp_path, field, value, says):
    body = GOOD + f"{field}: {value}\n"
    kb, corpus = frob(tmp_path, body)
    with pytest.raises(KnowledgeBaseError) as exc:
        compile_files(signature_files([kb]))
    assert says in str(exc.value)


def test_a_remedy_step_mapping_needs_a_step(tmp_path):
    body = GOOD.replace("remedy: [Add the widget.]", "remedy:\n  - caveat: costs a lot of speed\n")
    kb, corpus = frob(tmp_path, body)
    assert "remedy.0" in messages(check([kb], corpus))


def test_a_pattern_matching_a_lookalike_fails_naming_file_and_line(tmp_path):
    body = COSTLY.replace('"[W] frobnicator warned 3 times"', '"[W] frobnicator failed 3 times, retrying"')
    kb, corpus = frob(tmp_path, body)
    text = messages(check([kb], corpus))
    assert "frob-fail.yaml:15: patterns.0 matches lookalikes.0" in text, text


def test_an_example_from_a_tool_outside_the_scope_is_refused(tmp_path):
    body = COSTLY.replace("tools: [trtexec, polygraphy]", "tools: [torch-tensorrt]")
    kb, corpus = frob(tmp_path, body)
    text = messages(check([kb], corpus))
    assert "one.yaml:3: tool 'trtexec' is outside the tools of frob-fail (torch-tensorrt)" in text, text


def test_caveats_reach_every_report(tmp_path):
    kb, corpus = frob(tmp_path)
    log = corpus / "frob-fail" / "one.log"
    out = {fmt: runner.invoke(app, ["explain", "--kb", str(kb), "-f", fmt, str(log)]).output
           for fmt in ("text", "markdown", "json")}
    assert "Cost: The engine runs in FP32" in out["text"]
    assert "*Cost: The engine runs in FP32, about twice as slow.*" in out["markdown"]
    diag = json.loads(out["json"])["diagnoses"][0]
    assert diag["remedy"] == ["Add the widget.", "Build without --fp16."]
    assert diag["remedy_caveats"] == [None, "The engine runs in FP32, about twice as slow."]


def listed(*tags):
    out = runner.invoke(app, ["kb", "list", *[a for t in tags for a in ("--tag", t)]])
    assert out.exit_code == 0
    return {line.split()[2] for line in out.output.splitlines()}


def test_list_filters_by_tag():
    assert listed("nonzero") == {"nonzero-unsupported"}           # case does not matter
    torch = listed("torch-tensorrt")                               # tools count as tags
    assert {"torch-tensorrt-dynamic-shape", "torch-tensorrt-unsupported-op"} <= torch
    both = listed("torch-tensorrt", "dynamic-shapes")               # all must hold
    assert "torch-tensorrt-dynamic-shape" in both and "torch-tensorrt-unsupported-op" not in both and both <= torch
    assert listed("no-such-tag") == set()


def test_bundled_signatures_with_a_tool_scope_have_only_examples_inside_it():
    kb = compile_files(signature_files([bundled_dir()]))
    scoped = [s for s in kb.signatures if s.tools]
    assert scoped, "the bundled knowledge base declares no tool scope"
    result = check([bundled_dir()], CORPUS, only=[s.id for s in scoped], run_examples=False)
    assert result.ok, messages(result)


# -- the changed-signature check of the pull-request workflow

def test_ids_from_changed_paths():
    paths = ["kb/frob-fail.yaml", "corpus/widget-gone/a.log", "corpus/negative/n.log", "README.md",
             "kb/README.md", "kb/signature.schema.json", "trtdoctor/kb/schema.py"]
    assert ids_from_paths(paths) == ["frob-fail", "widget-gone"]


def test_only_checks_the_named_signatures_against_the_clean_pool(tmp_path):
    sigs = {"frob-fail": GOOD.format(id="frob-fail", regex="frobnicator failed"),
            "widget-gone": GOOD.format(id="widget-gone", regex="widget (?P<w>\\w+) is gone")}
    kb, corpus = write_kb(tmp_path, sigs, {"frob-fail/a": "frobnicator failed\n", "widget-gone/b": "widget W is gone\n"})
    pool = tmp_path / "pool"
    pool.mkdir()
    (pool / "verbose-build.log").write_text("[I] building\n[W] widget cache is gone, rebuilding\n&&&& PASSED\n")
    assert check([kb], corpus, only=["frob-fail"], pool=[pool]).ok
    text = messages(check([kb], corpus, only=["widget-gone"], pool=[pool]))
    assert "widget-gone.yaml:6: patterns.0 of widget-gone matches negative log" in text
    assert "verbose-build.log:2: [W] widget cache is gone, rebuilding" in text
    assert "verbose-build.log: is a negative example but is diagnosed as widget-gone" in text
    assert "no signature 'nope'" in messages(check([kb], corpus, only=["nope"]))


def git(cwd, *args):
    subprocess.run(["git", "-C", str(cwd), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   check=True, capture_output=True)


def test_changed_since_checks_what_a_pull_request_changes(tmp_path):
    sigs = {"frob-fail": GOOD.format(id="frob-fail", regex="frobnicator failed")}
    kb, corpus = write_kb(tmp_path, sigs, {"frob-fail/a": "frobnicator failed\n"}, {"ok": "[I] widget W is gone\n"})
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "base")
    args = ["kb", "check", str(kb), "--corpus", str(corpus), "--changed-since", "HEAD"]
    same = runner.invoke(app, args)
    assert same.exit_code == 0 and "no signature changed" in same.output
    # A pull request adds a signature whose pattern fires on a clean log.
    (kb / "widget-gone.yaml").write_text(GOOD.format(id="widget-gone", regex="widget (?P<w>\\w+) is gone"))
    (corpus / "widget-gone").mkdir()
    (corpus / "widget-gone" / "b.log").write_text("[E] widget W is gone\n")
    (corpus / "widget-gone" / "b.yaml").write_text(
        "source: https://github.com/example/project/issues/3\ntensorrt: unknown\ntool: trtexec\n")
    changed = runner.invoke(app, args)
    assert changed.exit_code == 1
    assert "changed since HEAD: widget-gone" in changed.output
    assert "widget-gone.yaml:6: patterns.0 of widget-gone matches negative log" in changed.output
    assert "ok.log:1: [I] widget W is gone" in changed.output
    assert "frob-fail" not in changed.output.split("changed since HEAD:")[1].splitlines()[0]


def test_changed_signatures_of_this_checkout_pass_over_the_clean_pool():
    """What the pull-request workflow runs, run by the test suite too: the signatures changed since the
    main branch (every signature, where there is no git history) fire on no clean log."""
    from trtdoctor.kbtools.changed import GitError, changed_signatures

    kb = compile_files(signature_files([ROOT / "kb"]))
    ids = None
    for ref in ("origin/main", "main"):
        try:
            ids = changed_signatures(ref, ROOT / "kb", CORPUS, set(kb.by_id))
            break
        except GitError:
            continue
    if ids is None:
        ids = sorted(kb.by_id)
    if not ids:
        pytest.skip("no signature changed since main")
    result = check([ROOT / "kb"], CORPUS, only=ids, run_examples=False)
    assert result.ok, messages(result) + "\n(run: trtdoctor kb check --changed-since main)"
