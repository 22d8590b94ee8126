"""Shared fixtures for the end-to-end tests: paths of the built binaries."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("REMINDD_BIN_DIR", ROOT / ".build" / "debug"))


@pytest.fixture(scope="session")
def remindctl():
    path = BIN / "remindctl"
    assert path.exists(), f"{path} is missing: run 'swift build' first"
    return str(path)
