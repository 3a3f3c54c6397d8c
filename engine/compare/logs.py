"""Recorded games under a rule change: every log written under variant A replayed under B
(:func:`compare_logs`), sorted into same, invalid and changed, and told as text.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.actions import Action
from engine.errors import VariantError
from engine.game import Checkpoint, Match, resolve_rules
from engine.logformat import dumps_event
from engine.logread import LogItem, LogProblem, read_log, read_log_file
from engine.reading import logs_under
from engine.replay import Visitor, replay, resolve_variant
from engine.rules import Rules
from engine.variant import resolve_source

Status = Literal["same", "invalid", "changed", "invalid_under_a", "skipped"]
STATUSES: tuple[Status, ...] = ("same", "invalid", "changed", "invalid_under_a", "skipped")




# -- logs ----------------------------------------------------------------------------------------
@dataclass
class _Computed:
    """One checkpoint the engine computed: the line of the move that caused it, and the line of
    the log's own checkpoint standing for it (if the log has one)."""

    move_line: int
    checkpoint: Checkpoint
    line: int | None = None


class _Outcome(Visitor):
    """Collects every checkpoint the engine computes, and stops at the first problem (a
    checkpoint that disagrees is no problem when ``checkpoints_are_a``: they are A's)."""

    def __init__(self, checkpoints_are_a: bool) -> None:
        self.checkpoints_are_a = checkpoints_are_a
        self.computed: list[_Computed] = []
        self._last: list[_Computed] = []

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self._last = [_Computed(item.line, cp) for cp in checkpoints]
        self.computed.extend(self._last)

    def checkpoint(self, item: LogItem, engine: Checkpoint | None) -> None:
        for c in self._last:
            if c.checkpoint is engine:
                c.line = item.line

    def problem(self, problem: LogProblem) -> None:
        if self.checkpoints_are_a and problem.kind == "checkpoint":
            return
        raise problem


@dataclass(frozen=True)
class Difference:
    """The first checkpoint where B's outcome differs from A's: ``line`` is the log's line of
    that checkpoint (or of the move that caused it, in a log without it); ``expected`` is A's
    checkpoint, ``found`` B's (``None`` where one of them has none)."""

    line: int
    move_line: int
    expected: Checkpoint | None
    found: Checkpoint | None

    def as_dict(self) -> dict[str, Any]:
        """The difference as plain data."""
        return {"line": self.line, "move_line": self.move_line, "expected": self.expected,
                "found": self.found}


@dataclass
class LogComparison:
    """What variant B makes of one log: its ``status`` (one of :data:`STATUSES`), the first
    ``problem`` (for ``invalid`` under B or ``invalid_under_a``), the first ``difference`` of
    outcome, and for a skipped log the ``reason``."""

    file: str
    status: Status
    problem: LogProblem | None = None
    difference: Difference | None = None
    reason: str | None = None
    #: Whether the match is over at the end of the log, under A and under B.
    complete: tuple[bool, bool] = (False, False)

    def as_dict(self) -> dict[str, Any]:
        """The comparison as plain data (``truco compare --json``)."""
        return {"file": self.file, "status": self.status,
                "problem": None if self.problem is None else self.problem.as_dict(),
                "difference": None if self.difference is None else self.difference.as_dict(),
                "reason": self.reason, "complete": list(self.complete)}


@dataclass
class LogsReport:
    """Every log compared, in path order, and the variants' descriptions."""

    a: dict[str, str]
    b: dict[str, str]
    logs: list[LogComparison] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many logs have each status, and how many there are."""
        out = {"logs": len(self.logs)}
        for status in STATUSES:
            out[status] = sum(log.status == status for log in self.logs)
        return out

    @property
    def changed(self) -> bool:
        """Whether B rejects or changes any log of A."""
        return any(log.status in ("invalid", "changed") for log in self.logs)

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (``truco compare --json``)."""
        return {"a": self.a, "b": self.b, "summary": self.counts(), "changed": self.changed,
                "logs": [log.as_dict() for log in self.logs]}


