"""The chance step: a deal starts the hand (from the seed, from the recorded deals, or an
explicit :class:`~engine.actions.Deal`), and decides which special hand it is (P5, P6, M5, M6).

Its trigger is ``deal``, from the ``deal`` state, whose ``on_enter`` (``deal_next``) makes the
next deal at once where the match has the cards; the hand goes to ``decide`` when it starts
with a decision (M5), else to ``play``.

How a seeded hand's cards go from the pack to the seats and the vira is data, the kind's
variant keys (house rules, docs/rules.md "The deal"; :func:`seeded` is the one function the
chance step, the cut and the log writer's recorded deals call):

- ``deal.vira``: ``after_dealt`` (the default, the seeded deal of docs/log-format.md: the
  card after the dealt ones, the 13th with four players) or ``last`` (the pack's last card);
- ``deal.packets``: how many cards each seat is given at a time, round after round from the
  mão to the dealer (``[1, 1, 1]``: one at a time, *picadas*); left out (``[]``), every
  seat's cards at once (*três a três*), the seeded deal;
- ``deal.pack``: ``shuffled`` (the default: the whole deck shuffled) or ``made`` (the
  *feitura do maço*: from the match's second hand on, the last hand's face-up cards in the
  order they were played on top, the rest of the deck shuffled alone below them,
  :func:`pack`), read from the match's record of the last hand (``Match.last_hand``, which a
  position keeps): no state of its own.

With the three left out a hand is dealt by :func:`engine.shuffle.deal` (the generator's draws
only as far as the cards dealt); otherwise from the whole seeded pack, which a shuffled pack
draws with the same numbers, so the next hands' shuffles do not depend on ``deal.vira`` and
``deal.packets`` (a made pack shuffles fewer cards: it draws fewer).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from engine.actions import Deal
from engine.cards import Card, card_name
from engine.errors import VariantError, Why
from engine.i18n import mark
from engine.moves import MoveKind, VariantBlock, choice, register
from engine.payload import LogEvent
from engine.ruling import Ruling, condition, effect
from engine.shuffle import SplitMix64, fused_deal, shuffle
from engine.shuffle import deal as plain_deal
from engine.state import DEAL, DECIDE, NORMAL, PLAY, Phase

if TYPE_CHECKING:
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules
    from engine.variant.messages import Err
    from engine.view import LastHandRecord, MatchView, Quick


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


def _special_now(m: MatchView) -> tuple[int, int | None]:
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


#: The kind's name.
NAME: Final = "deal"
#: The kind's variant block (``deal.vira``, ``deal.packets``, ``deal.pack``).
BLOCK_NAME = "deal"
#: Where the vira comes from, the default first.
VIRA = ("after_dealt", "last")
#: How the pack is made before a hand, the default first.
PACK = ("shuffled", "made")

Dealt = tuple[list[list[Card]], Card | None]


def vira_from(rules: Rules) -> str | None:
    """Where the vira comes from (``deal.vira``); ``None`` where the variant has none."""
    return str(rules.block(BLOCK_NAME)["vira"]) if rules.has_vira else None


def packets(rules: Rules) -> list[int]:
    """How many cards each seat is given at a time (``deal.packets``); ``[]``: all at once."""
    return [int(p) for p in rules.block(BLOCK_NAME)["packets"]]


def is_plain(rules: Rules) -> bool:
    """Whether the variant deals a shuffled pack as docs/log-format.md's seeded deal does
    (``deal.vira`` and ``deal.packets`` left out)."""
    block = rules.block(BLOCK_NAME)
    return block["vira"] == VIRA[0] and not block["packets"]


def made_part(rules: Rules, last: LastHandRecord | None) -> tuple[Card, ...]:
    """The cards the dealer puts on top of the next hand's pack (``deal.pack: made``, the
    *feitura do maço*): the face-up cards of the hand that ended last, in the order they were
    played (a covered card is left out: it goes into the shuffled rest, unseen). Empty with
    ``deal.pack: shuffled`` and before the match's first hand (no last hand)."""
    if last is None or rules.block(BLOCK_NAME)["pack"] == PACK[0]:
        return ()
    return tuple(card for _, _, card, covered in last[1] if not covered)


