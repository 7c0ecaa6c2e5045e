"""The public Python API. The CLI is a thin layer over these functions."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from trtdoctor import diagnose, facts as facts_mod, read, scan as scan_mod
from trtdoctor.diagnose import EvidenceLine
from trtdoctor.facts import LogFacts
from trtdoctor.kb.compiled import KnowledgeBase
from trtdoctor.kb.load import load as load_kb
from trtdoctor.lines import LogLine
from trtdoctor.match import Hit, Matcher
from trtdoctor.read import InputError
from trtdoctor.report import Report

__all__ = ["InputError", "explain", "explain_stream", "knowledge_base"]

_CACHE: dict[tuple[str, ...], tuple[KnowledgeBase, Matcher]] = {}


def knowledge_base(kb_dirs: Iterable[str | os.PathLike[str]] = ()) -> tuple[KnowledgeBase, Matcher]:
    """The bundled knowledge base plus extra directories, compiled once per process."""
    key = tuple(str(Path(d)) for d in kb_dirs) + (os.environ.get("TRTDOCTOR_KB", ""),)
    if key not in _CACHE:
        kb = load_kb(kb_dirs)
        _CACHE[key] = (kb, Matcher(kb))
    return _CACHE[key]


def explain(text_or_path: str | bytes | os.PathLike[str], *, kb_dirs: Iterable[str | os.PathLike[str]] = (),
            min_confidence: float = 0.3, classifier: bool = True,
            probe_outcomes: Mapping[str, str] | None = None) -> Report:
    """Explain a TensorRT log.

    ``text_or_path`` is a path (``pathlib.Path``, or a one-line ``str`` naming an existing file), the log
    as ``bytes``, or the log as ``str``. Raises ``InputError`` for input that is not a readable text log.
    """
    if isinstance(text_or_path, bytes):
        return explain_stream(io.BytesIO(text_or_path), source="<bytes>", kb_dirs=kb_dirs,
                              min_confidence=min_confidence, classifier=classifier, probe_outcomes=probe_outcomes)
    if isinstance(text_or_path, os.PathLike) or (
            isinstance(text_or_path, str) and "\n" not in text_or_path and len(text_or_path) < 4096
            and os.path.isfile(text_or_path)):
        path = os.fspath(text_or_path)
        with read.open_input(path) as stream:
            return explain_stream(stream, source=path, kb_dirs=kb_dirs, min_confidence=min_confidence,
                                  classifier=classifier, probe_outcomes=probe_outcomes)
    if isinstance(text_or_path, str):
        return explain_stream(io.BytesIO(text_or_path.encode("utf-8", "surrogatepass")), source="<text>",
                              kb_dirs=kb_dirs, min_confidence=min_confidence, classifier=classifier,
                              probe_outcomes=probe_outcomes)
    raise TypeError(f"explain() takes a path, str or bytes, not {type(text_or_path).__name__}")


def explain_stream(stream: BinaryIO, *, source: str = "<stream>", kb_dirs: Iterable[str | os.PathLike[str]] = (),
                   min_confidence: float = 0.3, classifier: bool = True,
                   probe_outcomes: Mapping[str, str] | None = None) -> Report:
    """Explain a log read from a binary stream (a file, a pipe, standard input)."""
    return explain_chunks(read.chunks(stream), source=source, kb_dirs=kb_dirs, min_confidence=min_confidence,
                          classifier=classifier, probe_outcomes=probe_outcomes)


def explain_chunks(chunks: Iterator[read.Chunk], *, source: str, kb_dirs: Iterable[str | os.PathLike[str]] = (),
                   min_confidence: float = 0.3, classifier: bool = True,
                   probe_outcomes: Mapping[str, str] | None = None,
                   knowledge: tuple[KnowledgeBase, Matcher] | None = None, model=None) -> Report:
    """The whole flow over chunks. ``knowledge`` and ``model`` replace the bundled KB and classifier
    (the evaluation uses them to hold out a thread's logs from both)."""
    kb, matcher = knowledge or knowledge_base(kb_dirs)
    result = scan_mod.scan(chunks, _literals(matcher))
    log_facts = facts_mod.extract(result.lines)
    hits = matcher.hits(result.lines)
    ranking = diagnose.rank(kb, matcher, hits, log_facts, result.lines, min_confidence=min_confidence,
                            probe_outcomes=probe_outcomes)
    claimed = {h.line.number for h in hits}
    error_lines = [EvidenceLine(ln.number, ln.text.strip(), "unclaimed") for ln in result.lines
                   if ln.severity == "error" and ln.number not in claimed][:10]
    report = Report(source=source, lines=result.total_lines, bytes=result.total_bytes, facts=log_facts,
                    diagnoses=ranking.diagnoses, candidates=ranking.candidates, notes=ranking.notes,
                    error_lines=error_lines)
    if classifier and not any(d.kind == "error" and d.confidence >= PATTERN_DECIDES for d in ranking.diagnoses):
        _consult_classifier(report, kb, matcher, result.lines, min_confidence, hits, model)
    return report


# A pattern diagnosis at least this confident decides alone; below it, the classifier is consulted.
PATTERN_DECIDES = 0.8
# The classifier's calibrated confidence needed to diagnose on its own.
CLASSIFIER_DECIDES = 0.6


def _literals(matcher: Matcher) -> frozenset[str]:
    return matcher.literals | set(facts_mod.LITERALS) | set(facts_mod.ERROR_MARKERS)


def scan_lines(stream: BinaryIO, knowledge: tuple[KnowledgeBase, Matcher]) -> list:
    """The lines of a log that any signature, fact or error marker reads (for training and evaluation)."""
    return scan_mod.scan(read.chunks(stream), _literals(knowledge[1])).lines


# Words without which a log is not about TensorRT at all (a pip build failure, a CUDA-free crash): the
# classifier may still name its closest candidates there, but never diagnose on wording alone.
_TENSORRT_CONTEXT = re.compile(r"TensorRT|tensorrt|\bTRT\b|trtexec|nvinfer|[Mm]yelin|polygraphy|torch_tensorrt|"
                               r"ONNX|onnx|CUDA|cuda|[Ee]ngine|[Pp]lugin")


def tensorrt_context(lines: Iterable[LogLine], log_facts: LogFacts) -> bool:
    """Whether the log shows TensorRT (or its ONNX/CUDA surroundings) anywhere the scanner kept."""
    if log_facts.tensorrt is not None or log_facts.tool is not None:
        return True
    return any(_TENSORRT_CONTEXT.search(line.text) for line in lines)


def consequence_lines(kb: KnowledgeBase, hits: Iterable[Hit]) -> set[int]:
    """Numbers of the lines that only consequence signatures claim."""
    by_line: dict[int, set[str]] = {}
    for hit in hits:
        sig = kb.get(hit.signature)
        by_line.setdefault(hit.line.number, set()).add(sig.kind if sig is not None else "error")
    return {n for n, kinds in by_line.items() if kinds == {"consequence"}}


def classifier_text(lines: list, knowledge: tuple[KnowledgeBase, Matcher]) -> str:
    """What the classifier reads of a log's scanned lines (the same for training and for use)."""
    from trtdoctor.errortext import error_text

    kb, matcher = knowledge
    return error_text(lines, consequence_lines(kb, matcher.hits(lines)))


def _consult_classifier(report: Report, kb: KnowledgeBase, matcher: Matcher, lines: list, min_confidence: float,
                        hits: Iterable[Hit] = (), model=None) -> None:
    from trtdoctor.errortext import error_text

    text = error_text(lines, consequence_lines(kb, hits))
    report.matcher = "patterns+classifier"
    if not text:
        return
    from trtdoctor import classify

    predictions = (model or classify.model_for(kb)).predict(text)
    label, confidence, _ = predictions[0]
    sig = kb.get(label)
    existing = next((d for d in report.diagnoses if d.id == label), None)
    if existing is not None:
        existing.decided_by = "both"
        existing.confidence = max(existing.confidence, confidence)
        report.diagnoses.sort(key=lambda d: (d.kind != "error", -d.confidence))
    elif sig is not None and confidence >= max(CLASSIFIER_DECIDES, min_confidence) and \
            tensorrt_context(lines, report.facts):
        diag = diagnose.from_classifier(sig, confidence, lines, report.facts, matcher)
        for cons in [d for d in report.diagnoses if d.kind == "consequence"]:
            diag.followed_by.append(cons.id)
            report.diagnoses.remove(cons)
        report.diagnoses.insert(0, diag)
    known = {d.id for d in report.diagnoses} | {c.id for c in report.candidates}
    for label, conf, _ in predictions:
        sig = kb.get(label)
        if sig is not None and label not in known and conf >= 0.05:
            report.candidates.append(diagnose.Candidate(label, sig.title, conf, "the classifier's closest match"))
    report.candidates.sort(key=lambda c: -c.confidence)
