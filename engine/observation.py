"""What a seat may know, as typed plain data: :meth:`engine.game.Match.observation` returns an
:class:`Observation` (a ``TypedDict``: a plain ``dict`` at run time, whose keys and value types
a type checker knows). Its ``legal`` moves are :class:`~engine.actions.Action` values;
:func:`to_json` is the same observation as JSON data, the moves in the log's words (what the
bot protocol sends).

>>> from engine import Match
>>> obs = Match.new("paulista", seed=7).observation(1)
>>> obs["phase"], obs["turn"], obs["hand"], obs["legal"][0]
('play', 1, ['2h', '7h', 'Jh'], Action.play(1, '2h'))
>>> to_json(obs)["legal"][0]
'play 1 2h'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from engine.actions import Action
from engine.cards import Card, card_name
from engine.moves import KINDS, all_phases, hands_seen, kind_states, last_hand_hidden
from engine.moves.bets import Declared as Declared
from engine.moves.bets import SideBetView as SideBetView
from engine.moves.bets import side_view
from engine.moves.names import PLAY_KIND
from engine.moves.play import play_at
from engine.schemas import base_schema, inline_refs
from engine.state import PLAY

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.view import MatchView


class PlayedCard(TypedDict):
    """A card played, as the seat saw it: ``card`` is ``None`` for a covered card it may
    not see (P7), or one played unseen in a blind hand (P6)."""

    round: int
    seat: int
    card: str | None
    covered: bool


class ShownCard(TypedDict):
    """A card shown with a raise (M4)."""

    seat: int
    card: str


class PendingRaise(TypedDict, total=False):
    """The raise waiting for its answer; ``card`` only for the raiser himself (M4);
    ``folded``: the challenged seats that folded it so far, where the whole team must refuse
    (``betting.refusal: whole_team``)."""

    seat: int
    value: int
    name: str
    card: str
    folded: list[int]


class SpecialHand(TypedDict):
    """The special hand in play (P5, P6, M5, M6): its name and the team at the score."""

    name: str
    team: int | None


class LastHand(TypedDict):
    """The public record of the hand that ended last (no card named where
    ``seeing.last_hand: hidden``)."""

    hand_number: int
    played: list[PlayedCard]
    shown: list[ShownCard]
    rounds: list[int | None]


class Observation(TypedDict):
    """Everything one seat may know now; never another seat's hidden cards."""

    seat: int
    team: int
    phase: str
    hand_number: int
    dealer: int
    mao: int
    turn: int | None
    round: int
    #: The seat's own cards (``None`` in a blind hand, P6).
    hand: list[str] | None
    hand_size: int
    #: The partners' cards, during a decision that shows them (M5).
    partner_hands: dict[int, list[str]] | None
    vira: str | None
    manilhas: list[str]
    played: list[PlayedCard]
    rounds: list[int | None]
    value: int
    pending_raise: PendingRaise | None
    last_raise_team: int | None
    shown: list[ShownCard]
    special: SpecialHand | None
    blind: bool
    score: list[int]
    games: list[int]
    #: The seat's legal moves (in a blind hand, P6, a play names a hand position:
    #: :meth:`Action.play_at <engine.actions.Action.play_at>`).
    legal: list[Action]
    last_hand: LastHand | None
    #: The hand's side bets (only in a variant with side bets, G22-G32).
    side_bets: NotRequired[list[SideBetView]]
    #: The seats whose raise against the table binds them to beat it (only in a variant with
    #: ``play.raiser_must_kill``; public: everyone saw the raise and the table).
    must_kill: NotRequired[list[int]]


def observe(m: MatchView, seat: int) -> Observation:
    """What ``seat`` may know of ``m`` now (:meth:`engine.game.Match.observation`)."""
    r = m.rules
    h = m.hand
    team = r.team_of[seat]
    blind = h.blind
    hand = h.hands[seat]
    rule = h.rule
    seen_hands = hands_seen(m, seat)  # by a kind's rule (M5: a decision shows the partners')
    partners: dict[int, list[str]] | None = None
    if seen_hands:
        partners = {s: [card_name(c) for c in h.hands[s]] for s in seen_hands}
    pending: PendingRaise | None = None
    if h.pending is not None:
        ps, pv, pc = h.pending
        pending = {"seat": ps, "value": pv, "name": r.step_name(pv)}
        if pc is not None and ps == seat:
            pending["card"] = card_name(pc)
        if h.refused:  # betting.refusal: whole_team: who folded it so far
            pending["folded"] = list(h.refused)
    special: SpecialHand | None = None
    if rule is not None:
        special = {"name": rule.name, "team": h.special_team}
    legal = m.legal_actions(seat)
    last = last_hand_view(r, m.last_hand, seat)
    obs: Observation = {
        "seat": seat,
        "team": team,
        "phase": m.state,
        "hand_number": m.hand_number,
        "dealer": m.dealer,
        "mao": m.mao,
        "turn": m.round.turn if m.state == PLAY else None,
        "round": m.round.number + 1,
        "hand": None if blind else [card_name(c) for c in hand],
        "hand_size": len(hand),
        "partner_hands": partners,
        "vira": card_name(h.vira) if h.vira is not None else None,
        "manilhas": [card_name(c) for c in r.manilhas_for(h.vira)],
        "played": _public_played(h.played, seat, blind),
        "rounds": list(h.results),
        "value": h.value,
        "pending_raise": pending,
        "last_raise_team": h.last_raise_team,
        "shown": [{"seat": s, "card": card_name(c)} for s, c in h.shown],
        "special": special,
        "blind": blind,
        "score": m.score[:],
        "games": m.games[:],
        "legal": [_blind_view(a, blind_places(m, seat)) for a in legal] if blind else legal,
        "last_hand": last,
    }
    if h.side is not None:  # G22-G32: the side bets, as the seat may know them
        obs["side_bets"] = side_view(m, seat)
    if h.own:  # the kinds' own state, as the seat may see it (must_kill: public)
        seen = cast("dict[str, Any]", obs)
        for own in kind_states(r):
            value = h.own[own.key]
            if own.shown(value):
                seen[own.key] = (own.export(value) if own.view is None
                                 else own.view(m, seat, value))
    return obs


