"""The report: what the explain step returns, and the stable JSON it serialises to.

``Report.to_dict()`` *is* the JSON report (``docs/report-schema.md`` documents it). Fields are only
ever added, never renamed or removed, within a ``schema`` version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trtdoctor._version import __version__
from trtdoctor.diagnose import Candidate, Diagnosis, EvidenceLine, Note
from trtdoctor.facts import LogFacts

SCHEMA = 1

EXIT_DIAGNOSED = 0
EXIT_UNKNOWN = 1
EXIT_BAD_INPUT = 2


@dataclass
class Report:
    source: str
    lines: int
    bytes: int
    facts: LogFacts
    diagnoses: list[Diagnosis]
    candidates: list[Candidate] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    error_lines: list[EvidenceLine] = field(default_factory=list)  # error-looking lines no signature claimed
    matcher: str = "patterns"        # which matchers ran: 'patterns' or 'patterns+classifier'
    confirmation: dict[str, Any] | None = None

    @property
    def diagnosed(self) -> bool:
        return bool(self.diagnoses)

    @property
    def top(self) -> Diagnosis | None:
        return self.diagnoses[0] if self.diagnoses else None

    @property
    def exit_code(self) -> int:
        return EXIT_DIAGNOSED if self.diagnoses else EXIT_UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        facts = self.facts
        return {
            "trtdoctor": __version__,
            "schema": SCHEMA,
            "input": {
                "source": self.source, "lines": self.lines, "bytes": self.bytes,
                "tensorrt": facts.to_dict()["tensorrt"], "tool": facts.tool, "command": facts.command,
                "gpu": facts.gpu, "compute_capability": facts.compute_capability, "driver": facts.driver,
                "cuda": facts.cuda,
            },
            "matcher": self.matcher,
            "diagnoses": [d.to_dict() for d in self.diagnoses],
            "candidates": [c.to_dict() for c in self.candidates],
            "notes": [n.to_dict() for n in self.notes],
            "error_lines": [e.to_dict() for e in self.error_lines],
            "confirmation": self.confirmation,
        }


def plural(n: int, noun: str) -> str:
    """'1 line', '2 lines'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
