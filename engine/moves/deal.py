"""The chance step: a deal starts the hand (from the seed, from the recorded deals, or an
explicit :class:`~engine.actions.Deal`), and decides which special hand it is (P5, P6, M5, M6).

Its trigger is ``deal``, from the ``deal`` state, whose ``on_enter`` (``deal_next``) makes the
next deal at once where the match has the cards; the hand goes to ``decide`` when it starts
with a decision (M5), else to ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Deal
from engine.cards import Card
from engine.machine import Ruling, condition, effect
from engine.moves import MoveKind, register
from engine.state import BOTH_TEAMS, NORMAL, ONE_TEAM

if TYPE_CHECKING:
    from engine.game import Match
    from engine.rules import Rules


def special_for(rules: Rules, score: Sequence[int]) -> tuple[int, int | None]:
    """The special hand (P5, P6, M5, M6) a hand dealt at ``score`` is, and its team."""
    s0, s1 = score
    both, one = rules.both_teams, rules.one_team
    if both.enabled and s0 >= both.from_score and s1 >= both.from_score:  # P6, M6
        return BOTH_TEAMS, None
    if one.enabled and (s0 >= one.from_score) != (s1 >= one.from_score):  # P5, M5
        return ONE_TEAM, 0 if s0 >= one.from_score else 1
    return NORMAL, None


def has_decision(rules: Rules) -> bool:
    """Whether some hand of the variant starts with a decision (M5)."""
    return rules.one_team.enabled and rules.one_team.decision


def _judge(m: Match, deal: Deal | tuple[list[list[Card]], Card | None],
           r: Ruling) -> str | None:
    if not isinstance(deal, Deal):
        return None  # the match's own: from the seed, or recorded and checked when queued
    if m.rng is not None:
        return "a seeded match deals from its seed"
    return m.deal_problem(deal, m.dealer)


def _effect(ev: Any) -> None:
    m: Match = ev.model
    deal = ev.args[0]
    if isinstance(deal, Deal):
        hands, vira = [list(h) for h in deal.hands], deal.vira
    else:
        hands, vira = deal
    r = m.rules
    hand = m.hand
    hand.hands = hands
    hand.dealt = tuple(map(tuple, hands))
    hand.vira = vira
    hand.strength = r.strengths(vira)
    m.hand_number += 1
    special, team = special_for(r, m.score)
    if special == BOTH_TEAMS:
        hand.special = BOTH_TEAMS
        hand.value = r.both_teams.value
        hand.blind = r.both_teams.blind
    elif special == ONE_TEAM:
        hand.special = ONE_TEAM
        hand.special_team = team
        hand.value = r.one_team.value
        hand.blind = r.one_team.blind


@condition("needs_decision")
def _needs_decision(ev: Any) -> bool:
    """M5: the hand about to be dealt is a mão de dez with a decision."""
    m = ev.model
    return bool(special_for(m.rules, m.score)[0] == ONE_TEAM and m.rules.one_team.decision)


@effect("deal_next")
def _deal_next(ev: Any) -> None:
    """On entering ``deal``: the chance step comes at once where the match has the cards."""
    ev.model.deal_next()


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    out = []
    if has_decision(rules):
        out.append({"trigger": "deal", "source": "deal", "dest": "decide",
                    "conditions": ["legal_deal", "needs_decision"], "before": ["deal"]})
    out.append({"trigger": "deal", "source": "deal", "dest": "play",
                "conditions": ["legal_deal"], "before": ["deal"]})
    return out


KIND = register(MoveKind(
    name="deal", order=-1, judge=_judge, effect=_effect, transitions=_transitions,
    not_now={None: "no deal is awaited now"},
    keys=("players", "cards_per_player", "deck", "special_hands")))
