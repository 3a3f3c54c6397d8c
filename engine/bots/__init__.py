"""Bots: seeded, deterministic players that see only their seat's observation.

``random`` picks a legal move uniformly; ``heuristic`` plays sensibly; ``search`` searches
sampled deals (``search:N``: a budget of N iterations; ``search:N:heuristic``: the heuristic
answering raises in its playouts, :mod:`engine.bots.search`);
``cmd:COMMAND`` runs a bot program in any language over the protocol (docs/bot-protocol.md,
:mod:`engine.protocol.external`). Get one
by name with :func:`make_bot`; :func:`next_actor` says which seat a driver asks to move
(given the bots, the partner that judges its own hand stronger answers or decides for the
team, :func:`stronger_seat`), :func:`choose_for` asks a bot with only what its seat may see
(:func:`seat_view`), and :func:`out_of_turn_raise` offers the other seats a raise out of turn
where the variant allows it (M3).

>>> from engine import Match
>>> m = Match.new("mineiro", seed=3)
>>> bots = [make_bot("heuristic", m.rules, seed=s) for s in range(m.players)]
>>> seat = next_actor(m)
>>> choose_for(bots[seat], m, seat) in m.legal_actions(seat)
True
"""

from collections.abc import Mapping, Sequence

from engine.bots.base import (
    Bot,
    Judge,
    MatchShim,
    bot_names,
    bot_problem,
    choose_for,
    derive_seed,
    is_unknown,
    make_bot,
    movers,
    next_actor,
    out_of_turn_raise,
    register,
    register_spec,
    seat_view,
    stronger_seat,
)
from engine.bots.heuristic import HeuristicBot
from engine.bots.random import RandomBot
from engine.bots.search import POLICIES, SearchBot
from engine.game import Match
from engine.rules import Rules


def _external(rules: Rules, seed: int, command: str) -> Bot:
    from engine.protocol.external import ExternalBot

    return ExternalBot(rules, seed, command)


def _command_problem(command: str) -> str | None:
    from engine.protocol.process import command_problem

    return command_problem(command)


def notify(match: Match, bots: Mapping[int, Bot] | Sequence[Bot]) -> None:
    """After a move: each bot that watches the match (an ``observe`` method, as a bot over
    the protocol has) is given its own seat's observation, nothing more."""
    items = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    for seat, bot in items:
        observe = getattr(bot, "observe", None)
        if observe is not None:
            observe(match.observation(seat))


def finish(bots: Mapping[int, Bot] | Sequence[Bot]) -> None:
    """The match is over for good: each bot that holds something beyond it (an ``end``
    method, as a bot program's process has) ends it. Harmless to call twice.

    >>> finish([make_bot("random", Match.new("paulista", seed=1).rules, seed=1)])
    """
    values = bots.values() if isinstance(bots, Mapping) else bots
    for bot in values:
        end = getattr(bot, "end", None)
        if end is not None:
            end()


register("random", RandomBot)
register("heuristic", HeuristicBot)
register("search", SearchBot,
         budgeted=lambda rules, seed, budget: SearchBot(rules, seed, budget=budget),
         options=(tuple(POLICIES), lambda rules, seed, budget, policy:
                  SearchBot(rules, seed, budget=budget, policy=policy)))
register_spec("cmd", _external, problem=_command_problem)

__all__ = ["Bot", "HeuristicBot", "Judge", "MatchShim", "RandomBot", "SearchBot", "bot_names",
           "bot_problem", "choose_for", "derive_seed", "finish", "is_unknown", "make_bot", "movers",
           "next_actor", "notify", "out_of_turn_raise", "register", "register_spec", "seat_view",
           "stronger_seat"]
