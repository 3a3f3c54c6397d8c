"""Reading game logs (docs/log-format.md, versions 1 and 2): a streaming reader that checks
every line as it goes and yields positioned items, never a traceback.

Each line is checked in turn: size limits (:data:`MAX_LINE_BYTES`, :data:`MAX_FILE_BYTES`),
UTF-8, blank lines, strict JSON (no duplicate keys, ``NaN`` or ``Infinity``; ``1.0`` and ``true``
are not integers), the header on line 1 only, and ``schemas/log.schema.json``. CRLF line ends and a
missing final newline are accepted.

The reader yields :class:`LogItem` for good lines and :class:`LogProblem` for bad ones, so one
reader serves strict verification (stop at the first problem) and lenient collection (note it and
go on): the policy belongs to the consumer (see :mod:`engine.replay`). The JSON of a line is
read by :func:`engine.strictjson.loads_strict`, checked by :func:`engine.logcheck.check_line`.

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
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Literal, cast

from engine.errors import LogError
from engine.logcheck import EVENT_TYPES as EVENT_TYPES
from engine.logcheck import VERSION_2_EVENTS as VERSION_2_EVENTS
from engine.logcheck import ItemKind as ItemKind
from engine.logcheck import check_line as check_line
from engine.logcheck import log_schema as log_schema
from engine.logcheck import schema_problem as schema_problem
from engine.logschema import CHECKPOINTS as CHECKPOINTS
from engine.logschema import MOVES as MOVES
from engine.logversion import LATEST, event_needs, version_problem
from engine.reading import read_regular
from engine.strictjson import MAX_JSON_DEPTH as MAX_JSON_DEPTH
from engine.strictjson import loads_strict as loads_strict

#: Longest line accepted, in bytes (its line end not counted).
MAX_LINE_BYTES = 64 * 1024
#: Largest log accepted, in bytes.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Most lines a log may have (a long match has a few thousand): what a log of blank or tiny
#: lines costs to read is bounded by it, not by the size limit alone.
MAX_LINES = 1 << 20

# A line is read up to its limit plus a CRLF line end, plus one byte to see that it is longer.
_CHUNK = MAX_LINE_BYTES + 3

#: What went wrong, one word per error kind of docs/log-format.md (plus the reader's own).
ProblemKind = Literal[
    "json", "encoding", "limit", "blank", "schema", "header", "variant", "illegal",
    "checkpoint", "deal", "after_end", "reveal", "incomplete",
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


def read_log_file(path: str | os.PathLike[str]) -> bytes | IO[bytes]:
    """The log at ``path`` as the reader takes it, the one way every command opens a log
    (``truco verify``, ``replay``, ``position``): a regular file only (a FIFO or a device is
    refused, never waited on: :mod:`engine.reading`), read up to one byte past
    :data:`MAX_FILE_BYTES` (the reader reports a log over the limit), gzip data decompressed
    (:func:`decompressed`: a ``.jsonl.gz``, with the log's own line numbers). Raises
    :class:`OSError`."""
    return decompressed(read_regular(path, MAX_FILE_BYTES))


def read_log_stream(stream: IO[bytes]) -> bytes | IO[bytes]:
    """:func:`read_log_file` for a stream (standard input): up to one byte past
    :data:`MAX_FILE_BYTES`, gzip data decompressed."""
    return decompressed(stream.read(MAX_FILE_BYTES + 1))


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
