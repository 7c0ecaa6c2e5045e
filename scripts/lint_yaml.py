"""Lint the YAML files of the knowledge base and the corpus: the pull-request workflow's first step.

    python scripts/lint_yaml.py                 # kb/*.yaml and corpus/**/*.yaml
    python scripts/lint_yaml.py FILE_OR_DIR...  # others

Each file must be UTF-8, parse with ``yaml.safe_load`` into a mapping, and have no duplicate keys (PyYAML
keeps the last one silently, so a second ``remedy:`` would replace the first without a word), no tab
characters (YAML forbids them in indentation) and no trailing whitespace on lines, which makes diffs
noisy. This file is the whole configuration: the rules are the functions below. Problems are printed as
``file:line: sentence``; the exit status is 1 when there is any.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


class _UniqueKeyLoader(yaml.SafeLoader):
    """safe_load that refuses a key given twice in one mapping."""


def _mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict[object, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key]})", key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def lint_text(name: str, data: bytes) -> list[str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"{name}: is not UTF-8 ({exc.reason} at byte {exc.start})"]
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        if "\t" in line:
            problems.append(f"{name}:{n}: tab character; indent with spaces")
        if line != line.rstrip():
            problems.append(f"{name}:{n}: trailing whitespace")
    try:
        doc = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{name}:{mark.line + 1}" if mark else name
        return problems + [f"{where}: {getattr(exc, 'problem', None) or exc}"]
    if not isinstance(doc, dict):
        problems.append(f"{name}:1: must be a mapping of fields")
    return problems


def files(targets: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for t in targets:
        out.extend(sorted(t.rglob("*.yaml")) + sorted(t.rglob("*.yml")) if t.is_dir() else [t])
    return out


def main(argv: list[str]) -> int:
    targets = [Path(a) for a in argv] or [ROOT / "kb", ROOT / "corpus"]
    problems: list[str] = []
    found = files(targets)
    for path in found:
        problems.extend(lint_text(str(path), path.read_bytes()))
    for p in problems:
        print(p)
    print(f"lint_yaml: {len(found)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
