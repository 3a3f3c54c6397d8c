"""``decide``: in a special hand with a decision (M5), the team at the score plays the hand or
folds it, giving the fold points, after seeing its partners' cards where the variant shows
them; either partner decides (the first decision counts), or only the team's first seat from
the mão where the special hand says so (``decider: first_from_mao``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import Why
from engine.i18n import _, person
from engine.moves import (
    FOLD_WORDS,
    Lister,
    MoveKind,
    Waiting,
    Words,
    move_transitions,
    register,
    said_told,
)
from engine.moves.deal import has_decision
from engine.moves.names import DECIDE_KIND
from engine.moves.outcome import conclude, other_team
from engine.moves.scoring import end_hand
from engine.payload import Choice, LogEvent, Payload
from engine.ruling import Ruling
from engine.state import DECIDE, Phase

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    hand = m.hand
    team = hand.special_team
    rules = m.rules
    if rules.team_of[a.seat] != team:
        return Why("not_deciding_team", f"only team {team} decides this hand")
    decider = hand.decider
    if decider is not None and a.seat != decider:
        return Why("not_the_decider",
                   f"only seat {decider}, the team's first from the mão, decides this hand")
    if not a.play_on:
        # M5: a fold gives "only" the fold points; it is not winning the hand that decides
        # the game where the winner of the special hand takes it.
        rule = hand.rule
        assert rule is not None
        conclude(m, r, other_team(rules, team), rule.fold_points, takes_game=False)
    return None


def _effect(move: Action, r: Ruling) -> None:
    if r.ends:
        end_hand(r.model, r)


def _listing(rules: Rules, table: None) -> Lister:
    """The decide kind's lister in the variant, over every seat's two decisions made once."""
    decisions = [(Action(DECIDE_KIND, s, play_on=True), Action(DECIDE_KIND, s, play_on=False))
                 for s in range(rules.players)]
    players = rules.players

    def lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
        hand = m.hand
        team_of = m.rules.team_of
        team, decider = hand.special_team, hand.decider
        for s in range(players):
            if team_of[s] == team and (decider is None or s == decider) and (
                    seat is None or seat == s):
                out.extend(decisions[s])

    return lister


def _deciders(m: MatchView) -> list[int]:
    """Who may decide: the one seat that decides where only one does (``decider:
    first_from_mao``), else the deciding team's seats from the mão."""
    assert m.special_team is not None
    if m.hand.decider is not None:
        return [m.hand.decider]
    team, n, team_of = m.special_team, m.players, m.rules.team_of
    return [s for s in ((m.mao + i) % n for i in range(n)) if team_of[s] == team]


def _sees(m: MatchView, seat: int) -> list[int]:
    """M5: during a special hand's decision the deciding team sees its partners' cards
    (``show_partner_cards``), each seat his own among them."""
    hand = m.hand
    rule = hand.rule
    team_of = m.rules.team_of
    if (m.state != DECIDE or rule is None or not rule.show_partner_cards
            or team_of[seat] != hand.special_team):
        return []
    return [s for s in range(len(team_of)) if team_of[s] == team_of[seat]]


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    return move_transitions("decide", Phase.DECIDE, Phase.PLAY)  # play on, or fold: fold points


def _tell(a: Action, w: Words) -> str:
    if a.play_on:
        return person(a.seat == w.me, _("you decide to play the hand"),
                      _("{who} decides to play the hand"), who=w.who)
    return person(a.seat == w.me, _("you decide to fold the hand"),
                  _("{who} decides to fold the hand"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    if a.play_on:
        return _("{word} (play the hand)").format(word=w.rules.move_name("play_hand", "jogo"))
    return _("{word} (fold the hand)").format(word=w.rules.move_name("fold_hand", "corro"))

def _told(a: Action, w: Words) -> str:
    if w.said is not None:
        return said_told(a, w)
    if a.play_on:
        return person(a.seat == w.me, _("you decide to play"), _("{who} decides to play"),
                      who=w.who)
    return person(a.seat == w.me, _("you decide to fold"), _("{who} decides to fold"),
                  who=w.who)


def decide(seat: Any, play: Any) -> Action:
    """Play (``True``) or fold a mão de dez / mão de 11 with a decision (M5)."""
    return Action(DECIDE_KIND, seat, play_on=play)

KIND = register(MoveKind(
    name="decide", tell=_tell, menu=_menu, order=0, judge=_judge, effect=_effect, listing=_listing,
    transitions=_transitions, enabled=has_decision,
    payload=Payload((Choice("play", yes="play", no="fold",
                            doc="true to play the hand, false to fold it."),),
                    factories=(decide,)),
    log=LogEvent(place=5,
                 about=("Move: the team in a mão de dez / mão de 11 with a decision plays "
                        "(true) or folds (false).")),
    phases=(Waiting(Phase.DECIDE, _deciders, pending="decision_pending",
                    about="a special hand's decision is awaited, M5"),),
    not_now={None: "no decision is awaited"}, sees=_sees,
    keys=("special_hands.one_team.decision", "special_hands.one_team.fold_points",
          "special_hands.one_team.show_partner_cards", "special_hands.one_team.decider"),
    # its words (truco play, the transcript) and its moves in engine.env's action space
    hint=(3, lambda legal, rules: _("{play}/play, {fold}/fold").format(
        play=rules.move_name("play_hand", "jogo"), fold=rules.move_name("fold_hand", "corro"))),
    named=(("play_hand", "play"), ("fold_hand", "fold")),
    typed=lambda rules: [(3, FOLD_WORDS, "fold"),
                         (6, ("jogo", "play", "jogar", "joga"), "play")],
    told=_told,
    space=lambda rules: ([((4,), {"play_on": True}, "decide play"),
                          ((4,), {"play_on": False}, "decide fold")]
                         if has_decision(rules) else [])))
