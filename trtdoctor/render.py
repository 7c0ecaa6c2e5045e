"""Reports as text for a terminal, Markdown for a bug report, JSON for tools, annotations for CI."""

from __future__ import annotations

import json
import textwrap

from trtdoctor.diagnose import CONSEQUENCE_ONLY, CauseResult, Diagnosis
from trtdoctor.report import Report, plural

FORMATS = ("text", "json", "markdown", "github")


class _Style:
    def __init__(self, colour: bool):
        self.on = colour

    def _w(self, code: str, s: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if self.on else s

    def bold(self, s: str) -> str:
        return self._w("1", s)

    def red(self, s: str) -> str:
        return self._w("1;31", s)

    def yellow(self, s: str) -> str:
        return self._w("33", s)

    def dim(self, s: str) -> str:
        return self._w("2", s)

    def green(self, s: str) -> str:
        return self._w("32", s)


def render(report: Report, fmt: str = "text", *, colour: bool = False, verbose: bool = False) -> str:
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)
    if fmt == "markdown":
        return _markdown(report)
    if fmt == "github":
        return _github(report)
    return _text(report, _Style(colour), verbose)


def _wrap(text: str, indent: str, width: int = 100) -> str:
    paras = [p for p in text.strip().split("\n\n") if p.strip()]
    return "\n\n".join(textwrap.fill(" ".join(p.split()), width=width, initial_indent=indent,
                                     subsequent_indent=indent) for p in paras)


def _confidence(d: Diagnosis) -> str:
    return f"{d.confidence:.0%} ({d.decided_by})"


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _rebuild_lines(rebuilt: dict, status: dict, s: _Style) -> list[str]:
    if not rebuilt.get("ran"):
        return [f"{s.bold('Rebuild')}: {rebuilt.get('reason', 'not run')}"]
    how = [f"ran on {rebuilt['backend']}"]
    if rebuilt.get("flags"):
        how.append("flags " + " ".join(rebuilt["flags"]))
    if rebuilt.get("shapes"):
        how.append("shapes " + ", ".join(f"{k} {'/'.join('x'.join(map(str, d)) for d in v)}"
                                         for k, v in rebuilt["shapes"].items()))
    lines = [f"{s.bold('Rebuild')}: {', '.join(how)} (exit code {rebuilt.get('exit_code')})"]
    if rebuilt.get("verdict"):
        lines.append(f"  {rebuilt['verdict']}")
    if rebuilt.get("ignored"):
        lines.append(s.dim(f"  not applied on this backend: {' '.join(rebuilt['ignored'])}"))
    for limit in rebuilt.get("limits") or []:
        lines.append(s.dim(f"  cannot reproduce: {limit}"))
    if status:
        lines.append("  status: " + ", ".join(f"{k} {v}" for k, v in status.items()))
    return lines


def _text(report: Report, s: _Style, verbose: bool) -> str:
    out: list[str] = []
    facts = report.facts
    context = [plural(report.lines, "line")]
    if facts.tensorrt:
        context.append("TensorRT " + ".".join(map(str, facts.tensorrt)))
    if facts.tool:
        context.append(facts.tool)
    if facts.gpu:
        context.append(facts.gpu)
    out.append(s.dim(f"trtdoctor: {report.source}: " + ", ".join(context)))
    if not report.diagnoses:
        failed = next((c for c in report.candidates if c.why == CONSEQUENCE_ONLY), None)
        if failed is not None:
            out.append(s.yellow(f"The build failed (line {failed.line}: {failed.title.rstrip('.')}), but the log does "
                                "not show why: the cause is earlier in the log or was not captured (rerun with "
                                "--verbose and keep the whole log)."))
        else:
            out.append(s.yellow("No known TensorRT failure matched this log."))
        if report.candidates:
            out.append("Closest candidates:")
            for c in report.candidates[:5]:
                out.append(f"  {c.confidence:4.0%}  {c.id}: {c.title}  {s.dim('(' + c.why + ')')}")
        if report.error_lines:
            out.append("Error lines in the log that no signature recognises:")
            for e in report.error_lines[:6]:
                out.append(f"  {e.line:>7} | {_clip(e.text)}")
        out.append(s.dim("If this is a TensorRT failure, see CONTRIBUTING.md to add its signature."))
    for i, d in enumerate(report.diagnoses):
        if i:
            out.append("")
            out.append(s.dim("Also found:"))
        out.append(s.red(f"✖ {d.title}") + s.dim(f"  [{d.id}, {d.category}, confidence {_confidence(d)}]"))
        selected = d.selected_cause
        if selected:
            label = _cause_label(selected)
            out.append(f"  {s.bold(label)}: {selected.title}")
        out.append(f"  {s.bold('Evidence')}:")
        for e in d.evidence:
            tag = {"node": " (node)", "consequence": " (consequence)", "cause-evidence": " (selects the cause)"}
            out.append(f"    {e.line:>7} | {_clip(e.text)}{s.dim(tag.get(e.role, ''))}")
        if d.repeats:
            out.append(s.dim(f"            … and {d.repeats} more lines like these"))
        if d.facts:
            shown = ", ".join(f"{k}={v}" for k, v in d.facts.items())
            out.append(f"    {s.dim('captured:')} {_clip(shown, 200)}")
        if d.causes:
            for c in d.causes:
                mark = "→" if c.selected else ("✗" if c.ruled_out else "·")
                out.append(f"    {mark} {c.title}")
                for check in c.checks:
                    sign = {True: s.green("yes"), False: "no", None: s.dim("not shown")}[check.holds]
                    if check.required and check.holds is None:
                        sign += s.dim(" (needed)")
                    out.append(f"        {sign}: {check.says}")
        out.append(f"  {s.bold('Why')}:")
        out.append(_wrap(d.cause, "    "))
        out.append(f"  {s.bold('What to do')}:")
        for n, (step, caveat) in enumerate(d.steps, 1):
            out.append(textwrap.fill(" ".join(step.split()), width=100, initial_indent=f"    {n}. ",
                                     subsequent_indent="       "))
            if caveat:
                out.append(s.yellow(textwrap.fill(" ".join(caveat.split()), width=100, initial_indent="       Cost: ",
                                                  subsequent_indent="             ")))
        out.append(f"  {s.bold('Versions')}: {d.advice}")
        if d.probes:
            out.append(f"  {s.bold('Checked')}:")
            for p in d.probes:
                out.append(f"    {p['outcome']}: {p['probe']} — {p.get('detail', '')}")
        if d.followed_by:
            out.append(s.dim(f"  Then: {', '.join(d.followed_by)} (consequences of this error)"))
        if verbose or i == 0:
            out.append(f"  {s.bold('References')}: " + "  ".join(d.references[:3]))
    if report.notes:
        out.append("")
        out.append(s.dim("Notes (warnings, not causes on their own):"))
        for note in report.notes:
            times = f" (×{note.count})" if note.count > 1 else ""
            after = f"; harmless here: the build succeeded afterwards (line {report.facts.succeeded_line})" \
                if note.recovered else ""
            out.append(s.dim(f"  line {note.line}: {note.title}{times}{after}"))
    if report.confirmation and not any(d.probes for d in report.diagnoses):
        out.append("")
        out.append(s.dim(f"Confirmation: {report.confirmation.get('summary', '')}"))
    rebuilt = (report.confirmation or {}).get("rebuild")
    if rebuilt:
        out.append("")
        out.extend(_rebuild_lines(rebuilt, report.confirmation.get("status", {}), s))
    if report.diagnoses and report.candidates and verbose:
        out.append(s.dim("Other candidates: " + ", ".join(f"{c.id} ({c.confidence:.0%})" for c in report.candidates)))
    return "\n".join(out)


