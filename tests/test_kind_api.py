"""What a new move kind needs of the rest of the engine (issue 27, item 2): nothing but its
module. The registry finds every module of :mod:`engine.moves` (no list to extend), a kind
reads its own variant keys with :meth:`Rules.block <engine.rules.Rules.block>` (no rules block
to add beside it), and its moves' ``repr`` needs no factory in :mod:`engine.actions`."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import engine.moves
import engine.rules.core
from engine import actions
from engine.actions import Action, declare
from engine.moves import KINDS, SHIPPED, _kind_modules, load_kinds
from engine.moves.cut import Word
from engine.moves.play import play
from engine.payload import Payload
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
                                     "choices": ["seco", "burn", "bottom", "partner"],
                                     "in_special_hands": True, "take": 1,
                                     "refusable": []}
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


def test_a_kind_without_a_factory_method_writes_its_repr_with_action_of(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A new kind needs no class method in engine/actions.py for ``eval(repr(a)) == a``."""
    monkeypatch.setattr(actions, "_SPECS", dict(actions._SPECS))  # the declaration is undone
    declare("knock", Payload((Word(key="choice", what="a knock"),)))
    declare("tap", Payload())
    knock, tap = Action("knock", 2, call="burn"), Action("tap", 1)
    assert (repr(knock), repr(tap)) == ("Action.of('knock', 2, choice='burn')",
                                        "Action.of('tap', 1)")
    for a in (knock, tap):
        assert eval(repr(a), {"Action": Action}) == a  # noqa: S307 - our own repr
    assert repr(Action.cut(3, "seco")) == "Action.cut(3, 'seco')"  # a factory where there is one


def test_a_kinds_factories_are_offered_as_actions_and_clash_with_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind's module declares its factories (``Payload.factories``), which Action offers by
    name (``Action.play``) and its ``repr`` writes; one named like Action's own is refused."""
    assert Action.play is play and Action.play(1, "4c") == Action("play", 1, 3)
    monkeypatch.setattr(actions, "_SPECS", dict(actions._SPECS))
    monkeypatch.setattr(actions, "_FACTORIES", dict(actions._FACTORIES))

    def knock(seat: int, choice: str) -> Action:
        return Action("knock", seat, call=choice)

    def parse(seat: int) -> Action:
        return Action("knock", seat)

    try:
        declare("knock", Payload((Word(key="choice", what="a knock"),), factories=(knock,)))
        assert repr(Action.knock(2, "burn")) == "Action.knock(2, 'burn')"  # type: ignore[attr-defined]
        with pytest.raises(ValueError, match="factory 'parse' is already Action's"):
            declare("knock", Payload(factories=(parse,)))
    finally:
        delattr(Action, "knock")
    assert Action.parse("play 1 4c") == Action.play(1, "4c")  # Action's own, untouched
