"""``fold``: the challenged team refuses the pending raise; the raising team wins the hand at
its value before the raise (C9). A raise refused in round 1 still shows its card where the
variant says so (M4).

Where the whole team must refuse (``betting.refusal: whole_team``, a house rule), a fold by a
player whose partners have not all folded is that player's refusal only: it is recorded
(:attr:`~engine.state.HandState.refused`, a ``fold`` line of the log with no checkpoint), the
raise stays pending and a partner who has not folded answers it; the last partner's fold
refuses the raise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.i18n import _, person
from engine.moves import (
    FOLD_WORDS,
    Lister,
    MoveKind,
    Words,
    has_ladder,
    move_transitions,
    register,
    said_told,
)
from engine.moves.answers import PINNED, answer_lister, answered_alone, judge_answer, refuse
from engine.moves.names import FOLD_KIND
from engine.moves.outcome import conclude, enter_after_hand
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling
from engine.state import DEAL, MATCH_OVER, Phase

if TYPE_CHECKING:
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules
    from engine.view import MatchView, Quick


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    why = judge_answer(m, a, r)
    if why is None:
        hand = m.hand
        raiser = hand.pending[0]  # type: ignore[index]
        team_of = m.rules.team_of
        if m.rules.refusal == "whole_team":
            seat = a.seat
            team = team_of[seat]
            refused = hand.refused
            for s in range(m.rules.players):
                if team_of[s] == team and s != seat and s not in refused:
                    return None  # a partner has not folded: he answers now
        conclude(m, r, team_of[raiser], hand.value)
    return why


def _effect(move: Action, r: Ruling) -> None:
    m: MatchView = r.model
    if r.ends:
        refuse(m, r)
    else:  # betting.refusal: whole_team, a partner has yet to answer
        m.hand.refused += (move.seat,)


def _quicking(rules: Rules, table: None, enters: dict[str, Any]) -> Quick | None:
    """The fold kind's quick move (``MoveKind.quick``, :mod:`engine.moves.quick`): the pending
    raise refused by a player of the challenged team where any of them answers and one fold
    refuses (C9 pinned), made whole as the machine's transitions would make it: ruled
    (:func:`_judge`: the raising team wins the hand at its value before the raise) before
    anything changes, applied (:func:`~engine.moves.answers.refuse`), the state set to
    ``match_over`` where the match is won, else to ``deal``, and the effects of entering it run
    (``enters``)."""
    if rules.answered_by != PINNED or rules.refusal == "whole_team":
        return None
    team_of = rules.team_of
    to_deal, to_end = enters.get(DEAL, ()), enters.get(MATCH_OVER, ())

    def quick(m: MatchView, a: Action) -> list[Checkpoint] | None:
        pending = answered_alone(m, a.seat, team_of)
        if pending is None:
            return None
        r = Ruling()
        r.model = m
        conclude(m, r, team_of[pending[0]], m.hand.value)
        refuse(m, r)
        enter_after_hand(m, a, r, to_deal, to_end)
        return r.checkpoints

    return quick


def _listing(rules: Rules, table: None) -> Lister:
    return answer_lister(FOLD_KIND, rules)


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    # one player's fold ends the hand; where the whole team must refuse, a fold may stay
    return move_transitions("fold", Phase.ANSWER, None, goes=rules.refusal == "whole_team")


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you fold"), _("{who} folds"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    if w.worth is not None:
        return _("{word} (fold: gives {value})").format(word=w.rules.move_name("fold", "corro"),
                                                        value=w.worth[0])
    return _("{word} (fold)").format(word=w.rules.move_name("fold", "corro"))

def _told(a: Action, w: Words) -> str:
    alone = "" if w.settles else " " + _("(a partner must answer)")  # betting.refusal
    return (said_told(a, w) if w.said is not None else person(
        a.seat == w.me, _("you fold"), _("{who} folds"), who=w.who)) + alone


def fold(seat: Any) -> Action:
    """Refuse the pending raise: the raising team wins the hand (C9)."""
    return Action(FOLD_KIND, seat)

KIND = register(MoveKind(
    name="fold", tell=_tell, menu=_menu, order=3, judge=_judge, effect=_effect, listing=_listing,
    transitions=_transitions, quick=_quicking,
    enabled=has_ladder, payload=Payload(factories=(fold,)),
    log=LogEvent(place=4,
                 about="Move: the challenged team refuses the pending raise."),
    not_now={None: "no raise is waiting for an answer"},
    keys=("betting.ladder", "betting.refused_card_shown_in_rounds", "betting.answered_by",
          "betting.refusal"),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    named=(("fold", ""),),
    typed=lambda rules: [(2, FOLD_WORDS, "")],
    told=_told,
    space=lambda rules: [((3,), {}, "fold")] if rules.ladder else []))
