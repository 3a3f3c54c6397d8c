"""What a new move kind needs of the rest of the engine (issue 27, item 2): nothing but its
module. The registry finds every module of :mod:`engine.moves` (no list to extend), and a
kind reads its own variant keys with :meth:`Rules.block <engine.rules.Rules.block>` (no rules
block to add beside it)."""

from __future__ import annotations

import doctest
from pathlib import Path

import engine.moves
import engine.rules.core
from engine.moves import KINDS, SHIPPED, _kind_modules, load_kinds
from engine.variant import load_variant


def test_every_module_of_the_package_is_imported_the_first_kinds_in_order() -> None:
    here = Path(engine.moves.__file__).parent
    modules = _kind_modules()
    assert modules[:len(SHIPPED)] == SHIPPED
    assert set(modules) == {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    others = modules[len(SHIPPED):]
    assert list(others) == sorted(others)
    kinds = load_kinds()
    assert kinds is KINDS
    for kind in kinds.values():  # each kind's module is one of those imported
        assert kind.judge.__module__.rpartition(".")[2] in modules


def test_a_kinds_block_has_the_schemas_defaults_and_what_the_file_states() -> None:
    paulista, cut = load_variant("paulista"), load_variant("cut")
    assert paulista.block("cut") == {"allowed": False,
                                     "choices": ["seco", "burn", "bottom", "partner"]}
    assert cut.block("cut")["allowed"] is True
    assert cut.block("cut") is cut.block("cut")  # made once per rules
    assert cut.block("concede") == {"allowed": False, "instead_of_answer": False,
                                    "in_special_hands": False}
    assert "cut" not in paulista.data  # the data keeps what the files state


def test_the_docstring_example_of_block_runs() -> None:
    finder = doctest.DocTestFinder()
    tests = [t for t in finder.find(engine.rules.core.Rules, "Rules",
                                    globs=vars(engine.rules.core)) if t.name.endswith(".block")]
    runner = doctest.DocTestRunner()
    for test in tests:
        runner.run(test)
    assert tests and runner.failures == 0 and runner.tries >= 1
