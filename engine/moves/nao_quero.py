"""``nao_quero`` (não quero): the other team refuses the pending side bet's call; the last
caller's team scores the chain's refused value (G28: by default the chain without its last
call, at least 1), credited at once (G31; the game may end, G46) or at the end of the hand
(GH6). A refused side bet does not end the hand (G31)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.i18n import _, person
from engine.moves import MoveKind, Words, has_ladder, register
from engine.moves.bets import (
    answer_transitions,
    apply_settlement,
    judge_bet_answer,
    list_answers,
    settle,
)
from engine.moves.envido import has_side_bets
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling

if TYPE_CHECKING:
    from engine.view import MatchView


@cache
def nao_queros(players: int) -> tuple[Action, ...]:
    """The não quero of each seat, made once per table size."""
    return tuple(nao_quero(s) for s in range(players))


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    found = judge_bet_answer(m, a.seat)
    if isinstance(found, str):
        return found
    settle(m, r, found[0], found[1], accepted=False)
    return None


def _effect(move: Action, r: Ruling) -> None:
    apply_settlement(r.model, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    list_answers(m, seat, out, nao_queros(m.rules.players))


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you say NÃO QUERO"), _("{who} says NÃO QUERO"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    if w.bet is not None:
        return _("não quero (refuse the {bet}: gives {stake})").format(bet=w.bet[0],
                                                                      stake=w.bet[2])
    return _("não quero (refuse the side bet)")


def _told(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you say: {said}"), _("{who} says: {said}"), who=w.who,
                  said="não quero")


def nao_quero(seat: Any) -> Action:
    """Refuse the pending side bet's call: its caller's team scores the refusal (G28)."""
    return Action("nao_quero", seat)

KIND = register(MoveKind(
    name="nao_quero", tell=_tell, menu=_menu, order=8, judge=_judge, effect=_effect,
    lister=_lister,
    transitions=lambda rules: answer_transitions("nao_quero", has_ladder(rules)),
    enabled=has_side_bets, payload=Payload(factories=(nao_quero,)),
    log=LogEvent(place=10, version=2, named="a side bet's nao_quero event",
                 about=("Move (version 2): the seat refuses the pending side bet's call (não "
                        "quero); the last caller's team scores the chain's refused value (G28).")),
    not_now={None: "no side bet's call is waiting for its answer"},
    keys=("side_bets",),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    typed=lambda rules: [(0, ("não quero", "nao quero", "naoquero"), "")],
    told=_told,
    space=lambda rules: [((8,), {}, "nao_quero")] if rules.side_bets else []))
