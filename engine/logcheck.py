"""Checking a log line against ``schemas/log.schema.json``: :func:`check_line` tells what a
parsed line is (the header, a deal, a move, a checkpoint) and the first way it breaks the schema,
in the log's words: a predicate compiled from the schema first, jsonschema only to say why a
line fails it (:func:`schema_problem`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

from engine.logschema import CHECKPOINTS, MOVES, NEWER, OTHERS, build
from engine.logversion import VERSIONS
from engine.schemas import strict_validator

ItemKind = Literal["header", "deal", "move", "checkpoint", "reveal"]

# The move events (the kinds', engine.logschema), the checkpoints and the reveal of a committed
# seed, in the format's order.
EVENT_TYPES = MOVES + CHECKPOINTS + OTHERS
#: Event types of version 2 only: accepted by the schema, refused in a version-1 log by the
#: version gate (engine.logversion), not named among the types an unknown event's message
#: lists (version 1's).
VERSION_2_EVENTS = tuple(NEWER)


@cache
def log_schema() -> dict[str, Any]:
    """The log schema as data, as the kinds give it (:func:`engine.logschema.build`, what
    ``schemas/log.schema.json`` holds once ``python -m engine.generate`` wrote it): never the
    file, so that a stale file cannot break a check."""
    return build()


@cache
def _validators() -> dict[str, Any]:
    # JSON integers only: jsonschema's "integer" accepts 1.0, the log format does not.
    defs = log_schema()["$defs"]
    return {name: strict_validator({"$defs": defs, "$ref": f"#/$defs/{name}"})
            for name in ("header", *EVENT_TYPES)}


# A log has many lines and jsonschema takes tens of microseconds for each: every line is first
# checked by a predicate compiled from the same schema (the keywords it uses), and jsonschema runs
# only on a line that fails it, to say why. tests/test_log_reader.py checks that both agree.
Check = Callable[[Any], bool]


def _compile(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    if schema.get("type") == "object" and schema.get("additionalProperties") is False:
        return _compile_object(schema, defs)
    checks = [c for c in (_keyword(k, v, schema, defs) for k, v in schema.items())
              if c is not _TRUE]
    if len(checks) == 1:
        return checks[0]

    def check(x: Any) -> bool:  # a plain loop: all() of a generator costs more per line
        for c in checks:  # noqa: SIM110
            if not c(x):
                return False
        return True

    return check


def _compile_object(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    """A closed object (the header and every event): one pass over its keys."""
    known = {"type", "additionalProperties", "required", "properties", "description"}
    if not known.issuperset(schema):
        raise NotImplementedError(", ".join(sorted(set(schema) - known)))
    props = {k: _compile(v, defs) for k, v in schema.get("properties", {}).items()}
    allowed = frozenset(props)
    required = tuple(schema.get("required", ()))

    def check(x: Any) -> bool:
        if type(x) is not dict or not allowed.issuperset(x):
            return False
        for k in required:
            if k not in x:
                return False
        for k, v in x.items():  # noqa: SIM110
            if not props[k](v):
                return False
        return True

    return check


def _TRUE(_x: Any) -> bool:
    return True


_TYPES: dict[str, Check] = {
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "null": lambda x: x is None,
}
_number = _TYPES["number"]


def _keyword(key: str, value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    if key in ("description", "title", "$schema", "$id"):
        return _TRUE
    if key == "$ref":
        return _compile(defs[value.removeprefix("#/$defs/")], defs)
    if key == "type":
        names = value if isinstance(value, list) else [value]
        tests = [_TYPES[n] for n in names]
        if len(tests) == 1:  # the usual case: the test itself (a generator costs more)
            return tests[0]
        return lambda x: any(t(x) for t in tests)
    if key == "const":  # as jsonschema: 1.0 equals 1, but true does not
        return lambda x: x == value and isinstance(x, bool) == isinstance(value, bool)
    if key == "enum":
        def enum(x: Any) -> bool:  # a plain loop: any() of a generator costs more
            for v in value:  # noqa: SIM110
                if x == v and isinstance(x, bool) == isinstance(v, bool):
                    return True
            return False

        return enum
    if key == "minimum":
        return lambda x: not _number(x) or x >= value
    if key == "maximum":
        return lambda x: not _number(x) or x <= value
    if key == "minLength":
        return lambda x: not isinstance(x, str) or len(x) >= value
    if key == "pattern":
        rx = re.compile(value)
        return lambda x: not isinstance(x, str) or rx.search(x) is not None
    if key == "minItems":
        return lambda x: not isinstance(x, list) or len(x) >= value
    if key == "maxItems":
        return lambda x: not isinstance(x, list) or len(x) <= value
    if key == "items":
        item = _compile(value, defs)
        return lambda x: not isinstance(x, list) or all(map(item, x))
    if key == "anyOf":
        options = [_compile(option, defs) for option in value]

        def any_of(x: Any) -> bool:  # a plain loop: any() of a generator costs more
            for option in options:  # noqa: SIM110
                if option(x):
                    return True
            return False

        return any_of
    if key == "required":
        return lambda x: not isinstance(x, dict) or all(k in x for k in value)
    if key == "properties":
        props = {k: _compile(v, defs) for k, v in value.items()}
        return lambda x: not isinstance(x, dict) or all(
            props[k](v) for k, v in x.items() if k in props)
    if key == "additionalProperties" and value is False:
        allowed = frozenset(schema.get("properties", {}))
        return lambda x: not isinstance(x, dict) or allowed.issuperset(x)
    raise NotImplementedError(key)  # the fast path does not know this keyword


@cache
def _fast_checks() -> dict[str, Check | None]:
    defs = log_schema()["$defs"]
    out: dict[str, Check | None] = {}
    for name in ("header", *EVENT_TYPES):
        try:
            out[name] = _compile(defs[name], defs)
        except NotImplementedError:
            out[name] = None
    return out


def schema_problem(obj: Any, name: str) -> Any:
    """The first jsonschema error of ``obj`` against ``$defs/<name>`` of the log schema, or
    ``None`` if it is valid (the compiled fast path first, jsonschema only to explain)."""
    fast = _fast_checks()[name]
    if fast is not None and fast(obj):
        return None
    errors = sorted(_validators()[name].iter_errors(obj), key=lambda e: list(e.path))
    return errors[0] if errors else None


def _where(error: Any) -> str:
    return ".".join(str(p) for p in error.absolute_path)


def _describe(error: Any, what: str) -> str:
    """A jsonschema error in the log's words."""
    v = error.validator
    where = _where(error)
    if v == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        names = ", ".join(json.dumps(k, ensure_ascii=False) for k in extra)
        return f"unknown field {names} in {what}"
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"{what} needs {json.dumps(missing)}"
    found = json.dumps(error.instance, ensure_ascii=False)
    if len(found) > 60:
        found = found[:57] + "..."
    expected = _expected(v, error.validator_value) or error.message
    return f"{what}: {where or 'value'}: {expected}, found {found}"


