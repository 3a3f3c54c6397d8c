"""Side bets: bets that run beside the truco ladder, described by a variant's ``side_bets``
block (docs/rules.md, "Side bets"; rules G22-G32 of Truco Gaudério and their house options).

A side bet has its own chain of calls (envido, real envido, falta envido), answered by the
other team with quero, não quero or a raise of the chain; a stake table for every legal chain
(accepted / refused); a window in which it may be started (round 1, before the caller's card);
its precedence over a pending truco ("envido está primero"); the points it compares (computed
by the engine from the cards dealt, by a per-card value table); how ties are broken; when the
points are credited and what becomes public. The engine knows only this general form: no bet
or variant name is written in the code, the variant's data says everything.

This module holds the rules' side (:class:`SideBet`, read once from the variant) and the pure
computations (points, the falta's value, the stakes, the declarations); the moves that call and
answer a bet are :mod:`engine.moves.envido`, :mod:`engine.moves.quero` and
:mod:`engine.moves.nao_quero`, and the hand's record of a bet is :class:`BetState`.

Flor (G33-G41) is one more bet of this block (``kind: flor``): its points are 20 + the
three values of a flor (G34, :func:`flor_points`); singing is compulsory (G35, G36), a move
of :mod:`engine.moves.flor` offered alone in the machine's ``sing`` state, which flor
variants' machines enter from the deal, a play, an envido call or a raise to answer; it kills
the bets it names (``kills``, G37); uncontested it pays ``per_flor`` per flor sung (G38);
contested, its chains are the first opposing holder's choices and the raises over them (G39),
with stakes that may be per flor (``flores``) or the falta plus the flores
(``falta_plus_flores``, G40); the flores that scored are shown (``reveal: scored``, G41).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from mypy_extensions import mypyc_attr

from engine.cards import CARD_CODES, RANKS, SUITS, Card, is_extra
from engine.schemas import with_defaults
from engine.slots import interpreted


class Seating(Protocol):
    """What the side bets read of the rules: the seats and their teams (a
    :class:`~engine.rules.Rules` is one)."""

    @property
    def players(self) -> int: ...

    @property
    def team_of(self) -> tuple[int, ...]: ...


#: How the falta's value is read from the score (G29 and the GH7 readings).
Falta = Literal["target_minus_leader", "target_minus_trailer", "first_half_wins_game",
                "leader_to_half", "difference_plus_one"]
#: When a bet's points are credited (G31; GH6).
Credit = Literal["at_once", "end_of_hand"]
#: Who speaks when a bet is accepted (G30's "são boas" protocol; GH18 every value).
Declare = Literal["sao_boas", "all"]
#: Who may start a bet (G24; GH9 the pés only).
Callers = Literal["any", "pes"]
#: What closes a bet for the hand (G25 an accepted truco; GH8 any truco called).
ClosedBy = Literal["accepted", "called"]
#: What becomes public at the end of the hand (G32: the winning declared points' cards; G41:
#: every flor that scored).
Reveal = Literal["winner", "scored", "nothing"]
#: What a bet compares: envido points (G22) or flores (G34).
BetKind = Literal["envido", "flor"]
#: How a flor chain is settled without an answer (G39, G40): compared, or conceded.
AtOnce = Literal["compare", "concede"]
#: A flor stake (G40): a number, the falta (G29), ``per_flor`` per flor sung by the scoring
#: team (``flores``), or the falta plus ``per_flor`` per flor sung by both (``falta_plus_flores``).
Stake = int | str

#: A chain's accepted value that is the falta (G29), not a number.
FALTA = "falta"
#: A flor stake: ``per_flor`` per flor the scoring team sang (G38, G40).
FLORES = "flores"
#: A flor stake: the falta plus ``per_flor`` per flor sung by both teams (G40's ao resto).
FALTA_PLUS_FLORES = "falta_plus_flores"


@mypyc_attr(native_class=False)  # compiled (build_native.py): a Python class, to unpickle
@dataclass(frozen=True)
class FlorChain:
    """One flor chain (G39, G40): the stake when compared (``accepted``), when refused
    (``refused``, ``None`` where nobody answers it), and ``at_once``: settled without an
    answer, by comparing (the plain "flor") or as conceded to the first singer (me achico)."""

    calls: tuple[str, ...]
    accepted: Stake
    refused: Stake | None
    at_once: AtOnce | None


@mypyc_attr(native_class=False)  # compiled (build_native.py): a Python class, to unpickle
@dataclass(frozen=True)
class Chain:
    """One legal chain of calls (G27) and its stakes (G28): ``accepted`` (an int, or ``None``
    for the falta, G29) is what the winner scores when the last call is accepted; ``refused``
    what the last caller's team scores when it is refused."""

    calls: tuple[str, ...]
    accepted: int | None
    refused: int


