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
