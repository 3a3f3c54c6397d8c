"""``random``: a uniformly random legal move, from a seeded SplitMix64 (no global state).

>>> from engine import Match
>>> m = Match.new("paulista", seed=7)
>>> a, b = RandomBot(m.rules, 3), RandomBot(m.rules, 3)
>>> obs, legal = m.observation(1), m.legal_actions(1)
>>> a.choose(obs, legal) == b.choose(obs, legal)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.bots.base import Observation
from engine.rules import Rules
from engine.shuffle import SplitMix64


class RandomBot:
    """Picks each move uniformly among the legal ones; reads nothing of the observation."""

    name = "random"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A uniformly random member of ``legal_actions``."""
        if not legal_actions:
            raise ValueError("no legal move to choose from")
        return legal_actions[self.rng.bounded(len(legal_actions))]
