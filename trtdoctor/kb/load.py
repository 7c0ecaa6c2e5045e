"""Finding, validating, compiling and caching signature files.

The bundled signatures ship inside the package (``trtdoctor._kb``, which is the repository's ``kb/``).
Teams add private ones with ``--kb DIR`` or ``TRTDOCTOR_KB`` (directories separated by the path
separator). The compiled knowledge base is cached as JSON under the user's cache directory, keyed by
the signature files' names, sizes and modification times (as Python keys its bytecode), so an edit or
a pull request is never served stale and the explain path reads no YAML, imports no pydantic and hashes
nothing. The compiled knowledge base itself carries a hash of the files' contents (``KnowledgeBase.key``),
which keys what is derived from it, such as the classifier.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from trtdoctor._version import __version__
from trtdoctor.kb.compiled import CauseSpec, EvidenceSpec, KnowledgeBase, PatternSpec, Signature

ENV_KB = "TRTDOCTOR_KB"
ENV_CACHE = "TRTDOCTOR_CACHE_DIR"
_FORMAT = 7  # bump when the compiled form changes (2: literals chosen by rarity, context evidence; 3: key by
# name; 4: remedy caveats, tools, tags and look-alikes; 5: a pattern's 'unless' lines; 6: its 'requires' lines;
# 7: its 'verbose' flag)
# The reference verbose log: a real successful TensorRT-RTX VERBOSE build (corpus/negative), on which every
# literal's selectivity is measured. A literal may select at most SELECTIVE of its lines.
REFERENCE_LOG = "negative/zoo-rtx-verbose-16.log"
SELECTIVE = 0.001


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a signature file, located for its author."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class KnowledgeBaseError(Exception):
    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        first = str(self.problems[0])
        more = f" (and {len(self.problems) - 1} more problems; run 'trtdoctor kb check')" \
            if len(self.problems) > 1 else ""
        super().__init__(first + more)


def bundled_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    # find_spec, not importlib.resources: the latter imports zipfile and friends on every run.
    from importlib.util import find_spec

    try:
        spec = find_spec("trtdoctor._kb")
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if any(Path(location).glob("*.yaml")):
            return Path(location)
    return here.parent / "kb"  # a source checkout that was not installed


def corpus_dir() -> Path:
    """The corpus of real logs: bundled with the package, or the repository's corpus/ in a source checkout."""
    from importlib.util import find_spec

    try:
        spec = find_spec("trtdoctor._corpus")
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "negative").is_dir():
            return Path(location)
    return Path(__file__).resolve().parent.parent.parent / "corpus"


class Reference:
    """The reference verbose log, as lines that literals select: ``count(alternatives)`` is how many of its
    lines contain one of them, and ``limit`` how many a selective literal may select."""

    def __init__(self, data: bytes, path: str = ""):
        self.path = path
        self.data = data.decode("utf-8", "replace")
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.data)]
        self.total = len(self.starts) - (1 if self.data.endswith("\n") else 0)
        self.limit = int(self.total * SELECTIVE)
        self._counts: dict[tuple[str, ...], int] = {}

    def lines_with(self, alternatives: Iterable[str]) -> set[int]:
        from bisect import bisect_right

        found: set[int] = set()
        for lit in alternatives:
            pos = self.data.find(lit)
            while pos >= 0:
                line = bisect_right(self.starts, pos) - 1
                found.add(line)
                nxt = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.data)
                pos = self.data.find(lit, max(nxt, pos + 1))
        return found

    def count(self, alternatives: tuple[str, ...]) -> int:
        n = self._counts.get(alternatives)
        if n is None:
            n = self._counts[alternatives] = len(self.lines_with(alternatives))
        return n

    def selective(self, alternatives: tuple[str, ...]) -> bool:
        from trtdoctor.kb.literals import is_op_name

        return not any(is_op_name(a) for a in alternatives) and self.count(alternatives) <= self.limit


_REFERENCE: list[Reference | None] = []


def reference() -> Reference | None:
    """The reference verbose log (None where the corpus is not installed), read once per process."""
    if not _REFERENCE:
        path = corpus_dir() / REFERENCE_LOG
        try:
            _REFERENCE.append(Reference(path.read_bytes(), str(path)))
        except OSError:
            _REFERENCE.append(None)
    return _REFERENCE[0]


