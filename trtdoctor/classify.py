"""The classifier half of the matcher: recognises wordings that no pattern names, and knows when to abstain.

A linear model over TF-IDF word and character n-grams of a log's error lines, trained on the corpus
(each real log labelled by its signature, negatives labelled ``none``) and on each signature's own
text. Its probabilities are calibrated by isotonic regression on out-of-fold predictions, with folds
grouped by source thread, so a confidence of 0.8 means about 80% of such calls were right.

Safety: the model is never pickled. It is trained from the repository's corpus and knowledge base and
cached as plain arrays (``numpy.savez`` read back with ``allow_pickle=False``), keyed by a hash of
everything it was trained from; inference is a few lines of numpy. scikit-learn is imported only to
train, and this module only when a pattern did not decide.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from trtdoctor import __version__
from trtdoctor.errortext import _NUM, _SPACE, error_text  # noqa: F401  (re-exported for callers)

NONE = "none"
_FORMAT = 2  # 2: consequence-only lines left out of the text


@dataclass(frozen=True)
class Doc:
    text: str
    label: str
    group: str


class Model:
    """TF-IDF (word 1-2 grams + char 3-5 grams) -> multinomial logistic regression -> isotonic calibration."""

    def __init__(self, vocab: dict[str, int], idf: np.ndarray, coef: np.ndarray, intercept: np.ndarray,
                 classes: list[str], calib_x: np.ndarray, calib_y: np.ndarray):
        self.vocab, self.idf, self.coef, self.intercept = vocab, idf, coef, intercept
        self.classes, self.calib_x, self.calib_y = classes, calib_x, calib_y

    # -- features, the same arithmetic as scikit-learn's TfidfVectorizer(sublinear_tf=True, norm='l2')
    @staticmethod
    def analyse(text: str) -> list[str]:
        text = text.lower()
        words = re.findall(r"[a-z_][a-z0-9_]+", text)
        grams = [f"w:{w}" for w in words] + [f"w:{a} {b}" for a, b in zip(words, words[1:])]
        for token in text.split():
            padded = f" {token} "
            for n in (3, 4, 5):
                grams.extend(f"c:{padded[i:i + n]}" for i in range(max(len(padded) - n + 1, 0)))
        return grams

    def vector(self, text: str) -> np.ndarray:
        counts: dict[int, int] = {}
        for gram in self.analyse(text):
            j = self.vocab.get(gram)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        x = np.zeros(len(self.idf))
        for j, c in counts.items():
            x[j] = (1.0 + np.log(c)) * self.idf[j]
        norm = np.linalg.norm(x)
        return x / norm if norm else x

    def raw_proba(self, text: str) -> np.ndarray:
        z = self.coef @ self.vector(text) + self.intercept
        z = np.exp(z - z.max())
        return z / z.sum()

    def calibrate(self, p: float) -> float:
        return float(np.interp(p, self.calib_x, self.calib_y)) if len(self.calib_x) else p

    def predict(self, text: str, top: int = 3) -> list[tuple[str, float, float]]:
        """[(label, calibrated confidence, raw probability)] best first; empty for text with no features."""
        if not text.strip():
            return []
        p = self.raw_proba(text)
        order = np.argsort(-p)[:top]
        best = self.calibrate(float(p[order[0]]))
        out = [(self.classes[order[0]], best, float(p[order[0]]))]
        for i in order[1:]:
            out.append((self.classes[i], min(best, float(p[i])), float(p[i])))
        return out

    # -- safe storage: arrays and JSON, never pickle
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        keys = sorted(self.vocab, key=self.vocab.get)
        np.savez_compressed(tmp, vocab=np.array(json.dumps(keys)), idf=self.idf, coef=self.coef,
                            intercept=self.intercept, classes=np.array(json.dumps(self.classes)),
                            calib_x=self.calib_x, calib_y=self.calib_y)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> "Model":
        with np.load(path, allow_pickle=False) as data:
            keys = json.loads(str(data["vocab"]))
            return cls({k: i for i, k in enumerate(keys)}, data["idf"], data["coef"], data["intercept"],
                       json.loads(str(data["classes"])), data["calib_x"], data["calib_y"])


def fit(docs: Sequence[Doc], *, calibrate: bool = True, seed: int = 0) -> Model:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = TfidfVectorizer(analyzer=Model.analyse, sublinear_tf=True, min_df=1, norm="l2", dtype=np.float64)
    texts = [d.text for d in docs]
    labels = [d.label for d in docs]
    x = vec.fit_transform(texts)
    clf = LogisticRegression(C=20.0, max_iter=3000, random_state=seed)
    clf.fit(x, labels)
    vocab = {k: int(v) for k, v in vec.vocabulary_.items()}
    model = Model(vocab, vec.idf_.astype(np.float64), clf.coef_.astype(np.float64), clf.intercept_.astype(np.float64),
                  [str(c) for c in clf.classes_], np.array([]), np.array([]))
    if len(clf.classes_) == 2:  # binary LR has one row of coefficients; keep the multinomial shape
        model.coef = np.vstack([-model.coef[0] / 2, model.coef[0] / 2])
        model.intercept = np.array([-model.intercept[0] / 2, model.intercept[0] / 2])
    if calibrate:
        model.calib_x, model.calib_y = _calibration(docs, seed)
    return model


def _calibration(docs: Sequence[Doc], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Isotonic map from raw top probability to the observed rate of correct calls, out of fold."""
    from sklearn.isotonic import IsotonicRegression
    from sklearn.model_selection import GroupKFold

    testable = [i for i, d in enumerate(docs) if not d.group.startswith("kb:")]
    groups = sorted({docs[i].group for i in testable})
    if len(groups) < 5:
        return np.array([]), np.array([])
    folds = GroupKFold(n_splits=5)
    xs, ys = [], []
    idx = np.array(testable)
    for train_i, test_i in folds.split(idx, groups=[docs[i].group for i in testable]):
        held = {docs[i].group for i in idx[test_i]}
        train = [d for d in docs if d.group not in held]
        if len({d.label for d in train}) < 2:
            continue
        m = fit(train, calibrate=False, seed=seed)
        for i in idx[test_i]:
            d = docs[i]
            if not d.text.strip():
                continue
            label, _, raw = m.predict(d.text, top=1)[0]
            xs.append(raw)
            ys.append(1.0 if label == d.label else 0.0)
    if not xs:
        return np.array([]), np.array([])
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True)
    iso.fit(xs, ys)
    grid = np.linspace(0.0, 1.0, 51)
    return grid, iso.predict(grid)


