"""The command line: a thin layer over ``trtdoctor.api``.

Exit codes (also in the README):
  0  a diagnosis was made (for several inputs: at least one was diagnosed)
  1  nothing known matched
  2  bad usage, or an input that cannot be read as a log
  For ``trtdoctor run``: the wrapped command's own exit code.
"""

# No `from __future__ import annotations` here: typer reads these signatures on every run, and string
# annotations would make it evaluate each one again.
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from trtdoctor.report import EXIT_BAD_INPUT, EXIT_DIAGNOSED, EXIT_UNKNOWN, plural

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Explain why a TensorRT build failed: root cause, evidence, remedy, versions.")
kb_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Browse and check the knowledge base of signatures.")
app.add_typer(kb_app, name="kb")


class Format(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    github = "github"


KbOption = Annotated[Optional[list[Path]], typer.Option(
    "--kb", help="Extra directory of signature files (repeatable; also $TRTDOCTOR_KB).", show_default=False)]


class Backend(str, Enum):
    tensorrt = "tensorrt"
    tensorrt_rtx = "tensorrt-rtx"
    trtexec = "trtexec"


RebuildOption = Annotated[Optional[Backend], typer.Option(
    "--rebuild-with", help="Rebuild on this backend only (implies --rebuild).", show_default=False)]


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    typer.echo(f"trtdoctor: {message}", err=True)
    return typer.Exit(code)


def _write(text: str) -> None:
    try:
        sys.stdout.write(text + ("\n" if not text.endswith("\n") else ""))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): stop writing, quietly, like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _expand(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).rglob("*") if f.is_file() and not f.name.startswith("."))
            if not found:
                raise _fail(f"{p}: directory holds no files")
            out.extend(found)
        else:
            out.append(p)
    return out


@app.command()
def explain(
    files: Annotated[Optional[list[str]], typer.Argument(
        help="Log files or directories; '-' or nothing reads standard input.", show_default=False)] = None,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    min_confidence: Annotated[float, typer.Option(
        "--min-confidence", min=0.0, max=1.0, help="Below this, abstain and list candidates.")] = 0.3,
    patterns_only: Annotated[bool, typer.Option(
        "--patterns-only", help="Use the regex patterns alone, not the classifier.")] = False,
    kb: KbOption = None,
    tee: Annotated[bool, typer.Option(
        "--tee", help="Pass the log through to standard output unchanged, then print the diagnosis.")] = False,
    summary: Annotated[bool, typer.Option("--summary", help="For many logs: one table of counts per signature.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Parallel workers for many logs (0: all cores).")] = 1,
    model: Annotated[Optional[Path], typer.Option(
        "--model", help="ONNX model to probe, confirming or refuting the diagnosis.")] = None,
    rebuild: Annotated[bool, typer.Option(
        "--rebuild", help="With --model: rebuild (tensorrt, tensorrt-rtx or trtexec, where present) and compare.")] = False,
    rebuild_with: RebuildOption = None,
    trt_flag: Annotated[Optional[list[str]], typer.Option(
        "--trt-flag", help="A trtexec flag for --rebuild, e.g. --trt-flag=--fp16 (repeatable).")] = None,
    gpu: Annotated[bool, typer.Option("--gpu/--no-gpu", help="With --model: probe the local GPU too.")] = True,
    colour: Annotated[Optional[bool], typer.Option("--colour/--no-colour", "--color/--no-color",
                                                   help="Colour the text report (default: when a terminal).")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show references and candidates for every diagnosis.")] = False,
) -> None:
    """Explain a TensorRT log: `trtexec ... 2>&1 | trtdoctor explain`."""
    from trtdoctor import api
    from trtdoctor.kb.load import KnowledgeBaseError
    from trtdoctor.render import render

    inputs = _expand(files or ["-"])
    if tee and inputs != ["-"]:
        raise _fail("--tee reads standard input only")
    use_colour = sys.stdout.isatty() if colour is None else colour
    try:
        api.knowledge_base(kb or ())
    except KnowledgeBaseError as exc:
        raise _fail(f"knowledge base: {exc}") from None

    options = dict(kb_dirs=kb or (), min_confidence=min_confidence, classifier=not patterns_only)
    if len(inputs) == 1 and not summary:
        try:
            if tee:
                from trtdoctor.run import tee_stdin

                report = tee_stdin(**options)
            elif inputs[0] == "-":
                report = api.explain_stream(sys.stdin.buffer, source="<stdin>", **options)
            else:
                report = api.explain(Path(inputs[0]), **options)
        except api.InputError as exc:
            raise _fail(str(exc)) from None
        if model is not None:
            from trtdoctor.confirm import confirm_report

            confirm_report(report, model, kb_dirs=kb or (), gpu=gpu, rebuild=rebuild or rebuild_with is not None,
                           flags=trt_flag or (), backend=rebuild_with.value if rebuild_with else None)
        elif rebuild or rebuild_with is not None:
            raise _fail("--rebuild needs --model: the ONNX model to rebuild")
        _write(render(report, format.value, colour=use_colour, verbose=verbose))
        raise typer.Exit(report.exit_code)

    from trtdoctor.batch import explain_many, render_summary, summarise_many

    if summary:  # counts only: memory stays flat however many logs there are
        data, errors, diagnosed = summarise_many(inputs, jobs=jobs, **options)
        for error in errors:
            typer.echo(f"trtdoctor: {error}", err=True)
        _write(render_summary(data, format.value))
        if errors:
            raise typer.Exit(EXIT_BAD_INPUT)
        raise typer.Exit(EXIT_DIAGNOSED if diagnosed else EXIT_UNKNOWN)

    results = explain_many(inputs, jobs=jobs, **options)
    bad = 0
    diagnosed = 0
    for path, report, error in results:
        if error is not None:
            typer.echo(f"trtdoctor: {error}", err=True)
            bad += 1
            continue
        diagnosed += bool(report.diagnoses)
        if not summary:
            _write(render(report, format.value, colour=use_colour, verbose=verbose) + "\n")
    if summary:
        _write(render_summary([r for _, r, e in results if e is None], format.value))
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_DIAGNOSED if diagnosed else EXIT_UNKNOWN)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    command: Annotated[list[str], typer.Argument(help="The build command and its arguments, after '--'.")],
    log: Annotated[Optional[Path], typer.Option("--log", help="Keep the command's output here.")] = None,
    format: Annotated[Format, typer.Option("--format", "-f", help="Format of the diagnosis.")] = Format.text,
    patterns_only: Annotated[bool, typer.Option("--patterns-only", help="Patterns alone, no classifier.")] = False,
    kb: KbOption = None,
) -> None:
    """Run a build command (no shell), stream its output, diagnose it if it fails; keep its exit code.

    Example: trtdoctor run -- trtexec --onnx=model.onnx --fp16
    """
    from trtdoctor import api
    from trtdoctor.render import render
    from trtdoctor.run import run as run_command

    try:
        code, report, kept = run_command(command, log_path=str(log) if log else None, kb_dirs=kb or (),
                                         classifier=not patterns_only)
    except api.InputError as exc:
        raise _fail(str(exc), 127) from None
    if report is not None:
        _write("")
        _write(render(report, format.value, colour=sys.stdout.isatty()))
    if code != 0:
        typer.echo(f"trtdoctor: the command exited with {code}; its output is kept in {kept}", err=True)
    raise typer.Exit(code)


