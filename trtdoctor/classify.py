"""The classifier half of the matcher: recognises wordings that no pattern names, and knows when to abstain.

A linear model over TF-IDF word and character n-grams of a log's error lines. Its probabilities are
calibrated by isotonic regression on out-of-fold predictions, with folds grouped by source thread, so
a confidence of 0.8 means about 80% of such calls were right. What it learns from (the corpus and the
signatures' own text) and where it is kept is ``trtdoctor.train``'s business; this module is the model.

Safety: the model is never pickled: it is stored as plain arrays (``numpy.savez`` read back with
``allow_pickle=False``), and inference is a few lines of numpy. scikit-learn is imported only to train,
and this module only when a pattern did not decide.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NONE = "none"


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

    def features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The text's TF-IDF vector, sparse: the indices of its features and their (L2-normalised) values."""
        counts: dict[int, int] = {}
        for gram in self.analyse(text):
            j = self.vocab.get(gram)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        idx = np.fromiter(counts, dtype=np.intp, count=len(counts))
        vals = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))) * self.idf[idx]
        norm = float(np.sqrt((vals * vals).sum()))
        return idx, (vals / norm if norm else vals)

    def vector(self, text: str) -> np.ndarray:
        idx, vals = self.features(text)
        x = np.zeros(len(self.idf))
        x[idx] = vals
        return x

    def raw_proba(self, text: str) -> np.ndarray:
        # A few hundred of tens of thousands of features: only their columns, and no BLAS call (whose thread pool
        # costs more than this arithmetic).
        idx, vals = self.features(text)
        z = (self.coef[:, idx].astype(np.float64) * vals).sum(axis=1) + self.intercept
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
    def save(self, path: Path, key: str = "", quick: str = "") -> None:
        """Plain arrays: the vocabulary as UTF-8 lines, the coefficients as float16 (``fit`` rounds them so,
        so that the model in memory and the one read back agree exactly), and the key it was trained for."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        keys = sorted(self.vocab, key=self.vocab.get)
        np.savez_compressed(tmp, vocab=np.frombuffer("\n".join(keys).encode("utf-8"), dtype=np.uint8),
                            idf=self.idf.astype(np.float32), coef=self.coef.astype(np.float16),
                            intercept=self.intercept, classes=np.array(json.dumps(self.classes)),
                            calib_x=self.calib_x, calib_y=self.calib_y, key=np.array(key),
                            quick=np.array(quick))
        os.replace(tmp, path)

    @staticmethod
    def stored_key(path: Path) -> str:
        with np.load(path, allow_pickle=False) as data:
            return str(data["key"]) if "key" in data.files else ""

    @classmethod
    def load(cls, path: Path, key: str | None = None, quick: str | None = None) -> "Model":
        """Read a saved model; with ``key`` (or ``quick``, the cheaper key), raise KeyError unless it was trained
        for that key."""
        with np.load(path, allow_pickle=False) as data:
            for name, wanted in (("key", key), ("quick", quick)):
                if wanted is not None and (str(data[name]) if name in data.files else "") != wanted:
                    raise KeyError(f"{path} was trained for another knowledge base or corpus")
            raw = data["vocab"]
            keys = raw.tobytes().decode("utf-8").split("\n") if raw.dtype == np.uint8 else json.loads(str(raw))
            # The coefficients stay float16 (what fit rounded them to); raw_proba widens the columns it uses.
            return cls(dict(zip(keys, range(len(keys)))), data["idf"].astype(np.float64),
                       data["coef"], data["intercept"], json.loads(str(data["classes"])),
                       data["calib_x"], data["calib_y"])


def fit(docs: Sequence[Doc], *, calibrate: bool = True, seed: int = 0) -> Model:
    import warnings

    # scikit-learn warns, on the user's terminal, that most labels have few examples: true, and known.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _fit(docs, calibrate=calibrate, seed=seed)


def _fit(docs: Sequence[Doc], *, calibrate: bool, seed: int) -> Model:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = TfidfVectorizer(analyzer=Model.analyse, sublinear_tf=True, min_df=1, norm="l2", dtype=np.float64)
    texts = [d.text for d in docs]
    labels = [d.label for d in docs]
    x = vec.fit_transform(texts)
    clf = LogisticRegression(C=20.0, max_iter=3000, random_state=seed)
    clf.fit(x, labels)
    vocab = {k: int(v) for k, v in vec.vocabulary_.items()}
    # float32 and float16 are what a saved model keeps: round here, so that saving changes nothing.
    model = Model(vocab, vec.idf_.astype(np.float32).astype(np.float64),
                  clf.coef_.astype(np.float16).astype(np.float64), clf.intercept_.astype(np.float64),
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
