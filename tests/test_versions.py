import pytest

from trtdoctor import versions


@pytest.mark.parametrize("packed,expected", [("8505", (8, 5, 5)), ("8601", (8, 6, 1)), ("7103", (7, 1, 3)),
                                             ("100100", (10, 1, 0)), ("100300", (10, 3, 0)), ("100001", (10, 0, 1))])
def test_packed_versions(packed, expected):
    assert versions.from_packed(packed) == expected


@pytest.mark.parametrize("version,spec,ok", [
    ((8, 5, 5), ">=8.5,<10.3", True), ((10, 3, 0), ">=8.5,<10.3", False), ((10, 2, 9), "<10.3", True),
    ((8, 4), ">=8.5", False), ((7, 0, 0, 11), "==7.0", True), ((7, 1), "!=7.0", True),
])
def test_specifiers(version, spec, ok):
    assert versions.satisfies(version, spec) is ok


def test_advice_relates_log_version_to_fix():
    assert "fixed in 10.3" in versions.advice((8, 5, 5), ">=8.5,<10.3", "10.3")
    assert "8.5.5" in versions.advice((8, 5, 5), None, "10.3")
    assert "already has the fix" in versions.advice((10, 4, 0), None, "10.3")
    assert "does not show" in versions.advice(None, None, "10.3")
    assert "outside" in versions.advice((7, 1, 3), ">=8.0", None)
