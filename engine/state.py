"""The state of a match below the match itself: its phase, the hand in play and its round.

:class:`~engine.game.Match` holds what lasts the whole match (the rules, the phase, the seed,
the dealer, the scores); a :class:`HandState` what one hand has (the cards, the bet, the special
hand, the rounds' results), made new for every hand; a :class:`RoundState` who leads, whose turn
it is and the cards of the round in play. Move kinds (:mod:`engine.moves`) read and change them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, Protocol

from engine.cards import Card
from engine.slots import interpreted

if TYPE_CHECKING:
    from engine.rules import Rules, SpecialHand
    from engine.sidebets import BetState

class Phase(StrEnum):
    """The states of a variant's machine (:mod:`engine.machine`) that code outside their
    kind's module names: phases a match rests in between moves, :attr:`engine.game.Match.state`.
    A phase is its name as a string (``Phase.PLAY == "play"``, and its ``repr`` is the
    string's), so logs, positions, observations and snapshots show the names they always did.
    A variant's machine has the phases of the move kinds it has (:data:`engine.moves.PHASES`,
    each declared by its kind's module: a house kind's own phase, ``confirm`` or ``take``, is
    a plain string there and no member here), and ``deal`` and ``match_over``
    (:func:`engine.moves.all_phases`)."""

    #: A new hand is awaited (the chance step: the seeded shuffle, or a recorded deal).
    DEAL = "deal"
    #: A mão de dez / mão de 11 decision (M5).
    DECIDE = "decide"
    #: A card is awaited (raises may come in, C8-C10, P4, M3).
    PLAY = "play"
    #: A raise waits for its answer (C9).
    ANSWER = "answer"
    #: A side bet's call waits for its answer (G27).
    BET_ANSWER = "bet_answer"
    #: A flor must be sung (G35, G36).
    SING = "sing"
    #: The cutter's choice before the deal (house, catalogue #36: :mod:`engine.moves.cut`).
    CUT = "cut"
    #: The match is decided.
    MATCH_OVER = "match_over"

    __repr__ = str.__repr__


#: The phases' strings, as the machine names its states and sets ``Match.state``: what the hot
#: paths (the kinds' judges and listers) compare the state with. ``Phase.PLAY`` is looked up
#: through the enum's class on every read (a thousand instructions in Python 3.11), and an
#: enum member compares slower than the string itself; a module's name is read at once, and
#: compiled (``build_native.py``) a ``Final`` string is the literal itself, not a lookup.
#: (tests/test_machine.py checks that they are the phases' values.)
DEAL: Final = "deal"
DECIDE: Final = "decide"
PLAY: Final = "play"
ANSWER: Final = "answer"
BET_ANSWER: Final = "bet_answer"
SING: Final = "sing"
CUT: Final = "cut"
MATCH_OVER: Final = "match_over"


class Strengths(Protocol):
    """What a ruling reads of a hand: each card's strength, by card code."""

    @property
    def strength(self) -> tuple[int, ...]: ...


class Ruled(Protocol):
    """What the pure rulings (:func:`engine.moves.play.round_outcome`,
    :func:`engine.moves.outcome.hand_result`) read of a match: its rules, its mão and its
    hand's strengths. A :class:`~engine.game.Match` is one; so is a bot's
    :class:`~engine.bots.base.MatchShim`, which has nothing else."""

    @property
    def rules(self) -> Rules: ...

    @property
    def mao(self) -> int: ...

    @property
    def hand(self) -> Strengths: ...


#: A card played: (0-based round, seat, card, covered).
Played = tuple[int, int, Card, bool]

#: ``HandState.special`` of a normal hand; a special hand's is 1 + the index of its entry in
#: ``Rules.special_hands`` (decided by the scores when the hand starts).
NORMAL: Final = 0


