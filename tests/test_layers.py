"""The rules engine does not depend on its front ends: the modules that decide the game
(the machine, the match, the move kinds, the rules, cards, shuffle, positions) import nothing
from the terminal game, the CLI, the bots or the HTML viewer, so that a program can embed the
engine without them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

CORE = sorted([*(REPO / "engine" / "moves").glob("*.py"),
               *(REPO / "engine" / name for name in (
                   "actions.py", "cards.py", "errors.py", "game.py", "machine.py",
                   "observation.py", "position.py", "rules.py", "shuffle.py", "state.py"))])
FRONT_ENDS = ("engine.tui", "engine.cli", "engine.bots", "engine.viewer", "engine.transcript")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_core_imports_no_front_end(path: Path) -> None:
    front = sorted(m for m in _imports(path) if m.startswith(FRONT_ENDS))
    assert front == [], f"{path} imports {front}"
