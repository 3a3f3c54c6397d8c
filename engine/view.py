"""What a move kind may read and change of a match: the narrow view the kinds, the rulings,
the observation and the positions are written against, below :class:`engine.game.Match`.

A kind never needs the whole match. It reads the rules, the hand and round in play, the
phase, the scores, and the variant's precomputed :class:`Moves`; it may ask the match for its
legal moves, a copy, or a move the engine makes itself. Those are declared here, and
:class:`~engine.game.Match` (and :class:`~engine.machine.MoveTable`) fill them in: so a kind's
module imports this one, a layer below the match, and the type checker follows a kind without
going through the machine and back (``tests/test_layers.py`` counts these imports too).

Both are plain classes, not protocols: compiled by mypyc (``build_native.py``), the kinds'
reads of a :class:`MatchView`'s attributes stay native reads.

>>> from engine import Match
>>> isinstance(Match.new("paulista", seed=7), MatchView)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from transitions import Machine

from engine.shuffle import SplitMix64
from engine.state import HandState, Played, RoundState

if TYPE_CHECKING:
    from engine.actions import Action, Deal
    from engine.cards import Card
    from engine.checkpoint import Checkpoint
    from engine.rules import Rules

__all__ = ["EndOfHand", "LastHandRecord", "Listed", "Lister", "Listing", "MatchView", "Moves",
           "Quick"]

#: ``lister(match, seat or None, out)``: append the legal moves of a kind (in the ``answer``
#: state: of ``seat``, one of the seats that may answer).
Lister = Callable[["MatchView", "int | None", "list[Action]"], None]
#: ``quick(match, move)``: a kind's commonest move made whole, its checkpoints (a new list);
#: ``None`` (nothing changed): not that case, the machine rules the move (``MoveKind.quick``,
#: :mod:`engine.moves.quick`).
Quick = Callable[["MatchView", "Action"], "list[Checkpoint] | None"]
#: A kind's lister in one state as Python source, its lines and the names they read
#: (``MoveKind.quick_listing``, :mod:`engine.moves.quick`).
Listing = tuple[list[str], dict[str, Any]]
#: ``listed(match, seat or None)``: a state's listers as one function, its legal moves (a new
#: list): :func:`engine.moves.quick.quick_listings`.
Listed = Callable[["MatchView", "int | None"], "list[Action]"]
#: The public record of the hand that ended last: (number, played, shown, rounds, blind).
LastHandRecord = tuple[int, list[Played], list[tuple[int, "Card"]], list["int | None"], bool]


class EndOfHand(Protocol):
    """A kind's end-of-hand hook as the match runs it (:class:`engine.moves.scoring.HandEnd`,
    which a variant's :attr:`Moves.hand_ends` hold): ruled, then applied."""

    @property
    def name(self) -> str: ...
    @property
    def rule(self) -> Callable[..., int | None]: ...
    @property
    def apply(self) -> Callable[..., None]: ...


