"""Confirmation: run the probes that apply and mark each diagnosis confirmed, refuted or unchecked."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from trtdoctor import pipeline, read
from trtdoctor.confirm.findings import CONFIRMED, NOT_APPLICABLE, REFUTED, UNAVAILABLE, Finding
from trtdoctor.confirm.rebuild import Rebuild, Shapes


@dataclass
class Confirmation:
    findings: list[Finding] = field(default_factory=list)
    rebuild: Rebuild | None = None
    model_error: str | None = None

    def outcomes(self) -> dict[str, str]:
        return {f.probe: f.outcome for f in self.findings}

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [f.to_dict() for f in self.findings],
                "rebuild": self.rebuild.to_dict() if self.rebuild else None,
                "model_error": self.model_error}


def confirm(model: str | os.PathLike[str] | None = None, *, tensorrt: tuple[int, ...] | None = None,
            gpu: bool = True, onnxruntime: bool = True, rebuild: bool = False, flags: Sequence[str] = (),
            shapes: Shapes | None = None, backend: str | None = None, default_shapes: bool = False) -> Confirmation:
    """Run the model probes (when a model is given), the GPU probes and, if asked, a rebuild (on ``backend``,
    or the first of tensorrt, tensorrt-rtx and trtexec that is available).

    Raises ``trtdoctor.confirm.model.ModelError`` when the model file cannot be read as ONNX.
    """
    result = Confirmation()
    if model is not None:
        from trtdoctor.confirm.model import onnxruntime_check, probe_model

        result.findings.extend(probe_model(model, tensorrt))
        if onnxruntime:
            result.findings.append(onnxruntime_check(model))
    if gpu:
        from trtdoctor.confirm.gpu import probe_gpu

        result.findings.extend(probe_gpu())
    if rebuild:
        from trtdoctor.confirm.rebuild import rebuild as do_rebuild

        if model is None:
            result.rebuild = Rebuild(False, None, None, None, "", "no rebuild: no model was given")
        else:
            result.rebuild = do_rebuild(model, flags=flags, shapes=shapes, prefer=backend,
                                        default_shapes=default_shapes)
            if result.rebuild.ran and result.rebuild.log.strip():
                fresh = explain_log(result.rebuild.log)
                result.rebuild.diagnosis = fresh.diagnoses[0].id if fresh.diagnoses else None
    return result


def attach(report: Any, confirmation: Confirmation, kb: Any) -> None:
    """Mark each diagnosis with the findings of its probes, and summarise in ``report.confirmation``."""
    from trtdoctor.diagnose import reselect

    by_signature: dict[str, list[Finding]] = {}
    by_probe = {f.probe: f for f in confirmation.findings}
    for diag in report.diagnoses:
        sig = kb.get(diag.id)
        if sig is not None:
            reselect(diag, sig, confirmation.outcomes())
    for f in confirmation.findings:
        if f.signature:
            by_signature.setdefault(f.signature, []).append(f)
    for diag in report.diagnoses:
        sig = kb.get(diag.id)
        wanted = list(sig.probes) if sig is not None else []
        relevant = [by_probe[p] for p in wanted if p in by_probe]
        relevant += [f for f in by_signature.get(diag.id, []) if f not in relevant]
        diag.probes = [f.to_dict() for f in relevant]
    status = {}
    for diag in report.diagnoses:
        # Only a finding that tests the diagnosis' own condition may refute it; one that tests a single
        # candidate cause rules out that cause (in reselect above), never the signature.
        outcomes = {p["outcome"] for p in diag.probes if not p.get("cause")}
        if CONFIRMED in {p["outcome"] for p in diag.probes}:
            status[diag.id] = CONFIRMED
        elif outcomes and outcomes <= {REFUTED, NOT_APPLICABLE} and REFUTED in outcomes:
            status[diag.id] = REFUTED
        else:
            status[diag.id] = "unchecked"
    summary = []
    if confirmation.model_error:
        summary.append(f"the model could not be probed: {confirmation.model_error}")
    confirmed = [f.probe for f in confirmation.findings if f.outcome == CONFIRMED]
    summary.append(f"{len(confirmation.findings)} probes run, confirmed: {', '.join(confirmed) or 'none'}")
    unavailable = [f"{f.probe} ({f.detail})" for f in confirmation.findings if f.outcome == UNAVAILABLE]
    if unavailable:
        summary.append("not run: " + "; ".join(unavailable))
    rebuild_info = None
    if confirmation.rebuild is not None:
        rebuild_info = confirmation.rebuild.to_dict()
        summary.append(confirmation.rebuild.reason)
        if confirmation.rebuild.ran:
            verdict, outcome, fresh_top = compare_rebuild(report, confirmation.rebuild, kb)
            original = report.diagnoses[0].id if report.diagnoses else None
            if original is not None and outcome == CONFIRMED:
                status[original] = CONFIRMED
            elif original is not None and outcome == REFUTED and status.get(original) != CONFIRMED:
                status[original] = REFUTED
            rebuild_info.update({"diagnosis": fresh_top, "outcome": outcome, "verdict": verdict})
            summary.append(verdict)
    report.confirmation = {"status": status, "summary": "; ".join(summary), "rebuild": rebuild_info,
                           "findings": [f.to_dict() for f in confirmation.findings]}


def compare_rebuild(report: Any, rebuilt: Rebuild, kb: Any) -> tuple[str, str, str | None]:
    """(verdict, outcome, the rebuilt log's top diagnosis): CONFIRMED when the rebuild fails with the
    diagnosed signature, REFUTED when it succeeds or fails for another cause, NOT_APPLICABLE when the
    backend cannot reproduce a failure of that kind at all."""
    fresh_top = rebuilt.diagnosis
    original = report.diagnoses[0] if report.diagnoses else None
    where = f"on {rebuilt.backend}"
    if original is not None and fresh_top == original.id:
        return f"the rebuild {where} fails the same way ({fresh_top}): reproduced", CONFIRMED, fresh_top
    if original is not None and rebuilt.limits and original.category in ("runtime", "environment"):
        return (f"a rebuild {where} cannot reproduce a {original.category} failure ({original.id}): "
                f"{rebuilt.limits[-1]}", NOT_APPLICABLE, fresh_top)
    if rebuilt.exit_code == 0 and fresh_top is None:
        verdict = f"the build succeeded {where}: the failure does not reproduce there"
        if original is not None and rebuilt.limits:
            verdict += f" ({rebuilt.limits[0]})"
        elif original is not None:
            verdict += "; it depends on the original machine, TensorRT version or flags"
        return verdict, REFUTED if original is not None else NOT_APPLICABLE, None
    if original is None:
        return f"the rebuild {where} fails ({fresh_top or 'no known failure'})", NOT_APPLICABLE, fresh_top
    return (f"the rebuild {where} fails differently ({fresh_top or 'no known failure'}), not with "
            f"{original.id}", REFUTED, fresh_top)


def explain_log(log: str) -> Any:
    """The report for a rebuilt log (bundled knowledge base, patterns only: the comparison must not rest
    on a guess)."""
    import io

    return pipeline.run(read.chunks(io.BytesIO(log.encode("utf-8", "replace"))), source="<rebuild>",
                        knowledge=pipeline.knowledge_base())


def confirm_report(report: Any, model: str | os.PathLike[str] | None, **options: Any) -> None:
    """Probe and attach, using the TensorRT version the log shows; a rebuild takes its flags and shapes
    from the log's own trtexec command line unless they are given."""
    from trtdoctor.confirm.model import ModelError
    from trtdoctor.confirm.rebuild import from_command

    kb, _ = pipeline.knowledge_base(options.pop("kb_dirs", ()))
    if options.get("rebuild"):
        flags, shapes = from_command(report.facts.command)
        if not options.get("flags"):
            options["flags"] = flags
        if not options.get("shapes"):
            options["shapes"] = shapes
        options.setdefault("default_shapes", report.facts.tool == "trtexec")
    try:
        result = confirm(model, tensorrt=report.facts.tensorrt, **options)
    except ModelError as exc:
        result = confirm(None, tensorrt=report.facts.tensorrt, **{k: v for k, v in options.items() if k == "gpu"})
        result.model_error = str(exc)
    attach(report, result, kb)