@mypyc_attr(native_class=False)  # compiled (build_native.py): a Python class, to unpickle
@dataclass(frozen=True)
class SideBet:
    """One side bet of the variant (``side_bets.<name>``): see the module docstring. Every
    field names the rule it expresses in the schema's descriptions."""

    name: str
    kind: BetKind
    #: The calls, as players say them, in the order menus offer them (G27).
    calls: tuple[str, ...]
    #: Every legal chain, keyed by its calls (G27, G28); every prefix of a chain is a chain.
    chains: dict[tuple[str, ...], Chain]
    falta: Falta  # G29, GH7
    #: The 0-based round in which the bet may be started (G24: round 1).
    round: int
    callers: Callers  # G24, GH9
    closed_by_truco: ClosedBy  # G25, GH8
    #: Whether the answerer of a pending first truco step may call instead (G26).
    truco_precedence: bool
    #: The points of each card code (G22), 0 for a card not in the table.
    values: tuple[int, ...]
    #: Added to the best two of one suit (G22: 20).
    same_suit_bonus: int
    declare: Declare  # G30, GH18
    credit: Credit  # G31, GH6
    reveal: Reveal  # G32, G50
    #: GH11: what going to the baralho costs more while the bet may still be started.
    open_fold_penalty: int = 0
    #: Flor (G38): what each flor sung is worth uncontested, and the unit of ``flores``.
    per_flor: int = 3
    #: Flor (G37): the bets a flor sung annuls for the hand.
    kills: tuple[str, ...] = ()
    #: Flor (G39, G40): the stakes of every chain of choices and raises.
    flor_chains: dict[tuple[str, ...], FlorChain] | None = None
    #: Flor: when singing is due (G35 ``first_turn``; GH14 ``round_end``).
    timing: Literal["first_turn", "round_end"] = "first_turn"
    #: House (truco de amostra): the points of each piece, by rank: the cards of the vira's
    #: suit of these ranks (``points.pieces.values``); empty: no pieces.
    pieces: tuple[tuple[str, int], ...] = ()
    #: House: a piece is of every suit (``points.pieces.any_suit``).
    pieces_any_suit: bool = False
    #: P1 (house, ``manilhas.stand_in``): the rank whose card of the vira's suit counts the
    #: points of a vira that is a piece.
    stand_in: str | None = None
    #: The card values of each vira, made once (:meth:`table`).
    _tables: dict[Card | None, Table] = field(default_factory=dict, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.name, self.kind, self.calls, tuple(self.chains.values()), self.falta,
                     self.round, self.callers, self.closed_by_truco, self.truco_precedence,
                     self.values, self.same_suit_bonus, self.declare, self.credit, self.reveal,
                     self.open_fold_penalty, self.per_flor, self.kills, self.timing,
                     tuple((self.flor_chains or {}).values()), self.pieces,
                     self.pieces_any_suit, self.stand_in))

    def table(self, vira: Card | None) -> Table:
        """The card values of a hand whose vira is ``vira`` (``None``: no vira): every card at
        its value (G22) but the pieces (house, truco de amostra): the cards of the vira's suit
        of a rank of :attr:`pieces`, the card of :attr:`stand_in` of that suit taking the
        vira's place where the vira is one (the vira itself is in no hand). A piece worth
        ``p`` points adds ``p - same_suit_bonus`` to the cards it makes points with (``p``
        counts the bonus), and counts ``p`` alone; with :attr:`pieces_any_suit` it is of
        every suit."""
        got = self._tables.get(vira)
        if got is None:
            got = self._tables[vira] = self._make_table(vira)
        return got

    def _make_table(self, vira: Card | None) -> Table:
        if not self.pieces or vira is None or is_extra(vira):
            return Table(self.values, frozenset(), frozenset())
        suit = vira // 13 * 13
        values = list(self.values)
        pieces: set[Card] = set()
        for rank, points in self.pieces:
            card = suit + RANKS.index(rank)
            if card == vira:
                if self.stand_in is None:
                    continue
                card = suit + RANKS.index(self.stand_in)
            values[card] = points - self.same_suit_bonus
            pieces.add(card)
        wild = frozenset(pieces) if self.pieces_any_suit else frozenset()
        return Table(tuple(values), frozenset(pieces), wild)

    def next_calls(self, chain: tuple[str, ...]) -> list[str]:
        """The calls that may follow ``chain`` (the first calls for an empty chain), in the
        order of :attr:`calls`."""
        return [c for c in self.calls if (*chain, c) in self.chains]

    def points(self, cards: Sequence[Card], vira: Card | None) -> int:
        """G22: the points of a player's dealt cards in a hand whose vira is ``vira``:
        ``same_suit_bonus`` + the values of the two highest-valued cards of a suit where two
        cards share one (the best such suit), else the highest single value; the pieces (a
        house rule) as :meth:`table` counts them.

        >>> from engine.cards import parse_card
        >>> bet = bet_from_data("envido", {"calls": ["envido"],
        ...                                "chains": [{"calls": ["envido"], "accepted": 2}]})
        >>> bet.points([parse_card(c) for c in ("7d", "6d", "3s")], None)
        33
        """
        return best_points(cards, self, vira)[0]


