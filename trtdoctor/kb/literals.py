"""The literal text every match of a regex must contain.

The scanner looks for these literals first, with one fast multi-literal search over the whole log,
and runs the full regexes only on the few lines that contain one. So every pattern must have one:
a run of at least ``MIN_LITERAL`` plain characters that no match can avoid, or a set of such runs
(one per branch of an alternation).
"""

from __future__ import annotations

try:  # Python 3.11+
    import re._constants as _c
    import re._parser as _p
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MIN_LITERAL = 4

Alternatives = tuple[str, ...]


class LiteralError(ValueError):
    pass


def _candidates(seq) -> list[Alternatives]:
    """Requirements of a parsed sequence: each is a set of alternatives, one of which must occur."""
    found: list[Alternatives] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            found.append(("".join(run),))
            run.clear()

    for op, av in seq:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        flush()
        if op is _c.SUBPATTERN:
            found.extend(_candidates(av[-1]))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and av[0] >= 1:
            found.extend(_candidates(av[2]))
        elif op is _c.BRANCH:
            alternatives: list[str] = []
            for branch in av[1]:
                best = _best(_candidates(branch))
                if best is None:
                    alternatives = []
                    break
                alternatives.extend(best)
            if alternatives:
                found.append(tuple(dict.fromkeys(alternatives)))
    flush()
    return found


def _best(found: list[Alternatives]) -> Alternatives | None:
    usable = [alts for alts in found if min(len(a) for a in alts) >= MIN_LITERAL]
    if not usable:
        return None
    # Longer text is rarer, so fewer lines pass the scan: prefer the longest shortest-alternative.
    return min(usable, key=lambda alts: (-min(len(a) for a in alts), len(alts)))


def required_literals(regex: str) -> Alternatives:
    """Return the alternatives one of which every match contains; raise LiteralError if none exists."""
    parsed = _p.parse(regex)
    if parsed.state.flags & _c.SRE_FLAG_IGNORECASE:
        raise LiteralError("case-insensitive patterns cannot be prefiltered; write [Ee]rror instead of (?i)")
    best = _best(_candidates(parsed))
    if best is None:
        raise LiteralError(f"has no literal of {MIN_LITERAL}+ plain characters that every match contains")
    return best
