"""The public Python API: explain a log given as a path, text, bytes or a stream. The CLI is a thin layer
over these functions; the flow itself is ``trtdoctor.pipeline``."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, BinaryIO

from trtdoctor import pipeline, read
from trtdoctor.pipeline import Knowledge, knowledge_base
from trtdoctor.read import InputError
from trtdoctor.report import Report

if TYPE_CHECKING:
    from trtdoctor.classify import Model

__all__ = ["InputError", "explain", "explain_stream", "knowledge_base"]


def explain(text_or_path: str | bytes | os.PathLike[str], *, kb_dirs: Iterable[str | os.PathLike[str]] = (),
            min_confidence: float = 0.3, classifier: bool = True,
            probe_outcomes: Mapping[str, str] | None = None) -> Report:
    """Explain a TensorRT log.

    ``text_or_path`` is a path (``pathlib.Path``, or a one-line ``str`` naming an existing file), the log
    as ``bytes``, or the log as ``str``. Raises ``InputError`` for input that is not a readable text log.
    """
    if isinstance(text_or_path, bytes):
        return explain_stream(io.BytesIO(text_or_path), source="<bytes>", kb_dirs=kb_dirs,
                              min_confidence=min_confidence, classifier=classifier, probe_outcomes=probe_outcomes)
    if isinstance(text_or_path, os.PathLike) or (
            isinstance(text_or_path, str) and "\n" not in text_or_path and len(text_or_path) < 4096
            and os.path.isfile(text_or_path)):
        path = os.fspath(text_or_path)
        with read.open_input(path) as stream:
            return explain_stream(stream, source=path, kb_dirs=kb_dirs, min_confidence=min_confidence,
                                  classifier=classifier, probe_outcomes=probe_outcomes)
    if isinstance(text_or_path, str):
        return explain_stream(io.BytesIO(text_or_path.encode("utf-8", "surrogatepass")), source="<text>",
                              kb_dirs=kb_dirs, min_confidence=min_confidence, classifier=classifier,
                              probe_outcomes=probe_outcomes)
    raise TypeError(f"explain() takes a path, str or bytes, not {type(text_or_path).__name__}")


def explain_stream(stream: BinaryIO, *, source: str = "<stream>", kb_dirs: Iterable[str | os.PathLike[str]] = (),
                   min_confidence: float = 0.3, classifier: bool = True,
                   probe_outcomes: Mapping[str, str] | None = None) -> Report:
    """Explain a log read from a binary stream (a file, a pipe, standard input)."""
    return explain_chunks(read.chunks(stream, numbered=False), source=source, kb_dirs=kb_dirs, min_confidence=min_confidence,
                          classifier=classifier, probe_outcomes=probe_outcomes)


def explain_chunks(chunks: Iterator[read.Chunk], *, source: str, kb_dirs: Iterable[str | os.PathLike[str]] = (),
                   min_confidence: float = 0.3, classifier: bool = True,
                   probe_outcomes: Mapping[str, str] | None = None,
                   knowledge: Knowledge | None = None, model: Model | None = None) -> Report:
    """The whole flow over chunks. ``knowledge`` and ``model`` replace the bundled KB and classifier
    (the evaluation uses them to hold out a thread's logs from both)."""
    knowledge = knowledge or knowledge_base(kb_dirs)
    if not classifier:
        model = None
    elif model is None:
        def model() -> Model:
            from trtdoctor import train

            return train.model_for(knowledge[0])
    return pipeline.run(chunks, source=source, knowledge=knowledge, min_confidence=min_confidence,
                        model=model, probe_outcomes=probe_outcomes)
