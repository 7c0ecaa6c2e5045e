import pytest

from trtdoctor.kb.literals import LiteralError, required_literals


@pytest.mark.parametrize("regex,expected", [
    (r"kernel weights has count (?P<c>\d+)", ("kernel weights has count ",)),
    (r"No importer registered for op: (?P<op>\w+)", ("No importer registered for op: ",)),
    (r"(?:engine plan file|Serialization assertion) failed", ("engine plan file", "Serialization assertion")),
    (r"\d+ (libnvinfer)\.so", ("libnvinfer",)),
])
def test_required_literals(regex, expected):
    assert required_literals(regex) == expected


@pytest.mark.parametrize("regex", [r"\d+\s+\w+", r"(?i)error code", r"(?:ab|cd)+x", r"(foo)?bar"])
def test_no_literal_is_refused(regex):
    with pytest.raises(LiteralError):
        required_literals(regex)
