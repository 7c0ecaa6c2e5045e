"""Regenerate the error index, docs/signatures/, from kb/ and corpus/ (never edited by hand).

    python scripts/gen_docs.py            # write the pages
    python scripts/gen_docs.py --check    # exit 1, naming the stale pages

`tests/test_docs.py` regenerates the pages in memory and fails when they differ from the files.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KB, CORPUS, OUT = ROOT / "kb", ROOT / "corpus", ROOT / "docs" / "signatures"


def pages() -> dict[Path, str]:
    from trtdoctor.kbtools.docs import generate

    return generate(KB, CORPUS, OUT)


def main() -> int:
    from trtdoctor.kbtools.docs import stale, write

    generated = pages()
    if "--check" in sys.argv[1:]:
        problems = stale(generated, OUT)
        for problem in problems:
            print(problem)
        print("stale: run python scripts/gen_docs.py" if problems else f"{len(generated)} pages up to date")
        return 1 if problems else 0
    written = write(generated, OUT)
    print(f"{len(generated)} pages in {OUT.relative_to(ROOT)}, {len(written)} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
