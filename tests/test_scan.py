"""The scanner picks the same lines whichever way it searches: literal by literal, or one automaton."""

import io

from hypothesis import given, settings, strategies as st

from trtdoctor import read, scan

LITERALS = ["Error Code", "kernel weights", "[TRT]", "abc", "bca"]
pieces = st.lists(st.sampled_from(LITERALS + ["x", "\n", " ", "\r\n", "ab", "Error", "\n\n", "é"]), max_size=60)


@given(pieces)
@settings(max_examples=300, deadline=None)
def test_find_and_automaton_select_the_same_lines(parts):
    data = "".join(parts).encode("utf-8")
    wanted = sorted(lit.encode() for lit in LITERALS)
    rx, _ = scan.compile_literals(LITERALS)
    by_find = scan._spans_by_find(data, wanted)
    by_automaton = list(scan._spans_by_automaton(data, rx))
    assert by_find == by_automaton
    for start, end in by_find:
        assert any(lit in data[start:end] for lit in wanted)


def test_a_big_log_is_scanned_with_the_automaton_and_a_small_one_without(monkeypatch):
    text = b"[I] fine\n" * 10 + b"[E] Error Code 2: boom\n"
    small = scan.scan(read.chunks(io.BytesIO(text)), LITERALS)
    monkeypatch.setattr(scan, "SMALL", 16)
    big = scan.scan(read.chunks(io.BytesIO(text)), LITERALS)
    assert small.engine == "find" and big.engine in ("re2", "re")
    assert [(ln.number, ln.text) for ln in small.lines] == [(ln.number, ln.text) for ln in big.lines] == [(11, "[E] Error Code 2: boom")]
