import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    # Tests never read or write the user's cache of the compiled knowledge base.
    os.environ["TRTDOCTOR_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ.pop("TRTDOCTOR_KB", None)


@pytest.fixture(scope="session")
def rtx():
    """TensorRT for RTX, the real TensorRT these tests build with. Skipped only where it cannot be
    imported, and never under CI, where the test extra installs it: there a missing backend fails."""
    try:
        import tensorrt_rtx
    except (ImportError, OSError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"tensorrt_rtx does not import under CI (the test extra installs it): {exc}")
        pytest.skip(f"tensorrt_rtx does not import here: {exc}")
    return tensorrt_rtx
