"""``cut`` (catalogue #36, a house rule): before each deal the cutter chooses what his cut does
to the deck (docs/rules.md, "The cut").

The cutter is the dealer's previous seat in playing order (the mão is his next). In state
``cut``, where every hand of the variant begins, the cutter makes one move, ``cut SEAT CHOICE``:

- ``seco`` (*corte seco*): a plain cut; the hand is dealt as the seed deals it;
- ``burn`` (*queimar*): the top card of the deck is burnt (shown, out of the hand) and the deal
  starts from the next card;
- ``bottom``: the cutter takes the deck's bottom card as one of his cards and is dealt one card
  fewer from the top (``cut.take``: that many bottom cards, the bottom one first);
- ``partner``: the same for the cutter's partner (his team's next seat after him in playing
  order), offered only where he has one;
- ``sobe``: the pack is dealt from the bottom up (the cutter's "sobe"; ``seco`` is his
  "desce", from the top down), offered only where ``cut.choices`` lists it.

With a seed, the deck is the seeded shuffle of the hand (docs/log-format.md), the whole of it,
so the generator moves on as it does without a cut: the choice changes this hand's cards only,
and ``seco`` deals exactly the cards of a variant without a cut. The cut deals the hand at once
(the ``deal`` kind's effect). Without a seed the cut is recorded and the match then waits in
``deal`` for the recorded deal, which the engine cannot check against the choice; an explicit
deal given in state ``cut`` (:meth:`~engine.game.Match.deal`) leaves the cut out.

The variant keys: ``cut.allowed``, ``cut.choices`` (which of them, in the order they are
offered), ``cut.take``, ``cut.in_special_hands`` and ``cut.refusable`` (cards a cut takes only
if the cutter keeps them: :mod:`engine.moves.take`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action
from engine.cards import Card
from engine.errors import VariantError, Why
from engine.i18n import _, mark, person
from engine.moves import MoveKind, VariantBlock, Waiting, Words, flag, register, words
from engine.moves.deal import KIND as DEAL
from engine.moves.deal import (
    VIRA,
    deal_pack,
    has_decision,
    next_pack,
    packets,
    special_for,
    vira_from,
)
from engine.payload import LogEvent, NotationError, Payload, Text
from engine.ruling import Ruling, condition, effect
from engine.shuffle import SplitMix64
from engine.state import NORMAL

if TYPE_CHECKING:
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import MatchView

#: The state in which a hand waits for its cut (:data:`engine.state.Phase.CUT`).
PHASE = "cut"
#: The cutter's choices, as the notation and the log write them.
CHOICES = ("seco", "burn", "bottom", "partner", "sobe")
#: The choices offered where ``cut.choices`` is left out.
DEFAULT_CHOICES = CHOICES[:4]


@dataclass(frozen=True)
class Word(Text):
    """One word of a fixed list (the cut's choice), in the ``call`` slot: logged as a string of
    the list (an ``enum`` in the log schema), written and read as one word."""

    slot: ClassVar[str] = "call"
    words: tuple[str, ...] = CHOICES

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string", "enum": list(self.words)}
        return {**out, "description": self.doc} if self.doc else out

    @property
    def want(self) -> str:
        return f"a {self.key}: {', '.join(self.words)}"

    @property
    def form(self) -> str:
        return "|".join(self.words)

    def ok(self, value: Any) -> bool:
        return value in self.words

    def read(self, words: list[str], at: int, into: dict[str, Any]) -> int:
        word = words[at] if at < len(words) else None
        if word not in self.words:
            found = repr(word) if word is not None else "the end of the move"
            raise NotationError(f"expected a {self.key} ({', '.join(self.words)}) after "
                                f"{' '.join(words[:at])!r}, found {found}")
        into[self.slot] = word
        return at + 1


def allowed(rules: Rules) -> bool:
    """Whether the variant has the cut (``cut.allowed``)."""
    return bool(rules.block(BLOCK.name)["allowed"])


def offered(m: MatchView) -> bool:
    """Whether the cutter is offered the cut of the hand about to be dealt: always, or, with
    ``cut.in_special_hands: false``, in a normal hand only (not in a mão de 11 or de dez)."""
    return (bool(m.rules.block(BLOCK.name)["in_special_hands"])
            or special_for(m.rules, m.score)[0] == NORMAL)


def choices(rules: Rules) -> list[str]:
    """The cutter's choices, in the order they are offered (``cut.choices``)."""
    return list(rules.block(BLOCK.name)["choices"])


def take(rules: Rules) -> int:
    """How many bottom cards a ``bottom`` or ``partner`` cut takes (``cut.take``)."""
    return int(rules.block(BLOCK.name)["take"])


def cutter(m: MatchView) -> int:
    """The seat that cuts this hand: the dealer's previous seat in playing order."""
    return (m.dealer - 1) % m.rules.players


def partner_of(rules: Rules, seat: int) -> int | None:
    """The seat's partner who takes the bottom card: his team's next seat after him in playing
    order; ``None`` where his team is he alone."""
    n, team_of = rules.players, rules.team_of
    return next((s for s in ((seat + k) % n for k in range(1, n))
                 if team_of[s] == team_of[seat]), None)


def cut_deal(cards: Sequence[Card], players: int, cards_each: int, dealer: int, vira: bool,
             choice: str, taker: int | None = None, vira_at: str = VIRA[0],
             packs: Sequence[int] | None = None,
             taking: int = 1) -> tuple[list[list[Card]], Card | None]:
    """The hands (by seat) and the vira dealt from the shuffled deck ``cards`` (top first) after
    a cut of ``choice``, ``taker`` being the seat that takes the bottom card (``bottom``,
    ``partner``): the rest of the pack dealt as the variant deals it (``vira_at``, ``packs``:
    :func:`engine.moves.deal.deal_pack`), by default consecutive slices from the mão
    (dealer + 1) round to the dealer, the taker's one card shorter and after the bottom card,
    then the vira, the next card from the top. ``sobe`` deals the pack from the bottom up.
    ``taking`` bottom cards are taken (``cut.take``), the bottom one first.

    >>> cut_deal(list(range(10)), 2, 3, 0, True, "seco")
    ([[3, 4, 5], [0, 1, 2]], 6)
    >>> cut_deal(list(range(10)), 2, 3, 0, True, "burn")
    ([[4, 5, 6], [1, 2, 3]], 7)
    >>> cut_deal(list(range(10)), 2, 3, 0, True, "bottom", 1)
    ([[2, 3, 4], [9, 0, 1]], 5)
    >>> cut_deal(list(range(10)), 2, 3, 0, True, "sobe")
    ([[6, 5, 4], [9, 8, 7]], 3)
    >>> cut_deal(list(range(10)), 2, 3, 0, True, "bottom", 1, taking=2)
    ([[1, 2, 3], [9, 8, 0]], 4)
    """
    top = list(cards[1:] if choice == "burn" else cards[::-1] if choice == "sobe" else cards)
    bottom = [top.pop() for _ in range(taking)] if choice in ("bottom", "partner") else []
    return deal_pack(top, players, cards_each, dealer, vira_at if vira else None, packs,
                     bottom, taker)


def _taker(m: MatchView, seat: int, choice: str) -> int | None:
    if choice == "bottom":
        return seat
    return partner_of(m.rules, seat) if choice == "partner" else None


def _judge(m: MatchView, a: Action, r: Ruling) -> str | None:
    seat = cutter(m)
    if a.seat != seat:
        return Why("not_the_cutter",
                   f"seat {seat} cuts this hand (the dealer's previous seat), not seat {a.seat}")
    choice = a.call
    allowed = choices(m.rules)
    if choice not in allowed and not (choice == "seco" and not offered(m)):
        return Why("cut_not_allowed",
                   f"no {choice} cut in this variant (cut.choices: {', '.join(allowed)})")
    if choice == "partner" and partner_of(m.rules, seat) is None:
        return Why("no_partner", f"seat {seat} has no partner to give the bottom card to")
    return None


def dealt(m: MatchView, move: Action, rng: SplitMix64) -> tuple[list[list[Card]], Card | None]:
    """The hands and vira the seeded cut ``move`` deals, drawing the hand's shuffle from
    ``rng``."""
    rules = m.rules
    assert move.call is not None
    # the whole pack: the generator moves on as without a cut (deal.pack: made, the last
    # hand's face-up cards on top)
    cards = next_pack(m, rng)
    return cut_deal(cards, rules.players, rules.cards_per_player, m.dealer, rules.has_vira,
                    move.call, _taker(m, move.seat, move.call), vira_from(rules) or VIRA[0],
                    packets(rules), take(rules))


def seeded_cut_deal(m: MatchView, move: Action) -> tuple[list[list[Card]], Card | None] | None:
    """The hands and vira the seeded cut ``move`` is about to deal (the match's generator left
    as it is), what a condition before the cut's effect sees of its deal (a flor due, G35);
    ``None`` without a seed (the recorded deal follows)."""
    return None if m.rng is None else dealt(m, move, m.rng.copy())


def _effect(move: Action, r: Ruling) -> None:
    m: MatchView = r.model
    if m.rng is None:  # the recorded deal follows, in state deal
        return
    DEAL.effect(dealt(m, move, m.rng), r)


@effect("cut_unoffered")
def _unoffered(move: Any, ruling: Ruling) -> None:
    """On entering ``cut``: a cut not offered (``cut.in_special_hands: false``, a special hand)
    is a corte seco the engine makes at once, not logged (a replay makes it again), whatever
    ``cut.choices`` lists; the hand is dealt as without the house rule."""
    m: MatchView = ruling.model
    if not offered(m):
        m.chance(KIND.name, Action(KIND.name, cutter(m), call="seco"))


@condition("cut_seeded")
def _seeded(move: Any, ruling: Ruling) -> bool:
    """The match deals from its seed: the cut deals the hand at once."""
    return ruling.model.rng is not None


def _lister(m: MatchView, seat: int | None, out: list[Action]) -> None:
    s = cutter(m)
    if seat is not None and seat != s:
        return
    has_partner = partner_of(m.rules, s) is not None
    out.extend(Action("cut", s, call=c) for c in choices(m.rules)
               if c != "partner" or has_partner)


def _transitions(rules: Rules) -> list[dict[str, Any]]:
    seeded = ["legal_cut", "cut_seeded"]
    out: list[dict[str, Any]] = []
    if has_decision(rules):  # as the deal's own transitions (engine.moves.deal)
        out.append({"trigger": "cut", "source": "cut", "dest": "decide",
                    "conditions": [*seeded, "needs_decision"], "before": ["cut"]})
    out.append({"trigger": "cut", "source": "cut", "dest": "play", "conditions": seeded,
                "before": ["cut"]})
    out.append({"trigger": "cut", "source": "cut", "dest": "deal", "conditions": ["legal_cut"],
                "before": ["cut"]})  # no seed: the recorded deal follows
    return out


def _adjust(rules: Rules, transitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every hand's end goes to ``cut`` instead of ``deal``: the next hand begins with its cut.
    And a match without a seed may be given its deal there (``Match.deal``), the cut left out:
    the deal's own transitions, from ``cut`` too."""
    out = [{**t, "dest": "cut"} if t["dest"] == "deal" and t["trigger"] != "cut" else t
           for t in transitions]
    return out + [{**t, "source": "cut"} for t in out
                  if t["trigger"] == "deal" and t["source"] == "deal"]


def _tell(a: Action, w: Words) -> str:
    mine, call, n = a.seat == w.me, a.call or "seco", take(w.rules)
    if n > 1 and call in ("bottom", "partner"):
        return _told_several(mine, call, n, w)
    you, other = {
        "seco": (_("you cut (corte seco)"), _("{who} cuts (corte seco)")),
        "burn": (_("you cut: burn the top card"), _("{who} cuts: burns the top card")),
        "bottom": (_("you cut: take the bottom card"), _("{who} cuts: takes the bottom card")),
        "partner": (_("you cut: give the bottom card to your partner"),
                    _("{who} cuts: gives the bottom card to his partner")),
        "sobe": (_("you cut: sobe, deal from the bottom"),
                 _("{who} cuts: sobe, deal from the bottom")),
    }[call]
    return person(mine, you, other, who=w.who)


def _told_several(mine: bool, call: str, n: int, w: Words) -> str:
    """A ``bottom`` or ``partner`` cut that takes ``n`` cards, ``n`` > 1 (``cut.take``; one
    card is told in the singular's own words), told."""
    you, other = (
        (_("you cut: take the {n} bottom cards"), _("{who} cuts: takes the {n} bottom cards"))
        if call == "bottom" else
        (_("you cut: give the {n} bottom cards to your partner"),
         _("{who} cuts: gives the {n} bottom cards to his partner")))
    return person(mine, you, other, who=w.who, n=n)


def _menu(a: Action, w: Words) -> str:
    n = take(w.rules)
    if n > 1 and a.call in ("bottom", "partner"):
        return (_("take the {n} bottom cards") if a.call == "bottom"  # n > 1: the plural
                else _("give the {n} bottom cards to your partner")).format(n=n)
    return {"seco": _("corte seco (a plain cut)"), "burn": _("queimar (burn the top card)"),
            "bottom": _("take the bottom card"),
            "partner": _("give the bottom card to your partner"),
            "sobe": _("sobe (deal from the bottom of the pack)")}[a.call or "seco"]


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """``cut.in_special_hands: false`` without the cut: a key with no effect; so is
    ``cut.take`` above 1 without a cut that takes, and it cannot take more than a hand."""
    cut = d["cut"]
    if not cut["in_special_hands"] and not cut["allowed"]:
        yield err(("cut", "in_special_hands"), mark(
            "expected cut.allowed: true with in_special_hands: false (there is no cut), found "
            "cut.allowed false"), (("cut", "allowed"),))
    if cut["take"] > 1 and not (cut["allowed"] and {"bottom", "partner"} & set(cut["choices"])):
        yield err(("cut", "take"), mark(
            "expected cut.allowed: true and bottom or partner among cut.choices with take: "
            "{take} (no cut takes a card), found allowed: {allowed}, choices: {choices}"),
            (("cut", "allowed"), ("cut", "choices")), take=cut["take"],
            allowed=str(cut["allowed"]).lower(), choices=", ".join(cut["choices"]))
    if cut["refusable"] and not (cut["allowed"] and {"bottom", "partner"} & set(cut["choices"])):
        yield err(("cut", "refusable"), mark(
            "expected cut.allowed: true and bottom or partner among cut.choices with refusable "
            "cards (no cut takes a card), found allowed: {allowed}, choices: {choices}"),
            (("cut", "allowed"), ("cut", "choices")), allowed=str(cut["allowed"]).lower(),
            choices=", ".join(cut["choices"]))
    if cut["refusable"] and any(
            b.get("kind") == "flor" and b.get("played", True) for b in d["side_bets"].values()):
        yield err(("cut", "refusable"), mark(
            "expected no flor with cut.refusable (a flor is due at the deal, not after a "
            "refused card), found a flor side bet"), (("side_bets",),))
    if cut["take"] > d["cards_per_player"]:
        yield err(("cut", "take"), mark("expected cut.take at most cards_per_player "
                  "({most}), found {take}"), (("cards_per_player",),),
                  most=d["cards_per_player"], take=cut["take"])


#: The kind's variant keys (``cut.allowed``, ``cut.choices``, ``cut.in_special_hands``,
#: ``cut.take``).
BLOCK = VariantBlock("cut", checks=_checks, about=(
    "House rule, catalogue #36 (the cut, per the Copag rules): before each deal the cutter "
    "(the dealer's previous seat in playing order) chooses what his cut does to the seeded "
    "deck. Absent: no cut, the seeded deal stands for shuffle and cut."), keys={
    "allowed": flag(
        "House rule: before each hand the cutter makes a cut move (cut SEAT CHOICE), one of "
        "choices, and the hand is dealt from the seeded deck as the choice says. Default "
        "false."),
    "choices": words(CHOICES, DEFAULT_CHOICES, (
        "House rule: the cuts the cutter may choose, in the order they are offered: seco "
        "(corte seco, the deal as the seed deals it; the cutter's desce), burn (the top card "
        "is burnt, shown and out of the hand), bottom (the cutter takes the deck's bottom card "
        "as one of his cards), partner (the bottom card goes to the cutter's partner; not "
        "offered where he has none), sobe (the pack dealt from the bottom up). Default the "
        "first four: seco, burn, bottom, partner.")),
    "in_special_hands": {
        "type": "boolean", "default": True,
        "description": (
            "House rule: whether the cut is offered in a special hand (mão de 11, mão de "
            "dez) too. false: there the hand is dealt as a corte seco at once, no cut move. "
            "Default true.")},
    "take": {
        "type": "integer", "minimum": 1, "default": 1,
        "description": (
            "House rule: how many cards a bottom or partner cut takes from the bottom of the "
            "deck, the bottom one first; the taker is dealt as many fewer. At most "
            "cards_per_player. Default 1.")},
    "refusable": {
        "type": "array", "uniqueItems": True, "default": [],
        "items": {"type": "string", "pattern": "^([A2-9TJQK][cdhs]|X[1-9][0-9]*)$"},
        "description": (
            "House rule: cards a bottom or partner cut may take only if the cutter wants "
            "them (the 4 of ouros: [4d]). With a seed, when a card the cut takes is one of "
            "them, the deal waits: the cutter, who alone sees the taken cards, keeps them "
            "(take SEAT keep, the cut's deal) or refuses them (take SEAT refuse, the hand "
            "dealt as a corte seco). Not with flor. Default [] (none).")},
})


def cut(seat: Any, choice: Any) -> Action:
    """The cutter's choice before the deal (a house rule, catalogue #36): ``seco``, ``burn``,
    ``bottom``, ``partner`` or ``sobe``."""
    return Action("cut", seat, call=choice)

KIND = register(MoveKind(
    name="cut", tell=_tell, menu=_menu, order=10, judge=_judge, effect=_effect, lister=_lister,
    transitions=_transitions, adjust=_adjust,
    enabled=allowed,
    payload=Payload((Word(key="choice", what="a cut", doc=(
        "seco (a plain cut), burn (the top card is burnt), bottom (the cutter takes the "
        "bottom card), partner (the bottom card to the cutter's partner), sobe (the pack "
        "dealt from the bottom up).")),), factories=(cut,)),
    log=LogEvent(place=11, version=2, named="a cut move",
                 about=("Move (version 2, variants with cut.allowed): before the hand's deal the "
                        "cutter (the dealer's previous seat) chooses his cut; with a seed the "
                        "hand is dealt from the seeded deck as the choice says.")),
    phases=(Waiting(PHASE, lambda m: [cutter(m)], pending="cut_pending", opens=True,
                    about="the cutter's choice is awaited before the deal, house rule "
                          "cut.allowed", enter=("cut_unoffered",)),),
    not_now={None: "no cut is awaited: the cutter cuts before the deal, once a hand",
             "deal": "the hand is cut already: its deal is awaited"},
    block=BLOCK, keys=("cut.allowed", "cut.choices", "cut.in_special_hands", "cut.take",
                             "cut.refusable"),
    # its words in a log's transcript, and its moves in engine.env's action space (after the
    # side bets' answers, before a blind hand's positions)
    told=_tell,
    space=lambda rules: ([((8, 1), {"call": c}, f"cut {c}") for c in choices(rules)]
                         if allowed(rules) else [])))
