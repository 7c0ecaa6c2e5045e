"""The error index: one Markdown page per signature, and an index page, generated from the YAML.

    trtdoctor kb docs                  # (re)write docs/signatures/
    python scripts/gen_docs.py         # the same, from a checkout
    trtdoctor kb docs --check          # exit 1, naming the stale pages, when they differ from the YAML

Every page has the same order, the real thing first: what you see (a line quoted verbatim from one of
the signature's corpus logs, with the log and its public source), the cause and the candidate causes
with the evidence that selects each, what to do (each step with its cost, if it has one), the
TensorRT versions affected and fixed, the references. The quoted lines carry the message's stable words
verbatim, so pasting an error into a search engine or the repository's search lands on its page.

The pages depend on nothing but the signature files and the corpus: no dates, no versions, sorted
everywhere, so regenerating after a merge gives the same bytes for the same inputs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from trtdoctor.kb.compiled import EvidenceSpec, KnowledgeBase, Signature
from trtdoctor.kb.load import compile_files, signature_files

CATEGORIES = ("export", "parser", "builder", "runtime", "environment")
MAX_QUOTE = 600
GENERATED = ("<!-- Generated from {src} by `python scripts/gen_docs.py` (or `trtdoctor kb docs`): "
             "do not edit by hand. -->")


def _rel(target: Path, start: Path) -> str:
    import os

    return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()


def _read_lines(path: Path) -> list[str]:
    text = path.read_bytes().decode("utf-8", "replace")
    return [line.rstrip("\r").rstrip() for line in text.split("\n")]


def _sidecar(log: Path) -> dict:
    import yaml

    meta = log.with_suffix(".yaml")
    try:
        data = yaml.safe_load(meta.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def quotes(sig: Signature, corpus: Path) -> list[tuple[int, Path, int, str]]:
    """For each pattern, the first line of the signature's examples (sorted by name) that it matches:
    (pattern index, log, line number, the line verbatim). Patterns that match no example are left out;
    a line quoted for an earlier pattern is not quoted again."""
    logs = sorted((corpus / sig.id).glob("*.log"))
    texts = {log: _read_lines(log) for log in logs}
    out: list[tuple[int, Path, int, str]] = []
    seen: set[str] = set()
    for i, pattern in enumerate(sig.patterns):
        rx = re.compile(pattern.regex)
        found = None
        for log in logs:
            for n, line in enumerate(texts[log], 1):
                if rx.search(line) and line.strip() not in seen:
                    found = (i, log, n, line.strip())
                    break
            if found:
                break
        if found:
            seen.add(found[3])
            out.append(found)
    return out


def _fence(text: str) -> list[str]:
    fence = "~~~" if "```" in text else "```"
    return [fence + "text", text, fence]


def _quote(line: str) -> str:
    return line if len(line) <= MAX_QUOTE else line[: MAX_QUOTE - 1] + "…"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _code(text: str) -> str:
    ticks = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _test(e: EvidenceSpec) -> str:
    return {
        "expr": lambda v: f"holds: {_code(v)}",
        "line": lambda v: f"a line of the log matches {_code(v)}",
        "no_line": lambda v: f"no line of the log matches {_code(v)}",
        "tensorrt": lambda v: f"the log's TensorRT version is {_code(v)}",
        "probe": lambda v: f"the probe {_code(v)} confirms it",
        "no_probe": lambda v: f"the probe {_code(v)} refutes it",
    }[e.test](e.value) + (" (required)" if e.required else "")


def _steps(remedy: Sequence[str], caveats: Sequence[str | None], indent: str = "") -> list[str]:
    out = []
    padded = list(caveats) + [None] * (len(remedy) - len(caveats))
    for n, (step, caveat) in enumerate(zip(remedy, padded), 1):
        out.append(f"{indent}{n}. {_one_line(step)}")
        if caveat:
            out.append(f"{indent}   *Cost:* {_one_line(caveat)}")
    return out


def _link(sig_id: str) -> str:
    return f"[`{sig_id}`]({sig_id}.md)"


def page(sig: Signature, kb: KnowledgeBase, corpus: Path, out_dir: Path) -> str:
    """The Markdown page of one signature."""
    lines: list[str] = [GENERATED.format(src=Path(sig.path).name), ""]
    lines.append(f"# {sig.title}")
    lines.append("")
    meta = [f"`{sig.id}`", f"category: {sig.category}", f"kind: {sig.kind}"]
    if sig.tools:
        meta.append("tools: " + ", ".join(sig.tools))
    if sig.tags:
        meta.append("tags: " + ", ".join(f"`{t}`" for t in sig.tags))
    lines.append(" · ".join(meta))
    lines.append("")
    lines.append(f"Signature file: [{Path(sig.path).name}]({_rel(Path(sig.path), out_dir)})")
    lines.append("")

    lines.append("## What you see")
    lines.append("")
    found = quotes(sig, corpus)
    if found:
        for k, (_, log, n, text) in enumerate(found):
            if k == 1:
                lines.append("Other forms of the message:")
                lines.append("")
            lines.extend(_fence(_quote(text)))
            meta_src = _sidecar(log)
            source = meta_src.get("source", "")
            origin = f"[{log.parent.name}/{log.name}]({_rel(log, out_dir)}), line {n}"
            details = []
            if source:
                details.append(f"from {source if not source.startswith('http') else f'<{source}>'}")
            if meta_src.get("tensorrt") and meta_src.get("tensorrt") != "unknown":
                details.append(f"TensorRT {meta_src['tensorrt']}")
            if meta_src.get("tool"):
                details.append(f"tool {meta_src['tool']}")
            lines.append(f"Quoted from {origin}" + (f" ({', '.join(details)})" if details else "") + ".")
            lines.append("")
    lines.append(f"The message, with its numbers and names written as N, X: {_code(_one_line(sig.message))}")
    lines.append("")
    if sig.lookalikes:
        lines.append("Lines that look alike but are **not** this error (its patterns reject them):")
        lines.append("")
        for look in sig.lookalikes:
            lines.extend(_fence(_quote(look)))
            lines.append("")
    explains = [o for o in sig.outranks if o in kb.by_id]
    explained_by = sorted(s.id for s in kb.signatures if sig.id in s.outranks)
    if explains:
        lines.append("When found together, this explains: " + ", ".join(_link(o) for o in explains) + ".")
        lines.append("")
    if explained_by:
        lines.append("When found together, this is explained by: " + ", ".join(_link(o) for o in explained_by) + ".")
        lines.append("")

    lines.append("## Why")
    lines.append("")
    lines.append(_one_line(sig.cause))
    lines.append("")
    if sig.causes:
        lines.append("### Candidate causes")
        lines.append("")
        lines.append("The evidence in the log selects one; when it cannot tell, the first listed is the usual one.")
        lines.append("")
        for n, c in enumerate(sig.causes, 1):
            lines.append(f"{n}. **{_one_line(c.title)}** (`{c.id}`). {_one_line(c.cause)}")
            if c.when:
                lines.append("   Selected when:")
                for e in c.when:
                    lines.append(f"   - {_one_line(e.says)} ({_test(e)})")
            else:
                lines.append("   Selected when nothing else is shown.")
        lines.append("")

    lines.append("## What to do")
    lines.append("")
    if sig.causes:
        for c in sig.causes:
            title = _one_line(c.title)
            word = title.split()[0]
            if len(word) == 1 or word[1:].islower():
                title = title[0].lower() + title[1:]
            lines.append(f"If {title} (`{c.id}`):")
            lines.append("")
            lines.extend(_steps(c.remedy, c.caveats))
            lines.append("")
        lines.append("Otherwise:")
        lines.append("")
    lines.extend(_steps(sig.remedy, sig.caveats))
    lines.append("")

    lines.append("## TensorRT versions")
    lines.append("")
    lines.append(f"- Affected: {_code(sig.affected) if sig.affected else 'not established'}")
    lines.append(f"- Fixed in: {sig.fixed_in if sig.fixed_in else 'not established'}")
    lines.append("")

    lines.append("## References")
    lines.append("")
    lines.extend(f"- <{url}>" for url in sig.references)
    examples = sorted((corpus / sig.id).glob("*.log"))
    if examples:
        lines.append("")
        lines.append(f"Examples: {len(examples)} real log{'s' if len(examples) != 1 else ''} in "
                     f"[corpus/{sig.id}/]({_rel(corpus / sig.id, out_dir)}/).")
    return "\n".join(lines).rstrip("\n") + "\n"


def index(kb: KnowledgeBase, corpus: Path, out_dir: Path) -> str:
    lines = [GENERATED.format(src="the signature files"), "", "# Error index", "",
             "One page per signature of the knowledge base: what you see, why, what to do, the TensorRT "
             "versions, the references. Search this folder for the words of your error message, or list "
             "signatures from the command line with `trtdoctor kb list [--category C] [--tag T]`.", ""]
    by_cat: dict[str, list[Signature]] = defaultdict(list)
    for sig in kb.signatures:
        by_cat[sig.category].append(sig)
    lines.append("## By category")
    for cat in [*CATEGORIES, *sorted(set(by_cat) - set(CATEGORIES))]:
        sigs = sorted(by_cat.get(cat, []), key=lambda s: s.id)
        if not sigs:
            continue
        lines += ["", f"### {cat}", "", "| signature | kind | root cause | logs |", "| --- | --- | --- | ---: |"]
        for s in sigs:
            logs = len(list((corpus / s.id).glob("*.log")))
            title = s.title.replace("|", "\\|")
            lines.append(f"| {_link(s.id)} | {s.kind} | {title} | {logs} |")
    tags: dict[str, set[str]] = defaultdict(set)
    spelled: dict[str, str] = {}
    for sig in kb.signatures:
        for t in (*sig.tools, *sig.tags):
            spelled.setdefault(t.lower(), t)
            tags[t.lower()].add(sig.id)
    if tags:
        lines += ["", "## By tag", "", "Tools, platforms, ONNX operators and precisions; a signature's `tools` "
                  "count as tags.", "", "| tag | signatures |", "| --- | --- |"]
        for key in sorted(tags):
            lines.append(f"| `{spelled[key]}` | {', '.join(_link(i) for i in sorted(tags[key]))} |")
    return "\n".join(lines) + "\n"


def generate(kb_dir: Path, corpus: Path, out_dir: Path) -> dict[Path, str]:
    """Every page, keyed by its path under out_dir."""
    kb = compile_files(signature_files([kb_dir]))
    pages = {out_dir / f"{sig.id}.md": page(sig, kb, corpus, out_dir) for sig in kb.signatures}
    pages[out_dir / "README.md"] = index(kb, corpus, out_dir)
    return pages


def stale(pages: dict[Path, str], out_dir: Path) -> list[str]:
    """What differs on disk from the generated pages: missing, different, or left over."""
    problems = []
    for path, text in sorted(pages.items()):
        if not path.exists():
            problems.append(f"{path}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{path}: differs from its signature file")
    if out_dir.is_dir():
        for path in sorted(out_dir.glob("*.md")):
            if path not in pages:
                problems.append(f"{path}: names no signature")
    return problems


def write(pages: dict[Path, str], out_dir: Path) -> list[Path]:
    """Write the pages and remove pages of signatures that are gone; return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path, text in sorted(pages.items()):
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    for path in sorted(out_dir.glob("*.md")):
        if path not in pages:
            path.unlink()
    return written
