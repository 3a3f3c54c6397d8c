"""Bots: seeded, deterministic players that see only their seat's observation.

``random`` picks a legal move uniformly; ``heuristic`` plays sensibly. Get one by name with
:func:`make_bot`; :func:`next_actor` says which seat a driver asks to move.

>>> from engine import Match
>>> m = Match.new("mineiro", seed=3)
>>> bots = [make_bot("heuristic", m.rules, seed=s) for s in range(m.players)]
>>> seat = next_actor(m)
>>> bots[seat].choose(m.observation(seat), m.legal_actions(seat)) in m.legal_actions(seat)
True
"""

from engine.bots.base import Bot, bot_names, derive_seed, make_bot, next_actor, register
from engine.bots.heuristic import HeuristicBot
from engine.bots.random import RandomBot

register("random", RandomBot)
register("heuristic", HeuristicBot)

__all__ = ["Bot", "HeuristicBot", "RandomBot", "bot_names", "derive_seed", "make_bot",
           "next_actor", "register"]
