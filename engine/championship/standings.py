"""A pairing's outcome from its games, and the standings from every pairing.

A pairing is played over ``best_of`` games (one table, one log each). It is decided when a team
has won more than half of them; in a Swiss or a round robin also when all of its games are
recorded (then the team with more games won wins it, or it is level). A walkover or a forfeit
decides it at once. An abandoned table counts for nobody: in a knockout it is played again (the
pairing's next table), in a Swiss or a round robin it is one of the ``best_of`` games. A
game decided at its deadline (``deadline``: its cut log) is won as a log's is, or level.

Points (Swiss, round robin): a pairing won 1, level ½ (0 when every game was abandoned), lost
0; a bye 1. The ranking, best first:

1. points;
2. Buchholz: the sum of the points of the teams met (a bye adds nothing);
3. games won (over all the pairings; a walkover wins no game);
4. the seed (the seeding order: the draw's, or the registration's).

Knockout: teams still in (the champion) first, then by the round they went out in (later is
better), then by the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.championship.results import FROM_LOGS, GameResult


@dataclass
class Pairing:
    """One pairing of a round: ``number`` (1-based, its place in the round), ``teams`` (two,
    the better-ranked or seeded first; one for a bye) and its games so far."""

    number: int
    teams: tuple[str, ...]
    games: list[GameResult] = field(default_factory=list)

    @property
    def bye(self) -> bool:
        return len(self.teams) == 1

    def wins(self) -> tuple[int, int]:
        """Games won by each team."""
        won = [0, 0]
        for g in self.games:
            if g.winner is not None and g.kind in FROM_LOGS:
                won[self.teams.index(g.winner)] += 1
        return won[0], won[1]

    def outcome(self, best_of: int, knockout: bool) -> tuple[bool, str | None]:
        """Whether the pairing is decided, and its winner (``None``: level, or undecided)."""
        if self.bye:
            return True, self.teams[0]
        for g in self.games:
            if g.kind in ("walkover", "forfeit"):
                return True, g.winner
        won = self.wins()
        need = best_of // 2 + 1
        if max(won) >= need:
            return True, self.teams[0 if won[0] >= need else 1]
        if knockout or len(self.games) < best_of:
            return False, None
        if won[0] == won[1]:
            return True, None
        return True, self.teams[0 if won[0] > won[1] else 1]

    def to_dict(self, best_of: int, knockout: bool) -> dict[str, Any]:
        decided, winner = self.outcome(best_of, knockout)
        out: dict[str, Any] = {"pairing": self.number, "teams": list(self.teams)}
        if self.bye:
            out["bye"] = True
        else:
            out["games"] = [g.to_dict() for g in self.games]
        out["decided"] = decided
        out["winner"] = winner
        return out


@dataclass
class _Row:
    team: str
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    points: float = 0.0
    buchholz: float = 0.0
    games_won: int = 0
    out_in_round: int | None = None
    opponents: list[str] = field(default_factory=list)


def standings(order: Sequence[str], rounds: Sequence[Sequence[Pairing]], best_of: int,
              knockout: bool) -> list[dict[str, Any]]:
    """The standings after the decided pairings of ``rounds``, best first, each row as plain
    data (``rank``, ``team``, ``seed``, ``played``, ``won``, ``drawn``, ``lost``, ``byes``,
    ``points``, ``buchholz``, ``games_won``; a knockout's rows have ``out_in_round``)."""
    rows = {name: _Row(name, i + 1) for i, name in enumerate(order)}
    for number, pairings in enumerate(rounds, 1):
        for p in pairings:
            decided, winner = p.outcome(best_of, knockout)
            if not decided:
                continue
            _count(rows, p, winner, number)
    for each in rows.values():
        each.buchholz = sum(rows[o].points for o in each.opponents)
    if knockout:
        out = len(rounds) + 1
        ranked = sorted(rows.values(), key=lambda r: (
            -(out if r.out_in_round is None else r.out_in_round), r.seed))
    else:
        ranked = sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.games_won,
                                                      r.seed))
    table = []
    for rank, r in enumerate(ranked, 1):
        row: dict[str, Any] = {
            "rank": rank, "team": r.team, "seed": r.seed, "played": r.played, "won": r.won,
            "drawn": r.drawn, "lost": r.lost, "byes": r.byes, "points": r.points,
            "buchholz": r.buchholz, "games_won": r.games_won}
        if knockout:
            row["out_in_round"] = r.out_in_round
        table.append(row)
    return table


def _count(rows: dict[str, _Row], p: Pairing, winner: str | None, number: int) -> None:
    """Add a decided pairing of round ``number`` to its teams' rows."""
    if p.bye:
        row = rows[p.teams[0]]
        row.byes += 1
        row.points += 1
        return
    wins = p.wins()
    all_abandoned = all(g.kind == "abandoned" for g in p.games)
    for i, name in enumerate(p.teams):
        row = rows[name]
        row.played += 1
        row.games_won += wins[i]
        row.opponents.append(p.teams[1 - i])
        if winner is None:
            row.drawn += 1
            row.points += 0 if all_abandoned else 0.5
        elif winner == name:
            row.won += 1
            row.points += 1
        else:
            row.lost += 1
            row.out_in_round = number
