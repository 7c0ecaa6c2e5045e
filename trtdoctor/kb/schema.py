"""The signature file format, as pydantic models.

This module is the single definition of what a file under ``kb/`` may contain. It is imported only
when the knowledge base is (re)validated: by ``trtdoctor kb check``, and when the compiled cache is
stale. The explain path reads the compiled cache and never imports pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_RE = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
VERSION_RE = r"^\d+(?:\.\d+){0,3}$"
SPEC_RE = r"^\s*(?:(?:==|!=|>=|<=|>|<)\s*\d+(?:\.\d+){0,3}\s*)(?:,\s*(?:==|!=|>=|<=|>|<)\s*\d+(?:\.\d+){0,3}\s*)*$"

TESTS = ("expr", "line", "no_line", "tensorrt", "probe", "no_probe")
Category = Literal["export", "parser", "builder", "runtime", "environment"]
Kind = Literal["error", "consequence", "warning"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def _compiled(regex: str) -> str:
    """The regex, unchanged, once it compiles; pydantic reports the ValueError against the field."""
    try:
        re.compile(regex)
    except re.error as exc:
        raise ValueError(f"does not compile: {exc}") from None
    return regex


class _ContextLine(_Strict):
    """A line of the log that decides whether a pattern's match counts: its regex compiles, and it says in a
    sentence what it shows, for the report."""

    line: str
    says: str = Field(description="What that line shows, in a sentence a user reads in the report.")

    @field_validator("line")
    @classmethod
    def _compiles(cls, value: str) -> str:
        return _compiled(value)


class Unless(_ContextLine):
    """A line that shows a pattern's match is the harmless reading of the same words."""

    line: str = Field(description="Regex that, matching any line of the log, makes the pattern not count.")


class Requires(_ContextLine):
    """A line that shows the context in which a generic message is this error."""

    line: str = Field(description="Regex of which some line of the log must match for the pattern to count.")


class Pattern(_Strict):
    """One regular expression that recognises the message. Named groups become facts."""

    regex: str = Field(description="Regular expression (RE2 syntax, also valid in Python). Named groups "
                       "(?P<name>...) are captured as facts.")
    confidence: float = Field(0.9, ge=0.05, le=0.99,
                              description="How sure a match of this pattern alone makes the diagnosis.")
    unless: list[Unless] = Field(default_factory=list, description="Lines that, when the log has one, show "
                                 "the match is the harmless reading of the message (another failure that "
                                 "the same warning precedes, say): the pattern then does not count.")
    requires: list[Requires] = Field(default_factory=list, description="Lines of which the log must show at "
                                     "least one for the pattern to count: the context that makes a generic "
                                     "message (a C++ exception, say) this error.")
    verbose: bool = Field(False, description="Whether a match on a line TensorRT logged at VERBOSE level counts. "
                          "Off by default: TensorRT 10's verbose output repeats its own shape checks in the words "
                          "of real errors, for builds that go on and succeed. On for a message TensorRT prints only "
                          "at VERBOSE level (the TensorRT 6 parser's importer traces).")

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str) -> str:
        return _compiled(value)


class Evidence(_Strict):
    """One test that selects a candidate cause: exactly one of expr, line, no_line, tensorrt, probe, no_probe."""

    says: str = Field(description="What this evidence means, in a sentence a user reads in the report.")
    expr: str | None = Field(None, description="Boolean expression over the captured numbers and facts, "
                             "e.g. 'count == expected * groups'.")
    line: str | None = Field(None, description="Regex that must match some line of the log.")
    no_line: str | None = Field(None, description="Regex that must match no line of the log.")
    tensorrt: str | None = Field(None, description="Version specifier the log's TensorRT version must meet.")
    probe: str | None = Field(None, description="Id of a confirmation probe that must report 'confirmed'.")
    no_probe: str | None = Field(None, description="Id of a confirmation probe that must report 'refuted'.")
    required: bool = Field(False, description="When the log cannot tell (no probe ran, a name is missing), "
                           "count this test as failed rather than unknown: the cause is never chosen on a guess.")

    @model_validator(mode="after")
    def _exactly_one(self) -> "Evidence":
        given = [k for k in TESTS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(TESTS)} (got {given or 'none'})")
        for key in ("line", "no_line"):
            value = getattr(self, key)
            if value is not None:
                try:
                    re.compile(value)
                except re.error as exc:
                    raise ValueError(f"{key} does not compile: {exc}") from None
        if self.tensorrt is not None and not re.match(SPEC_RE, self.tensorrt):
            raise ValueError(f"tensorrt must be a version specifier like '>=8.5,<10.3', got {self.tensorrt!r}")
        for key in ("probe", "no_probe"):
            value = getattr(self, key)
            if value is not None and not re.match(ID_RE, value):
                raise ValueError(f"{key} must be an id like 'conv-weights-not-constant', got {value!r}")
        if self.expr is not None:
            from trtdoctor.expr import ExprError, compile_expr

            try:
                compile_expr(self.expr)
            except ExprError as exc:
                raise ValueError(f"expr {exc}") from None
        return self


