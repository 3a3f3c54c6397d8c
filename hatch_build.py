"""The wheel's build hook (hatchling's ``custom`` hook): ``TRUCO_NATIVE=1 pip install .`` (or
``pip wheel .``) builds the compiled wheel, the hot modules compiled with mypyc as
``python build_native.py`` compiles them in place; without it the wheel is the pure-Python one,
the default (docs/performance.md).

``TRUCO_NATIVE``: unset, empty or ``0`` the pure wheel; ``1`` the compiled wheel, or the build
fails saying why (no C compiler, no Python headers); ``auto`` the compiled wheel where it can be
built, else the pure one with a warning. The modules are ``build_native.MODULES``: one list, read
here. Asked for, the hook also asks pip's build environment for what mypyc needs: the project's
dependencies (mypy type-checks the modules it compiles) and the ``[native]`` extra.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV = "TRUCO_NATIVE"
CHOICES = {"": "", "0": "", "1": "1", "auto": "auto"}


def asked() -> str:
    """What ``TRUCO_NATIVE`` asks: "" (the pure wheel), "1" or "auto"."""
    value = os.environ.get(ENV, "").strip().lower()
    if value not in CHOICES:
        raise ValueError(f"{ENV}={value!r}: expected 1, auto or 0 (or unset)")
    return CHOICES[value]


def build_native(root: str) -> ModuleType:
    """build_native.py, beside this file (it is no part of the package)."""
    spec = importlib.util.spec_from_file_location("build_native", Path(root, "build_native.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class NativeBuildHook(BuildHookInterface[BuilderConfig]):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not asked():
            return []
        core = self.metadata.core
        return [*core.dependencies, *core.optional_dependencies["native"]]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        how = asked()
        if not how or self.target_name != "wheel":
            return
        if version == "editable":
            self.app.display_warning(f"{ENV}: an editable install stays pure Python; "
                                     "python build_native.py compiles it in place")
            return
        self._temp = tempfile.mkdtemp(prefix="truco-native-")
        lib = Path(self._temp, "lib")
        self.app.display_info(f"{ENV}={how}: compiling the hot modules with mypyc "
                              "(minutes: one C library of the whole engine's hot path)")
        try:
            files = build_native(self.root).compile_modules(lib, Path(self._temp, "temp"),
                                                            inplace=False)
        except (Exception, SystemExit) as e:  # mypyc reports a failed type check by exit
            shutil.rmtree(self._temp, ignore_errors=True)
            if how != "auto" and isinstance(e, ImportError):  # pip install --no-build-isolation
                raise RuntimeError(f"{ENV}=1: {e.name} is missing: the [native] extra's mypy "
                                   "and setuptools (pip's isolated build installs them)") from e
            if how != "auto":
                raise
            self.app.display_warning(f"{ENV}=auto: the compiled build failed ({e}); "
                                     "building the pure-Python wheel")
            return
        for path in files:
            build_data["force_include"][str(path)] = path.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # cp311-cp311-linux_x86_64: this interpreter and platform

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_temp", None):
            shutil.rmtree(self._temp, ignore_errors=True)
