"""``truco analyze`` on a whole Paulista match (issue 30): ``python -m benchmarks.analyze_match
[--log LOG] [--playouts N] [--jobs J ...] [--rounds R] [--hindsight]``.

Runs ``truco analyze LOG --json`` (by default ``replays/paulista-seed1.jsonl`` at the default
precision, :data:`engine.analysis.evaluate.DEFAULT_PLAYOUTS` playouts a move) in fresh
processes, timed from start to exit, for each ``--jobs`` value (1 and 2 by default), the modes
in alternation, ``--rounds`` times (3 by default); reports each mode's median and best wall
clock, the decisions and the playouts made, and checks that every mode printed the same JSON.
The issue's target: a whole Paulista match under a minute on a 2-core machine (``--jobs 2``).

Writes ``benchmarks/results/analyze_match.json`` and prints a markdown table. Only figures
from a quiet machine mean anything: a machine shared with other work slows every run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from engine.analysis.evaluate import DEFAULT_PLAYOUTS
from engine.fileio import atomic_write_text

REPO = Path(__file__).resolve().parent.parent
LOG = REPO / "replays" / "paulista-seed1.jsonl"


def run_once(log: Path, playouts: int, jobs: int, hindsight: bool) -> tuple[float, bytes]:
    """One ``truco analyze`` run in a fresh process: its wall clock and its output."""
    args = [sys.executable, "-m", "engine", "analyze", str(log), "--json", "-p", str(playouts),
            "--jobs", str(jobs), *(["--hindsight"] if hindsight else [])]
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=True, cwd=REPO)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log", type=Path, default=LOG)
    ap.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hindsight", action="store_true")
    ap.add_argument("--json", type=Path,
                    default=REPO / "benchmarks" / "results" / "analyze_match.json")
    args = ap.parse_args()
    times: dict[int, list[float]] = {j: [] for j in args.jobs}
    outputs: set[str] = set()
    report: dict[str, Any] = {}
    for _ in range(args.rounds):
        for jobs in args.jobs:
            seconds, out = run_once(args.log, args.playouts, jobs, args.hindsight)
            times[jobs].append(seconds)
            outputs.add(hashlib.sha256(out).hexdigest())
            report = json.loads(out)
    if len(outputs) != 1:
        sys.exit("analyze_match: the modes printed different analyses")
    decisions = report["decisions"]
    moves = sum(len(d["legal"]) for d in decisions)
    results = {
        "log": str(args.log.relative_to(REPO) if args.log.is_relative_to(REPO) else args.log),
        "playouts": args.playouts, "hindsight": args.hindsight, "decisions": len(decisions),
        "hands_played_out": moves * args.playouts * (2 if args.hindsight else 1),
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "modes": {f"--jobs {j}": {"median_s": round(statistics.median(t), 2),
                                  "best_s": round(min(t), 2)} for j, t in times.items()}}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.json, json.dumps(results, indent=2) + "\n")
    print(f"truco analyze {results['log']}: {len(decisions)} decisions, {args.playouts} playouts"
          f" a move ({results['hands_played_out']} hands played out)\n")
    print("| mode | median (s) | best (s) |\n|---|---|---|")
    for mode, r in results["modes"].items():
        print(f"| {mode} | {r['median_s']} | {r['best_s']} |")


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    main()
