"""From signature hits to ranked diagnoses.

Rules, in order:
- A signature with hits gives a diagnosis; its confidence combines the confidences of the distinct
  patterns that matched on distinct lines (two independent witnesses are stronger than one; two patterns
  reading the same line are one witness).
- ``warning`` signatures are notes, never diagnoses.
- ``consequence`` signatures never outrank a cause: with any error diagnosis present they are folded
  into it ("followed by ..."); alone they are no diagnosis (the log says that a build failed, never why),
  only a candidate that the report uses to say the cause is earlier or missing; unless one of their
  candidate causes is selected by evidence the log shows (a graph with no outputs that parsed cleanly).
- Where one message has several causes, each cause's evidence is tested (true / false / unknown) and
  the best supported cause not contradicted is selected; the others are reported as runners-up.
- A diagnosis whose every evidence line is already evidence of a stronger diagnosis is the same
  failure seen through a more generic signature: it becomes a candidate, not a second diagnosis.
- Below ``min_confidence`` a diagnosis becomes a candidate, and the report abstains.
- The classifier confirms a pattern diagnosis or names candidates; it never diagnoses alone.
- A diagnosis made only from TensorRT's CUDA error handler echoing "no usable driver" (cudaError 35)
  after an earlier error is the noise of a build without a GPU (TensorRT for RTX builds on the CPU): it
  becomes a candidate. The same message with no earlier error is a real driver problem and stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trtdoctor import versions
from trtdoctor.expr import compile_expr, evaluate
from trtdoctor.facts import LogFacts
from trtdoctor.kb.compiled import CauseSpec, KnowledgeBase, Signature
from trtdoctor.lines import LogLine
from trtdoctor.match import Hit, Matcher

if TYPE_CHECKING:
    from trtdoctor.classify import Model

CONSEQUENCE_CAP = 0.35
CONSEQUENCE_ONLY = "only a consequence: the build failed, but the log does not show why"
MAX_EVIDENCE = 6
# A pattern diagnosis at least this confident decides alone; below it, the classifier is consulted.
PATTERN_DECIDES = 0.8
CLASSIFIER_CANDIDATES = 3   # at most this many signatures the classifier names as candidates
# classify.NONE, the label the classifier gives logs of no signature; not imported from there, so that a log a
# pattern decides never loads the classifier's module.
NONE = "none"
CLASSIFIER_CANDIDATE = "the classifier's closest match: its wording resembles this signature's logs, no pattern names it"
# After any error, a build without a GPU (TensorRT for RTX compiles ahead of time on the CPU) has its
# CUDA error handler report that the runtime found no driver: "[checkMacros.cpp::catchCudaError::N]
# Error Code 1: Cuda Runtime (... (cudaError 35: CUDA driver version is insufficient ...))".
_DRIVER_ECHO = re.compile(r"catchCudaError\b.*\bcudaError 35\b")
_NO_DRIVER = re.compile(r"\bcudaError 35\b")


@dataclass(frozen=True)
class EvidenceLine:
    line: int
    text: str
    role: str = "match"   # 'match' (a pattern of this signature) | 'consequence' | 'cause-evidence' | 'node'

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "role": self.role}


@dataclass(frozen=True)
class Check:
    says: str
    holds: bool | None    # None: the log does not show enough to tell
    line: int | None = None
    required: bool = False  # unknown counts as failed: the cause is not chosen on a guess
    missing: bool = False   # false only because the log lacks the line looked for (an excerpt may just be short)

    @property
    def fails(self) -> bool:
        return self.holds is False or (self.required and self.holds is None)

    @property
    def contradicts(self) -> bool:
        """Failed on something the log shows (a line, a value, the version), not on what it lacks."""
        return self.holds is False and not self.missing

    def to_dict(self) -> dict[str, Any]:
        return {"says": self.says, "holds": self.holds, "line": self.line, "required": self.required,
                "missing": self.missing}


@dataclass(frozen=True)
class CauseResult:
    id: str
    title: str
    selected: bool
    ruled_out: bool
    checks: tuple[Check, ...]

    @property
    def contradicted(self) -> bool:
        """Ruled out by what the log shows, not only by lines it lacks."""
        return any(c.contradicts for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "selected": self.selected, "ruled_out": self.ruled_out,
                "contradicted": self.contradicted, "checks": [c.to_dict() for c in self.checks]}


@dataclass
class Diagnosis:
    id: str
    title: str
    category: str
    kind: str
    confidence: float
    decided_by: str                      # 'pattern' | 'both' (the classifier agrees)
    evidence: list[EvidenceLine]
    facts: dict[str, Any]
    cause: str
    remedy: list[str]
    advice: str
    references: list[str]
    causes: list[CauseResult] = field(default_factory=list)
    repeats: int = 0                     # further matching lines not listed in evidence
    followed_by: list[str] = field(default_factory=list)
    probes: list[dict[str, Any]] = field(default_factory=list)
    caveats: list[str | None] = field(default_factory=list)   # one per remedy step: what it costs, or None
    discounted: list[str] = field(default_factory=list)       # why matched patterns did not count ('unless')

    @property
    def steps(self) -> list[tuple[str, str | None]]:
        """The remedy steps, each with its caveat (None when the step costs nothing worth saying)."""
        caveats = list(self.caveats) + [None] * (len(self.remedy) - len(self.caveats))
        return list(zip(self.remedy, caveats))

    @property
    def selected_cause(self) -> CauseResult | None:
        return next((c for c in self.causes if c.selected), None)

    @property
    def first_line(self) -> int:
        return min((e.line for e in self.evidence if e.role == "match"), default=0)

    def to_dict(self) -> dict[str, Any]:
        selected = self.selected_cause
        return {
            "id": self.id, "title": self.title, "category": self.category, "kind": self.kind,
            "confidence": round(self.confidence, 3), "decided_by": self.decided_by,
            "evidence": [e.to_dict() for e in self.evidence], "repeats": self.repeats, "facts": self.facts,
            "cause": self.cause, "remedy": list(self.remedy), "remedy_caveats": [c for _, c in self.steps],
            "advice": self.advice,
            "references": list(self.references),
            "selected_cause": selected.id if selected else None,
            "causes": [c.to_dict() for c in self.causes], "followed_by": list(self.followed_by),
            "probes": list(self.probes),
        }


@dataclass(frozen=True)
class Candidate:
    id: str
    title: str
    confidence: float
    why: str
    line: int | None = None   # where its pattern matched, when one did

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "confidence": round(self.confidence, 3), "why": self.why,
                "line": self.line}


@dataclass(frozen=True)
class Note:
    id: str
    title: str
    line: int
    text: str
    count: int
    recovered: bool = False   # an error the build went on to succeed after: harmless in this log

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "line": self.line, "text": self.text, "count": self.count,
                "recovered": self.recovered}


@dataclass
class Ranking:
    diagnoses: list[Diagnosis]
    candidates: list[Candidate]
    notes: list[Note]


def _number(value: str) -> Any:
    return int(value) if value.isdigit() else value


def rank(kb: KnowledgeBase, matcher: Matcher, hits: Sequence[Hit], facts: LogFacts, lines: Sequence[LogLine],
         *, min_confidence: float = 0.3, probe_outcomes: Mapping[str, str] | None = None) -> Ranking:
    by_sig: dict[str, list[Hit]] = {}
    for hit in hits:
        by_sig.setdefault(hit.signature, []).append(hit)

    diagnoses: list[Diagnosis] = []
    consequences: list[Diagnosis] = []
    notes: list[Note] = []
    echoes: list[Candidate] = []
    for sig_id, sig_hits in by_sig.items():
        sig = kb.get(sig_id)
        if sig is None:
            continue
        if sig.kind == "warning":
            first = sig_hits[0].line
            notes.append(Note(sig.id, sig.title, first.number, first.text.strip(),
                              len({h.line.number for h in sig_hits})))
            continue
        diag = _diagnose(sig, sig_hits, facts, matcher, lines, probe_outcomes or {})
        if _driver_echo_only(sig_hits, lines):
            echoes.append(Candidate(diag.id, diag.title, diag.confidence,
                                    "only the CUDA error handler's 'no driver' echo after an earlier error "
                                    "(a build without a GPU)"))
            continue
        (consequences if sig.kind == "consequence" else diagnoses).append(diag)

    # The same message can be fatal or harmless: when the tool says afterwards that the build succeeded,
    # the error did not stop it (a tactic that failed and was skipped, a retried allocation).
    if facts.succeeded_line is not None:
        for diag in list(diagnoses):
            matched = [e for e in diag.evidence if e.role == "match"]
            if matched and max(e.line for e in matched) < facts.succeeded_line:
                diagnoses.remove(diag)
                notes.append(Note(diag.id, diag.title, matched[0].line, matched[0].text,
                                  len(matched) + diag.repeats, recovered=True))
    diagnoses.sort(key=lambda d: (-d.confidence, d.first_line))
    candidates: list[Candidate] = echoes
    # A signature that declares it outranks another (its specific form, or the cause of that symptom)
    # takes the other's place when both are found.
    # A warning may outrank too: a rejected timing cache prints the same header assertion as a foreign
    # engine file, and the warning that follows says which of the two it was.
    outranked = {o: n.id for n in notes for o in kb.by_id[n.id].outranks}
    # Only a diagnosis that will be reported may outrank: a weak match below the threshold would otherwise hide
    # the stronger diagnosis and then be dropped itself, leaving the log with none.
    outranked.update({o: d.id for d in diagnoses if d.confidence >= min_confidence for o in kb.by_id[d.id].outranks})
    found = {d.id for d in diagnoses} | {n.id for n in notes}
    kept: list[Diagnosis] = []
    for diag in diagnoses:
        if diag.id in outranked and outranked[diag.id] in found:
            candidates.append(Candidate(diag.id, diag.title, diag.confidence,
                                        f"explained by {outranked[diag.id]}, which outranks it"))
            continue
        lines_here = {e.line for e in diag.evidence if e.role == "match"}
        stronger = next((k for k in kept if lines_here <= {e.line for e in k.evidence if e.role == "match"}), None)
        if stronger is not None:
            candidates.append(Candidate(diag.id, diag.title, diag.confidence,
                                        f"matches the same lines as {stronger.id}, which is more specific"))
        else:
            kept.append(diag)
    diagnoses = kept

    if diagnoses:
        top = diagnoses[0]
        for cons in sorted(consequences, key=lambda d: d.first_line):
            top.followed_by.append(cons.id)
            for ev in cons.evidence[:2]:
                top.evidence.append(EvidenceLine(ev.line, ev.text, "consequence"))
    else:
        for cons in sorted(consequences, key=lambda d: d.first_line):
            if _cause_shown(cons):
                diagnoses.append(cons)  # the log shows which cause led here: that is a diagnosis
            else:
                candidates.append(Candidate(cons.id, cons.title, min(cons.confidence, CONSEQUENCE_CAP),
                                            CONSEQUENCE_ONLY, line=cons.first_line))

    final: list[Diagnosis] = []
    for diag in diagnoses:
        if diag.confidence >= min_confidence:
            final.append(diag)
        else:
            reason = ("a pattern matched, but " + "; ".join(diag.discounted) if diag.discounted and not diag.confidence
                      else "a pattern matched, with low confidence")
            candidates.append(Candidate(diag.id, diag.title, diag.confidence, reason))
    candidates.sort(key=lambda c: -c.confidence)
    notes.sort(key=lambda n: n.line)
    return Ranking(final, candidates, notes)


def is_driver_echo(text: str) -> bool:
    """Whether a line is the CUDA error handler's cudaError 35 ('no usable driver') report."""
    return _DRIVER_ECHO.search(text) is not None


