"""Training the classifier, and finding the model for a knowledge base.

It learns from the corpus (each real log labelled by its signature, negatives and warnings labelled
``none``) and from each signature's own text, and is cached keyed by a hash of everything it was
trained from, so a changed knowledge base or corpus gets a fresh model.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from trtdoctor import pipeline
from trtdoctor._version import __version__
from trtdoctor.classify import NONE, Doc, Model, fit
from trtdoctor.errortext import classifier_text, fold
from trtdoctor.kb.load import _cache_dir, corpus_dir, shipped_dir
from trtdoctor.match import Matcher

# 2: consequence-only lines left out of the text; 3: balanced class weights; 4: wider error words; 5: the signatures'
# own text weighted; 6: error-looking lines kept by the scanner whatever the signatures' literals; 7: the signatures'
# text from their patterns' words, not their literals
_FORMAT = 7


def thread(url: str) -> str:
    return url.split("#")[0].rstrip("/")


def log_docs(kb, corpus: Path) -> list[Doc]:
    """One document per corpus log: its error text, labelled by signature (negatives: none)."""
    import yaml

    knowledge = (kb, Matcher(kb))
    docs = []
    for log in sorted(corpus.glob("*/*.log")):
        folder = log.parent.name
        sig = kb.get(folder)
        if folder != "negative" and sig is None:
            continue
        label = NONE if folder == "negative" or sig.kind == "warning" else sig.id
        if sig is not None and sig.kind == "consequence":
            continue  # a consequence is no cause to learn; its logs hold no cause by definition
        try:
            meta = yaml.safe_load(log.with_suffix(".yaml").read_text(encoding="utf-8")) or {}
        except OSError:
            meta = {}
        with open(log, "rb") as stream:
            scanned = pipeline.scan_lines(stream, knowledge)
        text = classifier_text(scanned, kb, knowledge[1].hits(scanned))
        docs.append(Doc(text, label, thread(str(meta.get("source", log)))))
    return docs


# Each signature's own text (its message and the words of its patterns) counts as this many documents: a wording no
# pattern names shares more with the signature's own words than with any one log's. Held out by thread, the
# first-named signature on the logs no pattern names went from 35 to 38 of 73 at three (C=50 instead: 37; six
# documents instead of three, later: no change).
SIGNATURE_DOC_WEIGHT = 3

# What a pattern says in words: its regex less the syntax (named groups, classes, escapes, repetition).
_REGEX_SYNTAX = (re.compile(r"\(\?P<\w+>|\\[dDsSwWbB]|\[(?:\\.|[^\]])*\]"), re.compile(r"\\(.)"),
                 re.compile(r"\(\?:|[()|?*+^$]|\{\d*,?\d*\}"))


def regex_words(regex: str) -> str:
    """``Could not (?:open|load) (?P<path>\\S+)\\.onnx`` -> ``Could not open load .onnx``."""
    groups_and_classes, escaped, operators = _REGEX_SYNTAX
    text = operators.sub(" ", escaped.sub(r"\1", groups_and_classes.sub(" ", regex)))
    return fold(text)


def signature_docs(kb) -> list[Doc]:
    """The signatures' own words: the message, and every wording of every pattern. Words, not the patterns' literals:
    a literal is what every match of a pattern contains, so it leaves out the words of its alternatives."""
    docs = []
    for sig in kb.signatures:
        if sig.kind != "error":
            continue
        text = "\n".join([sig.message, *(regex_words(p.regex) for p in sig.patterns)])
        docs += [Doc(fold(text), sig.id, f"kb:{sig.id}")] * SIGNATURE_DOC_WEIGHT
    return docs


def _key(kb, corpus: Path) -> str:
    h = hashlib.sha256(f"{__version__}/{_FORMAT}/{kb.key}".encode())
    for path in sorted(corpus.glob("*/*.log")) + sorted(corpus.glob("*/*.yaml")):
        h.update(str(path.relative_to(corpus)).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:32]


def _quick_key(kb, corpus: Path) -> str:
    """The knowledge base's hash with the names of the corpus's files, not their contents or sizes: enough to tell
    the model shipped in the package from another in a few milliseconds on a first run (tests/test_shipped.py
    checks the full key in the repository, so an edited log without retraining fails there)."""
    h = hashlib.sha256(f"{__version__}/{_FORMAT}/{kb.key}".encode())
    names = []
    try:
        with os.scandir(corpus) as top:
            for folder in top:
                if folder.is_dir():
                    with os.scandir(folder.path) as files:
                        names += [f"{folder.name}/{f.name}" for f in files if f.name.endswith((".log", ".yaml"))]
    except OSError:
        pass
    h.update("\n".join(sorted(names)).encode())
    return h.hexdigest()[:32]


_MODELS: dict[str, Model] = {}


def shipped_path() -> Path:
    """The model that ships with the package, trained by `trtdoctor kb train` on the bundled signatures."""
    return shipped_dir() / "classifier.bin"


def cache_path(kb, corpus: Path | None = None, *, key: str | None = None) -> Path:
    """Where the model for this knowledge base and corpus is cached (keyed by a hash of both)."""
    return _cache_dir() / f"classifier-{key or _key(kb, corpus or corpus_dir())}.bin"


def train(kb, corpus: Path | None = None, *, key: str | None = None, ship: bool = False) -> tuple[Model, list[Doc], Path]:
    """Train from the corpus and the signatures' own text, and keep the result (what `kb train` runs): in the
    package when ``ship`` (the bundled signatures alone), else in the cache. Returns the model, the documents it
    learnt from and where it was written."""
    corpus = corpus or corpus_dir()
    key = key or _key(kb, corpus)
    docs = log_docs(kb, corpus) + signature_docs(kb)
    model = _MODELS[key] = fit(docs)
    quick = _quick_key(kb, corpus)
    for path in ([shipped_path()] if ship else []) + [cache_path(kb, key=key)]:
        try:
            model.save(path, key, quick)
            break
        except OSError:
            continue  # a read-only package or cache only costs the next run a retraining
    return model, docs, path


_KEYS: dict[tuple, str] = {}


def model_for(kb, corpus: Path | None = None) -> Model:
    """The trained model for a knowledge base: from memory, the package (the bundled signatures, as shipped), the
    cache (private signatures), or trained now and cached."""
    corpus = corpus or corpus_dir()
    quick = _quick_key(kb, corpus) if (kb.key, corpus, "quick") not in _KEYS else _KEYS[kb.key, corpus, "quick"]
    _KEYS[kb.key, corpus, "quick"] = quick
    if quick in _MODELS:
        return _MODELS[quick]
    try:
        model = _MODELS[quick] = Model.load(shipped_path(), quick=quick)
        return model
    except (OSError, ValueError, KeyError):
        pass
    # Hashing the corpus once per process: many logs explained in one process (explain DIR) pay it once.
    key = _KEYS.get((kb.key, corpus)) or _KEYS.setdefault((kb.key, corpus), _key(kb, corpus))
    if key in _MODELS:
        return _MODELS[key]
    try:
        model = _MODELS[key] = _MODELS[quick] = Model.load(cache_path(kb, key=key), key)
        return model
    except (OSError, ValueError, KeyError):
        pass
    model, _, _ = train(kb, corpus, key=key)
    _MODELS[quick] = model
    return model
