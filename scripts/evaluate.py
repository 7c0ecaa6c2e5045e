"""Evaluate trtdoctor on its corpus, through the public flow.

    python scripts/evaluate.py            # the tables
    python scripts/evaluate.py --json F   # also the figures as JSON (scripts/readme_figures.py reads it)
    python scripts/evaluate.py --jobs 2   # the held-out folds in 2 processes (same figures, less wall time)

1. As shipped: every example log with the whole knowledge base, patterns only and patterns+classifier:
   top-1 accuracy, per-signature recall and precision, the logs missed or misattributed, how many
   negative logs came out diagnosed, and, where the thread established which candidate cause it was,
   whether the selected cause is that one. A log whose only known line is a consequence ("Engine could
   not be created") is right when the tool abstains. Logs marked `settled: false` (the thread never
   established the cause) stay in the corpus but are left out of every score.
2. Held out by source thread: threads are split into folds; for each fold, the classifier is trained
   without the fold's logs, and every pattern learnt only from the fold's threads (matching no example
   of another thread) is removed, since an author wrote it from those logs. Logs of the fold are then
   explained by regex alone, classifier alone, and both. A pattern that joins several wordings (its
   alternatives) is judged wording by wording: joining a held-out thread's wording to another thread's
   does not keep it; a group whose alternatives have no word of their own (quote characters, `.` or `->`,
   a prefix guard standing for a lookbehind) is part of one wording. Logs whose signature has no remaining pattern
   that matches them are the *variants*: wordings no pattern names.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trtdoctor import api, classify, diagnose, pipeline, train  # noqa: E402
from trtdoctor.errortext import classifier_text  # noqa: E402
from trtdoctor.kb.compiled import KnowledgeBase  # noqa: E402
from trtdoctor.kb.load import load  # noqa: E402
from trtdoctor.match import Matcher  # noqa: E402

CORPUS = ROOT / "corpus"
CLASSIFIER_ALONE = 0.6  # calibrated confidence at which the classifier's top label counts as its diagnosis


@dataclasses.dataclass
class Log:
    path: Path
    label: str          # signature id, or 'none' for a negative
    kind: str           # error | consequence | warning | negative
    thread: str
    cause: str | None = None     # the candidate cause the thread established
    settled: bool = True         # false: the thread never established the cause; not scored


def corpus_logs(kb: KnowledgeBase) -> list[Log]:
    import yaml

    logs = []
    for path in sorted(CORPUS.glob("*/*.log")):
        folder = path.parent.name
        meta = yaml.safe_load(path.with_suffix(".yaml").read_text(encoding="utf-8")) or {}
        thread = train.thread(str(meta.get("source", path)))
        settled = meta.get("settled", True) is not False
        if folder == "negative":
            logs.append(Log(path, "none", "negative", thread, settled=settled))
        elif kb.get(folder) is not None:
            logs.append(Log(path, folder, kb.get(folder).kind, thread, meta.get("cause"), settled))
    return logs


def top(report) -> str:
    return report.diagnoses[0].id if report.diagnoses else "none"


def explain(log: Log, knowledge, classifier: bool, model=None):
    with open(log.path, "rb") as stream:
        return api.explain_chunks(api.read.chunks(stream), source=str(log.path), knowledge=knowledge,
                                  classifier=classifier, model=model)


def expected(log: Log) -> str:
    # A consequence is a diagnosis only where the log shows which of its causes led there (the sidecar
    # then names that cause); otherwise the right answer is to abstain.
    if log.kind == "consequence":
        return log.label if log.cause else "none"
    return "none" if log.kind in ("negative", "warning") else log.label


def cause_of(report) -> str | None:
    top = report.diagnoses[0] if report.diagnoses else None
    return top.selected_cause.id if top is not None and top.selected_cause is not None else None


def scores(pairs: list[tuple[str, str]]) -> dict:
    """Top-1 accuracy, per-signature recall/precision from (expected, got) pairs."""
    right = sum(e == g for e, g in pairs)
    by_exp, by_got, hit = Counter(e for e, _ in pairs), Counter(g for _, g in pairs), Counter(e for e, g in pairs if e == g)
    per = {s: {"logs": by_exp[s], "recall": hit[s] / by_exp[s],
               "precision": hit[s] / by_got[s] if by_got[s] else None} for s in sorted(by_exp) if s != "none"}
    return {"n": len(pairs), "top1": right / len(pairs) if pairs else 0.0, "per_signature": per}


def as_shipped(kb: KnowledgeBase, logs: list[Log]) -> dict:
    knowledge = (kb, Matcher(kb))
    out = {}
    for mode, clf in (("patterns", False), ("patterns+classifier", True)):
        pairs, wrong = [], []
        neg_diagnosed = []
        causes_right, causes_n = 0, 0
        for log in logs:
            if not log.settled:
                continue
            report = explain(log, knowledge, clf)
            got = top(report)
            if log.kind == "negative":
                if got != "none":
                    neg_diagnosed.append(f"{log.path.relative_to(ROOT)} -> {got}")
                continue
            pairs.append((expected(log), got))
            if got != expected(log):
                wrong.append(f"{log.path.relative_to(ROOT)}: expected {expected(log)}, got {got}")
            elif log.cause and log.kind in ("error", "consequence"):
                causes_n += 1
                causes_right += cause_of(report) == log.cause
                if cause_of(report) != log.cause:
                    wrong.append(f"{log.path.relative_to(ROOT)}: right signature, cause {cause_of(report)} "
                                 f"instead of {log.cause}")
        res = scores(pairs)
        res.update({"wrong": wrong, "negatives": sum(1 for l in logs if l.kind == "negative" and l.settled),
                    "negatives_diagnosed": neg_diagnosed, "causes_n": causes_n,
                    "causes": causes_right / causes_n if causes_n else None,
                    "unsettled": sum(1 for l in logs if not l.settled)})
        out[mode] = res
    return out


def _structure(regex: str):
    """(index, char, depth) of each '(', ')' and '|' of ``regex`` outside escapes and character classes; depth
    is the nesting before a '(' or '|' and after a ')'."""
    depth, i, in_class = 0, 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if regex[i + 1:i + 2] == "]":  # a ']' first in a class is a literal
                i += 1
        elif c in "(|)":
            if c == ")":
                depth -= 1
            yield i, c, depth
            if c == "(":
                depth += 1
        i += 1


def _top_split(regex: str) -> list[str]:
    """``regex`` split at its depth-0 ``|``."""
    cuts = [i for i, c, depth in _structure(regex) if c == "|" and depth == 0]
    return [regex[a + 1:b] for a, b in zip([-1, *cuts], [*cuts, len(regex)])]


def _groups(regex: str) -> list[tuple[int, int]]:
    """(start, end) of each depth-0 group of ``regex``, end just past its ')'."""
    spans, start = [], 0
    for i, c, depth in _structure(regex):
        if depth == 0 and c == "(":
            start = i
        elif depth == 0 and c == ")":
            spans.append((start, i + 1))
    return spans


def _is_guard(choices: list[str]) -> bool:
    """Whether a group's alternatives are a context guard rather than wordings: none of them has a word of
    its own (three letters outside escapes and character classes), as in ``(?:^|[^:] |[^e]: )``, which
    stands for "not after this prefix" where RE2 has no lookbehind."""
    # A named group's name (``(?P<sm_hex>``) is not a word of the message.
    return not any(re.search(r"[A-Za-z]{3}", re.sub(r"\\.|\[(?:\\.|[^\]])*\]|\(\?P<\w+>", "", ch)) for ch in choices)


def wordings(regex: str, cap: int = 32) -> list[str]:
    """The wordings a pattern joins: its top-level alternatives, and within each, the alternatives of its
    top-level non-capturing groups, expanded (up to ``cap``). Named groups are left whole: they capture
    the variable part of one wording (a name, a number), not another wording."""
    out: list[str] = []
    for alt in _top_split(regex):
        variants = [alt]
        for start, end in reversed(_groups(alt)):
            if not alt.startswith("(?:", start):
                continue
            inner = alt[start + 3:end - 1]
            choices = _top_split(inner)
            if len(choices) < 2 or len(variants) * len(choices) > cap or _is_guard(choices):
                continue
            variants = [v[:start] + "(?:" + ch + ")" + v[end:] for v in variants for ch in choices]
        out.extend(variants)
    return out


MESSAGE_SEPARATOR = " / "   # how a message joins the wordings of several releases and tools
_PLACEHOLDER = re.compile(r"^[A-Z0-9_]+$")


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z_][a-z0-9_]{2,}", text.lower()))


def message_support(kb: KnowledgeBase, logs: list[Log]) -> dict[str, list[tuple[str, set[str]]]]:
    """For each signature, the parts of its message, each with the threads of its own examples that show it. An
    author writes a message from the logs, in words, with placeholders (NAME, N) for what varies, so a part is
    judged by its words, not as a regex: a log shows it when it has at least 80% of the part's words (a part of
    placeholders only is shown by none and always stays)."""
    words_of_log = {log.path: _words(log.path.read_bytes().decode("utf-8", "replace")) for log in logs}
    out: dict[str, list[tuple[str, set[str]]]] = {}
    for sig in kb.signatures:
        mine = [l for l in logs if l.label == sig.id]
        parts = []
        for part in sig.message.split(MESSAGE_SEPARATOR):
            words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", part)
                     if not _PLACEHOLDER.match(w)}
            shown = {l.thread for l in mine if words and len(words & words_of_log[l.path]) >= 0.8 * len(words)}
            parts.append((part, shown))
        out[sig.id] = parts
    return out


def ablate(kb: KnowledgeBase, held: set[str], support: dict[tuple[str, int], list[tuple[str, set[str]]]],
           messages: dict[str, list[tuple[str, set[str]]]] | None = None) -> KnowledgeBase:
    """The knowledge base less every wording learnt only from the held-out threads: a wording (an alternative
    of a pattern) stays when another thread's example shows it, or when no example does (it was written from
    the parser's sources or a release note, not from a log). With ``messages`` (``message_support``), the same
    for the parts of each signature's message, which the classifier reads as the signature's own words."""
    sigs = []
    for sig in kb.signatures:
        if messages is not None and sig.id in messages:
            kept_parts = [part for part, threads in messages[sig.id] if threads - held or not threads]
            sig = dataclasses.replace(sig, message=MESSAGE_SEPARATOR.join(kept_parts))
        keep = []
        for i, p in enumerate(sig.patterns):
            kept = [w for w, threads in support[(sig.id, i)] if threads - held or not threads]
            if len(kept) == len(support[(sig.id, i)]):
                keep.append(p)
            else:   # each kept wording its own pattern: joined again, their named groups would clash
                keep.extend(dataclasses.replace(p, regex=w) for w in kept)
        sigs.append(dataclasses.replace(sig, patterns=tuple(keep)))
    return KnowledgeBase(tuple(sigs), kb.key + "-ablated")


def pattern_support(kb: KnowledgeBase, logs: list[Log]) -> dict[tuple[str, int], list[tuple[str, set[str]]]]:
    """For each pattern, its wordings, each with the threads of its own signature's examples that it matches."""
    support: dict[tuple[str, int], list[tuple[str, set[str]]]] = {}
    # Lines end where the reader ends them (\n, \r\n or \r), not at every separator str.splitlines() knows (\x1e,
    # \x0c, ...): a wording is supported by the lines trtdoctor reads.
    texts = {log.path: re.split(r"\r\n|\r|\n", log.path.read_bytes().decode("utf-8", "replace")) for log in logs}
    for sig in kb.signatures:
        mine = [l for l in logs if l.label == sig.id]

        def threads(regex: str) -> set[str]:
            rx = re.compile(regex)
            return {l.thread for l in mine if any(rx.search(t) for t in texts[l.path])}

        for i, p in enumerate(sig.patterns):
            try:
                support[(sig.id, i)] = [(w, threads(w)) for w in wordings(p.regex)]
            except re.error:   # an expansion the splitter got wrong: judge the pattern whole
                support[(sig.id, i)] = [(p.regex, threads(p.regex))]
    return support


