"""The bot protocol, the registry of bots by name, and who is asked to move.

A bot sees only what its seat may know: ``match.observation(seat)`` (plain data, never
another seat's hidden cards) and the seat's legal moves ``match.legal_actions(seat)``. It
returns one of those moves. Bots are seeded and deterministic: the same seed, observations
and legal moves give the same choices.

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> bot = make_bot("random", m.rules, seed=1)
>>> seat = next_actor(m)
>>> bot.choose(m.observation(seat), m.legal_actions(seat)) in m.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.game import Match
from engine.rules import Rules
from engine.shuffle import MASK64, SplitMix64

Observation = Mapping[str, Any]


class Bot(Protocol):
    """Anything that picks a move from a seat's observation and legal moves."""

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """One member of ``legal_actions`` (never empty)."""
        ...


BotFactory = Callable[[Rules, int], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available by name to :func:`make_bot` (and so to the command line)."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(_REGISTRY)


def make_bot(name: str, rules: Rules, seed: int = 0) -> Bot:
    """A new bot of the named kind for this variant's rules, seeded.

    Raises ``KeyError`` with the known names for an unknown one."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    return factory(rules, seed & MASK64)


def derive_seed(seed: int, index: int) -> int:
    """The ``index``-th draw (0-based) of the SplitMix64 stream seeded with ``seed``, computed
    directly: how a run seed gives each match, and a match each bot, its own seed.

    >>> rng = SplitMix64(5); _ = rng.next()
    >>> derive_seed(5, 1) == rng.next()
    True
    """
    rng = SplitMix64((seed + index * 0x9E3779B97F4A7C15) & MASK64)
    return rng.next()


def next_actor(match: Match, prefer: int | None = None) -> int:
    """The seat a driver asks to move now.

    A card is awaited: the seat whose turn it is (bots never raise out of turn, M3). A raise
    waits for its answer: ``prefer`` if it is in the challenged team, else the challenged
    seat that follows the raiser in playing order (C9: the first answer counts). A special
    hand's decision (M5): ``prefer`` if it is in the deciding team, else that team's first
    seat from the mão."""
    n = match.players
    st = match.state
    if st == "play":
        return match.turn
    if st == "answer":
        assert match.pending is not None
        team = 1 - match.pending[0] % 2
        start = match.pending[0] + 1
    elif st == "decide":
        assert match.special_team is not None
        team = match.special_team
        start = match.mao
    else:
        raise ValueError(f"nobody moves while the match is in {st!r}")
    if prefer is not None and prefer % 2 == team:
        return prefer
    return next(s for s in ((start + i) % n for i in range(n)) if s % 2 == team)
