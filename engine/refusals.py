"""Why a move is refused, told to the player who typed it, in his language, with the rule
that refuses it: the engine's reason (:class:`engine.errors.Why`) read by its stable code
(docs/error-codes.md), the move's card and seat put into the sentence's person ("you do not
hold 6♦"); a code with no sentence of its own keeps the engine's words."""

from __future__ import annotations

from engine.actions import Action
from engine.cards import card_name
from engine.game import Match
from engine.i18n import _, person
from engine.moves.names import RAISE_KIND
from engine.tui import seat_label
from engine.words import pretty


def _special_rule(match: Match) -> tuple[str, str]:
    """The special hand being played: its name and its rules' ids (P5, M5 where one team is
    at the score; P6, M6 where all are)."""
    rule = match.hand.rule
    name = rule.name if rule is not None else ""
    ids = "P5, M5" if rule is not None and rule.teams == "exactly_one" else "P6, M6"
    return name, ids


def no_raise_now(match: Match) -> str:
    """Why no raise can be typed now: the special hand that forbids it, with its rule, or
    the plain fact."""
    if match.hand.rule is not None and match.hand.rule.raises != "allowed":
        name, ids = _special_rule(match)
        return _("no raise is allowed in the {hand} ({rules})").format(hand=name, rules=ids)
    return _("no raise is possible now")


def refusal(code: str, text: str, action: Action, match: Match, me: int,
            names: list[str] | None = None) -> str:
    """The refusal of ``action`` (the engine's ``code`` and English ``text``) as seat ``me``
    reads it."""
    mine = action.seat == me
    who = seat_label(action.seat, me, names, match.rules.team_of)
    card = pretty(card_name(action.card)) if action.card is not None else ""
    if code == "card_not_held":
        return person(mine, _("you do not hold {card}"), _("{who} does not hold {card}"),
                      who=who, card=card)
    if code == "bound_card":
        bound = match.hand.bound[action.seat]
        shown = pretty(card_name(bound)) if bound is not None else card
        return person(mine, _("you raised with {card} and must play it (M4)"),
                      _("{who} raised with {card} and must play it (M4)"), who=who, card=shown)
    if code == "raise_not_allowed":
        return no_raise_now(match)
    if code == "not_your_turn":
        if action.kind == RAISE_KIND:
            return _("a raise only on your own turn (P4, G16)")
        return _("it is not your turn: {who} plays").format(
            who=seat_label(match.turn, me, names, match.rules.team_of))
    if code == "decision_first" or text == "the special hand's decision comes first":
        return _("the {hand}'s decision comes first (M5)").format(hand=_special_rule(match)[0])
    if code == "ladder_exhausted":
        top = match.rules.ladder[-1].name if match.rules.ladder else ""
        return _("the ladder stops at {step} (C8)").format(step=top)
    if text == "no raise is possible now":
        return no_raise_now(match)
    said = _sentences().get(code) or _sentences().get(text)
    return said if said is not None else _(text)


def _sentences() -> dict[str, str]:
    """The player's sentence for a refusal, by the engine's code or its English words (a
    move's ``not_now``), with its rule."""
    return {
        "covered_not_allowed": _("this variant has no covered cards (P7)"),
        "same_team_raised_last": _("a team cannot raise twice in a row (C10)"),
        "bound_card_covered": _("a card shown with a raise cannot be covered (M4)"),
        "card_not_named": _("the raiser names the card he raises with (M4)"),
        "no_card_to_name": _("a seat with no card left cannot raise (M4)"),
        "not_challenged": _("only the challenged team may raise back (C9, G17)"),
        "no_raise_when_winning": _("no raise while your team is winning the hand "
                                   "(betting.no_raise_when_winning)"),
        "bet_closed_by_truco": _("a truco was called: no envido now (GH8)"),
        "no raise is waiting for an answer": _("no raise is waiting for an answer (C9, G18)"),
        "a raise is waiting for its answer": _("a raise is waiting for its answer: accept it, "
                                               "fold or raise back (C9, G19)"),
        "no side bet's call is waiting for its answer": _(
            "no envido or flor is waiting for its answer (G27, G39)"),
        "no decision is awaited": _("no decision is awaited (M5)"),
        "no side bet may be called now": _(
            "no envido may be called now: only in round 1, before your card and before a "
            "truco is accepted (G24, G25)"),
        "no flor is sung now": _("no flor is sung now (G35)"),
        "no card is awaited": _("no card is awaited now"),
        "no concede in this variant (concede.allowed)": _(
            "no concede in this variant (concede.allowed)"),
    }
