"""A championship as it goes: registration, the rounds paired one after the other, each table's
result recorded from its log, the standings. What ``truco championship run`` drives with bots
and a server drives with people; :mod:`engine.championship.archive` writes it out and checks it.

The order of calls (each refuses, with :class:`ChampionshipError`, what comes out of turn)::

    c = Championship.create("paulista", fmt="swiss", rounds=5, seed=7)
    c.register(Team("Os Zaps", ("Ana", "Bia")))       # ... every team; twice is refused
    c.close()                                          # the seeding: drawn or as registered
    while not c.is_over:
        c.pair_next_round()
        for spec in c.tables():                        # the tables to play now
            ...                                        # play spec.table, seated by spec.seats
            c.record_log(spec.table, log_bytes)        # or record_walkover/forfeit/abandoned
    c.standings()
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.bots import bot_problem
from engine.championship.model import (
    MAX_TEAMS,
    MAX_TITLE,
    ChampionshipError,
    Deadline,
    Definition,
    LateStart,
    Team,
    clean_name,
)
from engine.championship.pairing import (
    bracket,
    knockout_rounds,
    round_robin,
    seed_order,
    swiss_round,
)
from engine.championship.results import GameResult, read_log
from engine.championship.standings import Pairing, standings
from engine.errors import Why
from engine.fileio import atomic_write_text
from engine.game import resolve_rules
from engine.rules import Rules
from engine.variant import is_shipped_name, load, resolved_document
from engine.variant.extends import trusted_folders

#: The most tables a pairing is played at (a knockout's abandoned tables are played again);
#: past them, only a walkover or a forfeit decides it.
MAX_GAMES = 99
#: The name a house variant takes in the archive (logs name it ``../variant.yaml``).
VARIANT_FILE = "variant.yaml"
#: The late games' variant in the archive (a championship with a ``late_start`` time rule):
#: the championship's rules, ``match.start_score`` the rule's (logs name it
#: ``../variant-late.yaml``).
LATE_FILE = "variant-late.yaml"
#: A clock: seconds, as :func:`time.time` gives them (tests give a fake one).
Clock = Callable[[], float]


@dataclass(frozen=True)
class TableSpec:
    """A table to play now: its id (``r01-m002-g1``: round, pairing, game), its round and
    pairing, and each seat of the log's match: (team, player name or ``None``, bot or
    ``None``). The log's team 0 is ``teams[0]``."""

    table: str
    round: int
    pairing: int
    game: int
    teams: tuple[str, str]
    seats: tuple[tuple[str, str | None, str | None], ...]
    #: Played at the late variant (:data:`LATE_FILE`): the table was made once the
    #: definition's ``late_start`` time had come.
    late: bool = False


