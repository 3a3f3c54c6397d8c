"""Where the shipped variants and schemas are: beside the package in a checkout (the top-level
``variants/`` and ``schemas/``), or inside it (``engine/_data``) when installed from a wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(kind: str) -> Path:
    """The folder of shipped ``variants`` or ``schemas``."""
    for candidate in (_PACKAGE / "_data" / kind, _PACKAGE.parent / kind):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the shipped {kind}/ folder is missing from this installation")


def schema_path(name: str) -> Path:
    """A shipped JSON Schema, e.g. ``schema_path("variant")``."""
    return data_dir("schemas") / f"{name}.schema.json"


@cache
def shipped_variants() -> dict[str, Path]:
    """Every shipped variant by name (its file's stem), ``variants/`` and ``variants/house/``."""
    root = data_dir("variants")
    found: dict[str, Path] = {}
    for path in sorted(root.glob("*.yaml")) + sorted(root.glob("house/*.yaml")):
        found.setdefault(path.stem, path)
    return found
