"""The literal text every match of a regex must contain.

The scanner looks for these literals first, with one fast multi-literal search over the whole log,
and runs the full regexes only on the few lines that contain one. So every pattern must have one:
a run of at least ``MIN_LITERAL`` plain characters that no match can avoid, or a set of such runs
(one per branch of an alternation).

A regex usually requires several literals (``Assertion failed: axis`` and ``nbDims``); the scanner needs
only one of them, and the rarer it is the fewer lines are decoded and matched. The literals are found as
RE2's prefilter finds them: a part of the regex whose strings are few (``[Ee]ngine``, ``(?:the )?``,
``Conv_[0-9]``) is expanded into all of them and joined with its neighbours, so that ``[Bb]uild(?:ing)?
[Ee]ngine`` requires one of eight whole phrases rather than ``ngine``. Among the requirements left, the
rarest wins: the one that selects the fewest lines of a reference verbose build log where the caller
can count them (``trtdoctor.kb.load`` does), otherwise the longest. An ONNX operator's name alone
(``Concat``, ``[Transpose``, ``Conv_``) is never chosen while any other requirement exists: a verbose
log names an operator on nearly every line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

try:  # Python 3.11+
    import re._constants as _c
    import re._parser as _p
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MIN_LITERAL = 4
MAX_EXACT = 64        # most strings an expanded part of a regex may stand for
MAX_CLASS = 10        # most characters a class may have to be expanded ([0-9] yes, [a-z] no)

Alternatives = tuple[str, ...]

# ONNX operators (every one some onnx-tensorrt release supports, and the common rest): a verbose build log
# names them on nearly every line (`Parsing node: /model.12/Concat [Concat]`), so one alone never selects.
OP_NAMES = frozenset("""
Abs Acos Acosh Add AffineGrid And ArgMax ArgMin Asin Asinh Atan Atanh AveragePool BatchNormalization Bernoulli
BitShift BitwiseAnd BitwiseNot BitwiseOr BitwiseXor BlackmanWindow Cast CastLike Ceil Celu CenterCropPad Clip
Col2Im Compress Concat ConcatFromSequence Constant ConstantOfShape Conv ConvInteger ConvTranspose Cos Cosh
CumSum DFT DeformConv DepthToSpace DequantizeLinear Det Div Dropout DynamicQuantizeLinear Einsum Elu Equal Erf
Exp Expand EyeLike Flatten Floor GRU Gather GatherElements GatherND Gelu Gemm GlobalAveragePool GlobalLpPool
GlobalMaxPool Greater GreaterOrEqual GridSample GroupNormalization HammingWindow HannWindow HardSigmoid
HardSwish Hardmax Identity If ImageScaler InstanceNormalization IsInf IsNaN LRN LSTM LayerNormalization
LeakyRelu Less LessOrEqual Log LogSoftmax Loop LpNormalization LpPool MatMul MatMulInteger Max MaxPool
MaxRoiPool MaxUnpool Mean MeanVarianceNormalization MelWeightMatrix Min Mish Mod Mul Multinomial Neg
NegativeLogLikelihoodLoss NonMaxSuppression NonZero Not OneHot Optional Or PRelu Pad ParametricSoftplus Pow
QLinearConv QLinearMatMul QuantizeLinear RNN RandomNormal RandomNormalLike RandomUniform RandomUniformLike
Range Reciprocal ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin ReduceProd
ReduceSum ReduceSumSquare Relu Reshape Resize ReverseSequence RoiAlign Round STFT ScaledTanh Scan Scatter
ScatterElements ScatterND Selu SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert
SequenceLength Shape Shrink Sigmoid Sign Sin Sinh Size Slice Softmax SoftmaxCrossEntropyLoss Softplus Softsign
SpaceToDepth Split SplitToSequence Sqrt Squeeze StringNormalizer Sub Sum Tan Tanh TfIdfVectorizer
ThresholdedRelu Tile TopK Transpose Trilu Unique Unsqueeze Upsample Where Xor
""".split())
_DECORATION = re.compile(r"[\s\[\](){}\"'_]+")


class LiteralError(ValueError):
    pass


def is_op_name(literal: str) -> bool:
    """True for an ONNX operator's name, alone or in brackets, quotes or spaces (``[Concat``, ``Conv_``)."""
    return _DECORATION.sub("", literal) in OP_NAMES


class _Info:
    """What a part of a regex tells about the text it matches: every string it can match (``exact``, when
    they are few), and requirements (each a set of alternatives, one of which every match contains)."""

    __slots__ = ("exact", "required")

    def __init__(self, exact: set[str] | None = None, required: list[Alternatives] | None = None):
        self.exact = exact
        self.required = required or []

    def requirements(self) -> list[Alternatives]:
        """Everything this part requires, its exact strings included as one more requirement."""
        if self.exact is None:
            return self.required
        if "" in self.exact:
            return self.required
        return [*self.required, tuple(sorted(self.exact))]


