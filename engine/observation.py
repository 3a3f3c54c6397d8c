"""What a seat may know, as typed plain data: :meth:`engine.game.Match.observation` returns an
:class:`Observation` (a ``TypedDict``: a plain ``dict`` at run time, JSON-ready, whose keys and
value types a type checker knows).

>>> from engine import Match
>>> obs = Match.new("paulista", seed=7).observation(1)
>>> obs["phase"], obs["turn"], obs["hand"]
('play', 1, ['2h', '7h', 'Jh'])
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


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
    """The public record of the hand that ended last."""

    hand_number: int
    played: list[PlayedCard]
    shown: list[ShownCard]
    rounds: list[int | None]


class Declared(TypedDict):
    """What a player said when a side bet was accepted (G30): his points, or ``None`` for
    "são boas" (his points stay hidden)."""

    seat: int
    points: int | None


class SideBetView(TypedDict):
    """A side bet of the hand as every seat sees it (G22-G32, G49), and the seat's own points
    (``my_points``, from its own cards only)."""

    bet: str
    calls: list[str]
    caller: int | None
    pending: bool
    settled: bool
    accepted: bool
    winner: int | None
    points: int
    declared: list[Declared]
    my_points: int | None
    #: Flor (G49): the seats that sang, in order (``my_points``: the seat's own flor value,
    #: ``None`` without one; ``declared``: the flores compared).
    sung: NotRequired[list[int]]


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
    #: The seat's legal moves, in the log's words (a blind hand's cards by position).
    legal: list[str]
    last_hand: LastHand | None
    #: The hand's side bets (only in a variant with side bets, G22-G32).
    side_bets: NotRequired[list[SideBetView]]
    #: The seats whose raise against the table binds them to beat it (only in a variant with
    #: ``play.raiser_must_kill``; public: everyone saw the raise and the table).
    must_kill: NotRequired[list[int]]