#: The engine's record of the hand that ended last (:attr:`Match.last_hand
#: <engine.game.Match.last_hand>`): its number, cards played, cards shown, results, blind.
LastHandRecord = tuple[int, Sequence[tuple[int, int, Card, bool]], Sequence[tuple[int, Card]],
                       Sequence[int | None], bool]


def last_hand_view(rules: Rules, record: LastHandRecord | None, seat: int) -> LastHand | None:
    """The record of the hand that ended last (:attr:`Match.last_hand
    <engine.game.Match.last_hand>`, ``None`` before the first ends) as ``seat`` sees it under
    ``rules``: its cards as played (:func:`_public_played`) and shown with a raise (M4), or,
    where ``seeing.last_hand: hidden``, no card named: who played in which round, face up or
    covered, and the rounds' results only."""
    if record is None:
        return None
    number, played, shown, rounds, blind = record
    if last_hand_hidden(rules):
        return {"hand_number": number,
                "played": [{"round": rnd + 1, "seat": s, "card": None, "covered": cov}
                           for rnd, s, _, cov in played],
                "shown": [], "rounds": list(rounds)}
    return {"hand_number": number, "played": _public_played(played, seat, blind),
            "shown": [{"seat": s, "card": card_name(c)} for s, c in shown],
            "rounds": list(rounds)}


def _public_played(played: Sequence[tuple[int, int, Card, bool]],
                   seat: int, blind: bool) -> list[PlayedCard]:
    """Cards played, as ``seat`` saw them: a covered card's face only to its player (P7), and
    not even to him in a blind hand, where he played it unseen (P6)."""
    return [{"round": rnd + 1, "seat": s,
             "card": card_name(c) if (not cov or (s == seat and not blind)) else None,
             "covered": cov}
            for rnd, s, c, cov in played]


def blind_places(m: MatchView, seat: int) -> Sequence[Card]:
    """The cards by which ``seat``'s blind hand (P6) numbers its positions: those it holds,
    renumbered after each play (default), or, with ``play.blind_places: dealt`` (house rule),
    those it was dealt, so that a card keeps its number through the hand."""
    h = m.hand
    if m.rules.play.blind_places == "dealt" and h.dealt:
        return h.dealt[seat]
    return h.hands[seat]


def _blind_view(action: Action, places: Sequence[Card]) -> Action:
    """A play of a blind hand (P6) as its seat sees it: by the card's position (0-based) in
    ``places`` (:func:`blind_places`)."""
    if action.kind == PLAY_KIND:
        assert action.card is not None
        return play_at(action.seat, places.index(action.card), action.covered)
    return action


def to_json(observation: Observation) -> dict[str, Any]:
    """The observation as JSON data: the same keys in the same order, the legal moves in the
    log's words (``"play 1 #2 covered"`` for a blind hand's play by position)."""
    return {**observation, "legal": [str(a) for a in observation["legal"]]}


def from_json(data: dict[str, Any]) -> Observation:
    """An observation :func:`to_json` wrote, read back (the seats of ``partner_hands``, which
    JSON made strings, are seat numbers again; the moves are Actions)."""
    obs = dict(data)
    if isinstance(obs.get("partner_hands"), dict):
        obs["partner_hands"] = {int(k): v for k, v in obs["partner_hands"].items()}
    obs["legal"] = [Action.parse(s) for s in obs.get("legal", ())]
    return cast("Observation", obs)  # the engine's own message: trusted


def observation_schema() -> dict[str, Any]:
    """The JSON Schema of an observation as JSON (:func:`to_json`), which the bot protocol's
    ``decision`` and ``judge`` messages hold: the base (``engine/schemabase/observation.json``),
    its ``phase`` (:func:`engine.moves.all_phases`) and, after the base keys, each kind state's
    entry as a seat sees it (:attr:`KindState.view_schema <engine.moves.KindState>`), in the
    kinds' order. ``python -m engine.generate`` writes it into ``schemas/bot-protocol/``."""
    schema = base_schema("observation")
    props = schema["properties"]
    props["phase"] = {"enum": list(all_phases()), **props["phase"]}
    defs = base_schema("position")["$defs"]  # what a position's state schema refers to
    for kind in sorted(KINDS.values(), key=lambda k: k.order):
        if kind.state is not None:
            own = kind.state
            props[own.key] = inline_refs(own.view_schema or own.schema, defs)
    return schema
