"""Shared test helpers: where the spec is, and writing variant files into tmp_path."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def spec_dir() -> Path:
    """The shared spec (RULES.md, LOG-FORMAT.md, examples/): ``$TRUCO_SPEC`` or the
    ``shared/spec`` folder beside the repository, as in every checkout and CI run."""
    path = Path(os.environ.get("TRUCO_SPEC", REPO.parent / "shared" / "spec"))
    assert (path / "RULES.md").is_file(), f"the spec is not at {path}; set TRUCO_SPEC"
    return path


WriteFile = Callable[[str, str | bytes], Path]


@pytest.fixture
def write(tmp_path: Path) -> WriteFile:
    """``write("a.yaml", text)``: a file in tmp_path (text, or bytes written as they are)."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
