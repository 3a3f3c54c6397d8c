"""Reading game logs (docs/log-format.md, versions 1 and 2): a streaming reader that checks
every line as it goes and yields positioned items, never a traceback.

Each line is checked in turn: size limits (:data:`MAX_LINE_BYTES`, :data:`MAX_FILE_BYTES`),
UTF-8, blank lines, strict JSON (no duplicate keys, ``NaN`` or ``Infinity``; ``1.0`` and ``true``
are not integers), the header on line 1 only, and ``schemas/log.schema.json``. CRLF line ends and a
missing final newline are accepted.

The reader yields :class:`LogItem` for good lines and :class:`LogProblem` for bad ones, so one
reader serves strict verification (stop at the first problem) and lenient collection (note it and
go on): the policy belongs to the consumer (see :mod:`engine.replay`).

>>> items = list(read_log(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...                       b'{"event": "play", "seat": 1, "card": "5h", "seat": 2}\\n', "x.jsonl"))
>>> items[0]
LogItem(line=1, kind='header', data={'truco_log': 1, 'variant': 'paulista', 'seed': 7})
>>> str(items[1])
'x.jsonl:2: invalid JSON: duplicate key "seat"'
"""

from __future__ import annotations

import gzip
import io
import json
import math
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any, Literal, cast

from engine.errors import LogError
from engine.logschema import CHECKPOINTS as CHECKPOINTS
from engine.logschema import MOVES as MOVES
from engine.logschema import NEWER
from engine.logversion import LATEST, VERSIONS, event_needs, version_problem
from engine.resources import schema_path
from engine.schemas import strict_validator

#: Longest line accepted, in bytes (its line end not counted).
MAX_LINE_BYTES = 64 * 1024
#: Largest log accepted, in bytes.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Most lines a log may have (a long match has a few thousand): what a log of blank or tiny
#: lines costs to read is bounded by it, not by the size limit alone.
MAX_LINES = 1 << 20

# The move events (the kinds', engine.logschema) and the checkpoints, in the format's order.
EVENT_TYPES = MOVES + CHECKPOINTS
#: Event types of version 2 only: accepted by the schema, refused in a version-1 log by the
#: version gate (engine.logversion), not named among the types an unknown event's message
#: lists (version 1's).
VERSION_2_EVENTS = tuple(NEWER)

# A line is read up to its limit plus a CRLF line end, plus one byte to see that it is longer.
_CHUNK = MAX_LINE_BYTES + 3

ItemKind = Literal["header", "deal", "move", "checkpoint"]

#: What went wrong, one word per error kind of docs/log-format.md (plus the reader's own).
ProblemKind = Literal[
    "json", "encoding", "limit", "blank", "schema", "header", "variant", "illegal",
    "checkpoint", "deal", "after_end", "incomplete",
]


class LogProblem(LogError):
    """A :class:`~engine.errors.LogError` with the kind of problem it is (``"json"``,
    ``"schema"``, ``"illegal"``, ``"checkpoint"``, ...). It reads ``file:line: message``.

    >>> str(LogProblem("schema", "schema violation: ...", file="a.jsonl", line=4))
    'a.jsonl:4: schema violation: ...'
    """

    def __init__(self, kind: ProblemKind, message: str, *, file: str | None = None,
                 line: int | None = None, item: ItemKind | None = None,
                 code: str | None = None) -> None:
        super().__init__(message, file=file, line=line)
        self.kind: ProblemKind = kind
        #: The stable code of an illegal move's refusal (docs/error-codes.md), else ``None``.
        self.code = code
        #: What the bad line was, when the reader could tell (a line that fails the schema);
        #: ``None`` for a line it could not read (bad JSON or UTF-8) or a reading limit.
        self.item: ItemKind | None = item

    @property
    def may_be_a_move(self) -> bool:
        """Whether the bad line may have been a move or a deal that the replay needed: an
        unreadable line (invalid JSON or UTF-8) or an event that fails the schema, unless it is
        known to be a checkpoint. A blank line or a second header is not one."""
        return self.kind in ("json", "encoding") or (
            self.kind == "schema" and self.item != "checkpoint")

    def as_dict(self) -> dict[str, Any]:
        """The problem as plain data (for ``--json`` output); ``code`` where it has one."""
        out = {"file": self.file, "line": self.line, "kind": self.kind, "message": self.message}
        if self.code is not None:
            out["code"] = self.code
        return out


