"""The examples in the README and in the docstrings of the foundation modules run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest
from conftest import REPO


def test_readme_python_example_runs() -> None:
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("module", ["engine", "engine.cards", "engine.shuffle", "engine.errors",
                                    "engine.variant", "engine.actions", "engine.game",
                                    "engine.logformat", "engine.replay", "engine.observation",
                                    "engine.tui", "engine.position"])
def test_module_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0
