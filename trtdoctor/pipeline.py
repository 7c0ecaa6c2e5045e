"""The explain flow over the chunks of one log: scan -> facts -> hits -> ranking (-> classifier) -> report.

Every step is a module of its own below this one; this module only runs them in order and keeps the
compiled knowledge base for the process. The public face (``trtdoctor.api``) and the confirmation step
(which explains a rebuilt log) both run logs through here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from trtdoctor import diagnose, facts as facts_mod, read, scan as scan_mod
from trtdoctor.diagnose import EvidenceLine
from trtdoctor.errortext import ERRORISH, classifier_text
from trtdoctor.kb.compiled import KnowledgeBase
from trtdoctor.kb.load import load as load_kb
from trtdoctor.lines import LogLine
from trtdoctor.match import Matcher
from trtdoctor.report import Report

if TYPE_CHECKING:
    from trtdoctor.classify import Model

Knowledge = tuple[KnowledgeBase, Matcher]

_CACHE: dict[tuple[str, ...], Knowledge] = {}


def knowledge_base(kb_dirs: Iterable[str | os.PathLike[str]] = ()) -> Knowledge:
    """The bundled knowledge base plus extra directories, compiled once per process."""
    key = tuple(str(Path(d)) for d in kb_dirs) + (os.environ.get("TRTDOCTOR_KB", ""),)
    if key not in _CACHE:
        kb = load_kb(kb_dirs)
        _CACHE[key] = (kb, Matcher(kb))
    return _CACHE[key]


def literals(matcher: Matcher) -> frozenset[str]:
    """Every literal the scanner must find: the signatures', the facts', the error markers' and the words of the lines
    the classifier reads."""
    found = getattr(matcher, "_scan_literals", None)
    if found is None:  # once per knowledge base: many logs explained in one process share it
        found = matcher._scan_literals = frozenset(matcher.literals | set(facts_mod.LITERALS)  # type: ignore[attr-defined]
                                                   | set(facts_mod.ERROR_MARKERS) | set(ERRORISH))
    return found


def scan_lines(stream: BinaryIO, knowledge: Knowledge) -> list[LogLine]:
    """The lines of a log that any signature, fact or error marker reads (for training and evaluation)."""
    return scan_mod.scan(read.chunks(stream, numbered=False), literals(knowledge[1]), context=knowledge[1].context_literals).lines


def run(chunks: Iterator[read.Chunk], *, source: str, knowledge: Knowledge, min_confidence: float = 0.3,
        model: "Model | Callable[[], Model] | None" = None,
        probe_outcomes: Mapping[str, str] | None = None) -> Report:
    """Explain one log. ``model`` is the classifier, or a function that returns it (called only when no
    pattern decides, so that the pattern-decided path never loads it); None: patterns only."""
    kb, matcher = knowledge
    result = scan_mod.scan(chunks, literals(matcher), context=matcher.context_literals)
    log_facts = facts_mod.extract(result.lines)
    hits = matcher.hits(result.lines)
    ranking = diagnose.rank(kb, matcher, hits, log_facts, result.lines, min_confidence=min_confidence,
                            probe_outcomes=probe_outcomes)
    claimed = {h.line.number for h in hits}
    error_lines = [EvidenceLine(ln.number, ln.text.strip(), "unclaimed") for ln in result.lines
                   if ln.severity == "error" and ln.number not in claimed][:10]
    used = "patterns"
    if model is not None and diagnose.needs_classifier(ranking):
        used = "patterns+classifier"
        text = classifier_text(result.lines, kb, hits)
        if text:
            resolved = model() if callable(model) else model
            diagnose.consult_classifier(ranking, resolved, text, kb, result.lines, log_facts)
    return Report(source=source, lines=result.total_lines, bytes=result.total_bytes, facts=log_facts,
                  diagnoses=ranking.diagnoses, candidates=ranking.candidates, notes=ranking.notes,
                  error_lines=error_lines, matcher=used)
