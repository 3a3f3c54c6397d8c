"""Files a reader can hold (issue 27): no module of the engine over 600 lines, no function over
80. A module that grows past them is split along its seams (docs/development.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

MODULES = sorted((REPO / "engine").rglob("*.py"))
MAX_LINES = 600
MAX_FUNCTION_LINES = 80


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_module_and_its_functions_fit_a_reader(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_LINES, f"{path.name}: {text.count(chr(10))} lines"
    long = [(node.name, node.end_lineno - node.lineno + 1)
            for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == [], f"{path.name}: functions over {MAX_FUNCTION_LINES} lines: {long}"
