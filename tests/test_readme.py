"""The README's promises: two set-up commands, the bundled example, figures generated not typed."""

import re
import subprocess
import sys

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def setup_commands() -> list[str]:
    block = README.split("## Set-up", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_two_setup_commands_and_ci_runs_the_test_one():
    commands = setup_commands()
    assert len(commands) == 2
    assert "trtdoctor explain examples/" in commands[0]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci


def test_bundled_example_is_diagnosed_as_its_name_says():
    example = re.search(r"trtdoctor explain (examples/\S+)", setup_commands()[0]).group(1)
    import trtdoctor

    report = trtdoctor.explain(ROOT / example)
    assert report.diagnoses and report.top.id == (ROOT / example).stem


def test_coverage_table_matches_the_knowledge_base():
    sys.path.insert(0, str(ROOT / "scripts"))
    import readme_figures

    body = README.split("<!-- coverage:start -->\n", 1)[1].split("\n<!-- coverage:end -->", 1)[0]
    assert body == readme_figures.coverage(), "run: python scripts/readme_figures.py"


def test_example_output_is_the_real_output():
    sys.path.insert(0, str(ROOT / "scripts"))
    import readme_figures

    body = README.split("<!-- example:start -->\n", 1)[1].split("\n<!-- example:end -->", 1)[0]
    assert body == readme_figures.example(), "run: python scripts/readme_figures.py"
    assert readme_figures.EXAMPLE in setup_commands()[0]