@app.command()
def confirm(
    model: Annotated[Path, typer.Argument(help="The ONNX model to probe.")],
    tensorrt: Annotated[Optional[str], typer.Option(
        "--tensorrt", help="TensorRT version to check the model against, e.g. 8.6.1.")] = None,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format (text or json).")] = Format.text,
    gpu: Annotated[bool, typer.Option("--gpu/--no-gpu", help="Probe the local GPU too.")] = True,
    rebuild: Annotated[bool, typer.Option(
        "--rebuild", help="Rebuild with tensorrt, tensorrt-rtx or trtexec, where present.")] = False,
    rebuild_with: RebuildOption = None,
    trt_flag: Annotated[Optional[list[str]], typer.Option("--trt-flag", help="A trtexec flag for --rebuild.")] = None,
) -> None:
    """Probe a model (and the GPU) for the structures behind known failures, without a log."""
    import json
    import re

    from trtdoctor import versions
    from trtdoctor.confirm import CONFIRMED, confirm as run_confirm
    from trtdoctor.confirm.model import ModelError

    if tensorrt is not None and not re.fullmatch(r"\d+(\.\d+){0,3}", tensorrt):
        raise _fail(f"--tensorrt {tensorrt!r}: give a version like 8.6.1")
    try:
        result = run_confirm(model, tensorrt=versions.parse(tensorrt) if tensorrt else None, gpu=gpu,
                             rebuild=rebuild or rebuild_with is not None, flags=trt_flag or (),
                             backend=rebuild_with.value if rebuild_with else None)
    except ModelError as exc:
        raise _fail(str(exc)) from None
    found = [f for f in result.findings if f.outcome == CONFIRMED]
    if format is Format.json:
        _write(json.dumps(result.to_dict(), indent=2))
    else:
        for f in result.findings:
            nodes = f"  [{', '.join(f.nodes[:5])}{' …' if len(f.nodes) > 5 else ''}]" if f.nodes else ""
            _write(f"{f.outcome:<15} {f.probe:<26} {f.detail}{nodes}")
        if result.rebuild is not None:
            rb = result.rebuild
            _write(f"rebuild: {rb.reason}" + (f" (exit code {rb.exit_code})" if rb.ran else ""))
            if rb.ran:
                if rb.exit_code == 0 and rb.diagnosis is None:
                    _write(f"the build succeeded on {rb.backend}")
                elif rb.diagnosis is not None:
                    _write(f"the build failed on {rb.backend}: {rb.diagnosis}")
                else:
                    _write(f"the build failed on {rb.backend}; no known cause in its log")
                for limit in rb.limits:
                    _write(f"cannot reproduce: {limit}")
        if not found:
            _write("no findings: none of the probed structures is present")
    raise typer.Exit(EXIT_DIAGNOSED if found else EXIT_UNKNOWN)


