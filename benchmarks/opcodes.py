"""Count the Python opcodes a hand of a random playout runs, by function:
``python -m benchmarks.opcodes [--variant paulista] [--matches 300] [--top 25]``.

Deterministic and quick (no valgrind): every opcode the interpreter executes for the
engine's code, counted through ``sys.settrace`` opcode events, over seeded random matches
(as ``benchmarks.lean`` plays them: ``Match.new(variant, seed=i)``, moves drawn by
``SplitMix64(1_000_003 + i)``). An opcode is not a fixed cost (a call or a big integer's
product costs more than a local's read), and what runs in C (``list.remove``, a deal's big
integers) counts as the one opcode that called it: read it beside ``benchmarks.icount``, which
counts machine instructions. Compiled modules run no opcodes: measure the pure build.

>>> counts, hands = opcodes("paulista", 2)
>>> hands > 0 and sum(counts.values()) > 100 * hands
True
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import FrameType
from typing import Any

from engine import Match
from engine.shuffle import SplitMix64

Where = tuple[str, int, str]  # file name, first line, function


def opcodes(variant: str, matches: int) -> tuple[Counter[Where], int]:
    """The opcodes run by each function over ``matches`` seeded random matches of the
    variant, and the hands they played."""
    Match.new(variant, seed=0)  # the variant loaded (and its listings written) before counting
    counts: Counter[Where] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            counts[code.co_filename.rsplit("/", 1)[-1], code.co_firstlineno, code.co_name] += 1
        return trace

    hands = 0
    sys.settrace(trace)
    try:
        for i in range(matches):
            m = Match.new(variant, seed=i)
            rng = SplitMix64(1_000_003 + i)
            while not m.is_over:
                legal = m.legal_actions()
                m.apply(legal[rng.bounded(len(legal))])
            hands += m.hand_number
    finally:
        sys.settrace(None)
    return counts, hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.opcodes",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="paulista")
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--top", type=int, default=25, help="functions listed")
    args = parser.parse_args(argv)
    counts, hands = opcodes(args.variant, args.matches)
    print(f"{args.variant}: {sum(counts.values()) / hands:,.0f} opcodes a hand "
          f"({hands:,} hands of {args.matches:,} matches)")
    for (name, line, func), n in counts.most_common(args.top):
        print(f"{n / hands:10.1f}  {name}:{line} {func}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