class HandState:
    """One hand: the cards, the bet and what has been played and shown."""

    __slots__ = ("hands", "dealt", "vira", "strength", "value", "pending", "last_raise_team",
                 "bound", "shown", "played", "results", "special", "special_team", "blind",
                 "rule", "decider", "refused", "side", "own")

    def __init__(self, players: int, value: int) -> None:
        #: The cards each seat holds now, by seat.
        self.hands: list[list[Card]] = []
        for _ in range(players):  # a loop: cheaper than a comprehension's call, once a hand
            self.hands.append([])
        #: The cards as dealt, by seat.
        self.dealt: tuple[tuple[Card, ...], ...] = ()
        self.vira: Card | None = None
        #: Each card's strength in this hand, by card code.
        self.strength: tuple[int, ...] = ()
        #: What the hand is worth now (C8).
        self.value = value
        #: The raise waiting for its answer: (seat, value, card named or None).
        self.pending: tuple[int, int, Card | None] | None = None
        #: The team that made the last accepted raise (C10).
        self.last_raise_team: int | None = None
        #: The card each seat raised with and must play next (M4), by seat.
        self.bound: list[Card | None] = [None] * players
        #: Cards shown with a raise (M4): (seat, card).
        self.shown: list[tuple[int, Card]] = []
        self.played: list[Played] = []
        #: The winning team of each round played (``None``: tied).
        self.results: list[int | None] = []
        #: ``NORMAL``, or 1 + the index of the special hand's entry in ``Rules.special_hands``.
        self.special = NORMAL
        #: The one team at the special hand's score (``None``: none, or several).
        self.special_team: int | None = None
        #: The special hand's entry (``None`` in a normal hand).
        self.rule: SpecialHand | None = None
        #: The only seat that decides the special hand, where one seat alone decides.
        self.decider: int | None = None
        #: Nobody sees his own cards (P6).
        self.blind = False
        #: The seats that folded the pending raise without ending the hand, where the whole
        #: team must refuse (``betting.refusal: whole_team``); emptied when it is accepted or
        #: raised back.
        self.refused: tuple[int, ...] = ()
        #: The side bets of the hand, one record per ``Rules.side_bets`` entry, in its order
        #: (G22-G32); ``None`` in a variant without side bets.
        self.side: list[BetState] | None = None
        #: The move kinds' own state (:class:`engine.moves.KindState`), by key: in the
        #: variants that have one, what :func:`engine.moves.fresh_own` gives at the hand's
        #: start. Never changed in place (a copy of the hand shares it): :func:`set_own`.
        self.own: dict[str, Any] = NO_OWN

    def copy(self) -> HandState:
        other = HandState.__new__(HandState) if _HAND_BY_NEW else HandState(0, 0)
        # every slot, one by one (cheaper than a loop of getattr and setattr)
        other.hands = [h[:] for h in self.hands]
        other.dealt = self.dealt
        other.vira = self.vira
        other.strength = self.strength
        other.value = self.value
        other.pending = self.pending
        other.last_raise_team = self.last_raise_team
        other.bound = self.bound[:]
        other.shown = self.shown[:]
        other.played = self.played[:]
        other.results = self.results[:]
        other.special = self.special
        other.special_team = self.special_team
        other.blind = self.blind
        other.rule = self.rule
        other.decider = self.decider
        other.refused = self.refused
        side = self.side
        other.side = None if side is None else [b.copy() for b in side]
        other.own = self.own  # never changed in place: shared
        return other


#: Whether :meth:`HandState.copy` may skip ``__init__`` (interpreted: see engine.slots).
_HAND_BY_NEW = interpreted(HandState)

#: The kinds' state of a hand in a variant whose kinds have none (never changed).
NO_OWN: Final[dict[str, Any]] = {}


def set_own(hand: HandState, key: str, value: Any) -> None:
    """Set a kind's state ``key`` of ``hand`` to ``value``: a new mapping (a copy of the
    hand, and the other hands of the variant, share the old one)."""
    hand.own = {**hand.own, key: value}


class RoundState:
    """The round in play: its number, leader, whose turn, and its cards so far."""

    __slots__ = ("number", "leader", "turn", "cards")

    def __init__(self, number: int, leader: int) -> None:
        #: 0-based.
        self.number = number
        self.leader = leader
        self.turn = leader
        #: (seat, card, covered) in the order played.
        self.cards: list[tuple[int, Card, bool]] = []

    def copy(self) -> RoundState:
        # every slot set here: no __init__ to run, where it can be skipped (see engine.slots)
        other = RoundState.__new__(RoundState) if _ROUND_BY_NEW else RoundState(0, 0)
        other.number = self.number
        other.leader = self.leader
        other.turn = self.turn
        other.cards = self.cards[:]
        return other


#: Whether :meth:`RoundState.copy` may skip ``__init__`` (interpreted: see engine.slots).
_ROUND_BY_NEW = interpreted(RoundState)
