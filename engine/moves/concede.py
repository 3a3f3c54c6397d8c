"""``concede`` (*correr*, a house rule): a player gives up the hand; the other team scores the
hand's value.

- ``concede.allowed``: on his own turn, when a card is awaited from him (state ``play``, so
  no raise is pending); the winner is the team of the next seat after him in playing order
  that is not his own (with two teams: the other team), and it scores the hand's value now.
- ``concede.instead_of_answer``: also while a raise is pending, by a player who may answer it
  (``betting.answered_by``, :mod:`engine.moves.accept`): the raising team scores the value
  before the raise, as a fold would, but the hand ends at once even where the whole team must
  refuse (``betting.refusal: whole_team``), and the raise's named card is shown where a
  refused raise shows it (M4).
- ``concede.in_special_hands``: also in a special hand (P5, P6, M5, M6; after the decision,
  where there is one); the other team scores the special hand's value. A concede is not a win
  of the hand: where the special hand's winner takes the game, it scores the points only (as
  a decision's fold, M5).

- Side bets (G20, GH11): a player who must answer a side bet's call may go to the baralho
  instead (with ``concede.allowed`` alone: no other move gives the hand up there): the call
  counts as refused and is paid first (it may win the game), then the other team scores the
  hand's accepted value. Going to the baralho
  while a side bet may still be started this hand gives the other team the bet's
  ``open_fold_penalty`` more (GH11).

Never during a decision (M5 has its own fold) and never out of turn. Where the partners confirm
a concede (``confirm.moves``, :mod:`engine.moves.confirm`), a concede on one's turn asks them
first, and a team they told to go on concedes no more that hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import VariantError, Why
from engine.i18n import _, mark, person
from engine.moves import (
    MoveKind,
    VariantBlock,
    Words,
    flag,
    has_ladder,
    move_transitions,
    register,
    said_told,
)
from engine.moves.answers import judge_answer, refuse
from engine.moves.bets import (
    apply_settlement,
    judge_bet_answer,
    list_answers,
    open_penalty,
    settle,
)
from engine.moves.outcome import conclude
from engine.moves.scoring import end_hand
from engine.payload import LogEvent, Payload
from engine.ruling import Ruling
from engine.state import ANSWER, BET_ANSWER, NORMAL, Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView


@cache
def concedes(players: int) -> tuple[Action, ...]:
    """The concede of each seat (made once per table size, shared like the move table's)."""
    return tuple(concede(s) for s in range(players))


def _special_refusal(m: MatchView) -> str | None:
    """Why nobody may concede in this special hand, or ``None``."""
    rules = m.rules
    hand = m.hand
    if hand.special == NORMAL or rules.concede_in_special_hands:
        return None
    name = hand.rule.name  # type: ignore[union-attr]
    return Why("no_concede_in_special_hand", f"no concede in the {name} (concede.in_special_hands)")


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    why = _special_refusal(m)
    if why is not None:
        return why
    hand = m.hand
    team_of = m.rules.team_of
    if m.state == BET_ANSWER:  # G20: a side bet's call pending counts as refused, paid first
        found = judge_bet_answer(m, a.seat)
        if isinstance(found, str):
            return found
        settle(m, r, found[0], found[1], accepted=False)
        if not r.ends:  # the refusal did not win the game: the hand, at its accepted value,
            # to the caller's team (with two teams, the other team; with more, the one that
            # challenged the conceder)
            conclude(m, r, team_of[found[1].caller], hand.value,  # type: ignore[index]
                     takes_game=False)
        return None
    bonus = 0 if hand.side is None else open_penalty(m)  # GH11: a side bet still open
    if m.state == ANSWER:  # concede.instead_of_answer: the value before the raise
        why = judge_answer(m, a, r)
        if why is None:
            conclude(m, r, team_of[hand.pending[0]], hand.value + bonus,  # type: ignore[index]
                     takes_game=False)
        return why
    seat = a.seat
    turn = m.round.turn
    if seat != turn:
        return Why("not_your_turn", f"a player concedes only on his own turn; it is seat {turn}'s")
    n = m.rules.players
    team = team_of[seat]
    if _went_on(m, team):
        return Why("told_to_go_on", "the partners said go on: the team concedes no more this "
                                    "hand (confirm.moves)")
    winner = next(team_of[(seat + k) % n] for k in range(1, n)
                  if team_of[(seat + k) % n] != team)
    conclude(m, r, winner, hand.value + bonus, takes_game=False)
    return None


def _effect(move: Action, r: Ruling) -> None:
    m: MatchView = r.model
    if r.side is not None:  # a side bet refused first (G20): its crediting, then the hand
        apply_settlement(m, r)
        return
    if m.hand.pending is not None:
        refuse(m, r)  # instead of an answer: as a refusal that ends the hand
    else:
        end_hand(m, r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    if _special_refusal(m) is not None:
        return
    table = concedes(m.move_table.players)
    if m.state == BET_ANSWER:  # G20: the team that must answer a side bet's call
        list_answers(m, seat, out, table)
        return
    if m.state == ANSWER:  # listed seat by seat
        if seat is not None:  # a seat that may answer (answers.py)
            out.append(table[seat])
        return
    t = m.round.turn
    if (seat is None or seat == t) and not (m.hand.own and _went_on(m, m.rules.team_of[t])):
        out.append(table[t])  # (no kind's state this hand, the usual case: nobody went on)


def _went_on(m: MatchView, team: int) -> bool:
    """Whether the team's partners refused its concede this hand (``confirm.moves``: the
    ``confirm`` kind's state, :mod:`engine.moves.confirm`, read by its key)."""
    asked = m.hand.own.get("confirm")
    return asked is not None and team in asked.went_on


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    out = move_transitions("concede", Phase.PLAY, None, goes=False)  # it always ends the hand
    if rules.concede_instead_of_answer and has_ladder(rules):
        out += move_transitions("concede", Phase.ANSWER, None, goes=False)
    if rules.side_bets:  # G20: the baralho instead of a side bet's answer
        out += move_transitions("concede", Phase.BET_ANSWER, None, goes=False)
    return out


def _tell(a: Action, w: Words) -> str:
    return person(a.seat == w.me, _("you concede the hand (eu corro)"),
                  _("{who} concedes the hand (corre)"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    return _("{word} (concede the hand)").format(word=w.rules.move_name("concede", "corro"))

def _told(a: Action, w: Words) -> str:
    if w.said is not None:
        return said_told(a, w)
    return person(a.seat == w.me, _("you concede the hand (corre)"),
                  _("{who} concedes the hand (corre)"), who=w.who)


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """The keys of ``concede`` that would have no effect: a concede instead of an answer
    without a ladder, in special hands none of which is enabled, either without ``allowed``."""
    concede = d["concede"]
    allowed = concede["allowed"]
    if concede["instead_of_answer"]:
        if not allowed:
            yield err(("concede", "instead_of_answer"), mark(
                "expected concede.allowed: true with instead_of_answer (conceding is off), found "
                "concede.allowed false"), (("concede", "allowed"),))
        elif not d["betting"]["ladder"]:
            yield err(("concede", "instead_of_answer"), mark(
                "expected no instead_of_answer without a ladder (no raise is ever answered), "
                "found true"), (("betting", "ladder"),))
    if concede["in_special_hands"]:
        specials = d["special_hands"]
        if not allowed:
            yield err(("concede", "in_special_hands"), mark(
                "expected concede.allowed: true with in_special_hands (conceding is off), found "
                "concede.allowed false"), (("concede", "allowed"),))
        elif not any(specials[k]["enabled"] for k in ("one_team", "both_teams")):
            yield err(("concede", "in_special_hands"), mark(
                "expected an enabled special hand with in_special_hands "
                "(special_hands.*.enabled are all false), found true"), (("special_hands",),))


#: The kind's variant keys (``concede.*``), read as the rules' flat ``concede``,
#: ``concede_instead_of_answer`` and ``concede_in_special_hands``.
BLOCK = VariantBlock("concede", checks=_checks, about=(
    "House rule, correr: a player gives up the hand and the other team scores the hand's "
    "value (C11). Absent: no concede."), keys={
    "allowed": flag(
        "House rule, correr: a player may concede the hand on his own turn, when a card is "
        "awaited from him and no raise is pending; the team of the next seat of another team "
        "(with two teams, the other team) scores the hand's value (C11). A concede is not a "
        "win of the hand where a special hand's winner takes the game. Default false."),
    "instead_of_answer": flag(
        "House rule, correr as an answer (C9): a player who may answer a raise "
        "(betting.answered_by) may concede instead: the raising team scores the value before "
        "the raise, and the hand ends at once, even where betting.refusal is whole_team (a "
        "fold there is one partner's refusal; a concede gives the hand up for the team). "
        "Needs allowed and a ladder. Default false."),
    "in_special_hands": flag(
        "House rule, correr in the special hands (P5 mão de onze, P6 mão de ferro, M5, M6): "
        "whether a player may concede there too (after the decision, where there is one); the "
        "other team scores the special hand's value. Needs allowed and an enabled special "
        "hand. Default false."),
})


def concede(seat: Any) -> Action:
    """Give up the hand (*correr*, a house rule): the other team scores its value."""
    return Action("concede", seat)

KIND = register(MoveKind(
    name="concede", tell=_tell, menu=_menu, order=5, judge=_judge, effect=_effect,
    lister=_lister, transitions=_transitions, enabled=lambda rules: rules.concede,
    payload=Payload(factories=(concede,)),
    log=LogEvent(place=6, version=2, named="a concede move",
                 about=("Move (version 2, variants with concede.allowed): the seat gives up the "
                        "hand (correr) on its turn, or instead of answering a raise where "
                        "concede.instead_of_answer; the other team scores the hand's value (the "
                        "value before a pending raise).")),
    not_now={None: "no concede in this variant (concede.allowed)",
             Phase.ANSWER: "a raise is waiting for its answer: accept or fold (a concede "
                           "instead of an answer needs concede.instead_of_answer)",
             Phase.DECIDE: "the special hand's decision comes first",
             Phase.DEAL: "no hand is in play",
             "confirm": "a give-up waits for the partners' confirmation"},  # its kind's phase
    block=BLOCK,
    keys=("concede.allowed", "concede.instead_of_answer", "concede.in_special_hands",
          "betting.answered_by"),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(4, lambda legal, rules: _("concede") if any(a.kind == "fold" for a in legal)
          else _("{word}/concede").format(word=rules.move_name("concede", "corro"))),
    named=(("concede", ""),),  # "eu corro", "vou ao baralho" (G20)
    typed=lambda rules: [(5, ("corro", "correr", "corre", "concede", "desisto", "baralho"), "")],
    told=_told,
    space=lambda rules: ([((5,), {}, "concede")]
                         if rules.concede or rules.concede_instead_of_answer else [])))