class Championship:
    """A championship: its :class:`Definition`, its rules and its rounds. Build one with
    :meth:`create` (a new one) or :meth:`from_definition` (read back)."""

    def __init__(self, definition: Definition, rules: Rules, variant_yaml: str | None,
                 now: Clock | None = None) -> None:
        definition.check()
        if definition.teams or definition.closed:
            raise ChampionshipError("a new championship has no teams yet: use from_definition")
        if rules.teams != 2:
            raise ChampionshipError(f"a championship pits two teams at a table; "
                                    f"{rules.name} has {rules.teams}")
        self.definition = definition
        self.rules = rules
        #: The house variant's text (embedded in the archive), or ``None`` for a shipped one.
        self.variant_yaml = variant_yaml
        self.teams: dict[str, Team] = {}  # by key, in registration order
        self.order: list[str] = []  # the seeding order, once closed
        self.rounds: list[list[Pairing]] = []
        #: Each recorded table's log, by table id (the archive holds them).
        self.logs: dict[str, bytes] = {}
        #: The clock the time rule reads (``late_start``).
        self.now: Clock = now or time.time
        #: When the first round was paired (by :attr:`now`; ``None``: not yet).
        self.started: float | None = None
        #: Whether each table made so far plays at the late variant, and when it was made
        #: (by :attr:`now`, as that was decided), by table id.
        self.late: dict[str, bool] = {}
        self.made: dict[str, float] = {}
        #: The late variant's text and rules (``None``: no time rule).
        self.late_yaml: str | None = None
        self.late_rules: Rules | None = None
        if definition.late_start is not None:
            self.late_yaml, self.late_rules = late_variant(rules, definition.late_start)

    # -- making one ------------------------------------------------------------------------
    @classmethod
    def create(cls, variant: str | os.PathLike[str], *, fmt: str, rounds: int = 0,
               best_of: int = 1, seeding: str = "draw", seed: int = 0,
               title: str = "Championship", late_start: Any = None, deadline: Any = None,
               now: Clock | None = None) -> Championship:
        """A new championship of ``variant`` (a shipped name, or a house file: its resolved
        rules are embedded). Raises :class:`ChampionshipError` (a bad format...) or
        :class:`~engine.errors.VariantError`. ``late_start``: the time rule's plain data
        (``{"after_minutes": N, "start_score": S}``), read by the clock ``now``;
        ``deadline``: ``{"after_minutes": N}`` (a server cuts a game's log then)."""
        late = LateStart.from_dict(late_start)
        cut = Deadline.from_dict(deadline)
        ref = os.fspath(variant)
        if is_shipped_name(ref):
            rules, text, name = load(ref), None, ref
        else:
            rules, name = load(ref), VARIANT_FILE
            text = embedded_variant(rules)
        definition = Definition(title=clean_name(title, "title", MAX_TITLE), variant=name,
                                fmt=fmt, rounds=rounds, best_of=best_of, seeding=seeding,
                                seed=seed, variant_sha256=rules.fingerprint,
                                late_start=late, deadline=cut)
        return cls(definition, rules, text, now)

    @classmethod
    def from_definition(cls, definition: Definition, variant_yaml: str | None = None,
                        now: Clock | None = None) -> Championship:
        """A championship read back: its teams registered again, its rules from the shipped
        name or the embedded ``variant_yaml``; their fingerprint must be the definition's."""
        if definition.variant == VARIANT_FILE:
            if variant_yaml is None:
                raise ChampionshipError(f"{VARIANT_FILE}: missing (the definition names it)")
            rules = rules_from_text(variant_yaml)
        elif is_shipped_name(definition.variant):
            rules = resolve_rules(definition.variant)
        else:
            raise ChampionshipError(f"variant: {definition.variant!r} is neither a shipped "
                                    f"variant nor {VARIANT_FILE}")
        if rules.fingerprint != definition.variant_sha256:
            raise ChampionshipError(f"variant_sha256: the variant's rules are "
                                    f"{rules.fingerprint}, the definition says "
                                    f"{definition.variant_sha256}")
        made = cls(replace(definition, teams=(), closed=False), rules, variant_yaml, now)
        for team in definition.teams:
            made.register(team)
        if definition.closed:
            made.close()
        return made

    def current_definition(self) -> Definition:
        """The definition with the teams registered so far, and whether it is closed (what
        ``championship.json`` holds)."""
        return replace(self.definition, teams=tuple(self.teams.values()),
                       closed=bool(self.order))

    # -- registration ----------------------------------------------------------------------
    @property
    def seats_per_team(self) -> int:
        return self.rules.players // 2

    def register(self, team: Team | dict[str, Any]) -> Team:
        """Register ``team`` (a :class:`Team` or its plain data, ``{"name", "players",
        "bot"}``; names cleaned by :func:`~engine.championship.model.clean_name`). Refused: after
        :meth:`close`, a name already registered (case aside), more players than a team's
        seats, a team with an empty seat and no bot, an unknown bot."""
        team = Team.from_dict(team.to_dict() if isinstance(team, Team) else team)
        if self.order:
            raise ChampionshipError("registration is closed")
        if team.key in self.teams:
            raise ChampionshipError(Why("registered", f"team {team.name!r} is registered "
                                                  "already"))
        if len(self.teams) >= MAX_TEAMS:
            raise ChampionshipError(f"at most {MAX_TEAMS} teams")
        if len(team.players) > self.seats_per_team:
            raise ChampionshipError(f"team {team.name!r}: {len(team.players)} players, a team "
                                    f"holds {self.seats_per_team} seats")
        if team.bot is None and len(team.players) < self.seats_per_team:
            raise ChampionshipError(f"team {team.name!r}: {self.seats_per_team} players, or a "
                                    "bot for the empty seats")
        if team.bot is not None and (why := bot_problem(team.bot)) is not None:
            raise ChampionshipError(f"team {team.name!r}: bot: {why}")
        self.teams[team.key] = team
        return team

    def close(self) -> list[str]:
        """Close the registration and seed the teams; returns the seeding order."""
        if self.order:
            raise ChampionshipError("registration is closed already")
        if len(self.teams) < 2:
            raise ChampionshipError("a championship needs two teams or more")
        d = self.definition
        self.definition = replace(d, teams=tuple(self.teams.values()), closed=True)
        self.order = seed_order([t.name for t in self.teams.values()], d.seeding, d.seed)
        if d.fmt == "swiss" and d.rounds >= len(self.order):
            self.order = []
            raise ChampionshipError(f"a Swiss of {len(self.teams)} teams has at most "
                                    f"{len(self.teams) - 1} rounds, not {d.rounds}")
        return list(self.order)

    # -- rounds ----------------------------------------------------------------------------
    @property
    def knockout(self) -> bool:
        return self.definition.fmt == "knockout"

    @property
    def total_rounds(self) -> int:
        """How many rounds the championship has (known once closed)."""
        n, fmt = len(self.order), self.definition.fmt
        if fmt == "swiss":
            return self.definition.rounds
        return knockout_rounds(n) if fmt == "knockout" else n - 1 + n % 2

    def round_done(self) -> bool:
        """Whether every pairing of the current round is decided (true before the first)."""
        return all(self._outcome(p)[0] for p in (self.rounds[-1] if self.rounds else []))

    @property
    def is_over(self) -> bool:
        return bool(self.order) and len(self.rounds) == self.total_rounds and self.round_done()

    def pair_next_round(self) -> list[Pairing]:
        """Pair the next round (every result of the current one in). Raises
        :class:`ChampionshipError` out of turn."""
        if not self.order:
            raise ChampionshipError("close the registration first")
        if len(self.rounds) >= self.total_rounds:
            raise ChampionshipError(f"all {self.total_rounds} rounds are paired")
        if not self.round_done():
            left = [p.number for p in self.rounds[-1] if not self._outcome(p)[0]]
            raise ChampionshipError(f"round {len(self.rounds)} is not over: pairing "
                                    f"{', '.join(map(str, left))} still playing")
        teams = self._next_teams()
        if not self.rounds and self.definition.late_start is not None:
            self.started = self.now()
        pairings = [Pairing(i, t) for i, t in enumerate(teams, 1)]
        self.rounds.append(pairings)
        return pairings

    def _next_teams(self) -> list[tuple[str, ...]]:
        fmt, order = self.definition.fmt, self.order
        if fmt == "round-robin":
            schedule = round_robin(len(order))[len(self.rounds)]
            playing = {i for p in schedule for i in p}
            rest: list[tuple[str, ...]] = [(order[i],) for i in range(len(order))
                                           if i not in playing]
            return [(order[a], order[b]) for a, b in schedule] + rest
        if fmt == "knockout":
            if not self.rounds:
                return [(order[a],) if b is None else (order[a], order[b])
                        for a, b in bracket(len(order))]
            winners = [w for p in self.rounds[-1] if (w := self._outcome(p)[1]) is not None]
            return [tuple(winners[i:i + 2]) for i in range(0, len(winners), 2)]
        ranked = [row["team"] for row in self.standings()]
        met = {frozenset(p.teams) for r in self.rounds for p in r if not p.bye}
        byes = {p.teams[0] for r in self.rounds for p in r if p.bye}
        pairs, bye = swiss_round(ranked, met, byes)
        return [*pairs, *([] if bye is None else [(bye,)])]  # the bye last

    def _outcome(self, p: Pairing) -> tuple[bool, str | None]:
        return p.outcome(self.definition.best_of, self.knockout)

    # -- tables ----------------------------------------------------------------------------
    def tables(self) -> list[TableSpec]:
        """The tables to play now: the next game of each undecided pairing of the current
        round."""
        if not self.rounds:
            return []
        number = len(self.rounds)
        out = []
        for p in self.rounds[-1]:
            if self._outcome(p)[0]:
                continue
            game = len(p.games) + 1
            table = f"r{number:02d}-m{p.number:03d}-g{game}"
            first, second = p.teams if game % 2 else p.teams[::-1]
            out.append(TableSpec(table, number, p.number, game, (first, second),
                                 self._seats(first, second), self._is_late(table)))
        return out

    def _is_late(self, table: str) -> bool:
        """Whether ``table`` plays at the late variant: decided when it is first made (the
        clock past ``late_start.after_minutes`` since the first round), kept after."""
        rule = self.definition.late_start
        if rule is None:
            return False
        if table not in self.late:
            now = self.made[table] = self.now()
            started = now if self.started is None else self.started
            self.late[table] = now - started >= rule.after_minutes * 60
        return self.late[table]

    def given_late(self, table: str, late: bool, made: float | None = None) -> None:
        """Set whether ``table`` plays at the late variant, and when it was made (``None``:
        not known), as a record says (an archive read back, a server's table made before a
        restart), whatever the clock says now."""
        if self.definition.late_start is None and late:
            raise ChampionshipError(f"table {table}: late, but the championship has no "
                                    "late_start")
        self.late[table] = late
        if made is None:
            self.made.pop(table, None)
        else:
            self.made[table] = made

    def rules_for(self, spec: TableSpec) -> Rules:
        """The rules ``spec``'s table is played under: the late variant's or the
        championship's."""
        return self.late_rules if spec.late and self.late_rules is not None else self.rules

    def _seats(self, first: str, second: str) -> tuple[tuple[str, str | None, str | None],
                                                          ...]:
        given: dict[int, int] = {0: 0, 1: 0}
        seats = []
        for seat in range(self.rules.players):
            side = self.rules.team_of[seat]
            team = self.team(first if side == 0 else second)
            k = given[side]
            given[side] += 1
            player = team.players[k] if k < len(team.players) else None
            seats.append((team.name, player, None if player is not None else team.bot))
        return tuple(seats)

    def team(self, name: str) -> Team:
        """The registered team of that name (case aside). Raises :class:`ChampionshipError`."""
        try:
            return self.teams[name.casefold()]
        except KeyError:
            raise ChampionshipError(f"no team {name!r}") from None

    def _table(self, table: str, played: bool = True) -> TableSpec:
        """The table being played now of that id; ``played``: one that is played (not a
        walkover or a forfeit), refused past :data:`MAX_GAMES` tables."""
        for spec in self.tables():
            if spec.table == table:
                if played and spec.game > MAX_GAMES:
                    raise ChampionshipError(f"pairing {spec.pairing} has had {MAX_GAMES} "
                                            "tables: record a walkover or a forfeit")
                return spec
        raise ChampionshipError(f"table {table!r} is not being played now")

    def record_log(self, table: str, data: bytes, *, name: str | None = None,
                   log_table: str | None = None, cut: bool = False) -> GameResult:
        """Record ``table``'s result from its log (bytes), which must verify
        (:func:`engine.championship.results.read_log`); returns the result. The log's
        ``meta.table`` must be ``table``, or ``log_table`` (the id a server gave the table,
        kept in the round's file). ``cut``: the log was cut at the definition's
        ``deadline`` (a ``deadline`` result: the team ahead wins; level, nobody, refused in
        a knockout, whose game plays on until a team is ahead)."""
        spec = self._table(table)
        p = self.rounds[-1][spec.pairing - 1]
        if cut and self.definition.deadline is None:
            raise ChampionshipError(f"table {table}: cut at a deadline, but the championship "
                                    "has no deadline")
        late = spec.late if self.late_rules is not None else None
        what = "the late variant" if late else "the championship's variant"
        result = read_log(data, table, self.rules_for(spec), (p.teams[0], p.teams[1]), name,
                          log_table, what, cut)
        if cut and result.winner is None and self.knockout:
            raise ChampionshipError(Why("level_at_deadline", f"{name or result.log}: level "
                                        "at the deadline: a knockout's game plays on until a "
                                        "team is ahead"))
        result = replace(result, late=late, made=None if late is None else self.made.get(table))
        p.games.append(result)
        self.logs[table] = bytes(data)
        return result

    def record_outcome(self, table: str, kind: str, team: str | None = None) -> GameResult:
        """Record ``table`` without a log: ``walkover`` (``team``: the one that showed up,
        which wins the pairing), ``forfeit`` (``team``: the one that gave up the pairing) or
        ``abandoned`` (no team: the game counts for nobody)."""
        spec = self._table(table, played=kind == "abandoned")
        p = self.rounds[-1][spec.pairing - 1]
        if kind == "abandoned":
            if team is not None:
                raise ChampionshipError("an abandoned table has no team")
            winner = None
        elif kind in ("walkover", "forfeit"):
            if team is None or self.team(team).name not in p.teams:
                raise ChampionshipError(f"{kind}: name one of {', '.join(p.teams)}")
            named = self.team(team).name
            winner = named if kind == "walkover" else p.teams[1 - p.teams.index(named)]
        else:
            raise ChampionshipError(f"result: expected walkover, forfeit or abandoned, found "
                                    f"{kind!r}")
        result = GameResult(table, kind, winner)
        p.games.append(result)
        return result

    # -- what is known ---------------------------------------------------------------------
    def standings(self) -> list[dict[str, Any]]:
        """The standings now (:func:`engine.championship.standings.standings`)."""
        return standings(self.order, self.rounds, self.definition.best_of, self.knockout)

    def round_data(self, number: int) -> dict[str, Any]:
        """Round ``number`` (1-based) as plain data: its pairings and their games."""
        start = {} if number > 1 or self.started is None else {"started": self.started}
        return {"round": number, **start, "pairings": [
            p.to_dict(self.definition.best_of, self.knockout) for p in self.rounds[number - 1]]}


