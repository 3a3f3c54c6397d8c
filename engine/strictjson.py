"""Strict JSON, as a game log's lines are read: one value from a text, where a duplicate
key, ``NaN``, ``Infinity`` (or a number that overflows to it), an integer of more than Python's
4,300 digits or nesting deeper than :data:`MAX_JSON_DEPTH` is an error with a message for people.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any


class _JSONProblem(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JSONProblem(f"duplicate key {json.dumps(key, ensure_ascii=False)}")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise _JSONProblem(f"{name} is not valid JSON")


def _float(text: str) -> float:
    value = float(text)
    if value in (math.inf, -math.inf):  # 1e999: it would be written back as Infinity
        raise _JSONProblem(f"the number {text[:20]} is too large")
    return value


#: Deepest nesting of arrays and objects accepted in a line (the format needs 3).
MAX_JSON_DEPTH = 64
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False  # the usual line: no need to look closer
    depth = 0
    for ch in _STRING.sub("", text):
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant,
                            parse_float=_float)


def loads_strict(text: str) -> Any:
    """Parse one JSON value strictly: duplicate keys, ``NaN`` and ``Infinity`` are errors
    (``ValueError`` with a message for people).

    >>> loads_strict('{"a": 1}')
    {'a': 1}
    >>> loads_strict('{"a": NaN}')
    Traceback (most recent call last):
    ...
    ValueError: NaN is not valid JSON
    """
    if _too_deep(text):
        raise ValueError(f"arrays and objects nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return _DECODER.decode(text)
    except _JSONProblem as exc:
        raise ValueError(str(exc)) from None
    except json.JSONDecodeError as exc:
        # "Unterminated string starting at" names its column with the same words
        raise ValueError(f"{exc.msg.removesuffix(' at')} at column {exc.colno}") from None
    except ValueError as exc:  # Python's own limit on integer digits
        if "digits" in str(exc):
            raise ValueError("an integer with more than 4300 digits") from None
        raise
    except RecursionError:
        raise ValueError("arrays and objects nested too deep") from None
