import pytest

from trtdoctor.expr import ExprError, compile_expr, evaluate


@pytest.mark.parametrize("source,names,expected", [
    ("count == expected * groups", {"count": 1474560, "expected": 737280, "groups": 2}, True),
    ("count == expected * groups", {"count": 2688, "expected": 32640, "groups": 1}, False),
    ("count == 0", {"count": 0}, True),
    ("count % in_channels == 0 and count // in_channels != out", {"count": 2688, "in_channels": 128, "out": 255}, True),
    ("not (a < b)", {"a": 3, "b": 2}, True),
    ("tool == 'trtexec'", {"tool": "trtexec"}, True),
    ("a / b > 1", {"a": 1, "b": 0}, False),
])
def test_evaluates(source, names, expected):
    assert evaluate(compile_expr(source), names) is expected


def test_missing_name_is_unknown_not_false():
    assert evaluate(compile_expr("count == 0"), {}) is None


@pytest.mark.parametrize("source", ["__import__('os')", "a.b", "x[0]", "lambda: 1", "[1, 2]", "a if b else c",
                                    "open('f')", "a ** 999999", "1 +"])
def test_refuses_anything_but_arithmetic(source):
    with pytest.raises(ExprError):
        compile_expr(source)
