"""Compare the speed of two revisions on this machine in one run:
``python -m benchmarks.ab REV_A REV_B [--matches N] [--rounds R]``.

Each revision is checked out in a temporary git worktree; the two are measured in alternation
(A B A B ...) in fresh processes, so load on the machine falls on both alike. Prints the median
(and best) hands per second of each, per variant, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
from engine import Match
from engine.shuffle import SplitMix64
variant, matches = sys.argv[1], int(sys.argv[2])
def run():
    hands = 0
    for i in range(matches):
        m = Match.new(variant, seed=i)
        rng = SplitMix64(1_000_003 + i)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.bounded(len(legal))])
        hands += m.hand_number
    return hands
run()  # warm-up
t0 = time.perf_counter(); hands = run(); dt = time.perf_counter() - t0
print(json.dumps({"hands_per_s": hands / dt, "matches_per_s": matches / dt}))
"""


def measure(tree: Path, variant: str, matches: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(matches)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("rev_a")
    ap.add_argument("rev_b")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variants", default="paulista,mineiro,mineiro-12")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for rev in (args.rev_a, args.rev_b):
            path = Path(tmp) / rev.replace("/", "_")
            subprocess.run(["git", "worktree", "add", "--detach", str(path), rev], check=True,
                           capture_output=True)
            trees[rev] = path
        try:
            print(f"{'variant':12} {args.rev_a:>14} {args.rev_b:>14}  ratio   (hands/s, median "
                  f"of {args.rounds}; best in brackets)")
            for variant in args.variants.split(","):
                got: dict[str, list[float]] = {r: [] for r in trees}
                for _ in range(args.rounds):
                    for rev, tree in trees.items():
                        got[rev].append(measure(tree, variant, args.matches)["hands_per_s"])
                a = statistics.median(got[args.rev_a])
                b = statistics.median(got[args.rev_b])
                best_a, best_b = max(got[args.rev_a]), max(got[args.rev_b])
                print(f"{variant:12} {a:14.0f} {b:14.0f}  {b / a:5.2f}x   "
                      f"[{best_a:.0f} {best_b:.0f} {best_b / best_a:.2f}x]")
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)],
                               capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