def is_real_error(line: LogLine) -> bool:
    """An error line other than a report that CUDA found no usable driver."""
    return line.severity == "error" and _NO_DRIVER.search(line.text) is None


def _cause_shown(diag: Diagnosis) -> bool:
    """A consequence whose selected cause rests on evidence the log shows (every test of it holds), not on
    being the usual cause."""
    chosen = next((c for c in diag.causes if c.selected), None)
    return chosen is not None and bool(chosen.checks) and all(check.holds for check in chosen.checks)


def _driver_echo_only(hits: Sequence[Hit], lines: Sequence[LogLine]) -> bool:
    """Whether every line these hits matched is the CUDA error handler's cudaError 35 echo, and some
    other error came before the first of them (the error the echo follows)."""
    if not all(is_driver_echo(h.line.text) for h in hits):
        return False
    first = min(h.line.number for h in hits)
    return any(ln.number < first and is_real_error(ln) for ln in lines)


def _diagnose(sig: Signature, hits: list[Hit], facts: LogFacts, matcher: Matcher, lines: Sequence[LogLine],
              probe_outcomes: Mapping[str, str]) -> Diagnosis:
    patterns_hit = sorted({h.pattern for h in hits})
    # TensorRT 10 repeats its shape checks at VERBOSE level in the words of real errors (its "SYMBOLIC CHECKS"),
    # also for builds that handle the case and succeed: a pattern matched only on such lines does not count,
    # unless its message is one TensorRT prints only at VERBOSE level.
    lines_read: dict[int, set[int]] = {}   # pattern -> the numbers of the lines where its match counts
    for h in hits:
        if h.line.severity != "verbose" or sig.patterns[h.pattern].verbose:
            lines_read.setdefault(h.pattern, set()).add(h.line.number)
    discounted: list[str] = []
    witnesses: list[int] = []
    for i in patterns_hit:
        pattern = sig.patterns[i]
        if i not in lines_read:
            discounted.append("TensorRT printed it only at VERBOSE level, among its own checks of the network")
            continue
        # A pattern whose words have a harmless reading counts only when the log shows none of the lines that
        # reveal that reading (the same warning in front of another failure, say).
        shown = next((u for u in pattern.unless if matcher.search_lines(u.value, lines) is not None), None)
        if shown is not None:
            discounted.append(shown.says)
            continue
        # A generic message (a C++ exception) is this error only in its context: without any line of it, the
        # match does not count either.
        if pattern.requires and all(matcher.search_lines(r.value, lines) is None for r in pattern.requires):
            discounted.append("no line shows " + " or ".join(r.says for r in pattern.requires))
            continue
        witnesses.append(i)
    # Distinct patterns are independent witnesses only where they read distinct lines: a general pattern (the family
    # form of a check) that matches the very line a specific one matched is the same evidence twice. So the strongest
    # pattern counts first, and a pattern counts only when it matched some line that no stronger one had.
    miss, witnessed = 1.0, set()
    for i in sorted(witnesses, key=lambda i: (-sig.patterns[i].confidence, i)):
        if lines_read[i] - witnessed:
            miss *= 1.0 - sig.patterns[i].confidence
            witnessed |= lines_read[i]
    confidence = min(0.99, 1.0 - miss)

    captures: dict[str, Any] = {}
    for hit in hits:
        for key, value in hit.captures.items():
            captures.setdefault(key, _number(value))

    seen: set[int] = set()
    messages: set[str] = set()
    evidence: list[EvidenceLine] = []
    for hit in sorted(hits, key=lambda h: h.line.number):
        if hit.line.number in seen:
            continue
        seen.add(hit.line.number)
        # The same message repeated (a failing allocation retried, each layer reporting it) is one
        # piece of evidence; the repeats are counted, not listed.
        if len(evidence) < MAX_EVIDENCE and hit.line.message not in messages:
            evidence.append(EvidenceLine(hit.line.number, hit.line.text.strip()))
            messages.add(hit.line.message)
    repeats = len(seen) - len(evidence)

    first = evidence[0].line
    diag_facts: dict[str, Any] = dict(captures)
    node = next((n for n in reversed(facts.nodes) if n.line <= first), None)
    if node is not None and first - node.line <= 50:
        diag_facts.setdefault("node_number", node.number)
        if node.op:
            diag_facts.setdefault("node_op", node.op)
        if node.name:
            diag_facts.setdefault("node", node.name)
        if node.line not in seen:
            evidence.insert(0, EvidenceLine(node.line, _line_text(lines, node.line), "node"))

    cause_results: list[CauseResult] = []
    cause_text, remedy, caveats = sig.cause, list(sig.remedy), list(sig.caveats)
    if sig.causes:
        names = {**facts.names(), **captures}
        cause_results, chosen = _select_cause(sig.causes, names, facts, matcher, lines, probe_outcomes)
        cause_text, remedy, caveats = _explained(sig, chosen, cause_results)
        for result in cause_results:
            if result.selected:
                for check in result.checks:
                    if check.holds and check.line is not None and check.line not in seen:
                        evidence.append(EvidenceLine(check.line, _line_text(lines, check.line), "cause-evidence"))

    return Diagnosis(
        id=sig.id, title=sig.title, category=sig.category, kind=sig.kind, confidence=confidence,
        decided_by="pattern", evidence=evidence, facts=diag_facts, cause=cause_text.strip(), remedy=remedy,
        advice=versions.advice(facts.tensorrt, sig.affected, sig.fixed_in), references=list(sig.references),
        causes=cause_results, repeats=repeats, caveats=caveats, discounted=discounted)


