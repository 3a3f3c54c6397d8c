"""``python -m engine.generate``: rewrite every generated file from the move kinds and the base
blocks, so that a new kind (or a change to one) is its module and this one command.

The generated files (:data:`GENERATED`), each ``(path, text)`` from :func:`generated`:

- ``schemas/variant.schema.json``: ``engine/schemabase/variant.json`` and each kind's own
  block (:class:`engine.moves.VariantBlock`), :func:`engine.schemas.variant_schema`;
- ``schemas/log.schema.json``: the format's own parts and each kind's log event,
  :func:`engine.logschema.build`;
- ``schemas/position.schema.json``: ``engine/schemabase/position.json`` and the kinds' phases,
  :func:`engine.matchpos.schema.position_schema`;
- ``schemas/bot-protocol/decision.schema.json`` and ``judge.schema.json``: their messages'
  bases (``engine/schemabase/bot-protocol/``) holding the observation's schema (its base, the
  phases and each kind's state as a seat sees it), :func:`engine.observation.observation_schema`.

The engine reads none of these files (it builds the same schemas in memory), so a stale file
never breaks a command; ``tests/test_generate.py`` fails, naming this command, when one is out
of step.

In a checkout it also refreshes the tables the tests pin for every shipped variant
(``tests/pins.py``, ``tests/pins/*.json``): a variant a table lacks is pinned, one no longer
shipped is dropped; ``--repin`` computes every pin again (after a behaviour changed on purpose:
say why in the commit). ``--check`` exits 1 (naming the stale files) instead of writing; any
other argument is a usage error (exit 2).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

from engine.fileio import atomic_write_text
from engine.logschema import render as render_log_schema
from engine.matchpos.schema import position_schema
from engine.observation import observation_schema
from engine.resources import data_dir
from engine.schemas import base_schema, render_schema, variant_schema

#: The command that rewrites the generated files, as messages name it.
COMMAND = "python -m engine.generate"


def bot_message(name: str) -> str:
    """The text of a bot protocol message's schema that holds an observation (``decision``,
    ``judge``): its base with :func:`~engine.observation.observation_schema` in it."""
    schema = base_schema(f"bot-protocol/{name}")
    schema["properties"]["observation"] = observation_schema()
    return render_schema(schema)


#: Each generated file, by its path in ``schemas/``, and what writes its text.
GENERATED: dict[str, Callable[[], str]] = {
    "variant.schema.json": lambda: render_schema(variant_schema()),
    "log.schema.json": render_log_schema,
    "position.schema.json": lambda: render_schema(position_schema()),
    "bot-protocol/decision.schema.json": lambda: bot_message("decision"),
    "bot-protocol/judge.schema.json": lambda: bot_message("judge"),
}


def generated() -> list[tuple[Path, str]]:
    """Every generated file's path and the text it must hold."""
    folder = data_dir("schemas")
    return [(folder / name, text()) for name, text in GENERATED.items()]


def stale() -> list[Path]:
    """The generated files whose text is not the one the kinds give (missing ones included)."""
    out = []
    for path, text in generated():
        try:
            same = path.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            out.append(path)
    return out


#: The tests' pinned tables, in a checkout (none in an installed package).
PINS = Path(__file__).resolve().parent.parent / "tests" / "pins.py"


def test_pins() -> ModuleType | None:
    """``tests/pins.py`` of the checkout, loaded by its path; ``None`` where there is none."""
    spec = spec_from_file_location("truco_test_pins", PINS) if PINS.is_file() else None
    if spec is None or spec.loader is None:
        return None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    """Write the generated files that changed and refresh the tests' pins (``--check``: only
    list what is stale, exit 1 if anything is; ``--repin``: every pin computed again)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"], ["--repin"]):
        print(f"usage: {COMMAND} [--check | --repin]", file=sys.stderr)
        return 2
    check = args == ["--check"]
    old = stale()
    pins = test_pins()
    if check:
        if pins is not None:
            old += pins.refresh(check=True)
        for path in old:
            print(f"{path} is out of step with the kinds: run {COMMAND}", file=sys.stderr)
        return 1 if old else 0
    texts = dict(generated())
    for path in old:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, texts[path])
        print(f"wrote {path}", file=sys.stderr)
    if pins is not None:
        for path in pins.refresh(repin=args == ["--repin"]):
            print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
