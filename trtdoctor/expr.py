"""Tiny, safe boolean expressions over captured numbers, used by a cause's ``expr`` evidence.

Signature files come from pull requests, so an expression is never handed to ``eval``. It is parsed
with ``ast`` and only names, numbers, strings, arithmetic, comparisons and boolean operators are
allowed. A name that the log did not provide makes the whole expression *unknown* (None), which is
different from false: a cause is ruled out only by evidence that is present and contradicts it.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ExprError", "compile_expr", "evaluate"]


class ExprError(ValueError):
    pass


class _Unknown(Exception):
    pass


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Div: operator.truediv,
}
_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_MAX_LEN = 300


def compile_expr(source: str) -> ast.Expression:
    """Parse and check an expression; raise ExprError naming what is not allowed."""
    if len(source) > _MAX_LEN:
        raise ExprError(f"is longer than {_MAX_LEN} characters")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"is not a valid expression: {exc.msg}") from None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expression, ast.Name, ast.Load, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp,
                             ast.Not, ast.USub, ast.BinOp, ast.Compare)):
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) \
                and not isinstance(node.value, bool):
            continue
        if type(node) in _BINOPS or type(node) in _CMPOPS:
            continue
        raise ExprError(f"uses {type(node).__name__}, which is not allowed (names, numbers, strings, "
                        "+ - * / // %, comparisons, and/or/not only)")
    return tree


def evaluate(tree: ast.Expression, names: Mapping[str, Any]) -> bool | None:
    """True or False when every name is known, None when the log lacks one of them."""
    try:
        return bool(_eval(tree.body, names))
    except _Unknown:
        return None
    except (ZeroDivisionError, TypeError, OverflowError):
        return False


def _eval(node: ast.AST, names: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = names.get(node.id)
        if value is None:
            raise _Unknown(node.id)
        return value
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, names) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, names)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, names), _eval(node.right, names)
        if isinstance(left, int) and isinstance(right, int) and isinstance(node.op, ast.Mult) \
                and abs(left) > 10**18 // max(abs(right), 1):
            raise OverflowError
        return _BINOPS[type(node.op)](left, right)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, names)
        for op, comparator in zip(node.ops, node.comparators):
            right = _eval(comparator, names)
            if not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True
    raise ExprError(f"unexpected {type(node).__name__}")  # compile_expr keeps this unreachable
