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
from engine.observation import Observation
from engine.rules import Rules
from engine.shuffle import MASK64, SplitMix64


class RandomBot:
    """Picks each move uniformly among the legal ones; reads nothing of the observation.

    Offered a raise out of turn (M3: the seat's raises, then a pass), it raises with
    probability ``out_of_turn`` (one of the raises, uniformly), else passes."""

    name = "random"

    def __init__(self, rules: Rules, seed: int = 0, *, out_of_turn: float = 0.1) -> None:
        self.rng = SplitMix64(seed)
        self._out_of_turn_limit = int(out_of_turn * MASK64)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A uniformly random member of ``legal_actions`` (an offer to raise out of turn:
        a raise with probability ``out_of_turn``, else the pass)."""
        if not legal_actions:
            raise ValueError("no legal move to choose from")
        n = len(legal_actions)
        if legal_actions[-1].kind == "pass":
            if n == 1 or self.rng.next() >= self._out_of_turn_limit:
                return legal_actions[-1]
            n -= 1
        return legal_actions[self.rng.bounded(n)]
