"""How a diagnosis's confidence combines the patterns that matched."""

import pytest

import trtdoctor

SIGNATURE = """\
id: team-frob
title: Our in-house frobnicator plugin is missing
category: environment
message: frobnicator plugin NAME missing
patterns:
  - regex: 'frobnicator plugin (?P<name>\\w+) missing'
    confidence: 0.7
  - regex: 'frob\\w* (?:plugin|library) \\w+ missing'
    confidence: 0.6
cause: The in-house plugin library is not loaded before the engine is built.
remedy: [Load libfrob.so with --plugins.]
references: [https://github.com/example/team/issues/1]
"""


@pytest.fixture()
def kb_dir(tmp_path):
    (tmp_path / "team-frob.yaml").write_text(SIGNATURE)
    return tmp_path


def confidence(kb_dir, log: str) -> float:
    report = trtdoctor.explain(log, kb_dirs=[kb_dir], classifier=False)
    (diag,) = [d for d in report.diagnoses if d.id == "team-frob"]
    return diag.confidence


def test_two_patterns_reading_one_line_are_one_witness(kb_dir):
    # Both patterns match this line: the general one adds nothing the specific one had not seen.
    assert confidence(kb_dir, "[E] frobnicator plugin Frob2 missing\n") == pytest.approx(0.7)


def test_patterns_reading_distinct_lines_are_independent_witnesses(kb_dir):
    log = "[E] frobnicator plugin Frob2 missing\n[E] frobnication library Frob3 missing\n"
    assert confidence(kb_dir, log) == pytest.approx(1 - 0.3 * 0.4)


def test_the_weaker_pattern_alone_gives_its_own_confidence(kb_dir):
    assert confidence(kb_dir, "[E] frobnication library Frob3 missing\n") == pytest.approx(0.6)
