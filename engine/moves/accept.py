"""``accept``: the challenged team accepts the pending raise; the hand is worth its value
(C9) and play goes on. Who may answer for the team: :mod:`engine.moves.answers`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.i18n import _, mark, person
from engine.moves import (
    Lister,
    MoveKind,
    Waiting,
    Words,
    has_ladder,
    move_transitions,
    register,
    said_told,
)
from engine.moves.answers import (
    PINNED,
    answer_lister,
    answered_alone,
    judge_answer,
    may_answer,
)
from engine.moves.names import ACCEPT_KIND
from engine.moves.outcome import accept_pending
from engine.payload import LogEvent, Payload
from engine.state import PLAY, Phase

if TYPE_CHECKING:
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules
    from engine.ruling import Ruling
    from engine.view import MatchView, Quick


def _effect(move: Action, r: Ruling) -> None:
    m = r.model
    hand = m.hand
    accept_pending(hand, m.rules.team_of)
    if hand.refused:
        hand.refused = ()  # a partner's accept overrules a fold (betting.refusal: whole_team)


def _listing(rules: Rules, table: None) -> Lister:
    return answer_lister(ACCEPT_KIND, rules)


def _answerers(m: MatchView) -> list[int]:
    """Who may answer the pending raise (C9 and its house rules), in playing order from the
    raiser's next seat (the first answer counts)."""
    assert m.hand.pending is not None
    n = m.players
    start = m.hand.pending[0] + 1
    return [s for s in ((start + i) % n for i in range(n)) if may_answer(m, s)]


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you accept"), _("{who} accepts"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    if w.worth is not None and w.worth[1] is not None:
        return _("{word} (accept: worth {value})").format(
            word=w.rules.move_name("accept", "aceito"), value=w.worth[1])
    return _("{word} (accept)").format(word=w.rules.move_name("accept", "aceito"))

def _told(a: Action, w: Words) -> str:
    worth = "" if w.settles else _("the hand is worth {value}").format(value=w.value)
    if w.said is not None:
        return said_told(a, w) + (f" ({worth})" if worth else "")
    return person(a.seat == w.me, _("you accept"), _("{who} accepts"), who=w.who) + (
        f": {worth}" if worth else "")


def _quicking(rules: Rules, table: None, enters: dict[str, Any]) -> Quick | None:
    """The accept kind's quick move (``MoveKind.quick``, :mod:`engine.moves.quick`): the
    pending raise accepted (``answer`` to ``play``) by a player of the challenged team where
    any of them answers and none has folded (C9 pinned), the play state running nothing on
    entering it; made whole as :func:`judge_answer` and :func:`_effect` would."""
    if rules.answered_by != PINNED or enters.get(PLAY):
        return None
    team_of = rules.team_of

    def quick(m: MatchView, a: Action) -> list[Checkpoint] | None:
        if answered_alone(m, a.seat, team_of) is None:
            return None
        accept_pending(m.hand, team_of)
        m.state = PLAY
        return []

    return quick


def accept(seat: Any) -> Action:
    """Accept the pending raise (C9)."""
    return Action(ACCEPT_KIND, seat)

KIND = register(MoveKind(
    name="accept", tell=_tell, menu=_menu, order=2, judge=judge_answer, effect=_effect,
    listing=_listing, quick=_quicking,
    transitions=lambda rules: move_transitions("accept", Phase.ANSWER, Phase.PLAY, ends=False),
    enabled=has_ladder, payload=Payload(factories=(accept,)),
    log=LogEvent(place=3,
                 about="Move: the challenged team accepts the pending raise."),
    # a raise waits for its answer: accept (or fold, or raise back) by the seats that may answer
    phases=(Waiting(Phase.ANSWER, _answerers, pending="answer_pending", by_seat=True,
                    about="a raise waits for its answer"),),
    not_now={None: "no raise is waiting for an answer"},
    keys=("betting.ladder", "betting.answered_by", "betting.refusal"),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(2, lambda legal, rules: _("{accept}/accept, {fold}/fold").format(
        accept=rules.move_name("accept", "aceito"), fold=rules.move_name("fold", "corro"))),
    named=(("accept", ""),), untyped=mark("nothing to accept now"),
    typed=lambda rules: [(4, ("aceito", "accept", "aceitar", "aceita", "quero", "sim", "yes",
                              "ok"), "")],
    told=_told,
    space=lambda rules: [((2,), {}, "accept")] if rules.ladder else []))
