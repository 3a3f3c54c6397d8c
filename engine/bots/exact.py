"""The perfect-information value of a position's moves: every card known, the rest of the hand
searched exactly (what ``truco analyze --hindsight`` values moves by, :mod:`engine.analysis`).

The game searched is the rest of the hand with every card face up:

- every legal move is a branch: cards (face up or covered), raises, answers to raises (accept,
  fold, raise back), side bets' calls and answers (envido, flor: with every card known the
  engine settles them by the true points), special hands' decisions (M5), concessions;
- a raise out of turn (M3, ``raise_timing: any_time``) is offered before every card, as a
  driver offers it (:func:`engine.bots.base.out_of_turn_raise`): each seat after the one to
  play, in playing order, raises or passes (a seat of the team that raised last is not
  asked), then the seat to play moves;
- the seats that may make the awaited move are one player, their team: it picks the move of
  the best value for the team (partners answering a raise: either's moves);
- the hand's end (a deal awaited, the next hand's first move, or the match over) is valued by
  :class:`~engine.bots.winchance.WinChance`: the chance each team wins the match from the
  score the hand ends at (1 or 0 if the match is over); side bets settled are in that score.

Two teams make a zero-sum game: alpha-beta with a table of the positions met (keyed by every
attribute of the hand and the round but those fixed for the hand, so moves that lead to the
same position are searched once). More teams:
each team maximises its own chance (max-n), without pruning. A search that would try more
than ``limit`` moves gives up (:class:`TooBig`): a whole first round of four players with
raises out of turn can be that large.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> solver = Solver(m.rules)
>>> _ = [m.apply(a) for a in (Action.play(1, "2h"), Action.play(2, "3h"), Action.play(3, "Kh"),
...                           Action.play(0, "Js"))]
>>> values = solver.values(m, m.legal_actions(m.turn), m.turn)
>>> len(values) == len(m.legal_actions(m.turn)), all(0 <= v[0] <= 1 for v in values)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action
from engine.bots.base import movers
from engine.bots.playout import hand_over, real_move
from engine.bots.winchance import win_chance
from engine.errors import IllegalMoveError
from engine.game import Match
from engine.moves.names import CONCEDE_KIND, FOLD_KIND, PLAY_KIND
from engine.moves.raising import raises_any_time
from engine.position import build
from engine.rules import Rules
from engine.sidebets import BetState
from engine.slots import slot_names
from engine.state import PLAY, HandState, RoundState

#: The default limit on the moves one :meth:`Solver.values` tries.
DEFAULT_LIMIT = 200_000
_INF = float("inf")


#: What a position's key reads of the hand and the round: every attribute (as the engine's
#: copies do, :mod:`engine.slots`), but those fixed for the whole hand.
_HAND = tuple(n for n in slot_names(HandState) if n not in ("dealt", "strength", "rule"))
_ROUND = slot_names(RoundState)
_BET = tuple(n for n in slot_names(BetState) if n != "bet")


def _frozen(value: object) -> object:
    """A hashable copy of one of the hand's attributes (lists of cards, of plays, of side
    bets' records; the kinds' own state, a mapping of immutable values)."""
    if type(value) is dict:
        return tuple(sorted(value.items()))
    if type(value) is not list:
        return value
    if not value:
        return ()
    first = type(value[0])
    if first is list:
        return tuple(map(tuple, value))
    if first is BetState:
        return tuple(tuple(getattr(b, name) for name in _BET) for b in value)
    return tuple(value)


class TooBig(Exception):
    """The search would try more moves than its limit."""


class Solver:
    """Exact search of the rest of a hand with every card known (module docstring)."""

    def __init__(self, rules: Rules, *, limit: int = DEFAULT_LIMIT) -> None:
        self.rules = rules
        self.limit = limit
        self._value = win_chance(rules)
        self._teams = rules.teams
        self._team_of = rules.team_of
        self._players = rules.players
        self._visited = 0
        #: The score and games won where the search starts (what the hand's points are from).
        self._start: tuple[list[int], list[int]] = ([], [])
        #: position key -> (value, flag, points): flag 0 exact, 1 a lower bound, -1 an upper
        #: bound (two teams); the value is team 0's chance, points the hand's end score.
        self._table: dict[tuple[object, ...], tuple[float, int, tuple[int, ...]]] = {}
        self._many: dict[tuple[object, ...], tuple[tuple[float, ...], tuple[int, ...]]] = {}

    def values(self, m: Match, moves: Sequence[Action],
               seat: int) -> list[tuple[float, tuple[int, ...]] | None]:
        """For each of ``moves`` (as ``seat`` was offered them: a play by position, P6, a pass
        of a raise out of turn, M3), its exact value for ``seat``'s team and the score the
        hand ends at with best play from there (``None``: a move the match refuses); a match
        with a generator is searched as its position without one (its later deals unknown). Raises
        :class:`TooBig` past the limit."""
        self._visited = 0
        self._table.clear()
        self._many.clear()
        team = self._team_of[seat]
        if m.rng is not None:  # the next deals unknown: the hand ends waiting for one
            m = build(self.rules, dict(m.position(), rng=None), trusted=True)
        self._start = (list(m.score), list(m.games))
        out: list[tuple[float, tuple[int, ...]] | None] = []
        for move in moves:
            trial = m.clone()
            offer = self._players
            real = real_move(trial, move)
            if real is None:  # a pass: the seats after this one are still offered their raise
                offer = (seat - trial.turn) % self._players + 1
            else:
                try:
                    trial.apply(real)
                except IllegalMoveError:
                    out.append(None)
                    continue
                offer = 1
            win, end = self._solve(trial, offer)
            out.append((win[team], end))
        return out

    def _solve(self, m: Match, offer: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
        if self._teams == 2:
            v, end = self._ab(m, offer, -_INF, _INF)
            return (v, 1.0 - v), end
        return self._maxn(m, offer)

    # -- the moves of a node ----------------------------------------------------------------
    def _children(self, m: Match, offer: int) -> tuple[int, list[tuple[Action | None, int]]]:
        """The team to move and its moves, each with the offer index of the position after it
        (``None``: the pass of a raise out of turn)."""
        n = self._players
        if m.state == PLAY:
            turn = m.turn
            while offer < n and self._offers(m):
                seat = (turn + offer) % n
                raises = ([] if self._team_of[seat] == m.last_raise_team
                          else m.legal_actions(seat))
                if raises:
                    moves: list[tuple[Action | None, int]] = [(a, 1) for a in raises]
                    return self._team_of[seat], [*moves, (None, offer + 1)]
                offer += 1
            return self._team_of[turn], sorted(((a, 1) for a in m.legal_actions(turn)),
                                               key=self._order(m))
        seats = movers(m)
        team = self._team_of[seats[0]]
        mine = [a for a in m.legal_actions() if self._team_of[a.seat] == team]
        return team, sorted(((a, 1) for a in mine), key=self._order(m))

    @staticmethod
    def _order(m: Match) -> Callable[[tuple[Action | None, int]], tuple[int, ...]]:
        """The order moves are searched in (alpha-beta prunes more on a good first move): a
        fold or a concession (it ends the hand: a bound at once), the cards strongest first
        and face up first, then the rest as offered."""
        strength = m.hand.strength

        def rank(child: tuple[Action | None, int]) -> tuple[int, ...]:
            a = child[0]
            if a is None or a.kind not in (FOLD_KIND, CONCEDE_KIND, PLAY_KIND):
                return (2,)
            if a.kind == PLAY_KIND and a.card is not None:
                return (1, a.covered, -strength[a.card])
            return (0,)
        return rank

    def _offers(self, m: Match) -> bool:
        return raises_any_time(m) and not m.special

    def _key(self, m: Match, offer: int) -> tuple[object, ...]:
        offered = offer if m.state == PLAY and self._offers(m) else self._players
        hand, rnd = m.hand, m.round
        return (offered, m.state, *m.score, *m.games, m.winner,
                *(_frozen(getattr(hand, name)) for name in _HAND),
                *(_frozen(getattr(rnd, name)) for name in _ROUND))

    def _end(self, m: Match) -> tuple[tuple[float, ...], tuple[int, ...]]:
        if m.winner is not None:
            win = tuple(float(t == m.winner) for t in range(self._teams))
        else:
            win = self._value.match(m.score, m.games)
        start, games = self._start
        if list(m.games) == games:
            return win, tuple(e - s for e, s in zip(m.score, start, strict=True))
        target = self.rules.target  # a game won in the hand: its winner's points to the target
        return win, tuple(target - s if g > h else 0
                          for s, g, h in zip(start, m.games, games, strict=True))

    def _child(self, m: Match, move: Action | None) -> Match:
        if move is None:
            return m
        self._visited += 1
        if self._visited > self.limit:
            raise TooBig(f"more than {self.limit} moves")
        trial = m.clone()
        trial.apply(move)
        return trial

    # -- two teams: alpha-beta on team 0's chance --------------------------------------------
    def _ab(self, m: Match, offer: int, alpha: float,
            beta: float) -> tuple[float, tuple[int, ...]]:
        if hand_over(m):
            win, end = self._end(m)
            return win[0], end
        key = self._key(m, offer)
        known = self._table.get(key)
        if known is not None:
            v, flag, end = known
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v, end
        lo, hi = alpha, beta
        team, moves = self._children(m, offer)
        maximise = team == 0
        best = -_INF if maximise else _INF
        best_end: tuple[int, ...] = ()
        for move, after in moves:
            v, end = self._ab(self._child(m, move), after, alpha, beta)
            if (v > best) if maximise else (v < best):
                best, best_end = v, end
            if maximise:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = 1 if best >= hi else -1 if best <= lo else 0
        self._table[key] = (best, flag, best_end)
        return best, best_end

    # -- more teams: each its own chance ------------------------------------------------------
    def _maxn(self, m: Match, offer: int) -> tuple[tuple[float, ...], tuple[int, ...]]:
        if hand_over(m):
            return self._end(m)
        key = self._key(m, offer)
        known = self._many.get(key)
        if known is not None:
            return known
        team, moves = self._children(m, offer)
        best: tuple[tuple[float, ...], tuple[int, ...]] | None = None
        for move, after in moves:
            got = self._maxn(self._child(m, move), after)
            if best is None or got[0][team] > best[0][team]:
                best = got
        assert best is not None  # a position that waits for a move has one
        self._many[key] = best
        return best
