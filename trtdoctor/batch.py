"""Many logs at once: explain each (in parallel with ``jobs``), and summarise counts per signature."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from trtdoctor.report import Report

Result = tuple[str, "Report | None", "str | None"]


def _one(path: str, options: dict[str, Any]) -> Result:
    from trtdoctor import api

    try:
        return path, api.explain(Path(path), **options), None
    except api.InputError as exc:
        return path, None, str(exc)


def explain_many(paths: Sequence[str], *, jobs: int = 1, **options: Any) -> list[Result]:
    """(path, report, error) for each path, in the order given; ``jobs=0`` uses every core."""
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    options["kb_dirs"] = [str(d) for d in options.get("kb_dirs", ())]
    if workers <= 1 or len(paths) < 2:
        return [_one(p, options) for p in paths]
    with ProcessPoolExecutor(max_workers=min(workers, len(paths))) as pool:
        return list(pool.map(_one, paths, [options] * len(paths), chunksize=max(1, len(paths) // (workers * 4))))


# What a worker sends back for a summary: (path, top signature id or None, its title, error). Reports stay in the
# worker, so that memory does not grow with the number of logs.
Brief = tuple[str, "str | None", "str | None", "str | None"]


def _brief(path: str, options: dict[str, Any]) -> Brief:
    path, report, error = _one(path, options)
    if report is None or not report.diagnoses:
        return path, None, None, error
    return path, report.diagnoses[0].id, report.diagnoses[0].title, None


def summarise_many(paths: Sequence[str], *, jobs: int = 1, **options: Any) -> tuple[dict[str, Any], list[str], int]:
    """The summary of many logs (as ``summary``), the errors, and how many logs were diagnosed; only counts are
    kept, in this process and the workers alike."""
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    options["kb_dirs"] = [str(d) for d in options.get("kb_dirs", ())]
    counts: Counter[str] = Counter()
    titles: dict[str, str] = {}
    errors: list[str] = []
    logs = 0

    def add(brief: Brief) -> None:
        nonlocal logs
        _, top, title, error = brief
        if error is not None:
            errors.append(error)
            return
        logs += 1
        key = top or "(unknown)"
        counts[key] += 1
        titles[key] = title or "no known failure matched"

    if workers <= 1 or len(paths) < 2:
        for p in paths:
            add(_brief(p, options))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(paths))) as pool:
            for brief in pool.map(_brief, paths, [options] * len(paths),
                                  chunksize=max(1, min(64, len(paths) // (workers * 4)))):
                add(brief)
    data = {"logs": logs, "signatures": [{"id": k, "title": titles[k], "logs": n} for k, n in counts.most_common()]}
    return data, errors, logs - counts["(unknown)"]


def summary(reports: Sequence[Report]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    titles: dict[str, str] = {}
    for report in reports:
        if report.diagnoses:
            top = report.diagnoses[0]
            counts[top.id] += 1
            titles[top.id] = top.title
        else:
            counts["(unknown)"] += 1
            titles["(unknown)"] = "no known failure matched"
    return {"logs": len(reports),
            "signatures": [{"id": k, "title": titles[k], "logs": n} for k, n in counts.most_common()]}


def render_summary(reports: "Sequence[Report] | dict[str, Any]", fmt: str) -> str:
    data = reports if isinstance(reports, dict) else summary(reports)
    if fmt == "json":
        import json

        return json.dumps(data, indent=2)
    rows = [f"{'logs':>5}  {'signature':<40} title", f"{'-' * 5}  {'-' * 40} {'-' * 30}"]
    rows += [f"{s['logs']:>5}  {s['id']:<40} {s['title']}" for s in data["signatures"]]
    rows.append(f"{data['logs']:>5}  logs in all")
    return "\n".join(rows)
