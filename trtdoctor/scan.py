"""Find the lines worth reading: one multi-literal search over each chunk, then decode only those lines.

A verbose build log is a million lines, of which a few dozen matter. Every regex in the knowledge base
and every fact extractor declares literals that its lines must contain; the scanner looks for all of
them at once (RE2's DFA where the ``google-re2`` wheel is installed, Python's ``re`` otherwise), and
decodes and parses only the lines where one occurs. Memory stays bounded: at most ``KEEP`` selected
lines are kept, the first and the last halves, since a failure's cause and its consequences sit at the
start and the end of the trouble.
"""

from __future__ import annotations

import os
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


_ENCODED: dict[frozenset[str], list[bytes]] = {}


def _encoded(literals: Iterable[str]) -> list[bytes]:
    key = literals if isinstance(literals, frozenset) else None
    if key is not None and key in _ENCODED:
        return _ENCODED[key]
    unique = sorted({lit.encode("utf-8") for lit in literals if lit})
    if not unique:
        raise ValueError("no literals to scan for")
    if key is not None and len(_ENCODED) < 8:
        _ENCODED[key] = unique
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


def _spans_by_automaton(data: bytes, rx, lo: int = 0, hi: int | None = None) -> Iterator[tuple[int, int]]:
    """Selected lines of data[lo:hi], where lo starts a line and hi ends one (or the data)."""
    hi = len(data) if hi is None else hi
    pos = lo
    while True:
        m = rx.search(data, pos, hi)
        if m is None:
            return
        start = data.rfind(b"\n", lo, m.start()) + 1 or lo
        end = data.find(b"\n", m.end(), hi)
        if end < 0:
            end = hi
        yield start, end
        pos = end + 1


def _spans_in_parallel(data: bytes, rx, parts: int) -> list[tuple[int, int]]:
    """The automaton's spans, the chunk cut at line ends into ``parts`` searched at once: RE2 releases the GIL
    while it searches, so each part runs on a core of its own."""
    import threading

    bounds = [0]
    for i in range(1, parts):
        cut = data.find(b"\n", max(bounds[-1], len(data) * i // parts))
        if cut < 0:
            break
        bounds.append(cut + 1)
    bounds.append(len(data))
    found: list[list[tuple[int, int]]] = [[] for _ in bounds[1:]]

    def search(i: int) -> None:
        found[i] = list(_spans_by_automaton(data, rx, bounds[i], bounds[i + 1]))

    threads = [threading.Thread(target=search, args=(i,)) for i in range(1, len(found))]
    for t in threads:
        t.start()
    search(0)
    for t in threads:
        t.join()
    return [span for part in found for span in part]


# Searching a big chunk: how many parts at once (RE2 only; Python's re holds the GIL).
PARALLEL = min(os.cpu_count() or 1, 4)

# Context literals (evidence that is not selective, such as an operator's name) are looked for in the
# WINDOW bytes before each selected line of a big chunk, and everywhere in a short one.
WINDOW = 8 << 10


def _read_ahead(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
    """The chunks, read and normalised by a second thread while this one searches the previous chunk (the
    automaton releases the GIL while it searches). A short log, of one small chunk, starts no thread."""
    first = next(chunks, None)
    if first is None:
        return
    yield first
    if len(first.data) <= SMALL:
        yield from chunks
        return
    import queue
    import threading

    ready: queue.Queue = queue.Queue(maxsize=1)  # one chunk waits while one is searched: bounded memory

    def read() -> None:
        try:
            for chunk in chunks:
                ready.put(chunk)
        except BaseException as exc:  # noqa: BLE001 - handed over to the scanning thread, which raises it
            ready.put(exc)
        ready.put(None)

    threading.Thread(target=read, name="trtdoctor-read", daemon=True).start()
    while (item := ready.get()) is not None:
        if isinstance(item, BaseException):
            raise item
        yield item


def scan(chunks: Iterator[Chunk], literals: Iterable[str], keep: int = KEEP, context: Iterable[str] = ()) -> Scan:
    wanted = _encoded(literals)
    context_wanted = sorted(set(_encoded(context)) - set(wanted)) if context else []
    rx, engine, crx = None, "find", None
    head: list[LogLine] = []
    tail: deque[LogLine] = deque(maxlen=keep // 2)
    selected = 0
    total_lines = 0
    total_bytes = 0
    last_line = 0
    first = 1  # number of the current chunk's first line
    for chunk in _read_ahead(iter(chunks)):
        data = chunk.data
        total_bytes += len(data)
        if len(data) <= SMALL:
            spans: Iterable[tuple[int, int]] = _spans_by_find(data, wanted + context_wanted)
        else:
            if rx is None:
                rx, engine = compile_literals(literals)
                if context_wanted:
                    crx = re.compile(b"|".join(re.escape(b) for b in context_wanted))
            spans = _spans_in_parallel(data, rx, PARALLEL) if PARALLEL > 1 and engine == "re2" \
                else _spans_by_automaton(data, rx)
            if crx is not None:
                spans = _with_context(data, spans, crx)
        number = first  # the chunks' own numbers are not used: the scanner counts line ends itself
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
        newlines = number - first + data.count(b"\n", counted)
        total_lines = first + newlines - (1 if data.endswith(b"\n") else 0)
        first += newlines
    lines = head + list(tail)
    return Scan(lines=lines, total_lines=total_lines, total_bytes=total_bytes,
                dropped=selected - len(lines), engine=engine)


def _with_context(data: bytes, spans: Iterable[tuple[int, int]], crx) -> Iterator[tuple[int, int]]:
    """The selected lines, each preceded by the context lines in the WINDOW before it (each line once)."""
    done = 0  # everything before this offset has been searched or yielded
    for start, end in spans:
        pos = max(done, start - WINDOW)
        while pos < start:
            m = crx.search(data, pos, start)
            if m is None:
                break
            line_start = data.rfind(b"\n", 0, m.start()) + 1
            line_end = data.find(b"\n", m.end(), start)
            if line_start < done:  # the line began before the searched part: already seen or cut
                line_start = max(line_start, done)
            yield line_start, line_end if line_end >= 0 else start - 1
            pos = (line_end if line_end >= 0 else start) + 1
        yield start, end
        done = end + 1
