"""``quero``: the other team accepts the pending side bet's call (G27). The dispute is settled
at once (G30): the declarations (engine-computed, :mod:`engine.moves.bets`), the winner (the
best points, the player nearer the mão on a tie), the chain's accepted value (or the falta,
G29), credited at once (G31; the game may end mid-hand, G46) or at the end of the hand (GH6).
Play goes back to the truco's answer where one waits (G26), else to the card awaited."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.i18n import _, person
from engine.moves import MoveKind, Waiting, Words, has_ladder, register
from engine.moves.bets import (
    answer_transitions,
    apply_settlement,
    judge_bet_answer,
    list_answers,
    pending_bet,
    settle,
)
from engine.moves.envido import has_side_bets
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling
from engine.state import Phase

if TYPE_CHECKING:
    from engine.view import MatchView


@cache
def queros(players: int) -> tuple[Action, ...]:
    """The quero of each seat, made once per table size."""
    return tuple(quero(s) for s in range(players))


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    found = judge_bet_answer(m, a.seat)
    if isinstance(found, str):
        return found
    settle(m, r, found[0], found[1], accepted=True)
    return None


def _effect(move: Action, r: Ruling) -> None:
    apply_settlement(r.model, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    list_answers(m, seat, out, queros(m.rules.players))


def _bet_answerers(m: MatchView) -> list[int]:
    """Who may answer the pending side bet's call (G27): the other team, in playing order
    from the caller's next seat."""
    found = pending_bet(m)
    assert found is not None and found[1].caller is not None
    caller, n, team_of = found[1].caller, m.players, m.rules.team_of
    return [s for s in ((caller + i) % n for i in range(1, n)) if team_of[s] != team_of[caller]]


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you say QUERO"), _("{who} says QUERO"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    if w.bet is not None:
        return _("quero (accept the {bet}: {stake})").format(bet=w.bet[0], stake=w.bet[1])
    return _("quero (accept the side bet)")


def _told(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you say: {said}"), _("{who} says: {said}"), who=w.who,
                  said="quero")


def quero(seat: Any) -> Action:
    """Accept the pending side bet's call (G27, G30)."""
    return Action("quero", seat)

KIND = register(MoveKind(
    name="quero", tell=_tell, menu=_menu, order=7, judge=_judge, effect=_effect,
    lister=_lister,
    transitions=lambda rules: answer_transitions("quero", has_ladder(rules)),
    enabled=has_side_bets, payload=Payload(factories=(quero,)),
    log=LogEvent(place=9, version=2, named="a side bet's quero event",
                 about=("Move (version 2): the seat accepts the pending side bet's call (G27); "
                        "the dispute is settled at once (side_declare and side_bet "
                        "checkpoints).")),
    phases=(Waiting(Phase.BET_ANSWER, _bet_answerers, pending="bet_answer_pending",
                    about="a side bet's call waits for its answer, G27"),),
    not_now={None: "no side bet's call is waiting for its answer"},
    keys=("side_bets",),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(6, lambda legal, rules: "quero, não quero"),
    typed=lambda rules: [(0, ("quero",), "")],
    told=_told,
    space=lambda rules: [((7,), {}, "quero")] if rules.side_bets else []))
