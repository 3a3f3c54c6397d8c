"""What the machine's conditions make of one move (:class:`Ruling`), and the registries of
the conditions and effects a machine's transitions name (:data:`CONDITIONS`, :data:`EFFECTS`).

Below both the move kinds and the machine: the kinds register their judges and effects here
and write their rulings (:mod:`engine.moves`), and :mod:`engine.machine` resolves the names its
spec uses from these registries when it builds a variant's machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.cards import Card
from engine.checkpoint import Checkpoint

if TYPE_CHECKING:
    from engine.view import MatchView

#: A condition or callback of this engine's machines: called with the trigger's arguments,
#: the move and its :class:`Ruling` (``send_event=False``).
Callback = Callable[..., Any]

#: The conditions a transition may use, by name (registered by :mod:`engine.moves`).
CONDITIONS: dict[str, Callback] = {}
#: The effects (``before`` callbacks) and ``on_enter`` callbacks, by name (the same).
EFFECTS: dict[str, Callback] = {}


def condition(name: str) -> Callable[[Callback], Callback]:
    """Register a condition under ``name``."""
    def register(func: Callback) -> Callback:
        CONDITIONS[name] = func
        return func
    return register


def effect(name: str) -> Callable[[Callback], Callback]:
    """Register an effect (a ``before`` or ``on_enter`` callback) under ``name``."""
    def register(func: Callback) -> Callback:
        EFFECTS[name] = func
        return func
    return register


class RoundResult(NamedTuple):
    """A round a card completes (C6): the team that won it (``None``: tied) and the seat that
    leads the next."""

    winner: int | None
    leader: int


@cache
def round_result(winner: int | None, leader: int) -> RoundResult:
    """The :class:`RoundResult` of ``winner`` and ``leader``, made once (the few there are are
    shared: a new ``NamedTuple`` for every round costs more than the rest of the ruling)."""
    return RoundResult(winner, leader)


class HandResult(NamedTuple):
    """A hand ended by its result or a fold (C7, C11): the team that takes it (``None``:
    nobody, P8, M7), the points its score rose by, and the score after."""

    winner: int | None
    points: int
    score: list[int]


class GameResult(NamedTuple):
    """A game won (M8, P9): by which team, and the games after."""

    winner: int
    games: list[int]


class Owed(NamedTuple):
    """A side bet's points credited when the hand ends (GH6): the bet (its index in the hand's
    records), the team, the points, and the score after."""

    bet: int
    team: int
    points: int
    score: list[int]


@dataclass
class Settlement:
    """A dispute ruled, before anything changed: the bet (its index in the hand's records),
    whether the last call was accepted, the winning team and its points, who said what (G30),
    the seat whose points won and the cards that make them (G32), and the score after the
    crediting (``None`` where it waits for the end of the hand, GH6)."""

    index: int
    accepted: bool
    team: int
    points: int
    said: list[tuple[int, int | None]]
    shown: tuple[int, tuple[Card, ...]] | None
    score: list[int] | None
    #: Flor: the flores that scored, shown at the end of the hand (G41).
    flores: tuple[tuple[int, tuple[Card, ...]], ...] = ()


class Ruling:
    """What the machine's conditions made of one move, before anything changed: why it is
    illegal, or what it does; then the checkpoints its effect caused.

    ``round`` is set when a card completes a round, ``hand`` when the hand ends by its result
    or a fold, ``game`` when a game is won (``hand`` is ``None`` for a game lost by a
    forbidden raise, P5/P6), ``match`` when the match is."""

    #: The match the move is made in (set by whoever makes the ruling: the callbacks are
    #: called with the move and its ruling alone, ``send_event=False``).
    model: MatchView
    # Class-level defaults: a ruling is made for every move, and most moves set none of them.
    why: str | None = None
    judged = False
    ends = False
    round: RoundResult | None = None
    hand: HandResult | None = None
    game: GameResult | None = None
    #: The team that wins the match.
    match: int | None = None
    #: Set by the effect of a move that causes checkpoints (most cause none).
    checkpoints: list[Checkpoint] | None = None
    #: A side bet settled by the move (G28-G31).
    side: Settlement | None = None
    #: Side bets' points credited when the hand ends (GH6).
    owed: list[Owed] | None = None
    #: A flor song that is not the last (``more``) or ends in a raise (``raised``), G36, G39.
    flor: str | None = None