# -- training data from the knowledge base and the corpus

def corpus_dir() -> Path:
    try:
        from importlib.resources import files

        bundled = Path(str(files("trtdoctor._corpus")))
        if bundled.is_dir() and (bundled / "negative").is_dir():
            return bundled
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parent.parent / "corpus"


def thread(url: str) -> str:
    return url.split("#")[0].rstrip("/")


def log_docs(kb, corpus: Path) -> list[Doc]:
    """One document per corpus log: its error text, labelled by signature (negatives: none)."""
    import yaml

    from trtdoctor import api
    from trtdoctor.match import Matcher

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
            scanned = api.scan_lines(stream, knowledge)
        docs.append(Doc(api.classifier_text(scanned, knowledge), label, thread(str(meta.get("source", log)))))
    return docs


def signature_docs(kb) -> list[Doc]:
    docs = []
    for sig in kb.signatures:
        if sig.kind != "error":
            continue
        text = "\n".join([sig.message, *(lit for p in sig.patterns for lit in p.literals)])
        docs.append(Doc(_SPACE.sub(" ", _NUM.sub("0", text)), sig.id, f"kb:{sig.id}"))
    return docs


def _key(kb, corpus: Path) -> str:
    h = hashlib.sha256(f"{__version__}/{_FORMAT}/{kb.key}".encode())
    for path in sorted(corpus.glob("*/*.log")) + sorted(corpus.glob("*/*.yaml")):
        h.update(str(path.relative_to(corpus)).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:32]


_MODELS: dict[str, Model] = {}


def cache_path(kb, corpus: Path | None = None, *, key: str | None = None) -> Path:
    """Where the model for this knowledge base and corpus is cached (keyed by a hash of both)."""
    from trtdoctor.kb.load import _cache_dir

    return _cache_dir() / f"classifier-{key or _key(kb, corpus or corpus_dir())}.npz"


def train(kb, corpus: Path | None = None, *, key: str | None = None) -> tuple[Model, list[Doc], Path]:
    """Train from the corpus and the signatures' own text, and cache the result (what `kb train` runs).
    Returns the model, the documents it learnt from and where it is cached."""
    corpus = corpus or corpus_dir()
    key = key or _key(kb, corpus)
    docs = log_docs(kb, corpus) + signature_docs(kb)
    model = _MODELS[key] = fit(docs)
    path = cache_path(kb, key=key)
    try:
        model.save(path)
    except OSError:
        pass  # a read-only cache only costs the next run a retraining
    return model, docs, path


def model_for(kb, corpus: Path | None = None) -> Model:
    """The trained model for a knowledge base: from memory, from the cache, or trained now and cached."""
    corpus = corpus or corpus_dir()
    key = _key(kb, corpus)
    if key in _MODELS:
        return _MODELS[key]
    try:
        model = _MODELS[key] = Model.load(cache_path(kb, key=key))
    except (OSError, ValueError, KeyError):
        model, _, _ = train(kb, corpus, key=key)
    return model