def _line_text(lines: Sequence[LogLine], number: int) -> str:
    return next((ln.text.strip() for ln in lines if ln.number == number), "")


def _select_cause(causes: Sequence[CauseSpec], names: dict[str, Any], facts: LogFacts, matcher: Matcher,
                  lines: Sequence[LogLine], probe_outcomes: Mapping[str, str]) -> tuple[list[CauseResult], CauseSpec]:
    checked: list[list[Check]] = []
    for cause in causes:
        local = dict(names)
        checks: list[Check] = []
        for item in cause.when:
            holds, line = _test(item.test, item.value, local, facts, matcher, lines, probe_outcomes)
            missing = item.test == "line" and holds is False
            checks.append(Check(item.says, holds, line, item.required, missing))
        checked.append(checks)
    return _choose(causes, checked)


def _choose(causes: Sequence[CauseSpec],
            checked: Sequence[Sequence[Check]]) -> tuple[list[CauseResult], CauseSpec]:
    """Among the causes no check contradicts, the one with most checks holding; ties to the first listed.
    When the log contradicts every cause, the usual one (most checks holding, then the first listed) is
    still named, its result marked ruled out: the report says so."""
    scored = []
    for order, (cause, checks) in enumerate(zip(causes, checked)):
        ruled_out = any(c.fails for c in checks)
        scored.append((sum(1 for c in checks if c.holds), order, cause, checks, ruled_out))
    alive = [s for s in scored if not s[4]]
    best = max(alive or scored, key=lambda s: (s[0], -s[1]))[2]
    results = [CauseResult(c.id, c.title, c is best, ruled, tuple(checks))
               for _, _, c, checks, ruled in scored]
    return results, best


