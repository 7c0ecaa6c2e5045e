"""Regenerate trtdoctor/confirm/onnx_support.json from a local clone of the ONNX parser's repository.

    git clone https://github.com/onnx/onnx-tensorrt /tmp/onnx-tensorrt
    python scripts/gen_onnx_support.py /tmp/onnx-tensorrt

For each release branch it records the newest opset the parser supports and the operators its
support matrix marks as supported. Only these facts are kept (operator names, numbers).
"""
import json
import re
import subprocess
import sys
from pathlib import Path

BRANCHES = {"6.0": "6.0", "7.0": "7.0", "7.1": "7.1", "7.2": "7.2.1", "8.0": "8.0-GA", "8.2": "8.2-GA",
            "8.4": "8.4-GA", "8.5": "8.5-GA", "8.6": "8.6-GA", "9.0": "9.0-GA", "10.0": "10.0-GA", "10.1": "10.1-GA"}


def show(repo: Path, ref: str) -> str:
    for path in ("docs/operators.md", "operators.md"):
        out = subprocess.run(["git", "-C", str(repo), "show", f"{ref}:{path}"], capture_output=True, text=True)
        if out.returncode == 0:
            return out.stdout
    raise SystemExit(f"no operator matrix at {ref}")


def main(repo: Path) -> None:
    table = {}
    for version, ref in BRANCHES.items():
        text = show(repo, ref)
        m = re.search(r"(?:up to Opset|to opset) (\d+)", text)
        ops = sorted({m2.group(1) for m2 in re.finditer(r"^\|\s*([A-Z]\w*)\s*\|\s*Y\b", text, re.M)})
        table[version] = {"max_opset": int(m.group(1)) if m else None, "ops": ops}
    out = Path(__file__).resolve().parents[1] / "trtdoctor" / "confirm" / "onnx_support.json"
    out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    summary = ", ".join(f"{v}: opset {t['max_opset']}, {len(t['ops'])} ops" for v, t in table.items())
    print(f"wrote {out}: {summary}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
