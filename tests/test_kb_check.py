"""The contributor's gate, on small knowledge bases written by the tests, and on the real one."""

import textwrap
from pathlib import Path

import pytest

from trtdoctor.kbtools.check import check, regex_safety
from trtdoctor.kb.load import KnowledgeBaseError, bundled_dir, compile_files

from conftest import CORPUS

GOOD = """\
id: {id}
title: A test signature that explains a made-up failure
category: parser
message: "frobnicator failed N times"
patterns:
  - regex: '{regex}'
cause: The frobnicator fails when the widget is missing from the model.
remedy: [Add the widget.]
references: [https://github.com/example/project/issues/1]
"""


def write_kb(tmp: Path, sigs: dict[str, str], examples: dict[str, str], negatives: dict[str, str] = {}) -> tuple[Path, Path]:
    kb, corpus = tmp / "kb", tmp / "corpus"
    kb.mkdir()
    (corpus / "negative").mkdir(parents=True)
    for sig_id, body in sigs.items():
        (kb / f"{sig_id}.yaml").write_text(body)
    for name, text in examples.items():
        sig_id, stem = name.split("/")
        (corpus / sig_id).mkdir(exist_ok=True)
        (corpus / sig_id / f"{stem}.log").write_text(text)
        (corpus / sig_id / f"{stem}.yaml").write_text(
            "source: https://github.com/example/project/issues/1\ntensorrt: '8.6.1'\ntool: trtexec\n")
    for stem, text in negatives.items():
        (corpus / "negative" / f"{stem}.log").write_text(text)
        (corpus / "negative" / f"{stem}.yaml").write_text(
            "source: https://github.com/example/project/issues/2\ntensorrt: unknown\ntool: trtexec\n")
    return kb, corpus


def messages(result) -> str:
    return "\n".join(str(p) for p in result.problems)


def explain_with(kb_dir: Path, log: str):
    """The report, patterns only, of a log against the knowledge base the test wrote."""
    import io

    from trtdoctor import api, read
    from trtdoctor.match import Matcher

    kb = compile_files(sorted(kb_dir.glob("*.yaml")))
    return api.explain_chunks(read.chunks(io.BytesIO(log.encode())), source="test", knowledge=(kb, Matcher(kb)),
                              classifier=False)


def with_pattern_options(sig_id: str, regex: str, options: str) -> str:
    """A test signature whose one pattern carries extra YAML lines (confidence, unless, requires ...)."""
    line = f"  - regex: '{regex}'\n"
    return GOOD.format(id=sig_id, regex=regex).replace(line, line + textwrap.indent(options, "    "))


def test_clean_kb_passes(tmp_path):
    kb, corpus = write_kb(tmp_path, {"frob-fail": GOOD.format(id="frob-fail", regex=r"frobnicator failed (?P<n>\d+) times")},
                          {"frob-fail/one": "[E] frobnicator failed 3 times\n"}, {"ok": "&&&& PASSED\n"})
    result = check([kb], corpus)
    assert result.ok, messages(result)
    assert (result.signatures, result.examples, result.negatives) == (1, 1, 1)


def test_schema_error_names_file_line_and_field(tmp_path):
    body = GOOD.format(id="frob-fail", regex="frobnicator").replace("category: parser", "category: kitchen")
    kb, corpus = write_kb(tmp_path, {"frob-fail": body}, {"frob-fail/one": "frobnicator\n"})
    text = messages(check([kb], corpus))
    assert "frob-fail.yaml:3: category:" in text


def test_load_error_is_one_line_naming_file(tmp_path):
    kb, _ = write_kb(tmp_path, {"frob-fail": GOOD.format(id="frob-fail", regex="frob(")}, {})
    with pytest.raises(KnowledgeBaseError) as err:
        compile_files(sorted(kb.glob("*.yaml")))
    assert "frob-fail.yaml" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("regex,why", [
    (r"frobnicator (\w+)+ failed", "quantifier inside a quantifier"),
    (r"frobnicator (?:a|ab)* failed", "branches can start alike"),
    (r"frobnicator (\w+) \1", "RE2"),
    (r"frobnicator (?=x)", "RE2"),
])
def test_unsafe_regexes_are_refused(regex, why):
    assert any(why in p for p in regex_safety(regex))


@pytest.mark.parametrize("regex", [r"frobnicator failed (?P<n>\d+) times", r"(?:plan|engine) file (\d+\.)+\d+",
                                   r"kernel weights has count (?P<count>\d+)"])
def test_ordinary_regexes_are_safe(regex):
    assert regex_safety(regex) == [] or "quantifier" in regex_safety(regex)[0] and "(\\d+\\.)+" in regex