@kb_app.command("list")
def kb_list(kb: KbOption = None,
            category: Annotated[Optional[str], typer.Option(help="Only this category.")] = None,
            tag: Annotated[Optional[list[str]], typer.Option(
                help="Only signatures with this tag or tool (repeatable: all must hold; case does not matter).",
                show_default=False)] = None) -> None:
    """List the signatures."""
    from trtdoctor import api
    from trtdoctor.kb.load import KnowledgeBaseError

    try:
        knowledge, _ = api.knowledge_base(kb or ())
    except KnowledgeBaseError as exc:
        raise _fail(f"knowledge base: {exc}") from None
    for sig in sorted(knowledge.signatures, key=lambda s: (s.category, s.id)):
        if category and sig.category != category:
            continue
        if tag and not all(sig.has_tag(t) for t in tag):
            continue
        _write(f"{sig.category:<12} {sig.kind:<12} {sig.id:<40} {sig.title}")


@kb_app.command("show")
def kb_show(signature_id: Annotated[str, typer.Argument(help="Signature id.")], kb: KbOption = None) -> None:
    """Show a signature file."""
    from trtdoctor import api
    from trtdoctor.kb.load import KnowledgeBaseError

    try:
        knowledge, _ = api.knowledge_base(kb or ())
    except KnowledgeBaseError as exc:
        raise _fail(f"knowledge base: {exc}") from None
    sig = knowledge.get(signature_id)
    if sig is None:
        raise _fail(f"no signature {signature_id!r}; see 'trtdoctor kb list'")
    _write(Path(sig.path).read_text(encoding="utf-8"))


@kb_app.command("check")
def kb_check(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Signature files or directories (default: the bundled knowledge base).", show_default=False)] = None,
    corpus: Annotated[Optional[Path], typer.Option(
        help="Corpus directory with <id>/ example folders and negative/ (default: corpus/ beside the kb).")] = None,
    only: Annotated[Optional[list[str]], typer.Option(
        "--only", help="Check only this signature (repeatable); the rest of the knowledge base is still loaded.",
        show_default=False)] = None,
    changed_since: Annotated[Optional[str], typer.Option(
        "--changed-since", metavar="REF", help="Check only the signatures whose file or corpus folder differs "
        "from this git ref (as the pull-request workflow does).", show_default=False)] = None,
    pool: Annotated[Optional[list[Path]], typer.Option(
        "--pool", help="Extra directory of clean logs (repeatable) on which no error pattern may fire, "
        "besides corpus/negative/.", show_default=False)] = None,
) -> None:
    """The contributor's gate: schema, safe regexes, real examples, look-alikes, tool scope, no pattern
    claiming others' logs or clean logs."""
    from trtdoctor.kbtools.check import check
    from trtdoctor.kb.load import bundled_dir

    targets = paths or [bundled_dir()]
    for t in targets:
        if not t.exists():
            raise _fail(f"{t}: no such file or directory")
    for d in pool or ():
        if not d.exists():
            raise _fail(f"{d}: no such file or directory")
    base = targets[0] if targets[0].is_dir() else targets[0].parent
    corpus_dir = corpus or next((c for c in (base / "corpus", base.parent / "corpus") if c.is_dir()),
                                base.parent / "corpus")
    selected: Optional[list[str]] = list(only) if only else None
    if changed_since:
        from trtdoctor.kb.load import signature_files
        from trtdoctor.kbtools.changed import GitError, changed_signatures

        files = [f for t in targets for f in (signature_files([t]) if t.is_dir() else [t])]
        try:
            known = {f.stem for f in files}
            changed = changed_signatures(changed_since, base, corpus_dir, known)
        except (GitError, ValueError) as exc:
            raise _fail(f"--changed-since {changed_since}: {exc}") from None
        selected = sorted(set(selected or ()) | set(changed))
        if not selected:
            typer.echo(f"kb check: no signature changed since {changed_since}")
            raise typer.Exit(0)
        typer.echo(f"kb check: changed since {changed_since}: {', '.join(selected)}")
    result = check(targets, corpus_dir, only=selected, pool=pool or ())
    for problem in result.problems:
        typer.echo(str(problem))
    status = "ok" if result.ok else plural(len(result.problems), "problem")
    typer.echo(f"kb check: {plural(result.signatures, 'signature')}, {plural(result.examples, 'example')}, "
               f"{plural(result.negatives, 'negative log')}: {status}", err=not result.ok)
    raise typer.Exit(0 if result.ok else 1)