NO_CAUSE_FITS = ("The evidence in this log fits none of the known causes of this message (each is ruled out "
                 "above); the usual one is shown, but check it against your case.")
NO_CAUSE_SHOWN = ("This log does not show the lines that tell the known causes of this message apart (what is "
                  "marked 'no' or 'not shown' above is missing from it, not contradicted by it); the usual one is "
                  "shown, but check it against your case.")


def _explained(sig: Signature, chosen: CauseSpec,
               results: Sequence[CauseResult]) -> tuple[str, list[str], list[str | None]]:
    """The cause text, the remedy and its caveats of a diagnosis, with its selected cause."""
    text = f"{sig.cause.strip()}\n\n{chosen.title}: {chosen.cause.strip()}"
    selected = next(r for r in results if r.selected)
    if selected.ruled_out:
        text += "\n\n" + (NO_CAUSE_FITS if selected.contradicted else NO_CAUSE_SHOWN)
    return text, list(chosen.remedy), list(chosen.caveats)


def reselect(diag: Diagnosis, sig: Signature, probe_outcomes: Mapping[str, str]) -> None:
    """Re-choose a diagnosis's cause once probes have run: only the probe checks change."""
    if not sig.causes or len(diag.causes) != len(sig.causes):
        return
    checked = []
    for spec, result in zip(sig.causes, diag.causes):
        checks = []
        for item, check in zip(spec.when, result.checks):
            if item.test in ("probe", "no_probe"):
                holds, _ = _test(item.test, item.value, {}, None, None, (), probe_outcomes)  # type: ignore[arg-type]
                check = Check(check.says, holds, None, item.required, check.missing)
            checks.append(check)
        checked.append(checks)
    diag.causes, chosen = _choose(sig.causes, checked)
    diag.cause, diag.remedy, diag.caveats = _explained(sig, chosen, diag.causes)


