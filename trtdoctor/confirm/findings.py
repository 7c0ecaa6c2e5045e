"""The plain data a probe returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CONFIRMED = "confirmed"          # the structure or condition behind the signature is present
REFUTED = "refuted"              # it was checked and is absent
NOT_APPLICABLE = "not-applicable"  # the probe has nothing to check in this input
UNAVAILABLE = "unavailable"      # the probe could not run here (no onnx, no GPU, no TensorRT...)
OUTCOMES = (CONFIRMED, REFUTED, NOT_APPLICABLE, UNAVAILABLE)


@dataclass(frozen=True)
class Finding:
    probe: str
    signature: str | None
    outcome: str
    detail: str
    nodes: tuple[str, ...] = ()    # node names only; what is wrong with them belongs in ``detail``
    data: dict[str, Any] = field(default_factory=dict)
    cause: str | None = None       # the candidate cause this probe tests, when it tests one cause only

    def to_dict(self) -> dict[str, Any]:
        return {"probe": self.probe, "signature": self.signature, "cause": self.cause, "outcome": self.outcome,
                "detail": self.detail, "nodes": list(self.nodes), "data": self.data}
