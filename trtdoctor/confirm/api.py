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
            shapes: Shapes | None = None) -> Confirmation:
    """Run the model probes (when a model is given), the GPU probes and, if asked, a rebuild.

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
            result.rebuild = do_rebuild(model, flags=flags, shapes=shapes)
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
        outcomes = {p["outcome"] for p in diag.probes}
        if CONFIRMED in outcomes:
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
        if confirmation.rebuild.ran and confirmation.rebuild.log.strip():
            fresh = _explain_text(confirmation.rebuild.log)
            fresh_top = fresh.diagnoses[0].id if fresh.diagnoses else None
            original = report.diagnoses[0].id if report.diagnoses else None
            if confirmation.rebuild.exit_code == 0 and not fresh.diagnoses:
                verdict = "the build succeeded here: the failure depends on the original machine or versions"
            elif fresh_top == original and original is not None:
                verdict = f"the rebuild fails the same way ({fresh_top}): reproduced"
                status[original] = CONFIRMED
            else:
                verdict = f"the rebuild fails differently ({fresh_top or 'no known failure'})"
            rebuild_info.update({"diagnosis": fresh_top, "verdict": verdict})
            summary.append(verdict)
    report.confirmation = {"status": status, "summary": "; ".join(summary), "rebuild": rebuild_info,
                           "findings": [f.to_dict() for f in confirmation.findings]}


def _explain_text(log: str) -> Any:
    import io

    return pipeline.run(read.chunks(io.BytesIO(log.encode("utf-8", "replace"))), source="<rebuild>",
                        knowledge=pipeline.knowledge_base())


def confirm_report(report: Any, model: str | os.PathLike[str] | None, **options: Any) -> None:
    """Probe and attach, using the TensorRT version the log shows (CLI helper)."""
    from trtdoctor.confirm.model import ModelError

    kb, _ = pipeline.knowledge_base(options.pop("kb_dirs", ()))
    try:
        result = confirm(model, tensorrt=report.facts.tensorrt, **options)
    except ModelError as exc:
        result = confirm(None, tensorrt=report.facts.tensorrt, **{k: v for k, v in options.items() if k == "gpu"})
        result.model_error = str(exc)
    attach(report, result, kb)