def _test(test: str, value: str, names: dict[str, Any], facts: LogFacts, matcher: Matcher,
          lines: Sequence[LogLine], probe_outcomes: Mapping[str, str]) -> tuple[bool | None, int | None]:
    if test == "expr":
        return evaluate(compile_expr(value), names), None
    if test in ("line", "no_line"):
        found = matcher.search_lines(value, lines)
        if found is not None:
            line, caps = found
            for key, cap in caps.items():
                names.setdefault(key, _number(cap))
            return (test == "line"), line.number
        return (test == "no_line"), None
    if test == "tensorrt":
        if facts.tensorrt is None:
            return None, facts.tensorrt_line
        return versions.satisfies(facts.tensorrt, value), facts.tensorrt_line
    if test in ("probe", "no_probe"):
        outcome = probe_outcomes.get(value)
        if outcome in ("confirmed", "refuted"):
            return (outcome == "confirmed") == (test == "probe"), None
        return None, None
    raise ValueError(f"unknown evidence test {test!r}")


# -- the classifier's part in the ranking

# Words without which a log is not about TensorRT at all (a pip build failure, a CUDA-free crash): the
# classifier's reading of such a log names no candidates.
_TENSORRT_CONTEXT = re.compile(r"TensorRT|tensorrt|\bTRT\b|trtexec|nvinfer|[Mm]yelin|polygraphy|torch_tensorrt|"
                               r"ONNX|onnx|CUDA|cuda|[Ee]ngine|[Pp]lugin")


