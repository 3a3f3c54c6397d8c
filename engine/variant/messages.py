"""The JSON Schema's verdict on a variant in the words of a YAML file: each problem a
:class:`~engine.errors.VariantError` at the ``file:line:column`` of the value (or key) it is
about, saying what was expected and what was found; and the sizes checked before the schema,
and the keys a variant that extends nothing must state."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from engine.errors import VariantError
from engine.schemas import NOT_RULES, strict_validator, variant_schema
from engine.variant.extends import _get
from engine.variant.reader import KeyPath, Mark, _Doc, render_path

#: A check's way to report a problem: ``err(path, template, also, **fields)``, the template
#: marked for the catalog (``mark``) and written with ``fields`` (see
#: :func:`engine.variant.checks.semantic_errors`).
Err = Callable[..., VariantError]


@cache
def _validator() -> Any:
    # YAML integers only: jsonschema's "integer" accepts 12.0, which the rules cannot count with.
    return strict_validator(variant_schema())


def _where(doc: _Doc, path: KeyPath, key: bool = False) -> dict[str, Any]:
    """The location of ``path`` (its key when ``key``), or of its nearest ancestor."""
    probe = path
    while True:
        m = (doc.key_marks.get(probe) if key else None) or doc.marks.get(probe)
        if m is not None or not probe:
            break
        probe = probe[:-1]
    m = m or Mark(doc.file, 1, 1)
    return {"file": m.file, "line": m.line, "column": m.column, "path": render_path(path)}


_TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "a boolean (true or "
               "false)", "array": "a list", "object": "a mapping", "number": "a number"}


def _expected(validator: str, value: Any) -> str | None:
    """What a failed JSON Schema keyword asked for, in the words of a YAML file."""
    if validator == "enum":
        return "one of " + ", ".join(json.dumps(x) for x in value)
    if validator == "type":
        if isinstance(value, list):  # a key of several forms (special_hands, a ladder value)
            return " or ".join(_TYPE_WORDS.get(v, f"a value of type {v}") for v in value)
        return _TYPE_WORDS.get(value, f"a value of type {value}")
    words = {"minimum": f"at least {value}", "maximum": f"at most {value}",
             "pattern": f"a string matching {value}", "minItems": f"at least {value} item(s)",
             "maxItems": f"at most {value} item(s)", "uniqueItems": "no repeated items",
             "maxProperties": f"at most {value} key(s)",
             "minLength": "a non-empty string"}
    return words.get(validator)


def _found(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


def _size_errors(doc: _Doc) -> list[VariantError]:
    """Every list longer than its schema's ``maxItems`` and mapping with more keys than its
    ``maxProperties``, found by a walk of the data beside the schema before the schema is
    validated: the validator would report each item of a list that is too long (16,000
    ``special_hands: [{}, ...]`` made 64,000 errors and 290 MB). Inside a list or mapping
    that is too large nothing is looked at."""
    schema = variant_schema()
    out: list[VariantError] = []

    def walk(data: Any, sub: dict[str, Any], path: KeyPath) -> None:
        ref = sub.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            sub = schema["$defs"][ref.removeprefix("#/$defs/")]
        if isinstance(data, list):
            most = sub.get("maxItems")
            if most is not None and len(data) > most:
                out.append(VariantError(f"expected at most {most} item(s), found {len(data)}",
                                        **_where(doc, path)))
                return
            items = sub.get("items")
            if isinstance(items, dict):
                for i, item in enumerate(data):
                    walk(item, items, path + (i,))
        elif isinstance(data, dict):
            most = sub.get("maxProperties")
            if most is not None and len(data) > most:
                out.append(VariantError(f"expected at most {most} key(s), found {len(data)}",
                                        **_where(doc, path)))
                return
            properties = sub.get("properties", {})
            others = sub.get("additionalProperties")
            for key, value in data.items():
                inner = properties.get(key, others)
                if isinstance(inner, dict):
                    walk(value, inner, path + (key,))

    walk(doc.data, schema, ())
    return out


def _schema_errors(doc: _Doc) -> Iterator[VariantError]:
    raw = list(_validator().iter_errors(doc.data))
    # A value of the wrong type also fails its enum or pattern: report the type alone.
    mistyped = {tuple(e.absolute_path) for e in raw if e.validator == "type"}
    for err in raw:
        path: KeyPath = tuple(err.absolute_path)
        found = err.instance
        v = err.validator
        if path in mistyped and v != "type":
            continue
        if v == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            for key in sorted(set(found) - set(allowed)):
                yield VariantError(f"unknown key {key!r}; expected one of: {', '.join(allowed)}",
                                   **_where(doc, path + (key,), key=True))
            continue
        if v == "required":
            missing = [k for k in err.validator_value if k not in found]
            yield VariantError(f"missing key(s): {', '.join(missing)}", **_where(doc, path))
            continue
        expected = _expected(str(v), err.validator_value)
        if expected is None:
            yield VariantError(err.message, **_where(doc, path))
        else:
            yield VariantError(f"expected {expected}, found {_found(found)}", **_where(doc, path))


def _missing_errors(
    doc: _Doc, schema: dict[str, Any], path: KeyPath = ()
) -> Iterator[VariantError]:
    """A variant that extends nothing states every rule: each schema property must be there,
    but the labels (:data:`~engine.rules.NOT_RULES`) and a key with a ``default``, which the
    loader fills in (:func:`~engine.rules.with_defaults`)."""
    data = _get(doc.data, path)
    if not isinstance(data, dict):
        return
    for key, sub in schema.get("properties", {}).items():
        sub_path = path + (key,)
        if "default" in sub or (not path and key in NOT_RULES):
            continue
        if key not in data:
            # Located at the mapping that should hold it; the path names the key itself.
            yield VariantError(f"missing key {key!r} ({sub.get('description', '')}); a variant "
                               "that extends nothing must state every rule",
                               **_where(doc, sub_path))
        elif "properties" in sub and isinstance(data[key], dict):
            # an object (or, special_hands, the mapping of a key that may also be a list)
            yield from _missing_errors(doc, sub, sub_path)
