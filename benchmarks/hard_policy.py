"""The search bot with the sound player answering raises in its playouts (today's) against the
same bot with the heuristic answering them (before issue 44), at equal time per move:
``python -m benchmarks.hard_policy [--variant paulista] [--games N] [--budget B] [-j J]``.

1. **Time per move.** ``--timing-games`` matches (deal *k* as the tournament's, the two bots
   on opposite teams, swapped every other match) are played; at every real choice (more than
   one legal move) of either team, *both* bots are asked on the same observation, each one's
   own ``choose`` timed with ``time.process_time``, and the one whose team it is plays. The
   ratio of their mean CPU seconds per decision gives the heuristic-policy bot its budget
   (``round(B_old * sound / heuristic)``, from ``B_old = B``), measured again at that budget
   (``--calibrate`` measurements in all, 2 by default: the last one only checks the budget
   chosen, it does not change it). ``--budget-old`` skips this.
2. **The tournament**, through :func:`engine.tournament.run_tournament` as ``truco
   tournament`` plays it: ``--games`` deals, each played both ways round (so ``2 * N``
   matches), ``search:B`` against ``search:B_OLD:heuristic``. Printed: the sound bot's wins,
   its win rate with the Wilson 95% interval, the rating difference (Bradley-Terry, Elo
   scale) with its 95% interval, the budgets and the times.

Deterministic for a seed and ``--budget-old`` (the measured time ratio is not). The budget by
default is the ``hard`` level of ``truco play`` (:data:`engine.bots.search.DEFAULT_BUDGET`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.bots import SearchBot
from engine.bots.search import DEFAULT_BUDGET, POLICIES
from engine.game import Match, resolve_rules
from engine.observation import Observation
from engine.rules import Rules
from engine.simulate import bot_seed, match_seed, play_match
from engine.tournament import run_tournament


class Paired:
    """A seat's bot that plays as ``bots[plays]`` and times every bot of ``bots`` on each of
    its real choices (``seconds[i]``: bot i's CPU seconds over ``decisions``)."""

    name = "paired"

    def __init__(self, bots: Sequence[SearchBot], plays: int) -> None:
        self.bots, self.plays = list(bots), plays
        self.seconds = [0.0] * len(bots)
        self.decisions = 0

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) < 2:
            return legal_actions[0]
        self.decisions += 1
        chosen = legal_actions[0]
        for i, bot in enumerate(self.bots):
            start = time.process_time()
            move = bot.choose(observation, legal_actions)
            self.seconds[i] += time.process_time() - start
            if i == self.plays:
                chosen = move
        return chosen

    def judge(self, observation: Observation) -> float:
        return self.bots[self.plays].judge(observation)


def time_per_decision(rules: Rules, budgets: tuple[int, int], matches: int, seed: int,
                      ) -> tuple[float, float, int]:
    """The mean CPU seconds per real choice of ``search:budgets[0]`` (sound) and
    ``search:budgets[1]:heuristic`` on the same decisions, and their number."""
    seconds, decisions = [0.0, 0.0], 0
    for k in range(matches):
        s = match_seed(seed, k)
        match = Match(rules, seed=s, dealer=k % rules.players)
        bots = [Paired([SearchBot(rules, bot_seed(s, seat), budget=b, policy=p)
                        for b, p in zip(budgets, POLICIES, strict=True)],
                       rules.team_of[seat] ^ (k % 2)) for seat in range(rules.players)]
        play_match(match, bots)
        for bot in bots:
            seconds = [a + b for a, b in zip(seconds, bot.seconds, strict=True)]
            decisions += bot.decisions
    n = max(decisions, 1)
    return seconds[0] / n, seconds[1] / n, decisions


def calibrate(rules: Rules, budget: int, matches: int, seed: int, rounds: int,
              ) -> tuple[int, list[dict[str, Any]]]:
    """The heuristic-policy budget whose time per decision matches ``search:budget``'s, and
    each measurement made on the way."""
    old, steps = budget, []
    for done in range(1, rounds + 1):
        sound, heuristic, decisions = time_per_decision(rules, (budget, old), matches, seed)
        steps.append({"budget_old": old, "sound_s": sound, "heuristic_s": heuristic,
                      "decisions": decisions})
        new = max(1, round(old * sound / heuristic)) if heuristic > 0 else old
        if new == old or done == rounds:
            break  # the last measurement checks the budget chosen, it does not change it
        old = new
    return old, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hard_policy",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="paulista")
    parser.add_argument("--games", type=int, default=500, help="deals, each played both ways")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="the sound-policy bot's budget (default: the hard level's)")
    parser.add_argument("--budget-old", type=int, default=None,
                        help="the heuristic-policy bot's budget (default: measured)")
    parser.add_argument("--timing-games", type=int, default=20,
                        help="matches played to measure the time per decision")
    parser.add_argument("--calibrate", type=int, default=2,
                        help="time measurements (the first sets the heuristic's budget, "
                             "the last checks it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args(argv)
    rules = resolve_rules(args.variant)
    steps: list[dict[str, Any]] = []
    old = args.budget_old
    if old is None:
        # timing deals drawn apart from the tournament's (another seed)
        old, steps = calibrate(rules, args.budget, args.timing_games, args.seed + 1,
                               args.calibrate)
    a, b = f"search:{args.budget}", f"search:{old}:heuristic"
    start = time.perf_counter()
    result = run_tournament(rules, [a, b], games=args.games, seed=args.seed, jobs=args.jobs)
    wall = time.perf_counter() - start
    row = result["pairings"][0]
    ratings = {r["name"]: r for r in result["bots"]}
    diff = ratings[a]["rating"] - ratings[b]["rating"]
    half = ratings[a]["rating_ci95"][1] - ratings[a]["rating_ci95"][0]  # 2 bots: se(diff) = 2 se(a)
    figures = {"variant": rules.name, "seed": args.seed, "games": args.games,
               "matches": row["matches"], "budget": args.budget, "budget_old": old,
               "timing": steps, "sound_won": row["a_won"], "sound_rate": row["a_rate"],
               "sound_ci95": row["a_ci95"], "rating_diff": round(diff, 1),
               "rating_diff_ci95": [round(diff - half, 1), round(diff + half, 1)],
               "wall_s": round(wall, 1)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for step in steps:
        print(f"time per decision ({step['decisions']} decisions): search:{args.budget} "
              f"{step['sound_s'] * 1000:.2f} ms, search:{step['budget_old']}:heuristic "
              f"{step['heuristic_s'] * 1000:.2f} ms of CPU")
    print(f"{rules.name}: {a} against {b}, {args.games} deals both ways, seed {args.seed}")
    lo, hi = row["a_ci95"]
    print(f"{a} won {row['a_won']} of {row['matches']} matches: {row['a_rate']:.1%} "
          f"(95% interval {lo:.1%} to {hi:.1%})")
    print(f"rating difference {diff:+.1f} (95% interval {diff - half:+.1f} to "
          f"{diff + half:+.1f}); tournament {wall:.0f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
