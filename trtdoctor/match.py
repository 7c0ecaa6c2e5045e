"""Signature hits: every pattern of every signature that matched a line, with its named captures."""

from __future__ import annotations

import re
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
        for sig in kb.signatures:
            for i, pattern in enumerate(sig.patterns):
                for lit in pattern.literals:
                    self._by_literal.setdefault(lit, []).append((sig, i))
            for cause in sig.causes:
                for item in cause.when:
                    evidence.update(item.literals)
        self.literals: frozenset[str] = frozenset(self._by_literal) | evidence
        self._compiled: dict[str, re.Pattern[str]] = {}

    def regex(self, source: str) -> re.Pattern[str]:
        rx = self._compiled.get(source)
        if rx is None:
            rx = self._compiled[source] = re.compile(source)
        return rx

    def hits(self, lines: Iterable[LogLine]) -> list[Hit]:
        found: list[Hit] = []
        literals = self._by_literal
        for line in lines:
            text = line.text
            tried: set[tuple[str, int]] = set()
            for lit, owners in literals.items():
                if lit not in text:
                    continue
                for sig, i in owners:
                    if (sig.id, i) in tried:
                        continue
                    tried.add((sig.id, i))
                    m = self.regex(sig.patterns[i].regex).search(text)
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
