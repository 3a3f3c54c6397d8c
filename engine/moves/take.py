"""``take`` (a house rule, ``cut.refusable``): a card taken at the cut that the cutter may
refuse, the 4 of ouros (docs/rules.md, "The cut").

With a seed, a ``bottom`` or ``partner`` cut (:mod:`engine.moves.cut`) whose taken cards (the
deck's bottom ``cut.take`` cards) include one of ``cut.refusable`` does not deal: the match
waits in state ``take`` while the cutter, who alone sees the taken cards, makes one move,
``take SEAT keep`` (the cut's deal, the cards taken) or ``take SEAT refuse`` (the hand dealt as
a corte seco, the cards left in the deck). The seeded shuffle is drawn then, as the cut would
have drawn it: the next hands' cards do not change. The cut and the taken cards wait in the
kind's state (``take`` in a position, the cards seen by the cutter only). Without a seed the
engine does not know the cards: the recorded deal follows the cut, as without the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.actions import Action
from engine.cards import Card, card_name, parse_card
from engine.errors import PositionError, Why
from engine.i18n import _, person
from engine.moves import KindState, MoveKind, Waiting, Words, list_choice, register
from engine.moves.cut import allowed, cutter, dealt, take
from engine.moves.deal import KIND as DEAL
from engine.moves.deal import has_decision, next_pack
from engine.payload import Choice, LogEvent, Payload
from engine.ruling import Ruling, condition, effect
from engine.shuffle import SplitMix64
from engine.state import set_own

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView

#: The kind's name, its state (the phase) and its key in a hand's own state and a position.
NAME = "take"
#: The cuts that take cards.
TAKING = ("bottom", "partner")


class Held(NamedTuple):
    """The kind's state in a hand: the cut that waits (``None``: none) and the cards it takes,
    the bottom one first."""

    cut: str | None
    cards: tuple[Card, ...]


FRESH = Held(None, ())


def refusable(rules: Rules) -> frozenset[Card]:
    """The cards a cut takes only if the cutter keeps them (``cut.refusable``)."""
    return frozenset(parse_card(c) for c in rules.block("cut")["refusable"])


def enabled(rules: Rules) -> bool:
    """Whether the variant's cut may take a card the cutter refuses."""
    return allowed(rules) and bool(rules.block("cut")["refusable"])


def taken(m: MatchView, rng: SplitMix64) -> tuple[Card, ...]:
    """The cards a taking cut would take from the hand's pack drawn from (a copy of) ``rng``
    (:func:`engine.moves.deal.pack`): its bottom ``cut.take`` cards, the bottom one first."""
    return tuple(next_pack(m, rng.copy())[::-1][:take(m.rules)])


def _held(m: MatchView) -> Held:
    own: Held = m.hand.own[NAME]
    return own


@condition("cut_held")
def _holds(move: Action, ruling: Ruling) -> bool:
    """The legal seeded cut ``move`` takes a refusable card: the deal waits for the cutter."""
    m: MatchView = ruling.model
    return (m.rng is not None and move.call in TAKING
            and not refusable(m.rules).isdisjoint(taken(m, m.rng)))


@effect("cut_held")
def _hold(move: Action, ruling: Ruling) -> None:
    """The cut held: nothing dealt, the generator untouched, the taken cards kept."""
    m: MatchView = ruling.model
    assert m.rng is not None and move.call is not None
    set_own(m.hand, NAME, Held(move.call, taken(m, m.rng)))


