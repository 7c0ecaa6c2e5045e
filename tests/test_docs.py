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


def test_kb_docs_writes_checks_and_names_stale_pages(tmp_path):
    from typer.testing import CliRunner

    from trtdoctor.cli import app
    from test_kb_check import GOOD, write_kb

    kb, corpus = write_kb(tmp_path, {"frob-fail": GOOD.format(id="frob-fail", regex=r"frobnicator failed (?P<n>\d+) times")},
                          {"frob-fail/one": "[I] start\n[E] frobnicator failed 3 times\n"})
    out = tmp_path / "pages"
    args = ["kb", "docs", "--dir", str(kb), "--corpus", str(corpus), "--out", str(out)]
    runner = CliRunner()
    assert runner.invoke(app, args).exit_code == 0
    page = (out / "frob-fail.md").read_text()
    assert "[E] frobnicator failed 3 times" in page and "one.log), line 2" in page
    assert runner.invoke(app, [*args, "--check"]).exit_code == 0
    (out / "frob-fail.md").write_text(page.replace("widget", "gadget"))
    (out / "gone.md").write_text("old page\n")
    stale_run = runner.invoke(app, [*args, "--check"])
    assert stale_run.exit_code == 1
    assert "frob-fail.md: differs from its signature file" in stale_run.output
    assert "gone.md: names no signature" in stale_run.output
