"""``trtdoctor kb new ID``: a signature file and its corpus folder, with every field explained."""

from __future__ import annotations

import re
from pathlib import Path

from trtdoctor.kb.schema import ID_RE

SIGNATURE = """\
# A signature file is the documentation of one TensorRT failure. See kb/README.md and CONTRIBUTING.md.
# 'trtdoctor kb check' validates it against the schema and runs it on its examples.

# Lowercase words joined by '-'; equal to this file's name.
id: {id}

# The root cause, in one line (10-160 characters). Say what is wrong, not what the message says.
title: TODO state the root cause in one line

# Where it fails: export | parser | builder | runtime | environment
category: parser

# error: a root cause. consequence: a line that only follows another error ('Engine could not be created').
# warning: noted in the report, never a diagnosis on its own.
kind: error

# Optional: only when the message comes from some tools and no others (the sidecar 'tool' names, e.g.
# [torch-tensorrt]); kb check then refuses an example from another tool.
# tools: []

# Optional: words to filter by (trtdoctor kb list --tag T): tools, platforms (jetson, dla, wsl, windows,
# docker), ONNX operators as ONNX spells them (NonZero), precisions (fp16, int8).
# tags: []

# The message as users see it, with numbers and names written as N, X.
message: "TODO the message"

# Regexes (RE2 syntax, also valid in Python) that recognise the message. Named groups (?P<name>...) are
# captured and shown as evidence. Each needs a literal of 4+ plain characters; no nested quantifiers.
# Match the stable words, not TensorRT's source line numbers (write ModelImporter\\.cpp:\\d+).
patterns:
  - regex: 'TODO stable words of the message (?P<node>\\S+)'
    confidence: 0.9   # how sure a match of this pattern alone makes the diagnosis (0.05-0.99)

# Versions, only where release notes or the threads establish them. Remove what you do not know.
tensorrt:
  affected: ">=8.0,<10.0"   # versions that show the error
  fixed_in: "10.0"          # first release without it

# Why it happens, in your own words: what in the model or environment leads to it, and why TensorRT refuses.
cause: >
  TODO

# What to do, most effective first. Concrete: flags, code changes, commands, versions. A step that has a
# cost (lower precision, a slower kernel, an older driver, a fixed shape) is a mapping with its caveat:
#   - step: Build without --fp16.
#     caveat: The engine runs in FP32, slower and larger.
remedy:
  - TODO

# Optional: when one message has several causes that the log can tell apart. Two or more, most common first.
# Each 'when' test: expr (over captured names and facts), line / no_line (regex on other lines),
# tensorrt (version specifier), probe (a confirmation probe id). Each has 'says', shown in the report.
# causes:
#   - id: first-cause
#     title: ...
#     cause: ...
#     remedy: [...]
#     when:
#       - expr: "count == 0"
#         says: the count is zero
#   - id: second-cause
#     ...

# Optional: ids of signatures this one explains when both match one log (a generic form of the same
# message, or a symptom of this cause).
# outranks: []

# Optional: lines that look like the message but are not this error (the warning form, the success form,
# another tool's similar line), copied verbatim from a log; kb check fails when a pattern matches one.
# lookalikes:
#   - "[W] [TRT] ..."

# The public threads (https) this signature was learnt from.
references:
  - https://github.com/NVIDIA/TensorRT/issues/TODO
"""

SIDECAR = """\
# Where the log beside this file came from. Rename both files to something descriptive (e.g. trt-issue-1234).
source: https://github.com/NVIDIA/TensorRT/issues/TODO   # the public thread the log was copied from
tensorrt: "unknown"      # the TensorRT version of the log, e.g. "8.6.1", or "unknown"
tool: trtexec            # trtexec | python-api | polygraphy | torch-tensorrt | onnxruntime | onnx-tensorrt |
                         # tensorrtx | mmdeploy | ultralytics | tf-trt | deepstream | triton | other
# cause: first-cause     # the candidate cause the thread established, if the signature has causes
# note: cut to the parser error; lines unchanged
"""


def scaffold(signature_id: str, kb_dir: Path, corpus: Path) -> list[Path]:
    if not re.match(ID_RE, signature_id):
        raise ValueError(f"{signature_id!r} is not an id: use lowercase words joined by '-'")
    target = kb_dir / f"{signature_id}.yaml"
    if target.exists():
        raise ValueError(f"{target} already exists")
    folder = corpus / signature_id
    sidecar = folder / "example.yaml"
    kb_dir.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(SIGNATURE.format(id=signature_id), encoding="utf-8")
    if not sidecar.exists():
        sidecar.write_text(SIDECAR, encoding="utf-8")
    return [target, sidecar]