def _class_chars(av) -> set[str] | None:
    chars: set[str] = set()
    for op, value in av:
        if op is _c.LITERAL:
            chars.add(chr(value))
        elif op is _c.RANGE and value[1] - value[0] < MAX_CLASS:
            chars.update(chr(v) for v in range(value[0], value[1] + 1))
        else:  # a category (\d, \w: Unicode), a negation, a wide range
            return None
        if len(chars) > MAX_CLASS:
            return None
    return chars


def _concat(parts: list[_Info]) -> _Info:
    """A sequence: neighbouring exact parts are multiplied out while they stay few."""
    required: list[Alternatives] = []
    run: set[str] = {""}   # the strings of the current run of exact parts
    whole = True           # every part so far exact, and multiplied into one run
    for part in parts:
        required.extend(part.required)
        if part.exact is not None and len(run) * len(part.exact) <= MAX_EXACT:
            run = {a + b for a in run for b in part.exact}
            continue
        whole = False
        if "" not in run:
            required.append(tuple(sorted(run)))
        run = set(part.exact) if part.exact is not None else {""}
    if whole:
        return _Info(run, required)
    if "" not in run:
        required.append(tuple(sorted(run)))
    return _Info(None, required)


def _info(seq) -> _Info:
    parts: list[_Info] = []
    for op, av in seq:
        parts.extend(_node(op, av))
    return _concat(parts)


def _node(op, av) -> list[_Info]:
    """The parts a parsed node stands for (more than one where a repeat starts with a known copy)."""
    if op is _c.LITERAL:
        return [_Info({chr(av)})]
    if op is _c.AT:
        return [_Info({""})]
    if op is _c.IN:
        chars = _class_chars(av)
        return [_Info(chars) if chars else _Info()]
    if op is _c.SUBPATTERN:
        if av[1] & _c.SRE_FLAG_IGNORECASE:  # (?i:cuda): any case, so no literal
            return [_Info()]
        return [_info(av[-1])]
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        low, high, body = av
        inner = _info(body)
        if inner.exact is not None and high <= 3 and len(inner.exact) ** max(high, 1) <= MAX_EXACT:
            # x?, x{2}, x{1,3}: every count spelt out
            out: set[str] = set()
            for n in range(low, high + 1):
                strings = {""}
                for _ in range(n):
                    strings = {a + b for a in strings for b in inner.exact}
                out |= strings
            return [_Info(out, inner.required if low >= 1 else [])]
        if low >= 1 and inner.exact is not None:
            return [inner] * min(low, 3) + [_Info()]  # x+ is x then anything: x joins what precedes it
        if low >= 1:
            return [_Info(None, inner.requirements())]
        return [_Info()]
    if op is _c.BRANCH:
        infos = [_info(branch) for branch in av[1]]
        if all(i.exact is not None for i in infos):
            union = set().union(*(i.exact for i in infos))  # type: ignore[misc]
            if len(union) <= MAX_EXACT:
                return [_Info(union)]
        alternatives: list[str] = []
        for i in infos:
            best = _best(i.requirements())
            if best is None:
                return [_Info()]
            alternatives.extend(best)
        return [_Info(None, [tuple(dict.fromkeys(alternatives))])]
    return [_Info()]


Counter = Callable[[Alternatives], int]


def _usable(found: list[Alternatives]) -> list[Alternatives]:
    return [alts for alts in found if min(len(a) for a in alts) >= MIN_LITERAL]


def _best(found: list[Alternatives], count: Counter | None = None) -> Alternatives | None:
    usable = _usable(found)
    if not usable:
        return None

    def key(alts: Alternatives):
        ops = any(is_op_name(a) for a in alts)
        rarity = count(alts) if count is not None else 0
        # Never an operator's name while anything else is required; then the fewest reference lines;
        # then longer text, which is rarer; then fewer alternatives.
        return (ops, rarity, -min(len(a) for a in alts), len(alts))

    return min(usable, key=key)


def requirements(regex: str) -> list[Alternatives]:
    """Every requirement of a regex that the scanner could use (each: alternatives, one of which occurs)."""
    parsed = _p.parse(regex)
    if parsed.state.flags & _c.SRE_FLAG_IGNORECASE:
        raise LiteralError("case-insensitive patterns cannot be prefiltered; write [Ee]rror instead of (?i)")
    return _usable(_info(parsed).requirements())


def required_literals(regex: str, count: Counter | None = None) -> Alternatives:
    """Return the alternatives one of which every match contains; raise LiteralError if none exists.
    ``count`` tells how many lines of a reference log a set of alternatives selects: the rarest wins."""
    best = _best(requirements(regex), count)
    if best is None:
        raise LiteralError(f"has no literal of {MIN_LITERAL}+ plain characters that every match contains")
    return best
