"""The knowledge base in the form the explain path uses: plain, frozen data, cheap to load (no slots:
they double the cost of defining each class, which every run pays, and save nothing on a few hundred objects).

It is built from validated signature files (``trtdoctor.kb.load``) and cached as JSON, so explaining a
log needs neither PyYAML nor pydantic.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class EvidenceSpec:
    says: str
    test: str               # 'expr' | 'line' | 'no_line' | 'tensorrt' | 'probe' | 'no_probe'
    value: str
    literals: tuple[str, ...] = ()
    required: bool = False
    # A 'line' test whose literals are not selective (an operator's name; many lines of the reference verbose
    # log): the scanner reads its lines only just before the lines it selects, not across the whole log.
    context: bool = False


@dataclass(frozen=True)
class PatternSpec:
    regex: str
    confidence: float
    literals: tuple[str, ...]
    unless: tuple[EvidenceSpec, ...] = ()    # 'line' tests: any that holds makes the match not count
    requires: tuple[EvidenceSpec, ...] = ()  # 'line' tests: unless one holds, the match does not count
    verbose: bool = False                    # whether a match on a VERBOSE-level line counts


def _evidence(e: dict[str, Any]) -> EvidenceSpec:
    return EvidenceSpec(e["says"], e["test"], e["value"], tuple(e["literals"]), e["required"], e.get("context", False))


@dataclass(frozen=True)
class CauseSpec:
    id: str
    title: str
    cause: str
    remedy: tuple[str, ...]
    when: tuple[EvidenceSpec, ...]
    caveats: tuple[str | None, ...] = ()     # beside remedy, one per step: what the step costs, or None


@dataclass(frozen=True)
class Signature:
    id: str
    title: str
    category: str
    kind: str
    message: str
    patterns: tuple[PatternSpec, ...]
    affected: str | None
    fixed_in: str | None
    cause: str
    remedy: tuple[str, ...]
    causes: tuple[CauseSpec, ...]
    probes: tuple[str, ...]
    references: tuple[str, ...]
    outranks: tuple[str, ...] = ()
    path: str = ""
    caveats: tuple[str | None, ...] = ()     # beside remedy, one per step: what the step costs, or None
    tools: tuple[str, ...] = ()              # the tools it applies to; empty: any
    tags: tuple[str, ...] = ()
    lookalikes: tuple[str, ...] = ()         # lines its patterns must not match (checked by kb check)

    def has_tag(self, tag: str) -> bool:
        """Tags compare without case; a signature's tools count as tags too."""
        wanted = tag.lower()
        return any(t.lower() == wanted for t in (*self.tags, *self.tools))


@dataclass(frozen=True)
class KnowledgeBase:
    signatures: tuple[Signature, ...]
    key: str = ""
    by_id: dict[str, Signature] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id.update({s.id: s for s in self.signatures})

    def get(self, signature_id: str) -> Signature | None:
        return self.by_id.get(signature_id)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "signatures": [asdict(s) for s in self.signatures]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "KnowledgeBase":
        """``base``, where present, is the directory of signature files whose names the paths are."""
        base = data.get("base")
        sigs = []
        for s in data["signatures"]:
            sigs.append(Signature(
                id=s["id"], title=s["title"], category=s["category"], kind=s["kind"], message=s["message"],
                patterns=tuple(PatternSpec(p["regex"], p["confidence"], tuple(p["literals"]),
                                           tuple(_evidence(e) for e in p.get("unless", ())),
                                           tuple(_evidence(e) for e in p.get("requires", ())),
                                           p.get("verbose", False))
                               for p in s["patterns"]),
                affected=s["affected"], fixed_in=s["fixed_in"], cause=s["cause"], remedy=tuple(s["remedy"]),
                causes=tuple(CauseSpec(c["id"], c["title"], c["cause"], tuple(c["remedy"]),
                                       tuple(_evidence(e) for e in c["when"]), tuple(c.get("caveats", ())))
                             for c in s["causes"]),
                probes=tuple(s["probes"]), references=tuple(s["references"]),
                outranks=tuple(s["outranks"]), path=f"{base}/{s['path']}" if base else s["path"],
                caveats=tuple(s.get("caveats", ())), tools=tuple(s.get("tools", ())), tags=tuple(s.get("tags", ())),
                lookalikes=tuple(s.get("lookalikes", ()))))
        return cls(tuple(sigs), data["key"])
