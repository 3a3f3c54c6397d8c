"""The one JSON Schema validator the engine checks its documents with: Draft 2020-12, strict
about integers (a JSON ``1.0`` or ``true``, a YAML ``12.0``, is no ``integer``, though
jsonschema's own checker would take ``1.0``). Variant files, positions and log lines are all
checked by it.

>>> v = strict_validator({"type": "integer"})
>>> v.is_valid(3), v.is_valid(3.0), v.is_valid(True)
(True, False, False)
"""

from __future__ import annotations

from functools import cache
from typing import Any


def _is_int(_checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _strict() -> Any:
    # jsonschema is imported on the first use: a command that checks nothing never loads it.
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_int)
    return validators.extend(Draft202012Validator, type_checker=checker)


def strict_validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator of ``schema`` whose ``integer`` is a Python ``int`` only
    (never ``1.0`` nor a boolean)."""
    return _strict()(schema)
