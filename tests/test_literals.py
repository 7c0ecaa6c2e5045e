import pytest

from trtdoctor.kb.literals import LiteralError, is_op_name, required_literals


@pytest.mark.parametrize("regex,expected", [
    (r"kernel weights has count (?P<c>\d+)", ("kernel weights has count ",)),
    (r"No importer registered for op: (?P<op>\w+)", ("No importer registered for op: ",)),
    # Parts with few strings are spelt out and joined with their neighbours: longer, rarer literals.
    (r"(?:engine plan file|Serialization assertion) failed",
     ("Serialization assertion failed", "engine plan file failed")),
    (r"\d+ (libnvinfer)\.so", (" libnvinfer.so",)),
    (r"[Ee]ngine build", ("Engine build", "engine build")),
    (r"(?i:cuda) initialization failure", (" initialization failure",)),
    (r"\bConv_[0-9]+:", tuple(f"Conv_{d}" for d in range(10))),
])
def test_required_literals(regex, expected):
    assert required_literals(regex) == expected


@pytest.mark.parametrize("regex", [r"\d+\s+\w+", r"(?i)error code", r"(?:ab|cd)+x", r"(foo)?bar"])
def test_no_literal_is_refused(regex):
    with pytest.raises(LiteralError):
        required_literals(regex)


def test_an_operator_name_is_chosen_only_when_nothing_else_is_required():
    # 'Transpose' is longer, but a verbose log names operators on nearly every line.
    assert required_literals(r"Transpose\w* (?:failed|rejected)") == (" failed", " rejected")
    assert is_op_name("Concat") and is_op_name("[Transpose") and is_op_name("Conv_")
    assert not is_op_name(" [Gather] inputs: ") and not is_op_name("Conv_0")


def test_the_rarest_requirement_wins_where_lines_can_be_counted():
    regex = r"Assertion failed: \w+ in importTopK"
    assert required_literals(regex) == ("Assertion failed: ",)
    counts = {("Assertion failed: ",): 40, (" in importTopK",): 0}
    assert required_literals(regex, counts.__getitem__) == (" in importTopK",)