def _expected(keyword: str, value: Any) -> str | None:
    if keyword == "type":
        return f"expected {_type_words(value)}"
    if keyword == "const":
        return f"expected {json.dumps(value)}"
    if keyword == "enum":
        return "expected one of " + ", ".join(json.dumps(x) for x in value)
    if keyword == "minimum":
        return f"expected at least {value}"
    if keyword == "maximum":
        return f"expected at most {value}"
    if keyword == "pattern":
        return ("expected a card like \"4c\" or \"Kd\"" if "cdhs" in str(value)
                else f"expected to match {value}")
    if keyword in ("minItems", "maxItems"):
        return f"expected {'at least' if keyword == 'minItems' else 'at most'} {value} items"
    if keyword == "minLength":
        return "expected a non-empty string"
    return None


def _type_words(t: Any) -> str:
    words = {"integer": "an integer", "string": "a string", "boolean": "a boolean (true/false)",
             "object": "an object", "array": "a list", "null": "null", "number": "a number"}
    if isinstance(t, list):
        return " or ".join(words.get(x, str(x)) for x in t)
    return words.get(t, str(t))


def check_line(obj: Any, line: int) -> tuple[ItemKind, str | None]:
    """Classify a parsed line and check it against the schema: ``(kind, problem)`` where
    ``problem`` is ``None`` for a good line. Line 1 must be the header, and only line 1.

    >>> check_line({"event": "fold", "seat": 1}, 5)
    ('move', None)
    >>> check_line({"event": "fold", "seat": 1.0}, 5)[1]
    'schema violation: a fold event: seat: expected an integer, found 1.0'
    """
    if not isinstance(obj, dict):
        what = "the header" if line == 1 else "an event"
        return ("header" if line == 1 else "move"), (
            f"schema violation: expected {what} (a JSON object), found {_type_name(obj)}")
    if line == 1:
        if "truco_log" not in obj:
            return "header", ("bad header: line 1 must be the header, "
                              "like {\"truco_log\": 1, \"variant\": \"...\"}")
        e = schema_problem(obj, "header")
        if e is not None:
            if list(e.path) == ["truco_log"]:
                return "header", (f"bad header: unsupported format version "
                                  f"{json.dumps(obj['truco_log'])}: expected "
                                  + " or ".join(map(str, VERSIONS)))
            return "header", "bad header: " + _describe(e, "the header")
        return "header", None
    if "truco_log" in obj:
        return "move", "bad header: a header is allowed on line 1 only"
    event = obj.get("event")
    if event not in EVENT_TYPES:
        if "event" not in obj:
            return "move", "schema violation: an event needs \"event\""
        return "move", (f"schema violation: unknown event type "
                        f"{json.dumps(event, ensure_ascii=False)}: expected one of "
                        + ", ".join(t for t in EVENT_TYPES if t not in VERSION_2_EVENTS))
    kind: ItemKind = ("checkpoint" if event in CHECKPOINTS else "reveal" if event in OTHERS
                      else "deal" if event == "deal" else "move")
    e = schema_problem(obj, event)
    if e is not None:
        return kind, "schema violation: " + _describe(e, f"a {event} event")
    return kind, None


def _type_name(obj: Any) -> str:
    if isinstance(obj, list):
        return "a list"
    if isinstance(obj, str):
        return "a string"
    if isinstance(obj, bool) or obj is None:
        return json.dumps(obj)
    return "a number"