def test_missing_example_wrong_top_and_claimed_negative(tmp_path):
    sigs = {
        "frob-fail": GOOD.format(id="frob-fail", regex="frobnicator failed"),
        "frob-other": GOOD.format(id="frob-other", regex="frobnicator"),
        "lonely-one": GOOD.format(id="lonely-one", regex="lonely widget"),
    }
    kb, corpus = write_kb(tmp_path, sigs, {"frob-fail/a": "frobnicator failed\n", "frob-other/b": "frobnicator crashed\n"},
                          {"neg": "the frobnicator is fine\n"})
    text = messages(check([kb], corpus))
    assert "lonely-one.yaml: has no real example" in text
    assert "frob-other.yaml:6: patterns.0 also matches" in text and "an example of frob-fail" in text
    assert "matches negative log" in text


def test_expr_names_must_be_captured(tmp_path):
    body = GOOD.format(id="frob-fail", regex=r"frobnicator failed (?P<n>\d+) times") + textwrap.dedent("""\
        causes:
          - id: many
            title: It failed many times over and over
            cause: Many failures mean the widget is absent from every layer.
            remedy: [Add widgets.]
            when:
              - expr: "count > 10"
                says: more than ten
          - id: few
            title: It failed a few times only here
            cause: A few failures mean one layer lacks the widget only.
            remedy: [Add one widget.]
        """)
    kb, corpus = write_kb(tmp_path, {"frob-fail": body}, {"frob-fail/a": "frobnicator failed 3 times\n"})
    assert "name 'count' is captured by no pattern" in messages(check([kb], corpus))


def test_outranks_allows_a_generic_pattern_on_a_specific_example(tmp_path):
    specific = GOOD.format(id="frob-specific", regex="frobnicator failed on NonZero") + "outranks: [frob-generic]\n"
    generic = GOOD.format(id="frob-generic", regex=r"frobnicator failed on (?P<op>\w+)")
    kb, corpus = write_kb(tmp_path, {"frob-specific": specific, "frob-generic": generic},
                          {"frob-specific/a": "frobnicator failed on NonZero\n",
                           "frob-generic/b": "frobnicator failed on Einsum\n"})
    result = check([kb], corpus)
    assert result.ok, messages(result)


def test_bundled_knowledge_base_passes_the_gate():
    result = check([bundled_dir()], CORPUS)
    assert result.ok, messages(result)
    assert result.signatures >= 10


def test_corpus_folder_without_signature_is_reported_for_the_whole_kb_only(tmp_path):
    kb, corpus = write_kb(tmp_path, {"frob-fail": GOOD.format(id="frob-fail", regex=r"frobnicator failed (?P<n>\d+) times")},
                          {"frob-fail/one": "[E] frobnicator failed 3 times\n", "widget-gone/two": "[E] no widget\n"})
    whole = messages(check([kb], corpus))
    assert "widget-gone" in whole and "names no signature" in whole
    # A contributor checking the one file they wrote is not told about other folders.
    assert "names no signature" not in messages(check([kb / "frob-fail.yaml"], corpus))


@pytest.mark.parametrize("regex,literal,why", [
    (r"\w+ \[(?:Concat|Split)\]", " [Concat]", "operator's name"),
    (r"\w+ \[Concat\] inputs", " [Concat] inputs", "selects 16 of the"),
    (r"Registering layer: \S+ for ONNX node", " for ONNX node", "selects 177 of the"),  # the rarer of the two
])
def test_unselective_literals_are_refused_with_advice(tmp_path, regex, literal, why):
    kb, corpus = write_kb(tmp_path, {"frob-fail": GOOD.format(id="frob-fail", regex=regex)}, {})
    text = messages(check([kb], corpus, run_examples=False))
    assert "patterns.0.regex" in text and repr(literal) in text and why in text
    assert "a second required literal" in text and "rarest" in text


def test_every_literal_the_whole_log_is_searched_for_is_selective_on_the_reference_verbose_log():
    # Signatures' patterns are held to it by the gate; the facts' and error markers' literals by this test.
    from trtdoctor import pipeline
    from trtdoctor.kb.load import reference
    from trtdoctor.kbtools.check import selectivity

    ref = reference()
    assert ref is not None and ref.total > 1000
    _, matcher = pipeline.knowledge_base()
    for lit in sorted(pipeline.literals(matcher)):
        assert ref.count((lit,)) <= ref.limit, f"{lit!r} selects {ref.count((lit,))} of {ref.total} reference lines"
    assert selectivity(("Concat",), ref) and not selectivity(("Myelin support for convolution with ",), ref)


def test_a_match_below_the_threshold_does_not_outrank_a_stronger_diagnosis(tmp_path):
    weak = with_pattern_options("frob-weak", "widget request too large", "confidence: 0.2\n") + "outranks: [frob-strong]\n"
    strong = GOOD.format(id="frob-strong", regex="frobnicator failed on (?P<op>\\w+)")
    kb_dir, _ = write_kb(tmp_path, {"frob-weak": weak, "frob-strong": strong}, {})
    log = "[W] widget request too large\n[E] frobnicator failed on Einsum\n"

    report = explain_with(kb_dir, log)
    assert [d.id for d in report.diagnoses] == ["frob-strong"]
    # The weak match is still shown, as a candidate below the threshold.
    assert "frob-weak" in [c.id for c in report.candidates]
    # Above the threshold, the same match outranks as declared.
    (kb_dir / "frob-weak.yaml").write_text(weak.replace("confidence: 0.2", "confidence: 0.95"))
    assert [d.id for d in explain_with(kb_dir, log).diagnoses] == ["frob-weak"]


