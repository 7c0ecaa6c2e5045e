"""How the held-out evaluation splits a pattern into the wordings it joins (scripts/evaluate.py): a wording that
only the held-out thread shows is removed, so the split decides what counts as generalisation."""

import re
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

import evaluate  # noqa: E402


@pytest.mark.parametrize("regex, expected", [
    # Top-level alternatives are wordings of their own.
    (r"Unable to load library|Could not load library", ["Unable to load library", "Could not load library"]),
    # So are the alternatives of a top-level non-capturing group, expanded in place.
    (r"Compiled against (?:cuBLAS|cuDNN) \d", ["Compiled against (?:cuBLAS) \\d", "Compiled against (?:cuDNN) \\d"]),
    # A named group is a value (a name, a number), not another wording.
    (r"running against (?P<lib>cuBLAS|cuDNN) \d", ["running against (?P<lib>cuBLAS|cuDNN) \\d"]),
    # A guard with no word of its own stands for a lookbehind: one wording.
    (r"(?:^|[^:] |[^e]: )Killed", ["(?:^|[^:] |[^e]: )Killed"]),
    # A named group's name is not a word: ": 0x<hex>" or "." after the same words is one wording.
    (r"Unsupported SM(?:: 0x(?P<sm_hex>[0-9a-fA-F]+)|\.)", ["Unsupported SM(?:: 0x(?P<sm_hex>[0-9a-fA-F]+)|\\.)"]),
])
def test_wordings(regex, expected):
    assert evaluate.wordings(regex) == expected


def test_every_wording_of_the_knowledge_base_is_a_regex():
    """A split that cut a pattern in the wrong place (inside a class, an escape or a nested group) would not compile,
    and the evaluation would then judge that pattern whole."""
    from trtdoctor.kb.load import load

    for sig in load().signatures:
        for pattern in sig.patterns:
            for w in evaluate.wordings(pattern.regex):
                re.compile(w)


def _log(tmp_path, name: str, label: str, thread: str, text: str) -> "evaluate.Log":
    path = tmp_path / f"{name}.log"
    path.write_text(text)
    return evaluate.Log(path, label, "error", thread)


def test_a_message_part_only_the_held_out_thread_shows_leaves_the_classifiers_words(tmp_path):
    """The classifier reads each signature's message as its own words: a part written from the held-out thread alone
    would teach it that thread's wording, so the evaluation removes it as it removes that thread's patterns."""
    import dataclasses

    from trtdoctor.kb.load import load

    sig = load().get("profile-dims-out-of-range")
    message = "Static dimension mismatch while setting input shape / setInputShape: Runtime dimension does not satisfy " \
              "any optimization profile / Profile NAME has MIN dimensions"
    kb = evaluate.KnowledgeBase((dataclasses.replace(sig, message=message),), "test")
    logs = [_log(tmp_path, "a", sig.id, "thread-a", "[E] Static dimension mismatch while setting input shape for x\n"),
            _log(tmp_path, "b", sig.id, "thread-b", "[E] satisfyProfile Runtime dimension does not satisfy any "
                                                     "optimization profile\n"),
            _log(tmp_path, "c", sig.id, "thread-c", "[E] satisfyProfile Runtime dimension does not satisfy any "
                                                     "optimization profile\n")]
    messages = evaluate.message_support(kb, logs)
    assert [threads for _, threads in messages[sig.id]] == [{"thread-a"}, {"thread-b", "thread-c"}, set()]
    support = evaluate.pattern_support(kb, logs)
    held_a = evaluate.ablate(kb, {"thread-a"}, support, messages).get(sig.id).message
    assert held_a == "setInputShape: Runtime dimension does not satisfy any optimization profile / Profile NAME has " \
                     "MIN dimensions"
    # Another thread shows the second part: holding one of them out keeps it; a part no log shows stays.
    assert evaluate.ablate(kb, {"thread-b"}, support, messages).get(sig.id).message == message