def fold_of_thread(thread: str, folds: int, partition: int = 0) -> int:
    """The fold a thread is held out in, in the given partition: a hash of the partition and the thread's URL,
    so that adding or removing a thread leaves every other thread in its fold (numbering the sorted threads
    moved all those after it, which made figures taken before and after a corpus change incomparable)."""
    return int.from_bytes(hashlib.sha256(f"{partition}:{thread}".encode()).digest()[:8], "big") % folds


def regex_spread(kb: KnowledgeBase, logs: list[Log], folds: int, partitions: int) -> dict:
    """Regex-only held-out top-1 over several partitions of the threads into folds: how much the figure of one
    partition owes to which threads happen to be held out together (a wording shown by two threads is lost
    when both fall in one fold). Patterns alone, so each partition takes seconds, not a classifier's training."""
    support = pattern_support(kb, logs)
    threads = sorted({l.thread for l in logs})
    scored = [l for l in logs if l.settled and l.kind != "negative"]
    tops = []
    for partition in range(partitions):
        fold_of = {t: fold_of_thread(t, folds, partition) for t in threads}
        right = 0
        for f in range(folds):
            held = {t for t in threads if fold_of[t] == f}
            train_kb = ablate(kb, held, support)
            knowledge = (train_kb, Matcher(train_kb))
            right += sum(top(explain(l, knowledge, False)) == expected(l) for l in scored if l.thread in held)
        tops.append(right / len(scored))
    return {"partitions": partitions, "n": len(scored), "top1": tops, "mean": sum(tops) / len(tops),
            "min": min(tops), "max": max(tops)}


