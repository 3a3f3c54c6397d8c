"""Rules are data: no code under engine/ names a shipped variant. A rule difference is a key of
the variant schema read by general code, so the engine's strings and identifiers never hold a
variant's name (docstrings and comments may: they document, with examples).

The names checked are every shipped variant's (variants/ and variants/house/) as it is written
(``raiser-must-kill``, not the rule key ``raiser_must_kill`` it is named after), but for the
words the rules themselves use (``cut``, ``concede``, ``redeal`` are moves as well as house
variants), compared without accents and case (``Gaudério`` is ``gauderio``). A ``help=``
argument documents, as a docstring does."""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from engine.moves import load_kinds
from engine.resources import shipped_variants

REPO = Path(__file__).resolve().parent.parent


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _names() -> list[str]:
    words = set(load_kinds())
    return sorted(n for n in shipped_variants() if n not in words)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions, and of the
    strings of a ``help=`` argument (a command's or option's help, documentation too)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "help":
            out.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _code_words(path: Path) -> Iterator[tuple[int, str]]:
    """Each string constant (not a docstring) and identifier of a module, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg


def offenders(root: Path) -> list[str]:
    pattern = re.compile(r"(?<![a-z0-9])(" + "|".join(
        map(re.escape, _names())) + r")(?![a-z0-9])")
    found = []
    for path in sorted(root.rglob("*.py")):
        for line, text in _code_words(path):
            hit = pattern.search(_plain(text))
            if hit:
                found.append(f"{path.relative_to(root.parent)}:{line}: {hit.group(0)!r} "
                             f"in {text[:60]!r}")
    return found


def test_no_engine_code_names_a_shipped_variant() -> None:
    assert offenders(REPO / "engine") == []


def test_the_check_sees_a_variant_name_in_a_string_and_an_identifier(tmp_path: Path) -> None:
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "m.py").write_text('"""Docstrings may say paulista."""\n'
                              '# so may comments: mineiro\n'
                              'WHERE = "Gaudério only"\n'
                              'option(help="documents: mineiro")\n'
                              'def is_paulista(x: int) -> bool:\n'
                              '    """Nor here: gauderio."""\n'
                              '    return x == len("three-players")\n', encoding="utf-8")
    got = offenders(pkg)
    assert sorted(g.split(": ")[1] for g in got) == [
        "'gauderio' in 'Gaudério only'", "'paulista' in 'is_paulista'",
        "'three-players' in 'three-players'"], got
