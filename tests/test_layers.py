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
               *(REPO / "engine" / "rules").glob("*.py"),
               *(REPO / "engine" / "matchpos").glob("*.py"),
               *(REPO / "engine" / name for name in (
                   "actions.py", "cards.py", "errors.py", "game.py", "machine.py",
                   "observation.py", "position.py", "shuffle.py", "state.py"))])
FRONT_ENDS = ("engine.tui", "engine.telling", "engine.serve", "engine.cli", "engine.bots",
              "engine.viewer", "engine.transcript")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(REPO / "engine")))
def test_the_core_imports_no_front_end(path: Path) -> None:
    front = sorted(m for m in _imports(path) if m.startswith(FRONT_ENDS))
    assert front == [], f"{path} imports {front}"


# -- the layers point one way (issue 27) ------------------------------------------------------
#: The engine's layers, lowest first: a module may import its own layer and the ones below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine.cards", "engine.errors", "engine.shuffle", "engine.resources", "engine.fileio",
     "engine.reading", "engine.schemas", "engine.strictjson", "engine.checkpoint", "engine.slots",
     "engine.fairness", "engine.i18n"),
    ("engine.rules", "engine.variant", "engine.sidebets"),
    ("engine.ruling", "engine.payload", "engine.actions", "engine.state", "engine.view",
     "engine.observation", "engine.moves"),
    ("engine.machine",),
    ("engine.game", "engine.matchpos", "engine"),
    ("engine.position", "engine.logformat", "engine.logread", "engine.logcheck",
     "engine.logversion", "engine.replay", "engine.transcript", "engine.playthrough",
     "engine.perft", "engine.words", "engine.logschema", "engine.generate"),
    ("engine.bots", "engine.simulate", "engine.tournament", "engine.compare", "engine.viewer",
     "engine.env", "engine.envcore", "engine.tui", "engine.telling", "engine.refusals",
     "engine.cluster", "engine.pool", "engine.protocol", "engine.championship"),
    ("engine.analysis", "engine.serve"),
    ("engine.cli", "engine.__main__"),
)
#: Imports that still point up a layer, and the import cycles they make: the restructuring of
#: issue 27 removes them one by one, and each removal must take its line out (the test fails
#: both ways, so the lists only shrink).
UPWARD: set[tuple[str, str]] = set()
CYCLES: list[list[str]] = []


def _module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in sorted((REPO / "engine").rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def import_graph(typing: bool = False) -> dict[str, set[str]]:
    """Each engine module's engine imports at run time, inside functions too (an import
    under ``if TYPE_CHECKING:`` is for the type checker only and is left out, unless
    ``typing``)."""
    modules = _module_names()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(inner) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and ast.unparse(node.test).endswith(
                           "TYPE_CHECKING")
                       for stmt in node.body for inner in ast.walk(stmt)}
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only and not typing:
                continue
            if isinstance(node, ast.Import):
                found |= {t for a in node.names if (t := owner(a.name))}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in modules else owner(base)
                    if target:
                        found.add(target)
        graph[name] = found - {name}
    return graph


def _layer(module: str) -> int:
    best = max(((len(prefix), i) for i, names in enumerate(LAYERS) for prefix in names
                if module == prefix or (prefix != "engine" and module.startswith(prefix + "."))),
               default=None)  # the package itself ("engine") holds no module but its own
    assert best is not None, f"{module} is in no layer of tests/test_layers.py"
    return best[1]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_every_module_is_in_a_layer_and_imports_only_down() -> None:
    graph = import_graph()
    upward = {(m, t) for m, targets in graph.items() for t in targets if _layer(t) > _layer(m)}
    assert upward == UPWARD


def test_the_engine_has_no_import_cycle_but_the_known_ones() -> None:
    assert _cycles(import_graph()) == sorted(CYCLES)


#: The cycles the imports for the type checker alone (``if TYPE_CHECKING:``) still close
#: (issue 41): none. The move kinds, the rulings, the observation and the positions are typed
#: against :class:`engine.view.MatchView`, a layer below the match; an error and a payload field
#: read a move through a protocol of their own. The test fails both ways.
TYPED_CYCLES: list[list[str]] = []


def test_imports_for_the_type_checker_close_no_cycle_but_the_known_ones() -> None:
    assert _cycles(import_graph(typing=True)) == sorted(TYPED_CYCLES)


def test_the_cycle_finder_finds_a_cycle_through_a_function_s_import() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