Tool = Literal["trtexec", "python-api", "polygraphy", "torch-tensorrt", "onnxruntime", "onnx-tensorrt",
               "tensorrtx", "mmdeploy", "ultralytics", "tf-trt", "deepstream", "triton", "paddle", "tensorrt-llm",
               "tao", "tensorrt-rtx", "other"]


class RemedyStep(_Strict):
    """A remedy step that has a cost, written as a mapping instead of a plain string."""

    step: str = Field(min_length=5, description="What to do, as in a plain remedy step.")
    caveat: str | None = Field(None, min_length=5, description="What the step costs: lower precision, a slower "
                               "kernel, a downgraded driver, a lost feature. Shown beside the step in every report.")


Remedy = list[str | RemedyStep]
TAG_RE = r"^[A-Za-z0-9][A-Za-z0-9._+-]*$"


class Cause(_Strict):
    """One of several causes behind the same message, with the evidence that selects it."""

    id: str = Field(pattern=ID_RE)
    title: str = Field(min_length=10, max_length=160)
    cause: str = Field(min_length=20)
    remedy: Remedy = Field(min_length=1, description="Ordered steps, most effective first; a step is a string "
                           "or a mapping {step: ..., caveat: ...}.")
    when: list[Evidence] = Field(default_factory=list,
                                 description="All must hold for the cause to be selected; empty means "
                                 "'the most common cause when nothing else is shown'.")


class TensorRTVersions(_Strict):
    affected: str | None = Field(None, description="Versions that show the error, e.g. '>=8.5,<10.3'.")
    fixed_in: str | None = Field(None, description="First version without the error, e.g. '10.3'.")

    @field_validator("affected")
    @classmethod
    def _spec(cls, value: str | None) -> str | None:
        if value is not None and not re.match(SPEC_RE, value):
            raise ValueError(f"must be a version specifier like '>=8.5,<10.3', got {value!r}")
        return value

    @field_validator("fixed_in")
    @classmethod
    def _version(cls, value: str | None) -> str | None:
        if value is not None and not re.match(VERSION_RE, value):
            raise ValueError(f"must be a version like '10.3', got {value!r}")
        return value