def test_a_pattern_does_not_count_where_the_log_shows_its_harmless_reading(tmp_path):
    regex = "frobnicator model is newer than the parser"
    warn = with_pattern_options("frob-newer", regex, "confidence: 0.6\nunless:\n"
                                "  - line: 'In function frob_import_\\w+:'\n"
                                "    says: a node importer failed on its own account\n")
    fails_alone = "[W] frobnicator model is newer than the parser\n[E] parse failed\n"
    fails_elsewhere = "[W] frobnicator model is newer than the parser\nERROR: In function frob_import_slice:\n"
    kb_dir, corpus = write_kb(tmp_path, {"frob-newer": warn}, {"frob-newer/a": fails_alone},
                              {"neg": fails_elsewhere})
    # The gate: the negative shows the harmless reading, so the pattern does not claim it.
    result = check([kb_dir], corpus)
    assert result.ok, messages(result)

    assert [d.id for d in explain_with(kb_dir, fails_alone).diagnoses] == ["frob-newer"]
    report = explain_with(kb_dir, fails_elsewhere)
    assert report.diagnoses == []
    (candidate,) = [c for c in report.candidates if c.id == "frob-newer"]
    assert "a node importer failed on its own account" in candidate.why
    # Without the 'unless' line, the gate reports the same negative as claimed.
    (kb_dir / "frob-newer.yaml").write_text(GOOD.format(id="frob-newer", regex=regex))
    assert "matches negative log" in messages(check([kb_dir], corpus))


def test_a_match_on_a_verbose_line_counts_only_where_the_pattern_allows_it(tmp_path):
    regex = "frobLayer (?P<layer>\\S+) has out of bounds access"
    error = "[E] [TRT] frobLayer /model/Expand has out of bounds access\n[E] build failed\n"
    checks_only = ("[V] [TRT] SYMBOLIC CHECKS\n[V] [TRT]     frobLayer /model/ArgMax has out of bounds access\n"
                   "[I] [TRT] Engine built in 0.1 s\n")
    kb_dir, corpus = write_kb(tmp_path, {"frob-oob": GOOD.format(id="frob-oob", regex=regex)},
                              {"frob-oob/a": error}, {"neg": checks_only})
    # The gate: the negative shows the words only at VERBOSE level, so the pattern does not claim it.
    result = check([kb_dir], corpus)
    assert result.ok, messages(result)

    assert [d.id for d in explain_with(kb_dir, error).diagnoses] == ["frob-oob"]
    report = explain_with(kb_dir, checks_only)
    assert report.diagnoses == []
    (candidate,) = [c for c in report.candidates if c.id == "frob-oob"]
    assert "only at VERBOSE level" in candidate.why
    # A pattern that declares its message a VERBOSE-level one claims the same negative.
    (kb_dir / "frob-oob.yaml").write_text(with_pattern_options("frob-oob", regex, "verbose: true\n"))
    assert "matches negative log" in messages(check([kb_dir], corpus))
    assert [d.id for d in explain_with(kb_dir, checks_only).diagnoses] == ["frob-oob"]


def test_a_generic_pattern_counts_only_in_the_context_it_requires(tmp_path):
    regex = "what\\(\\): +frob_map::at"
    generic = with_pattern_options("frob-calib", regex, "confidence: 0.7\nrequires:\n"
                                   "  - line: 'reading frobcalib table'\n"
                                   "    says: the build was reading a calibration table\n")
    in_context = "reading frobcalib table: t.table\nterminate called\n  what():  frob_map::at\n"
    elsewhere = "loading config\nterminate called\n  what():  frob_map::at\n"
    kb_dir, corpus = write_kb(tmp_path, {"frob-calib": generic}, {"frob-calib/a": in_context}, {"neg": elsewhere})
    # The gate: the negative lacks the context, so the pattern does not claim it.
    result = check([kb_dir], corpus)
    assert result.ok, messages(result)

    assert [d.id for d in explain_with(kb_dir, in_context).diagnoses] == ["frob-calib"]
    report = explain_with(kb_dir, elsewhere)
    assert report.diagnoses == []
    (candidate,) = [c for c in report.candidates if c.id == "frob-calib"]
    assert "no line shows the build was reading a calibration table" in candidate.why
    # Without 'requires', the gate reports the same negative as claimed.
    (kb_dir / "frob-calib.yaml").write_text(GOOD.format(id="frob-calib", regex=regex))
    assert "matches negative log" in messages(check([kb_dir], corpus))
