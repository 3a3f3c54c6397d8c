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
                                    "engine.replay.replayer", "engine.replay.verify",
                                    "engine.replay.annotate", "engine.logread",
                                    "engine.logcheck", "engine.strictjson",
                                    "engine.tui", "engine.words", "engine.position",
                                    "engine.fileio", "engine.payload", "engine.logschema",
                                    "engine.variant.extends", "engine.schemas"])
def test_module_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0


def _anchors(markdown: str) -> set[str]:
    """The heading anchors GitHub makes for a page (lower case, punctuation dropped)."""
    import re

    anchors = set()
    fence = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("page", ["README.md", *sorted(
    str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md"))])
def test_every_relative_link_of_the_docs_resolves(page: str) -> None:
    import re

    path = REPO / page
    text = path.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        missing = not linked.exists()
        if missing or (anchor and linked.suffix == ".md"
                       and anchor not in _anchors(linked.read_text(encoding="utf-8"))):
            broken.append(target)
    assert broken == []


def test_the_readme_is_a_tour_not_a_manual() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) < 450