def kb_dirs(extra: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    dirs = [bundled_dir()]
    env = os.environ.get(ENV_KB, "")
    for item in [*extra, *[p for p in env.split(os.pathsep) if p]]:
        path = Path(item)
        if path not in dirs:
            dirs.append(path)
    return dirs


def signature_files(dirs: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for d in dirs:
        if not d.is_dir():
            raise KnowledgeBaseError([Problem(str(d), None, "knowledge-base directory does not exist")])
        files.extend(sorted(d.glob("*.yaml")))
    return files


def _cache_dir() -> Path:
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "trtdoctor"


def _key(files: Sequence[Path], contents: Sequence[bytes]) -> str:
    """A hash of the signature files' names and contents, and of the reference log that chose their literals:
    the same wherever the package is installed."""
    import hashlib

    h = hashlib.sha256(f"{__version__}/{_FORMAT}".encode())
    for path, data in zip(files, contents):
        h.update(path.name.encode() + b"\0" + hashlib.sha256(data).digest())
    ref = reference()
    h.update(b"reference\0" + hashlib.sha256(ref.data.encode("utf-8") if ref is not None else b"").digest())
    return h.hexdigest()[:32]


def shipped_dir() -> Path:
    """Where the package keeps what `trtdoctor kb train` built for the bundled knowledge base."""
    return Path(__file__).resolve().parent.parent / "_model"


def shipped_kb(key: str) -> tuple[KnowledgeBase, str] | None:
    """The compiled bundled knowledge base that ships with the package, if it was compiled from these files, and
    its JSON text for the cache (its paths are file names, made paths again by the ``base`` put in front)."""
    try:
        text = (shipped_dir() / "kb.json").read_text(encoding="utf-8")
        data = json.loads(text)
        if data.get("key") != key or "base" in data or not text.startswith("{"):
            return None
        base = json.dumps(str(bundled_dir()))
        data["base"] = json.loads(base)
        return KnowledgeBase.from_json(data), '{"base": ' + base + ", " + text[1:]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_shipped_kb(kb: KnowledgeBase) -> Path:
    """Write the compiled bundled knowledge base into the package (`trtdoctor kb train`)."""
    data = kb.to_json()
    for sig in data["signatures"]:
        sig["path"] = Path(sig["path"]).name
    path = shipped_dir() / "kb.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _fingerprint(files: Sequence[Path]) -> str:
    """Names, sizes and modification times of the files: what a cache lookup needs, without reading them."""
    parts = [f"{__version__}/{_FORMAT}"]
    for path in [*files, corpus_dir() / REFERENCE_LOG]:  # the reference log decides which literals are chosen
        try:
            st = path.stat()
        except OSError:
            continue
        parts.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}")
    data = "\n".join(parts).encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(files):04x}"