@kb_app.command("docs")
def kb_docs(
    kb_dir: Annotated[Optional[Path], typer.Option("--dir", help="Knowledge-base directory (default: the bundled one).",
                                                   show_default=False)] = None,
    corpus: Annotated[Optional[Path], typer.Option(help="Corpus directory (default: corpus/ beside the kb).",
                                                   show_default=False)] = None,
    out: Annotated[Path, typer.Option(help="Where the pages go.")] = Path("docs/signatures"),
    check_only: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 naming the pages that "
                                             "differ from the signature files.")] = False,
) -> None:
    """Generate the error index: one page per signature and an index by category and tag."""
    from trtdoctor.kb.load import KnowledgeBaseError, bundled_dir
    from trtdoctor.kbtools.docs import generate, stale, write

    source = kb_dir or bundled_dir()
    corpus_dir = corpus or next((c for c in (source / "corpus", source.parent / "corpus") if c.is_dir()),
                                source.parent / "corpus")
    try:
        pages = generate(source, corpus_dir, out)
    except KnowledgeBaseError as exc:
        raise _fail(f"knowledge base: {exc}") from None
    if check_only:
        problems = stale(pages, out)
        for problem in problems:
            typer.echo(problem)
        if problems:
            typer.echo("kb docs: stale; run 'python scripts/gen_docs.py' (or 'trtdoctor kb docs')", err=True)
            raise typer.Exit(1)
        typer.echo(f"kb docs: {plural(len(pages), 'page')} up to date")
        return
    written = write(pages, out)
    typer.echo(f"kb docs: {plural(len(pages), 'page')} in {out}, {len(written)} rewritten")


@kb_app.command("new")
def kb_new(
    signature_id: Annotated[str, typer.Argument(help="New signature id: lowercase words joined by '-'.")],
    kb_dir: Annotated[Path, typer.Option("--dir", help="Knowledge-base directory to write into.")] = Path("kb"),
    corpus: Annotated[Path, typer.Option(help="Corpus directory.")] = Path("corpus"),
) -> None:
    """Scaffold a signature file and its corpus folder, every field explained."""
    from trtdoctor.kbtools.scaffold import scaffold

    try:
        written = scaffold(signature_id, kb_dir, corpus)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo("Next: paste a real log into the corpus folder, fill in every field, run 'trtdoctor kb check'.")


@kb_app.command("train")
def kb_train(kb: KbOption = None) -> None:
    """Train the classifier from the corpus and the signatures. For the bundled signatures alone, write it and
    the compiled knowledge base into the package (trtdoctor/_model/, which ships: run this after changing kb/ or
    corpus/); with --kb or $TRTDOCTOR_KB, cache it keyed by a hash of the knowledge base and the corpus (explain
    also trains it on first need)."""
    import time

    from trtdoctor import api, train
    from trtdoctor.kb.load import KnowledgeBaseError, compile_files, kb_dirs, signature_files, write_shipped_kb

    try:
        knowledge, _ = api.knowledge_base(kb or ())
    except KnowledgeBaseError as exc:
        raise _fail(f"knowledge base: {exc}") from None
    ship = len(kb_dirs(kb or ())) == 1
    start = time.perf_counter()
    if ship:  # compiled afresh, not from a cache, since it ships
        files = signature_files(kb_dirs())
        contents = [f.read_bytes() for f in files]
        from trtdoctor.kb.load import _key

        knowledge = compile_files(files, contents, _key(files, contents))
        _write(f"compiled {plural(len(knowledge.signatures), 'signature')} into {write_shipped_kb(knowledge)}")
    model, docs, path = train.train(knowledge, ship=ship)
    logs = sum(1 for d in docs if not d.group.startswith("kb:"))
    _write(f"trained on {plural(logs, 'corpus log')} and {plural(len(docs) - logs, 'signature text')}, "
           f"{plural(len(model.classes), 'label')}, in {time.perf_counter() - start:.1f} s; "
           f"{'written to' if ship and path == train.shipped_path() else 'cached at'} {path}")


@kb_app.command("schema")
def kb_schema() -> None:
    """Print the JSON Schema of a signature file (kb/signature.schema.json is this output)."""
    from trtdoctor.kb.schema import json_schema

    _write(json_schema())


def main() -> None:
    app()


if __name__ == "__main__":
    main()

