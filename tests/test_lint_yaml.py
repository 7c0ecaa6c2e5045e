"""The YAML lint of the pull-request workflow: the repository passes it, and it catches what safe_load lets by."""

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

import lint_yaml  # noqa: E402


def test_the_knowledge_base_and_corpus_pass_the_lint():
    assert lint_yaml.main([str(ROOT / "kb"), str(ROOT / "corpus")]) == 0


def test_duplicate_keys_tabs_and_non_mappings_are_refused():
    dup = lint_yaml.lint_text("a.yaml", b"id: x\nremedy: [one]\ntitle: t\nremedy: [two]\n")
    assert dup == ["a.yaml:4: duplicate key 'remedy' (first on line 2)"]
    assert "b.yaml:2: tab character; indent with spaces" in lint_yaml.lint_text("b.yaml", b"a:\n\t- 1\n")
    assert lint_yaml.lint_text("c.yaml", b"- just a list\n") == ["c.yaml:1: must be a mapping of fields"]
    assert lint_yaml.lint_text("d.yaml", b"a: 1 \n") == ["d.yaml:1: trailing whitespace"]
