"""The optional compiled build: ``python build_native.py`` compiles the engine's hot modules
with mypyc, in place (a ``.so`` beside each ``.py``, which Python then imports instead);
``python build_native.py --clean`` removes them, back to the pure-Python engine.

The pure-Python engine is the default and the reference: the compiled one runs the same
source, passes the same tests and writes byte-identical logs (docs/performance.md has the
figures both ways). Needs the ``[native]`` extra (mypy, whose mypyc does the compiling, and
setuptools) and a C compiler with the Python headers::

    pip install -e '.[native]' && python build_native.py

``python build_native.py --check`` says which build is in place, and exits 1 if the compiled
modules are older than their sources (a stale build would run old code).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: The modules compiled: those a move, a deal, a log line and a playout run through (measured
#: with ``benchmarks.icount``). The rest (loading YAML, the command line, the server, the viewer)
#: runs once or waits on I/O, and stays interpreted; so do the modules whose functions check
#: what callers give them and refuse it in their own words (cards, actions: a compiled function
#: refuses an argument of the wrong type with a TypeError of its own first), and the TypedDicts
#: of the checkpoints (compiled, they keep no annotations). The side bets' frozen dataclasses
#: are compiled as Python classes (native ones cannot be unpickled, and a worker process
#: receives its rules pickled).
MODULES = (
    "engine/shuffle.py",
    "engine/state.py",
    "engine/view.py",
    "engine/ruling.py",
    "engine/machine.py",
    "engine/game.py",
    "engine/sidebets.py",
    "engine/observation.py",
    "engine/logformat.py",
    "engine/matchpos/exporting.py",
    "engine/moves/accept.py",
    "engine/moves/answers.py",
    "engine/moves/bets.py",
    "engine/moves/names.py",  # its Final names inlined where the compiled kinds read them
    "engine/moves/concede.py",
    "engine/moves/deal.py",
    "engine/moves/decide.py",
    "engine/moves/envido.py",
    "engine/moves/flor.py",
    "engine/moves/fold.py",
    "engine/moves/nao_quero.py",
    "engine/moves/outcome.py",
    "engine/moves/play.py",
    "engine/moves/quero.py",
    "engine/moves/raising.py",
    "engine/moves/redeal.py",
    "engine/moves/scoring.py",
    "engine/position.py",
    "engine/matchpos/restore.py",
    "engine/matchpos/checks.py",
    "engine/matchpos/reading.py",
    "engine/bots/playout.py",
    "engine/bots/determinize.py",
    "engine/bots/winchance.py",
    "engine/bots/heuristic.py",
    "engine/bots/search.py",
    "engine/envcore.py",  # engine.env's work each step (env.py: numpy, PettingZoo's classes)
)
#: The one shared library the modules are compiled into (mypyc's group).
GROUP = "engine._native"


def built() -> list[Path]:
    """The compiled files in place: every ``.so`` in the package (of this list of modules or
    of an earlier one, which a stale file would shadow)."""
    return sorted((ROOT / "engine").rglob("*.so"))


def clean() -> None:
    for p in built():
        p.unlink()
    shutil.rmtree(ROOT / "build" / "native", ignore_errors=True)


def compile_modules(build_lib: Path, build_temp: Path, *, inplace: bool) -> list[Path]:
    """Compile ``MODULES`` with mypyc into one shared library (``GROUP``) and a small extension
    module a source: into ``build_lib`` (as the package lays them out), and beside their sources
    too with ``inplace``. The C sources and objects go to ``build_temp``. Returns the compiled
    files in ``build_lib``. Used by ``python build_native.py`` and by the wheel's build hook
    (``hatch_build.py``, ``TRUCO_NATIVE=1``), so the list of modules lives here only."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    here = os.getcwd()
    os.chdir(ROOT)  # mypyc reads the [tool.mypy] settings of pyproject.toml and the paths here
    try:
        extensions = mypycify(list(MODULES), opt_level="3", group_name=GROUP,
                              target_dir=str(build_temp / "c"))
        # A Distribution, not setup(): setuptools reads no pyproject.toml (hatchling's) then.
        dist = Distribution({"name": "truco-native", "packages": [], "py_modules": [],
                             "ext_modules": extensions, "script_name": "build_native.py",
                             "script_args": ["-q", "build_ext", "--build-temp", str(build_temp),
                                             "--build-lib", str(build_lib),
                                             *(["--inplace"] if inplace else [])]})
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(here)
    return sorted(p for p in build_lib.rglob("*") if p.is_file())


def build() -> None:
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as e:
        need = "pip install -e '.[native]'"
        raise SystemExit(f"build_native.py: {e.name} is missing: {need}") from None
    clean()
    started = time.perf_counter()
    compile_modules(ROOT / "build" / "native" / "lib", ROOT / "build" / "native" / "temp",
                    inplace=True)
    print(f"compiled {len(MODULES)} modules in {time.perf_counter() - started:.0f} s: "
          f"{len(built())} files in place (python build_native.py --clean removes them)")


def check() -> int:
    files = built()
    if not files:
        print("pure Python (no compiled modules in place)")
        return 0
    stale = [m for m in MODULES
             if any(p.stat().st_mtime < (ROOT / m).stat().st_mtime
                    for p in (ROOT / m).parent.glob(Path(m).stem + ".*.so"))]
    stale += [str(p.relative_to(ROOT)) for p in files if not p.name.startswith("_native__")
              and str(p.relative_to(ROOT).parent / p.name.split(".")[0]) + ".py" not in MODULES]
    said = f"; stale (older than its source, or not in MODULES): {', '.join(stale)}"
    print(f"compiled: {len(files)} files in place" + (said if stale else ""))
    return 1 if stale else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--clean", action="store_true", help="remove the compiled modules")
    group.add_argument("--check", action="store_true", help="say which build is in place")
    args = ap.parse_args()
    if args.clean:
        clean()
        print("pure Python: compiled modules removed")
        return 0
    if args.check:
        return check()
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
