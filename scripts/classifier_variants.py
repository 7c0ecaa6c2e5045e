"""How well the classifier names the variants, without the rest of the evaluation: the quick loop for tuning it.

    python scripts/classifier_variants.py            # 5 folds, as scripts/evaluate.py; 2 processes
    python scripts/classifier_variants.py --jobs 1

The same folds, ablation and variants as ``scripts/evaluate.py`` (a variant: a held-out log of a covered cause that
no remaining pattern names), and the same training as ``classify.fit``, less the calibration, which does not
change which signature comes first. Prints the share of variants whose first-named signature is right, and the share
with the right one among the three named. A fifth of the full evaluation's time: use it to compare changes to the
classifier (its features, its signature texts, its weights), then confirm with the full evaluation.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import evaluate as E  # noqa: E402
from trtdoctor import diagnose, train  # noqa: E402
from trtdoctor.kb.load import load  # noqa: E402

_INPUT: tuple | None = None   # shared with forked workers


def _fold(f: int) -> list[tuple[str, str, list[str]]]:
    kb, logs, fold_of, support, messages, docs = _INPUT
    held = {t for t, k in fold_of.items() if k == f}
    knowledge, model = E.fold_knowledge(kb, held, support, messages, docs, calibrate=False)
    out = []
    for log in logs:
        if log.thread not in held or E.expected(log) == "none":
            continue   # negatives, warnings, consequences whose cause the log does not show
        _, hits, preds = E.classifier_reading(log, knowledge, model)
        if E.is_variant(log, hits):
            out.append((str(log.path.relative_to(ROOT)), log.label, [s for s, _ in diagnose.named_signatures(preds)]))
    return out


def main() -> None:
    global _INPUT
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="also list each variant and what the classifier named")
    args = ap.parse_args()
    kb = load(use_cache=False)
    logs = E.corpus_logs(kb)
    fold_of = {t: E.fold_of_thread(t, args.folds) for t in {l.thread for l in logs}}
    _INPUT = (kb, [l for l in logs if l.settled], fold_of, E.pattern_support(kb, logs), E.message_support(kb, logs),
              train.log_docs(kb, E.CORPUS))
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(args.jobs, args.folds)) as pool:
            per_fold = pool.map(_fold, range(args.folds), chunksize=1)
    else:
        per_fold = [_fold(f) for f in range(args.folds)]
    variants = [v for fold in per_fold for v in fold]
    first = sum(named[:1] == [label] for _, label, named in variants)
    top3 = sum(label in named for _, label, named in variants)
    n = len(variants) or 1
    print(f"variants {len(variants)}: first-named right {first} ({first / n:.1%}), one of three {top3} ({top3 / n:.1%})")
    if args.list:
        for path, label, named in variants:
            print(f"  {'ok ' if named[:1] == [label] else '   '}{path}: {label}; named {', '.join(named) or '-'}")


if __name__ == "__main__":
    main()
