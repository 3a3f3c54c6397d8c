"""The JSON Schemas the engine reads: the one validator it checks its documents with
(:func:`strict_validator`: Draft 2020-12, strict about integers: a JSON ``1.0`` or ``true``, a
YAML ``12.0``, is no ``integer``, though jsonschema's own checker would take ``1.0``; variant
files, positions and log lines are all checked by it), and the variant schema as data with the
one statement of what a key left out means, its ``default`` there (:func:`with_defaults`).

The variant schema is built here, not read from ``schemas/variant.schema.json``: the base blocks
(``engine/schemabase/variant.json``) with the move kinds' own blocks (:data:`KIND_BLOCKS`, each
declared in its kind's module, :class:`engine.moves.VariantBlock`) inserted before
``special_hands``. ``python -m engine.generate`` writes the shipped file from it, so a stale file
never changes what the engine reads.

>>> v = strict_validator({"type": "integer"})
>>> v.is_valid(3), v.is_valid(3.0), v.is_valid(True)
(True, False, False)
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

#: The base blocks of the shipped schemas (``variant.json``, ``position.json``): what no move
#: kind declares. :mod:`engine.generate` writes ``schemas/`` from them and the kinds.
BASE = Path(__file__).resolve().parent / "schemabase"
#: The move kinds' own top-level blocks of the variant schema, by name, in the order the kinds
#: register (:func:`engine.moves.register`).
KIND_BLOCKS: dict[str, dict[str, Any]] = {}
#: The base block before which the kinds' own blocks stand in the variant schema.
_KINDS_BEFORE = "special_hands"


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


#: Top-level keys that are no rule: labels, the parent, presentation (what players call cards).
#: The fingerprint and the playthroughs leave them out.
NOT_RULES = frozenset({"$schema", "name", "title", "description", "extends", "card_names",
                       "move_names"})


def base_schema(name: str) -> dict[str, Any]:
    """A base schema (``variant``, ``position``) as data, a new copy on every call."""
    with open(BASE / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


@cache
def variant_schema() -> dict[str, Any]:
    """The JSON Schema of variant files, as data: the base blocks and the kinds' own
    (:data:`KIND_BLOCKS`), made once (the kinds are registered when ``engine`` is imported)."""
    schema = base_schema("variant")
    props: dict[str, Any] = {}
    for key, value in schema["properties"].items():
        if key == _KINDS_BEFORE:
            props.update(KIND_BLOCKS)
        props[key] = value
    schema["properties"] = props
    return schema


def render_schema(schema: dict[str, Any]) -> str:
    """A schema as the shipped files write it (``schemas/*.schema.json``)."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """A copy of a schema node with each ``$ref`` to ``#/$defs/NAME`` replaced by ``defs[NAME]``
    (its own ``description`` left out: the referring node says what it is), at every level:
    a fragment of one schema (a kind's state in a position) as another schema holds it.

    >>> inline_refs({"items": {"$ref": "#/$defs/seat"}}, {"seat": {"type": "integer"}})
    {'items': {'type': 'integer'}}
    """
    if isinstance(node, list):
        return [inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = {k: v for k, v in defs[ref.rpartition("/")[2]].items() if k != "description"}
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return inline_refs({**target, **rest}, defs)
    return {k: inline_refs(v, defs) for k, v in node.items()}


def with_defaults(value: Any, path: tuple[str, ...] = ()) -> Any:
    """A copy of a resolved variant (or of its key at ``path``, like ``("special_hands",)`` or
    ``("side_bets", "envido")``)
    with every key it leaves out that has a ``default`` in the variant schema filled in with
    that default, at every level: the one statement of what a key left out means. The value
    given is not changed. (The rules' ``data`` and ``variant_sha256`` keep only what the files
    state.)

    >>> with_defaults({"betting": {"initial_value": 1}})["betting"]["raise_back"]
    True
    """
    schema = variant_schema()
    sub: dict[str, Any] = schema
    for key in path:  # a key of a mapping's properties, or one of its additionalProperties
        props = sub.get("properties", {})
        sub = _deref(props[key] if key in props else sub["additionalProperties"])
    return _fill(copy.deepcopy(value), sub)


def _deref(sub: dict[str, Any]) -> dict[str, Any]:
    """A schema node with its ``$ref`` (``#/$defs/...``) followed."""
    ref = sub.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _deref(variant_schema()["$defs"][ref.rpartition("/")[2]])
    return sub


def _fill(value: Any, sub: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        props: dict[str, Any] = sub.get("properties", {})
        for key, prop in props.items():
            if key not in value and "default" in prop:
                value[key] = copy.deepcopy(prop["default"])
        more = sub.get("additionalProperties")
        for key, item in value.items():
            inner = props.get(key, more)
            if isinstance(inner, dict):
                _fill(item, _deref(inner))
    elif isinstance(value, list) and isinstance(sub.get("items"), dict):
        for item in value:
            _fill(item, _deref(sub["items"]))
    return value