def pack(rules: Rules, rng: SplitMix64, top: Sequence[Card] = ()) -> list[Card]:
    """A hand's whole seeded pack, top first: the deck shuffled (docs/log-format.md); with a
    made part ``top`` (:func:`made_part`), those cards, then the rest of the deck, in its
    canonical order without them, shuffled alone (the same Fisher-Yates, ``len - 1`` draws).
    """
    if not top:
        return shuffle(rules.deck, rng)
    on_top = frozenset(top)
    return [*top, *shuffle([c for c in rules.deck if c not in on_top], rng)]


def deal_pack(pack: Sequence[Card], players: int, cards_each: int, dealer: int,
              vira: str | None, packs: Sequence[int] | None = None,
              taken: Sequence[Card] = (), taker: int | None = None) -> Dealt:
    """The hands (by seat) and the vira dealt from ``pack`` (top first): with ``vira`` ``last``
    the pack's last card is turned first; then round after round, a packet of ``packs`` a
    round (all of a seat's cards at once where there are none), each seat from the mão
    (dealer + 1) round to the dealer is given the packet's cards from the top, a seat whose
    hand is full being skipped; with ``vira`` ``after_dealt`` the vira is the next card.
    ``taken``, the cards taken at the cut, are the first cards of ``taker``'s hand, which is
    dealt as many cards fewer.

    >>> deal_pack(list(range(10)), 2, 3, 0, "after_dealt")
    ([[3, 4, 5], [0, 1, 2]], 6)
    >>> deal_pack(list(range(10)), 2, 3, 0, "last", [1, 1, 1])
    ([[1, 3, 5], [0, 2, 4]], 9)
    >>> deal_pack(list(range(10)), 2, 3, 0, "after_dealt", [2, 1], taken=[99], taker=1)
    ([[2, 3, 4], [99, 0, 1]], 5)
    """
    cards = list(pack)
    turned = cards.pop() if vira == "last" else None
    hands: list[list[Card]] = [[] for _ in range(players)]
    if taker is not None:
        hands[taker] += taken
    at = 0
    for size in packs or (cards_each,):
        for i in range(players):
            hand = hands[(dealer + 1 + i) % players]
            k = min(size, cards_each - len(hand))
            hand += cards[at:at + k]
            at += k
    if vira == VIRA[0]:
        turned = cards[at]
    return hands, turned


def next_pack(m: MatchView, rng: SplitMix64) -> list[Card]:
    """The whole seeded :func:`pack` of the hand about to be dealt, drawn from ``rng``: the
    last hand's face-up cards on top where the pack is made (what a cut deals from)."""
    return pack(m.rules, rng, made_part(m.rules, m.last_hand))


def seeded(rules: Rules, rng: SplitMix64, dealer: int,
           last: LastHandRecord | None = None) -> Dealt:
    """The next seeded hand of the variant for ``dealer``, after the hand ``last`` (the
    match's record of it, ``None`` before the first): docs/log-format.md's seeded deal
    (:func:`engine.shuffle.deal`) where the keys are left out, else :func:`deal_pack` of the
    whole seeded :func:`pack` (a shuffled pack leaves the generator where the plain deal
    leaves it)."""
    top = made_part(rules, last)
    if not top and is_plain(rules):
        return plain_deal(rules.deck, rng, rules.players, rules.cards_per_player, dealer,
                          rules.has_vira)
    return deal_pack(pack(rules, rng, top), rules.players, rules.cards_per_player, dealer,
                     vira_from(rules), packets(rules))


class Dealing:
    """The deal kind's table of a variant (``MoveKind.table``): what its seeded deal reads of
    the rules, read once (a deal a hand; compiled, each read of the rules or of their ``deal``
    block is a call into Python)."""

    __slots__ = ("deck", "players", "cards", "vira", "plain", "made")

    def __init__(self, rules: Rules) -> None:
        self.deck = rules.deck
        self.players = rules.players
        self.cards = rules.cards_per_player
        self.vira = rules.has_vira
        #: :func:`is_plain`, and whether the pack is made from the last hand (``deal.pack``).
        self.plain = is_plain(rules)
        self.made = rules.block(BLOCK_NAME)["pack"] != PACK[0]


