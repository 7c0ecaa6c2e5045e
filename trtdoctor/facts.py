"""What the log says about its own circumstances: TensorRT version, tool, command, GPU, failing node.

These facts turn a generic diagnosis into a specific one ("fixed in 10.3, and this log is 8.5.5";
"node 12, a Conv"), and feed the evidence tests that choose between candidate causes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from trtdoctor import versions
from trtdoctor.lines import LogLine

# A word of every success line (_SUCCESS): the scanner keeps such lines; extract() tries the regex on them only.
_SUCCESS_WORDS = ("PASSED", "export success", "serialize cuda engine to file")
# Every line a fact is read from contains one of these; the scanner looks for them.
LITERALS = (
    "TensorRT", "tensorrt", "trtexec", "polygraphy", "torch_tensorrt", "Torch-TensorRT", "onnxruntime",
    "TensorrtExecutionProvider", "Ultralytics", "mmdeploy", "While parsing node", "In node ",
    "Selected Device", "Compute Capability", "Driver Version", "CUDA Version", "CUDA version", "driver version",
    "microsoft-standard", "WSL", "GeForce", "Tesla", "Quadro", "NVIDIA A", "NVIDIA H", "NVIDIA L", "Jetson",
    "Orin", "Xavier", *_SUCCESS_WORDS,
)
# Lines that look like errors, kept so that an unrecognised failure can still be shown and classified.
ERROR_MARKERS = ("[E]", "ERROR", "Error", "error", "Assertion", "failed", "Traceback", "Exception", "FAIL",
                 "Segmentation fault", "Aborted", "core dumped")

_VERSION_RULES = (
    re.compile(r"\[TensorRT v(\d{4,6})\]"),
    re.compile(r"TensorRT[ -]?[Vv]ersion\s*[:=]?\s*v?(\d+\.\d+(?:\.\d+){0,2})"),
    re.compile(r"TensorRT[- ]v?(\d{1,2}\.\d+\.\d+(?:\.\d+)?)"),
    re.compile(r"\btensorrt(?:[-_]cu\d+)?\s*(?:==|=|:|\s)\s*v?(\d{1,2}\.\d+\.\d+(?:\.\d+)?)"),
    re.compile(r"TensorRT (\d{1,2}\.\d+)\b(?!\.)"),
)
# (tool, literals one of which its lines contain, regex): the literal test spares most lines the regex.
_TOOL_RULES = (
    ("trtexec", ("trtexec",), re.compile(r"TensorRT\.trtexec|\btrtexec\b")),
    ("polygraphy", ("polygraphy", "POLYGRAPHY"), re.compile(r"\bpolygraphy\b|POLYGRAPHY")),
    ("torch-tensorrt", ("torch_tensorrt", "Torch-TensorRT"), re.compile(r"torch_tensorrt|Torch-TensorRT")),
    ("onnxruntime", ("TensorrtExecutionProvider", "onnxruntime", "ONNXRuntimeError"),
     re.compile(r"TensorrtExecutionProvider|onnxruntime|ONNXRuntimeError")),
    ("mmdeploy", ("mmdeploy",), re.compile(r"\bmmdeploy\b")),
    ("ultralytics", ("Ultralytics", "TensorRT: "), re.compile(r"Ultralytics|TensorRT: (?:starting export|export)")),
    ("python-api", ("[TRT] [", "[TensorRT] "), re.compile(r"\[TRT\] \[[EWIV]\]|\[TensorRT\] (?:ERROR|WARNING|INFO)")),
)
_GPU_WORDS = ("GeForce", "Tesla", "Quadro", "TITAN", "RTX ", "NVIDIA ", "Jetson", "Orin", "Xavier")
_COMMAND = re.compile(r"&&&& RUNNING TensorRT\.trtexec(?: \[TensorRT v\d+\])? # (.+)$")
_NODE_PARSING = re.compile(r'While parsing node number (\d+) \[(\w+)(?: -> "([^"]*)")?\]')
_NODE_IN = re.compile(r"In node (\d+) (?:with name: (\S*) and operator: (\w+)|\((\w+)\))")
# TensorRT 8.x's "In node N (function)" names the parser function that failed, not the op: an op's importer
# ("importTopK") names its op; a helper or the graph walk ("convert_axis", "parseGraph") and the plugin fallback
# (whose op is whatever custom op had no importer) name none.
_IMPORTER = re.compile(r"import([A-Z]\w*)")
_DEVICE = re.compile(r"Selected Device: (.+?)\s*$")
_GPU_NAME = re.compile(
    r"((?:NVIDIA )?(?:GeForce (?:RTX |GTX |MX)?|Tesla |Quadro (?:RTX )?|TITAN |RTX )[A-Z]?\d{2,4}\w*(?:-\w+)*"
    r"(?: (?:Ti|SUPER|Laptop GPU|Max-Q))*|NVIDIA [AHLTBV]\d+\w*(?:[- ](?:SXM\d?|PCIe|NVL|\d+GB)\w*)*"
    r"|Jetson [\w ]*?(?:Nano|TX2|Orin|Xavier)(?: NX| AGX)?|(?:AGX |NX )?(?:Orin|Xavier)(?: NX| AGX| Nano)?)")
_CC = re.compile(r"Compute Capability:?\s*(\d+)\.(\d+)")
_DRIVER = re.compile(r"[Dd]river [Vv]ersion\s*[:=]?\s*(\d{3,4})(?:\.\d+)*")
_CUDA = re.compile(r"CUDA [Vv]ersion\s*[:=]?\s*(\d{1,2})\.(\d+)")
_WSL = re.compile(r"microsoft-standard|\bWSL2?\b")
# The tool's own word that the build (or the whole run) succeeded. DeepStream's nvinfer says it when it has
# rebuilt an engine that did not fit the config (another TensorRT, another batch size): what it reported about
# the old engine no longer stops the pipeline.
_SUCCESS = re.compile(r"&&&& PASSED TensorRT|\bPASSED \| (?:Runtime|Command)|TensorRT: export success"
                      r"|serialize cuda engine to file: \S+ successfully")


@dataclass(frozen=True)
class Node:
    number: int | None
    op: str | None
    name: str | None
    line: int


@dataclass
class LogFacts:
    tensorrt: tuple[int, ...] | None = None
    tensorrt_line: int | None = None
    tool: str | None = None
    command: str | None = None
    gpu: str | None = None
    compute_capability: str | None = None
    driver: int | None = None
    cuda: str | None = None
    wsl: bool = False
    nodes: list[Node] = field(default_factory=list)
    succeeded_line: int | None = None   # the last line where the tool says the build succeeded

    @property
    def node(self) -> Node | None:
        """The ONNX node being parsed when the parser failed: the last one the log names."""
        return self.nodes[-1] if self.nodes else None

    def names(self) -> dict[str, Any]:
        """The facts as names for a cause's ``expr`` evidence."""
        out: dict[str, Any] = {"tool": self.tool, "wsl": 1 if self.wsl else 0}
        if self.tensorrt:
            out["tensorrt_major"] = self.tensorrt[0]
            out["tensorrt_minor"] = self.tensorrt[1] if len(self.tensorrt) > 1 else 0
        if self.driver is not None:
            out["driver_major"] = self.driver
        if self.cuda:
            out["cuda_major"] = int(self.cuda.split(".")[0])
        node = self.node
        if node is not None:
            out["node_op"] = node.op
            out["node_number"] = node.number
        return out

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tensorrt"] = versions.show(self.tensorrt) if self.tensorrt else None
        d["nodes"] = [asdict(n) for n in self.nodes]
        return d


