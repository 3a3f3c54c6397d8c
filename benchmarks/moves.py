"""What one move costs in ``Match.apply``, by what the move does:
``python benchmarks/moves.py [--matches N]``.

Random Paulista matches (every seat choosing uniformly among ``legal_actions()`` with a seeded
SplitMix64, as ``benchmarks.run`` plays them); only ``apply`` is timed, around each call. The
script imports nothing but ``engine``, so it measures any revision: run it with that
revision's checkout first on ``PYTHONPATH`` (``PYTHONPATH=/tmp/old python benchmarks/moves.py``),
in alternation with this one, in the same stretch.
"""

from __future__ import annotations

import argparse
import time

from engine import Match
from engine.shuffle import SplitMix64


def measure(matches: int, variant: str = "paulista") -> dict[str, tuple[float, int]]:
    """Mean µs of ``apply`` and count, per kind of move."""
    spent: dict[str, list[float]] = {}
    clock = time.perf_counter
    for i in range(matches):
        m = Match.new(variant, seed=i)
        rng = SplitMix64(1_000_003 + i)
        while not m.is_over:
            legal = m.legal_actions()
            action = legal[rng.bounded(len(legal))]
            t0 = clock()
            checkpoints = m.apply(action)
            dt = clock() - t0
            events = {c["event"] for c in checkpoints}
            what = ("ends the hand" if "hand" in events or "game" in events
                    else "ends a round" if events
                    else "a card that ends nothing" if action.kind == "play"
                    else "a raise" if action.kind == "raise" else "other")
            entry = spent.setdefault(what, [0.0, 0])
            entry[0] += dt
            entry[1] += 1
    return {k: (total / n * 1e6, int(n)) for k, (total, n) in spent.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=300)
    args = ap.parse_args()
    measure(50)  # warm-up
    for what, (us, n) in sorted(measure(args.matches).items()):
        print(f"{what:26} {n:7} moves {us:8.2f} us")


if __name__ == "__main__":
    main()
