"""Signature hits: every pattern of every signature that matched a line, with its named captures."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from trtdoctor.kb.compiled import KnowledgeBase, Signature
from trtdoctor.lines import LogLine


@dataclass(frozen=True, slots=True)
class Hit:
    signature: str
    pattern: int          # index into the signature's patterns
    line: LogLine
    captures: dict[str, str] = field(default_factory=dict)


class Matcher:
    """Matches log lines against a knowledge base. Regexes compile lazily: most never see a line."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        # literal -> [(signature, pattern index)] for patterns; the evidence regexes of causes are
        # matched on demand by the diagnosis step, but their literals must reach the scanner too.
        self._by_literal: dict[str, list[tuple[Signature, int]]] = {}
        evidence: set[str] = set()
        context: set[str] = set()
        for sig in kb.signatures:
            for i, pattern in enumerate(sig.patterns):
                for lit in pattern.literals:
                    self._by_literal.setdefault(lit, []).append((sig, i))
                for item in (*pattern.unless, *pattern.requires):
                    evidence.update(item.literals)
            for cause in sig.causes:
                for item in cause.when:
                    (context if item.context else evidence).update(item.literals)
        self.literals: frozenset[str] = frozenset(self._by_literal) | evidence
        # Literals of evidence that is not selective (operator names): read only near the lines selected.
        self.context_literals: frozenset[str] = frozenset(context - self.literals)
        # A fixed order over (signature, pattern) pairs, so that hits come out in the same order every run.
        self._owners: list[tuple[Signature, int]] = []
        self._rank: dict[tuple[str, int], int] = {}
        for owners in self._by_literal.values():
            for sig, i in owners:
                if (sig.id, i) not in self._rank:
                    self._rank[sig.id, i] = len(self._owners)
                    self._owners.append((sig, i))
        self._compiled: dict[str, re.Pattern[str]] = {}

    def regex(self, source: str) -> re.Pattern[str]:
        rx = self._compiled.get(source)
        if rx is None:
            rx = self._compiled[source] = re.compile(source)
        return rx

    def hits(self, lines: Iterable[LogLine]) -> list[Hit]:
        lines = list(lines)
        if not lines:
            return []
        # Which lines hold which literals: one C-level find per literal over all lines joined, rather
        # than every literal tested against every line in Python.
        joined = "\n".join(line.text for line in lines)
        starts = [0]
        for line in lines[:-1]:
            starts.append(starts[-1] + len(line.text) + 1)
        wanted: dict[int, set[int]] = {}
        for lit, owners in self._by_literal.items():
            pos = joined.find(lit)
            while pos >= 0:
                at = bisect_right(starts, pos) - 1
                wanted.setdefault(at, set()).update(self._rank[sig.id, i] for sig, i in owners)
                nxt = starts[at + 1] if at + 1 < len(starts) else len(joined)
                pos = joined.find(lit, nxt)
        found: list[Hit] = []
        for at in sorted(wanted):
            line = lines[at]
            for rank in sorted(wanted[at]):
                sig, i = self._owners[rank]
                m = self.regex(sig.patterns[i].regex).search(line.text)
                if m:
                    caps = {k: v for k, v in m.groupdict().items() if v is not None}
                    found.append(Hit(sig.id, i, line, caps))
        return found

    def search_lines(self, regex: str, lines: Sequence[LogLine]) -> tuple[LogLine, dict[str, str]] | None:
        """The first line a regex matches, with its named captures."""
        rx = self.regex(regex)
        for line in lines:
            m = rx.search(line.text)
            if m:
                return line, {k: v for k, v in m.groupdict().items() if v is not None}
        return None
