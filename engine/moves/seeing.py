"""``seeing`` (a house rule): whose cards a seat sees besides his own, as data
(docs/rules.md, "Seeing a partner's cards").

The kind has no move: it is what a seat is shown (its ``sees``, read by
:func:`engine.moves.hands_seen`, the one function the observation and the environment both
read). Its variant key, ``seeing.partners``:

- ``decision`` (the default, today's rule): a partner's cards are seen only during a special
  hand's decision that shows them (M5, ``special_hands.*.show_partner_cards``, the ``decide``
  kind);
- ``special_hand``: where a special hand shows the deciding team its partners' cards, the team
  keeps seeing them through the hand, after the decision (what it saw stays remembered: each
  partner's cards as they are now, those he played being on the table);
- ``always``: partners see each other's hands in every hand (a popular app's rule).

Never in a blind hand (P6: nobody sees a card there, not even his own).

Its key ``seeing.last_hand`` says whether a seat's observation names the cards of the hand that
ended last: ``shown`` (the default, today's rule) or ``hidden`` (the record keeps its hand
number, round results and who played in which round, face up or covered, but names no card,
and no card shown with a raise). Its ``hides_last_hand`` is read by
:func:`engine.moves.last_hand_hidden`, and so by :func:`engine.observation.last_hand_view`;
the environment's vector shows no last hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.errors import VariantError
from engine.i18n import mark
from engine.moves import VariantBlock, choice, moveless

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView

#: The kind's variant block (its key: ``seeing.partners``).
BLOCK_NAME = "seeing"
#: What ``seeing.partners`` may say, the default first.
PARTNERS = ("decision", "special_hand", "always")
#: What ``seeing.last_hand`` may say, the default first.
LAST_HAND = ("shown", "hidden")


def partners(rules: Rules) -> str:
    """When a seat sees his partners' cards (``seeing.partners``)."""
    return str(rules.block(BLOCK_NAME)["partners"])


def _hides_last_hand(rules: Rules) -> bool:
    """Whether observations name no card of the hand that ended last (``seeing.last_hand``)."""
    return bool(rules.block(BLOCK_NAME)["last_hand"] == "hidden")


def _sees(m: MatchView, seat: int) -> list[int]:
    """The seat's team (himself among them) where ``seeing.partners`` shows it now: in every
    hand (``always``) or through a special hand that shows it (``special_hand``); never in a
    blind hand (P6)."""
    rules = m.rules
    when = partners(rules)
    if when == "decision":
        return []  # the decide kind's (M5)
    hand = m.hand
    if hand.blind:
        return []
    team_of = rules.team_of
    if when == "special_hand":
        rule = hand.rule
        if rule is None or not rule.show_partner_cards or team_of[seat] != hand.special_team:
            return []
    team = team_of[seat]
    return [s for s in range(len(team_of)) if team_of[s] == team]


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """The values of ``seeing.partners`` that would show nothing: partners where every team
    is one seat, a special hand's cards where no special hand shows them."""
    when = d["seeing"]["partners"]
    if when == "decision":
        return
    teams = d.get("teams")
    if all(len(t) == 1 for t in teams) if teams else d["players"] == 2:
        yield err(("seeing", "partners"), mark("expected seeing.partners: decision where "
                  "every team is one seat (no partner to see), found {found}"), (("teams",),),
                  found=when)
    elif when == "special_hand" and not any(
            s.get("enabled") and s.get("show_partner_cards") for s in _specials(d)):
        yield err(("seeing", "partners"), mark(
            "expected a special hand with show_partner_cards with seeing.partners: "
            "special_hand (no special hand shows the partners' cards), found special_hand"),
            (("special_hands",),))


def _specials(d: dict[str, Any]) -> list[dict[str, Any]]:
    """The variant's special hands, whichever way it writes them (a list, or the two named)."""
    specials = d["special_hands"]
    if isinstance(specials, list):
        return [{"enabled": True, **s} for s in specials]
    return [s for s in specials.values() if isinstance(s, dict)]


BLOCK = VariantBlock(BLOCK_NAME, checks=_checks, about=(
    "House rule: whose cards a seat sees besides his own, and whether it sees the last hand's. "
    "Absent: a partner's cards only in a special hand's decision that shows them (M5); the "
    "last hand's cards shown."), keys={
    "partners": choice(PARTNERS, (
        "House rule: when a seat sees his partners' cards. decision: only during a special "
        "hand's decision that shows them (special_hands.*.show_partner_cards, M5); "
        "special_hand: through such a special hand, after the decision too, for the "
        "deciding team; always: partners see each other's hands in every hand. Never in "
        "a blind hand (P6). Default decision.")),
    "last_hand": choice(LAST_HAND, (
        "House rule: whether an observation names the cards of the hand that ended last. "
        "shown: its record names the cards played face up and shown with a raise; hidden: "
        "it keeps the hand's number, its rounds' results and who played in which round "
        "(face up or covered) but names no card. Default shown.")),
})


KIND = moveless(
    __name__, "it is what a seat is shown of his partners' cards",
    # its sees and hides_last_hand act where its keys say
    block=BLOCK, sees=_sees, hides_last_hand=_hides_last_hand,
    shows=lambda rules: partners(rules) != "decision",  # else the decide kind's (M5)
    keys=("seeing.partners", "seeing.last_hand", "special_hands.one_team.show_partner_cards"))
