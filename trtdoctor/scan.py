"""Find the lines worth reading: one multi-literal search over each chunk, then decode only those lines.

A verbose build log is a million lines, of which a few dozen matter. Every regex in the knowledge base
and every fact extractor declares literals that its lines must contain; the scanner looks for all of
them at once (RE2's DFA where the ``google-re2`` wheel is installed, Python's ``re`` otherwise), and
decodes and parses only the lines where one occurs. Memory stays bounded: at most ``KEEP`` selected
lines are kept, the first and the last halves, since a failure's cause and its consequences sit at the
start and the end of the trouble.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from trtdoctor.lines import LogLine, parse_line
from trtdoctor.read import Chunk, decode_line

KEEP = 20_000
MAX_TEXT = 8192  # bytes of a line that are decoded and matched; longer lines are cut, never scanned whole



@dataclass
class Scan:
    lines: list[LogLine]
    total_lines: int = 0
    total_bytes: int = 0
    dropped: int = 0          # selected lines not kept because of KEEP
    engine: str = "re"


def _encoded(literals: Iterable[str]) -> list[bytes]:
    unique = sorted({lit.encode("utf-8") for lit in literals if lit})
    if not unique:
        raise ValueError("no literals to scan for")
    return unique


def compile_literals(literals: Iterable[str]):
    """One search object for any of the literals, and the name of the engine behind it."""
    unique = _encoded(literals)
    try:
        import re2 as _re2  # only for big chunks: a short log never pays for loading it
    except ImportError:  # pragma: no cover - platforms without the wheel fall back to Python's engine
        _re2 = None
    if _re2 is not None:
        options = _re2.Options()
        options.max_mem = 64 << 20  # enough DFA cache for a few hundred literals at full speed
        return _re2.compile(b"|".join(_re2.escape(b) for b in unique), options=options), "re2"
    return re.compile(b"|".join(re.escape(b) for b in unique)), "re"


# Below this size a chunk is searched literal by literal (bytes.find, in C): compiling the automaton
# costs more than it saves on a short log, and a short log is the common case.
SMALL = 256 << 10


def _spans_by_find(data: bytes, literals: list[bytes]) -> list[tuple[int, int]]:
    spans: dict[int, int] = {}  # line start -> line end
    for lit in literals:
        pos = data.find(lit)
        while pos >= 0:
            start = data.rfind(b"\n", 0, pos) + 1
            end = data.find(b"\n", pos + len(lit))
            spans[start] = len(data) if end < 0 else end
            if end < 0:
                break
            pos = data.find(lit, end + 1)
    return sorted(spans.items())


def _spans_by_automaton(data: bytes, rx) -> Iterator[tuple[int, int]]:
    pos = 0
    while True:
        m = rx.search(data, pos)
        if m is None:
            return
        start = data.rfind(b"\n", 0, m.start()) + 1
        end = data.find(b"\n", m.end())
        if end < 0:
            end = len(data)
        yield start, end
        pos = end + 1


def scan(chunks: Iterator[Chunk], literals: Iterable[str], keep: int = KEEP) -> Scan:
    wanted = _encoded(literals)
    rx, engine = None, "find"
    head: list[LogLine] = []
    tail: deque[LogLine] = deque(maxlen=keep // 2)
    selected = 0
    total_lines = 0
    total_bytes = 0
    last_line = 0
    for chunk in chunks:
        data = chunk.data
        total_bytes += len(data)
        if len(data) <= SMALL:
            spans: Iterable[tuple[int, int]] = _spans_by_find(data, wanted)
        else:
            if rx is None:
                rx, engine = compile_literals(literals)
            spans = _spans_by_automaton(data, rx)
        number = chunk.first_line
        counted = 0
        for start, end in spans:
            number += data.count(b"\n", counted, start)
            counted = start
            if number != last_line:  # a cut long line continues in the next chunk under its own number
                line = parse_line(number, decode_line(data[start:min(end, start + MAX_TEXT)]))
                selected += 1
                if len(head) < keep // 2:
                    head.append(line)
                else:
                    tail.append(line)
                last_line = number
        total_lines = chunk.first_line + chunk.newlines - (1 if data.endswith(b"\n") else 0)
    lines = head + list(tail)
    return Scan(lines=lines, total_lines=total_lines, total_bytes=total_bytes,
                dropped=selected - len(lines), engine=engine)
