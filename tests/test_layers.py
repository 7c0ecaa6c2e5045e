"""The package's layers, as the README's table writes them down, hold for every import of every module."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "trtdoctor"


def layer_table() -> dict[str, int]:
    """Top-level name (module or subpackage) -> layer number, from the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- layers:start -->", 1)[1].split("<!-- layers:end -->", 1)[0]
    layers = {}
    for row in block.splitlines():
        m = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", row)
        if m:
            for name in re.findall(r"`([^`]+)`", m.group(2)):
                layers[name] = int(m.group(1))
    return layers


def modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = modules()


def resolve(name: str) -> str:
    """The package module an imported name lives in: 'trtdoctor.kb.load' stays, an attribute of a module
    ('trtdoctor.diagnose.Diagnosis') resolves to the module."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of the package in a file: top level, inside functions, and under
    TYPE_CHECKING alike."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, resolve(a.name)) for a in node.names if a.name.split(".")[0] == "trtdoctor"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "trtdoctor":
            for alias in node.names:
                found.append((node.lineno, resolve(f"{node.module}.{alias.name}")))
    return found


def layer_of(module: str, table: dict[str, int]) -> int:
    parts = module.split(".")
    key = "__init__" if len(parts) == 1 else parts[1]
    return table[key]


def test_every_module_has_a_layer():
    table = layer_table()
    missing = sorted(m for m in MODULES if ("__init__" if m == "trtdoctor" else m.split(".")[1]) not in table)
    assert not missing, f"add these modules to the README's layer table: {missing}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_from_its_layer_or_below(module):
    table = layer_table()
    mine = layer_of(module, table)
    upward = [f"line {line}: {target} (layer {layer_of(target, table)})" for line, target in imports(MODULES[module])
              if target != module and layer_of(target, table) > mine]
    assert not upward, f"{module} (layer {mine}) imports from a higher layer: {upward}"


def test_no_import_cycles():
    graph = {m: {t for _, t in imports(p) if t != m and t in MODULES} for m, p in MODULES.items()}
    # The package's own __init__ files run on every import of a submodule; they are not edges of the flow.
    graph = {m: {t for t in ts if not (m.startswith(t + ".") )} for m, ts in graph.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, f"import cycles: {cycles}"


def test_the_checker_sees_an_upward_import(tmp_path):
    # The test above can fail: a module of layer 2 importing the API is caught.
    fake = tmp_path / "scan.py"
    fake.write_text("def f():\n    from trtdoctor import api\n")
    table = layer_table()
    targets = [t for _, t in imports(fake)]
    assert targets == ["trtdoctor.api"] and layer_of("trtdoctor.api", table) > table["scan"]