def _adjust(rules: Rules, transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Before the cut's first transition, one to ``take`` where the cut is held."""
    out: list[dict[str, Any]] = []
    first = True
    for t in transitions:
        if first and t["trigger"] == "cut" and str(t["source"]) == "cut":
            first = False
            out.append({"trigger": "cut", "source": "cut", "dest": NAME,
                        "conditions": ["legal_cut", "cut_seeded", "cut_held"],
                        "before": ["cut_held"]})
        out.append(t)
    return out


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    seat = cutter(m)
    if a.seat != seat:
        return Why("not_the_cutter",
                   f"seat {seat} cut this hand and keeps or refuses its card, not seat {a.seat}")
    return None


def _effect(move: Action, r: Ruling) -> None:
    m: MatchView = r.model
    held = _held(m)
    assert m.rng is not None and held.cut is not None
    set_own(m.hand, NAME, FRESH)
    cut = Action("cut", move.seat, call=held.cut if move.play_on else "seco")
    DEAL.effect(dealt(m, cut, m.rng), r)


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    list_choice(NAME, cutter(m), seat, out)


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if has_decision(rules):
        out.append({"trigger": NAME, "source": NAME, "dest": "decide",
                    "conditions": [f"legal_{NAME}", "needs_decision"], "before": [NAME]})
    out.append({"trigger": NAME, "source": NAME, "dest": "play",
                "conditions": [f"legal_{NAME}"], "before": [NAME]})
    return out


# -- the kind's state in a position and an observation ------------------------------------
def _export(held: Held) -> dict[str, Any]:
    return {"cut": held.cut, "cards": [card_name(c) for c in held.cards]}


def _read(given: dict[str, Any]) -> Held:
    return Held(given["cut"], tuple(parse_card(c) for c in given["cards"]))


def _view(m: MatchView, seat: int, held: Held) -> dict[str, Any]:
    """The cutter sees the taken cards; every other seat only that a cut waits."""
    return _export(held) if seat == cutter(m) else {"cut": held.cut, "cards": None}


def _shown(m: MatchView, seat: int) -> tuple[Card, ...]:
    """The taken cards, to the cutter while his cut waits (the environment's vector)."""
    held = _held(m) if m.state == NAME else FRESH
    return held.cards if seat == cutter(m) else ()


def _refuse(message: str, at: str = "") -> PositionError:
    return PositionError(Why("bad_take", message), path=f"{NAME}.{at}" if at else NAME)


def _check(m: MatchView, p: dict[str, Any]) -> None:
    """A held cut in a position: exactly in state ``take``, in a variant with
    ``cut.refusable``, of a seeded match; the taking cut's (the schema) cards are those the
    seed's shuffle takes, one of them refusable."""
    given, waits = p.get(NAME), p["state"] == NAME
    if given is None:
        if waits:
            raise _refuse("a cut waits for its cutter in state take: expected take, found none")
        return
    if not enabled(m.rules):
        raise _refuse("this variant has no cut.refusable")
    if not waits:
        raise _refuse(f"a cut waits for its cutter exactly in state take (the state is "
                      f"{p['state']})")
    if m.rng is None:
        raise _refuse("a cut waits for its cutter only in a seeded match (rng)", "cut")
    want = [card_name(c) for c in taken(m, m.rng)]
    if list(given["cards"]) != want:
        raise _refuse(f"expected the cards the seed's shuffle takes ({' '.join(want)}), found "
                      f"{' '.join(given['cards'])}", "cards")
    if refusable(m.rules).isdisjoint(parse_card(c) for c in want):
        raise _refuse(f"none of the taken cards is refusable (cut.refusable): {' '.join(want)}",
                      "cards")


_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["cut", "cards"],
    "description": ("House rule (cut.refusable): the cut that waits, in state take, for its "
                    "cutter to keep or refuse the cards it takes. Left out otherwise. An "
                    "observation shows the cards to the cutter only (null to the others)."),
    "properties": {
        "cut": {"type": "string", "enum": list(TAKING), "description": "The held cut."},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"},
                  "description": "The cards it takes, the deck's bottom one first."}}}
#: What a seat sees of it (:func:`_view`): the cards to the cutter only.
_VIEW_SCHEMA: dict[str, Any] = {**_SCHEMA, "description": (
    "Only where rules cut.refusable (house rule), in phase take: the cut that waits for its "
    "cutter to keep or refuse the cards it takes. The cutter sees the cards; every other seat "
    "null."), "properties": {**_SCHEMA["properties"], "cards": {
        "type": ["array", "null"], "items": {"$ref": "#/$defs/card"},
        "description": ("The cards it takes, the deck's bottom one first; null to every seat "
                        "but the cutter.")}}}


def _table(held: dict[str, Any], card: Callable[[str], str]) -> list[str]:
    """truco play's table: the cards the cut takes, to the cutter (the others see none)."""
    if not held["cards"]:
        return []
    return [_("Your cut takes: {cards}").format(cards=" ".join(card(c) for c in held["cards"]))]


STATE = KindState(NAME, enabled, FRESH, _SCHEMA, check=_check, export=_export, read=_read,
                  view=_view, view_schema=_VIEW_SCHEMA, table=_table, optional=True)


# -- its words ----------------------------------------------------------------------------
def _tell(a: Action, w: Words) -> str:
    mine = a.seat == w.me
    if a.play_on:
        return person(mine, _("you keep the cards the cut takes"),
                      _("{who} keeps the cards the cut takes"), who=w.who)
    return person(mine, _("you refuse the cards the cut takes: corte seco"),
                  _("{who} refuses the cards the cut takes: corte seco"), who=w.who)


def _menu(a: Action, w: Words) -> str:
    return (_("keep the cards the cut takes") if a.play_on
            else _("refuse them (corte seco)"))


KIND = register(MoveKind(
    name=NAME, tell=_tell, menu=_menu, judge=_judge, effect=_effect, lister=_lister,
    transitions=_transitions, adjust=_adjust, enabled=enabled,
    payload=Payload((Choice("keep", yes="keep", no="refuse", doc=(
        "true: the cutter keeps the cards his cut takes; false: he refuses them, the hand "
        "dealt as a corte seco.")),)),
    log=LogEvent(version=2, named="a take move", about=(
        "Move (version 2, variants with cut.refusable): after a seeded cut that takes a "
        "refusable card, the cutter keeps (true) or refuses (false) the cards it takes.")),
    phases=(Waiting(NAME, lambda m: [cutter(m)], pending="take_pending", opens=True,
                    about="the cutter keeps or refuses the cards his cut takes, house rule "
                          "cut.refusable"),),
    not_now={None: "no cut waits for its cutter to keep or refuse its cards"},
    keys=("cut.refusable",), state=STATE, held=_shown, told=_tell,
    hint=(3, lambda legal, rules: "keep/refuse"),
    typed=lambda rules: [(3, ("keep", "fico", "pego"), "keep"),
                         (6, ("refuse", "recuso", "não quero a carta"), "refuse")],
    space=lambda rules: ([((), {"play_on": True}, "take keep"),
                          ((), {"play_on": False}, "take refuse")] if enabled(rules) else [])))
