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


def test_context_literals_are_read_near_the_selected_lines_of_a_big_log(monkeypatch):
    # An operator's name is on nearly every line of a verbose log: in a big chunk only the context lines in
    # the window before a selected line are read; in a small log, every one.
    filler = b"[V] Parsing node: /model.1/Concat [Concat]\n" + b"[V] nothing here\n" * 400
    text = filler * 3 + b"[V] /model.9/Concat [Concat] inputs: x\n[E] Error Code 2: boom\n"
    context = ["[Concat]"]
    small = scan.scan(read.chunks(io.BytesIO(text)), LITERALS, context=context)
    assert sum("[Concat]" in ln.text for ln in small.lines) == 4
    monkeypatch.setattr(scan, "SMALL", 16)
    monkeypatch.setattr(scan, "WINDOW", 200)
    big = scan.scan(read.chunks(io.BytesIO(text)), LITERALS, context=context)
    assert [ln.text for ln in big.lines] == ["[V] /model.9/Concat [Concat] inputs: x", "[E] Error Code 2: boom"]
    assert [ln.number for ln in big.lines] == [1204, 1205]


def test_a_chunk_searched_in_parts_gives_the_same_lines(monkeypatch):
    lines = [b"[V] nothing %d" % i if i % 7 else b"[E] Error Code %d" % i for i in range(5000)]
    text = b"\n".join(lines) + b"\n"
    monkeypatch.setattr(scan, "SMALL", 16)
    results = []
    for parts in (1, 2, 3):
        monkeypatch.setattr(scan, "PARALLEL", parts)
        results.append([(ln.number, ln.text) for ln in scan.scan(read.chunks(io.BytesIO(text)), LITERALS).lines])
    assert results[0] == results[1] == results[2]
    assert len(results[0]) == 715 and results[0][1] == (8, "[E] Error Code 7")