def load(extra: Iterable[str | os.PathLike[str]] = (), *, use_cache: bool = True) -> KnowledgeBase:
    """The knowledge base from the bundled signatures and any extra directories."""
    files = signature_files(kb_dirs(extra))
    cache = _cache_dir() / f"kb-{_fingerprint(files)}.json"
    if use_cache:
        try:
            return KnowledgeBase.from_json(json.loads(cache.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    contents = [f.read_bytes() for f in files]
    key = _key(files, contents)
    # A first run (no cache yet) on the bundled signatures uses the compiled form shipped with the package:
    # compiling them (YAML, validation) costs a second.
    shipped = shipped_kb(key) if use_cache and files and all(f.parent == files[0].parent for f in files) else None
    if shipped is not None:
        _write_cache(cache, text=shipped[1])  # the text as shipped: no second serialisation
        return shipped[0]
    kb = compile_files(files, contents, key)
    if use_cache:
        _write_cache(cache, kb)
    return kb


def _write_cache(cache: Path, kb: KnowledgeBase | None = None, text: str | None = None) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=cache.parent, prefix=".kb-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            if text is not None:
                out.write(text)
            else:
                json.dump(kb.to_json(), out)  # type: ignore[union-attr]
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only home only costs the next run a recompile


def compile_files(files: Sequence[Path], contents: Sequence[bytes] | None = None, key: str = "") -> KnowledgeBase:
    """Validate and compile signature files; raise KnowledgeBaseError listing every problem."""
    if contents is None:
        contents = [f.read_bytes() for f in files]
    signatures: list[Signature] = []
    problems: list[Problem] = []
    seen: dict[str, Path] = {}
    for path, data in zip(files, contents):
        sig, found = compile_one(path, data)
        problems.extend(found)
        if sig is None:
            continue
        if sig.id in seen:
            problems.append(Problem(str(path), None, f"duplicate id {sig.id!r}, also in {seen[sig.id]}"))
            continue
        seen[sig.id] = path
        signatures.append(sig)
    if problems:
        raise KnowledgeBaseError(problems)
    return KnowledgeBase(tuple(signatures), key)


def compile_one(path: Path, data: bytes) -> tuple[Signature | None, list[Problem]]:
    import yaml
    from pydantic import ValidationError

    from trtdoctor.kb.literals import LiteralError, required_literals
    from trtdoctor.kb.schema import TESTS, Signature as SignatureModel, remedy_parts

    where = str(path)
    try:
        text = data.decode("utf-8")
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        raw = yaml.safe_load(text)
    except UnicodeDecodeError:
        return None, [Problem(where, None, "is not UTF-8 text")]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return None, [Problem(where, mark.line + 1 if mark else None,
                              f"is not valid YAML: {getattr(exc, 'problem', None) or exc}")]
    if not isinstance(raw, dict):
        return None, [Problem(where, 1, "must be a mapping of fields (id, title, ...)")]
    try:
        model = SignatureModel.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            field = ".".join(str(p) for p in loc) or "(file)"
            msg = err["msg"].removeprefix("Value error, ")
            problems.append(Problem(where, line_of(node, loc), f"{field}: {msg}"))
        return None, problems
    problems: list[Problem] = []
    if model.id != path.stem:
        problems.append(Problem(where, line_of(node, ("id",)), f"id {model.id!r} must equal the file name "
                                f"{path.stem!r}"))

    ref = reference()

    def literals(regex: str, loc: tuple) -> tuple[str, ...]:
        try:
            return required_literals(regex, ref.count if ref is not None else None)
        except LiteralError as exc:
            problems.append(Problem(where, line_of(node, loc), f"{'.'.join(map(str, loc))}: regex {exc}"))
            return ()

    patterns = tuple(PatternSpec(p.regex, p.confidence, literals(p.regex, ("patterns", i, "regex")),
                                 tuple(EvidenceSpec(u.says, "line", u.line,
                                                    literals(u.line, ("patterns", i, "unless", ui, "line")))
                                       for ui, u in enumerate(p.unless)),
                                 tuple(EvidenceSpec(r.says, "line", r.line,
                                                    literals(r.line, ("patterns", i, "requires", ri, "line")))
                                       for ri, r in enumerate(p.requires)),
                                 p.verbose)
                     for i, p in enumerate(model.patterns))
    causes = []
    for ci, c in enumerate(model.causes):
        when = []
        for ei, e in enumerate(c.when):
            test = next(k for k in TESTS if getattr(e, k) is not None)
            value = getattr(e, test)
            lits = literals(value, ("causes", ci, "when", ei, test)) if test in ("line", "no_line") else ()
            context = bool(test == "line" and lits and ref is not None and not ref.selective(lits))
            when.append(EvidenceSpec(e.says, test, value, lits, e.required, context))
        steps, caveats = remedy_parts(c.remedy)
        causes.append(CauseSpec(c.id, c.title, c.cause, steps, tuple(when), caveats))
    if problems:
        return None, problems
    steps, caveats = remedy_parts(model.remedy)
    sig = Signature(
        id=model.id, title=model.title, category=model.category, kind=model.kind, message=model.message,
        patterns=patterns, affected=model.tensorrt.affected, fixed_in=model.tensorrt.fixed_in,
        cause=model.cause, remedy=steps, causes=tuple(causes), probes=tuple(model.probes),
        references=tuple(model.references), outranks=tuple(model.outranks), path=where, caveats=caveats,
        tools=tuple(model.tools), tags=tuple(model.tags), lookalikes=tuple(model.lookalikes))
    return sig, []


def line_of(node, loc: tuple) -> int | None:
    """The 1-based line of the YAML node at a pydantic error location, as near as the file allows."""
    import yaml

    best = node
    for part in loc:
        if isinstance(best, yaml.MappingNode):
            for key, value in best.value:
                if key.value == part:
                    best = value
                    break
            else:
                break
        elif isinstance(best, yaml.SequenceNode) and isinstance(part, int) and part < len(best.value):
            best = best.value[part]
        else:
            break
    return best.start_mark.line + 1 if best is not None else None
