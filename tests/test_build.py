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
import re
import sys
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

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


# The wheel's build hook (hatch_build.py), run as hatchling runs it, with a stand-in for
# build_native.py's compiling (the real one takes minutes: .ci/run builds the compiled wheel).

FAKE_NATIVE = '''
from pathlib import Path
def compile_modules(build_lib, build_temp, *, inplace):
    assert not inplace
    if FAIL == "import":
        raise ModuleNotFoundError("No module named 'mypyc'", name="mypyc")
    if FAIL:
        raise SystemExit("error: command 'cc' failed: No such file or directory")
    made = [build_lib / "engine" / "_native__mypyc.so", build_lib / "engine" / "game.so"]
    for path in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"compiled")
    return made
'''


def _hook(root: Path) -> Any:
    from hatchling.builders.wheel import WheelBuilder

    builder = WheelBuilder(str(REPO))
    hook = _script(REPO / "hatch_build.py").NativeBuildHook
    return hook(str(root), {}, builder.config, builder.metadata, "", "wheel")


@pytest.fixture
def fake_root(tmp_path: Path) -> Callable[[bool | str], Path]:
    def make(fail: bool | str) -> Path:
        (tmp_path / "build_native.py").write_text(f"FAIL = {fail!r}\n" + FAKE_NATIVE)
        return tmp_path
    return make


def test_without_truco_native_the_hook_asks_and_adds_nothing(
        monkeypatch: pytest.MonkeyPatch, fake_root: Callable[[bool | str], Path]) -> None:
    for value in (None, "", "0"):
        if value is None:
            monkeypatch.delenv("TRUCO_NATIVE", raising=False)
        else:
            monkeypatch.setenv("TRUCO_NATIVE", value)
        hook = _hook(fake_root(False))
        data: dict[str, Any] = {"force_include": {}, "pure_python": True}
        assert hook.dependencies() == []
        hook.initialize("standard", data)
        assert data == {"force_include": {}, "pure_python": True}


def test_truco_native_compiles_into_the_wheel(monkeypatch: pytest.MonkeyPatch,
                                              fake_root: Callable[[bool | str], Path]) -> None:
    monkeypatch.setenv("TRUCO_NATIVE", "1")
    hook = _hook(fake_root(False))
    data: dict[str, Any] = {"force_include": {}, "pure_python": True}
    # what mypyc needs in pip's build environment: itself, and what it type-checks against
    names = {re.split(r"[<>=!~ ;\[]", dependency)[0] for dependency in hook.dependencies()}
    assert {"mypy", "setuptools", "types-pyyaml", "pyyaml", "transitions"} <= names
    hook.initialize("standard", data)
    assert sorted(data["force_include"].values()) == ["engine/_native__mypyc.so",
                                                      "engine/game.so"]
    assert all(Path(source).read_bytes() == b"compiled" for source in data["force_include"])
    assert data["pure_python"] is False and data["infer_tag"] is True
    hook.finalize("standard", data, "")
    assert not any(Path(source).exists() for source in data["force_include"])


def test_truco_native_fails_where_it_cannot_compile_and_auto_falls_back(
        monkeypatch: pytest.MonkeyPatch, fake_root: Callable[[bool | str], Path]) -> None:
    monkeypatch.setenv("TRUCO_NATIVE", "1")
    with pytest.raises(SystemExit, match="'cc' failed"):
        _hook(fake_root(True)).initialize("standard", {"force_include": {}})
    with pytest.raises(RuntimeError, match="TRUCO_NATIVE=1: mypyc is missing: the .native. extra"):
        _hook(fake_root("import")).initialize("standard", {"force_include": {}})
    monkeypatch.setenv("TRUCO_NATIVE", "auto")
    data: dict[str, Any] = {"force_include": {}, "pure_python": True}
    _hook(fake_root(True)).initialize("standard", data)
    assert data == {"force_include": {}, "pure_python": True}


def test_truco_native_leaves_an_editable_install_pure_and_refuses_a_bad_value(
        monkeypatch: pytest.MonkeyPatch, fake_root: Callable[[bool | str], Path]) -> None:
    monkeypatch.setenv("TRUCO_NATIVE", "1")
    data: dict[str, Any] = {"force_include": {}}
    _hook(fake_root(True)).initialize("editable", data)  # would fail if it compiled
    assert data == {"force_include": {}}
    monkeypatch.setenv("TRUCO_NATIVE", "yes")
    with pytest.raises(ValueError, match="TRUCO_NATIVE='yes': expected 1, auto or 0"):
        _hook(fake_root(False)).dependencies()
