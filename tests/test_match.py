"""The matcher finds exactly the hits a plain per-line, per-pattern loop finds, in a stable order."""

import pytest

from trtdoctor import api, pipeline
from trtdoctor.lines import parse_line

from conftest import CORPUS


def naive_hits(kb, lines):
    import re

    found = []
    for line in lines:
        for sig in kb.signatures:
            for i, pattern in enumerate(sig.patterns):
                if any(lit in line.text for lit in pattern.literals):
                    m = re.search(pattern.regex, line.text)
                    if m:
                        found.append((line.number, sig.id, i, {k: v for k, v in m.groupdict().items() if v is not None}))
    return sorted(found, key=lambda h: (h[0], h[1], h[2]))


@pytest.mark.parametrize("folder", sorted(p.name for p in CORPUS.iterdir() if p.is_dir()))
def test_hits_equal_the_plain_loop_on_the_corpus(folder):
    kb, matcher = api.knowledge_base()
    for log in sorted((CORPUS / folder).glob("*.log")):
        with open(log, "rb") as stream:
            lines = pipeline.scan_lines(stream, (kb, matcher))
        got = [(h.line.number, h.signature, h.pattern, h.captures) for h in matcher.hits(lines)]
        assert [g[0] for g in got] == sorted(g[0] for g in got), "hits come in line order"
        assert sorted(got, key=lambda h: (h[0], h[1], h[2])) == naive_hits(kb, lines), log.name


def test_literals_on_neighbouring_lines_do_not_join():
    kb, matcher = api.knowledge_base()
    sig = kb.get("myelin-conv-computed-weights")
    text = "Myelin support for convolution with 2 inputs will be added"
    half = len(text) // 2
    lines = [parse_line(1, text[:half]), parse_line(2, text[half:]), parse_line(3, text)]
    hits = [h for h in matcher.hits(lines) if h.signature == sig.id]
    assert [h.line.number for h in hits] == [3]