def fold_knowledge(kb: KnowledgeBase, held: set[str], support: dict, messages: dict, docs: list[classify.Doc],
                   calibrate: bool = True) -> tuple[tuple, classify.Model]:
    """The knowledge base and the classifier of a fold: neither has seen the held-out threads. ``docs`` are every
    corpus log's documents (train.log_docs); the held-out threads' are left out here."""
    # The classifier learns each signature's own words too (train.signature_docs): those written from the held-out
    # threads go, as their patterns do, or the variants would be recognised by words their own thread taught.
    train_kb = ablate(kb, held, support, messages)
    model = classify.fit([d for d in docs if d.group not in held] + train.signature_docs(train_kb), calibrate=calibrate)
    return (train_kb, Matcher(train_kb)), model


def classifier_reading(log: Log, knowledge, model: classify.Model) -> tuple[list, list, list]:
    """A log's scanned lines, its hits, and the classifier's reading of it (Model.predict, best first)."""
    with open(log.path, "rb") as stream:
        scanned = pipeline.scan_lines(stream, knowledge)
    hits = knowledge[1].hits(scanned)
    text = classifier_text(scanned, knowledge[0], hits)
    return scanned, hits, model.predict(text, top=diagnose.CLASSIFIER_CANDIDATES + 1) if text else []


