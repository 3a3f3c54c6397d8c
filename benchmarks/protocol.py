"""The bot protocol's cost: ``python -m benchmarks.protocol [--variant V] [--matches N]``.

Plays N seeded matches with four in-process ``random`` bots, then the same N matches with four
``cmd:python -m engine bot serve random`` bots over the protocol (the same moves: the logs are
identical), and prints matches per second of each and the protocol's cost per decision: the
difference of the two times over the decisions the bots made. Then where that time goes, from
the pieces timed alone on the same matches: the engine building and writing each message
(``decision`` and ``events`` as JSON lines, and every seat's observation after each move, for
the events), the bot side reading a message and parsing its moves, and the rest (the pipes, the
process switches, the bot's own loop). The bots' start (handshake) is timed apart, once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from engine.bots import make_bot
from engine.game import Match
from engine.protocol import decision, dumps, events, parse_move, seat_events
from engine.protocol.external import ExternalBot, end_all
from engine.simulate import bot_seed, match_seed, play_match
from engine.variant import load_variant

SERVE = f"{sys.executable} -m engine bot serve random"


def _matches(variant: str, n: int, external: bool) -> tuple[float, int]:
    """Seconds to play ``n`` matches (the bots' start excluded) and the decisions made."""
    rules = load_variant(variant)
    decisions = 0
    elapsed = 0.0
    for i in range(n):
        seed = match_seed(1, i)
        m = Match(rules, seed=seed, dealer=i % rules.players)
        bots: list[Any] = [ExternalBot(rules, bot_seed(seed, s), SERVE) if external
                           else make_bot("random", rules, bot_seed(seed, s))
                           for s in range(rules.players)]
        if external:
            for b in bots:
                b.send({"type": "info"})  # started (or taken from the pool) before the clock
        t0 = time.perf_counter()
        play_match(m, bots, on_move=lambda _a, _c: None)
        elapsed += time.perf_counter() - t0
        decisions += sum(b.decisions for b in bots) if external else 0
    return elapsed, decisions


def _pieces(variant: str, n: int) -> dict[str, float]:
    """Seconds spent, over the same matches, building and writing the engine's messages and
    the observations behind the events, and reading them on the bot's side."""
    rules = load_variant(variant)
    engine_side = bot_side = 0.0
    for i in range(n):
        seed = match_seed(1, i)
        m = Match(rules, seed=seed, dealer=i % rules.players)
        bots = [make_bot("random", rules, bot_seed(seed, s)) for s in range(rules.players)]
        last = [m.observation(s) for s in range(rules.players)]
        while not m.is_over:
            seat = next(s for s in range(rules.players) if m.legal_actions(s)) \
                if m.state != "play" else m.turn
            t0 = time.perf_counter()
            obs, legal = m.observation(seat), m.legal_actions(seat)
            line = dumps(decision(1, obs, legal, {"move_ms": 1, "clock_ms": None}))
            t1 = time.perf_counter()
            msg = json.loads(line)
            offered = [parse_move(s) for s in msg["legal"]]
            t2 = time.perf_counter()
            engine_side += t1 - t0
            bot_side += t2 - t1
            m.apply(legal[offered.index(bots[seat].choose(obs, offered))])
            t0 = time.perf_counter()
            for s in range(rules.players):
                now = m.observation(s)
                seen = seat_events(last[s], now)
                last[s] = now
                if seen:
                    dumps(events(seen))
            engine_side += time.perf_counter() - t0
    return {"engine": engine_side, "bot": bot_side}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="paulista")
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rules = load_variant(args.variant)
    starters = [ExternalBot(rules, s, SERVE) for s in range(rules.players)]
    for b in starters:
        b.send({"type": "info"})
    start = (time.perf_counter() - t0) / len(starters)
    for b in starters:
        b.close()
    inproc, _ = _matches(args.variant, args.matches, external=False)
    stdio, decisions = _matches(args.variant, args.matches, external=True)
    end_all()
    pieces = _pieces(args.variant, args.matches)
    per = (stdio - inproc) / max(decisions, 1)
    rest = per - (pieces["engine"] + pieces["bot"]) / max(decisions, 1)
    print(f"{args.variant}, {args.matches} matches, {decisions} decisions by the bots")
    print("")
    print("| bots | matches/s |")
    print("|---|---|")
    print(f"| 4 random, in-process | {args.matches / inproc:.1f} |")
    print(f"| 4 random over the protocol (truco bot serve random) | {args.matches / stdio:.1f} |")
    print("")
    print(f"the protocol's cost per decision: {per * 1e6:.0f} us")
    print(f"  the engine's messages and the events' observations: "
          f"{pieces['engine'] / max(decisions, 1) * 1e6:.0f} us")
    print(f"  the bot reading a message and its moves: "
          f"{pieces['bot'] / max(decisions, 1) * 1e6:.0f} us")
    print(f"  the rest (pipes, process switches, the bot's loop): {rest * 1e6:.0f} us")
    print(f"starting a bot (process and handshake): {start * 1e3:.0f} ms, once per process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