def seeded_next(m: MatchView, rng: SplitMix64) -> Dealt:
    """:func:`seeded` for the match's next hand (its dealer, after its last hand), read from
    the variant's :class:`Dealing`."""
    t: Dealing = m.move_table.tables[NAME]
    if t.plain and not (t.made and m.last_hand is not None):
        return plain_deal(t.deck, rng, t.players, t.cards, m.dealer, t.vira)
    return seeded(m.rules, rng, m.dealer, m.last_hand)


def _checks(d: dict[str, Any], err: Err) -> Iterator[VariantError]:
    """Packets that do not add up to a seat's cards; a vira's place where there is none."""
    block = d[BLOCK_NAME]
    packs = block["packets"]
    if packs and sum(packs) != d["cards_per_player"]:
        yield err((BLOCK_NAME, "packets"), mark("expected packets adding up to "
                  "cards_per_player ({cards}), found {packets} (adding up to {sum})"),
                  (("cards_per_player",),), cards=d["cards_per_player"], packets=packs,
                  sum=sum(packs))
    if block["vira"] != VIRA[0] and d["manilhas"]["mode"] not in ("vira", "vira_suit"):
        yield err((BLOCK_NAME, "vira"), mark("expected deal.vira: {expected} where no vira is "
                  "turned (manilhas.mode: {mode}), found {found}"), (("manilhas", "mode"),),
                  expected=VIRA[0], mode=d["manilhas"]["mode"], found=block["vira"])


BLOCK = VariantBlock(BLOCK_NAME, checks=_checks, about=(
    "House rules: how the shuffled pack is dealt. Absent: the seeded deal of the log format "
    "(each seat's cards at once from the mão, the vira the next card)."), keys={
    "vira": choice(VIRA, (
        "House rule: where the vira comes from. after_dealt: the card after the dealt ones "
        "(the 13th with four players); last: the pack's last card, turned before the deal "
        "(after the cut's). Only where a vira is turned. Default after_dealt.")),
    "packets": {
        "type": "array", "items": {"type": "integer", "minimum": 1},
        "description": (
            "House rule: how many cards each seat is given at a time, round after round from "
            "the mão to the dealer, adding up to cards_per_player: [1, 1, 1] deals one at a "
            "time (picadas). Empty, the default: every seat's cards at once (tres a tres)."),
        "default": []},
    "pack": choice(PACK, (
        "House rule: how the pack is made before a hand. shuffled: the whole deck shuffled. "
        "made (the feitura do maço): from the match's second hand on, the cards played face "
        "up in the last hand, in the order they were played, go on top, and the rest (the "
        "covered cards, those left in hands, the vira, the undealt) below them, shuffled "
        "alone; then cut and dealt as usual. Default shuffled.")),
})


def made_problem(m: MatchView, deal: Deal) -> str | None:
    """Why the recorded ``deal`` cannot come from the made pack (``deal.pack: made``), or
    ``None``: each card of the made part (all of them dealt: no more cards are played than
    dealt) must be in the hand of the seat ``deal.vira`` and ``deal.packets`` give it to, in
    any order. Only where the hand is dealt without a cut: after an unseeded cut (state
    ``deal``, the hand beginning in ``cut``) the choice is not kept, and the deal is
    trusted."""
    top = made_part(m.rules, m.last_hand)
    if not top or m.state != m.machine.initial:
        return None
    r = m.rules
    hands, _ = deal_pack(range(len(r.deck)), r.players, r.cards_per_player, m.dealer,
                         vira_from(r), packets(r))
    given = {at: seat for seat, places in enumerate(hands) for at in places}
    for at, card in enumerate(top):
        seat = given.get(at)
        if seat is not None and card not in deal.hands[seat]:
            return Why("not_made_pack", f"seat {seat} is not dealt {card_name(card)}, the made "
                       f"pack's card {at + 1} from the top (the last hand's face-up cards, in "
                       f"the order played)")
    return None


def _judge(m: MatchView, deal: Deal | tuple[list[list[Card]], Card | None],
           r: Ruling) -> str | None:
    if not isinstance(deal, Deal):
        return None  # the match's own: from the seed, or recorded and checked when queued
    if m.rng is not None:
        return Why("seeded_match", "a seeded match deals from its seed")
    return m.deal_problem(deal, m.dealer) or made_problem(m, deal)


def _effect(deal: Deal | tuple[list[list[Card]], Card | None], ruling: Ruling) -> None:
    m: MatchView = ruling.model
    if isinstance(deal, Deal):
        hands, vira = [list(h) for h in deal.hands], deal.vira
    else:
        hands, vira = deal
    _place(m, hands, vira, m.rules.strengths(vira))


