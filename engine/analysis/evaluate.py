"""The value of every legal move of one decision, as ``truco analyze`` estimates it.

For a seat's decision, from its :class:`~engine.observation.Observation` only:

1. ``playouts`` guesses of the hidden cards consistent with the observation
   (:class:`engine.bots.determinize.Determinizer`, the ``search`` bot's, but a raise waiting
   for the seat's answer not read as strength: the sound player answers by every hand);
2. for every guess, every legal move tried on a copy of the guessed match and the hand played
   out (:func:`engine.bots.playout.try_move`, ``cards=False``: every move by the sound player,
   :class:`engine.bots.sound.SoundBot`, a fresh one per seat seeded from the guess);
3. each outcome valued from the seat's team's view: the chance to win the match from the score
   at the end of the hand (:class:`engine.bots.winchance.WinChance`; 1 or 0 if the match is
   over) and the hand's points (the team's points from the decision to the end of the hand,
   less the other teams').

Common random numbers: every move is played out from the same guesses with the same policy
seeds, so the difference between two moves is measured on the same deals (precise), and moves
that lead to the same play give exactly the same values (a loss of exactly 0).

*Hindsight* (:func:`hindsight_values`) knows every card: each move's perfect-information value,
the rest of the hand searched exactly (:class:`engine.bots.exact.Solver`), or where that search
is too large, playouts from the true position.

Deterministic: the draws come from ``seed`` alone (:func:`engine.bots.base.derive_seed`).

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> obs = m.observation(1)
>>> table = fair_values(m.rules, obs, obs["legal"], seed=1, playouts=4)
>>> len(table.rows), len(table.rows[0]), table.rows == fair_values(
...     m.rules, obs, obs["legal"], seed=1, playouts=4).rows
(4, 4, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.bots.base import derive_seed
from engine.bots.determinize import Determinizer
from engine.bots.exact import Solver, TooBig
from engine.bots.heuristic import HeuristicBot
from engine.bots.playout import try_move
from engine.bots.sound import SoundBot
from engine.bots.winchance import win_chance
from engine.game import Checkpoint, Match
from engine.observation import Observation
from engine.position import build
from engine.rules import Rules
from engine.shuffle import SplitMix64

#: The default number of playouts per move (guesses of the hidden cards; each plays every
#: legal move once): a whole Paulista match in well under a minute on two cores
#: (docs/analysis.md, "Precision and time").
DEFAULT_PLAYOUTS = 200
#: How many times ``playouts`` a decision whose grade is not settled may take (docs/analysis.md,
#: "Adaptive playouts").
ADAPTIVE_ROUNDS = 1.25
#: The most moves hindsight's exact search tries for one decision (up to about a second); a
#: larger search (a first round of four seats with raises out of turn) is played out instead.
EXACT_LIMIT = 10_000

#: One playout's outcome for one move: (chance to win the match, the hand's points).
Outcome = tuple[float, float]


@dataclass(frozen=True)
class Table:
    """The outcomes of one decision's moves: ``rows[i][j]`` is guess (or playout) ``i``'s
    outcome of move ``j``; a guess under which some move could not be tried is left out
    (``dropped`` counts them)."""

    rows: tuple[tuple[Outcome, ...], ...]
    dropped: int = 0
    #: The one row is the moves' exact values (hindsight's search), not a sample.
    exact: bool = False


def fair_values(rules: Rules, obs: Observation, moves: Sequence[Action], *, seed: int,
                playouts: int, settled: Callable[[Table], bool] | None = None,
                rounds: float = ADAPTIVE_ROUNDS) -> Table:
    """The outcomes of ``moves`` (as the seat was offered them: ``obs["legal"]``, or a seat's
    raises and a pass, M3) over ``playouts`` guesses of the cards the seat cannot see: what
    the seat could know, nothing more (the function is given nothing more). Given
    ``settled``, a quarter as many guesses more are drawn (the same stream goes on) while it
    says the table so far is not, up to ``rounds`` times ``playouts`` in all."""
    judges = [HeuristicBot(rules, derive_seed(seed, 1 + s)) for s in range(rules.players)]
    guesser = Determinizer(rules, SplitMix64(derive_seed(seed, 0)), judges, read=False)
    table = _table(rules, obs, moves, seed, range(playouts),
                   lambda: guesser.guessed_match(obs))
    done, step = playouts, max(playouts // 4, 1)
    while settled is not None and done < rounds * playouts and not settled(table):
        more = _table(rules, obs, moves, seed, range(done, done + step),
                      lambda: guesser.guessed_match(obs))
        table = Table(table.rows + more.rows, table.dropped + more.dropped)
        done += step
    return table


def hindsight_values(rules: Rules, position: Mapping[str, Any], seat: int,
                     moves: Sequence[Action], *, seed: int, playouts: int,
                     limit: int = EXACT_LIMIT) -> Table:
    """The outcomes of ``moves`` with every card known, from the true ``position``
    (docs/positions.md; its later deals unknown): the perfect-information value of each move
    (:class:`engine.bots.exact.Solver`: the rest of the hand searched exactly, its end valued
    by the win table), one row of exact outcomes (``exact``). Where the search would visit
    more than ``limit`` positions (a first round with raises out of turn), ``playouts``
    playouts from the true position instead, with the policy seeds of :func:`fair_values`."""
    truth = build(rules, dict(position, rng=None), trusted=True)
    try:
        found = Solver(rules, limit=limit).values(truth, moves, seat)
    except TooBig:
        return _table(rules, truth.observation(seat), moves, seed, range(playouts),
                      truth.clone)
    if any(v is None for v in found):
        return Table((), 1, exact=True)
    team = rules.team_of[seat]
    row = tuple((win, float(2 * gains[team] - sum(gains)))
                for win, gains in (v for v in found if v is not None))
    return Table((row,), exact=True)


def _table(rules: Rules, obs: Observation, moves: Sequence[Action], seed: int,
           playouts: range, guess: Callable[[], Match | None]) -> Table:
    value = win_chance(rules)
    team = obs["team"]
    start = obs["score"]
    rows: list[tuple[Outcome, ...]] = []
    dropped = 0
    for i in playouts:
        m = guess()
        if m is None:
            dropped += 1
            continue
        base = derive_seed(seed, 1000 + i)
        row: list[Outcome] = []
        for move in moves:
            trial = m.clone()
            policy = [SoundBot(rules, derive_seed(base, s)) for s in range(rules.players)]
            events = try_move(trial, move, policy, cards=False)
            if events is None:
                break
            win = (value.match(trial.score, trial.games)[team] if trial.winner is None
                   else float(trial.winner == team))
            row.append((win, _points(events, start, team)))
        if len(row) == len(moves):
            rows.append(tuple(row))
        else:
            dropped += 1
    return Table(tuple(rows), dropped)


def _points(events: Sequence[Checkpoint], start: Sequence[int], team: int) -> float:
    """The team's points from ``start`` to the end of the hand, less the other teams': the
    last score the checkpoints tell (a game's end tells it before the next game's 0-0)."""
    end = list(start)
    for event in events:
        score = event.get("score")
        if isinstance(score, list):
            end = score
    gained = [e - s for e, s in zip(end, start, strict=True)]
    return float(gained[team] - (sum(gained) - gained[team]))
