#!/usr/bin/env python3
"""A bot for the truco bot protocol (docs/bot-protocol.md), standard library only.

It accepts every raise, mostly plays its first face-up card, else a legal move at random
(seeded by the match), never a fold. Try it:
    truco bot check 'python3 examples/bots/first.py'
"""

import json
import random
import sys


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(observation, legal, rng):
    """One of the legal moves, as written there."""
    accept = [m for m in legal if m.startswith("accept")]
    if accept:
        return accept[0]
    plays = [m for m in legal if m.startswith("play") and not m.endswith("covered")]
    if plays and rng.random() < 0.8:
        return plays[0]
    return rng.choice([m for m in legal if not m.startswith("fold")] or legal)


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "id", "protocol": 1, "name": "first.py", "author": "truco examples",
                 "options": []})
            say({"type": "ready"})
        elif kind == "match":
            rng = random.Random(message["seed"])
            print(f"match {message['match']} as seat {message['seat']}", file=sys.stderr)
        elif kind == "decision":
            move = choose(message["observation"], message["legal"], rng)
            say({"type": "move", "id": message["id"], "move": move})
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
