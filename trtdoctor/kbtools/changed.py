"""Which signatures a change touches: ``trtdoctor kb check --changed-since REF``.

A signature is changed when its file ``kb/<id>.yaml`` or anything under ``corpus/<id>/`` differs from
REF (committed or not), or is new and not yet tracked. The pull-request workflow checks only those,
over the pool of clean logs, so that a new pattern that fires on a successful build is refused with
the signature and the line named.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


class GitError(Exception):
    pass


def _git(root: Path, *args: str) -> list[str]:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return [line for line in done.stdout.splitlines() if line.strip()]


def toplevel(path: Path) -> Path:
    return Path(_git(path if path.is_dir() else path.parent, "rev-parse", "--show-toplevel")[0]).resolve()


def changed_paths(ref: str, top: Path) -> list[str]:
    """Paths (relative to the repository root) that differ from REF, plus untracked ones."""
    paths = set(_git(top, "diff", "--name-only", "--no-renames", ref, "--"))
    paths |= set(_git(top, "ls-files", "--others", "--exclude-standard"))
    return sorted(paths)


def ids_from_paths(paths: list[str], kb_dir: str = "kb", corpus_dir: str = "corpus") -> list[str]:
    """Signature ids named by changed paths: <kb>/<id>.yaml and <corpus>/<id>/... (not <corpus>/negative/)."""
    kb_parts, corpus_parts = Path(kb_dir).parts, Path(corpus_dir).parts
    ids: set[str] = set()
    for path in paths:
        parts = Path(path).parts
        if parts[: len(kb_parts)] == kb_parts and len(parts) == len(kb_parts) + 1 and parts[-1].endswith(".yaml"):
            ids.add(parts[-1][: -len(".yaml")])
        elif parts[: len(corpus_parts)] == corpus_parts and len(parts) >= len(corpus_parts) + 2:
            if parts[len(corpus_parts)] != "negative":
                ids.add(parts[len(corpus_parts)])
    return sorted(ids)


def changed_signatures(ref: str, kb_dir: Path, corpus: Path, known: set[str]) -> list[str]:
    """Ids of the knowledge base's signatures that a change since REF touches (deleted ones left out)."""
    top = toplevel(kb_dir)
    rel_kb = kb_dir.resolve().relative_to(top).as_posix()
    try:
        rel_corpus = corpus.resolve().relative_to(top).as_posix()
    except ValueError:
        rel_corpus = "\0"  # a corpus outside the repository: only signature files count
    return [i for i in ids_from_paths(changed_paths(ref, top), rel_kb, rel_corpus) if i in known]
