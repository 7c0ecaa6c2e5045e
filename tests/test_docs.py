"""The error index in docs/signatures/ is generated from the signature files and kept in step with them."""

import re
import sys

from conftest import CORPUS, ROOT

sys.path.insert(0, str(ROOT / "scripts"))

import gen_docs  # noqa: E402

from trtdoctor.kb.load import compile_files, signature_files  # noqa: E402
from trtdoctor.kbtools.docs import quotes, stale  # noqa: E402


def test_pages_are_in_step_with_the_signature_files():
    problems = stale(gen_docs.pages(), gen_docs.OUT)
    assert not problems, "\n".join(problems[:10]) + "\nrun: python scripts/gen_docs.py"


def test_each_page_quotes_its_message_verbatim_from_a_real_log():
    kb = compile_files(signature_files([ROOT / "kb"]))
    pages = gen_docs.pages()
    for sig in kb.signatures:
        text = pages[gen_docs.OUT / f"{sig.id}.md"]
        found = quotes(sig, CORPUS)
        assert found, f"{sig.id}: no pattern matches a line of its corpus logs"
        for _, log, n, line in found[:1]:
            # The line is on the page as it is in the log, so a pasted error message finds the page.
            assert line[:200] in text
            assert any(re.search(p.regex, line) for p in sig.patterns)
            assert f"{log.name}), line {n}" in text


def test_pages_keep_the_fixed_order_and_the_index_links_every_page():
    pages = gen_docs.pages()
    index = pages[gen_docs.OUT / "README.md"]
    for path, text in pages.items():
        if path.name == "README.md":
            continue
        heads = [h for h in re.findall(r"^## (.+)$", text, re.M)]
        assert heads == ["What you see", "Why", "What to do", "TensorRT versions", "References"], path
        assert f"]({path.name})" in index