@dataclass(frozen=True, slots=True)
class LogItem:
    """One good line of a log: its 1-based ``line``, its ``kind`` (``header``, ``deal``,
    ``move`` or ``checkpoint``) and its JSON object, keys in the order they were written."""

    line: int
    kind: ItemKind
    data: dict[str, Any]
    #: The line's bytes (without its line end) for an event line, where the reader keeps
    #: them: the same bytes always read as the same event (a replayer's cache key).
    raw: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def event(self) -> str:
        """The event type (``"header"`` for the header)."""
        return "header" if self.kind == "header" else str(self.data["event"])


# -- strict JSON -------------------------------------------------------------------------------
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


# -- the schema --------------------------------------------------------------------------------
@cache
def log_schema() -> dict[str, Any]:
    """``schemas/log.schema.json`` as data."""
    with open(schema_path("log"), encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


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
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "null": lambda x: x is None,
}


def _keyword(key: str, value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    if key in ("description", "title", "$schema", "$id"):
        return _TRUE
    if key == "$ref":
        return _compile(defs[value.removeprefix("#/$defs/")], defs)
    if key == "type":
        names = value if isinstance(value, list) else [value]
        tests = [_TYPES[n] for n in names]
        return lambda x: any(t(x) for t in tests)
    if key == "const":  # as jsonschema: 1.0 equals 1, but true does not
        return lambda x: x == value and isinstance(x, bool) == isinstance(value, bool)
    if key == "enum":
        return lambda x: any(x == v and isinstance(x, bool) == isinstance(v, bool)
                             for v in value)
    if key == "minimum":
        return lambda x: not _TYPES["number"](x) or x >= value
    if key == "maximum":
        return lambda x: not _TYPES["number"](x) or x <= value
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
        return lambda x: not isinstance(x, list) or all(item(v) for v in x)
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
    kind: ItemKind = ("checkpoint" if event in CHECKPOINTS
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


# -- the reader --------------------------------------------------------------------------------
def _raw_lines(source: IO[bytes] | bytes | Iterable[bytes]) -> Iterator[bytes]:
    """Lines of at most ``_CHUNK`` bytes (a longer line is cut there)."""
    if isinstance(source, bytes):
        start = 0
        while start < len(source):
            end = source.find(b"\n", start, start + _CHUNK)
            stop = end + 1 if end >= 0 else min(len(source), start + _CHUNK)
            yield source[start:stop]
            start = stop
        return
    readline = getattr(source, "readline", None)
    if readline is not None:
        while True:
            chunk: bytes = readline(_CHUNK)
            if not chunk:
                return
            yield chunk
    else:
        yield from _raw_lines(b"".join(source))


# Logs repeat the same lines over and over ({"event": "round", "winner": 1}, a seat playing a
# card): a good event line is parsed and checked once per process, then taken from here (a copy,
# so no reader can change what another gets). Bounded, in lines and in the bytes of a line (an
# event is some 50 bytes; a longer line, with a large "meta", is read each time): at most a few
# MiB. Deals are never kept.
_SEEN: dict[bytes, tuple[ItemKind, dict[str, Any]]] = {}
_SEEN_MAX = 4096
#: Longest line kept (bytes).
KEEP_LINE_BYTES = 1024


def log_lines(source: IO[bytes] | bytes | Iterable[bytes], file: str = "<log>"
              ) -> Iterator[bytes | LogProblem]:
    """The lines of a log, each without its line end (``\\n`` or ``\\r\\n``), checked against
    the size limits only: a line over :data:`MAX_LINE_BYTES`, a file over
    :data:`MAX_FILE_BYTES` or a line past :data:`MAX_LINES` ends them with its problem (a
    :class:`LogProblem`, the last item).
    :func:`read_log` reads each with :func:`read_line`.

    >>> list(log_lines(b'a\\r\\nb', "x.jsonl"))
    [b'a', b'b']
    """
    if isinstance(source, bytes) and len(source) <= min(_SPLIT_MAX, MAX_FILE_BYTES):
        return iter(_split(source, file))
    return _log_lines(source, file)


# Bytes up to this size are split in one call (a list of the lines, no larger than the bytes).
_SPLIT_MAX = 1 << 20


def _split(source: bytes, file: str) -> list[bytes | LogProblem]:
    """What _log_lines yields for bytes that cannot reach the size limit: a line cut at
    _CHUNK there is longer than MAX_LINE_BYTES here too, and ends the lines at the same one."""
    lines = source.split(b"\n")
    if not lines[-1]:
        lines.pop()  # after the last line end (or an empty log)
    if b"\r" in source:
        lines = [body[:-1] if body[-1:] == b"\r" else body for body in lines]
    out: list[bytes | LogProblem] = list(lines)
    if len(lines) > MAX_LINES:
        del out[MAX_LINES:]
        out.append(_too_many(file, MAX_LINES + 1))
    if len(source) > MAX_LINE_BYTES:
        for i, body in enumerate(lines):
            if len(body) > MAX_LINE_BYTES:
                del out[i:]
                out.append(_too_long(file, i + 1))
                break
    return out


def _log_lines(source: IO[bytes] | bytes | Iterable[bytes], file: str
               ) -> Iterator[bytes | LogProblem]:
    size = 0
    raws = _raw_lines(source)
    line = 0
    while True:
        try:
            raw = next(raws)
        except StopIteration:
            return
        except (OSError, EOFError, zlib.error) as exc:  # a stream that breaks: damaged gzip
            yield LogProblem("limit", f"cannot read the log: {_reading_error(exc)}", file=file,
                             line=line + 1)
            return
        line += 1
        if line > MAX_LINES:
            yield _too_many(file, line)
            return
        size += len(raw)
        if size > MAX_FILE_BYTES:
            yield LogProblem("limit", f"the log is larger than {MAX_FILE_BYTES // 2**20} MiB, "
                             "the limit of this reader", file=file, line=line)
            return
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if body.endswith(b"\r"):
            body = body[:-1]
        if len(body) > MAX_LINE_BYTES:
            yield _too_long(file, line)
            return
        yield body


def _reading_error(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
        return f"damaged gzip data ({text}); the lines before it were read"
    return getattr(exc, "strerror", None) or text


#: The first two bytes of gzip data (a log itself starts with ``{``).
GZIP_MAGIC = b"\x1f\x8b"


def decompressed(data: bytes) -> bytes | IO[bytes]:
    """A log's bytes as read from a file or standard input: gzip data (it starts with
    :data:`GZIP_MAGIC`, whatever the file is called) decompressed, anything else as it is.
    Decompression stops one byte past :data:`MAX_FILE_BYTES`, so the reader reports a log over
    the limit (a gzip bomb costs no more than that). Damaged gzip data (a truncated archive) is
    given as a stream: the reader reads the lines before the damage and reports it at the line
    it hits (a ``limit`` problem: a file that cannot be read), so the line numbers are those
    of the decompressed log.

    >>> decompressed(gzip.compress(b'{"truco_log": 1}\\n'))
    b'{"truco_log": 1}\\n'
    """
    if data[:2] != GZIP_MAGIC:
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            return stream.read(MAX_FILE_BYTES + 1)
    except (OSError, EOFError, zlib.error):
        stream = gzip.GzipFile(fileobj=io.BytesIO(data))  # read again, line by line
        return cast(IO[bytes], stream)


def _too_many(file: str, line: int) -> LogProblem:
    return LogProblem("limit", f"the log has more than {MAX_LINES:,} lines, the limit of this "
                      "reader", file=file, line=line)


def _too_long(file: str, line: int) -> LogProblem:
    return LogProblem("limit", f"line longer than {MAX_LINE_BYTES // 1024} KiB, the limit of "
                      "this reader", file=file, line=line)


def read_line(body: bytes, line: int, file: str = "<log>", version: int = LATEST
              ) -> LogItem | LogProblem:
    """One line of a log (its bytes without the line end, within the size limits, see
    :func:`log_lines`) at its 1-based ``line``, in a log whose header names format
    ``version``: a :class:`LogItem` if it is good, else its :class:`LogProblem`. A good event
    line is parsed and checked once per process (its :attr:`LogItem.raw` is then set): the
    answer depends on the bytes and on whether the line is the first, nothing else. (An event
    that needs a newer version than 1, :func:`engine.logversion.event_needs` of the parsed
    event, is checked against ``version`` and never kept: the lines kept are good in a log of
    any version.)

    >>> read_line(b'{"event": "fold", "seat": 1}', 2)
    LogItem(line=2, kind='move', data={'event': 'fold', 'seat': 1})
    """
    if line > 1:
        seen = _SEEN.get(body)
        if seen is not None:  # the same bytes were parsed and checked already
            return LogItem(line, seen[0], dict(seen[1]), body)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return LogProblem("encoding", f"invalid UTF-8 at byte {exc.start + 1} of the line "
                          f"(0x{body[exc.start]:02x}): a log is UTF-8", file=file, line=line)
    if not text.strip():
        return LogProblem("blank", "blank line: a log has no blank lines", file=file, line=line)
    if line == 1 and text.startswith("\ufeff"):
        return LogProblem("encoding", "the log starts with a byte order mark: a log is "
                          "UTF-8 without one", file=file, line=line)
    try:
        obj = loads_strict(text)
    except ValueError as exc:
        return LogProblem("json", f"invalid JSON: {exc}", file=file, line=line)
    kind, problem = check_line(obj, line)
    if problem is not None:
        pkind: ProblemKind = "header" if problem.startswith("bad header") else "schema"
        return LogProblem(pkind, problem, file=file, line=line, item=kind)
    if line == 1:
        return LogItem(line, kind, obj)
    newer = event_needs(obj)[0] > 1  # the parsed event's: the same whatever its bytes
    if newer and version < LATEST:
        too_new = version_problem(version, obj)
        if too_new is not None:
            return LogProblem("schema", too_new, file=file, line=line, item=kind)
    if kind != "deal" and not newer and len(body) <= KEEP_LINE_BYTES:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[body] = (kind, obj)
        return LogItem(line, kind, dict(obj), body)
    return LogItem(line, kind, obj)


def empty_log(file: str = "<log>") -> LogProblem:
    """The problem of a log without a line."""
    return LogProblem("header", "bad header: the log is empty; line 1 must be the header",
                      file=file, line=1)


def read_log(source: IO[bytes] | bytes | Iterable[bytes], file: str = "<log>"
             ) -> Iterator[LogItem | LogProblem]:
    """Read a log line by line from a binary stream (or bytes), yielding a :class:`LogItem`
    per good line and a :class:`LogProblem` per bad one. A line over the length limit or a
    file over the size limit ends the reading (after its problem).

    >>> for x in read_log(b'{"truco_log": 1, "variant": "mineiro"}\\n\\n', "a.jsonl"):
    ...     print(x)
    LogItem(line=1, kind='header', data={'truco_log': 1, 'variant': 'mineiro'})
    a.jsonl:2: blank line: a log has no blank lines
    """
    line = 0
    version = LATEST  # the header's, once read (engine.logversion)
    for body in log_lines(source, file):
        if isinstance(body, LogProblem):
            yield body
            return
        line += 1
        item = read_line(body, line, file, version)
        if line == 1 and isinstance(item, LogItem):
            version = item.data["truco_log"]
        yield item
    if line == 0:
        yield empty_log(file)
