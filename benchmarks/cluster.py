"""Scale-out figures (issue 15): ``python -m benchmarks.cluster [--logs N] [--matches N]
[--rounds R]``.

Verifies N logs (``truco simulate --logs`` writes them first: Paulista, heuristic against
random) and simulates N matches through the command line, each with ``--jobs 1``, ``--jobs 2``
and ``--dask local --jobs 2`` (a LocalCluster of 2 worker processes, one thread each, started
and closed by the command), in fresh processes, timed from start to exit: start-up (and the
cluster's) included. Prints a markdown table of logs/s and matches/s, the overhead of Dask
against ``--jobs 2``, and what starting a LocalCluster costs alone (the command on one log);
checks that the three outputs are byte-identical. Writes ``benchmarks/results/cluster.json``.

Each mode runs ``--rounds`` times (3 by default), the three modes in alternation, and the
median is reported (the best run in brackets): on a shared machine the figures move by 20% and
more from one minute to the next; compare within one run only. A run of the default sizes takes
some ten minutes. CPU seconds are not reported: a LocalCluster's workers are children of a fork
server, outside what this process can count of its children.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODES = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
         "--dask local (2 workers)": ["--dask", "local", "--jobs", "2"]}


def truco(*args: str) -> tuple[float, bytes]:
    """Run ``truco ARGS`` in a fresh process: seconds from start to exit, and its output."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          check=False)
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise RuntimeError(f"truco {' '.join(args)} failed ({done.returncode}): "
                           f"{done.stderr.decode()[-800:]}")
    return seconds, done.stdout


def measure(kind: str, base: list[str], units: int, rounds: int) -> dict[str, Any]:
    """Each mode ``rounds`` times, the modes in alternation (A B C A B C ...): the median and
    best seconds and units per second, the output's digest (all must agree)."""
    seconds: dict[str, list[float]] = {name: [] for name in MODES}
    digests = set()
    for _ in range(rounds):
        for name, flags in MODES.items():
            took, out = truco(*base, *flags)
            digests.add(hashlib.sha256(out).hexdigest())
            seconds[name].append(round(took, 2))
            print(f"  {kind} {name}: {took:.2f} s", file=sys.stderr)
    if len(digests) != 1:
        raise RuntimeError(f"{kind}: the outputs differ between modes")
    rows: dict[str, dict[str, Any]] = {
        name: {"runs": got, "seconds": statistics.median(got), "best": min(got),
               "per_s": round(units / statistics.median(got), 1)}
        for name, got in seconds.items()}
    dask, two = rows["--dask local (2 workers)"], rows["--jobs 2"]
    return {"units": units, "modes": rows,
            "dask_overhead_vs_jobs_2": round(dask["seconds"] / two["seconds"] - 1, 3),
            "dask_overhead_vs_jobs_2_best": round(dask["best"] / two["best"] - 1, 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", type=int, default=20_000, help="logs to verify (default 20,000)")
    ap.add_argument("--matches", type=int, default=20_000,
                    help="matches to simulate (default 20,000)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="runs of each mode, in alternation (default 3): the median is reported")
    ap.add_argument("--json", type=Path, default=Path("benchmarks/results/cluster.json"))
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="truco-cluster-bench-"))
    try:
        logs = work / "logs"
        print(f"writing {args.logs} logs into {logs}", file=sys.stderr)
        truco("simulate", "-v", "paulista", "-n", str(args.logs), "-s", "7", "--jobs", "2",
              "--logs", str(logs))
        one_log = sorted(logs.iterdir())[0]
        startup = {name: round(truco("verify", str(one_log), *flags)[0], 2)
                   for name, flags in MODES.items()}
        result = {
            "machine": f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()} "
                       f"{platform.release()}, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "one_log_seconds": startup,
            "verify": measure("verify", ["verify", str(logs)], args.logs, args.rounds),
            "simulate": measure("simulate", ["simulate", "-v", "paulista", "-n",
                                             str(args.matches), "-s", "1", "--json"],
                                args.matches, args.rounds),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    return 0


def table(result: dict[str, Any]) -> str:
    """The README's table: medians, best runs in brackets."""
    v, s = result["verify"], result["simulate"]
    lines = [f"| | verify {v['units']:,} logs | logs/s | simulate {s['units']:,} matches | "
             "matches/s | one log (start-up) |",
             "|---|---|---|---|---|---|"]
    for name in MODES:
        a, b = v["modes"][name], s["modes"][name]
        lines.append(f"| `{name}` | {a['seconds']:.1f} s ({a['best']:.1f}) | {a['per_s']:,.0f} | "
                     f"{b['seconds']:.1f} s ({b['best']:.1f}) | {b['per_s']:,.0f} | "
                     f"{result['one_log_seconds'][name]:.2f} s |")
    lines.append(f"| Dask against `--jobs 2` | {100 * v['dask_overhead_vs_jobs_2']:+.1f}% "
                 f"({100 * v['dask_overhead_vs_jobs_2_best']:+.1f}%) | | "
                 f"{100 * s['dask_overhead_vs_jobs_2']:+.1f}% "
                 f"({100 * s['dask_overhead_vs_jobs_2_best']:+.1f}%) | | |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