def tensorrt_context(lines: Iterable[LogLine], facts: LogFacts) -> bool:
    """Whether the log shows TensorRT (or its ONNX/CUDA surroundings) anywhere the scanner kept."""
    if facts.tensorrt is not None or facts.tool is not None:
        return True
    return any(_TENSORRT_CONTEXT.search(line.text) for line in lines)


def needs_classifier(ranking: Ranking) -> bool:
    """No pattern diagnosis of a root cause is confident enough to decide alone."""
    return not any(d.kind == "error" and d.confidence >= PATTERN_DECIDES for d in ranking.diagnoses)


def named_signatures(predictions: Sequence[tuple[str, float, float]]) -> list[tuple[str, float]]:
    """The signatures a reading (Model.predict, best first) names, at most CLASSIFIER_CANDIDATES. "none" (the
    negatives' label) is no candidate: it is read past, so that a reading whose first label is "none" still
    names the signatures it ranks next."""
    return [(label, conf) for label, conf, _ in predictions if label != NONE][:CLASSIFIER_CANDIDATES]


def consult_classifier(ranking: Ranking, model: "Model", text: str, kb: KnowledgeBase, lines: Sequence[LogLine],
                       facts: LogFacts) -> None:
    """Let the classifier's reading of ``text`` (errortext.classifier_text) confirm a pattern diagnosis, or name
    its closest candidates. It never diagnoses alone: held out by source thread, the diagnoses it made where no
    pattern did were right only half the time (11 of 22; scripts/evaluate.py lists them), whatever its
    confidence, because a wording no pattern knows is exactly where its calibration has seen nothing alike."""
    if not text:
        return
    predictions = model.predict(text, top=CLASSIFIER_CANDIDATES + 1)
    label, confidence, _ = predictions[0]
    existing = next((d for d in ranking.diagnoses if d.id == label), None)
    if existing is not None:
        existing.decided_by = "both"
        existing.confidence = max(existing.confidence, confidence)
        ranking.diagnoses.sort(key=lambda d: (d.kind != "error", -d.confidence))
    if not tensorrt_context(lines, facts):
        return  # outside TensorRT's surroundings (a pip failure, another program's crash) its reading is no lead
    known = {d.id for d in ranking.diagnoses} | {c.id for c in ranking.candidates}
    for label, conf in named_signatures(predictions):
        sig = kb.get(label)
        if sig is not None and label not in known and conf >= 0.05:
            ranking.candidates.append(Candidate(label, sig.title, conf, CLASSIFIER_CANDIDATE))
    ranking.candidates.sort(key=lambda c: -c.confidence)
