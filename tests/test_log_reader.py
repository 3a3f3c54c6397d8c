"""The log reader: strict JSON, line rules, limits, the schema and its compiled fast path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import logcheck, logread
from engine.logread import LogItem, LogProblem, check_line, loads_strict, read_log, schema_problem
from tests.conftest import CONFORMANCE, REPO

HEADER = b'{"truco_log": 1, "variant": "paulista", "seed": 7}\n'
PLAY = b'{"event": "play", "seat": 1, "card": "2h"}\n'


def problems(data: bytes) -> list[str]:
    return [str(x) for x in read_log(data, "a.jsonl") if isinstance(x, LogProblem)]


def example_lines() -> list[dict[str, Any]]:
    out = []
    for path in sorted(CONFORMANCE.glob("*.jsonl")):
        out.extend(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return out


def test_good_lines_are_positioned_items() -> None:
    items = list(read_log(HEADER + PLAY, "a.jsonl"))
    assert items == [LogItem(1, "header", {"truco_log": 1, "variant": "paulista", "seed": 7}),
                     LogItem(2, "move", {"event": "play", "seat": 1, "card": "2h"})]
    assert [i.event for i in items if isinstance(i, LogItem)] == ["header", "play"]


@pytest.mark.parametrize(("line", "message"), [
    (b'{"event": "play", "seat": 1, "seat": 2, "card": "2h"}', 'duplicate key "seat"'),
    (b'{"event": "hand", "winner": 0, "points": NaN, "score": [1, 0]}', "NaN is not valid JSON"),
    (b'{"event": "hand", "winner": 0, "points": Infinity, "score": [1, 0]}', "Infinity is not"),
    (b'{"event": "hand", "winner": 0, "points": -Infinity, "score": [1, 0]}', "-Infinity is"),
    (b'{"event": "play", "seat": 1, "card": "2h"', "invalid JSON: Expecting ',' delimiter"),
])
def test_strict_json(line: bytes, message: str) -> None:
    found = problems(HEADER + line + b"\n")
    assert len(found) == 1
    assert found[0].startswith("a.jsonl:2: invalid JSON: ")
    assert message in found[0]


@pytest.mark.parametrize(("line", "message"), [
    (b'{"event": "play", "seat": 1.0, "card": "2h"}', "seat: expected an integer, found 1.0"),
    (b'{"event": "play", "seat": true, "card": "2h"}', "seat: expected an integer, found true"),
    (b'{"event": "play", "seat": 1, "card": "2h", "covered": 1}', "covered: expected a boolean"),
    (b'{"event": "decide", "seat": 1, "play": 0}', "play: expected a boolean"),
    (b'{"event": "hand", "winner": 0, "points": 1, "score": [1.0, 0]}', "score.0: expected an"),
    (b'{"event": "hand", "winner": 0, "points": 1}', 'a hand event needs "score"'),
    (b'{"event": "play", "seat": 1, "card": "2h", "x": 1}', 'unknown field "x" in a play event'),
    (b'{"event": "shout", "seat": 1}', 'unknown event type "shout"'),
    (b'{"seat": 1}', 'an event needs "event"'),
    (b'[1, 2]', "expected an event (a JSON object), found a list"),
    (b'{"event": "round", "winner": 6}', "winner: expected at most 5, found 6"),
])
def test_schema_violations(line: bytes, message: str) -> None:
    found = problems(HEADER + line + b"\n")
    assert found and found[0].startswith("a.jsonl:2: schema violation: "), found
    assert message in found[0]


def test_t_and_meta_are_allowed_on_every_event() -> None:
    line = b'{"event": "play", "seat": 1, "card": "2h", "t": 12.5, "meta": {"x": [1]}}\n'
    assert problems(HEADER + line) == []


@pytest.mark.parametrize(("header", "message"), [
    (b'{"truco_log": 3, "variant": "paulista"}', "unsupported format version 3: expected 1 or 2"),
    (b'{"truco_log": 1.0, "variant": "paulista"}', "unsupported format version 1.0"),
    (b'{"truco_log": 1}', 'the header needs "variant"'),
    (b'{"truco_log": 1, "variant": "paulista", "seed": -1}', "seed: expected at least 0"),
    (b'{"truco_log": 1, "variant": "paulista", "seed": 18446744073709551616}', "at most"),
    (b'{"truco_log": 1, "variant": "paulista", "rules": 1}', 'unknown field "rules"'),
    (b'{"event": "play", "seat": 1, "card": "2h"}', "line 1 must be the header"),
])
def test_bad_headers(header: bytes, message: str) -> None:
    found = problems(header + b"\n" + PLAY)
    assert found and found[0].startswith("a.jsonl:1: bad header: "), found
    assert message in found[0]


def test_header_only_on_line_1_and_empty_log() -> None:
    assert problems(HEADER + PLAY + HEADER) == [
        "a.jsonl:3: bad header: a header is allowed on line 1 only"]
    assert problems(b"") == ["a.jsonl:1: bad header: the log is empty; line 1 must be the header"]


def test_blank_lines_crlf_and_final_newline() -> None:
    assert problems(HEADER + b"\n" + PLAY) == ["a.jsonl:2: blank line: a log has no blank lines"]
    assert problems(HEADER + PLAY + b"\n") == ["a.jsonl:3: blank line: a log has no blank lines"]
    assert problems(HEADER + b"   \r\n" + PLAY)[0].startswith("a.jsonl:2: blank line")
    crlf = (HEADER + PLAY).replace(b"\n", b"\r\n")
    assert problems(crlf) == []
    assert problems(HEADER + PLAY.rstrip(b"\n")) == []
    items = list(read_log(crlf[:-2], "a.jsonl"))
    assert isinstance(items[1], LogItem) and items[1].data["card"] == "2h"


def test_invalid_utf8_names_its_line() -> None:
    bad = b'{"event": "play", "seat": 1, "card": "2\xe9h"}\n'
    assert problems(HEADER + PLAY + bad) == [
        "a.jsonl:3: invalid UTF-8 at byte 40 of the line (0xe9): a log is UTF-8"]
    assert problems(b"\xef\xbb\xbf" + HEADER)[0].startswith("a.jsonl:1: the log starts with a "
                                                             "byte order mark")


def test_line_length_limit() -> None:
    meta = b'{"event": "play", "seat": 1, "card": "2h", "meta": {"x": "%s"}}\n'
    fits = meta % (b"a" * (logread.MAX_LINE_BYTES - len(meta % b"") + 1))
    assert len(fits.rstrip(b"\n")) == logread.MAX_LINE_BYTES
    assert problems(HEADER + fits) == []
    assert problems(HEADER + fits.replace(b"\n", b"\r\n")) == []
    too_long = fits.replace(b'"a', b'"aa', 1)
    assert problems(HEADER + too_long + PLAY) == [
        "a.jsonl:2: line longer than 64 KiB, the limit of this reader"]


def test_file_size_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(logread, "MAX_FILE_BYTES", len(HEADER) + 2 * len(PLAY))
    assert problems(HEADER + PLAY) == []
    found = problems(HEADER + PLAY * 5)
    assert found == ["a.jsonl:4: the log is larger than 0 MiB, the limit of this reader"]
    path = tmp_path / "a.jsonl"
    path.write_bytes(HEADER + PLAY * 5)
    with open(path, "rb") as f:  # a stream is read line by line, never whole
        assert [str(x) for x in read_log(f, "a.jsonl") if isinstance(x, LogProblem)] == found


def test_loads_strict() -> None:
    assert loads_strict('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}
    with pytest.raises(ValueError, match="duplicate key"):
        loads_strict('{"a": {"b": 1, "b": 2}}')


# -- the schema ----------------------------------------------------------------------------------
def test_schema_is_2020_12_and_described() -> None:
    schema = json.loads((REPO / "schemas" / "log.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for name, definition in schema["$defs"].items():
        assert definition.get("description"), name
        if name in ("header", *logread.EVENT_TYPES):
            assert definition["additionalProperties"] is False, name
            for prop, sub in definition["properties"].items():
                assert "description" in sub or "$ref" in sub, (name, prop)


def test_every_example_line_fits_the_whole_schema() -> None:
    schema = json.loads((REPO / "schemas" / "log.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    lines = example_lines()
    assert len(lines) > 500
    for obj in lines:
        validator.validate(obj)
        assert check_line(obj, 1 if "truco_log" in obj else 2)[1] is None


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.floats(-2, 2)
                     | st.sampled_from(["4c", "Kd", "1c", "x", "", "play"]),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c,
                                                                         max_size=2), max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["seat", "card", "value", "winner", "score",
                                                "points", "hands", "play", "covered", "games",
                                                "variant", "seed", "dealer", "event", "zz"]),
       _JSON, st.booleans())
def test_fast_path_agrees_with_jsonschema(index: int, key: str, value: Any, drop: bool) -> None:
    """The compiled check decides exactly as jsonschema (with JSON integers) on mutated lines."""
    lines = _EXAMPLES or _EXAMPLES.extend(example_lines()) or _EXAMPLES
    obj = dict(lines[index % len(lines)])
    if drop:
        obj.pop(key, None)
    else:
        obj[key] = value
    name = "header" if "truco_log" in obj else obj.get("event")
    if name not in ("header", *logread.EVENT_TYPES):
        return
    fast = logcheck._fast_checks()[name]
    assert fast is not None
    assert fast(obj) == (not any(logcheck._validators()[name].iter_errors(obj)))
    assert (schema_problem(obj, name) is None) == fast(obj)


_EXAMPLES: list[dict[str, Any]] = []