def _markdown(report: Report) -> str:
    out: list[str] = []
    facts = report.facts
    version = ".".join(map(str, facts.tensorrt)) if facts.tensorrt else "unknown"
    out.append(f"### trtdoctor: {report.diagnoses[0].title if report.diagnoses else 'no known failure matched'}")
    out.append("")
    out.append(f"- Log: `{report.source}`, {plural(report.lines, 'line')}; TensorRT {version}; tool {facts.tool or 'unknown'}"
               + (f"; GPU {facts.gpu}" if facts.gpu else ""))
    for d in report.diagnoses:
        out.append("")
        out.append(f"#### {d.title}")
        out.append(f"`{d.id}` · {d.category} · confidence {_confidence(d)}")
        selected = d.selected_cause
        if selected:
            label = _cause_label(selected)
            out.append(f"\n**{label}:** {selected.title}")
        out.append("\n**Evidence**\n")
        out.append("```")
        out.extend(f"{e.line:>7} | {e.text}" for e in d.evidence)
        out.append("```")
        out.append(f"\n**Why.** {' '.join(d.cause.split())}")
        out.append("\n**What to do**\n")
        out.extend(f"{n}. {' '.join(step.split())}" + (f" *Cost: {' '.join(caveat.split())}*" if caveat else "")
                   for n, (step, caveat) in enumerate(d.steps, 1))
        out.append(f"\n**Versions.** {d.advice}")
        out.append("\n**References:** " + ", ".join(d.references))
    if not report.diagnoses and report.candidates:
        out.append("\nClosest candidates: " + ", ".join(f"`{c.id}` ({c.confidence:.0%})" for c in report.candidates[:5]))
    return "\n".join(out)


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _github(report: Report) -> str:
    """GitHub Actions workflow commands: one ::error per diagnosis, ::warning per note."""
    out: list[str] = []
    f = _escape_prop(report.source)
    for d in report.diagnoses:
        first, caveat = d.steps[0] if d.steps else ("", None)
        msg = f"{d.title} ({d.id}, {d.confidence:.0%}). {first}" + (f" (Cost: {caveat})" if caveat else "")
        out.append(f"::error file={f},line={d.first_line},title={_escape_prop('trtdoctor: ' + d.id)}::{_escape_data(msg)}")
    for n in report.notes:
        out.append(f"::warning file={f},line={n.line},title={_escape_prop('trtdoctor: ' + n.id)}::{_escape_data(n.title)}")
    if not report.diagnoses:
        out.append(f"::notice file={f}::{_escape_data('trtdoctor: no known TensorRT failure matched')}")
    return "\n".join(out)


def _cause_label(selected: CauseResult) -> str:
    if not selected.ruled_out:
        return "Most likely cause"
    return ("Usual cause (the log's evidence fits none)" if selected.contradicted
            else "Usual cause (the log does not show which)")