def is_variant(log: Log, hits) -> bool:
    """No remaining pattern of the log's own signature names it."""
    return not any(h.signature == log.label for h in hits)


_FOLD_INPUT: tuple | None = None   # (kb, settled logs, threads, fold_of, support, messages, docs), shared with workers


def _fold_outcomes(f: int) -> list[dict]:
    """Explain the logs of fold ``f`` with knowledge that never saw its threads: one plain dict per log."""
    kb, logs, threads, fold_of, support, messages, docs = _FOLD_INPUT
    held = {t for t in threads if fold_of[t] == f}
    test = [l for l in logs if l.thread in held]
    if not test:
        return []
    knowledge, model = fold_knowledge(kb, held, support, messages, docs)
    outcomes = []
    for log in test:
        regex_report = explain(log, knowledge, False)
        combined_report = explain(log, knowledge, True, model)
        scanned, hits, preds = classifier_reading(log, knowledge, model)
        pred = preds[0] if preds else ("none", 0.0, 0.0)
        # What the classifier would diagnose alone, were it allowed to (it only confirms and names candidates):
        # the figure that shows whether it could be trusted to.
        decides = pred[1] >= CLASSIFIER_ALONE and diagnose.tensorrt_context(scanned, combined_report.facts)
        got = {"regex": top(regex_report), "classifier": pred[0] if decides else "none",
               "combined": top(combined_report)}
        outcome = {"log": str(log.path.relative_to(ROOT)), "expected": expected(log), "fold": f, **got,
                   "zoo": log.thread.startswith("zoo:"), "kind": log.kind,
                   "classifier_top": [pred[0], round(pred[1], 3)],
                   "first_candidate": combined_report.candidates[0].id if combined_report.candidates else None}
        if log.kind != "negative":
            outcome["variant"] = is_variant(log, hits)
            outcome["classifier_named"] = [label for label, _ in diagnose.named_signatures(preds)]
            if log.cause and log.kind == "error" and got["combined"] == outcome["expected"]:
                outcome["cause_right"] = cause_of(combined_report) == log.cause
        outcomes.append(outcome)
    return outcomes


