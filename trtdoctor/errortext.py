"""The part of a log the classifier reads: its error-looking lines, with numbers folded.

Kept apart from the classifier so that deciding whether there is anything to classify costs no
numpy or scikit-learn import.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from trtdoctor.lines import LogLine

if TYPE_CHECKING:
    from trtdoctor.kb.compiled import KnowledgeBase
    from trtdoctor.match import Hit

_NUM = re.compile(r"0x[0-9a-fA-F]+|\d+")
_SPACE = re.compile(r"\s+")
# Beyond the words of error lines: the loader's, linker's, compiler's and kernel's ("not found", "undefined
# reference", "killed"), Python's AttributeError text, and the same words in the locales TensorRT users often work
# in. Held out by thread, these lines raised the classifier's first-named signature on the logs no pattern names
# from 33 to 35 of 73, its three named from 46 to 49. They are literals, not a regex, because the scanner must keep
# every line that has one (``pipeline.literals``): were these lines kept only when some signature's literal occurs
# in them, the classifier would read a wording no pattern knows only where a pattern already knew its words.
ERRORISH = ("Error", "error", "ERROR", "Fail", "fail", "FAIL", "Assertion", "Exception", "exception", "Unsupported",
            "unsupported", "not supported", "Could not", "could not", "Cannot", "cannot", "Invalid", "invalid",
            "mismatch", "No such", "no such", "Segmentation", "segmentation", "Aborted", "refused", "not found",
            "Unable to", "unable to", "undefined symbol", "undefined reference", "Killed", "killed", "oom-killer",
            "has no attribute", "not a member", "no member", "does not name a type", "Missing", "missing", "Denied",
            "denied", "错误", "失败", "无法", "找不到", "不支持", "エラー", "失敗", "No existe", "Fehler", "fehler")
_ERRORISH = re.compile("|".join(map(re.escape, ERRORISH)))
MAX_LINES = 60


def fold(message: str) -> str:
    return _SPACE.sub(" ", _NUM.sub("0", message)).strip()


def error_text(lines: Sequence[LogLine], skip: Collection[int] = ()) -> str:
    """Error-looking lines (not info or verbose ones), numbers folded, duplicates dropped, at most MAX_LINES.
    Lines numbered in ``skip`` (those only a consequence claims) are left out: "Engine could not be
    created" says that a build failed, never why, and must not steer the classifier."""
    picked: list[str] = []
    seen: set[str] = set()
    for line in lines:
        if line.number in skip or line.severity in ("info", "verbose"):
            continue
        if line.severity != "error" and not _ERRORISH.search(line.message):
            continue
        norm = fold(line.message)
        if norm and norm not in seen:
            seen.add(norm)
            picked.append(norm)
        if len(picked) >= MAX_LINES:
            break
    return "\n".join(picked)


def consequence_lines(kb: "KnowledgeBase", hits: Iterable["Hit"]) -> set[int]:
    """Numbers of the lines that only consequence signatures claim."""
    by_line: dict[int, set[str]] = {}
    for hit in hits:
        sig = kb.get(hit.signature)
        by_line.setdefault(hit.line.number, set()).add(sig.kind if sig is not None else "error")
    return {n for n, kinds in by_line.items() if kinds == {"consequence"}}


def classifier_text(lines: Sequence[LogLine], kb: "KnowledgeBase", hits: Iterable["Hit"]) -> str:
    """What the classifier reads of a log's scanned lines: the same for training and for use."""
    return error_text(lines, consequence_lines(kb, hits))