def _place(m: MatchView, hands: list[list[Card]], vira: Card | None,
           strength: tuple[int, ...]) -> int:
    """A hand's cards dealt into the match (the next hand's number), and the special hand
    they start (P5, P6, M5, M6) set up: its ``special`` (``NORMAL``: none), returned."""
    hand = m.hand
    hand.hands = hands
    hand.dealt = tuple(map(tuple, hands))
    hand.vira = vira
    hand.strength = strength
    m.hand_number += 1
    special, team = _special_now(m)
    if special != NORMAL:
        _special_hand(m, special, team)
    return special


def _special_hand(m: MatchView, special: int, team: int | None) -> None:
    """A special hand dealt (P5, P6, M5, M6): its entry's value, blindness and decider."""
    r = m.rules
    hand = m.hand
    entry = r.special_hands[special - 1]
    hand.special = special
    hand.rule = entry
    hand.special_team = team
    hand.value = entry.value
    hand.blind = entry.blind
    if entry.decision and entry.decider == "first_from_mao" and team is not None:
        hand.decider = decider_seat(r, m.mao, team)


def _quicking(rules: Rules, table: Dealing, enters: dict[str, Any]) -> Quick | None:
    """The deal kind's quick move (``MoveKind.quick``, :mod:`engine.moves.quick`): the next
    hand of a seeded match dealt whole, as :meth:`~engine.game.Match.deal_next` and the
    machine's ``deal`` transitions would deal it (:func:`seeded_next`; in the interpreted
    build the deal written out as one function, :func:`engine.shuffle.fused_deal`), then
    :func:`_effect`'s, and the state set to ``decide`` where the hand starts with a decision
    (M5), else to ``play``. Its move is not read: ``None`` where the match has no seed or is
    not in ``deal``. None where the pack is made from the last hand (``deal.pack: made``) or
    is not dealt plainly (``deal.vira``, ``deal.packets``), or where a state a deal goes to
    runs something on entering it."""
    if not table.plain or table.made or enters.get(PLAY) or enters.get(DECIDE):
        return None
    deck, players, each, vira_on = table.deck, table.players, table.cards, table.vira
    by_dealer = [fused_deal(len(deck), players, each, d, vira_on) for d in range(players)]
    # each card's strength (rules.strengths) by vira, read once: a deal looks it up
    strengths: dict[Card | None, tuple[int, ...]] = (
        {v: rules.strengths(v) for v in deck} if vira_on else {None: rules.strengths(None)})
    special_hands = rules.special_hands

    def quick(m: MatchView, move: Any) -> list[Checkpoint] | None:
        rng = m.rng
        if rng is None or m.state != DEAL:
            return None
        dealer = m.dealer
        got = by_dealer[dealer](deck, rng)
        hands, vira = got if got is not None else plain_deal(deck, rng, players, each, dealer,
                                                              vira_on)
        special = _place(m, hands, vira, strengths[vira])
        m.state = (PLAY if special == NORMAL or not special_hands[special - 1].decision
                   else DECIDE)
        return []

    return quick


@condition("needs_decision")
def _needs_decision(move: Any, ruling: Ruling) -> bool:
    """M5: the hand about to be dealt is a special hand with a decision."""
    m = ruling.model
    special = _special_now(m)[0]
    return special != NORMAL and m.rules.special_hands[special - 1].decision


@effect("deal_next")
def _deal_next(move: Any, ruling: Ruling) -> None:
    """On entering ``deal``: the chance step comes at once where the match has the cards (a
    seeded match's by the kind's quick move, where the variant has it)."""
    m = ruling.model
    quick = m.move_table.quick.get(NAME)
    if quick is None or quick(m, move) is None:
        m.deal_next()


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
    name=NAME, order=-1, judge=_judge, effect=_effect, transitions=_transitions, table=Dealing,
    quick=_quicking,
    not_now={None: "no deal is awaited now"},
    log=LogEvent(place=0,
                 about="Move: the cards of a new hand, the first event of its hand.",
                 schema=_SCHEMA),
    block=BLOCK,
    keys=("players", "cards_per_player", "deck", "special_hands", "deal.vira",
          "deal.packets", "deal.pack")))
