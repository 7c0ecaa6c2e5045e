"""Regenerate the README's coverage table and evaluation figures (never typed by hand).

    python scripts/evaluate.py --json /tmp/eval.json && python scripts/readme_figures.py /tmp/eval.json

Without an argument only the coverage table is regenerated. `tests/test_readme.py` checks that the
coverage table matches the knowledge base.

    python scripts/readme_figures.py --tag jetson      # print the coverage table of the signatures tagged jetson

A tag is one of a signature's `tags` or `tools` (case does not matter); the README is left as it is.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

README = ROOT / "README.md"


PLATFORMS = ("jetson", "dla", "wsl", "windows", "docker")


def coverage(tag: str | None = None) -> str:
    from trtdoctor.kb.load import load

    kb = load(use_cache=False)
    corpus = ROOT / "corpus"
    by_cat: Counter[str] = Counter()
    logs_by_cat: Counter[str] = Counter()
    for sig in kb.signatures:
        if tag is not None and not sig.has_tag(tag):
            continue
        by_cat[sig.category] += 1
        logs_by_cat[sig.category] += len(list((corpus / sig.id).glob("*.log")))
    negatives = len(list((corpus / "negative").glob("*.log")))
    rows = ["| category | signatures | corpus logs |", "| --- | ---: | ---: |"]
    for cat in ("export", "parser", "builder", "runtime", "environment"):
        rows.append(f"| {cat} | {by_cat[cat]} | {logs_by_cat[cat]} |")
    rows.append(f"| **all** | **{sum(by_cat.values())}** | **{sum(logs_by_cat.values())}** |")
    if tag is not None:
        return "\n".join(rows)
    platforms = [f"{p} {sum(1 for sig in kb.signatures if sig.has_tag(p))}" for p in PLATFORMS]
    rows.append("")
    rows.append(f"By platform: {', '.join(platforms)}; every tag, and one page per signature, in the "
                "[error index](docs/signatures/README.md) (`trtdoctor kb list --tag T` filters the same way).")
    rows.append("")
    rows.append(f"Plus {negatives} negative logs (successful builds, warnings only, other tools' failures) that must "
                "give no diagnosis.")
    return "\n".join(rows)


EXAMPLE = "examples/myelin-conv-computed-weights.log"


def example() -> str:
    """The real text report on the bundled example, as the README's first set-up command prints it."""
    import os

    from trtdoctor import explain
    from trtdoctor.render import render

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        report = explain(EXAMPLE)
    finally:
        os.chdir(here)
    return "\n".join(["```console", f"$ trtdoctor explain {EXAMPLE}", render(report).rstrip("\n"), "```"])


def evaluation(path: Path) -> str:
    fig = json.loads(path.read_text())
    s = fig["shipped"]
    lines = ["As shipped (`python scripts/evaluate.py`):", "",
             "| matcher | top-1 on example logs | right cause (where the thread established it) | negatives diagnosed |",
             "| --- | ---: | ---: | ---: |"]
    for mode in ("patterns", "patterns+classifier"):
        r = s[mode]
        cause = "n/a" if r.get("causes") is None else f"{r['causes']:.1%} of {r['causes_n']}"
        lines.append(f"| {mode} | {r['top1']:.1%} of {r['n']} | {cause} | {len(r['negatives_diagnosed'])} of "
                     f"{r['negatives']} |")
    unsettled = s["patterns"].get("unsettled")
    if unsettled:
        lines += ["", f"{unsettled} logs whose thread never established the cause (`settled: false`) are kept as "
                  "examples but not scored."]
    ho = fig.get("held_out")
    if ho:
        lines += ["", f"Held out by source thread ({ho['folds']} folds; the classifier never sees the thread it is "
                  "tested on, and every wording learnt only from that thread is removed: each pattern is split into its "
                  "alternatives, and one joined to another thread's wording is not kept for it; so is each part of a signature's "
                  "message, the classifier's reading of the signature, that only that thread shows). *Variants* are the held-out "
                  "logs that no remaining pattern names:", "",
                  "| matcher | top-1, all held-out logs | wrong diagnosis (not abstaining) | top-1, variants | negatives diagnosed |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for m in ("regex", "classifier", "combined"):
            r = ho[m]
            var = "n/a" if r["variants"] is None else f"{r['variants']:.1%} of {r['variants_n']}"
            lines.append(f"| {m} | {r['all']:.1%} of {r['n']} | {r['wrong']:.1%} | {var} | "
                         f"{r['negatives_diagnosed']} of {ho['negatives']} |")
        spread = ho.get("regex_partitions")
        if spread:
            lines += ["", f"Which threads share a fold moves these figures: over {spread['partitions']} partitions of the "
                      f"threads into {ho['folds']} folds (the table's is the first), the regex row's top-1 has a mean of "
                      f"{spread['mean']:.1%}, from {spread['min']:.1%} to {spread['max']:.1%}."]
            first = spread["top1"][0]
            if first > spread["mean"]:
                # Corpus work is steered by the table's misses (a wording two threads show is lost when both fall in
                # one fold, and a third thread is searched for), which lifts this partition more than the others.
                rank = 1 + sum(top > first for top in spread["top1"])   # a tie shares the better rank
                lines[-1] += (f" The table's partition ranks {rank} of {spread['partitions']}: its misses are the ones "
                              f"searched for, so the mean is the fairer figure for logs of threads not yet seen.")
        if ho.get("variants_named_n"):
            lines += ["", f"On the {ho['variants_named_n']} variants that are errors, the signature the classifier names "
                      f"first (whatever its confidence; it is shown as a candidate, never as a diagnosis) is the right "
                      f"one for {ho['variants_named_first']:.1%}, and one of the three it names for "
                      f"{ho['variants_named_top3']:.1%}."]
        pub = ho.get("public")
        if pub and pub.get("n"):
            lines += ["", f"Of these held-out logs, the {pub['n']} from public threads (the zoo's own builds left out) get "
                      f"the right top diagnosis {pub['all']:.1%} of the time and a wrong one {pub['wrong']:.1%}."]
        if ho.get("causes") is not None:
            lines += ["", f"Combined, where the signature is right and the thread established the cause, the selected "
                      f"cause is right for {ho['causes']:.1%} of {ho['causes_n']} held-out logs."]
        if ho.get("abstained") is not None:
            lines += ["", "The classifier row is what the classifier would diagnose alone (its top label at a calibrated "
                      "0.6). It is never allowed to: it only confirms pattern diagnoses and names candidates. "
                      f"Where the combined report abstained on a covered log "
                      f"({ho['abstained']}), its first candidate named the right signature for "
                      f"{ho['abstained_first_candidate_right']}."]
    return "\n".join(lines)


def replace(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- {name}:start -->)\n.*?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"README has no {name} markers")
    return pattern.sub(lambda m: m.group(1) + "\n" + body + "\n" + m.group(2), text)


def main() -> None:
    if "--tag" in sys.argv[1:]:
        tag = sys.argv[sys.argv.index("--tag") + 1]
        print(f"Signatures tagged {tag}:\n\n{coverage(tag)}")
        return
    text = README.read_text(encoding="utf-8")
    text = replace(text, "example", example())
    text = replace(text, "coverage", coverage())
    if len(sys.argv) > 1:
        text = replace(text, "evaluation", evaluation(Path(sys.argv[1])))
    README.write_text(text, encoding="utf-8")
    print("README figures regenerated")


if __name__ == "__main__":
    main()
