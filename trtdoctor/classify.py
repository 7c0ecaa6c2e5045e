"""The classifier half of the matcher: recognises wordings that no pattern names, and knows when to abstain.

A linear model over TF-IDF word and character n-grams of a log's error lines. Its probabilities are
calibrated by isotonic regression on out-of-fold predictions, with folds grouped by source thread, so
a confidence of 0.8 means about 80% of such calls were right. What it learns from (the corpus and the
signatures' own text) and where it is kept is ``trtdoctor.train``'s business; this module is the model.

Safety and speed: the model is never pickled. It is stored as a JSON header and plain little-endian arrays:
the vocabulary as UTF-8 lines and the small arrays, compressed, then the coefficients as float16, feature by
feature, left uncompressed (they hardly compress, and inflating them was most of a first run's loading). The
coefficients are mapped, not read: inference touches only the columns of the features a text has, in plain
Python, so that explaining a log never imports numpy (a fifth of a second). numpy and scikit-learn are
imported only to train.
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import sys
import zlib
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

NONE = "none"
MAGIC = b"TRTDOCTOR-CLASSIFIER 2\n"


@dataclass(frozen=True)
class Doc:
    text: str
    label: str
    group: str


def _floats(data: bytes, code: str) -> array:
    out = array(code)
    out.frombytes(data)
    if sys.byteorder != "little":  # pragma: no cover - stored little-endian
        out.byteswap()
    return out


class Model:
    """TF-IDF (word 1-2 grams + char 3-5 grams) -> multinomial logistic regression -> isotonic calibration.

    ``coef`` is a numpy array (classes x features) for a model just trained, or the stored float16 bytes
    (features x classes) for a model read back; the arithmetic is the same either way."""

    def __init__(self, vocab: dict[str, int], idf: Sequence[float], coef: Any, intercept: Sequence[float],
                 classes: list[str], calib_x: Sequence[float], calib_y: Sequence[float]):
        self.vocab, self.idf, self.coef, self.intercept = vocab, idf, coef, intercept
        self.classes, self.calib_x, self.calib_y = classes, calib_x, calib_y
        self._column = struct.Struct(f"<{len(classes)}e").unpack_from

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

    def features(self, text: str) -> tuple[list[int], list[float]]:
        """The text's TF-IDF vector, sparse: the indices of its features and their (L2-normalised) values."""
        counts: dict[int, int] = {}
        for gram in self.analyse(text):
            j = self.vocab.get(gram)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        idx = list(counts)
        vals = [(1.0 + math.log(c)) * float(self.idf[j]) for j, c in counts.items()]
        norm = math.sqrt(sum(v * v for v in vals))
        return idx, ([v / norm for v in vals] if norm else vals)

    def column(self, j: int) -> Sequence[float]:
        """The coefficients of feature j, one per class."""
        if isinstance(self.coef, (bytes, bytearray, memoryview)):
            return self._column(self.coef, 2 * len(self.classes) * j)
        return self.coef[:, j].tolist()

    def raw_proba(self, text: str) -> list[float]:
        z = [float(b) for b in self.intercept]
        for j, v in zip(*self.features(text)):
            for c, w in enumerate(self.column(j)):
                z[c] += w * v
        top = max(z)
        e = [math.exp(x - top) for x in z]
        total = sum(e)
        return [x / total for x in e]

    def calibrate(self, p: float) -> float:
        """np.interp: linear between the grid points, the end values outside."""
        xs, ys = self.calib_x, self.calib_y
        if not len(xs):
            return p
        if p <= xs[0]:
            return float(ys[0])
        if p >= xs[-1]:
            return float(ys[-1])
        i = bisect_right(xs, p) - 1
        x0, x1, y0, y1 = float(xs[i]), float(xs[i + 1]), float(ys[i]), float(ys[i + 1])
        return y0 + (y1 - y0) * (p - x0) / (x1 - x0) if x1 > x0 else y1

    def predict(self, text: str, top: int = 3) -> list[tuple[str, float, float]]:
        """[(label, calibrated confidence, raw probability)] best first; empty for text with no features."""
        if not text.strip():
            return []
        p = self.raw_proba(text)
        order = sorted(range(len(p)), key=lambda i: -p[i])[:top]
        best = self.calibrate(p[order[0]])
        out = [(self.classes[order[0]], best, p[order[0]])]
        for i in order[1:]:
            out.append((self.classes[i], min(best, p[i]), p[i]))
        return out

    # -- safe storage: a JSON header and plain arrays, never pickle
    def save(self, path: Path, key: str = "", quick: str = "") -> None:
        """The coefficients as float16 (``fit`` rounds them so, so that the model in memory and the one read back
        agree exactly), feature by feature; and the keys it was trained for."""
        import numpy as np

        keys = sorted(self.vocab, key=self.vocab.get)
        coef = self.coef if not isinstance(self.coef, (bytes, bytearray, memoryview)) else \
            np.frombuffer(self.coef, dtype="<f2").reshape(len(keys), len(self.classes)).T
        packed = {"vocab": "\n".join(keys).encode("utf-8"),
                  "idf": np.asarray(self.idf, dtype="<f4").tobytes(),
                  "intercept": np.asarray(self.intercept, dtype="<f8").tobytes(),
                  "calib_x": np.asarray(self.calib_x, dtype="<f8").tobytes(),
                  "calib_y": np.asarray(self.calib_y, dtype="<f8").tobytes()}
        offsets, pos = {}, 0
        for name, data in packed.items():
            offsets[name] = [pos, len(data)]
            pos += len(data)
        body = zlib.compress(b"".join(packed.values()), 6)
        header = json.dumps({"key": key, "quick": quick, "classes": self.classes, "features": len(keys),
                             "sections": offsets, "packed": len(body)}).encode("utf-8")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as out:
            out.write(MAGIC + struct.pack("<Q", len(header)) + header + body)
            out.write(np.ascontiguousarray(np.asarray(coef).T, dtype="<f2").tobytes())
        os.replace(tmp, path)

    @staticmethod
    def _header(stream) -> dict[str, Any]:
        if stream.read(len(MAGIC)) != MAGIC:
            raise ValueError("not a trtdoctor classifier file (or one of another format)")
        (size,) = struct.unpack("<Q", stream.read(8))
        return json.loads(stream.read(size))

    @classmethod
    def stored_key(cls, path: Path) -> str:
        with open(path, "rb") as f:
            return cls._header(f).get("key", "")

    @classmethod
    def load(cls, path: Path, key: str | None = None, quick: str | None = None) -> "Model":
        """Read a saved model; with ``key`` (or ``quick``, the cheaper key), raise KeyError unless it was trained
        for that key."""
        with open(path, "rb") as f:
            head = cls._header(f)
            for name, wanted in (("key", key), ("quick", quick)):
                if wanted is not None and head.get(name, "") != wanted:
                    raise KeyError(f"{path} was trained for another knowledge base or corpus")
            body = zlib.decompress(f.read(head["packed"]))
            start, size = f.tell(), 2 * head["features"] * len(head["classes"])
            coef = _mapped(f, start, size)
        if len(coef) != size:
            raise ValueError(f"{path} is truncated")
        part = {name: body[a:a + n] for name, (a, n) in head["sections"].items()}
        keys = part["vocab"].decode("utf-8").split("\n")
        return cls(dict(zip(keys, range(len(keys)))), _floats(part["idf"], "f"), coef,
                   _floats(part["intercept"], "d"), head["classes"], _floats(part["calib_x"], "d"),
                   _floats(part["calib_y"], "d"))


