"""Bots: seeded, deterministic players that see only their seat's observation.

``random`` picks a legal move uniformly; ``heuristic`` plays sensibly. Get one by name with
:func:`make_bot`; :func:`next_actor` says which seat a driver asks to move, :func:`choose_for`
asks a bot with only what its seat may see (:func:`seat_view`), and :func:`out_of_turn_raise`
offers the other seats a raise out of turn where the variant allows it (M3).

>>> from engine import Match
>>> m = Match.new("mineiro", seed=3)
>>> bots = [make_bot("heuristic", m.rules, seed=s) for s in range(m.players)]
>>> seat = next_actor(m)
>>> choose_for(bots[seat], m, seat) in m.legal_actions(seat)
True
"""

from engine.bots.base import (
    Bot,
    bot_names,
    choose_for,
    derive_seed,
    make_bot,
    next_actor,
    out_of_turn_raise,
    register,
    seat_view,
)
from engine.bots.heuristic import HeuristicBot
from engine.bots.random import RandomBot

register("random", RandomBot)
register("heuristic", HeuristicBot)

__all__ = ["Bot", "HeuristicBot", "RandomBot", "bot_names", "choose_for", "derive_seed",
           "make_bot", "next_actor", "out_of_turn_raise", "register", "seat_view"]
