"""The contributor's gate: ``trtdoctor kb check``.

Every problem is reported as ``file:line: sentence``. The gate refuses:
- files that fail the schema, duplicate ids, ids that differ from the file name;
- regexes that are unsafe: not RE2-compatible (backreferences, lookaround), nested quantifiers, or a
  repeated alternation whose branches can start alike (the shapes behind catastrophic backtracking),
  or with no literal for the scanner;
- names in an ``expr`` that no pattern, evidence line or fact provides (a typo never silently
  makes a cause unselectable);
- ``outranks`` naming an unknown signature; a ``fixed_in`` inside its own ``affected`` range;
- a signature without a real example in ``corpus/<id>/``, an example without its source sidecar;
- an example whose top diagnosis is another signature (for a warning: that does not note it);
- a pattern that also matches an example of another signature, unless one outranks the other or the
  pattern is a consequence or warning, which by nature follow other errors (a line that only echoes
  an earlier error, such as the CUDA 'no driver' report of a build without a GPU, does not count);
- a pattern of an error or consequence signature that matches a negative log, or a log of an extra
  pool of clean logs (``--pool``);
- a pattern that matches one of the signature's own ``lookalikes`` (lines that resemble its message but
  are not it);
- an example whose sidecar ``tool`` lies outside the signature's ``tools``;
- a pattern (or a ``no_line`` evidence) whose scan literals are not selective: an operator's name alone, or
  literals on more than 0.1% of the lines of the reference verbose log (``corpus/negative/zoo-rtx-verbose-16.log``,
  a real TensorRT-RTX VERBOSE build), since the scanner decodes and matches every line they select.
  A ``line`` evidence with such literals is not refused: it is read only near the lines the scanner selects.

``only`` narrows the per-signature checks to some signatures (``kb check --only ID`` and
``--changed-since REF``, which the pull-request workflow runs): the whole knowledge base is still
compiled, and the changed signatures are still checked against every other signature's examples.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trtdoctor import versions
from trtdoctor.diagnose import is_driver_echo, is_real_error
from trtdoctor.kb.compiled import KnowledgeBase, Signature
from trtdoctor.kb.literals import is_op_name
from trtdoctor.kb.load import (REFERENCE_LOG, SELECTIVE, KnowledgeBaseError, Problem, Reference, compile_files,
                               reference, signature_files)
from trtdoctor.lines import parse_line

try:
    import re._constants as _c
    import re._parser as _p
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

FACT_NAMES = {"tool", "wsl", "tensorrt_major", "tensorrt_minor", "driver_major", "cuda_major", "node_op",
              "node_number"}


@dataclass
class CheckResult:
    problems: list[Problem]
    signatures: int
    examples: int
    negatives: int

    @property
    def ok(self) -> bool:
        return not self.problems


def _repeats(seq) -> Iterable[tuple[int, int, object]]:
    for op, av in seq:
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            yield av[0], av[1], av[2]
            yield from _repeats(av[2])
        elif op is _c.SUBPATTERN:
            yield from _repeats(av[-1])
        elif op is _c.BRANCH:
            for branch in av[1]:
                yield from _repeats(branch)


def _first_chars(seq) -> set[str] | None:
    """Characters a sequence can start with; None when anything may come first."""
    for op, av in seq:
        if op is _c.LITERAL:
            return {chr(av)}
        if op is _c.SUBPATTERN:
            return _first_chars(av[-1])
        if op is _c.BRANCH:
            out: set[str] = set()
            for branch in av[1]:
                first = _first_chars(branch)
                if first is None:
                    return None
                out |= first
            return out
        if op is _c.AT:
            continue
        return None
    return set()


def regex_safety(regex: str) -> list[str]:
    """Why a regex is unsafe to run on hostile input; empty when it is fine."""
    problems = []
    try:
        parsed = _p.parse(regex)
    except re.error as exc:
        return [f"does not compile: {exc}"]
    for low, high, body in _repeats(parsed):
        if high != 1 and high != 0:
            inner = [r for r in _repeats(body) if r[1] not in (0, 1)]
            if inner:
                problems.append("has a quantifier inside a quantifier, which can backtrack catastrophically")
                break
            for op, av in body:
                if op is _c.SUBPATTERN:
                    av = av[-1]
                    if len(av) == 1 and av[0][0] is _c.BRANCH:
                        op, av = av[0]
                if op is _c.BRANCH:
                    firsts = [_first_chars(b) for b in av[1]]
                    seen: set[str] = set()
                    for f in firsts:
                        if not f or f & seen:  # None: anything first; empty: may match nothing
                            problems.append("repeats an alternation whose branches can start alike, which can "
                                            "backtrack catastrophically")
                            break
                        seen |= f
    try:
        import re2
    except ImportError:  # pragma: no cover
        re2 = None
    if re2 is not None:
        try:
            re2.compile(regex)
        except re2.error as exc:
            problems.append(f"is not RE2 syntax ({exc}); backreferences and lookaround are not allowed")
    return sorted(set(problems))


def _regexes(sig: Signature) -> list[tuple[str, str]]:
    out = [(f"patterns.{i}.regex", p.regex) for i, p in enumerate(sig.patterns)]
    for ci, c in enumerate(sig.causes):
        for ei, e in enumerate(c.when):
            if e.test in ("line", "no_line"):
                out.append((f"causes.{ci}.when.{ei}.{e.test}", e.value))
    return out


def _examples(corpus: Path, sig_id: str) -> list[Path]:
    return sorted((corpus / sig_id).glob("*.log"))


_TEXTS: dict[Path, list[str]] = {}


def _lines_matching(rx: re.Pattern[str], path: Path, unless: Sequence[re.Pattern[str]] = (),
                    requires: Sequence[re.Pattern[str]] = (), verbose: bool = False) -> int | None:
    """The first line of the log that counts as a match of the pattern: none where the log shows one of the
    pattern's 'unless' lines (its harmless reading) or none of its 'requires' lines (its context), nor the
    CUDA driver echo after an earlier error, nor (unless the pattern allows it) a VERBOSE-level line."""
    lines = _TEXTS.get(path)
    if lines is None:
        lines = _TEXTS[path] = path.read_bytes().decode("utf-8", "replace").splitlines()
    seen_error = False
    for n, line in enumerate(lines, 1):
        if rx.search(line) and not (seen_error and is_driver_echo(line)) and (
                verbose or parse_line(n, line).severity != "verbose"):
            if any(u.search(text) for u in unless for text in lines):
                return None
            if requires and not any(r.search(text) for r in requires for text in lines):
                return None
            return n
        seen_error = seen_error or is_real_error(parse_line(n, line))
    return None


def pool_logs(dirs: Iterable[Path]) -> list[Path]:
    """The clean logs of a pool: every *.log under each directory (or each file given)."""
    out: list[Path] = []
    for d in dirs:
        out.extend(sorted(d.rglob("*.log")) if d.is_dir() else [d])
    return out


def check(paths: Sequence[Path], corpus: Path, *, run_examples: bool = True, only: Iterable[str] | None = None,
          pool: Sequence[Path] = ()) -> CheckResult:
    """The gate. ``only``: check these signature ids (others are compiled and used, not checked); ``pool``:
    directories of further clean logs on which no error or consequence pattern may fire."""
    _TEXTS.clear()  # a check reads the corpus as it is now
    files: list[Path] = []
    for path in paths:
        files.extend(signature_files([path]) if path.is_dir() else [path])
    problems: list[Problem] = []
    try:
        kb = compile_files(files)
    except KnowledgeBaseError as exc:
        return CheckResult(exc.problems, 0, 0, 0)

    ids = set(kb.by_id)
    wanted = set(ids) if only is None else set(only)
    unknown = sorted(wanted - ids)
    if unknown:
        return CheckResult([Problem(str(paths[0]) if paths else "kb", None, f"no signature {u!r}") for u in unknown],
                           len(kb.signatures), 0, 0)
    chosen = [s for s in kb.signatures if s.id in wanted]
    examples_total = 0
    negatives = sorted((corpus / "negative").glob("*.log"))
    clean = negatives + [p for p in pool_logs(pool) if p not in negatives]
    for sig in chosen:
        where = sig.path
        for field, regex in _regexes(sig):
            for why in regex_safety(regex):
                problems.append(Problem(where, _line(sig, field), f"{field}: regex {why}"))
        problems.extend(_check_names(sig))
        for other in sig.outranks:
            if other not in ids:
                problems.append(Problem(where, _line(sig, "outranks"), f"outranks: no signature {other!r}"))
        if sig.fixed_in and sig.affected and versions.satisfies(versions.parse(sig.fixed_in), sig.affected):
            problems.append(Problem(where, _line(sig, "tensorrt.fixed_in"),
                                    f"tensorrt.fixed_in {sig.fixed_in} lies inside affected {sig.affected!r}"))
        examples = _examples(corpus, sig.id)
        examples_total += len(examples)
        if not examples:
            problems.append(Problem(where, None, f"has no real example: add a log from a public thread as "
                                    f"{corpus / sig.id}/<name>.log with its <name>.yaml (see CONTRIBUTING.md)"))
        for log in examples:
            problems.extend(_check_sidecar(log, sig))
        problems.extend(_check_lookalikes(sig))

    for neg in negatives:
        problems.extend(_check_sidecar(neg))
    # Orphan folders are a question for a whole knowledge base, not for one file checked on its own.
    if corpus.is_dir() and paths and all(p.is_dir() for p in paths) and only is None:
        for folder in sorted(d for d in corpus.iterdir() if d.is_dir()):
            if folder.name != "negative" and folder.name not in ids:
                problems.append(Problem(str(folder), None, "corpus folder names no signature"))

    # Patterns that claim other signatures' examples or clean logs.
    for sig in kb.signatures:
        compiled = [(i, re.compile(p.regex), [re.compile(u.value) for u in p.unless],
                     [re.compile(r.value) for r in p.requires], p.verbose)
                    for i, p in enumerate(sig.patterns)]
        if sig.kind != "warning" and sig.id in wanted:
            for neg in clean:
                for i, rx, unless, requires, verbose in compiled:
                    n = _lines_matching(rx, neg, unless, requires, verbose)
                    if n:
                        text = _clip(_TEXTS[neg][n - 1].strip())
                        problems.append(Problem(sig.path, _line(sig, f"patterns.{i}.regex"),
                                                f"patterns.{i} of {sig.id} matches negative log {neg}:{n}: {text}"))
        if sig.kind != "error":
            continue
        for other in kb.signatures:
            if other.id == sig.id or other.id in sig.outranks or sig.id in other.outranks:
                continue
            if sig.id not in wanted and other.id not in wanted:
                continue
            for log in _examples(corpus, other.id):
                for i, rx, unless, requires, verbose in compiled:
                    n = _lines_matching(rx, log, unless, requires, verbose)
                    if n:
                        problems.append(Problem(sig.path, _line(sig, f"patterns.{i}.regex"),
                                                f"patterns.{i} also matches {log}:{n}, an example of {other.id}; "
                                                "make it more specific, or declare which outranks the other"))

    ref = _reference(corpus)
    if ref is not None:
        for sig in kb.signatures:
            for field, literals in _scanned(sig):
                why = selectivity(literals, ref)
                if why:
                    problems.append(Problem(sig.path, _line(sig, field), f"{field}: {why}"))

    if run_examples:
        problems.extend(_run_examples(kb, corpus, wanted, [p for p in clean if p not in negatives]))
    return CheckResult(problems, len(chosen), examples_total, len(clean))


def _reference(corpus: Path) -> Reference | None:
    path = corpus / REFERENCE_LOG
    if path.is_file():
        return Reference(path.read_bytes(), str(path))
    return reference()  # a private corpus without one: the bundled reference


def _scanned(sig: Signature) -> list[tuple[str, tuple[str, ...]]]:
    """The regexes whose literals the scanner searches the whole log for: patterns and no_line evidence."""
    out = [(f"patterns.{i}.regex", p.literals) for i, p in enumerate(sig.patterns)]
    out += [(f"patterns.{i}.unless.{ui}.line", u.literals) for i, p in enumerate(sig.patterns)
            for ui, u in enumerate(p.unless) if u.literals]
    out += [(f"patterns.{i}.requires.{ri}.line", r.literals) for i, p in enumerate(sig.patterns)
            for ri, r in enumerate(p.requires) if r.literals]
    for ci, c in enumerate(sig.causes):
        for ei, e in enumerate(c.when):
            if e.test == "no_line" and e.literals:
                out.append((f"causes.{ci}.when.{ei}.no_line", e.literals))
    return out


def selectivity(literals: Sequence[str], ref: Reference) -> str | None:
    """Why the scan literals of a regex are not selective enough; None when they are."""
    ops = [lit for lit in literals if is_op_name(lit)]
    advice = ("give the regex a longer literal that only this failure prints (the words around the name), or "
              "a second required literal: of all the literals a regex requires, the scanner searches for the rarest")
    if ops:
        return (f"its scan literal {ops[0]!r} is an ONNX operator's name, which a verbose build log prints on nearly "
                f"every line; {advice}")
    n = ref.count(tuple(literals))
    if n <= ref.limit:
        return None
    worst = max(literals, key=lambda lit: ref.count((lit,)))
    return (f"its scan literal {worst!r} selects {ref.count((worst,))} of the {ref.total} lines of the reference "
            f"verbose log {ref.path} ({n} with the other literals; at most {SELECTIVE:.1%}, {ref.limit} lines); "
            f"{advice}")


def _clip(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _check_lookalikes(sig: Signature) -> list[Problem]:
    """A look-alike line is one the signature must reject: none of its patterns may match it."""
    problems = []
    for li, line in enumerate(sig.lookalikes):
        for i, p in enumerate(sig.patterns):
            if re.search(p.regex, line):
                problems.append(Problem(sig.path, _line(sig, f"lookalikes.{li}"),
                                        f"patterns.{i} matches lookalikes.{li}, a line it must reject: "
                                        f"{_clip(line)}"))
    return problems


def _run_examples(kb: KnowledgeBase, corpus: Path, wanted: set[str] | None = None,
                  extra_clean: Sequence[Path] = ()) -> list[Problem]:
    from trtdoctor import pipeline, read
    from trtdoctor.match import Matcher

    knowledge = (kb, Matcher(kb))
    problems = []
    for sig in kb.signatures:
        if wanted is not None and sig.id not in wanted:
            continue
        for log in _examples(corpus, sig.id):
            try:
                with open(log, "rb") as stream:
                    report = pipeline.run(read.chunks(stream), source=str(log), knowledge=knowledge)
            except read.InputError as exc:
                problems.append(Problem(str(log), None, f"cannot be read: {exc}"))
                continue
            if sig.kind == "warning":
                if not any(n.id == sig.id for n in report.notes):
                    problems.append(Problem(str(log), None, f"does not note {sig.id}"))
                continue
            if sig.kind == "consequence" and not (report.diagnoses and report.diagnoses[0].id == sig.id):
                if report.diagnoses or not any(c.id == sig.id for c in report.candidates):
                    problems.append(Problem(str(log), None, f"is an example of the consequence {sig.id}, but "
                                            f"gives {report.diagnoses[0].id if report.diagnoses else 'no candidate'}"))
                continue
            top = report.diagnoses[0].id if report.diagnoses else None
            if top != sig.id:
                problems.append(Problem(str(log), None, f"is an example of {sig.id} but its top diagnosis is "
                                        f"{top or 'nothing'}"))
    for neg in [*sorted((corpus / "negative").glob("*.log")), *extra_clean]:
        with open(neg, "rb") as stream:
            report = pipeline.run(read.chunks(stream), source=str(neg), knowledge=knowledge)
        # With --only, a clean log diagnosed by a signature outside the selection is not this change's doing.
        found = [d.id for d in report.diagnoses if wanted is None or d.id in wanted]
        if found:
            problems.append(Problem(str(neg), None, f"is a negative example but is diagnosed as {found[0]}"))
    return problems


def _check_names(sig: Signature) -> list[Problem]:
    provided = set(FACT_NAMES)
    for p in sig.patterns:
        provided |= set(re.compile(p.regex).groupindex)
    for c in sig.causes:
        for e in c.when:
            if e.test in ("line", "no_line"):
                provided |= set(re.compile(e.value).groupindex)
    problems = []
    for ci, c in enumerate(sig.causes):
        for ei, e in enumerate(c.when):
            if e.test != "expr":
                continue
            import ast

            names = {n.id for n in ast.walk(ast.parse(e.value, mode="eval")) if isinstance(n, ast.Name)}
            for name in sorted(names - provided):
                problems.append(Problem(sig.path, _line(sig, f"causes.{ci}.when.{ei}.expr"),
                                        f"causes.{ci}.when.{ei}.expr: name {name!r} is captured by no pattern "
                                        f"and is not a fact ({', '.join(sorted(FACT_NAMES))})"))
    return problems


def _check_sidecar(log: Path, sig: Signature | None = None) -> list[Problem]:
    import yaml
    from pydantic import ValidationError

    from trtdoctor.kb.schema import CorpusSource

    meta = log.with_suffix(".yaml")
    if not meta.exists():
        return [Problem(str(log), None, f"has no source sidecar {meta.name} (source URL, tensorrt, tool)")]
    try:
        text = meta.read_text(encoding="utf-8")
        source = CorpusSource.model_validate(yaml.safe_load(text))
    except (ValidationError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()
        return [Problem(str(meta), None, " ".join(first[1:3]).strip() if len(first) > 2 else str(exc))]
    if sig is not None and sig.tools and source.tool not in sig.tools:
        from trtdoctor.kb.load import line_of

        line = line_of(yaml.compose(text, Loader=yaml.SafeLoader), ("tool",))
        return [Problem(str(meta), line, f"tool {source.tool!r} is outside the tools of {sig.id} "
                        f"({', '.join(sig.tools)}): fix the sidecar, or add the tool to {Path(sig.path).name}")]
    return []


def _line(sig: Signature, dotted: str) -> int | None:
    import yaml

    from trtdoctor.kb.load import line_of

    try:
        node = yaml.compose(Path(sig.path).read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError):
        return None
    loc = tuple(int(p) if p.isdigit() else p for p in dotted.split("."))
    return line_of(node, loc)