def _mapped(f, start: int, size: int) -> memoryview | bytes:
    """The coefficients as a read-only view of the file (pages are read as features need them), or read whole
    where the file cannot be mapped."""
    import mmap

    try:
        whole = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return f.read(size)
    return memoryview(whole)[start:start + size]


def fit(docs: Sequence[Doc], *, calibrate: bool = True, seed: int = 0) -> Model:
    import warnings

    # scikit-learn warns, on the user's terminal, that most labels have few examples: true, and known.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _fit(docs, calibrate=calibrate, seed=seed)


def _fit(docs: Sequence[Doc], *, calibrate: bool, seed: int) -> Model:
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = TfidfVectorizer(analyzer=Model.analyse, sublinear_tf=True, min_df=1, norm="l2", dtype=np.float64)
    texts = [d.text for d in docs]
    labels = [d.label for d in docs]
    x = vec.fit_transform(texts)
    # Balanced class weights: a signature with five threads counts as much as one with two hundred. The logs no
    # pattern names are mostly the rare signatures' wordings, and held out by thread (scripts/evaluate.py's folds)
    # the first-named signature on them went from 35 to 37 of 84, the top three from 56 to 59, with balanced weights
    # (C=5 instead of 20 lowered both).
    clf = LogisticRegression(C=20.0, class_weight="balanced", max_iter=3000, random_state=seed)
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
    import numpy as np
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
