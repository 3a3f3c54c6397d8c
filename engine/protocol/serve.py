"""``truco bot serve NAME``: a built-in bot (``random``, ``heuristic``, ``search[:N]``) over the
protocol, on standard input and output, so that a protocol bot can be checked against the
same bot in-process: seeded alike, it plays the same moves, and the match's log is the same.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import IO, Any

from engine.bots import Bot, make_bot
from engine.observation import from_json
from engine.protocol import VERSION, parse_move
from engine.resources import shipped_variants
from engine.rules import rules_from_data
from engine.variant import load_variant


def serve(name: str, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer the engine's messages until ``quit`` or the end of input; 0 then. The bot's
    ``id`` names it ``truco NAME``; it judges its hand (``judge``) where the bot does."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    # a bot judges in every variant, or never: any shipped variant tells
    probe = make_bot(name, load_variant(min(shipped_variants())))

    def say(msg: Mapping[str, Any]) -> None:
        out.write(json.dumps(msg, separators=(",", ":")) + "\n")
        out.flush()

    bot: Bot | None = None
    for line in inp:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            say({"type": "id", "protocol": VERSION, "name": f"truco {name}",
                 "author": "the truco engine", "options": [],
                 "judge": hasattr(probe, "judge")})
            say({"type": "ready"})
        elif kind == "match":
            bot = make_bot(name, rules_from_data(msg["rules"]), msg["seed"])
        elif kind == "decision" and bot is not None:
            legal = [parse_move(s) for s in msg["legal"]]
            choice = bot.choose(from_json(msg["observation"]), legal)
            say({"type": "move", "id": msg["id"], "move": str(choice)})
        elif kind == "judge" and bot is not None:
            value = bot.judge(from_json(msg["observation"]))  # type: ignore[attr-defined]
            say({"type": "strength", "id": msg["id"], "value": float(value)})
        elif kind == "end":
            bot = None
        elif kind == "quit":
            break
    return 0

