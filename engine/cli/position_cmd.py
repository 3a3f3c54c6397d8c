"""``truco position LOG [--at LINE]``: the position (docs/positions.md) of a verified log's match
after line LINE (by default the log's last), as one JSON line.

Exit codes: 0 ok, 1 the log is invalid up to that line (``file:line: message`` on standard
error), 2 usage (a line outside the log, or between a move and its checkpoints).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO

import click

from engine.cli.replay_cmd import _read
from engine.game import Match
from engine.i18n import _
from engine.logread import CHECKPOINTS as LOG_CHECKPOINTS
from engine.logread import LogItem, LogProblem
from engine.replay import Replayer, Visitor

#: The events a move's checkpoints are (docs/log-format.md; the side bets' too).
CHECKPOINTS = frozenset(LOG_CHECKPOINTS)


class _Keep(Visitor):
    """A strict visitor that keeps the match the header built."""

    match: Match | None = None

    def header(self, item: LogItem, match: Match) -> None:
        self.match = match


def _is_checkpoint(line: bytes) -> bool:
    try:
        data = json.loads(line)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("event") in CHECKPOINTS


def _line_end(data: bytes, lines: int, start: int = 0) -> int:
    """The offset just past the ``lines``-th line end from ``start`` (or the end of ``data``)."""
    for _line in range(lines):
        end = data.find(b"\n", start)
        if end < 0:
            return len(data)
        start = end + 1
    return start


def position_at(data: bytes | IO[bytes], file: str, base: Path | None,
                at: int | None) -> dict[str, object]:
    """The position of the log's match after line ``at`` (``None``: its last line). Raises
    :class:`LogProblem` for a log invalid up to there, :class:`click.UsageError` for a line
    outside the log or between a move and its checkpoints. ``data`` is a stream only for
    damaged gzip data (:func:`engine.logread.decompressed`): the replay stops at the damage,
    wherever ``at`` is."""
    if at is not None and isinstance(data, bytes):
        count = data.count(b"\n") + (not data.endswith(b"\n"))  # no list of the lines
        if not 1 <= at <= count:
            raise click.UsageError(_("--at {at}: the log has lines 1 to {count}").format(
                at=at, count=count))
        end = _line_end(data, at)
        if at < count and _is_checkpoint(data[end:_line_end(data, 1, end)]):
            raise click.UsageError(_("--at {at}: line {line} is a checkpoint of the move before "
                                     "it: the position is after a move's checkpoints").format(
                                         at=at, line=at + 1))
        data = data[:end]
    visitor = _Keep()
    Replayer(file, base, visitor).run_source(data)
    if visitor.match is None:  # pragma: no cover - a strict replay raises first
        raise click.UsageError(_("the log has no match"))
    return visitor.match.position()


@click.command("position")
@click.argument("log", metavar="LOG")
@click.option("--at", "at", type=int, metavar="LINE",
              help="The position after this line of the log (default: its last line).")
def position(log: str, at: int | None) -> None:
    """Print the position of a game log's match (a file, or - for standard input) after a
    line, as one JSON line (docs/positions.md).

    The log is verified up to that line; a line between a move and its checkpoints is not a
    position of the log (usage error).

    \b
    Examples:
      truco position replays/paulista-seed1.jsonl
      truco position replays/paulista-seed1.jsonl --at 12
    """
    data, file, base = _read(log)
    try:
        p = position_at(data, file, base, at)
    except LogProblem as exc:
        click.echo(f"truco: {exc}", err=True)
        sys.exit(1)
    click.echo(json.dumps(p, ensure_ascii=False))
