"""Playing a hand out for a search: a move tried on a copy of a match, then the rest of the hand
by a cheap policy (what the ``search`` bot, :mod:`engine.bots.search`, and ``truco analyze``,
:mod:`engine.analysis`, score a move by).

The policy: cards by :func:`greedy` (the lowest card that wins the round, else the lowest;
strong leads), never a raise in a card's place, and a bot per seat (the callers'
:class:`~engine.bots.sound.SoundBot`) answering raises and side bets and deciding special
hands, each from its own seat's observation.

>>> from engine import Match
>>> from engine.bots.heuristic import HeuristicBot
>>> from engine.position import build
>>> m = Match.new("paulista", seed=7)
>>> trial = build(m.rules, dict(m.position(), rng=None), trusted=True)
>>> policy = [HeuristicBot(m.rules, s) for s in range(4)]
>>> events = try_move(trial, m.legal_actions(1)[0], policy)
>>> trial.awaiting_deal, [e["event"] for e in events or []][-1]
(True, 'hand')
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.bots.base import Bot, choose_for, next_actor
from engine.cards import Card
from engine.errors import IllegalMoveError
from engine.game import Checkpoint, Match
from engine.moves import PHASES
from engine.moves.names import PLAY_KIND
from engine.moves.play import play
from engine.state import DEAL, MATCH_OVER, PLAY
from engine.view import Moves


def try_move(m: Match, move: Action, policy: Sequence[Bot], *,
             cards: bool = True) -> list[Checkpoint] | None:
    """Apply ``move`` (as the seat was offered it: :func:`real_move`) to ``m`` and play the hand
    out (:func:`play_out`, ``cards`` as there); the checkpoints of it all, or ``None`` where
    ``move`` is illegal in ``m`` (legal only with cards a guess does not give: never seen)."""
    real = real_move(m, move)
    events: list[Checkpoint] = []
    if real is not None:
        try:
            events += m.apply(real)
        except IllegalMoveError:
            return None
    play_out(m, policy, events, cards=cards)
    return events


def play_out(m: Match, policy: Sequence[Bot], events: list[Checkpoint] | None = None, *,
             cards: bool = True) -> None:
    """Play ``m`` to the end of its hand (a match without a generator then waits for a deal, or
    for the next hand's cut, or the match is over): cards by :func:`greedy` (with
    ``cards=False``, by ``policy`` too, raises in turn included), answers and decisions by
    ``policy`` (a bot per seat); the checkpoints go to ``events`` if given. The next hand's
    first move (a cut) is not played."""
    table = m.move_table
    plays = table.lister_of.get(PLAY_KIND) if cards else None  # the play kind's, as listed
    if plays not in table.listers.get(PLAY, ()):
        plays = None
    stops = _stops(m)
    while (state := m.state) not in stops:
        if state == PLAY and cards:
            seat = m.round.turn
            # greedy picks among the plays only: the play kind's own lister gives them as
            # legal_actions lists them (in its order), the other kinds' moves are not made
            legal: list[Action] = []
            if plays is not None:
                plays(m, seat, legal)
            cps = m.apply(greedy(m, legal or m.legal_actions(seat)))
        else:
            seat = next_actor(m)
            cps = m.apply(choose_for(policy[seat], m, seat))
        if events is not None:
            events += cps


#: The states where a playout stops, by variant (its move table): a deal or the next hand's
#: first move awaited, or the match over.
_STOPS: dict[Moves, frozenset[str]] = {}
def _stops(m: Match) -> frozenset[str]:
    stops = _STOPS.get(m.move_table)
    if stops is None:
        stops = _STOPS[m.move_table] = frozenset(
            s for s in m.machine.states if s in (DEAL, MATCH_OVER) or _opens(s))
    return stops


def hand_over(m: Match) -> bool:
    """Whether ``m``'s hand is played out (a playout stops there): a deal or the next hand's
    first move awaited, or the match over."""
    return m.state in _stops(m)


def _opens(state: str) -> bool:
    """Whether ``state`` is a phase that opens a hand (its first move, before the deal)."""
    phase = PHASES.get(state)
    return phase is not None and phase.opens


def real_move(m: Match, move: Action) -> Action | None:
    """The move of the guessed match that ``move`` (as the seat was offered it) stands for:
    a play by position (P6) names the guessed card there; a pass (M3) is no move."""
    if move.kind == "pass":
        return None
    if move.position is not None:
        card: Card = m.hand.hands[move.seat][move.position]
        if move.kind == PLAY_KIND:
            return play(move.seat, card, move.covered)
        return Action(move.kind, move.seat, card, move.covered, move.value)
    return move


def greedy(m: Match, legal: Sequence[Action]) -> Action:
    """The rollout's card: in a blind hand (P6) the first; leading, the strongest (in round 1
    the second strongest if the strongest is a manilha); with the partners winning the round,
    the weakest; else the weakest card that wins the round, else one that ties, else the
    weakest. Face up, never a raise or a concession (unless nothing else is legal)."""
    plays = [a for a in legal if a.kind == PLAY_KIND and not a.covered]
    if not plays:
        plays = [a for a in legal if a.kind == PLAY_KIND]
        if not plays:
            return legal[0]
    hand = m.hand
    if len(plays) == 1 or hand.blind:
        return plays[0]
    strength = hand.strength
    if len(plays) == 2:  # the usual case, as sorted ranks it (stable: the first on a tie)
        first, second = plays
        weaker = strength[second.card] < strength[first.card]  # type: ignore[index]
        ranked = [second, first] if weaker else plays
    else:
        ranked = sorted(plays, key=lambda a: strength[a.card])  # type: ignore[index]
    rnd = m.round
    if not rnd.cards:
        top = ranked[-1]
        if rnd.number == 0 and top.card in m.rules.manilhas_for(m.hand.vira):
            return ranked[-2]
        return top
    team_of = m.rules.team_of
    mine = team_of[ranked[0].seat]
    opp = ours = -2
    for s, c, cov in rnd.cards:
        v = -1 if cov else strength[c]
        if team_of[s] == mine:
            if v > ours:
                ours = v
        elif v > opp:
            opp = v
    if ours > opp:
        return ranked[0]
    for a in ranked:
        if strength[a.card] > opp:  # type: ignore[index]
            return a
    for a in ranked:
        if strength[a.card] == opp:  # type: ignore[index]
            return a
    return ranked[0]
