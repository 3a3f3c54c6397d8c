"""A game's result, taken only from its verified log (or recorded as a walkover, a forfeit or
an abandoned table, never as a score).

:func:`read_log` replays a log exactly as ``truco verify`` does (:func:`engine.replay.replay`,
the lenient :class:`~engine.replay.Collector`, the fair deal's reveal checked where the header
commits to a seed) under the championship's rules, and accepts it only when every line is
valid, the match is over, the header's ``variant_sha256`` is the championship's and its
``meta.table`` names the table it is recorded for (the championship's table id, or the id the
server gave the table, kept beside the result as ``log_table``). The log's team 0 is the
pairing's first
team in odd games, its second team in even ones (the teams change sides each game).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from engine.championship.model import ChampionshipError
from engine.logread import LogProblem
from engine.replay import Collector, replay
from engine.rules import Rules

#: A game's kinds of result: from its log (``deadline``: a log cut at the deadline, decided
#: as it stands), or recorded by the organiser.
KINDS = ("log", "deadline", "walkover", "forfeit", "abandoned")
#: The kinds of result read from a log.
FROM_LOGS = ("log", "deadline")
#: A server's table id, as a log's ``meta.table`` may hold it.
LOG_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: The largest log a championship takes, in bytes.
MAX_LOG_BYTES = 16 << 20


@dataclass(frozen=True)
class GameResult:
    """One game (one table) of a pairing: ``kind`` (:data:`KINDS`), the team that won it
    (``None``: an abandoned table), for a log its file in the archive, its final ``score`` and
    ``games`` (by the pairing's teams, in the pairing's order) and its SHA-256; for a forfeit,
    the team that gave up is the other one."""

    table: str
    kind: str
    winner: str | None
    log: str | None = None
    score: tuple[int, ...] | None = None
    games: tuple[int, ...] | None = None
    #: The table's id in its log's ``meta.table`` where it is not :attr:`table` (a server's).
    log_table: str | None = None
    #: Played at the late variant (``None``: the championship has no ``late_start``).
    late: bool | None = None
    #: When the table was made, by the championship's clock (with a ``late_start``; ``None``:
    #: not known, as in an archive from before it was recorded).
    made: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "result": self.kind, "winner": self.winner}
        if self.log is not None:
            out["log"] = self.log
            if self.log_table is not None:
                out["log_table"] = self.log_table
            out["score"] = None if self.score is None else list(self.score)
            out["games"] = None if self.games is None else list(self.games)
            if self.late is not None:
                out["late"] = self.late
            if self.made is not None:
                out["made"] = self.made
        return out


def log_file(table: str) -> str:
    """Where a table's log lies in the archive."""
    return f"logs/{table}.jsonl"


def header_of(data: bytes) -> dict[str, Any]:
    """The first line of a log as an object, or ``{}``."""
    first = data.split(b"\n", 1)[0]
    try:
        header = json.loads(first.decode("utf-8"))
    except ValueError:
        return {}
    return header if isinstance(header, dict) else {}


def read_log(data: bytes, table: str, rules: Rules, teams: tuple[str, str],
             name: str | None = None, log_table: str | None = None,
             what: str = "the championship's variant", cut: bool = False) -> GameResult:
    """The result of ``table``'s log ``data`` (``teams``: the pairing's teams, first one
    first; the game number is the table id's last part; ``log_table``: the id its header's
    ``meta.table`` holds, when not ``table``; ``what``: the rules, as an error names them).
    Raises :class:`ChampionshipError` naming the
    file (``name``, by default its place in the archive) and line for a log that does not
    verify, is not over, or is not this championship's table. ``cut``: the log was cut at the
    deadline and may end before the match does: the team ahead wins it (more games won,
    then more points, the hand in play counting for nobody); level, nobody (a ``deadline``
    result)."""
    file = name or log_file(table)
    if log_table is not None and not LOG_TABLE.match(log_table):
        raise ChampionshipError(f"{file}: log_table: expected 1 to 64 letters, digits, - or _, "
                                f"found {log_table[:70]!r}")
    if len(data) > MAX_LOG_BYTES:
        raise ChampionshipError(f"{file}: larger than {MAX_LOG_BYTES >> 20} MiB")
    header = header_of(data)
    sha = header.get("variant_sha256")
    if sha != rules.fingerprint:
        raise ChampionshipError(f"{file}:1: variant_sha256 {sha!r} is not {what} "
                                f"({rules.fingerprint})")
    meta = header.get("meta")
    found = meta.get("table") if isinstance(meta, dict) else None
    if found != (log_table or table):
        raise ChampionshipError(f"{file}:1: meta.table {str(found)[:70]!r}: the log is not "
                                f"table {log_table or table}'s")
    visitor = Collector()
    replayer = replay(data, file, visitor, rules=rules)
    if visitor.problems:
        raise ChampionshipError(_problems(visitor.problems, visitor.more))
    m = replayer.match
    if m is None or (replayer.incomplete is not None and not cut):
        why = replayer.incomplete or f"{file}: no match in the log"
        raise ChampionshipError(f"{why} (a table that stopped is recorded as abandoned)")
    ahead = m.winner
    if cut and ahead is None and (m.games, m.score) != (m.games[::-1], m.score[::-1]):
        ahead = 0 if (m.games[0], m.score[0]) > (m.games[1], m.score[1]) else 1
    if (ahead is None and not cut) or m.rules.teams != 2:
        raise ChampionshipError(f"{file}: the match has no winning team")
    swap = game_number(table) % 2 == 0
    def ours(values: list[int]) -> tuple[int, ...]:
        return (values[1], values[0]) if swap else (values[0], values[1])
    return GameResult(table, "deadline" if cut else "log",
                      None if ahead is None else teams[ahead ^ int(swap)], log_file(table),
                      ours(m.score), ours(m.games), None if log_table == table else log_table)


def _problems(problems: list[LogProblem], more: int) -> str:
    lines = [str(p) for p in problems[:5]]
    left = len(problems) - 5 + more
    if left > 0:
        lines.append(f"({left} more problems)")
    return "\n".join(lines)


def game_number(table: str) -> int:
    """The game number of a table id (``r01-m002-g3``: 3)."""
    return int(table.rsplit("-g", 1)[1])
