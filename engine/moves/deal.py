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
from engine.errors import Why
from engine.moves import MoveKind, register
from engine.payload import LogEvent
from engine.ruling import Ruling, condition, effect
from engine.state import NORMAL, Phase

if TYPE_CHECKING:
    from engine.game import Match
    from engine.rules import Rules


def special_for(rules: Rules, score: Sequence[int]) -> tuple[int, int | None]:
    """The special hand a hand dealt at ``score`` is (P5, P6, M5, M6, house rules): ``NORMAL``,
    or 1 + the index of the first entry of ``rules.special_hands`` whose condition holds; and
    the one team at its score (``None``: none, or several)."""
    if not rules.special_hands:
        return NORMAL, None
    for i, entry in enumerate(rules.special_hands):
        applies, team = entry.team_for(score)
        if applies:
            return i + 1, team
    return NORMAL, None


def _special_now(m: Match) -> tuple[int, int | None]:
    """:func:`special_for` at the match's score, remembered per score in the variant's move
    table (a deal asks it once or twice a hand; the scores are few)."""
    memo = m.move_table.special_at
    key = tuple(m.score)
    got = memo.get(key)
    if got is None:
        got = memo[key] = special_for(m.rules, key)
    return got


def has_decision(rules: Rules) -> bool:
    """Whether some hand of the variant starts with a decision (M5)."""
    return any(h.decision for h in rules.special_hands)


def decider_seat(rules: Rules, mao: int, team: int) -> int:
    """The first seat of ``team`` in playing order from the mão (a single decider)."""
    n = rules.players
    return next(s for s in ((mao + i) % n for i in range(n)) if rules.team_of[s] == team)


def _judge(m: Match, deal: Deal | tuple[list[list[Card]], Card | None],
           r: Ruling) -> str | None:
    if not isinstance(deal, Deal):
        return None  # the match's own: from the seed, or recorded and checked when queued
    if m.rng is not None:
        return Why("seeded_match", "a seeded match deals from its seed")
    return m.deal_problem(deal, m.dealer)


def _effect(deal: Deal | tuple[list[list[Card]], Card | None], ruling: Ruling) -> None:
    m: Match = ruling.model
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
    special, team = _special_now(m)
    if special != NORMAL:
        entry = r.special_hands[special - 1]
        hand.special = special
        hand.rule = entry
        hand.special_team = team
        hand.value = entry.value
        hand.blind = entry.blind
        if entry.decision and entry.decider == "first_from_mao" and team is not None:
            hand.decider = decider_seat(r, m.mao, team)


@condition("needs_decision")
def _needs_decision(move: Any, ruling: Ruling) -> bool:
    """M5: the hand about to be dealt is a special hand with a decision."""
    m = ruling.model
    special = _special_now(m)[0]
    return special != NORMAL and m.rules.special_hands[special - 1].decision


@effect("deal_next")
def _deal_next(move: Any, ruling: Ruling) -> None:
    """On entering ``deal``: the chance step comes at once where the match has the cards."""
    ruling.model.deal_next()


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    out = []
    if has_decision(rules):
        out.append({"trigger": "deal", "source": Phase.DEAL, "dest": Phase.DECIDE,
                    "conditions": ["legal_deal", "needs_decision"], "before": ["deal"]})
    out.append({"trigger": "deal", "source": Phase.DEAL, "dest": Phase.PLAY,
                "conditions": ["legal_deal"], "before": ["deal"]})
    return out



#: The deal event's fields in the log (a deal is no Action: no payload gives them).
_SCHEMA: dict[str, Any] = {
    "required": ["dealer", "hands"],
    "properties": {
        "dealer": {"$ref": "#/$defs/seat", "description": "The dealer, by rotation."},
        "hands": {"type": "array", "minItems": 1,
                  "items": {"type": "array", "items": {"$ref": "#/$defs/card"}},
                  "description": "One list of cards per seat, indexed by seat."},
        "vira": {"$ref": "#/$defs/card",
                 "description": "The turned card (variants with a vira)."},
    },
}

KIND = register(MoveKind(
    name="deal", order=-1, judge=_judge, effect=_effect, transitions=_transitions,
    not_now={None: "no deal is awaited now"},
    log=LogEvent(place=0,
                 about="Move: the cards of a new hand, the first event of its hand.",
                 schema=_SCHEMA),
    keys=("players", "cards_per_player", "deck", "special_hands")))