def extract(lines: Iterable[LogLine]) -> LogFacts:
    facts = LogFacts()
    tools: dict[str, int] = {}
    for line in lines:
        text = line.text
        if facts.tensorrt is None and ("TensorRT" in text or "tensorrt" in text):
            version = _version(text)
            if version is not None:
                facts.tensorrt, facts.tensorrt_line = version, line.number
        for name, words, rx in _TOOL_RULES:
            if name not in tools and any(w in text for w in words) and rx.search(text):
                tools[name] = line.number
        if any(w in text for w in _SUCCESS_WORDS) and _SUCCESS.search(text):
            facts.succeeded_line = line.number
        if facts.command is None and "&&&& RUNNING" in text:
            m = _COMMAND.search(text)
            if m:
                facts.command = m.group(1).strip()
        if "While parsing node" in text:
            m = _NODE_PARSING.search(text)
            if m:
                facts.nodes.append(Node(int(m.group(1)), m.group(2), m.group(3) or None, line.number))
        elif "In node " in text:
            m = _NODE_IN.search(text)
            if m:
                facts.nodes.append(Node(int(m.group(1)), m.group(3) or _op_of_importer(m.group(4)),
                                        m.group(2) or None, line.number))
        if facts.gpu is None and ("Selected Device" in text or any(w in text for w in _GPU_WORDS)):
            m = _DEVICE.search(text) or _GPU_NAME.search(text)
            if m:
                facts.gpu = m.group(1).strip()
        if facts.compute_capability is None and "Compute Capability" in text:
            m = _CC.search(text)
            if m:
                facts.compute_capability = f"{m.group(1)}.{m.group(2)}"
        if facts.driver is None and "river " in text:
            m = _DRIVER.search(text)
            if m:
                facts.driver = int(m.group(1))
        if facts.cuda is None and "CUDA " in text:
            m = _CUDA.search(text)
            if m:
                facts.cuda = f"{m.group(1)}.{m.group(2)}"
        if not facts.wsl and ("WSL" in text or "microsoft-standard" in text) and _WSL.search(text):
            facts.wsl = True
    if tools:
        # A wrapper (Torch-TensorRT, ONNX Runtime, mmdeploy...) names itself and also shows TensorRT's own
        # lines; the wrapper is the tool the user ran. trtexec and polygraphy announce themselves first.
        order = ["trtexec", "polygraphy", "torch-tensorrt", "onnxruntime", "mmdeploy", "ultralytics", "python-api"]
        facts.tool = min(tools, key=order.index)
    return facts


def _version(text: str) -> tuple[int, ...] | None:
    for i, rx in enumerate(_VERSION_RULES):
        m = rx.search(text)
        if not m:
            continue
        if i == 0:
            v = versions.from_packed(m.group(1))
        else:
            v = versions.parse(m.group(1))
        if v and 5 <= v[0] <= 20:  # plausible TensorRT majors; rejects 'tensorrt 1.2.3'-like noise
            return v[:3]
    return None


def _op_of_importer(function: str | None) -> str | None:
    """The op an importer function of the ONNX parser is named after ("importTopK" -> "TopK"); None for the
    other functions that 8.x names in "In node N (...)" and for the plugin fallback."""
    m = _IMPORTER.fullmatch(function or "")
    if m is None or m.group(1) in ("Model", "FallbackPluginImporter"):
        return None
    return m.group(1)