@mypyc_attr(native_class=False)  # compiled (build_native.py): a Python class, to unpickle
@dataclass(frozen=True)
class Table:
    """The card values of one vira (:meth:`SideBet.table`): what each card code adds to the
    cards it makes points with, the pieces (house: each counts ``same_suit_bonus`` more
    alone), and the pieces that are of every suit."""

    values: tuple[int, ...]
    pieces: frozenset[Card]
    wild: frozenset[Card]

    def single(self, card: Card, bonus: int) -> int:
        """The points of ``card`` alone (G22: its value; a piece its points)."""
        return self.values[card] + (bonus if card in self.pieces else 0)

    def suits(self, cards: Sequence[Card]) -> list[list[Card]]:
        """``cards`` by suit, suits in the order the cards first show them; a piece of every
        suit (house) in each."""
        by_suit: dict[int, list[Card]] = {}
        wild = self.wild
        if not wild:  # every variant but a house rule's: no card of every suit
            for c in cards:
                by_suit.setdefault(c // 13, []).append(c)
            return list(by_suit.values())
        for c in cards:
            by_suit.setdefault(c // 13, [])
            if c not in wild:
                by_suit[c // 13].append(c)
        joker = [c for c in cards if c in wild]
        return [suited + joker for suited in by_suit.values()]


def flor_points(cards: Sequence[Card], bet: SideBet,
                vira: Card | None) -> tuple[int, tuple[Card, ...]] | None:
    """G34: the flor of ``cards`` in a hand whose vira is ``vira`` (three of one suit; the
    best three where more share one): ``bonus`` + the three values, and its cards; ``None``
    without a flor. A piece of every suit (house) makes one with any two.

    >>> from engine.cards import parse_card
    >>> bet = bet_from_data("envido", {"calls": ["envido"],
    ...                                "chains": [{"calls": ["envido"], "accepted": 2}]})
    >>> flor_points([parse_card(c) for c in ("7c", "5c", "4c")], bet, None)[0]
    36
    """
    table = bet.table(vira)
    values = table.values
    best: tuple[int, tuple[Card, ...]] | None = None
    for suited in table.suits(cards):
        if len(suited) >= 3:
            top = tuple(sorted(suited, key=lambda c: (-values[c], c))[:3])
            pts = bet.same_suit_bonus + sum(values[c] for c in top)
            if best is None or pts > best[0]:
                best = (pts, top)
    return best


def best_points(cards: Sequence[Card], bet: SideBet,
                vira: Card | None) -> tuple[int, tuple[Card, ...]]:
    """G22: the points of ``cards`` in a hand whose vira is ``vira`` and the cards that make
    them (two of a suit, or one): :meth:`SideBet.points`."""
    table = bet.table(vira)
    values, bonus = table.values, bet.same_suit_bonus
    best = -1
    made: tuple[Card, ...] = ()
    for suited in table.suits(cards):
        if len(suited) >= 2:
            top = sorted(suited, key=lambda c: (-values[c], c))[:2]
            pts = bonus + values[top[0]] + values[top[1]]
            if pts > best:
                best, made = pts, tuple(top)
    if best < 0:
        if table.pieces:
            top1 = max(cards, key=lambda c: (table.single(c, bonus), -c))
            return table.single(top1, bonus), (top1,)
        top1 = max(cards, key=lambda c: (values[c], -c))
        best, made = values[top1], (top1,)
    return best, made


def shown_set(cards: Sequence[Card], made: Sequence[Card], held: Collection[Card],
              bet: SideBet, vira: Card | None) -> tuple[Card, ...]:
    """G32, G41 (pinned): which cards of ``cards`` make the points ``made`` makes (one card,
    or two or three of one suit) at the end of the hand, when the ones still ``held`` are
    shown. Where other cards of ``cards`` make the same points the same way (``4s 6d 6c``
    declares 6 with either six), the set with the most cards still held, then the first in
    the card order (suits c, d, h, s; in a suit A, 2, ..., K: :data:`engine.cards.SUITS`,
    :data:`engine.cards.RANKS`), compared card by card in that order. Listed as ``made`` lists
    its cards: the highest value first, then in the card order.

    >>> from engine.cards import card_name, parse_card
    >>> hand = [parse_card(c) for c in ("4s", "6d", "6c")]
    >>> bet = bet_from_data("envido", {"calls": ["envido"],
    ...                                "chains": [{"calls": ["envido"], "accepted": 2}]})
    >>> made = best_points(hand, bet, None)[1]
    >>> [card_name(c) for c in shown_set(hand, made, hand, bet, None)]
    ['6c']
    >>> [card_name(c) for c in shown_set(hand, made, hand[:2], bet, None)]
    ['6d']
    """
    table = bet.table(vira)
    values = table.values
    size = len(made)
    suited = size > 1

    def worth(group: Sequence[Card]) -> int:
        if suited:
            return sum(values[c] for c in group)
        return table.single(group[0], bet.same_suit_bonus)

    points = worth(made)
    best: tuple[int, tuple[Card, ...]] | None = None
    for group in itertools.combinations(sorted(cards), size):
        natural = [c for c in group if c not in table.wild]  # a piece of every suit (house)
        if (worth(group) != points
                or (suited and any(c // 13 != natural[0] // 13 for c in natural))):
            continue
        key = (-sum(1 for c in group if c in held), group)
        if best is None or key < best:
            best = key
    assert best is not None, "the cards made these points"
    return tuple(sorted(best[1], key=lambda c: (-values[c], c)))


def falta_value(how: Falta, target: int, score: Sequence[int], winner: int) -> int:
    """G29 (and GH7): what an accepted falta is worth to ``winner`` at ``score``; at least 1.

    >>> falta_value("target_minus_leader", 24, [12, 14], 0)
    10
    >>> falta_value("target_minus_trailer", 24, [12, 14], 0)
    12
    >>> falta_value("difference_plus_one", 24, [12, 14], 0)
    3
    """
    lead = max(score)
    half = target // 2
    if how == "target_minus_leader":
        value = target - lead
    elif how == "target_minus_trailer":
        value = target - min(score)
    elif how == "first_half_wins_game":  # GH7c: both in the first half, the falta wins the game
        value = target - score[winner] if lead < half else target - lead
    elif how == "leader_to_half":  # GH7d: the leader in the first half, what he lacks to it
        value = half - lead if lead < half else target - lead
    else:  # difference_plus_one, GH7e
        value = max(score) - min(score) + 1
    return max(value, 1)


def bet_from_data(name: str, d: dict[str, Any], stand_in: str | None = None) -> SideBet:
    """A :class:`SideBet` from a validated ``side_bets.<name>`` mapping; a key left out takes
    the schema's ``default`` (what G22-G32 pin). ``stand_in``: the variant's
    ``manilhas.stand_in`` (house), the rank that counts the points of a vira that is a piece."""
    d = with_defaults(d, ("side_bets", name))
    kind = d["kind"]
    chains: dict[tuple[str, ...], Chain] = {}
    flor: dict[tuple[str, ...], FlorChain] | None = None
    if kind == "flor":  # G39, G40: stakes that may count flores; refused or settled at once
        flor = {}
        for entry in d["chains"]:
            calls = tuple(entry["calls"])
            flor[calls] = FlorChain(calls, entry["accepted"], entry.get("refused"),
                                    entry.get("at_once"))
            chains[calls] = Chain(calls, None, 0)
    # listed in any order: the prefixes' values first
    for entry in [] if flor is not None else d["chains"]:
        calls = tuple(entry["calls"])
        chains[calls] = Chain(calls, None, 0)
    for entry in sorted([] if flor is not None else d["chains"], key=lambda e: len(e["calls"])):
        calls = tuple(entry["calls"])
        acc = entry["accepted"]
        accepted = None if acc == FALTA else int(acc)
        refused = entry.get("refused")
        if refused is None:  # G28: the chain without its last call, minimum 1
            prev = chains.get(calls[:-1])
            refused = max(prev.accepted or 0, 1) if prev is not None else 1
        chains[calls] = Chain(calls, accepted, int(refused))
    pts = d["points"]
    pieces = pts.get("pieces")  # absent: no pieces
    table = dict(DEFAULT_VALUES, **pts["values"])
    values = [0] * CARD_CODES
    for s in range(len(SUITS)):
        for r, rank in enumerate(RANKS):
            values[s * 13 + r] = int(table.get(rank, 0))
    window = d["window"]
    truco = d["truco"]
    return SideBet(
        name=name, kind=kind, calls=tuple(d["calls"]), chains=chains,
        falta=d["falta"], round=window["round"] - 1, callers=window["callers"],
        closed_by_truco=truco["closes"], truco_precedence=truco["precedence"],
        values=tuple(values), same_suit_bonus=pts["same_suit_bonus"],
        declare=d["declare"], credit=d["credit"],
        # the one default that depends on another key (no schema default can say it)
        reveal=d.get("reveal", "winner" if kind == "envido" else "scored"),
        open_fold_penalty=d["open_fold_penalty"], per_flor=d["per_flor"],
        kills=tuple(d["kills"]), flor_chains=flor, timing=d["timing"],
        # the pieces as a set: the order a file writes them in is no rule (equal rules)
        pieces=tuple(sorted(pieces["values"].items())) if pieces else (),
        pieces_any_suit=bool(pieces and pieces["any_suit"]), stand_in=stand_in)


#: G22 (Notation): A = 1, 2..7 their face value, the figures 0 (and 8, 9, T their face
#: value where a deck has them).
DEFAULT_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                  "T": 0, "J": 0, "Q": 0, "K": 0}


def side_bets_from_data(data: dict[str, Any]) -> tuple[SideBet, ...]:
    """The side bets of a resolved variant with its defaults filled in (as
    :func:`engine.rules.rules_from_data` has it), in the order it lists them (none without
    ``side_bets``; a bet with ``played: false`` is not played, GH12)."""
    stand_in = data["manilhas"]["stand_in"]
    return tuple(bet_from_data(name, d, stand_in)
                 for name, d in data["side_bets"].items() if d["played"])


class BetState:
    """One hand's record of one side bet: its chain so far, who called last, whether it is
    pending, settled, and what it paid."""

    __slots__ = ("bet", "chain", "caller", "pending", "settled", "accepted", "winner", "points",
                 "owed", "shown", "killed", "sung", "holders", "flores")

    def __init__(self, bet: SideBet) -> None:
        self.bet = bet
        #: The calls so far (G27).
        self.chain: tuple[str, ...] = ()
        #: The seat of the last call.
        self.caller: int | None = None
        #: A call waits for its answer.
        self.pending = False
        #: The dispute is over (accepted and compared, or refused): never settled twice.
        self.settled = False
        #: Its last call was accepted (and the points compared), not refused.
        self.accepted = False
        #: The team that won it, and its points.
        self.winner: int | None = None
        self.points = 0
        #: Points won but not yet credited (GH6: credited at the end of the hand).
        self.owed = False
        #: The seat and cards the winner shows at the end of the hand (G32), if any.
        self.shown: tuple[int, tuple[Card, ...]] | None = None
        #: Annulled (flor kills envido, G37).
        self.killed = False
        #: Flor: the seats that sang, in the order they sang (G35, G36).
        self.sung: tuple[int, ...] = ()
        #: Flor: the seats holding a flor, in playing order from the mão (computed once, from
        #: the dealt cards, when first asked: :func:`holders`).
        self.holders: tuple[int, ...] | None = None
        #: Flor: the flores that scored, shown at the end of the hand (G41): (seat, cards).
        self.flores: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def copy(self) -> BetState:
        other = BetState.__new__(BetState) if _BET_BY_NEW else BetState(self.bet)
        # every slot, one by one (a loop of getattr and setattr costs several times more; the
        # search bot clones a hand for every playout): tests/test_invariants.py checks them
        other.bet = self.bet
        other.chain = self.chain
        other.caller = self.caller
        other.pending = self.pending
        other.settled = self.settled
        other.accepted = self.accepted
        other.winner = self.winner
        other.points = self.points
        other.owed = self.owed
        other.shown = self.shown
        other.killed = self.killed
        other.sung = self.sung
        other.holders = self.holders
        other.flores = self.flores
        return other

    @property
    def started(self) -> bool:
        """Whether the dispute was started this hand (one per hand, G24)."""
        return bool(self.chain)


#: Whether :meth:`BetState.copy` may skip ``__init__`` (interpreted: see engine.slots).
_BET_BY_NEW = interpreted(BetState)


def seats_from_mao(rules: Seating, mao: int) -> list[int]:
    """The seats in playing order from the mão."""
    n = rules.players
    return [(mao + k) % n for k in range(n)]


def is_flor(bet: SideBet, cards: tuple[int, ...] | list[int], vira: int | None) -> bool:
    """G34: whether the cards hold a flor (three of one suit; house: a piece of every suit
    makes one with any two of a suit) in a hand whose vira is ``vira``."""
    if len(cards) == 3 and not bet.pieces_any_suit:  # the usual hand: count no suits
        return cards[0] // 13 == cards[1] // 13 == cards[2] // 13
    return flor_points(cards, bet, vira) is not None


def declarations(rules: Seating, bet: SideBet, mao: int,
                 pts: Sequence[int]) -> tuple[list[tuple[int, int | None]], int]:
    """G30: who says what when the bet is accepted, and the winning seat.

    ``sao_boas`` (pinned): from the mão in playing order, each player of the team not
    currently ahead declares his points if they beat the best declared so far (a tie goes to
    the player nearer the mão), else says "são boas" (``None``); the mão always declares; a
    team ahead stays silent; rounds of this go on until nobody is left to speak (a player
    silent while his team was ahead speaks when it no longer is). ``all`` (GH18): everyone
    declares, in playing order from the mão. The winner is the best value, the player nearer
    the mão on a tie."""
    order = seats_from_mao(rules, mao)
    rank = {s: (pts[s], -k) for k, s in enumerate(order)}
    winner = max(order, key=lambda s: rank[s])
    if bet.declare == "all":
        return [(s, pts[s]) for s in order], winner
    team_of = rules.team_of
    said: list[tuple[int, int | None]] = []
    spoken: set[int] = set()
    best: int | None = None
    moved = True
    while moved:
        moved = False
        for s in order:
            if s in spoken or (best is not None and team_of[s] == team_of[best]):
                continue
            if best is None or rank[s] > rank[best]:
                said.append((s, pts[s]))
                best = s
            else:
                said.append((s, None))
            spoken.add(s)
            moved = True
    assert best is not None and team_of[best] == team_of[winner]
    return said, best
