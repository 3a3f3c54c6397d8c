"""``fold``: the challenged team refuses the pending raise; the raising team wins the hand at
its value before the raise (C9). A raise refused in round 1 still shows its card where the
variant says so (M4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.machine import Ruling
from engine.moves import MoveKind, has_ladder, move_transitions, register
from engine.moves.accept import judge_answer
from engine.moves.outcome import conclude, end_hand

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Match


def _judge(m: Match, a: Action, r: Ruling) -> str | None:
    why = judge_answer(m, a, r)
    if why is None:
        conclude(m, r, m.hand.pending[0] % 2, m.hand.value)  # type: ignore[index]
    return why


def _effect(ev: Any) -> None:
    m: Match = ev.model
    hand = m.hand
    seat, _, card = hand.pending  # type: ignore[misc]
    if card is not None and m.round.number + 1 in m.rules.refused_card_shown_in_rounds:
        hand.shown.append((seat, card))  # M4: refused in round 1, shown even so
    hand.pending = None
    end_hand(m, ev.args[1])


def _lister(m: Match, seat: int | None, out: list[Action]) -> None:
    if seat is not None and seat % 2 != m.hand.pending[0] % 2:  # type: ignore[index]
        out.append(m.moves.fold[seat])


KIND = register(MoveKind(
    name="fold", order=3, judge=_judge, effect=_effect, lister=_lister,
    transitions=lambda rules: move_transitions("fold", "answer", None, goes=False),
    enabled=has_ladder,
    not_now={None: "no raise is waiting for an answer"},
    keys=("betting.ladder", "betting.refused_card_shown_in_rounds")))
