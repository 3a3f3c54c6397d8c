"""Compare the speed of two revisions on this machine in one run:
``python -m benchmarks.ab REV_A REV_B [--matches N] [--rounds R]``.

Each revision is checked out in a temporary git worktree; the two are measured in alternation
(A B A B ...) in fresh processes, so load on the machine falls on both alike. Prints the median
(and best) hands per second of each, per variant, and the ratio; then (``--verify N``, 300 by
default, 0 to skip) the logs verified per second in-process (``engine.replay.verify_file``) of
the same N Paulista logs, written once by this checkout's engine before the runs.
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


VERIFY_CHILD = r"""
import json, sys, time
from pathlib import Path
from engine.replay import verify_file
paths = sorted(Path(sys.argv[1]).glob("*.jsonl"))
def run():
    for p in paths:
        if not verify_file(p).valid:
            raise SystemExit(f"{p} does not verify")
    return len(paths)
run()  # warm-up
t0 = time.perf_counter(); n = run(); dt = time.perf_counter() - t0
print(json.dumps({"logs_per_s": n / dt}))
"""


def write_logs(folder: Path, count: int) -> None:
    """``count`` Paulista logs, as ``benchmarks.run`` writes them (random moves, seeded)."""
    import io

    from benchmarks.run import play_random
    from engine import Match
    from engine.logformat import Recorder
    from engine.shuffle import SplitMix64

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        m = Match.new("paulista", seed=i)
        out = io.StringIO()
        play_random(m, SplitMix64(99 + i), Recorder(m, out, variant="paulista"))
        (folder / f"m{i:05d}.jsonl").write_text(out.getvalue(), encoding="utf-8")


def measure_verify(tree: Path, folder: Path) -> float:
    out = subprocess.run([sys.executable, "-c", VERIFY_CHILD, str(folder)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["logs_per_s"])


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
    ap.add_argument("--verify", type=int, default=300, metavar="N",
                    help="logs verified in-process per run (0: skip)")
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
            if args.verify:
                logs = Path(tmp) / "logs"
                write_logs(logs, args.verify)
                got = {r: [] for r in trees}
                for _ in range(args.rounds):
                    for rev, tree in trees.items():
                        got[rev].append(measure_verify(tree, logs))
                a = statistics.median(got[args.rev_a])
                b = statistics.median(got[args.rev_b])
                best_a, best_b = max(got[args.rev_a]), max(got[args.rev_b])
                print(f"{'verify':12} {a:14.0f} {b:14.0f}  {b / a:5.2f}x   "
                      f"[{best_a:.0f} {best_b:.0f} {best_b / best_a:.2f}x]  (Paulista logs "
                      f"verified per second in-process, {args.verify} logs)")
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)],
                               capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