def embedded_variant(rules: Rules) -> str:
    """A house variant as the archive holds it: its resolved rules, a YAML file that extends
    nothing (its fingerprint is the rules')."""
    import yaml  # noqa: PLC0415 - only a house variant needs it

    text: str = yaml.safe_dump(resolved_document(rules.data), sort_keys=True,
                               allow_unicode=True, width=100)
    return text


def late_variant(rules: Rules, late: LateStart) -> tuple[str, Rules]:
    """The late games' variant: ``rules`` with ``match.start_score`` the time rule's, as the
    archive holds it (:data:`LATE_FILE`, extending nothing), and its rules. Raises
    :class:`ChampionshipError` for a score not below the target."""
    import yaml  # noqa: PLC0415

    target = rules.game.target
    if late.start_score >= target:
        raise ChampionshipError(f"late_start.start_score: expected a score below the game's "
                                f"target ({target}), found {late.start_score}")
    data = resolved_document(rules.data)
    data["name"] = f"{rules.name}-late"
    # a new "match" mapping: the resolved document shares its nested mappings with the
    # rules' own data (cached for the process), which must not change
    data["match"] = {**data.get("match", {}), "start_score": late.start_score}
    text: str = yaml.safe_dump(data, sort_keys=True, allow_unicode=True, width=100)
    return text, rules_from_text(text)


def rules_from_text(text: str) -> Rules:
    """The rules of an embedded variant's text (read as the file ``variant.yaml``; in a
    trusted folder where only those are read, as a server reads house variants)."""
    import tempfile  # noqa: PLC0415

    trusted = trusted_folders()
    with tempfile.TemporaryDirectory(dir=trusted[0] if trusted else None) as folder:
        path = os.path.join(folder, VARIANT_FILE)
        atomic_write_text(path, text)
        return load(path, fresh=True)
