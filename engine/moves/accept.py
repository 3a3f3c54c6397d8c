"""``accept``: the challenged team accepts the pending raise; the hand is worth its value
(C9) and play goes on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.machine import Ruling
from engine.moves import MoveKind, has_ladder, move_transitions, register
from engine.moves.outcome import accept_pending

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.game import Match


def judge_answer(m: Match, a: Action, r: Ruling) -> str | None:
    """Who may answer a raise: a player of the challenged team (C9)."""
    if a.seat % 2 == m.hand.pending[0] % 2:  # type: ignore[index]
        return "only the challenged team answers a raise"
    return None


def _effect(ev: Any) -> None:
    accept_pending(ev.model.hand)


def _lister(m: Match, seat: int | None, out: list[Action]) -> None:
    if seat is not None and seat % 2 != m.hand.pending[0] % 2:  # type: ignore[index]
        out.append(m.moves.accept[seat])


KIND = register(MoveKind(
    name="accept", order=2, judge=judge_answer, effect=_effect, lister=_lister,
    transitions=lambda rules: move_transitions("accept", "answer", "play", ends=False),
    enabled=has_ladder,
    not_now={None: "no raise is waiting for an answer"},
    keys=("betting.ladder",)))
