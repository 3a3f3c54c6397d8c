"""Which build is running (engine.BUILD, ``truco --version``): pure Python, or the hot modules
compiled with mypyc (a wheel built with TRUCO_NATIVE=1, or build_native.py in place).

.ci/run sets TRUCO_EXPECT_BUILD=compiled where it runs the tests against the compiled wheel
installed in a fresh environment: there this file also checks that the engine under test is
that one, not the checkout's sources.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

import engine
from engine.cli import main
from tests.conftest import REPO


def _script(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(tuple(EXTENSION_SUFFIXES))


def test_the_build_is_all_or_nothing() -> None:
    """Every module build_native.py lists is compiled in the compiled build, none in the pure
    one: no stale or partial build passes for either."""
    modules = _script(REPO / "build_native.py").MODULES
    names = [m.removesuffix(".py").replace("/", ".") for m in modules]
    assert engine.BUILD in ("pure", "compiled")
    assert {name: _compiled(name) for name in names} == dict.fromkeys(
        names, engine.BUILD == "compiled")


def test_the_expected_build_is_under_test() -> None:
    """Under TRUCO_EXPECT_BUILD (.ci/run sets it), the engine under test is that build, from an
    installed package, not the checkout's engine/; elsewhere, the checkout's engine."""
    expected = os.environ.get("TRUCO_EXPECT_BUILD")
    if expected is None:
        assert Path(engine.__file__).is_relative_to(REPO), engine.__file__
    else:
        assert expected == engine.BUILD
        assert not Path(engine.__file__).is_relative_to(REPO), engine.__file__


def test_build_follows_the_match_module(monkeypatch: pytest.MonkeyPatch) -> None:
    game = sys.modules["engine.game"]
    monkeypatch.setattr(game, "__file__", "/x/engine/game" + EXTENSION_SUFFIXES[0])
    assert engine._build() == "compiled"
    monkeypatch.setattr(game, "__file__", "/x/engine/game.py")
    assert engine._build() == "pure"


def test_version_says_the_build() -> None:
    out = CliRunner().invoke(main, ["--version"], prog_name="truco")
    assert out.exit_code == 0, out.output
    words = {"pure": "pure Python", "compiled": "compiled (mypyc)"}[engine.BUILD]
    assert out.output == f"truco, version {version('truco-engine')}, {words}\n"
