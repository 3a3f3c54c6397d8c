"""``decide``: in a mão de dez with a decision (M5), the team at the score plays the hand or
folds it, giving the fold points, after seeing its partners' cards where the variant shows
them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.machine import Ruling
from engine.moves import MoveKind, move_transitions, register
from engine.moves.deal import has_decision
from engine.moves.outcome import conclude, end_hand

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Match
    from engine.rules import Rules


def _judge(m: Match, a: Action, r: Ruling) -> str | None:
    team = m.hand.special_team
    if a.seat % 2 != team:
        return f"only team {team} decides this hand"
    if not a.play_on:
        # M5: a fold gives "only" the fold points; it is not winning the hand that decides
        # the game where the winner of the special hand takes it.
        conclude(m, r, 1 - a.seat % 2, m.rules.one_team.fold_points, takes_game=False)
    return None


def _effect(ev: Any) -> None:
    r = ev.args[1]
    if r.ends:
        end_hand(ev.model, r)


def _lister(m: Match, seat: int | None, out: list[Action]) -> None:
    moves = m.moves
    for s in range(m.hand.special_team, moves.players, 2):  # type: ignore[arg-type]
        if seat is None or seat == s:
            out.extend(moves.decide[s])


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    return move_transitions("decide", "decide", "play")  # play on, or fold: fold points


KIND = register(MoveKind(
    name="decide", order=0, judge=_judge, effect=_effect, lister=_lister,
    transitions=_transitions, enabled=has_decision,
    not_now={None: "no decision is awaited"},
    keys=("special_hands.one_team.decision", "special_hands.one_team.fold_points",
          "special_hands.one_team.show_partner_cards")))