def describe(ref: str, rules: Rules) -> dict[str, str]:
    """A variant as the reports name it: as given, its name and its fingerprint."""
    return {"variant": ref, "name": rules.name, "variant_sha256": rules.fingerprint}


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The logs under ``paths``: files as given, folders searched recursively for ``.jsonl``
    and ``.jsonl.gz`` files (:func:`engine.reading.logs_under`: ``truco verify``'s order)."""
    out: list[str] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            out.extend(logs_under(os.fspath(given)))
        else:
            out.append(os.fspath(given))
    return out


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def written_under(ref: str, base: Path, a_source: Path, a: Rules) -> bool:
    """Whether a header's ``variant`` (relative to the log's folder ``base``) is variant A: the
    same name or file, or a variant with the same fingerprint. Raises
    :class:`~engine.errors.VariantError` when it names no loadable variant."""
    if _same_file(resolve_source(ref, base), a_source):
        return True
    return resolve_variant(ref, base).fingerprint == a.fingerprint


def first_difference(a: Sequence[_Computed], b: Sequence[_Computed],
                     until: int | None = None) -> Difference | None:
    """The first checkpoint where ``b`` (B's computed checkpoints) differs from ``a`` (A's),
    both in log order; with ``until``, only those caused by moves before that line."""
    if until is not None:
        a = [c for c in a if c.move_line < until]
        b = [c for c in b if c.move_line < until]
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x is not None and y is not None and x.move_line == y.move_line \
                and x.checkpoint == y.checkpoint:
            continue
        # The earlier move is where they part: its checkpoint has no counterpart in the other.
        if x is not None and (y is None or x.move_line < y.move_line):
            y = None
        elif y is not None and (x is None or y.move_line < x.move_line):
            x = None
        first = x or y
        assert first is not None
        line = (x.line if x is not None else None) or (y.line if y is not None else None)
        return Difference(line or first.move_line, first.move_line,
                          None if x is None else x.checkpoint,
                          None if y is None else y.checkpoint)
    return None


def _outcome(data: bytes, file: str, base: Path, rules: Rules | None
             ) -> tuple[_Outcome, LogProblem | None]:
    visitor = _Outcome(checkpoints_are_a=rules is not None)
    try:
        replay(data, file, visitor, base, rules=rules)
    except LogProblem as problem:
        return visitor, problem
    return visitor, None


def _complete(computed: Sequence[_Computed]) -> bool:
    return any(c.checkpoint["event"] == "match" for c in computed)


def _log_bytes(path: Path) -> bytes:
    """The log at ``path`` as bytes, the way every command opens one (a regular file, bounded,
    a ``.jsonl.gz`` decompressed: :func:`engine.logread.read_log_file`); read whole, because
    the log is replayed twice. Raises :class:`OSError`, and :class:`EOFError` or
    :class:`zlib.error` for damaged gzip data."""
    data = read_log_file(path)
    return data if isinstance(data, bytes) else data.read()


def compare_log(path: str, a_ref: str, a: Rules, b: Rules) -> LogComparison:
    """Replay the log at ``path`` under A (its header's variant) and under B, and compare."""
    p = Path(path)
    try:
        data = _log_bytes(p)
    except OSError as exc:
        return LogComparison(path, "skipped", reason=f"cannot read the log: {exc.strerror}")
    except (EOFError, zlib.error) as exc:
        return LogComparison(path, "skipped", reason=f"damaged gzip data: {exc}")
    base = p.resolve().parent
    first = next(iter(read_log(data, path)))
    if isinstance(first, LogProblem):
        return LogComparison(path, "skipped", reason=f"no header: {first.message}")
    ref = first.data["variant"]
    try:
        ours = written_under(ref, base, resolve_source(a_ref), a)
    except VariantError as exc:
        return LogComparison(path, "skipped",
                             reason=f"variant {ref!r}: {str(exc).splitlines()[0]}")
    if not ours:
        return LogComparison(path, "skipped", reason=f"written under variant {ref!r}")
    under_a, problem = _outcome(data, path, base, None)
    if problem is not None:
        return LogComparison(path, "invalid_under_a", problem=problem)
    under_b, problem = _outcome(data, path, base, b)
    complete = (_complete(under_a.computed), _complete(under_b.computed))
    if problem is not None:
        diff = first_difference(under_a.computed, under_b.computed, until=problem.line)
        return LogComparison(path, "invalid", problem=problem, difference=diff,
                             complete=complete)
    diff = first_difference(under_a.computed, under_b.computed)
    return LogComparison(path, "same" if diff is None else "changed", difference=diff,
                         complete=complete)


def compare_logs(a: str, b: str, paths: Iterable[str | os.PathLike[str]]) -> LogsReport:
    """Compare every log under ``paths`` (files, or folders searched recursively) written under
    variant ``a`` with variant ``b`` (each a shipped name or a variant file). Raises
    :class:`~engine.errors.VariantError` if either variant is invalid.

    >>> report = compare_logs("mineiro-12", "mineiro", ["replays/mineiro-12-special.jsonl"])
    >>> log = report.logs[0]
    >>> log.status, log.problem.line, log.problem.kind
    ('invalid', 12, 'illegal')
    """
    a_rules, b_rules = resolve_rules(a), resolve_rules(b)
    report = LogsReport(describe(a, a_rules), describe(b, b_rules))
    for path in log_files(paths):
        report.logs.append(compare_log(path, a, a_rules, b_rules))
    return report


def _checkpoint_text(cp: Checkpoint | None, kind: str) -> str:
    return f"no {kind} checkpoint" if cp is None else dumps_event(cp)


def difference_text(d: Difference, a: str, b: str) -> str:
    """A :class:`Difference` in words: ``a gives ..., b gives ...``."""
    kind = (d.expected or d.found or {"event": "?"})["event"]
    return (f"{a} gives {_checkpoint_text(d.expected, kind)}, "
            f"{b} gives {_checkpoint_text(d.found, kind)}")


def labels(report_a: dict[str, str], report_b: dict[str, str]) -> tuple[str, str]:
    """How the text output calls the two variants: their names, or as given where the names
    are the same."""
    if report_a["name"] != report_b["name"]:
        return report_a["name"], report_b["name"]
    return report_a["variant"], report_b["variant"]


def format_logs(report: LogsReport) -> str:
    """A :class:`LogsReport` as text: one line per log of A (``file:line: ...`` where B rejects
    or changes it), then a summary."""
    a, b = labels(report.a, report.b)
    out = [f"logs of {a} replayed under {b}:"]
    for log in report.logs:
        d, problem = log.difference, log.problem
        if log.status == "same":
            out.append(f"{log.file}: same outcome")
        elif log.status == "changed" and d is not None:
            out.append(f"{log.file}:{d.line}: outcome changed: {difference_text(d, a, b)}")
        elif log.status == "invalid" and problem is not None:
            text = f"{log.file}:{problem.line}: invalid under {b}: {problem.message}"
            if d is not None:
                text += f"; the outcome changed first at line {d.line}: {difference_text(d, a, b)}"
            out.append(text)
        elif log.status == "invalid_under_a" and problem is not None:
            out.append(f"{log.file}:{problem.line}: invalid under {a} already, not compared: "
                       f"{problem.message}")
    c = report.counts()
    compared = c["same"] + c["invalid"] + c["changed"]
    out.append(f"{compared} log{'s' * (compared != 1)} of {a}: {c['same']} same outcome, "
               f"{c['invalid']} invalid under {b}, {c['changed']} outcome changed; "
               f"{c['invalid_under_a']} invalid under {a} already; {c['skipped']} skipped "
               "(other variants or no readable header)")
    return "\n".join(out) + "\n"
