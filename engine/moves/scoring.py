"""Scoring the end of a hand, below the kinds that end one (:mod:`engine.moves.outcome`) and
the side bets (:mod:`engine.moves.bets`): a game won (M8, P9), the end of a hand applied, a
fresh hand; and the **end-of-hand hooks** the kinds register (:class:`HandEnd`), through which
what a kind owes at the end of a hand (GH6: side bets credited then, G32: their cards shown)
is ruled and applied without this module, or :mod:`engine.moves.outcome`, naming the kind."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.checkpoint import Checkpoint
from engine.ruling import GameResult, Ruling
from engine.sidebets import BetState
from engine.state import HandState, RoundState

if TYPE_CHECKING:
    from engine.view import MatchView


@dataclass(frozen=True)
class HandEnd:
    """What a kind adds to the end of every hand (a kind's ``MoveKind.hand_end``), in two
    steps like every move: ruled, then applied. Each step does nothing in a hand that has none
    of it (a hand without side bets)."""

    #: Its name: one hook per name, however many kinds declare it.
    name: str
    #: ``rule(match, ruling, score)``: when a move ends the hand
    #: (:func:`engine.moves.outcome.conclude`), before anything changes: add what is credited
    #: to ``score`` (the score after the hand, a copy), record it on the ruling, and return the
    #: first team it brings to the target (that team wins the game), or ``None``.
    rule: Callable[[MatchView, Ruling, list[int]], int | None]
    #: ``apply(match, ruling, events)``: when the end of the hand is applied
    #: (:func:`end_hand`), before its ``hand`` checkpoint: apply what was ruled, appending its
    #: checkpoints to ``events``.
    apply: Callable[[MatchView, Ruling, list[Checkpoint]], None]


def hooks_in_order(declared: Iterable[tuple[int, HandEnd]]) -> tuple[HandEnd, ...]:
    """The hooks a variant's kinds declare, given as (the kind's ``MoveKind.order``, hook), in
    the order they run: by the order of the first kind that declares each, then by name (a
    fixed order, whatever order the kinds were imported in); each once, however many kinds
    declare it. A variant's :class:`~engine.game.MoveTable` holds its own
    (``hand_ends``): a variant without side bets runs none."""
    first: dict[str, tuple[int, HandEnd]] = {}
    for order, hook in sorted(declared, key=lambda d: (d[0], d[1].name)):
        known = first.setdefault(hook.name, (order, hook))[1]
        if known is not hook:
            raise ValueError(f"two end-of-hand hooks are named {hook.name!r}")
    return tuple(hook for _, hook in first.values())


def win_game(m: MatchView, r: Ruling, winner: int, match: bool = False) -> None:
    """Rule a game won by ``winner`` (and the match, when it is the last, P9, M8, or when
    ``match``: the hand was worth the match)."""
    games = m.games[:]
    games[winner] += 1
    r.ends = True
    r.game = GameResult(winner, games)
    if games[winner] >= m.rules.games_to_win or match:
        r.match = winner


def end_hand(m: MatchView, ruling: Ruling) -> None:
    """Apply the end of a hand (or of a game lost by a forbidden raise) as ruled; then, if
    the match goes on, the next hand's dealer and a fresh hand (the transition to ``deal``
    deals it)."""
    events = ruling.checkpoints
    if events is None:
        events = ruling.checkpoints = []
    for hook in m.move_table.hand_ends:  # side bets owed (GH6) and cards shown (G32)
        hook.apply(m, ruling, events)
    if ruling.hand is not None:
        winner, points, score = ruling.hand
        m.score = score
        events.append({"event": "hand", "winner": winner, "points": points,
                       "score": score[:]})
    game = ruling.game
    if game is not None:
        w = game.winner
        m.games = game.games
        events.append({"event": "game", "winner": w, "score": m.score[:],
                       "games": m.games[:]})
        if ruling.match is not None:
            m.winner = w
            events.append({"event": "match", "winner": w, "games": m.games[:]})
            return
        # M8: each game starts at 0-0 (C11 house: from a game on, at match.start_score)
        m.score = m.rules.match.start(sum(m.games) + 1, m.rules.teams)
    players = m.rules.players
    m.dealer = (m.dealer + 1) % players  # the next dealer is to the right
    hand = m.hand
    # the ended hand's lists are kept without copying: the next hand has new ones
    m.last_hand = (m.hand_number, hand.played, hand.shown, hand.results, hand.blind)
    new_hand(m)


def new_hand(m: MatchView) -> None:
    """A fresh hand and its first round, led by the mão (the dealer's next seat)."""
    rules = m.rules
    m.hand = hand = HandState(rules.players, rules.initial_value)
    if rules.side_bets:  # G22-G32: a fresh record of each side bet
        hand.side = [BetState(bet) for bet in rules.side_bets]
    own = m.move_table.own
    if own:  # the kinds' own state (engine.moves.KindState), fresh
        hand.own = own
    m.round = RoundState(0, (m.dealer + 1) % rules.players)
