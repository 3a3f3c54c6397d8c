"""Championships: teams, rounds paired by the rules (Swiss, knockout, round robin), results
taken only from verified logs, and an archive anyone can check at home (docs/championship.md).

The package, one concern a module:

* :mod:`~engine.championship.model`: the definition and the teams, names checked
  (:class:`Definition`, :class:`Team`, :class:`ChampionshipError`);
* :mod:`~engine.championship.pairing`: the seeding, Swiss rounds, the bracket, the round
  robin's circle;
* :mod:`~engine.championship.results`: a table's result from its log (:func:`read_log`);
* :mod:`~engine.championship.standings`: a pairing's outcome, the standings and tie-breaks;
* :mod:`~engine.championship.core`: :class:`Championship`, the whole as it goes;
* :mod:`~engine.championship.archive`: the archive written and verified;
* :mod:`~engine.championship.offline`: a championship of bot teams played in this process.

The API a server calls, in order::

    c = Championship.create(variant, fmt="swiss", rounds=5, best_of=1, seeding="draw",
                            seed=7, title="Copa")       # variant: shipped name or house file
    # a time rule: late_start={"after_minutes": 90, "start_score": 11}, now=clock
    c.register({"name": "Os Zaps", "players": ["Ana", "Bia"], "bot": None})
    c.close()                                           # seeds the teams
    c.pair_next_round()                                 # once the current round is decided
    c.tables()                                          # the tables to play now (TableSpec)
    c.record_log(table, log_bytes)                      # a finished table's log, verified
    c.record_outcome(table, "walkover", team)           # or "forfeit" / "abandoned"
    c.standings(); c.round_data(n); c.is_over
    write_archive(c, folder, replace=True)              # after each table: nothing lost
    c = load_archive(folder)                            # after a restart, as it stood
    verify_archive(folder)                              # every problem, each naming its file
    write_zip(c, "copa.zip")                            # the same files as one zip

A table's log must carry the championship's ``variant_sha256`` and ``meta.table`` in its
header: the table's id, or the server's own id for it given as ``record_log(...,
log_table=ID)``; the log's team 0 is ``TableSpec.teams[0]``, its seats ``TableSpec.seats``.
"""

from __future__ import annotations

from engine.championship.archive import (
    archive_files,
    check_archive,
    load_archive,
    verify_archive,
    write_archive,
    write_zip,
)
from engine.championship.core import Championship, TableSpec
from engine.championship.model import (
    ChampionshipError,
    Deadline,
    Definition,
    LateStart,
    Team,
    clean_name,
)
from engine.championship.results import GameResult, read_log
from engine.championship.standings import Pairing

__all__ = [
    "Championship", "ChampionshipError", "Deadline", "Definition", "GameResult", "LateStart",
    "Pairing", "TableSpec",
    "Team", "archive_files", "check_archive", "clean_name", "load_archive", "read_log",
    "verify_archive", "write_archive", "write_zip",
]
