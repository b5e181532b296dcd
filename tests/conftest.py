"""Shared test set-up: Qt runs offscreen, and paths to the data the tests read."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "resources" / "scenarios"
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture
def scenario_path():
    """Path of a bundled example scenario by file name."""

    def find(name: str) -> Path:
        path = SCENARIOS / name
        assert path.is_file(), f"missing example scenario {path}"
        return path

    return find
