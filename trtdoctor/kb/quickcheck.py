"""Interim check for signature authors: `python -m trtdoctor.kb.quickcheck kb/ID.yaml ...`.

Validates each signature against the schema and checks that every log in corpus/ID/ matches one of
its patterns and that no negative log does.
"""
import re
import sys
from pathlib import Path

import yaml
from pydantic import ValidationError

from trtdoctor.kb.schema import CorpusSource, Signature

root = Path(__file__).resolve().parents[2]
bad = 0
for arg in sys.argv[1:]:
    path = Path(arg)
    try:
        sig = Signature.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (ValidationError, yaml.YAMLError) as exc:
        print(f"{path}: {exc}")
        bad += 1
        continue
    if sig.id != path.stem:
        print(f"{path}: id {sig.id!r} differs from the file name")
        bad += 1
    pats = [re.compile(p.regex) for p in sig.patterns]
    logs = sorted((root / "corpus" / sig.id).glob("*.log"))
    if not logs:
        print(f"{path}: no corpus logs in corpus/{sig.id}/")
        bad += 1
    for log in logs:
        meta = log.with_suffix(".yaml")
        try:
            CorpusSource.model_validate(yaml.safe_load(meta.read_text(encoding="utf-8")))
        except (OSError, ValidationError, yaml.YAMLError) as exc:
            print(f"{meta}: {exc}")
            bad += 1
        text = log.read_text(encoding="utf-8", errors="replace")
        if not any(p.search(line) for p in pats for line in text.splitlines()):
            print(f"{log}: no pattern of {sig.id} matches any line")
            bad += 1
    for neg in sorted((root / "corpus" / "negative").glob("*.log")):
        text = neg.read_text(encoding="utf-8", errors="replace")
        if sig.kind != "warning" and any(p.search(line) for p in pats for line in text.splitlines()):
            print(f"{path}: a pattern matches negative log {neg.name}")
            bad += 1
    print(f"{path}: {'ok' if not bad else 'see above'} ({len(logs)} logs)")
sys.exit(1 if bad else 0)