def held_out(kb: KnowledgeBase, logs: list[Log], folds: int, jobs: int = 1) -> dict:
    global _FOLD_INPUT
    support = pattern_support(kb, logs)
    threads = sorted({l.thread for l in logs})
    fold_of = {t: fold_of_thread(t, folds) for t in threads}
    # The corpus's documents are the same in every fold (each leaves its own threads out): made once, not per fold.
    _FOLD_INPUT = (kb, [l for l in logs if l.settled], threads, fold_of, support, message_support(kb, logs),
                   train.log_docs(kb, CORPUS))
    if jobs > 1:
        # Folds are independent (each trains its own classifier): run them in forked workers, which inherit
        # the loaded knowledge base instead of pickling it. Outcomes come back in fold order, as sequentially.
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(jobs, folds)) as pool:
            per_fold = pool.map(_fold_outcomes, range(folds), chunksize=1)
    else:
        per_fold = [_fold_outcomes(f) for f in range(folds)]
    outcomes = [o for fold in per_fold for o in fold]   # one per held-out log, for reading the misses
    matchers = ("regex", "classifier", "combined")
    results = {m: [(o["expected"], o[m]) for o in outcomes if o["kind"] != "negative"] for m in matchers}
    variant_results = {m: [(o["expected"], o[m]) for o in outcomes if o.get("variant") and o["kind"] == "error"]
                       for m in matchers}
    neg_diag = {m: [f"{o['log']} -> {o[m]}" for o in outcomes if o["kind"] == "negative" and o[m] != "none"]
                for m in matchers}
    cause_results = [o["cause_right"] for o in outcomes if "cause_right" in o]
    n_neg = sum(o["kind"] == "negative" for o in outcomes)
    summary = {}
    for m in results:
        # A wrong diagnosis is worse than none: count them apart from the logs left undiagnosed.
        wrong = sum(g not in (e, "none") for e, g in results[m])
        summary[m] = {"all": scores(results[m])["top1"], "n": len(results[m]),
                      "wrong": wrong / len(results[m]) if results[m] else 0.0,
                      "variants": scores(variant_results[m])["top1"] if variant_results[m] else None,
                      "variants_n": len(variant_results[m]), "negatives_diagnosed": len(neg_diag[m]),
                      "negatives_diagnosed_as": neg_diag[m]}
    summary["negatives"] = n_neg
    summary["folds"] = folds
    summary["causes"] = sum(cause_results) / len(cause_results) if cause_results else None
    summary["causes_n"] = len(cause_results)
    # Where the combined report abstains on a covered cause, how often its first candidate names it.
    abstained = [o for o in outcomes if o["expected"] != "none" and o["combined"] == "none"]
    summary["abstained"] = len(abstained)
    summary["abstained_first_candidate_right"] = sum(o["first_candidate"] == o["expected"] for o in abstained)
    # Whether the classifier recognises a variant: its first-named signature (whatever its confidence) is the
    # right one, or one of the three it names is.
    var_logs = [o for o in outcomes if o.get("variant") and o["expected"] != "none"]
    summary["variants_named_first"] = (sum(o["classifier_named"][:1] == [o["expected"]] for o in var_logs) / len(var_logs)
                                       if var_logs else None)
    summary["variants_named_top3"] = (sum(o["expected"] in o["classifier_named"] for o in var_logs) / len(var_logs)
                                      if var_logs else None)
    summary["variants_named_n"] = len(var_logs)
    # The zoo's logs are real TensorRT output, but for models this project wrote: the figure for logs of
    # public threads alone is the one that says how the tool does on other people's failures.
    public = [o for o in outcomes if "variant" in o and not o["zoo"]]   # every scored log but negatives
    summary["public"] = {"all": sum(o["combined"] == o["expected"] for o in public) / len(public) if public else None,
                         "wrong": sum(o["combined"] not in (o["expected"], "none") for o in public) / len(public)
                         if public else None, "n": len(public)}
    summary["logs"] = outcomes
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="as shipped only, no held-out folds")
    ap.add_argument("--jobs", type=int, default=1, help="folds run in this many processes (each trains a classifier)")
    ap.add_argument("--partitions", type=int, default=10,
                    help="regex-only held-out over this many partitions of the threads (0: skip)")
    args = ap.parse_args()
    kb = load(use_cache=False)
    logs = corpus_logs(kb)
    shipped = as_shipped(kb, logs)
    print(f"corpus: {sum(l.kind != 'negative' for l in logs)} example logs of {len({l.label for l in logs} - {'none'})} "
          f"signatures, {sum(l.kind == 'negative' for l in logs)} negatives, {len({l.thread for l in logs})} threads")
    for mode, res in shipped.items():
        cause = "n/a" if res["causes"] is None else f"{res['causes']:.1%} of {res['causes_n']}"
        print(f"\nas shipped, {mode}: top-1 {res['top1']:.1%} of {res['n']}; right cause {cause}; negatives "
              f"diagnosed {len(res['negatives_diagnosed'])} of {res['negatives']}; {res['unsettled']} unsettled "
              "logs not scored")
        for w in res["wrong"]:
            print(f"  miss: {w}")
        for w in res["negatives_diagnosed"]:
            print(f"  negative diagnosed: {w}")
    weak = {s: v for s, v in shipped["patterns"]["per_signature"].items()
            if v["recall"] < 1 or (v["precision"] is not None and v["precision"] < 1)}
    if weak:
        print("\nsignatures below 100% recall or precision (patterns):")
        for s, v in weak.items():
            print(f"  {s:<40} recall {v['recall']:.0%} precision {v['precision'] if v['precision'] is None else format(v['precision'], '.0%')}")
    figures = {"shipped": shipped}
    if not args.quick:
        ho = held_out(kb, logs, args.folds, args.jobs)
        figures["held_out"] = ho
        if args.partitions:
            spread = regex_spread(kb, logs, args.folds, args.partitions)
            ho["regex_partitions"] = spread
            print(f"\nregex only, held out over {spread['partitions']} partitions into {args.folds} folds: mean "
                  f"{spread['mean']:.1%} (min {spread['min']:.1%}, max {spread['max']:.1%}) of {spread['n']}")
        print(f"\nheld out by thread ({ho['folds']} folds; patterns learnt only from held-out threads removed):")
        print(f"  {'matcher':<12} {'top-1 all':>10} {'wrong':>7} {'n':>5} {'variants':>9} {'n':>4} {'negatives diagnosed':>20}")
        for m in ("regex", "classifier", "combined"):
            r = ho[m]
            var = "-" if r["variants"] is None else f"{r['variants']:.1%}"
            print(f"  {m:<12} {r['all']:>10.1%} {r['wrong']:>7.1%} {r['n']:>5} {var:>9} {r['variants_n']:>4} "
                  f"{r['negatives_diagnosed']:>8} of {ho['negatives']}")
        if ho["variants_named_n"]:
            print(f"  variants: the classifier's first-named signature is right for {ho['variants_named_first']:.1%}, "
                  f"one of its three for {ho['variants_named_top3']:.1%}, of {ho['variants_named_n']}")
        pub = ho["public"]
        if pub["n"]:
            print(f"  combined, logs of public threads only (no zoo): top-1 {pub['all']:.1%}, wrong {pub['wrong']:.1%} "
                  f"of {pub['n']}")
        if ho["causes"] is not None:
            print(f"  combined, right cause among right signatures: {ho['causes']:.1%} of {ho['causes_n']}")
        print(f"  combined abstained on {ho['abstained']} covered logs; its first candidate named the right signature "
              f"for {ho['abstained_first_candidate_right']}")
        for o in ho["logs"]:
            if o["combined"] != o["expected"]:
                kind = "abstained" if o["combined"] == "none" else f"said {o['combined']}"
                print(f"  held-out miss: {o['log']}: expected {o['expected']}, {kind}"
                      f"{' (variant)' if o.get('variant') else ''}; classifier {o['classifier_top'][0]} "
                      f"{o['classifier_top'][1]:.2f}")
        for m in ("classifier", "combined"):
            for wrong in ho[m]["negatives_diagnosed_as"]:
                print(f"  {m} diagnosed a negative: {wrong}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str))


if __name__ == "__main__":
    main()
