"""TensorRT version numbers: parsing, comparing, specifiers, and the advice a report gives.

Versions are plain tuples of ints, so no packaging library is needed on the fast path.
"""

from __future__ import annotations

import re

Version = tuple[int, ...]

_SPEC_ITEM = re.compile(r"\s*(==|!=|>=|<=|>|<)\s*(\d+(?:\.\d+){0,3})\s*")


def parse(text: str) -> Version:
    return tuple(int(p) for p in text.strip().split("."))


def show(version: Version) -> str:
    return ".".join(str(p) for p in version)


def from_packed(number: str) -> Version | None:
    """Decode the packed NV_TENSORRT_VERSION found in '[TensorRT v8505]' or 'v100100'.

    TensorRT 10 packs major*10000 + minor*100 + patch; earlier releases major*1000 + minor*100 + patch.
    """
    if not number.isdigit():
        return None
    value = int(number)
    if len(number) >= 6:
        return (value // 10000, value // 100 % 100, value % 100)
    if len(number) == 4:
        return (value // 1000, value // 100 % 10, value % 100)
    return None


def _cmp(a: Version, b: Version) -> int:
    # Compare only as many parts as the specifier gives: '<10.3' means anything before 10.3.x.
    n = len(b)
    a = (a + (0,) * n)[:n]
    return (a > b) - (a < b)


def satisfies(version: Version, spec: str) -> bool:
    for item in spec.split(","):
        m = _SPEC_ITEM.fullmatch(item)
        if not m:
            raise ValueError(f"bad version specifier {spec!r}")
        op, ref = m.group(1), parse(m.group(2))
        c = _cmp(version, ref)
        ok = {"==": c == 0, "!=": c != 0, ">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0}[op]
        if not ok:
            return False
    return True


def advice(version: Version | None, affected: str | None, fixed_in: str | None) -> str:
    """One sentence relating the log's TensorRT version to the versions that have the error."""
    if version is None:
        if fixed_in:
            return f"The log does not show its TensorRT version; this is fixed in TensorRT {fixed_in}."
        if affected:
            return f"The log does not show its TensorRT version; known to affect TensorRT {affected}."
        return "The log does not show its TensorRT version."
    here = f"This log is from TensorRT {show(version)}"
    if fixed_in:
        fixed = parse(fixed_in)
        if _cmp(version, fixed) < 0:
            return f"{here}; fixed in {fixed_in}: upgrading removes this error."
        return (f"{here}, which already has the fix from {fixed_in}: if the message still appears, the cause "
                "is probably different; check the evidence below.")
    if affected:
        if satisfies(version, affected):
            return f"{here}, within the affected versions ({affected}); no release is known to fix it."
        return f"{here}, outside the versions known to show this ({affected})."
    return f"{here}; no release is known to change this behaviour."
