"""The checkpoints a move causes, typed: what :meth:`engine.game.Match.apply` returns, each the
log event the log writes (docs/log-format.md). They are plain dicts at run time (a move's
checkpoints cost no conversion), typed by their ``event`` for readers and ``mypy``: test
``checkpoint["event"]`` and the type checker knows the other keys.

>>> from engine import Action, Match
>>> m = Match.new("paulista", seed=7)
>>> [m.apply(Action.parse(move)) for move in ("play 1 2h", "play 2 3h", "play 3 5d")]
[[], [], []]
>>> m.apply(Action.parse("play 0 Js"))
[{'event': 'round', 'winner': 0}]
"""

from __future__ import annotations

from typing import Literal, TypedDict


class RoundEnd(TypedDict):
    """A round is decided (``winner``: the team, or ``None`` for a tie)."""

    event: Literal["round"]
    winner: int | None


class HandEnd(TypedDict):
    """The hand is scored: its winning team, the points and the score after."""

    event: Literal["hand"]
    winner: int | None
    points: int
    score: list[int]


class GameEnd(TypedDict):
    """A game is won: its winner, the final score and the games won."""

    event: Literal["game"]
    winner: int
    score: list[int]
    games: list[int]


class MatchEnd(TypedDict):
    """The match is won."""

    event: Literal["match"]
    winner: int
    games: list[int]


class SideDeclare(TypedDict):
    """A seat's points said in a side bet's dispute (G30)."""

    event: Literal["side_declare"]
    seat: int
    points: int | None  # None: "são boas" (G30)


class SideBetEnd(TypedDict):
    """A side bet is settled and credited (G28-G31, G38-G40)."""

    event: Literal["side_bet"]
    bet: str
    calls: list[str]
    accepted: bool | None
    winner: int | None
    points: int
    score: list[int]


class SideShow(TypedDict):
    """The cards of a winning declaration become public at the end of the hand (G32, G50)."""

    event: Literal["side_show"]
    seat: int
    cards: list[str]


#: One checkpoint: its ``event`` says which.
Checkpoint = RoundEnd | HandEnd | GameEnd | MatchEnd | SideDeclare | SideBetEnd | SideShow
