"""Verifying logs: :func:`verify_file` and :func:`verify_bytes` replay a log with a
:class:`~engine.replay.Collector` (or the strict :class:`~engine.replay.Visitor`) and sum up
what they found in a :class:`ReplayResult`; :func:`replay` replays one with any visitor.

>>> verify_bytes(b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...              b'{"event": "fold", "seat": 1}\\n', "a.jsonl").problems[0].code
'not_now'
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from engine.logread import LogProblem, read_log_file
from engine.replay.replayer import Collector, Replayer, Visitor
from engine.rules import Rules


@dataclass
class ReplayResult:
    """The outcome of verifying one log."""

    file: str
    #: The first problems found (at most :data:`~engine.replay.MAX_PROBLEMS`).
    problems: list[LogProblem] = field(default_factory=list)
    #: Set when the log ends before its match is over (the log is valid even so).
    incomplete: LogProblem | None = None
    lines: int = 0
    hands: int = 0
    score: list[int] | None = None
    games: list[int] | None = None
    winner: int | None = None
    #: How many problems were found after those kept.
    more: int = 0

    @property
    def valid(self) -> bool:
        """No problem found (an incomplete log is valid)."""
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data (``truco verify --json``)."""
        status = "invalid" if self.problems else ("incomplete" if self.incomplete else "valid")
        return {"file": self.file, "status": status, "valid": self.valid,
                "incomplete": self.incomplete is not None, "lines": self.lines,
                "hands": self.hands, "score": self.score, "games": self.games,
                "winner": self.winner,
                "problems": [p.as_dict() for p in self.problems],
                "more_problems": self.more,
                "note": None if self.incomplete is None else self.incomplete.as_dict()}


# -- entry points --------------------------------------------------------------------------------
def replay(source: IO[bytes] | bytes, file: str, visitor: Visitor,
           base: Path | None = None, *, rules: Rules | None = None) -> Replayer:
    """Replay a log (a binary stream or bytes) with ``visitor``; ``base`` is the folder a
    variant path in the header is relative to (the current folder by default). With ``rules``,
    the log is replayed under those rules instead of its header's variant (whose
    ``variant_sha256`` is then not checked)."""
    replayer = Replayer(file, base, visitor, rules=rules)
    replayer.run_source(source)
    return replayer


def verify_bytes(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
                 strict: bool = False) -> ReplayResult:
    """Verify a log. Lenient by default (every problem collected); with ``strict`` the first
    problem is raised as a :class:`LogProblem`."""
    return _verify(data, file, base, None, strict)


def _verify(data: IO[bytes] | bytes, file: str, base: Path | None,
            base_of: Callable[[], Path] | None, strict: bool) -> ReplayResult:
    visitor: Visitor = Visitor() if strict else Collector()
    r = Replayer(file, base, visitor)
    r._base_of = base_of
    r.run_source(data)
    result = ReplayResult(file, list(getattr(visitor, "problems", [])), r.incomplete, r.lines,
                          more=getattr(visitor, "more", 0))
    if r.match is not None:
        m = r.match
        result.hands = m.hand_number
        result.score = m.score[:]
        result.games = m.games[:]
        result.winner = m.winner
    return result


def verify_file(path: str | os.PathLike[str], *, strict: bool = False,
                name: str | None = None) -> ReplayResult:
    """Verify the log at ``path`` (variant paths relative to its folder; gzip data, a
    ``.jsonl.gz``, is read decompressed). Problems name the file ``name`` (by default
    ``path``).

    >>> verify_file("no-such.jsonl").problems[0].message
    'cannot read the log: No such file or directory'

    """
    try:
        data, file = read_log_file(path), str(path)  # bounded; a .jsonl.gz: its lines
    except OSError as exc:
        file = str(path) if name is None else name
        problem = LogProblem("limit", f"cannot read the log: {exc.strerror}", file=file, line=1)
        if strict:
            raise problem from None
        return ReplayResult(file, [problem])
    file = file if name is None else name
    # The log's folder (symbolic links resolved) is made only if its header names a file.
    return _verify(data, file, None, lambda: Path(path).resolve().parent, strict)