class Moves:
    """What the move kinds read of a variant, made once (:class:`engine.machine.MoveTable`
    builds it): each kind's own table and lister of the variant, the machine and the listers
    of each of its states. Nothing here is one kind's: a kind keeps what it precomputes in its
    entry of :attr:`tables` (``MoveKind.table``) and reads it through its own module."""

    __slots__ = ("players", "tables", "lister_of", "listers", "by_seat", "triggers", "opponents",
                 "special_at", "machine", "hand_ends", "own", "drawn_dealer", "start_score",
                 "enters", "quick", "listed", "sees", "held")

    players: int
    #: Each kind's own per-variant table (its moves made once, what it reads of the rules
    #: precomputed), by the kind's name: what ``MoveKind.table`` made.
    tables: dict[str, Any]
    #: Each listed kind's lister in this variant, by the kind's name (``MoveKind.listing``).
    lister_of: dict[str, Lister]
    machine: Machine
    triggers: dict[str, frozenset[str]]
    listers: dict[str, tuple[Lister, ...]]
    hand_ends: tuple[EndOfHand, ...]
    own: dict[str, Any]
    #: The states whose moves are listed seat by seat (the partners who answer a raise), each
    #: with its listers as :func:`engine.moves.answers.seat_listing` gives them: each seat's
    #: moves of the answer listers that lead them, and the listers after those.
    by_seat: dict[str, tuple[list[tuple[Action, ...]], tuple[Lister, ...]]]
    opponents: list[tuple[int, ...]]
    special_at: dict[tuple[int, ...], tuple[int, int | None]]
    #: A new match's first dealer is drawn (``match.first_dealer: drawn``).
    drawn_dealer: bool
    #: The score a match's first game starts with (``match.start_score``), by team.
    start_score: tuple[int, ...]
    #: The effects run on entering each state that has some (a match that starts there runs
    #: them), by state.
    enters: dict[str, tuple[Callable[[Any, Any], None], ...]]
    #: The kinds' quick moves in this variant, by kind (:mod:`engine.moves.quick`).
    quick: dict[str, Quick]
    #: The states' quick listings in this variant, by state (:mod:`engine.moves.quick`).
    listed: dict[str, Listed]
    #: The kinds' ``sees`` and ``held`` that may show something in the variant, in the kinds'
    #: order (:func:`engine.moves.seeing_hooks`).
    sees: tuple[Callable[[Any, int], Sequence[int]], ...]
    held: tuple[Callable[[Any, int], Sequence[Any]], ...]


class MatchView:
    """What a move kind, a ruling, the observation and a position read and change of a
    match: its attributes, a few readings of them, and the match's own services
    (:meth:`legal_actions`, :meth:`clone`, :meth:`chance`, :meth:`deal_next`,
    :meth:`deal_problem`), which
    :class:`engine.game.Match` provides."""

    __slots__ = ("rules", "machine", "state", "seed", "rng", "dealer", "score", "games",
                 "winner", "hand_number", "hand", "round", "last_hand", "move_table", "is_over")

    rules: Rules
    #: The variant's machine, which writes the phase in :attr:`state`.
    machine: Machine
    #: The phase (``play``, ``answer``, ``deal``...): the machine's model attribute.
    state: str
    seed: int | None
    rng: SplitMix64 | None
    dealer: int
    score: list[int]
    games: list[int]
    winner: int | None
    hand_number: int
    #: The hand in play (a new one for every hand).
    hand: HandState
    #: The round in play.
    round: RoundState
    #: The public record of the hand that ended last, or ``None`` before the first ends.
    last_hand: LastHandRecord | None
    #: The variant's moves and what the move kinds read of its rules.
    move_table: Moves
    #: Whether the match is decided: set when the machine enters ``match_over``.
    is_over: bool

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def mao(self) -> int:
        """The first to play in this hand: the dealer's next seat."""
        return (self.dealer + 1) % self.rules.players

    @property
    def turn(self) -> int:
        """The seat whose card is awaited, even while a raise waits for its answer (who must
        move now is :attr:`engine.game.Match.to_move`)."""
        return self.round.turn

    @property
    def special_team(self) -> int | None:
        return self.hand.special_team

    @property
    def challenged_team(self) -> int | None:
        """The team that must answer the pending raise, if any: the other team (with more
        than two teams, the team of the raiser's next seat)."""
        pending = self.hand.pending
        if pending is None:
            return None
        rules = self.rules
        if rules.teams == 2:
            return 1 - rules.team_of[pending[0]]
        # more than two teams: the raise is put to the raiser's next seat
        return rules.team_of[(pending[0] + 1) % rules.players]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal moves now (of ``seat`` alone, if given)."""
        raise NotImplementedError

    def clone(self) -> MatchView:
        """An independent copy: the same moves on both give the same results."""
        raise NotImplementedError

    def chance(self, kind: str, move: Any) -> bool:
        """A move the engine makes itself (the chance step, a cut not offered); whether it
        was made."""
        raise NotImplementedError

    def deal_next(self) -> None:
        """The chance step: deal the next hand from the seed or the recorded deals, if the
        match has them; otherwise it waits for an explicit deal."""
        raise NotImplementedError

    def deal_problem(self, deal: Deal, dealer: int) -> str | None:
        """Why a recorded deal is not the variant's next deal for ``dealer``, or ``None``."""
        raise NotImplementedError