class Signature(_Strict):
    """A signature file: the documentation of one TensorRT failure and how to recognise it."""

    id: str = Field(pattern=ID_RE, description="Equal to the file name without .yaml.")
    title: str = Field(min_length=10, max_length=160, description="The root cause, in one line.")
    category: Category
    kind: Kind = Field("error", description="error: a root cause. consequence: a line that only follows "
                       "another error (never outranks a cause). warning: noted, never a diagnosis alone.")
    message: str = Field(min_length=5, description="The message as users see it, numbers shown as N.")
    patterns: list[Pattern] = Field(min_length=1)
    tensorrt: TensorRTVersions = Field(default_factory=TensorRTVersions)
    cause: str = Field(min_length=20, description="Why it happens, in the project's own words.")
    remedy: Remedy = Field(min_length=1, description="Ordered steps, most effective first; a step is a string "
                           "or a mapping {step: ..., caveat: ...} when it has a cost.")
    causes: list[Cause] = Field(default_factory=list)
    probes: list[str] = Field(default_factory=list, description="Confirmation probes that check this.")
    outranks: list[str] = Field(default_factory=list, description="Signatures this one explains when both "
                                "match one log: a generic form of the same message, or a symptom of this cause.")
    references: list[str] = Field(min_length=1, description="Public threads the signature was learnt from.")
    tools: list[Tool] = Field(default_factory=list, description="The tools this signature applies to, when "
                                "only some (torch-tensorrt, tf-trt, ...); empty: any. kb check refuses an "
                                "example whose sidecar tool is outside it.")
    tags: list[str] = Field(default_factory=list, description="Free tags to filter by: tools, platforms "
                            "(jetson, wsl, dla, windows), ONNX op names (NonZero), precisions (fp16, int8).")
    lookalikes: list[str] = Field(default_factory=list, description="Lines that resemble the message but must "
                                  "not match: a warning with the same words, the success form, another tool's "
                                  "similar line. kb check fails when a pattern matches one.")

    @field_validator("references")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        for url in value:
            if not re.match(r"^https://[A-Za-z0-9.-]+\.[A-Za-z]{2,}/\S*$", url):
                raise ValueError(f"not an https URL: {url!r}")
        if len(set(value)) != len(value):
            raise ValueError("duplicate reference")
        return value

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        for tag in value:
            if not re.match(TAG_RE, tag):
                raise ValueError(f"a tag is one word of letters, digits, '.', '_', '+' or '-', got {tag!r}")
        if len({t.lower() for t in value}) != len(value):
            raise ValueError("duplicate tag")
        return value

    @field_validator("tools", "lookalikes")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("duplicate entry")
        return value

    @field_validator("probes", "outranks")
    @classmethod
    def _ids(cls, value: list[str]) -> list[str]:
        for item in value:
            if not re.match(ID_RE, item):
                raise ValueError(f"must be an id like 'unsupported-onnx-op', got {item!r}")
        return value

    @model_validator(mode="after")
    def _causes(self) -> "Signature":
        ids = [c.id for c in self.causes]
        if len(set(ids)) != len(ids):
            raise ValueError("cause ids must be unique")
        if len(self.causes) == 1:
            raise ValueError("give two or more causes, or none (cause/remedy then say it all)")
        return self


class CorpusSource(_Strict):
    """The sidecar file beside each corpus log: where the log came from."""

    source: str = Field(description="URL of the public thread the log was copied from, or 'zoo:<case>' for a "
                        "log that a real TensorRT(-RTX) printed for a model of scripts/zoo.py.")
    tensorrt: str = Field(description="TensorRT version the log was produced with, or 'unknown'.")
    tool: Tool
    cause: str | None = Field(None, description="Id of the candidate cause the thread established, if any.")
    settled: bool = Field(True, description="false: the thread never established the cause; the log stays as "
                          "an example but is left out of the evaluation's scores.")
    command: str | None = Field(None, description="For a zoo log: the command that regenerates it.")
    note: str | None = None

    @field_validator("source")
    @classmethod
    def _url(cls, value: str) -> str:
        if not re.match(r"^(?:https://[A-Za-z0-9.-]+\.[A-Za-z]{2,}/\S*|zoo:[a-z0-9]+(?:-[a-z0-9]+)*)$", value):
            raise ValueError(f"not an https URL nor zoo:<case>: {value!r}")
        return value

    @field_validator("tensorrt")
    @classmethod
    def _version(cls, value: str) -> str:
        if value != "unknown" and not re.match(VERSION_RE, value):
            raise ValueError(f"must be a version like '8.5.3' or 'unknown', got {value!r}")
        return value

    @model_validator(mode="after")
    def _zoo_command(self) -> "CorpusSource":
        if self.source.startswith("zoo:") and not self.command:
            raise ValueError("a zoo log needs 'command': how to regenerate it")
        return self


def remedy_parts(remedy: Sequence[str | RemedyStep]) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """The steps as text, and each step's caveat (None when it has none)."""
    steps = tuple(r if isinstance(r, str) else r.step for r in remedy)
    caveats = tuple(None if isinstance(r, str) else r.caveat for r in remedy)
    return steps, caveats


def json_schema() -> str:
    """The JSON Schema of a signature file, for editors; kb/signature.schema.json is kept equal to it."""
    import json

    schema = Signature.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
