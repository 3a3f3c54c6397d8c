"""The decisions of a log: each move a seat chose among two or more, with the match as it was
just before it (the replayer walks the log; :class:`Decisions` keeps a copy of the match
before every move).

A decision is a move of the log and the moves its seat could have made instead, as the seat
was offered them (:func:`engine.bots.base.seat_view`: in a blind hand, P6, a card by its
place in the hand): a card, a raise, an answer, a side bet's call or answer, a special hand's
decision, whatever the variant's moves. A raise made out of turn (M3) is a choice between the
seat's raises and passing. Not decisions: a move that was the only legal one, a cut (the
cutter chooses among cards nobody has seen) and the passes a log does not record (a seat that
could have raised out of turn and did not).

>>> from engine.logread import read_log
>>> log = (b'{"truco_log": 1, "variant": "paulista", "seed": 7}\\n'
...        b'{"event": "play", "seat": 1, "card": "2h"}\\n')
>>> found = decisions(log, "a.jsonl")
>>> [(d.line, d.seat, str(d.moves[d.played])) for d in found.decisions]
[(2, 1, 'play 1 2h')]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.actions import Action
from engine.bots.base import seat_view
from engine.game import Checkpoint, Match
from engine.logread import LogItem, read_log
from engine.moves.names import CUT_KIND, DEAL_KIND
from engine.moves.raising import pass_ as no_raise
from engine.observation import Observation
from engine.replay import Replayer, Visitor, replay
from engine.replay.identity import LogDigest
from engine.rules import Rules
from engine.state import PLAY

#: Phases whose moves are not decisions (see the module docstring).
NOT_DECISIONS = frozenset({CUT_KIND, DEAL_KIND})


@dataclass(frozen=True)
class Decision:
    """One decision of a log: its ``line``, the ``seat`` that moved, the ``moves`` it was
    offered (as it saw them) and the index of the one it ``played``, its ``observation`` then,
    and the whole ``position`` (every card: for hindsight only)."""

    line: int
    seat: int
    moves: tuple[Action, ...]
    played: int
    observation: Observation
    position: dict[str, Any]


class Decisions(Visitor):
    """A strict :class:`~engine.replay.Visitor` (the first problem of the log is raised) that
    collects the log's :attr:`decisions`, of every seat or of ``seats`` only (:func:`stream`
    takes them as they come; with ``count_only`` only their number, in :attr:`count`)."""

    def __init__(self, seats: frozenset[int] | None = None, *, count_only: bool = False) -> None:
        self.seats = seats
        self.count_only = count_only
        self.count = 0
        self.decisions: list[Decision] = []
        self.rules: Rules | None = None
        self.header_data: dict[str, Any] = {}
        #: The log ends before the match is over (its decisions so far are analysed).
        self.incomplete = False
        self._before: Match | None = None
        #: The log's identity, recorded in the analysis (``log_sha256``).
        self.digest = LogDigest()

    def header(self, item: LogItem, match: Match) -> None:
        self.digest.add(item)
        self.rules = match.rules
        self.header_data = dict(item.data)
        self._before = match.clone()

    def hand(self, match: Match, deal: LogItem | None) -> None:
        if deal is not None:
            self.digest.add(deal)
        self._before = match.clone()

    def move(self, item: LogItem, action: Action, match: Match,
             checkpoints: list[Checkpoint]) -> None:
        self.digest.add(item)
        before, self._before = self._before, match.clone()
        if before is None or (self.seats is not None and action.seat not in self.seats):
            return
        if self.count_only:
            self.count += _offered(before, action) is not None
            return
        found = decision_at(before, action, item.line)
        if found is not None:
            self.count += 1
            self.decisions.append(found)


def _offered(before: Match, action: Action) -> list[Action] | None:
    """The moves ``action``'s seat chose among, where it made a decision."""
    seat = action.seat
    if before.state in NOT_DECISIONS:
        return None
    legal = before.legal_actions(seat)
    if before.state == PLAY and before.round.turn != seat:
        legal = [*legal, no_raise(seat)]  # a raise out of turn (M3), or not
    return legal if len(legal) >= 2 and action in legal else None


def decision_at(before: Match, action: Action, line: int) -> Decision | None:
    """The decision of ``action``'s seat in the match ``before`` it (``None``: no decision, see
    the module docstring)."""
    legal = _offered(before, action)
    if legal is None:
        return None
    seat = action.seat
    obs, view = seat_view(before, seat, legal=legal)
    return Decision(line, seat, tuple(view), legal.index(action), obs, before.position())


def stream(data: IO[bytes] | bytes, file: str, visitor: Decisions, *,
           base: Path | None = None) -> Iterator[Decision]:
    """The decisions of the log ``data`` (named ``file``; a variant file in its header is
    relative to ``base``), each as soon as its line is read: ``visitor`` keeps none of them
    (it holds the header's facts, then at the end whether the log is incomplete). Raises
    :class:`~engine.logread.LogProblem` for the log's first problem where it is met, as
    ``truco verify`` words it."""
    replayer = Replayer(file, base, visitor)
    for _ in replayer.steps(read_log(data, file)):
        found = visitor.decisions
        while found:
            yield found.pop(0)  # one at a time: a move makes one decision at most
    visitor.incomplete = replayer.incomplete is not None


def decisions(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
              seats: frozenset[int] | None = None) -> Decisions:
    """The decisions of the log ``data`` (named ``file``; a variant file in its header is
    relative to ``base``), all kept in :attr:`Decisions.decisions`. Raises
    :class:`~engine.logread.LogProblem` for the log's first problem, as ``truco verify``
    words it."""
    visitor = Decisions(seats)
    replayer: Replayer = replay(data, file, visitor, base)
    visitor.incomplete = replayer.incomplete is not None
    return visitor


def count(data: IO[bytes] | bytes, file: str, *, base: Path | None = None,
          seats: frozenset[int] | None = None) -> int:
    """How many decisions :func:`stream` finds in the log (none is kept). Raises as it does."""
    visitor = Decisions(seats, count_only=True)
    replay(data, file, visitor, base)
    return visitor.count
